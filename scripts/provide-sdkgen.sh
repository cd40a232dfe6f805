#!/usr/bin/env bash
# Provides `pulumi-sdkgen`, the Go tool in tools/pulumi-sdkgen that writes the Python and Go SDKs from the
# plugin's schema with Pulumi's own code generators (docs/languages.md). Contributors only: users get the
# SDKs committed in plugin/sdks, through `npx runpod-iac sdk`, and need no Go.
#
# Prints ONE line on stdout: the directory holding `pulumi-sdkgen`. Progress goes to stderr.
#
#   "$(bash scripts/provide-sdkgen.sh)/pulumi-sdkgen" --help
#
# The build is cached in ${PULUMI_RUNPOD_CACHE:-$HOME/.cache/pulumi-runpod}/pulumi-sdkgen-<key>, keyed by a hash of
# the tool's build inputs (its .go files without the tests, go.mod, go.sum) and the Go version, so it is rebuilt
# exactly when one of them changed. A build no run has used for 14 days is removed when another one is made (each
# worktree may be on other sources; removing them all would make two worktrees rebuild each other's in turn).
set -euo pipefail

CACHE_ROOT="${PULUMI_RUNPOD_CACHE:-$HOME/.cache/pulumi-runpod}"
BUILD_JOBS="${PULUMI_RUNPOD_BUILD_JOBS:-2}"
SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
TOOL_DIR="$(dirname "$SCRIPT_DIR")/tools/pulumi-sdkgen"
export GOWORK=off GOFLAGS=-buildvcs=false

log() { echo "provide-sdkgen: $*" >&2; }

if ! command -v go >/dev/null 2>&1; then
  log "'go' is not installed (https://go.dev/dl/): it builds the SDK generator. Users need none of this:"
  log "the generated SDKs ship in the package (npx runpod-iac sdk python|go --out DIR)."
  exit 1
fi

# A hash of the tool's build inputs and the Go version.
build_key() {
  local sha=(sha256sum)
  command -v sha256sum >/dev/null 2>&1 || sha=(shasum -a 256)
  {
    go env GOVERSION
    (cd "$TOOL_DIR" && find . -type f \( -name '*.go' ! -name '*_test.go' -o -name go.mod -o -name go.sum \) \
      -print0 | LC_ALL=C sort -z | xargs -0 "${sha[@]}")
  } | "${sha[@]}" | cut -c1-16
}

KEY="$(build_key)"
DEST="$CACHE_ROOT/pulumi-sdkgen-$KEY"
if [ -x "$DEST/pulumi-sdkgen" ]; then
  touch "$DEST"
  echo "$DEST"
  exit 0
fi

mkdir -p "$CACHE_ROOT"
if command -v flock >/dev/null 2>&1; then
  exec 9>"$CACHE_ROOT/.pulumi-sdkgen.lock"
  flock 9
  # Another run may have finished the build while this one waited.
  if [ -x "$DEST/pulumi-sdkgen" ]; then
    echo "$DEST"
    exit 0
  fi
fi
WORK="$(mktemp -d "$CACHE_ROOT/.pulumi-sdkgen-build.XXXXXX")"
trap 'rm -rf "$WORK"' EXIT
start=$SECONDS
log "building $TOOL_DIR with $(go env GOVERSION), -p $BUILD_JOBS (about 2 minutes cold on 2 cores; later runs reuse $DEST)"
(cd "$TOOL_DIR" && go build -p "$BUILD_JOBS" -trimpath -o "$WORK/pulumi-sdkgen" .) >&2
log "built in $((SECONDS - start))s"
# Move into place with a rename, so an interrupted build never leaves a half-filled cache; then drop stale builds.
mv "$WORK" "$DEST"
trap - EXIT
find "$CACHE_ROOT" -maxdepth 1 -type d -name 'pulumi-sdkgen-*' -mtime +14 -exec rm -rf {} + 2>/dev/null || true
echo "$DEST"
