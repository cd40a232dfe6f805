#!/usr/bin/env bash
# Provides a Pulumi CLI that can run this package's Node.js programs, dynamic providers and policy packs.
#
# Prints ONE line on stdout: a directory holding `pulumi`, `pulumi-language-nodejs` and
# `pulumi-resource-pulumi-nodejs`; put it first on PATH. Progress goes to stderr.
#
#   PATH="$(scripts/provide-pulumi.sh):$PATH" pulumi version
#
# In order, it uses:
#   1. a `pulumi` on PATH that is new enough and has its Node.js language host next to it or on PATH
#      (set PULUMI_RUNPOD_IGNORE_PATH=1 to skip this);
#   2. a build cached by an earlier run in ${PULUMI_RUNPOD_CACHE:-$HOME/.cache/pulumi-runpod}/pulumi-v<version>/bin;
#   3. a build from the Go module proxy (needs `go`; the first build takes 20-40 minutes on 2 cores, later runs
#      reuse the cache). The official installer downloads from GitHub, which is not reachable everywhere.
#
# The Node.js language host: the module github.com/pulumi/pulumi/sdk/nodejs/cmd/pulumi-language-nodejs/v3 has no
# release tags and the module proxy used here serves none of its pseudo-versions, so unless
# PULUMI_LANGUAGE_NODEJS_VERSION names one that resolves, the small language host embedded at the end of this
# script is built against the same Pulumi SDK. It starts the entry points shipped in the @pulumi/pulumi npm
# package (cmd/run, cmd/run-plugin, cmd/run-policy-pack), so programs, dynamic providers, component providers
# and policy packs run the same code as with the official host. (Policy packs need no `pulumi-analyzer-policy`
# shim: when a Node.js language host is present the CLI runs them through it.)
set -euo pipefail

# The Pulumi release to build; pkg/v3 and sdk/v3 are required at this tag. (The module proxy used here serves
# no source zip for pkg/v3 v3.260.0, so 3.259.0 is the newest that builds.)
PULUMI_VERSION="3.259.0"
# Oldest Pulumi CLI accepted from PATH.
PULUMI_MIN_VERSION="3.216.0"
# Pseudo-version (v3.0.0-YYYYMMDDHHMMSS-<12 hex>) of the official Node.js language host module to try first.
PULUMI_LANGUAGE_NODEJS_VERSION="${PULUMI_LANGUAGE_NODEJS_VERSION:-}"
# Bump when the embedded language host changes, so cached builds are rebuilt.
EMBEDDED_HOST_REVISION="1"

CACHE_ROOT="${PULUMI_RUNPOD_CACHE:-$HOME/.cache/pulumi-runpod}"
BUILD_JOBS="${PULUMI_RUNPOD_BUILD_JOBS:-2}"
SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO_ROOT="$(dirname "$SCRIPT_DIR")"
LANGHOST_MODULE="github.com/pulumi/pulumi/sdk/nodejs/cmd/pulumi-language-nodejs/v3"
VERSION_LDFLAG="github.com/pulumi/pulumi/sdk/v3/go/common/version.Version"
export PULUMI_SKIP_UPDATE_CHECK=1

log() { echo "provide-pulumi: $*" >&2; }

# version_ge A B: true when version A >= version B (leading "v" and pre-release suffixes ignored).
version_ge() {
  local a="${1#v}" b="${2#v}"
  a="${a%%[-+]*}"
  b="${b%%[-+]*}"
  [ "$(printf '%s\n%s\n' "$b" "$a" | sort -V | head -n1)" = "$b" ]
}

# has_tool DIR NAME: NAME is an executable in DIR or on PATH.
has_tool() {
  [ -x "$1/$2" ] || command -v "$2" >/dev/null 2>&1
}

# 1. A pulumi already on PATH.
from_path() {
  [ "${PULUMI_RUNPOD_IGNORE_PATH:-}" = "1" ] && return 1
  local bin dir ver
  bin="$(command -v pulumi 2>/dev/null)" || return 1
  dir="$(cd "$(dirname "$bin")" && pwd)"
  ver="$("$bin" version 2>/dev/null | head -n1)" || return 1
  if ! version_ge "$ver" "$PULUMI_MIN_VERSION"; then
    log "ignoring $bin: version $ver is older than $PULUMI_MIN_VERSION"
    return 1
  fi
  if ! has_tool "$dir" pulumi-language-nodejs || ! has_tool "$dir" pulumi-resource-pulumi-nodejs; then
    log "ignoring $bin: pulumi-language-nodejs or pulumi-resource-pulumi-nodejs is missing"
    return 1
  fi
  log "using $bin ($ver)"
  echo "$dir"
}

