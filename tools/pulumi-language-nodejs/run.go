package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"

	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
)

// exitCodeBail is the exit code of the Node.js entry points after they have reported the error
// to the engine themselves; the CLI should then fail without printing another message.
const exitCodeBail = 32

// Run runs a Pulumi program: node [nodeargs] @pulumi/pulumi/cmd/run [flags] ENTRY [args], with
// the stack's configuration in the environment, its output on the host's own (which the CLI
// shows), and node's exit mapped to the RunResponse.
func (h *host) Run(ctx context.Context, req *pulumirpc.RunRequest) (*pulumirpc.RunResponse, error) {
	node, err := nodeBinary()
	if err != nil {
		return &pulumirpc.RunResponse{Error: err.Error()}, nil
	}
	info := req.GetInfo()
	progDir := programDirectory(info, req.GetPwd())
	runPath, err := resolveModule(node, progDir, runModule)
	if err != nil {
		return &pulumirpc.RunResponse{Error: err.Error()}, nil
	}
	o := h.options(info)
	entry := entryPoint(info, req.GetProgram(), progDir)

	cmd := exec.CommandContext(ctx, node, runArgs(req, o, runPath, entry, h.engine(), h.tracing)...)
	cmd.Dir = progDir
	if req.GetPwd() != "" {
		cmd.Dir = req.GetPwd()
	}
	cmd.Env = runEnv(os.Environ(), req, o)
	cmd.Stdout = os.Stdout
	cmd.Stderr = os.Stderr
	return runResponse(cmd.Run()), nil
}

// entryPoint is the file or directory node runs, made absolute against the program directory:
// ProgramInfo's entry point (Pulumi.yaml's `main` file), else the request's program, else the
// program directory itself (node then reads package.json's "main").
func entryPoint(info *pulumirpc.ProgramInfo, program, progDir string) string {
	entry := program
	if info.GetEntryPoint() != "" {
		entry = info.GetEntryPoint()
	}
	if entry == "" {
		entry = "."
	}
	if !filepath.IsAbs(entry) {
		entry = filepath.Join(progDir, entry)
	}
	return entry
}

// runArgs is node's command line for cmd/run: the node arguments, the entry point module, the
// flags it reads (an empty value is left out), the program and the program's own arguments.
func runArgs(req *pulumirpc.RunRequest, o options, runPath, entry, engine, tracing string) []string {
	args := append([]string{}, o.nodeArgs...)
	args = append(args, runPath)
	flag := func(name, value string) {
		if value != "" {
			args = append(args, "--"+name+"="+value)
		}
	}
	flag("monitor", req.GetMonitorAddress())
	flag("engine", engine)
	flag("organization", req.GetOrganization())
	flag("project", req.GetProject())
	flag("stack", req.GetStack())
	flag("pwd", req.GetPwd())
	flag("root-directory", req.GetInfo().GetRootDirectory())
	if req.GetDryRun() {
		args = append(args, "--dry-run")
	}
	if req.GetParallel() > 0 {
		flag("parallel", fmt.Sprint(req.GetParallel()))
	}
	flag("tracing", tracing)
	args = append(args, entry)
	return append(args, req.GetArgs()...)
}

// runEnv is base plus what cmd/run reads from the environment: the stack's configuration and
// which keys of it are secret (as JSON), and the TypeScript options.
func runEnv(base []string, req *pulumirpc.RunRequest, o options) []string {
	config := req.GetConfig()
	if config == nil {
		config = map[string]string{}
	}
	secretKeys := req.GetConfigSecretKeys()
	if secretKeys == nil {
		secretKeys = []string{} // "[]", not "null"
	}
	// Marshalling maps and slices of strings cannot fail.
	configJSON, _ := json.Marshal(config)
	secretsJSON, _ := json.Marshal(secretKeys)
	env := append(append([]string{}, base...),
		"PULUMI_CONFIG="+string(configJSON),
		"PULUMI_CONFIG_SECRET_KEYS="+string(secretsJSON),
		fmt.Sprintf("PULUMI_NODEJS_TYPESCRIPT=%t", o.typescript),
	)
	if o.tsconfig != "" {
		env = append(env, "PULUMI_NODEJS_TSCONFIG_PATH="+o.tsconfig)
	}
	return env
}

// runResponse maps how node ended to what the CLI expects: success, a bail (the program has
// reported its error already), or an error message.
func runResponse(err error) *pulumirpc.RunResponse {
	if err == nil {
		return &pulumirpc.RunResponse{}
	}
	var exitErr *exec.ExitError
	if !errors.As(err, &exitErr) {
		return &pulumirpc.RunResponse{
			Error: fmt.Sprintf("Problem executing program (could not run language executor): %v", err),
		}
	}
	switch code := exitErr.ExitCode(); code {
	case exitCodeBail:
		return &pulumirpc.RunResponse{Bail: true}
	case -1: // killed by a signal
		return &pulumirpc.RunResponse{Error: "Program exited unexpectedly: " + exitErr.Error()}
	default:
		return &pulumirpc.RunResponse{Error: fmt.Sprintf("Program exited with non-zero exit code: %d", code)}
	}
}
