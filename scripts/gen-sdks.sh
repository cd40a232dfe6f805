#!/usr/bin/env bash
# Regenerates the Python and Go SDKs of the provider plugin from its schema (npm run gen:sdks), with the Go tool
# in tools/pulumi-sdkgen (scripts/provide-sdkgen.sh builds and caches it). The SDKs are committed and ship in the
# npm package, because users have no Go; test/e2e/languages/generated-sdks.test.ts fails when they are stale.
#
#   bash scripts/gen-sdks.sh                              # plugin/schema.json -> plugin/sdks/{python,go}
#   bash scripts/gen-sdks.sh --schema FILE --out DIR      # FILE -> DIR/{python,go} (DIR absent or empty)
#
# The plugin's version is package.json's: the generated code asks the engine for plugin runpod-iac at exactly that
# version. Progress goes to stderr; stdout is quiet.
set -euo pipefail

SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO_ROOT="$(dirname "$SCRIPT_DIR")"
SCHEMA="$REPO_ROOT/plugin/schema.json"
OUT=""

log() { echo "gen-sdks: $*" >&2; }

while [ $# -gt 0 ]; do
  case "$1" in
    --schema) SCHEMA="${2:?--schema needs a file}"; shift 2 ;;
    --out) OUT="${2:?--out needs a directory}"; shift 2 ;;
    *) log "unknown argument '$1' (usage: gen-sdks.sh [--schema FILE] [--out DIR])"; exit 2 ;;
  esac
done
[ -f "$SCHEMA" ] || { log "no schema at $SCHEMA"; exit 1; }

VERSION="$(node -p 'require(process.argv[1]).version' "$REPO_ROOT/package.json")"
TOOL="$(bash "$SCRIPT_DIR/provide-sdkgen.sh")/pulumi-sdkgen"

if [ -n "$OUT" ]; then
  "$TOOL" --schema "$SCHEMA" --version "$VERSION" --python "$OUT/python" --python-license "$REPO_ROOT/LICENSE" --go "$OUT/go" >&2
  exit 0
fi

# In place: generate next to plugin/sdks, then swap, so an interrupted run leaves the committed SDKs as they were.
DEST="$REPO_ROOT/plugin/sdks"
mkdir -p "$DEST"
WORK="$(mktemp -d "$DEST/.gen.XXXXXX")"
trap 'rm -rf "$WORK"' EXIT
"$TOOL" --schema "$SCHEMA" --version "$VERSION" --python "$WORK/python" --python-license "$REPO_ROOT/LICENSE" --go "$WORK/go" >&2
for lang in python go; do
  rm -rf "$DEST/$lang"
  mv "$WORK/$lang" "$DEST/$lang"
done
log "wrote $DEST/python and $DEST/go (plugin runpod-iac v$VERSION, from ${SCHEMA#"$REPO_ROOT"/})"