BUILD_ID="pulumi=${PULUMI_VERSION};language-nodejs=${PULUMI_LANGUAGE_NODEJS_VERSION:-embedded-$EMBEDDED_HOST_REVISION}"
DEST="$CACHE_ROOT/pulumi-v$PULUMI_VERSION/bin"

# 2. A build cached by an earlier run.
cached() {
  [ -f "$DEST/.build-id" ] && [ "$(cat "$DEST/.build-id")" = "$BUILD_ID" ] || return 1
  local tool
  for tool in pulumi pulumi-language-nodejs pulumi-resource-pulumi-nodejs; do
    [ -x "$DEST/$tool" ] || return 1
  done
  "$DEST/pulumi" version >/dev/null 2>&1 || return 1
  echo "$DEST"
}

install_hint() {
  cat >&2 <<MSG
Install the Pulumi CLI with the official installer and put ~/.pulumi/bin on PATH:

    curl -fsSL https://get.pulumi.com | sh

or see https://www.pulumi.com/docs/install/ (Homebrew, Chocolatey, winget, Docker images, ...).
Alternatively install Go (https://go.dev/dl/) and run this script again to build Pulumi v$PULUMI_VERSION from source.
MSG
}

no_pulumi() {
  log "no usable Pulumi CLI (>= $PULUMI_MIN_VERSION with its Node.js language host) was found,"
  log "and it cannot be built here because 'go' is not installed."
  install_hint
  exit 1
}

# Copies `pulumi-resource-pulumi-nodejs` (runs dynamic providers) from the @pulumi/pulumi npm package into $1.
copy_shims() {
  local out="$1" src="" tmp="" pkgjson=""
  if command -v node >/dev/null 2>&1; then
    # Resolve like Node.js does from the package root, so a hoisted node_modules is found too.
    pkgjson="$(cd "$REPO_ROOT" && node -e 'process.stdout.write(require.resolve("@pulumi/pulumi/package.json"))' \
      2>/dev/null)" || pkgjson=""
  fi
  if [ -n "$pkgjson" ] && [ -f "$(dirname "$pkgjson")/pulumi-resource-pulumi-nodejs" ]; then
    src="$(dirname "$pkgjson")"
  else
    tmp="$(mktemp -d)"
    log "fetching @pulumi/pulumi@$PULUMI_VERSION from the npm registry for its shim scripts"
    (cd "$tmp" && npm pack --silent "@pulumi/pulumi@$PULUMI_VERSION" >/dev/null && tar -xzf ./*.tgz) >&2
    src="$tmp/package"
  fi
  cp "$src/pulumi-resource-pulumi-nodejs" "$out/pulumi-resource-pulumi-nodejs"
  chmod +x "$out/pulumi-resource-pulumi-nodejs"
  [ -n "$tmp" ] && rm -rf "$tmp"
  return 0
}

# Prints the non-local replace directives of a go.mod file, one "replace X => Y" per line.
nonlocal_replaces() {
  awk '
    /^replace[ \t]*\(/ { block = 1; next }
    block && /^\)/ { block = 0; next }
    block { line = $0 }
    !block && /^replace[ \t]/ { line = $0; sub(/^replace[ \t]+/, "", line) }
    line != "" {
      sub(/\/\/.*$/, "", line)
      split(line, parts, "=>")
      target = parts[2]
      gsub(/^[ \t]+|[ \t]+$/, "", target)
      if (target !~ /^(\.|\/)/ && target != "") print "replace " line
      line = ""
    }
  ' "$1"
}

# Downloads a module (module@version) and prints the path of its go.mod file.
gomod_of() {
  local out file
  out="$(go mod download -json "$1" 2>&1)" || true
  file="$(printf '%s\n' "$out" | sed -n 's/^[[:space:]]*"GoMod": "\(.*\)",*$/\1/p')"
  if [ -z "$file" ] || [ ! -f "$file" ]; then
    printf '%s\n' "$out" >&2
    log "could not download $1 from the Go module proxy ($(go env GOPROXY))"
    return 1
  fi
  echo "$file"
}

# 3. Build from the Go module proxy.
build() {
  command -v go >/dev/null 2>&1 || no_pulumi
  mkdir -p "$CACHE_ROOT"
  local work
  work="$(mktemp -d "$CACHE_ROOT/.build.XXXXXX")"
  # shellcheck disable=SC2064
  trap "rc=\$?; rm -rf '$work'; if [ \$rc -ne 0 ]; then log 'building Pulumi failed (see above)'; install_hint; fi" EXIT
  export GOWORK=off GOFLAGS=-buildvcs=false
  log "building Pulumi v$PULUMI_VERSION from the Go module proxy in $work (go: $(go env GOVERSION), -p $BUILD_JOBS)"
  log "the first build takes 20-40 minutes on 2 cores; later runs reuse $DEST"

  local pkgmod sdkmod godir
  pkgmod="$(gomod_of "github.com/pulumi/pulumi/pkg/v3@v$PULUMI_VERSION")"
  sdkmod="$(gomod_of "github.com/pulumi/pulumi/sdk/v3@v$PULUMI_VERSION")"
  godir="$(sed -n 's/^go \([0-9.]*\).*/\1/p' "$pkgmod" | head -n1)"

  mkdir -p "$work/src/langhost" "$work/bin"
  {
    echo "module pulumi-runpod-build"
    echo
    echo "go ${godir:-1.25}"
    echo
    echo "require ("
    echo "	github.com/pulumi/pulumi/pkg/v3 v$PULUMI_VERSION"
    echo "	github.com/pulumi/pulumi/sdk/v3 v$PULUMI_VERSION"
    echo ")"
    echo
    { nonlocal_replaces "$pkgmod"; nonlocal_replaces "$sdkmod"; } | sort -u
  } >"$work/src/go.mod"
  cat >"$work/src/tools.go" <<'GO'
//go:build tools

package tools

import _ "github.com/pulumi/pulumi/pkg/v3/cmd/pulumi"
GO

  local official=""
  if [ -n "$PULUMI_LANGUAGE_NODEJS_VERSION" ]; then
    if (cd "$work/src" && go mod download "$LANGHOST_MODULE@$PULUMI_LANGUAGE_NODEJS_VERSION") >&2; then
      official=1
      printf '//go:build tools\n\npackage tools\n\nimport _ "%s"\n' "$LANGHOST_MODULE" >"$work/src/tools_langhost.go"
      (cd "$work/src" && go mod edit -require="$LANGHOST_MODULE@$PULUMI_LANGUAGE_NODEJS_VERSION")
    else
      log "could not fetch $LANGHOST_MODULE@$PULUMI_LANGUAGE_NODEJS_VERSION; building the embedded language host"
    fi
  fi
  [ -n "$official" ] || embedded_langhost_source >"$work/src/langhost/main.go"

  (cd "$work/src" && go mod tidy) >&2
  local ldflags="-s -w -X $VERSION_LDFLAG=v$PULUMI_VERSION"
  local start=$SECONDS
  (cd "$work/src" && go build -p "$BUILD_JOBS" -trimpath -ldflags "$ldflags" \
    -o "$work/bin/pulumi" github.com/pulumi/pulumi/pkg/v3/cmd/pulumi) >&2
  if [ -n "$official" ]; then
    (cd "$work/src" && go build -p "$BUILD_JOBS" -trimpath -ldflags "$ldflags" \
      -o "$work/bin/pulumi-language-nodejs" "$LANGHOST_MODULE") >&2
  else
    (cd "$work/src" && go build -p "$BUILD_JOBS" -trimpath -ldflags "$ldflags" \
      -o "$work/bin/pulumi-language-nodejs" ./langhost) >&2
  fi
  log "compiled in $((SECONDS - start))s"
  copy_shims "$work/bin"
  "$work/bin/pulumi" version >&2
  echo "$BUILD_ID" >"$work/bin/.build-id"

  # Move into place with renames, so an interrupted build never leaves a half-filled cache.
  mkdir -p "$(dirname "$DEST")"
  rm -rf "$DEST.old"
  [ -d "$DEST" ] && mv "$DEST" "$DEST.old"
  mv "$work/bin" "$DEST"
  rm -rf "$DEST.old"
  echo "$DEST"
}

main() {
  from_path && return 0
  cached && return 0
  if command -v flock >/dev/null 2>&1; then
    mkdir -p "$CACHE_ROOT"
    exec 9>"$CACHE_ROOT/.lock"
    flock 9
    # Another run may have finished the build while this one waited.
    cached && return 0
  fi
  build
}

# The embedded Node.js language host (Go), built against the same Pulumi SDK as the CLI.
embedded_langhost_source() {
  cat <<'GO'
// A small Node.js language host for the Pulumi CLI.
//
// It implements the parts of the pulumirpc.LanguageRuntime protocol that running Node.js programs,
// dynamic providers, component providers and policy packs needs, by starting the entry points that
// ship inside the @pulumi/pulumi npm package (cmd/run, cmd/run-plugin, cmd/run-policy-pack).
// Everything else answers "unimplemented", which the CLI treats as "not supported".
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"

	"github.com/pulumi/pulumi/sdk/v3/go/common/util/rpcutil"
	"github.com/pulumi/pulumi/sdk/v3/go/common/version"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc"
	"google.golang.org/protobuf/types/known/emptypb"
)

// Exit code the Node.js entry points use after they have already reported the error to the engine.
const exitCodeBail = 32

type options struct {
	typescript     bool
	tsconfig       string
	nodeArgs       []string
	packageManager string
}

type host struct {
	pulumirpc.UnimplementedLanguageRuntimeServer

	mu            sync.Mutex
	engineAddress string
	tracing       string
	defaults      options
}

func main() {
	h := &host{defaults: options{typescript: true}}
	var positional []string
	args := os.Args[1:]
	for i := 0; i < len(args); i++ {
		a := args[i]
		if !strings.HasPrefix(a, "-") || a == "-" {
			positional = append(positional, a)
			continue
		}
		name := strings.TrimLeft(a, "-")
		value, hasValue := "", false
		if k, v, ok := strings.Cut(name, "="); ok {
			name, value, hasValue = k, v, true
		}
		switch name {
		case "tracing", "root", "tsconfig", "nodeargs", "packagemanager":
			if !hasValue && i+1 < len(args) {
				i++
				value = args[i]
			}
		case "typescript":
			if !hasValue {
				value = "true"
			}
		}
		switch name {
		case "version":
			fmt.Println(version.Version)
			return
		case "tracing":
			h.tracing = value
		case "typescript":
			h.defaults.typescript = value != "false"
		case "tsconfig":
			h.defaults.tsconfig = value
		case "nodeargs":
			h.defaults.nodeArgs = strings.Fields(value)
		case "packagemanager":
			h.defaults.packageManager = value
		}
	}
	if len(positional) > 0 {
		h.engineAddress = positional[len(positional)-1]
	}

	handle, err := rpcutil.ServeWithOptions(rpcutil.ServeOptions{
		Init: func(s *grpc.Server) error {
			pulumirpc.RegisterLanguageRuntimeServer(s, h)
			return nil
		},
		Options: []grpc.ServerOption{grpc.MaxRecvMsgSize(400 * 1024 * 1024)},
	})
	if err != nil {
		fmt.Fprintf(os.Stderr, "pulumi-language-nodejs: could not start the language host: %v\n", err)
		os.Exit(1)
	}
	// The CLI reads the port from the first line of stdout.
	fmt.Printf("%d\n", handle.Port)
	if err := <-handle.Done; err != nil {
		fmt.Fprintf(os.Stderr, "pulumi-language-nodejs: %v\n", err)
		os.Exit(1)
	}
}

func (h *host) options(info *pulumirpc.ProgramInfo) options {
	o := h.defaults
	if info == nil || info.GetOptions() == nil {
		return o
	}
	m := info.GetOptions().AsMap()
	if v, ok := m["typescript"].(bool); ok {
		o.typescript = v
	}
	if v, ok := m["tsconfig"].(string); ok {
		o.tsconfig = v
	}
	if v, ok := m["nodeargs"].(string); ok {
		o.nodeArgs = strings.Fields(v)
	}
	if v, ok := m["packagemanager"].(string); ok {
		o.packageManager = v
	}
	return o
}

func (h *host) Handshake(
	ctx context.Context, req *pulumirpc.LanguageHandshakeRequest,
) (*pulumirpc.LanguageHandshakeResponse, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if req.GetEngineAddress() != "" {
		h.engineAddress = req.GetEngineAddress()
	}
	return &pulumirpc.LanguageHandshakeResponse{}, nil
}

func (h *host) engine() string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.engineAddress
}

func (h *host) GetPluginInfo(ctx context.Context, _ *emptypb.Empty) (*pulumirpc.PluginInfo, error) {
	return &pulumirpc.PluginInfo{Version: version.Version}, nil
}

func nodeBinary() (string, error) {
	node, err := exec.LookPath("node")
	if err != nil {
		return "", errors.New("could not find the 'node' executable on PATH; install Node.js to run Pulumi Node.js programs")
	}
	return node, nil
}

// resolveModule finds a module the way Node.js would from dir, falling back to walking up node_modules folders.
func resolveModule(node, dir, module string) (string, error) {
	cmd := exec.Command(node, "-e", "process.stdout.write(require.resolve(process.argv[1]))", module)
	cmd.Dir = dir
	var out bytes.Buffer
	cmd.Stdout = &out
	if err := cmd.Run(); err == nil && out.Len() > 0 {
		return strings.TrimSpace(out.String()), nil
	}
	for d := dir; ; d = filepath.Dir(d) {
		candidate := filepath.Join(d, "node_modules", filepath.FromSlash(module), "index.js")
		if _, err := os.Stat(candidate); err == nil {
			return candidate, nil
		}
		if filepath.Dir(d) == d {
			break
		}
	}
	return "", fmt.Errorf("it looks like the Pulumi SDK has not been installed: could not find module %q from %q; "+
		"have you run 'npm install'?", module, dir)
}

func programDirectory(info *pulumirpc.ProgramInfo, pwd string) string {
	if info != nil && info.GetProgramDirectory() != "" {
		return info.GetProgramDirectory()
	}
	if pwd != "" {
		return pwd
	}
	wd, _ := os.Getwd()
	return wd
}

func (h *host) Run(ctx context.Context, req *pulumirpc.RunRequest) (*pulumirpc.RunResponse, error) {
	node, err := nodeBinary()
	if err != nil {
		return &pulumirpc.RunResponse{Error: err.Error()}, nil
	}
	info := req.GetInfo()
	progDir := programDirectory(info, req.GetPwd())
	entry := req.GetProgram()
	if info != nil && info.GetEntryPoint() != "" {
		entry = info.GetEntryPoint()
	}
	if entry == "" {
		entry = "."
	}
	if !filepath.IsAbs(entry) {
		entry = filepath.Join(progDir, entry)
	}
	runPath, err := resolveModule(node, progDir, "@pulumi/pulumi/cmd/run")
	if err != nil {
		return &pulumirpc.RunResponse{Error: err.Error()}, nil
	}
	o := h.options(info)

	args := append([]string{}, o.nodeArgs...)
	args = append(args, runPath)
	flag := func(name, value string) {
		if value != "" {
			args = append(args, "--"+name+"="+value)
		}
	}
	flag("monitor", req.GetMonitorAddress())
	flag("engine", h.engine())
	flag("organization", req.GetOrganization())
	flag("project", req.GetProject())
	flag("stack", req.GetStack())
	flag("pwd", req.GetPwd())
	if info != nil {
		flag("root-directory", info.GetRootDirectory())
	}
	if req.GetDryRun() {
		args = append(args, "--dry-run")
	}
	if req.GetParallel() > 0 {
		flag("parallel", fmt.Sprint(req.GetParallel()))
	}
	flag("tracing", h.tracing)
	args = append(args, entry)
	args = append(args, req.GetArgs()...)

	configMap := req.GetConfig()
	if configMap == nil {
		configMap = map[string]string{}
	}
	config, err := json.Marshal(configMap)
	if err != nil {
		return nil, err
	}
	secretKeys := req.GetConfigSecretKeys()
	if secretKeys == nil {
		secretKeys = []string{}
	}
	secrets, err := json.Marshal(secretKeys)
	if err != nil {
		return nil, err
	}
	env := append(os.Environ(),
		"PULUMI_CONFIG="+string(config),
		"PULUMI_CONFIG_SECRET_KEYS="+string(secrets),
		fmt.Sprintf("PULUMI_NODEJS_TYPESCRIPT=%t", o.typescript),
	)
	if o.tsconfig != "" {
		env = append(env, "PULUMI_NODEJS_TSCONFIG_PATH="+o.tsconfig)
	}

	cmd := exec.CommandContext(ctx, node, args...)
	cmd.Dir = progDir
	if req.GetPwd() != "" {
		cmd.Dir = req.GetPwd()
	}
	cmd.Env = env
	cmd.Stdout = os.Stdout
	cmd.Stderr = os.Stderr
	if err := cmd.Run(); err != nil {
		var exitErr *exec.ExitError
		if errors.As(err, &exitErr) {
			switch code := exitErr.ExitCode(); code {
			case exitCodeBail:
				return &pulumirpc.RunResponse{Bail: true}, nil
			case -1:
				return &pulumirpc.RunResponse{Error: "Program exited unexpectedly: " + exitErr.Error()}, nil
			default:
				return &pulumirpc.RunResponse{Error: fmt.Sprintf("Program exited with non-zero exit code: %d", code)}, nil
			}
		}
		return &pulumirpc.RunResponse{Error: fmt.Sprintf("Problem executing program (could not run language executor): %v", err)}, nil
	}
	return &pulumirpc.RunResponse{}, nil
}

// streamWriter forwards a child process's output to a gRPC stream.
type streamWriter struct {
	mu   *sync.Mutex
	send func([]byte) error
}

func (w streamWriter) Write(p []byte) (int, error) {
	buf := append([]byte(nil), p...)
	w.mu.Lock()
	defer w.mu.Unlock()
	if err := w.send(buf); err != nil {
		return 0, err
	}
	return len(p), nil
}

func (h *host) RunPlugin(
	req *pulumirpc.RunPluginRequest, server grpc.ServerStreamingServer[pulumirpc.RunPluginResponse],
) error {
	node, err := nodeBinary()
	if err != nil {
		return err
	}
	info := req.GetInfo()
	progDir := programDirectory(info, req.GetPwd())
	if req.GetProgram() != "" && (info == nil || info.GetProgramDirectory() == "") {
		progDir = req.GetProgram()
	}
	program := progDir
	if info != nil && info.GetEntryPoint() != "" && info.GetEntryPoint() != "." {
		program = filepath.Join(progDir, info.GetEntryPoint())
	}
	o := h.options(info)

	var args []string
	switch req.GetKind() {
	case "analyzer", "policy":
		runPath, err := resolveModule(node, progDir, "@pulumi/pulumi/cmd/run-policy-pack")
		if err != nil {
			return err
		}
		// run-policy-pack <engine-address> <program>
		args = append(append(append(append([]string{}, o.nodeArgs...), runPath), req.GetArgs()...), program)
	default:
		runPath, err := resolveModule(node, progDir, "@pulumi/pulumi/cmd/run-plugin")
		if err != nil {
			return err
		}
		// run-plugin <program> [args to the plugin]
		args = append(append(append(append([]string{}, o.nodeArgs...), runPath), program), req.GetArgs()...)
	}

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

func (h *host) InstallDependencies(
	req *pulumirpc.InstallDependenciesRequest, server grpc.ServerStreamingServer[pulumirpc.InstallDependenciesResponse],
) error {
	dir := req.GetDirectory()
	if info := req.GetInfo(); info != nil && info.GetProgramDirectory() != "" {
		dir = info.GetProgramDirectory()
	}
	// Install where the package.json lives.
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, "package.json")); err == nil {
			dir = d
			break
		}
		if filepath.Dir(d) == d {
			break
		}
	}
	pm := h.options(req.GetInfo()).packageManager
	if pm == "" || pm == "auto" {
		pm = "npm"
		for lock, name := range map[string]string{
			"pnpm-lock.yaml": "pnpm", "yarn.lock": "yarn", "bun.lock": "bun", "bun.lockb": "bun",
		} {
			if _, err := os.Stat(filepath.Join(dir, lock)); err == nil {
				pm = name
			}
		}
	}
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

