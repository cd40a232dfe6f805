#!/usr/bin/env bash
# Provides PostgreSQL's binaries (initdb, pg_ctl, createdb, psql, pg_dump), which the tests use to
# start a private cluster for Pulumi's postgres:// backend (docs/teams.md). Contributors
# only: the published package does not ship this script. It starts nothing.
#
# Prints ONE line on stdout: the directory holding them. Progress goes to stderr.
#
#   "$(bash scripts/provide-postgres.sh)/pg_ctl" --version
#
# In order, it uses:
#   1. `pg_ctl` on PATH (with initdb next to it), e.g. a PostgreSQL installed from source or a package
#      that links its binaries onto PATH;
#   2. Debian's layout, /usr/lib/postgresql/<major>/bin (the newest major installed);
#   3. Debian's `postgresql` package, installed with apt-get (as root, or through sudo without a password).
#      The package's own default cluster, if its post-install step starts one, is not used.
set -euo pipefail

TOOLS=(initdb pg_ctl createdb psql pg_dump)

log() { echo "provide-postgres: $*" >&2; }

# complete DIR: every tool the tests run is in DIR.
complete() {
  local tool
  for tool in "${TOOLS[@]}"; do [ -x "$1/$tool" ] || return 1; done
}

from_path() {
  local bin dir
  bin="$(command -v pg_ctl 2>/dev/null)" || return 1
  # A symlink on PATH (e.g. /usr/local/bin/pg_ctl -> /usr/lib/postgresql/15/bin/pg_ctl): use its real directory,
  # where pg_dump and createdb of the same version live.
  dir="$(dirname "$(readlink -f "$bin")")"
  complete "$dir" || return 1
  echo "$dir"
}

from_debian() {
  local dir
  dir="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n1)" || return 1
  [ -n "$dir" ] && complete "$dir" || return 1
  echo "$dir"
}

install_package() {
  local sudo=()
  if [ "$(id -u)" != 0 ]; then
    if command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
      sudo=(sudo -n)
    else
      log "PostgreSQL is not installed and installing it needs root: run 'apt-get install postgresql' as root"
      exit 1
    fi
  fi
  if ! command -v apt-get >/dev/null 2>&1; then
    log "PostgreSQL is not installed and this machine has no apt-get: install PostgreSQL 13 or newer"
    log "(https://www.postgresql.org/download/) so that ${TOOLS[*]} are on PATH"
    exit 1
  fi
  log "installing Debian's postgresql package with apt-get (about a minute)"
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -q >&2
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends postgresql >&2
}

main() {
  from_path && return 0
  from_debian && return 0
  install_package
  from_debian && return 0
  log "the postgresql package is installed, but one of ${TOOLS[*]} is missing"
  exit 1
}

main "$@"
