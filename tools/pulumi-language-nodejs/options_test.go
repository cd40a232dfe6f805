package main

import (
	"reflect"
	"testing"

	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/protobuf/types/known/structpb"
)

func TestOptionsMerge(t *testing.T) {
	defaults := options{typescript: true, tsconfig: "flag.json", nodeArgs: []string{"--inspect"}, packageManager: "npm"}
	withOptions := func(m map[string]any) *pulumirpc.ProgramInfo {
		s, err := structpb.NewStruct(m)
		if err != nil {
			t.Fatal(err)
		}
		return &pulumirpc.ProgramInfo{Options: s}
	}
	tests := []struct {
		name string
		info *pulumirpc.ProgramInfo
		want options
	}{
		{name: "no program info keeps the defaults", info: nil, want: defaults},
		{name: "program info without options keeps the defaults", info: &pulumirpc.ProgramInfo{}, want: defaults},
		{
			name: "the project's options replace the defaults",
			info: withOptions(map[string]any{
				"typescript": false, "tsconfig": "project.json", "nodeargs": "--a  --b", "packagemanager": "yarn",
			}),
			want: options{typescript: false, tsconfig: "project.json", nodeArgs: []string{"--a", "--b"}, packageManager: "yarn"},
		},
		{
			name: "options the project does not set keep their defaults",
			info: withOptions(map[string]any{"packagemanager": "bun"}),
			want: options{typescript: true, tsconfig: "flag.json", nodeArgs: []string{"--inspect"}, packageManager: "bun"},
		},
		{
			name: "values of the wrong type are ignored",
			info: withOptions(map[string]any{"typescript": "no", "tsconfig": 1, "nodeargs": []any{"--a"}}),
			want: defaults,
		},
		{
			name: "unknown options are ignored",
			info: withOptions(map[string]any{"binary": "bin/index.js"}),
			want: defaults,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := defaults.merge(tt.info); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("merge() = %+v, want %+v", got, tt.want)
			}
		})
	}
}