type packageJSON struct {
	Name    string `json:"name"`
	Version string `json:"version"`
	Pulumi  *struct {
		Resource bool   `json:"resource"`
		Name     string `json:"name"`
		Version  string `json:"version"`
		Server   string `json:"server"`
	} `json:"pulumi"`
}

// requiredPackages lists the resource plugins that the installed npm packages declare.
func requiredPackages(dir string) []*pulumirpc.PackageDependency {
	var root string
	for d := dir; ; d = filepath.Dir(d) {
		if st, err := os.Stat(filepath.Join(d, "node_modules")); err == nil && st.IsDir() {
			root = filepath.Join(d, "node_modules")
			break
		}
		if filepath.Dir(d) == d {
			return nil
		}
	}
	seen := map[string]bool{}
	visited := map[string]bool{}
	var result []*pulumirpc.PackageDependency
	var walk func(modules string, depth int)
	visitPackage := func(pkgDir string, depth int) {
		real, err := filepath.EvalSymlinks(pkgDir)
		if err != nil || visited[real] {
			return
		}
		visited[real] = true
		if data, err := os.ReadFile(filepath.Join(real, "package.json")); err == nil {
			var pkg packageJSON
			if json.Unmarshal(data, &pkg) == nil && pkg.Pulumi != nil && pkg.Pulumi.Resource {
				name := pkg.Pulumi.Name
				if name == "" {
					name = strings.TrimPrefix(pkg.Name, "@pulumi/")
				}
				ver := pkg.Pulumi.Version
				if ver == "" {
					ver = pkg.Version
				}
				if ver != "" && !strings.HasPrefix(ver, "v") {
					ver = "v" + ver
				}
				key := name + "@" + ver
				if name != "" && !seen[key] {
					seen[key] = true
					result = append(result, &pulumirpc.PackageDependency{
						Name: name, Kind: "resource", Version: ver, Server: pkg.Pulumi.Server,
					})
				}
			}
		}
		if depth < 8 {
			walk(filepath.Join(real, "node_modules"), depth+1)
		}
	}
	walk = func(modules string, depth int) {
		entries, err := os.ReadDir(modules)
		if err != nil {
			return
		}
		for _, e := range entries {
			name := e.Name()
			if strings.HasPrefix(name, ".") {
				continue
			}
			if strings.HasPrefix(name, "@") {
				scoped, err := os.ReadDir(filepath.Join(modules, name))
				if err != nil {
					continue
				}
				for _, s := range scoped {
					visitPackage(filepath.Join(modules, name, s.Name()), depth)
				}
				continue
			}
			visitPackage(filepath.Join(modules, name), depth)
		}
	}
	walk(root, 0)
	return result
}

