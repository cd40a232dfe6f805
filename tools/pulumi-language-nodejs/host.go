package main

import (
	"context"
	"fmt"
	"os/exec"
	"strings"
	"sync"

	"github.com/pulumi/pulumi/sdk/v3/go/common/version"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/protobuf/types/known/emptypb"
)

// host serves the LanguageRuntime protocol. Its methods live next to the concern they serve:
// run.go (programs), plugin.go (providers and policy packs), install.go (npm install),
// packages.go (plugins and dependencies), generate.go (code `pulumi import` prints).
type host struct {
	// Embedded so that every method not written here answers codes.Unimplemented.
	pulumirpc.UnimplementedLanguageRuntimeServer

	tracing  string
	defaults options

	mu            sync.Mutex
	engineAddress string
}

func newHost(f hostFlags) *host {
	return &host{tracing: f.tracing, defaults: f.defaults, engineAddress: f.engineAddress}
}

// options are the runtime options for one request: the host's defaults merged with the
// project's.
func (h *host) options(info *pulumirpc.ProgramInfo) options {
	return h.defaults.merge(info)
}

// Handshake records the engine's address. A CLI that handshakes may start the host without the
// address on its command line.
func (h *host) Handshake(
	_ context.Context, req *pulumirpc.LanguageHandshakeRequest,
) (*pulumirpc.LanguageHandshakeResponse, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if req.GetEngineAddress() != "" {
		h.engineAddress = req.GetEngineAddress()
	}
	return &pulumirpc.LanguageHandshakeResponse{}, nil
}

// engine is the engine's address, which programs report their logs to.
func (h *host) engine() string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.engineAddress
}

// GetPluginInfo reports the Pulumi version the host was built as (set with -ldflags -X by
// scripts/provide-pulumi.sh, the same as the CLI's).
func (h *host) GetPluginInfo(context.Context, *emptypb.Empty) (*pulumirpc.PluginInfo, error) {
	return &pulumirpc.PluginInfo{Version: version.Version}, nil
}

// About names the node executable and its version, for `pulumi about`.
func (h *host) About(context.Context, *pulumirpc.AboutRequest) (*pulumirpc.AboutResponse, error) {
	node, err := nodeBinary()
	if err != nil {
		return nil, err
	}
	out, err := exec.Command(node, "--version").Output()
	if err != nil {
		return nil, fmt.Errorf("could not determine the Node.js version: %w", err)
	}
	return &pulumirpc.AboutResponse{Executable: node, Version: strings.TrimSpace(string(out))}, nil
}
