#!/usr/bin/env bash
# Provides the system tools the standalone plugin's build runs (scripts/release/sea.ts, docs/releasing.md):
# llvm-strip, which takes the debug symbols out of the Linux plugins, and osslsigncode, which removes Node's
# Authenticode signature from the Windows plugin's binary. Found on PATH, or installed from Debian's packages
# (`llvm`, `osslsigncode`) with apt-get, as root or through sudo without a password; anything else fails with
# what to install. Progress goes to stderr; nothing on stdout. `.ci/run` runs it on a fresh machine.
# Contributors only: the published package does not ship this script.
set -euo pipefail

log() { echo "provide-release-tools: $*" >&2; }

# tool:package
WANTED=(llvm-strip:llvm osslsigncode:osslsigncode)
missing=()
for entry in "${WANTED[@]}"; do
  command -v "${entry%%:*}" >/dev/null 2>&1 || missing+=("${entry#*:}")
done
[ "${#missing[@]}" = 0 ] && exit 0

sudo=()
if [ "$(id -u)" != 0 ]; then
  if command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
    sudo=(sudo -n)
  else
    log "missing ${missing[*]}, and installing needs root: run 'apt-get install ${missing[*]}' as root"
    exit 1
  fi
fi
if ! command -v apt-get >/dev/null 2>&1; then
  log "this machine has no apt-get: install ${missing[*]} (llvm-strip and osslsigncode on PATH)"
  exit 1
fi
log "installing ${missing[*]} with apt-get"
"${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -q >&2
"${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}" >&2
for entry in "${WANTED[@]}"; do
  command -v "${entry%%:*}" >/dev/null 2>&1 || { log "${entry#*:} is installed, but ${entry%%:*} is not on PATH"; exit 1; }
done