func (h *host) GetRequiredPackages(
	ctx context.Context, req *pulumirpc.GetRequiredPackagesRequest,
) (*pulumirpc.GetRequiredPackagesResponse, error) {
	dir := programDirectory(req.GetInfo(), "")
	return &pulumirpc.GetRequiredPackagesResponse{Packages: requiredPackages(dir)}, nil
}

func (h *host) GetRequiredPlugins(
	ctx context.Context, req *pulumirpc.GetRequiredPluginsRequest,
) (*pulumirpc.GetRequiredPluginsResponse, error) {
	dir := programDirectory(req.GetInfo(), req.GetPwd())
	var plugins []*pulumirpc.PluginDependency
	for _, p := range requiredPackages(dir) {
		plugins = append(plugins, &pulumirpc.PluginDependency{
			Name: p.Name, Kind: p.Kind, Version: p.Version, Server: p.Server,
		})
	}
	return &pulumirpc.GetRequiredPluginsResponse{Plugins: plugins}, nil
}

func (h *host) About(ctx context.Context, req *pulumirpc.AboutRequest) (*pulumirpc.AboutResponse, error) {
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

func (h *host) GetProgramDependencies(
	ctx context.Context, req *pulumirpc.GetProgramDependenciesRequest,
) (*pulumirpc.GetProgramDependenciesResponse, error) {
	dir := programDirectory(req.GetInfo(), req.GetPwd())
	var deps []*pulumirpc.DependencyInfo
	for d := dir; ; d = filepath.Dir(d) {
		data, err := os.ReadFile(filepath.Join(d, "package.json"))
		if err == nil {
			var pkg struct {
				Dependencies map[string]string `json:"dependencies"`
			}
			if json.Unmarshal(data, &pkg) == nil {
				for name := range pkg.Dependencies {
					ver := ""
					if b, err := os.ReadFile(filepath.Join(d, "node_modules", name, "package.json")); err == nil {
						var p packageJSON
						if json.Unmarshal(b, &p) == nil {
							ver = p.Version
						}
					}
					deps = append(deps, &pulumirpc.DependencyInfo{Name: name, Version: ver})
				}
			}
			break
		}
		if filepath.Dir(d) == d {
			break
		}
	}
	return &pulumirpc.GetProgramDependenciesResponse{Dependencies: deps}, nil
}

var _ io.Writer = streamWriter{}
GO
}

main "$@"
