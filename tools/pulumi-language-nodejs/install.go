package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"

	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc"
)

// InstallDependencies runs `<package manager> install` where the program's package.json is (for
// `pulumi install`, and `pulumi new`/`up` on a project without node_modules), streaming its output.
func (h *host) InstallDependencies(
	req *pulumirpc.InstallDependenciesRequest, server grpc.ServerStreamingServer[pulumirpc.InstallDependenciesResponse],
) error {
	dir := installDirectory(req)
	pm := packageManager(h.options(req.GetInfo()).packageManager, dir)
	bin, err := exec.LookPath(pm)
	if err != nil {
		return fmt.Errorf("could not find the package manager %q on PATH", pm)
	}
	var mu sync.Mutex
	cmd := exec.CommandContext(server.Context(), bin, "install")
	cmd.Dir = dir
	cmd.Stdout = streamWriter{mu: &mu, send: func(b []byte) error {
		return server.Send(&pulumirpc.InstallDependenciesResponse{Stdout: b})
	}}
	cmd.Stderr = streamWriter{mu: &mu, send: func(b []byte) error {
		return server.Send(&pulumirpc.InstallDependenciesResponse{Stderr: b})
	}}
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("%s install failed in %s: %w", pm, dir, err)
	}
	return nil
}

// installDirectory is the nearest directory holding a package.json, from the program directory
// (or the request's directory) up; the request's directory when there is none.
func installDirectory(req *pulumirpc.InstallDependenciesRequest) string {
	dir := req.GetDirectory()
	if programDir := req.GetInfo().GetProgramDirectory(); programDir != "" {
		dir = programDir
	}
	if path, ok := findUp(dir, "package.json"); ok {
		return filepath.Dir(path)
	}
	return dir
}

// lockFiles name the package manager that wrote them, in the order of precedence of the official
// host (sdk/v3's nodejs/npm.ResolvePackageManager) for a directory that holds more than one.
var lockFiles = []struct{ file, manager string }{
	{"yarn.lock", "yarn"},
	{"pnpm-lock.yaml", "pnpm"},
	{"bun.lock", "bun"},  // bun >= 1.2
	{"bun.lockb", "bun"}, // bun < 1.2
}

// packageManager is the configured package manager, or for "" and "auto" the one whose lock file
// is in dir, npm when there is none.
func packageManager(configured, dir string) string {
	if configured != "" && configured != "auto" {
		return configured
	}
	for _, l := range lockFiles {
		if _, err := os.Stat(filepath.Join(dir, l.file)); err == nil {
			return l.manager
		}
	}
	return "npm"
}
