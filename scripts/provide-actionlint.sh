#!/usr/bin/env bash
# Provides actionlint, the linter of GitHub Actions workflows, built from the Go module proxy and cached
# outside the repository like the other tools: ${PULUMI_RUNPOD_CACHE:-$HOME/.cache/pulumi-runpod}/actionlint-<version>.
# Prints ONE line on stdout: the directory holding `actionlint`. Progress goes to stderr. `npm run lint:workflows`
# runs it on .github/workflows/ (docs/releasing.md). About a minute to build cold on 2 cores; later runs reuse it.
set -euo pipefail

VERSION="v1.7.12"
CACHE_ROOT="${PULUMI_RUNPOD_CACHE:-$HOME/.cache/pulumi-runpod}"
DEST="$CACHE_ROOT/actionlint-$VERSION"
log() { echo "provide-actionlint: $*" >&2; }

if [ -x "$DEST/actionlint" ]; then
  echo "$DEST"
  exit 0
fi
if ! command -v go >/dev/null 2>&1; then
  log "'go' is not installed (https://go.dev/dl/): it builds actionlint from the Go module proxy"
  exit 1
fi
mkdir -p "$CACHE_ROOT"
WORK="$(mktemp -d "$CACHE_ROOT/.actionlint-build.XXXXXX")"
trap 'rm -rf "$WORK"' EXIT
start=$SECONDS
log "building github.com/rhysd/actionlint/cmd/actionlint@$VERSION"
GOBIN="$WORK" GOWORK=off GOFLAGS=-buildvcs=false go install -trimpath "github.com/rhysd/actionlint/cmd/actionlint@$VERSION" >&2
log "built in $((SECONDS - start))s"
# Another run may have finished first; either build is the same version.
rm -rf "$DEST"
mv "$WORK" "$DEST"
trap - EXIT
echo "$DEST"
