package main

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"sync"

	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc"
)

// RunPlugin runs a plugin written in Node.js: a policy pack (kind "analyzer" or "policy")
// through @pulumi/pulumi/cmd/run-policy-pack, anything else (resource and component providers)
// through cmd/run-plugin. It streams the plugin's stdout and stderr, then its exit code.
func (h *host) RunPlugin(
	req *pulumirpc.RunPluginRequest, server grpc.ServerStreamingServer[pulumirpc.RunPluginResponse],
) error {
	node, err := nodeBinary()
	if err != nil {
		return err
	}
	progDir, program := pluginProgram(req)
	policyPack := isPolicyPack(req.GetKind())
	module := runPluginModule
	if policyPack {
		module = runPolicyPackModule
	}
	runPath, err := resolveModule(node, progDir, module)
	if err != nil {
		return err
	}
	args := pluginArgs(policyPack, h.options(req.GetInfo()).nodeArgs, runPath, program, req.GetArgs())

	var mu sync.Mutex
	cmd := exec.CommandContext(server.Context(), node, args...)
	cmd.Dir = progDir
	cmd.Env = append(os.Environ(), req.GetEnv()...)
	cmd.Stdout = streamWriter{mu: &mu, send: func(b []byte) error {
		return server.Send(&pulumirpc.RunPluginResponse{Output: &pulumirpc.RunPluginResponse_Stdout{Stdout: b}})
	}}
	cmd.Stderr = streamWriter{mu: &mu, send: func(b []byte) error {
		return server.Send(&pulumirpc.RunPluginResponse{Output: &pulumirpc.RunPluginResponse_Stderr{Stderr: b}})
	}}
	code := int32(0)
	if err := cmd.Run(); err != nil {
		var exitErr *exec.ExitError
		if !errors.As(err, &exitErr) {
			return err
		}
		code = int32(exitErr.ExitCode())
	}
	mu.Lock()
	defer mu.Unlock()
	return server.Send(&pulumirpc.RunPluginResponse{Output: &pulumirpc.RunPluginResponse_Exitcode{Exitcode: code}})
}

// isPolicyPack tells policy packs from providers by the plugin kind the CLI sends.
func isPolicyPack(kind string) bool {
	return kind == "analyzer" || kind == "policy"
}

// pluginProgram returns the plugin's directory and what node is given as the program: the
// directory from ProgramInfo, else the request's program, else its working directory; the
// program is that directory, or its entry point when PulumiPlugin.yaml names a file.
func pluginProgram(req *pulumirpc.RunPluginRequest) (dir, program string) {
	info := req.GetInfo()
	dir = programDirectory(info, req.GetPwd())
	if req.GetProgram() != "" && info.GetProgramDirectory() == "" {
		dir = req.GetProgram()
	}
	program = dir
	if entry := info.GetEntryPoint(); entry != "" && entry != "." {
		program = filepath.Join(dir, entry)
	}
	return dir, program
}

// pluginArgs is node's command line for a plugin. The two entry points take their arguments in
// different orders: run-policy-pack ENGINE_ADDRESS PROGRAM (the CLI passes the engine address as
// the plugin's argument), run-plugin PROGRAM [ARGS...].
func pluginArgs(policyPack bool, nodeArgs []string, runPath, program string, extra []string) []string {
	args := append(append([]string{}, nodeArgs...), runPath)
	if policyPack {
		return append(append(args, extra...), program)
	}
	return append(append(args, program), extra...)
}
