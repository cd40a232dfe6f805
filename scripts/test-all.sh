#!/usr/bin/env bash
# `npm test`: every lint step and every test tier (unit, integration, e2e, resilience), the lint
# beside the tests rather than before them, since the engine tiers spend most of their time waiting
# on the engine and the emulator. Arguments go to vitest (e.g. `npm test -- --reporter=json ...`).
# The build runs first (`npm test` = build, then this script): the integration and engine tiers
# load dist/.
set -uo pipefail
cd "$(dirname "$0")/.."
# Node's on-disk cache of compiled modules (as .ci/run sets it): each engine operation starts two
# node processes that load @pulumi/pulumi, and this saves about 0.4 s of CPU in each.
export NODE_COMPILE_CACHE="${NODE_COMPILE_CACHE:-${PULUMI_RUNPOD_CACHE:-$HOME/.cache/pulumi-runpod}/node-compile-cache}"

lint_log="$(mktemp)"
npm run --silent lint >"$lint_log" 2>&1 &
lint_pid=$!

npx vitest run "$@"
tests_status=$?

wait "$lint_pid"
lint_status=$?
echo "---- npm run lint (ran beside the tests) ----"
cat "$lint_log"
rm -f "$lint_log"
if [ "$lint_status" != 0 ]; then echo "npm run lint failed (exit code $lint_status)"; fi
if [ "$tests_status" != 0 ]; then exit "$tests_status"; fi
exit "$lint_status"
