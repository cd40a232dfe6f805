#!/usr/bin/env bash
# The runtime matrix (docs/ci.md): the unit tests and the real-engine user journey on each Node.js
# line we support (22, 24), each with the lowest @pulumi/pulumi the package supports, the pinned
# development version and the newest release we have tested. The repository's own node_modules is
# never touched:
#   - unit tests: with the pinned @pulumi/pulumi, the whole unit tier on Node 22 in the repository
#     itself (Node 24 with the pinned version is the main suite's own run); with the lowest and the
#     newest, a copy of the working tree with a copy of node_modules in which @pulumi/pulumi is
#     swapped for the version under test (`npm install --no-save`), built against its declarations,
#     running the unit tests of the code that loads @pulumi/pulumi (PULUMI_UNIT_DIRS) on both lines;
#   - journey: a fresh consumer project that installs this package's `npm pack` tarball, that
#     @pulumi/pulumi, @pulumi/policy and TypeScript, as a user does, and runs test/matrix/journey.test.js
#     (node:test) against a TypeScript program (test/matrix/program) through the real engine: the
#     whole journey with the newest @pulumi/pulumi, a short one (create, refused shrink, destroy)
#     with the others.
# The Pulumi CLI is the one scripts/provide-pulumi.sh provides; Node.js binaries come from
# scripts/provide-node.sh (cached outside the repository).
#
# Two plans (PULUMI_RUNPOD_MATRIX_PLAN): `full` (the default, `npm run test:matrix`) runs every
# combination above; `pairs` (what .ci/run runs, to keep CI within its time budget) runs each Node
# line and each @pulumi/pulumi release at least once, in pairs: the lowest release on the oldest
# line (22), with its build, the whole unit tier and its journey, and the newest on the newest line
# (24), with its build, its unit tests and its journey. The pinned release on Node 24 is the main
# suite itself (every tier, through the engine on the same code), so it has no lane of its own.
#
#   bash scripts/runtime-matrix.sh
#   PULUMI_RUNPOD_MATRIX_PLAN=pairs bash scripts/runtime-matrix.sh
#   PULUMI_RUNPOD_MATRIX_NODES="24" PULUMI_RUNPOD_MATRIX_PULUMI="3.270.0" bash scripts/runtime-matrix.sh
#
# Prints a line per run, the wall time, and a last line "runtime-matrix: N passed, N failed".
set -euo pipefail
cd "$(dirname "$0")/.."
REPO="$PWD"

# The lowest @pulumi/pulumi the package supports: peerDependencies says ^<this>. Lower releases
# fail the journey (see docs/ci.md for what breaks).
LOWEST_PULUMI="3.216.0"
# The newest @pulumi/pulumi release tested; bump it (and rerun this script) when a new one ships.
NEWEST_PULUMI="3.270.0"
# The Node line the main suite (npm test in .ci/run) runs on: its unit run with the pinned version is that suite's.
MAIN_SUITE_NODE="${PULUMI_RUNPOD_MAIN_SUITE_NODE:-24}"
PINNED_PULUMI="$(node -p 'require("./package.json").devDependencies["@pulumi/pulumi"]')"
# The unit tests whose code loads @pulumi/pulumi or @pulumi/policy (the resources, the pack, the
# plugin, the CLI's plugin install): the only ones a different @pulumi/pulumi can change. The others
# (client, emulator, benchmarks' arithmetic) run in the main suite and, on Node 22, in the pinned run.
PULUMI_UNIT_DIRS=(test/unit/provider test/unit/policy test/unit/plugin test/unit/cli)
read -r -a NODE_MAJORS <<<"${PULUMI_RUNPOD_MATRIX_NODES:-22 24}"
read -r -a PULUMI_VERSIONS <<<"${PULUMI_RUNPOD_MATRIX_PULUMI:-$LOWEST_PULUMI $PINNED_PULUMI $NEWEST_PULUMI}"

PLAN="${PULUMI_RUNPOD_MATRIX_PLAN:-full}"
case "$PLAN" in full | pairs) ;; *) echo "PULUMI_RUNPOD_MATRIX_PLAN=$PLAN: must be full or pairs" >&2; exit 2 ;; esac

# plan_nodes PULUMI_VERSION: the Node lines that version runs on under the plan.
plan_nodes() {
  if [ "$PLAN" = full ]; then echo "${NODE_MAJORS[@]}"; return; fi
  case "$1" in
    "$LOWEST_PULUMI") echo "${NODE_MAJORS[0]}" ;;
    "$NEWEST_PULUMI") echo "${NODE_MAJORS[-1]}" ;;
    "$PINNED_PULUMI") echo "$MAIN_SUITE_NODE" ;;
    *) echo "${NODE_MAJORS[@]}" ;;
  esac
}

log() { echo "runtime-matrix: $*"; }
started=$SECONDS
WORK="$(mktemp -d "${TMPDIR:-/tmp}/runpod-matrix.XXXXXX")"
trap '[ "${PULUMI_RUNPOD_MATRIX_KEEP:-}" = 1 ] || rm -rf "$WORK"' EXIT

