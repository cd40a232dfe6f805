package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/protobuf/types/known/structpb"
)

func TestInstallDirectory(t *testing.T) {
	root := tempDir(t)
	writeFile(t, root, "app/package.json", "{}")
	nested := filepath.Join(root, "app", "infra", "stack")
	if err := os.MkdirAll(nested, 0o755); err != nil {
		t.Fatal(err)
	}
	bare := filepath.Join(root, "bare")
	tests := []struct {
		name string
		req  *pulumirpc.InstallDependenciesRequest
		want string
	}{
		{
			name: "the nearest package.json above the program directory",
			req:  &pulumirpc.InstallDependenciesRequest{Directory: bare, Info: &pulumirpc.ProgramInfo{ProgramDirectory: nested}},
			want: filepath.Join(root, "app"),
		},
		{
			name: "the request's directory without a program directory",
			req:  &pulumirpc.InstallDependenciesRequest{Directory: filepath.Join(root, "app")},
			want: filepath.Join(root, "app"),
		},
		{
			name: "the directory itself when no package.json is above it",
			req:  &pulumirpc.InstallDependenciesRequest{Directory: bare},
			want: bare,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := installDirectory(tt.req); got != tt.want {
				t.Errorf("installDirectory() = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestPackageManager(t *testing.T) {
	tests := []struct {
		name       string
		configured string
		lockFiles  []string
		want       string
	}{
		{name: "npm without a lock file", want: "npm"},
		{name: "npm with its own lock file", lockFiles: []string{"package-lock.json"}, want: "npm"},
		{name: "yarn.lock is yarn", lockFiles: []string{"yarn.lock"}, want: "yarn"},
		{name: "pnpm-lock.yaml is pnpm", lockFiles: []string{"pnpm-lock.yaml"}, want: "pnpm"},
		{name: "bun.lock is bun", lockFiles: []string{"bun.lock"}, want: "bun"},
		{name: "bun.lockb is bun", lockFiles: []string{"bun.lockb"}, want: "bun"},
		{name: "yarn before pnpm before bun", lockFiles: []string{"bun.lock", "pnpm-lock.yaml", "yarn.lock"}, want: "yarn"},
		{name: "pnpm before bun", lockFiles: []string{"bun.lockb", "pnpm-lock.yaml"}, want: "pnpm"},
		{name: "auto detects too", configured: "auto", lockFiles: []string{"pnpm-lock.yaml"}, want: "pnpm"},
		{name: "a configured package manager wins", configured: "npm", lockFiles: []string{"yarn.lock"}, want: "npm"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			for _, f := range tt.lockFiles {
				writeFile(t, dir, f, "")
			}
			if got := packageManager(tt.configured, dir); got != tt.want {
				t.Errorf("packageManager(%q) = %q, want %q", tt.configured, got, tt.want)
			}
		})
	}
}

func TestInstallDependenciesRunsThePackageManagerWhereThePackageJSONIs(t *testing.T) {
	root := tempDir(t)
	writeFile(t, root, "package.json", "{}")
	bin := filepath.Join(root, "bin")
	// A package manager that says where and how it was run.
	writeFile(t, bin, "fakepm", "#!/bin/sh\necho \"$(pwd) $*\"\necho warning >&2\n")
	if err := os.Chmod(filepath.Join(bin, "fakepm"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	opts, _ := structpb.NewStruct(map[string]any{"packagemanager": "fakepm"})
	stream := &fakeStream[pulumirpc.InstallDependenciesResponse]{}
	h := newHost(hostFlags{defaults: defaultOptions()})
	req := &pulumirpc.InstallDependenciesRequest{
		Info: &pulumirpc.ProgramInfo{ProgramDirectory: filepath.Join(root, "infra"), Options: opts},
	}
	if err := h.InstallDependencies(req, stream); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr strings.Builder
	for _, m := range stream.sent {
		stdout.Write(m.GetStdout())
		stderr.Write(m.GetStderr())
	}
	if want := root + " install\n"; stdout.String() != want || stderr.String() != "warning\n" {
		t.Errorf("stdout %q and stderr %q, want %q and %q", stdout.String(), stderr.String(), want, "warning\n")
	}
}

func TestInstallDependenciesNamesAMissingPackageManager(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	h := newHost(hostFlags{defaults: options{packageManager: "pnpm"}})
	err := h.InstallDependencies(&pulumirpc.InstallDependenciesRequest{Directory: t.TempDir()},
		&fakeStream[pulumirpc.InstallDependenciesResponse]{})
	if want := `could not find the package manager "pnpm" on PATH`; err == nil || err.Error() != want {
		t.Errorf("InstallDependencies() error = %v, want %q", err, want)
	}
}
