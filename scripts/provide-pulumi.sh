#!/usr/bin/env bash
# Provides a Pulumi CLI that can run this package's Node.js programs, dynamic providers and policy packs, and
# YAML programs.
#
# Prints ONE line on stdout: a directory holding `pulumi`, `pulumi-language-nodejs`,
# `pulumi-resource-pulumi-nodejs` and `pulumi-language-yaml`; put it first on PATH. Progress goes to stderr.
#
#   PATH="$(bash scripts/provide-pulumi.sh):$PATH" pulumi version
#
# In order, it uses (docs/pulumi-cli.md has the details):
#   1. a `pulumi` on PATH that is new enough and has its Node.js and YAML language hosts next to it or on PATH
#      (set PULUMI_RUNPOD_IGNORE_PATH=1 to skip this);
#   2. the build cached by an earlier run in ${PULUMI_RUNPOD_CACHE:-$HOME/.cache/pulumi-runpod}/pulumi-v<version>/bin;
#   3. a build with `go` (its steps: provide-pulumi-build.sh, beside this file): the CLI from the Go module proxy,
#      the Node.js language host from the Go module in tools/pulumi-language-nodejs (the official one is not served
#      by the module proxy), and the YAML language host from github.com/pulumi/pulumi-yaml on the module proxy. A
#      cold build takes 5-10 minutes on 2 cores (12 CPU-minutes) plus the YAML host's; each piece is rebuilt only
#      when its own inputs changed.
set -euo pipefail

# The Pulumi release to build; pkg/v3 and sdk/v3 are required at this tag (tools/pulumi-language-nodejs/go.mod
# requires the same sdk/v3). The module proxy used here serves no source zip for pkg/v3 v3.260.0.
PULUMI_VERSION="3.259.0"
# Oldest Pulumi CLI accepted from PATH.
PULUMI_MIN_VERSION="3.216.0"
# The YAML language host: the release of github.com/pulumi/pulumi-yaml built with its own go.mod (it pins its own
# pkg/v3 and sdk/v3, with which it was tested; the engine talks to it over gRPC, so the two need not match).
YAML_MODULE="github.com/pulumi/pulumi-yaml"
YAML_VERSION="1.25.0"

CACHE_ROOT="${PULUMI_RUNPOD_CACHE:-$HOME/.cache/pulumi-runpod}"
BUILD_JOBS="${PULUMI_RUNPOD_BUILD_JOBS:-2}"
SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO_ROOT="$(dirname "$SCRIPT_DIR")"
LANGHOST_DIR="$REPO_ROOT/tools/pulumi-language-nodejs"
DEST="$CACHE_ROOT/pulumi-v$PULUMI_VERSION/bin"
# Both binaries report this version (the Automation API checks the CLI's).
LDFLAGS="-s -w -X github.com/pulumi/pulumi/sdk/v3/go/common/version.Version=v$PULUMI_VERSION"
# The YAML host reports its own release (as the official build does).
YAML_LDFLAGS="-s -w -X $YAML_MODULE/pkg/version.Version=v$YAML_VERSION"
# Every executable the printed directory must hold.
TOOLS=(pulumi pulumi-language-nodejs pulumi-resource-pulumi-nodejs pulumi-language-yaml)
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
  local tool
  for tool in "${TOOLS[@]}"; do
    if ! has_tool "$dir" "$tool"; then
      log "ignoring $bin: $tool is missing"
      return 1
    fi
  done
  log "using $bin ($ver)"
  echo "$dir"
}

# Prints a hash of the language host's build inputs (sources without tests, go.mod, go.sum), so that a cached
# host is never reused after any of them changed.
langhost_hash() {
  local sha=(sha256sum)
  command -v sha256sum >/dev/null 2>&1 || sha=(shasum -a 256)
  (cd "$LANGHOST_DIR" && find . -type f \( -name '*.go' ! -name '*_test.go' -o -name go.mod -o -name go.sum \) \
    -print0 | LC_ALL=C sort -z | xargs -0 "${sha[@]}") | "${sha[@]}" | cut -c1-16
}

# 2. A build cached by an earlier run, with the same build id.
cached() {
  [ -f "$DEST/.build-id" ] && [ "$(cat "$DEST/.build-id")" = "$BUILD_ID" ] || return 1
  local tool
  for tool in "${TOOLS[@]}"; do
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
  log "no usable Pulumi CLI (>= $PULUMI_MIN_VERSION with its Node.js and YAML language hosts) was found,"
  log "and it cannot be built here because 'go' is not installed."
  install_hint
  exit 1
}

main() {
  from_path && return 0
  if [ ! -f "$LANGHOST_DIR/go.mod" ]; then
    log "$LANGHOST_DIR is missing; reinstall runpod-iac, or put a Pulumi CLI on PATH"
    install_hint
    exit 1
  fi
  LANGHOST_ID="language-host=$(langhost_hash)"
  YAML_ID="language-yaml=$YAML_VERSION"
  BUILD_ID="pulumi=$PULUMI_VERSION $LANGHOST_ID $YAML_ID"
  cached && return 0
  if command -v flock >/dev/null 2>&1; then
    mkdir -p "$CACHE_ROOT"
    exec 9>"$CACHE_ROOT/.lock"
    flock 9
    # Another run may have finished the build while this one waited.
    cached && return 0
  fi
  # shellcheck source=provide-pulumi-build.sh
  source "$SCRIPT_DIR/provide-pulumi-build.sh"
  build
}

main "$@"