PULUMI_BIN="$(bash scripts/provide-pulumi.sh)"
declare -A NODE_BIN
for major in "${NODE_MAJORS[@]}"; do NODE_BIN[$major]="$(bash scripts/provide-node.sh "$major")"; done
NEWEST_NODE_BIN="${NODE_BIN[${NODE_MAJORS[-1]}]}"

# The package as users get it.
npm run build --silent
TARBALL="$WORK/$(npm pack --pack-destination "$WORK" --silent | tail -n1)"
dep_version() { node -p "require('./node_modules/$1/package.json').version"; }
TYPESCRIPT="$(dep_version typescript)"
TS_NODE="$(dep_version ts-node)"
TYPES_NODE="$(dep_version @types/node)"
POLICY="$(dep_version @pulumi/policy)"

# record LABEL PASSED FAILED SECONDS: into the results of the running lane (one per release).
record() {
  printf '%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$4" >>"$WORK/results-$LANE"
  log "$1: $2 passed, $3 failed ($4 s)"
}

# A copy of the working tree whose node_modules has @pulumi/pulumi@$1.
unit_copy() {
  local dir="$WORK/repo-$1"
  mkdir -p "$dir"
  tar -C "$REPO" --exclude=./node_modules --exclude=./dist --exclude=./.git --exclude=./.e2e-work -cf - . | tar -C "$dir" -xf -
  cp -a "$REPO/node_modules" "$dir/node_modules"
  (cd "$dir" && PATH="$NEWEST_NODE_BIN:$PATH" npm install --no-save --no-audit --no-fund --loglevel=error \
    "@pulumi/pulumi@$1" >/dev/null && node scripts/link-self.js)
  echo "$dir"
}

# build_copy DIR PULUMI_VERSION: the package compiles against that release's types (skipLibCheck
# is off), and the unit tests that load the built package find it.
build_copy() {
  local t0=$SECONDS
  if (cd "$1" && PATH="$NEWEST_NODE_BIN:$PATH" npx tsc -p tsconfig.json >"$WORK/build-$2.log" 2>&1); then
    record "build against @pulumi/pulumi $2" 1 0 $((SECONDS - t0))
  else
    tail -n 40 "$WORK/build-$2.log"
    record "build against @pulumi/pulumi $2" 0 1 $((SECONDS - t0))
  fi
}

# A fresh consumer project with the packed package and @pulumi/pulumi@$1.
consumer() {
  local dir="$WORK/consumer-$1"
  mkdir -p "$dir"
  cp -r "$REPO/test/matrix/program" "$REPO/test/matrix/journey.test.js" "$dir/"
  cat >"$dir/package.json" <<EOF
{
  "name": "runpod-matrix-consumer",
  "private": true,
  "dependencies": {
    "@pulumi/policy": "$POLICY",
    "@pulumi/pulumi": "$1",
    "runpod-iac": "file:$TARBALL"
  },
  "devDependencies": { "@types/node": "$TYPES_NODE", "ts-node": "$TS_NODE", "typescript": "$TYPESCRIPT" }
}
EOF
  (cd "$dir" && PATH="$NEWEST_NODE_BIN:$PATH" npm install --no-audit --no-fund --loglevel=error >/dev/null)
  echo "$dir"
}

