#!/usr/bin/env bash
# Provides the Python environment of the end-to-end tests in Python (docs/languages.md): a virtual environment with
# the `pulumi` package from PyPI at the CLI's release and every dependency pinned
# (test/e2e/languages/python/requirements.txt), and the SDK generated from the plugin's schema `pip install`ed.
# The tests run Python programs through the Automation API's inline mode, so no Python language host is needed.
# Contributors only: the published package does not ship this script.
#
#   bash scripts/provide-python.sh [SDK_DIR]     # SDK_DIR defaults to plugin/sdks/python
#
# Prints ONE line on stdout: the environment's directory (run its bin/python). Progress goes to stderr.
#
# The environment is cached in ${PULUMI_RUNPOD_CACHE:-$HOME/.cache/pulumi-runpod}/python-venv-<key>, keyed by the
# Python version, the requirements file and the SDK's files, so it is rebuilt exactly when one of them changed; pip's
# own cache keeps the downloads. PULUMI_RUNPOD_PYTHON names the interpreter (default: python3, 3.10 or newer).
# An environment no run has used for 14 days is removed when another one is made.
set -euo pipefail

CACHE_ROOT="${PULUMI_RUNPOD_CACHE:-$HOME/.cache/pulumi-runpod}"
SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO_ROOT="$(dirname "$SCRIPT_DIR")"
REQUIREMENTS="$REPO_ROOT/test/e2e/languages/python/requirements.txt"
SDK_DIR="$(cd "${1:-$REPO_ROOT/plugin/sdks/python}" 2>/dev/null && pwd)" || {
  echo "provide-python: no SDK at ${1:-$REPO_ROOT/plugin/sdks/python} (npm run gen:sdks writes it)" >&2
  exit 1
}
PYTHON="${PULUMI_RUNPOD_PYTHON:-python3}"

log() { echo "provide-python: $*" >&2; }

if ! command -v "$PYTHON" >/dev/null 2>&1; then
  log "'$PYTHON' is not installed: install Python 3.10 or newer (https://www.python.org/downloads/), or name one"
  log "in PULUMI_RUNPOD_PYTHON"
  exit 1
fi
if ! PY_VERSION="$("$PYTHON" -c 'import sys; assert sys.version_info >= (3, 10); print(sys.version.split()[0])' \
  2>/dev/null)"; then
  log "$("$PYTHON" --version 2>&1) is too old: the pulumi package needs Python 3.10 or newer"
  exit 1
fi

# A hash of what the environment is made of: the interpreter, the pinned requirements, the SDK's files.
build_key() {
  local sha=(sha256sum)
  command -v sha256sum >/dev/null 2>&1 || sha=(shasum -a 256)
  {
    echo "python $PY_VERSION $("$PYTHON" -c 'import sys; print(sys.base_prefix)')"
    "${sha[@]}" <"$REQUIREMENTS"
    (cd "$SDK_DIR" && find . -type f ! -path '*/__pycache__/*' ! -path './build/*' ! -path '*.egg-info/*' -print0 \
      | LC_ALL=C sort -z | xargs -0 "${sha[@]}")
  } | "${sha[@]}" | cut -c1-16
}

KEY="$(build_key)"
DEST="$CACHE_ROOT/python-venv-$KEY"
# A virtual environment cannot be moved once made (its scripts name its path), so it is made in place, and the
# marker written last tells a finished one from an interrupted one.
ready() {
  [ -f "$DEST/.complete" ] && [ -x "$DEST/bin/python" ]
}
if ready; then
  touch "$DEST"
  echo "$DEST"
  exit 0
fi

mkdir -p "$CACHE_ROOT"
if command -v flock >/dev/null 2>&1; then
  exec 9>"$CACHE_ROOT/.python-venv.lock"
  flock 9
  # Another run may have finished it while this one waited.
  if ready; then
    echo "$DEST"
    exit 0
  fi
fi
start=$SECONDS
rm -rf "$DEST"
SDK_COPY=""
trap 'rc=$?; if [ -n "$SDK_COPY" ]; then rm -rf "$SDK_COPY"; fi; if [ "$rc" -ne 0 ]; then rm -rf "$DEST"; log "failed (see above)"; fi' EXIT
log "making $DEST with Python $PY_VERSION (about a minute the first time on 2 cores; later runs reuse it)"
"$PYTHON" -m venv "$DEST" >&2
PIP=("$DEST/bin/python" -m pip --disable-pip-version-check --no-input)
"${PIP[@]}" install -q -r "$REQUIREMENTS" >&2
# The SDK's own dependencies are held to the same pins; anything it needs beyond them is resolved here. pip builds
# from a copy: setuptools writes build/ and *.egg-info into the folder it builds, and the SDK's is committed.
SDK_COPY="$(mktemp -d)"
cp -R "$SDK_DIR/." "$SDK_COPY/"
"${PIP[@]}" install -q -c "$REQUIREMENTS" "$SDK_COPY" >&2
"$DEST/bin/python" -c 'import pulumi, pulumi_runpod_iac' >&2
touch "$DEST/.complete"
log "made in $((SECONDS - start))s"
find "$CACHE_ROOT" -maxdepth 1 -type d -name 'python-venv-*' -mtime +14 -exec rm -rf {} + 2>/dev/null || true
echo "$DEST"
