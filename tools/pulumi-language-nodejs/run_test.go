package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/protobuf/types/known/structpb"
)

func TestEntryPoint(t *testing.T) {
	tests := []struct {
		name    string
		info    *pulumirpc.ProgramInfo
		program string
		want    string
	}{
		{name: "ProgramInfo's entry point wins", info: &pulumirpc.ProgramInfo{EntryPoint: "index.ts"}, program: "other.js", want: "/proj/index.ts"},
		{name: "else the request's program", info: &pulumirpc.ProgramInfo{}, program: "bin/main.js", want: "/proj/bin/main.js"},
		{name: "else the program directory itself", info: nil, program: "", want: "/proj"},
		{name: "an absolute entry point is kept", info: &pulumirpc.ProgramInfo{EntryPoint: "/elsewhere/main.js"}, want: "/elsewhere/main.js"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := entryPoint(tt.info, tt.program, "/proj"); got != tt.want {
				t.Errorf("entryPoint() = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestRunArgs(t *testing.T) {
	t.Run("every flag cmd/run reads, in order, then the program and its arguments", func(t *testing.T) {
		req := &pulumirpc.RunRequest{
			MonitorAddress: "127.0.0.1:1", Organization: "org", Project: "proj", Stack: "dev", Pwd: "/proj",
			DryRun: true, Parallel: 8, Args: []string{"a", "b"}, Info: &pulumirpc.ProgramInfo{RootDirectory: "/root"},
		}
		o := options{nodeArgs: []string{"--inspect"}}
		got := runArgs(req, o, "/nm/run/index.js", "/proj/index.ts", "127.0.0.1:2", "http://trace")
		want := []string{
			"--inspect", "/nm/run/index.js", "--monitor=127.0.0.1:1", "--engine=127.0.0.1:2", "--organization=org",
			"--project=proj", "--stack=dev", "--pwd=/proj", "--root-directory=/root", "--dry-run", "--parallel=8",
			"--tracing=http://trace", "/proj/index.ts", "a", "b",
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("runArgs() =\n%q, want\n%q", got, want)
		}
	})
	t.Run("empty values and a zero parallelism are left out", func(t *testing.T) {
		got := runArgs(&pulumirpc.RunRequest{}, options{}, "/nm/run/index.js", "/proj", "", "")
		if want := []string{"/nm/run/index.js", "/proj"}; !reflect.DeepEqual(got, want) {
			t.Errorf("runArgs() = %q, want %q", got, want)
		}
	})
}

func TestRunEnv(t *testing.T) {
	base := make([]string, 1, 4) // spare capacity: runEnv must not write into the caller's array
	base[0] = "HOME=/home/me"
	tests := []struct {
		name string
		req  *pulumirpc.RunRequest
		o    options
		want []string
	}{
		{
			name: "no configuration is an empty object and no secret keys an empty array",
			req:  &pulumirpc.RunRequest{},
			o:    options{typescript: true},
			want: []string{"HOME=/home/me", "PULUMI_CONFIG={}", "PULUMI_CONFIG_SECRET_KEYS=[]", "PULUMI_NODEJS_TYPESCRIPT=true"},
		},
		{
			name: "configuration, secret keys and the tsconfig path",
			req: &pulumirpc.RunRequest{
				Config: map[string]string{"runpod:apiUrl": "http://x"}, ConfigSecretKeys: []string{"runpod:apiKey"},
			},
			o: options{typescript: false, tsconfig: "tsconfig.build.json"},
			want: []string{
				"HOME=/home/me", `PULUMI_CONFIG={"runpod:apiUrl":"http://x"}`, `PULUMI_CONFIG_SECRET_KEYS=["runpod:apiKey"]`,
				"PULUMI_NODEJS_TYPESCRIPT=false", "PULUMI_NODEJS_TSCONFIG_PATH=tsconfig.build.json",
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := runEnv(base, tt.req, tt.o); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("runEnv() = %q, want %q", got, tt.want)
			}
			if base[:cap(base)][1] != "" {
				t.Errorf("runEnv wrote into the base environment's array")
			}
		})
	}
}

func TestRunResponse(t *testing.T) {
	tests := []struct {
		name string
		err  error
		want *pulumirpc.RunResponse
	}{
		{name: "success", err: nil, want: &pulumirpc.RunResponse{}},
		{name: "exit code 32 is a bail", err: exitError(t, "exit 32"), want: &pulumirpc.RunResponse{Bail: true}},
		{
			name: "another exit code is an error naming it",
			err:  exitError(t, "exit 3"),
			want: &pulumirpc.RunResponse{Error: "Program exited with non-zero exit code: 3"},
		},
		{
			name: "death by a signal is an unexpected exit",
			err:  exitError(t, "kill -KILL $$"),
			want: &pulumirpc.RunResponse{Error: "Program exited unexpectedly: signal: killed"},
		},
		{
			name: "node that cannot start is a problem executing the program",
			err:  os.ErrNotExist,
			want: &pulumirpc.RunResponse{Error: "Problem executing program (could not run language executor): file does not exist"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := runResponse(tt.err)
			if got.GetBail() != tt.want.GetBail() || got.GetError() != tt.want.GetError() {
				t.Errorf("runResponse() = %v, want %v", got, tt.want)
			}
		})
	}
}

// fakeRun is a stand-in for @pulumi/pulumi/cmd/run: it records its arguments, working
// directory and the environment the host sets, then exits with $FAKE_EXIT_CODE.
const fakeRun = `
const fs = require("fs");
const keys = ["PULUMI_CONFIG", "PULUMI_CONFIG_SECRET_KEYS", "PULUMI_NODEJS_TYPESCRIPT"];
fs.writeFileSync(process.env.FAKE_OUT, JSON.stringify({
	argv: process.argv.slice(2), cwd: process.cwd(), env: Object.fromEntries(keys.map((k) => [k, process.env[k]])),
}));
process.exit(Number(process.env.FAKE_EXIT_CODE));
`

func TestRunStartsCmdRunWithNode(t *testing.T) {
	requireNode(t)
	dir := tempDir(t)
	runPath := writeFile(t, dir, "node_modules/@pulumi/pulumi/cmd/run/index.js", fakeRun)
	writeFile(t, dir, "node_modules/@pulumi/pulumi/package.json", `{"name": "@pulumi/pulumi"}`)
	out := filepath.Join(dir, "out.json")
	t.Setenv("FAKE_OUT", out)
	opts, _ := structpb.NewStruct(map[string]any{"typescript": false})
	req := &pulumirpc.RunRequest{
		Pwd: dir, Stack: "dev", Config: map[string]string{"p:k": "v"},
		Info: &pulumirpc.ProgramInfo{ProgramDirectory: dir, EntryPoint: "index.js", Options: opts},
	}
	h := newHost(hostFlags{engineAddress: "127.0.0.1:9", defaults: defaultOptions()})

	for code, want := range map[string]*pulumirpc.RunResponse{
		"0":  {},
		"32": {Bail: true},
		"1":  {Error: "Program exited with non-zero exit code: 1"},
	} {
		t.Setenv("FAKE_EXIT_CODE", code)
		got, err := h.Run(context.Background(), req)
		if err != nil {
			t.Fatal(err)
		}
		if got.GetBail() != want.GetBail() || got.GetError() != want.GetError() {
			t.Errorf("exit code %s: Run() = %v, want %v", code, got, want)
		}
	}

	var seen struct {
		Argv []string
		Cwd  string
		Env  map[string]string
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &seen); err != nil {
		t.Fatal(err)
	}
	wantArgv := []string{"--engine=127.0.0.1:9", "--stack=dev", "--pwd=" + dir, filepath.Join(dir, "index.js")}
	if !reflect.DeepEqual(seen.Argv, wantArgv) || seen.Cwd != dir {
		t.Errorf("cmd/run (%s) saw argv %q in %s, want %q in %s", runPath, seen.Argv, seen.Cwd, wantArgv, dir)
	}
	wantEnv := map[string]string{
		"PULUMI_CONFIG": `{"p:k":"v"}`, "PULUMI_CONFIG_SECRET_KEYS": "[]", "PULUMI_NODEJS_TYPESCRIPT": "false",
	}
	if !reflect.DeepEqual(seen.Env, wantEnv) {
		t.Errorf("cmd/run saw environment %v, want %v", seen.Env, wantEnv)
	}
}

func TestRunWithoutThePulumiSDKSaysToInstallIt(t *testing.T) {
	requireNode(t)
	dir := tempDir(t)
	h := newHost(hostFlags{defaults: defaultOptions()})
	got, err := h.Run(context.Background(), &pulumirpc.RunRequest{Pwd: dir})
	if err != nil {
		t.Fatal(err)
	}
	want := `it looks like the Pulumi SDK has not been installed: could not find module "@pulumi/pulumi/cmd/run" from "` +
		dir + `"; have you run 'npm install'?`
	if got.GetError() != want {
		t.Errorf("Run() error = %q, want %q", got.GetError(), want)
	}
}
