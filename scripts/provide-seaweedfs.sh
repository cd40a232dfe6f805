#!/usr/bin/env bash
# Provides SeaweedFS's `weed`, the S3-compatible server the tests run Pulumi's s3:// backend on
# (docs/teams.md). Contributors only: the published package does not ship this script.
#
# Prints ONE line on stdout: the directory holding `weed`. Progress goes to stderr.
#
#   "$(bash scripts/provide-seaweedfs.sh)/weed" version
#
# In order, it uses:
#   1. the build cached by an earlier run in ${PULUMI_RUNPOD_CACHE:-$HOME/.cache/pulumi-runpod}/seaweedfs-<version>/;
#   2. a build with `go` from the Go module proxy: `go install` refuses the module (its go.mod has replace
#      directives), so the module is downloaded (`go mod download`), copied to a writable directory and built
#      there with `go build ./weed`. About 4.5 minutes on 2 cores; nothing of it enters the repository.
set -euo pipefail

# A pseudo-version of the seaweedfs/seaweedfs main branch, as the Go module proxy serves it.
SEAWEEDFS_MODULE="github.com/seaweedfs/seaweedfs"
SEAWEEDFS_VERSION="v0.0.0-20261109003541-7506e5f91cd6"

CACHE_ROOT="${PULUMI_RUNPOD_CACHE:-$HOME/.cache/pulumi-runpod}"
BUILD_JOBS="${PULUMI_RUNPOD_BUILD_JOBS:-2}"
DEST="$CACHE_ROOT/seaweedfs-$SEAWEEDFS_VERSION"

log() { echo "provide-seaweedfs: $*" >&2; }

# A build cached by an earlier run that still starts.
cached() {
  [ -x "$DEST/weed" ] && "$DEST/weed" version >/dev/null 2>&1 || return 1
  echo "$DEST"
}

WORK=""
finish_build() {
  local rc=$?
  if [ -n "$WORK" ]; then
    # The Go module cache marks its files read-only; the copy must be made writable to be removed.
    chmod -R u+w "$WORK" 2>/dev/null || true
    rm -rf "$WORK"
  fi
  if [ "$rc" -ne 0 ]; then log "building SeaweedFS failed (see above)"; fi
}

build() {
  if ! command -v go >/dev/null 2>&1; then
    log "SeaweedFS is not cached in $DEST and cannot be built: 'go' is not installed (https://go.dev/dl/)"
    exit 1
  fi
  mkdir -p "$CACHE_ROOT"
  WORK="$(mktemp -d "$CACHE_ROOT/.seaweedfs-build.XXXXXX")"
  trap finish_build EXIT
  export GOWORK=off GOFLAGS=-buildvcs=false
  local start=$SECONDS out dir
  log "downloading $SEAWEEDFS_MODULE@$SEAWEEDFS_VERSION from the Go module proxy ($(go env GOPROXY))"
  out="$(go mod download -json "$SEAWEEDFS_MODULE@$SEAWEEDFS_VERSION" 2>&1)" || {
    printf '%s\n' "$out" >&2
    log "could not download $SEAWEEDFS_MODULE@$SEAWEEDFS_VERSION"
    exit 1
  }
  dir="$(printf '%s\n' "$out" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",*$/\1/p')"
  [ -d "$dir" ] || { printf '%s\n' "$out" >&2; log "go mod download named no module directory"; exit 1; }
  cp -r "$dir" "$WORK/src"
  chmod -R u+w "$WORK/src"
  log "building weed with $(go env GOVERSION), -p $BUILD_JOBS (about 4.5 minutes on 2 cores; later runs reuse $DEST)"
  mkdir -p "$WORK/out"
  (cd "$WORK/src" && go build -p "$BUILD_JOBS" -trimpath -ldflags "-s -w" -o "$WORK/out/weed" ./weed) >&2
  "$WORK/out/weed" version >&2
  log "built in $((SECONDS - start))s"
  # Move into place with renames, so an interrupted build never leaves a half-filled cache.
  rm -rf "$DEST.old"
  if [ -d "$DEST" ]; then mv "$DEST" "$DEST.old"; fi
  mv "$WORK/out" "$DEST"
  rm -rf "$DEST.old"
  echo "$DEST"
}

main() {
  cached && return 0
  if command -v flock >/dev/null 2>&1; then
    mkdir -p "$CACHE_ROOT"
    exec 9>"$CACHE_ROOT/.seaweedfs.lock"
    flock 9
    # Another run may have finished the build while this one waited.
    cached && return 0
  fi
  build
}

main "$@"
