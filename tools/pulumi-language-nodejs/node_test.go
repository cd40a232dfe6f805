package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
)

func TestFindUp(t *testing.T) {
	root := tempDir(t)
	writeFile(t, root, "package.json", "{}")
	writeFile(t, root, "a/package.json", "{}")
	deep := filepath.Join(root, "a", "b", "c")
	tests := []struct {
		name, dir, rel, want string
	}{
		{name: "in the directory itself", dir: filepath.Join(root, "a"), rel: "package.json", want: filepath.Join(root, "a", "package.json")},
		{name: "the nearest ancestor wins", dir: deep, rel: "package.json", want: filepath.Join(root, "a", "package.json")},
		{name: "a missing directory is walked up too", dir: filepath.Join(root, "nope"), rel: "package.json", want: filepath.Join(root, "package.json")},
		{name: "nothing found", dir: deep, rel: "no-such-file-anywhere.json", want: ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := findUp(tt.dir, tt.rel)
			if got != tt.want || ok != (tt.want != "") {
				t.Errorf("findUp(%q, %q) = %q, %v, want %q", tt.dir, tt.rel, got, ok, tt.want)
			}
		})
	}
}

func TestResolveModule(t *testing.T) {
	root := tempDir(t)
	runPath := writeFile(t, root, "node_modules/@pulumi/pulumi/cmd/run/index.js", "")
	writeFile(t, root, "node_modules/@pulumi/pulumi/package.json", `{"name": "@pulumi/pulumi"}`)
	program := filepath.Join(root, "infra", "stack")
	if err := os.MkdirAll(program, 0o755); err != nil {
		t.Fatal(err)
	}

	t.Run("node resolves the module from the program directory", func(t *testing.T) {
		got, err := resolveModule(requireNode(t), program, runModule)
		if err != nil || got != runPath {
			t.Errorf("resolveModule() = %q, %v, want %q", got, err, runPath)
		}
	})
	t.Run("without a working node, node_modules folders are searched upwards", func(t *testing.T) {
		got, err := resolveModule(filepath.Join(root, "no-node"), program, runModule)
		if err != nil || got != runPath {
			t.Errorf("resolveModule() = %q, %v, want %q", got, err, runPath)
		}
	})
	t.Run("a missing module says to run npm install", func(t *testing.T) {
		_, err := resolveModule(filepath.Join(root, "no-node"), program, runPolicyPackModule)
		if err == nil || !strings.Contains(err.Error(), "have you run 'npm install'?") {
			t.Errorf("resolveModule() error = %v, want one that says to run npm install", err)
		}
	})
}

func TestProgramDirectory(t *testing.T) {
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		info *pulumirpc.ProgramInfo
		pwd  string
		want string
	}{
		{name: "ProgramInfo's directory first", info: &pulumirpc.ProgramInfo{ProgramDirectory: "/proj/src"}, pwd: "/proj", want: "/proj/src"},
		{name: "else the request's working directory", info: &pulumirpc.ProgramInfo{}, pwd: "/proj", want: "/proj"},
		{name: "else the host's working directory", info: nil, pwd: "", want: wd},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := programDirectory(tt.info, tt.pwd); got != tt.want {
				t.Errorf("programDirectory() = %q, want %q", got, tt.want)
			}
		})
	}
}
