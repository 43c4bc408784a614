#!/usr/bin/env bash
# Runs the tests matching a filter N times in a row and stops at the first failing run — how the
# concurrency regression tests are checked for flakiness ("passes 50 runs in a row").
#
#   Scripts/repeat-tests.sh CoreConcurrencyRegressionTests 50            # debug build
#   Scripts/repeat-tests.sh CoreConcurrencyRegressionTests 50 --tsan     # under Thread Sanitizer
set -euo pipefail
cd "$(dirname "$0")/.."
source Scripts/lib/common.sh
export SWIFT_BACKTRACE=enable=no

filter=${1:?usage: $0 FILTER [RUNS] [--tsan]}
runs=${2:-50}
args=(--filter "$filter")
if [ "${3:-}" = "--tsan" ]; then
    args+=(--sanitize=thread --scratch-path .build-tsan)
    export TSAN_OPTIONS="${TSAN_OPTIONS:-} halt_on_error=1 suppressions=$PWD/.ci/tsan-suppressions.txt"
fi
swift build --build-tests "${args[@]:2}" >/dev/null
log=$(mktemp)
trap 'rm -f "$log"' EXIT
for run in $(seq 1 "$runs"); do
    if ! swift test --skip-build "${args[@]}" >"$log" 2>&1 || grep -q "WARNING: ThreadSanitizer" "$log"; then
        cat "$log"
        echo "repeat-tests: run $run of $runs failed ($(tether_elapsed))" >&2
        exit 1
    fi
done
echo "repeat-tests: $runs runs of '$filter' passed ($(tether_elapsed))"