# run_unit DIR NODE_MAJOR PULUMI_VERSION [TEST_DIR...]: the unit tier, or only the directories given.
run_unit() {
  local t0=$SECONDS json="$WORK/unit-$2-$3.json" ok=0 bad=0 dir="$1" major="$2" version="$3"
  shift 3
  local what="unit tests"
  [ $# -gt 0 ] && what="unit tests of $*"
  (cd "$dir" && PATH="${NODE_BIN[$major]}:$PULUMI_BIN:$PATH" npx vitest run --project unit --reporter=dot \
    --reporter=json --outputFile="$json" "$@" >"$WORK/unit-$major-$version.log" 2>&1) || true
  if [ -s "$json" ]; then
    read -r ok bad < <(node -p 'const r = require(process.argv[1]); `${r.numPassedTests} ${r.success ? r.numFailedTests : Math.max(r.numFailedTests, 1)}`' "$json")
  fi
  if [ ! -s "$json" ] || [ "$bad" != 0 ] || [ "$ok" = 0 ]; then
    tail -n 60 "$WORK/unit-$major-$version.log"
    [ "$bad" = 0 ] && bad=1
  fi
  record "$what, Node $major, @pulumi/pulumi $version" "$ok" "$bad" $((SECONDS - t0))
}

# run_journey DIR NODE_MAJOR PULUMI_VERSION
run_journey() {
  local t0=$SECONDS out="$WORK/journey-$2-$3.log" ok=0 bad=0
  local mode=short
  [ "$3" = "$NEWEST_PULUMI" ] && mode=full
  (cd "$1" && PATH="${NODE_BIN[$2]}:$PULUMI_BIN:$PATH" PULUMI_RUNPOD_PULUMI_BIN="$PULUMI_BIN" \
    PULUMI_RUNPOD_JOURNEY="$mode" node --test --test-reporter=spec journey.test.js >"$out" 2>&1) || true
  ok="$(sed -n 's/^ℹ pass \([0-9]*\)$/\1/p' "$out" | tail -n1)"
  bad="$(sed -n 's/^ℹ fail \([0-9]*\)$/\1/p' "$out" | tail -n1)"
  if [ -z "$ok" ] || [ -z "$bad" ] || [ "$bad" != 0 ] || [ "$ok" = 0 ]; then
    tail -n 80 "$out"
    ok="${ok:-0}"
    bad="${bad:-0}"
    [ "$bad" = 0 ] && bad=1
  fi
  record "journey ($mode), Node $2, @pulumi/pulumi $3" "$ok" "$bad" $((SECONDS - t0))
}

# run_release VERSION: everything the plan runs with that @pulumi/pulumi release, in order.
run_release() {
  local pv="$1" t0=$SECONDS project repo_copy major
  LANE="$pv"
  read -r -a majors <<<"$(plan_nodes "$pv")"
  if [ "$pv" = "$PINNED_PULUMI" ]; then
    # The repository already has this version and was built above: no copy to make. Node 24 with it
    # is the main suite's run (npm test), so only the other lines run the unit tier here; under
    # `pairs` its journey is the main suite's end-to-end tier, so no consumer project either.
    project=""
    [ "$PLAN" = full ] && project="$(consumer "$pv")"
    log "@pulumi/pulumi $pv${project:+ installed in a fresh project} ($((SECONDS - t0)) s); unit tests in the repository"
    for major in "${majors[@]}"; do
      [ "$major" = "$MAIN_SUITE_NODE" ] || run_unit "$REPO" "$major" "$pv"
      [ -z "$project" ] || run_journey "$project" "$major" "$pv"
    done
  else
    project="$(consumer "$pv")"
    repo_copy="$(unit_copy "$pv")"
    log "@pulumi/pulumi $pv installed in a copy of the repository and in a fresh project ($((SECONDS - t0)) s)"
    build_copy "$repo_copy" "$pv"
    for major in "${majors[@]}"; do
      if [ "$PLAN" = pairs ] && [ "$pv" = "$LOWEST_PULUMI" ]; then
        # The oldest line's only run under `pairs`: the whole unit tier, not only the code that
        # loads @pulumi/pulumi (the client, the emulator and the rest run on Node 22 here).
        run_unit "$repo_copy" "$major" "$pv"
      else
        run_unit "$repo_copy" "$major" "$pv" "${PULUMI_UNIT_DIRS[@]}"
      fi
      run_journey "$project" "$major" "$pv"
    done
    rm -rf "$repo_copy"
  fi
  [ -z "$project" ] || rm -rf "$project"
}

# One lane per release, all at once: a lane spends much of its time in single-threaded steps
# (npm install, tsc, one engine at a time), so lanes side by side fill both cores. Each lane's
# lines are printed together once every lane has ended; a lane that stopped before its end (an
# install that failed) counts as a failure.
log "plan: $PLAN; one lane per @pulumi/pulumi release, side by side"
lanes=()
for pv in "${PULUMI_VERSIONS[@]}"; do
  if [ "$PLAN" = pairs ] && [ "$pv" = "$PINNED_PULUMI" ] && [ "$(plan_nodes "$pv")" = "$MAIN_SUITE_NODE" ]; then
    # Nothing to run: the pinned release on the main suite's line is `npm test` itself.
    echo "@pulumi/pulumi $pv: the main suite's run (npm test, Node $MAIN_SUITE_NODE)" >"$WORK/lane-$pv.log"
    touch "$WORK/done-$pv"
    continue
  fi
  (run_release "$pv"; touch "$WORK/done-$pv") >"$WORK/lane-$pv.log" 2>&1 &
  lanes+=($!)
done
wait "${lanes[@]}" || true

passed=0
failed=0
summary=()
for pv in "${PULUMI_VERSIONS[@]}"; do
  cat "$WORK/lane-$pv.log"
  if [ -f "$WORK/results-$pv" ]; then
    while IFS=$'\t' read -r label ok bad secs; do
      passed=$((passed + ok))
      failed=$((failed + bad))
      summary+=("$(printf '%-48s %3d passed, %d failed  %4d s' "$label" "$ok" "$bad" "$secs")")
    done <"$WORK/results-$pv"
  fi
  if [ ! -f "$WORK/done-$pv" ]; then
    failed=$((failed + 1))
    summary+=("@pulumi/pulumi $pv: the lane stopped before its end (its lines above say where)")
  fi
done

log "what ran (Pulumi CLI $("$PULUMI_BIN/pulumi" version)):"
printf '  %s\n' "${summary[@]}"
log "wall time $((SECONDS - started)) s"
echo "runtime-matrix: $passed passed, $failed failed"
[ "$failed" = 0 ]
