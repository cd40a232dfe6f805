package main

import (
	"reflect"
	"strings"
	"testing"

	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
)

func TestPluginProgram(t *testing.T) {
	tests := []struct {
		name                 string
		req                  *pulumirpc.RunPluginRequest
		wantDir, wantProgram string
	}{
		{
			name:    "ProgramInfo's directory, with the entry point the plugin names",
			req:     &pulumirpc.RunPluginRequest{Program: "/other", Info: &pulumirpc.ProgramInfo{ProgramDirectory: "/pack", EntryPoint: "bin/index.js"}},
			wantDir: "/pack", wantProgram: "/pack/bin/index.js",
		},
		{
			name:    "an entry point of . is the directory itself",
			req:     &pulumirpc.RunPluginRequest{Info: &pulumirpc.ProgramInfo{ProgramDirectory: "/pack", EntryPoint: "."}},
			wantDir: "/pack", wantProgram: "/pack",
		},
		{
			name:    "without ProgramInfo's directory, the request's program",
			req:     &pulumirpc.RunPluginRequest{Program: "/provider", Pwd: "/cwd"},
			wantDir: "/provider", wantProgram: "/provider",
		},
		{
			name:    "else the request's working directory",
			req:     &pulumirpc.RunPluginRequest{Pwd: "/cwd"},
			wantDir: "/cwd", wantProgram: "/cwd",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir, program := pluginProgram(tt.req)
			if dir != tt.wantDir || program != tt.wantProgram {
				t.Errorf("pluginProgram() = %q, %q, want %q, %q", dir, program, tt.wantDir, tt.wantProgram)
			}
		})
	}
}

func TestPluginArgs(t *testing.T) {
	nodeArgs := []string{"--inspect"}
	t.Run("a policy pack gets the engine address before the program", func(t *testing.T) {
		got := pluginArgs(true, nodeArgs, "/run-policy-pack.js", "/pack", []string{"127.0.0.1:9"})
		if want := []string{"--inspect", "/run-policy-pack.js", "127.0.0.1:9", "/pack"}; !reflect.DeepEqual(got, want) {
			t.Errorf("pluginArgs() = %q, want %q", got, want)
		}
	})
	t.Run("a provider gets its arguments after the program", func(t *testing.T) {
		got := pluginArgs(false, nodeArgs, "/run-plugin.js", "/provider", []string{"127.0.0.1:9"})
		if want := []string{"--inspect", "/run-plugin.js", "/provider", "127.0.0.1:9"}; !reflect.DeepEqual(got, want) {
			t.Errorf("pluginArgs() = %q, want %q", got, want)
		}
	})
	t.Run("the node arguments are not written to", func(t *testing.T) {
		shared := make([]string, 1, 4)
		shared[0] = "--inspect"
		pluginArgs(false, shared, "/a.js", "/p", nil)
		if shared[:2][1] != "" {
			t.Error("pluginArgs wrote into the node arguments' array")
		}
	})
}

func TestIsPolicyPack(t *testing.T) {
	for kind, want := range map[string]bool{"analyzer": true, "policy": true, "resource": false, "": false} {
		if got := isPolicyPack(kind); got != want {
			t.Errorf("isPolicyPack(%q) = %v, want %v", kind, got, want)
		}
	}
}

// fakeRunner stands in for cmd/run-plugin and cmd/run-policy-pack: it names itself and its
// arguments on stdout, writes to stderr, and exits with 3.
const fakeRunner = `
console.log(require("path").basename(__dirname), process.argv.slice(2).join(" "), process.env.FROM_REQUEST);
console.error("on stderr");
process.exit(3);
`

func TestRunPluginStreamsOutputThenTheExitCode(t *testing.T) {
	requireNode(t)
	dir := tempDir(t)
	writeFile(t, dir, "node_modules/@pulumi/pulumi/package.json", `{"name": "@pulumi/pulumi"}`)
	writeFile(t, dir, "node_modules/@pulumi/pulumi/cmd/run-plugin/index.js", fakeRunner)
	writeFile(t, dir, "node_modules/@pulumi/pulumi/cmd/run-policy-pack/index.js", fakeRunner)
	h := newHost(hostFlags{defaults: defaultOptions()})

	for kind, want := range map[string]string{
		"resource": "run-plugin " + dir + " 127.0.0.1:9 yes\n",
		"analyzer": "run-policy-pack 127.0.0.1:9 " + dir + " yes\n",
	} {
		stream := &fakeStream[pulumirpc.RunPluginResponse]{}
		req := &pulumirpc.RunPluginRequest{
			Kind: kind, Args: []string{"127.0.0.1:9"}, Env: []string{"FROM_REQUEST=yes"},
			Info: &pulumirpc.ProgramInfo{ProgramDirectory: dir, EntryPoint: "."},
		}
		if err := h.RunPlugin(req, stream); err != nil {
			t.Fatalf("%s: %v", kind, err)
		}
		var stdout, stderr strings.Builder
		for _, m := range stream.sent[:len(stream.sent)-1] {
			stdout.Write(m.GetStdout())
			stderr.Write(m.GetStderr())
		}
		if stdout.String() != want || stderr.String() != "on stderr\n" {
			t.Errorf("%s: stdout %q and stderr %q, want %q and %q", kind, stdout.String(), stderr.String(), want, "on stderr\n")
		}
		last := stream.sent[len(stream.sent)-1]
		if _, ok := last.GetOutput().(*pulumirpc.RunPluginResponse_Exitcode); !ok || last.GetExitcode() != 3 {
			t.Errorf("%s: last message %v, want exit code 3", kind, last)
		}
	}
}
