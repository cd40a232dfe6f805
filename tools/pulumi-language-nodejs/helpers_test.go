package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"google.golang.org/grpc"
)

// writeFile writes content to root/rel, creating the directories on the way.
func writeFile(t *testing.T, root, rel, content string) string {
	t.Helper()
	path := filepath.Join(root, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// symlink makes rel under root a link to target, creating the directories on the way.
func symlink(t *testing.T, target, root, rel string) {
	t.Helper()
	path := filepath.Join(root, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, path); err != nil {
		t.Fatal(err)
	}
}

// tempDir is t.TempDir with symlinks resolved, so that it compares equal to the paths node
// prints (node resolves symlinks, and on some systems the temporary folder is behind one).
func tempDir(t *testing.T) string {
	t.Helper()
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// requireNode fails the test when node is not on PATH: the tests that start the fake
// @pulumi/pulumi entry points need it, as the host does.
func requireNode(t *testing.T) string {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		t.Fatal("node is not on PATH; these tests run Node.js as the language host does")
	}
	return node
}

// exitError returns the error of a shell that runs script, to get real *exec.ExitError values.
func exitError(t *testing.T, script string) error {
	t.Helper()
	err := exec.Command("sh", "-c", script).Run()
	if err == nil {
		t.Fatalf("sh -c %q succeeded", script)
	}
	return err
}

// fakeStream records what a streaming RPC sends. Only Context and Send are called by the host;
// the embedded nil ServerStream satisfies the rest of the interface.
type fakeStream[T any] struct {
	grpc.ServerStream
	sent []*T
}

func (s *fakeStream[T]) Context() context.Context { return context.Background() }

func (s *fakeStream[T]) Send(m *T) error {
	s.sent = append(s.sent, m)
	return nil
}
