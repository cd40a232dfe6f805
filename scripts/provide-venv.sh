#!/usr/bin/env bash
# Provides a Python virtual environment made from a pinned requirements file (every dependency at an exact version),
# cached outside the repository. Any test tier that runs Python calls it with its own requirements; the integration
# tier's clients written elsewhere (runpod-python, openai, schemathesis: docs/ci.md) are the first.
# Contributors only: the published package does not ship this script.
#
#   bash scripts/provide-venv.sh --name NAME --requirements FILE [--local DIR] [--import MOD[,MOD...]] [--min-python X.Y]
#
#   --name          names the cache entry: ${PULUMI_RUNPOD_CACHE:-$HOME/.cache/pulumi-runpod}/python-venv-NAME-<key>
#   --requirements  the pinned requirements file (pip freeze's format), installed first
#   --local         a package directory installed after it, held to the same pins (-c FILE); its files join the key
#   --import        modules imported once the environment is made, so a broken install fails here, not in a test
#   --min-python    the oldest Python the requirements accept (default 3.10)
#
# Prints ONE line on stdout: the environment's directory (run its bin/python). Progress goes to stderr.
#
# The key is a hash of the interpreter's version and prefix, the requirements file and the --local package's files, so
# the environment is remade exactly when one of them changed; pip's own cache keeps the downloads. A missing or too
# old Python fails with the reason (exit 1), never silently. PULUMI_RUNPOD_PYTHON names the interpreter (default
# python3). An environment of the same NAME that no run has used for 14 days is removed when another one is made.
set -euo pipefail

NAME="" REQUIREMENTS="" LOCAL_DIR="" IMPORTS="" MIN_PYTHON="3.10"
log() { echo "provide-venv${NAME:+ ($NAME)}: $*" >&2; }
usage() {
  log "usage: provide-venv.sh --name NAME --requirements FILE [--local DIR] [--import MOD,...] [--min-python X.Y]"
  exit 2
}
while [ $# -gt 0 ]; do
  case "$1" in
    --name) NAME="${2:-}"; shift 2 || usage ;;
    --requirements) REQUIREMENTS="${2:-}"; shift 2 || usage ;;
    --local) LOCAL_DIR="${2:-}"; shift 2 || usage ;;
    --import) IMPORTS="${2:-}"; shift 2 || usage ;;
    --min-python) MIN_PYTHON="${2:-}"; shift 2 || usage ;;
    *) log "unknown argument '$1'"; usage ;;
  esac
done
[[ "$NAME" =~ ^[a-z0-9][a-z0-9-]*$ ]] || { log "--name must be lowercase letters, digits and dashes, got '$NAME'"; usage; }
[ -f "$REQUIREMENTS" ] || { log "no requirements file at '$REQUIREMENTS'"; exit 1; }
REQUIREMENTS="$(cd "$(dirname "$REQUIREMENTS")" && pwd)/$(basename "$REQUIREMENTS")"
if [ -n "$LOCAL_DIR" ]; then
  LOCAL_DIR="$(cd "$LOCAL_DIR" 2>/dev/null && pwd)" || { log "no package directory at '$LOCAL_DIR'"; exit 1; }
fi
[[ "$MIN_PYTHON" =~ ^3\.[0-9]+$ ]] || { log "--min-python must read 3.N, got '$MIN_PYTHON'"; usage; }
[[ "$IMPORTS" =~ ^[A-Za-z0-9_.,]*$ ]] || { log "--import takes module names separated by commas, got '$IMPORTS'"; usage; }

CACHE_ROOT="${PULUMI_RUNPOD_CACHE:-$HOME/.cache/pulumi-runpod}"
PYTHON="${PULUMI_RUNPOD_PYTHON:-python3}"

if ! command -v "$PYTHON" >/dev/null 2>&1; then
  log "'$PYTHON' is not installed: install Python $MIN_PYTHON or newer with pip and venv"
  log "(https://www.python.org/downloads/), or name one in PULUMI_RUNPOD_PYTHON"
  exit 1
fi
MIN_MINOR="${MIN_PYTHON#3.}"
if ! PY_VERSION="$("$PYTHON" -c "import sys; assert sys.version_info >= (3, $MIN_MINOR); print(sys.version.split()[0])" \
  2>/dev/null)"; then
  log "$("$PYTHON" --version 2>&1) is too old: these requirements need Python $MIN_PYTHON or newer"
  log "(name another interpreter in PULUMI_RUNPOD_PYTHON)"
  exit 1
fi
if ! "$PYTHON" -c 'import venv, ensurepip' >/dev/null 2>&1; then
  log "Python $PY_VERSION at $(command -v "$PYTHON") has no venv or ensurepip module (Debian: apt-get install python3-venv)"
  exit 1
fi

# A hash of what the environment is made of: the interpreter, the pinned requirements, the local package's files.
build_key() {
  local sha=(sha256sum)
  command -v sha256sum >/dev/null 2>&1 || sha=(shasum -a 256)
  {
    echo "python $PY_VERSION $("$PYTHON" -c 'import sys; print(sys.base_prefix)')"
    "${sha[@]}" <"$REQUIREMENTS"
    if [ -n "$LOCAL_DIR" ]; then
      (cd "$LOCAL_DIR" && find . -type f ! -path '*/__pycache__/*' ! -path './build/*' ! -path '*.egg-info/*' -print0 \
        | LC_ALL=C sort -z | xargs -0 "${sha[@]}")
    fi
  } | "${sha[@]}" | cut -c1-16
}

DEST="$CACHE_ROOT/python-venv-$NAME-$(build_key)"
# A virtual environment cannot be moved once made (its scripts name its path), so it is made in place, and the
# marker written last tells a finished one from an interrupted one.
ready() { [ -f "$DEST/.complete" ] && [ -x "$DEST/bin/python" ]; }
if ready; then
  touch "$DEST"
  echo "$DEST"
  exit 0
fi

mkdir -p "$CACHE_ROOT"
if command -v flock >/dev/null 2>&1; then
  exec 9>"$CACHE_ROOT/.python-venv-$NAME.lock"
  flock 9
  # Another run may have finished it while this one waited.
  if ready; then
    echo "$DEST"
    exit 0
  fi
fi
start=$SECONDS
rm -rf "$DEST"
trap 'rc=$?; if [ "$rc" -ne 0 ]; then rm -rf "$DEST"; log "failed (see above)"; fi' EXIT
log "making $DEST with Python $PY_VERSION from $(basename "$REQUIREMENTS") (a minute or two the first time; later runs reuse it)"
"$PYTHON" -m venv "$DEST" >&2
PIP=("$DEST/bin/python" -m pip --disable-pip-version-check --no-input)
# --no-compile: bytecode is written on first import instead, for the modules a run uses (boto3 alone has thousands).
"${PIP[@]}" install -q --no-compile -r "$REQUIREMENTS" >&2
# The local package's own dependencies are held to the same pins; anything it needs beyond them is resolved here.
if [ -n "$LOCAL_DIR" ]; then "${PIP[@]}" install -q --no-compile -c "$REQUIREMENTS" "$LOCAL_DIR" >&2; fi
if [ -n "$IMPORTS" ]; then "$DEST/bin/python" -c "import ${IMPORTS}" >&2; fi
touch "$DEST/.complete"
log "made in $((SECONDS - start))s"
find "$CACHE_ROOT" -maxdepth 1 -type d -name "python-venv-$NAME-*" -mtime +14 -exec rm -rf {} + 2>/dev/null || true
echo "$DEST"
