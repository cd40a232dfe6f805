package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
)

// Entry points of the @pulumi/pulumi npm package that the host starts with node.
const (
	runModule           = "@pulumi/pulumi/cmd/run"
	runPluginModule     = "@pulumi/pulumi/cmd/run-plugin"
	runPolicyPackModule = "@pulumi/pulumi/cmd/run-policy-pack"
)

// nodeBinary finds node on PATH, the one the user's shell would run.
func nodeBinary() (string, error) {
	node, err := exec.LookPath("node")
	if err != nil {
		return "", errors.New("could not find the 'node' executable on PATH; " +
			"install Node.js to run Pulumi Node.js programs")
	}
	return node, nil
}

// resolveModule finds the file of module as Node.js resolves it from dir, so that hoisted,
// workspace and symlinked installs are found with the program's own @pulumi/pulumi. When node
// cannot answer, it looks for node_modules/<module>/index.js in dir and its ancestors.
func resolveModule(node, dir, module string) (string, error) {
	cmd := exec.Command(node, "-e", "process.stdout.write(require.resolve(process.argv[1]))", module)
	cmd.Dir = dir
	var out bytes.Buffer
	cmd.Stdout = &out
	if err := cmd.Run(); err == nil && out.Len() > 0 {
		return strings.TrimSpace(out.String()), nil
	}
	if path, ok := findUp(dir, filepath.Join("node_modules", filepath.FromSlash(module), "index.js")); ok {
		return path, nil
	}
	return "", fmt.Errorf("it looks like the Pulumi SDK has not been installed: could not find module %q from %q; "+
		"have you run 'npm install'?", module, dir)
}

// findUp returns the path of rel under dir or under the nearest ancestor of dir where it exists.
func findUp(dir, rel string) (string, bool) {
	for d := dir; ; d = filepath.Dir(d) {
		path := filepath.Join(d, rel)
		if _, err := os.Stat(path); err == nil {
			return path, true
		}
		if filepath.Dir(d) == d {
			return "", false
		}
	}
}

// programDirectory is the directory of the project's program (Pulumi.yaml's `main` directory):
// ProgramInfo's, else the request's working directory, else the host's.
func programDirectory(info *pulumirpc.ProgramInfo, pwd string) string {
	if dir := info.GetProgramDirectory(); dir != "" {
		return dir
	}
	if pwd != "" {
		return pwd
	}
	wd, _ := os.Getwd()
	return wd
}
