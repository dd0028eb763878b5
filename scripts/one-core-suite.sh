#!/usr/bin/env bash
# Runs README's test suite RUNS times in a row (default 10) on one core, beside a process that keeps
# that core busy, and stops at the first failing run: the check that no test depends on the machine
# being quiet (issue 31: "passes ten times in a row under taskset -c 0 beside a CPU hog"). Each run's
# output is kept in .build/one-core/run-N.log. Build the tests first (`swift build --build-tests`).
#
#   scripts/one-core-suite.sh [RUNS] [CORE]
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-10}
core=${2:-0}
logs=.build/one-core
mkdir -p "$logs"

# The hog: a shell loop on the same core, stopped (by its PID) however this script ends.
taskset -c "$core" bash -c 'while :; do :; done' &
hog=$!
trap 'kill "$hog" 2>/dev/null || true' EXIT

for run in $(seq 1 "$runs"); do
    start=$(date +%s)
    if taskset -c "$core" swift test --skip-build > "$logs/run-$run.log" 2>&1; then
        summary=$(grep -E "^. Test run with" "$logs/run-$run.log" | tail -1)
        echo "run $run: passed in $(( $(date +%s) - start )) s: $summary"
    else
        echo "run $run: FAILED after $(( $(date +%s) - start )) s; the failures:" >&2
        grep -E "✘" "$logs/run-$run.log" | head -20 >&2
        exit 1
    fi
done
echo "one-core-suite.sh: $runs runs in a row passed on core $core beside a busy loop"
