package main

import (
	"reflect"
	"testing"
)

func TestParseFlags(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want hostFlags
	}{
		{
			name: "the engine address alone keeps the defaults",
			args: []string{"127.0.0.1:4000"},
			want: hostFlags{engineAddress: "127.0.0.1:4000", defaults: options{typescript: true}},
		},
		{
			name: "values come after = or as the next argument, with one dash or two",
			args: []string{
				"--tracing=http://trace", "-root", "/project", "--tsconfig", "tsconfig.build.json",
				"--nodeargs", "--max-old-space-size=4096  --enable-source-maps", "-packagemanager=pnpm",
				"127.0.0.1:4000",
			},
			want: hostFlags{
				tracing:       "http://trace",
				engineAddress: "127.0.0.1:4000",
				defaults: options{
					typescript:     true,
					tsconfig:       "tsconfig.build.json",
					nodeArgs:       []string{"--max-old-space-size=4096", "--enable-source-maps"},
					packageManager: "pnpm",
				},
			},
		},
		{
			name: "a bare --typescript is true and does not take the next argument",
			args: []string{"--typescript=false", "--typescript", "127.0.0.1:4000"},
			want: hostFlags{engineAddress: "127.0.0.1:4000", defaults: options{typescript: true}},
		},
		{
			name: "--typescript=false turns TypeScript off",
			args: []string{"--typescript=false", "127.0.0.1:4000"},
			want: hostFlags{engineAddress: "127.0.0.1:4000", defaults: options{typescript: false}},
		},
		{
			name: "unknown flags are ignored and the engine address is the last positional argument",
			args: []string{"--from-a-newer-cli", "value", "--other=1", "-", "127.0.0.1:4000"},
			want: hostFlags{engineAddress: "127.0.0.1:4000", defaults: options{typescript: true}},
		},
		{
			name: "a value flag at the end has an empty value",
			args: []string{"127.0.0.1:4000", "--tracing"},
			want: hostFlags{engineAddress: "127.0.0.1:4000", defaults: options{typescript: true}},
		},
		{
			name: "a flag's value is never read as a flag",
			args: []string{"--tracing", "--version", "127.0.0.1:4000"},
			want: hostFlags{tracing: "--version", engineAddress: "127.0.0.1:4000", defaults: options{typescript: true}},
		},
		{
			name: "--version asks for the version",
			args: []string{"--version"},
			want: hostFlags{showVersion: true, defaults: options{typescript: true}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := parseFlags(tt.args); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("parseFlags(%q) = %+v, want %+v", tt.args, got, tt.want)
			}
		})
	}
}
