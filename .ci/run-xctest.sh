#!/usr/bin/env bash
# Runs the XCTest tests of a built test binary in parallel processes, whole test classes per run of the
# binary, on every core: the optimized build's and the Thread Sanitizer runs of .ci/run, and .ci/leaks.sh
# (AddressSanitizer).
#
#   .ci/run-xctest.sh BINARY LOG [--skip REGEX] [--jobs N] [--durations TEST_LOG]
#
# - BINARY: the .xctest binary (`swift build --show-bin-path`/TetherPackageTests.xctest). The environment
#   (TSAN_OPTIONS, ASAN_OPTIONS, LSAN_OPTIONS, ...) is passed to every run.
# - LOG: every run's output, one class after another in the order they finished (never interleaved).
# - --skip REGEX: tests ("Module.Class/testName") matching it are not run; a class with a skipped test is
#   run test by test.
# - --jobs N: runs at a time (default: the number of cores).
# - --durations TEST_LOG: an XCTest log of the same tests (the debug run's): the classes start longest
#   first (longest processing time first, so that no long class starts last and runs alone at the end).
#   Without it, or for classes it does not name, the binary's order.
#
# Why: the suites are mostly single-threaded, and under a sanitizer a test costs 5-20× its debug time, so
# one process leaves a core idle for most of the run (on 2 cores, the Thread Sanitizer run took 804 s in one
# process). Each class runs in a process of its own: a test sees the same process-wide state (the main
# queue, NotificationCenter.default, the debugging switches) as in a whole-suite run, where other classes
# run before and after it, but never another class at the same time. The scale is unchanged: every test
# runs, once, at the scale of the serial run.
#
# Exits 0 when every run exited 0; otherwise prints the failing runs' output and exits 1. The Swift
# Testing tests are not in this binary's XCTest list: run them with `swift test --disable-xctest`.
set -euo pipefail

usage() { echo "usage: $0 BINARY LOG [--skip REGEX] [--jobs N] [--durations TEST_LOG]" >&2; exit 2; }
[ $# -ge 2 ] || usage
binary=$1
log=$2
shift 2
skip='^$'
jobs=$(nproc 2>/dev/null || echo 2)
durations=
while [ $# -gt 0 ]; do
    case $1 in
        --skip) skip=$2; shift 2 ;;
        --jobs) jobs=$2; shift 2 ;;
        --durations) durations=$2; shift 2 ;;
        *) usage ;;
    esac
done
[ -x "$binary" ] || { echo "$0: no test binary at $binary" >&2; exit 2; }

work=$(mktemp -d "${TMPDIR:-/tmp}/tether-xctest.XXXXXX")
trap 'rm -rf "$work"' EXIT
started=$(date +%s)

# The runs: "seconds<TAB>argument" per class, longest first. A class none of whose tests is skipped is
# named whole; the others list their tests (comma-separated, as XCTest takes them).
ASAN_OPTIONS="${ASAN_OPTIONS:-}:detect_leaks=0" "$binary" --list-tests |
    grep -E '^[A-Za-z0-9_]+\.[A-Za-z0-9_]+/' > "$work/tests" || true
[ -s "$work/tests" ] || { echo "$0: $binary listed no tests" >&2; exit 1; }
if [ -n "$durations" ] && [ -f "$durations" ]; then
    # "Test Case 'Class.testName' passed (1.234 seconds)" -> seconds per class.
    sed -nE "s/^Test Case '([A-Za-z0-9_]+)\.[A-Za-z0-9_]+' (passed|failed|skipped) \(([0-9.]+) seconds\).*/\1 \3/p" \
        "$durations" | awk '{ t[$1] += $2 } END { for (c in t) print c, t[c] }' > "$work/durations"
else
    : > "$work/durations"
fi
SKIP="$skip" awk '
    BEGIN { skip = ENVIRON["SKIP"] }
    FNR == NR { seconds[$1] = $2; next }
    { split($0, part, "/"); class = part[1]
      if (!(class in seen)) { seen[class] = 1; order[++classes] = class }
      if ($0 ~ skip) { skipped[class]++; skippedTests++ } else kept[class] = kept[class] "," $0 }
    END {
        for (i = 1; i <= classes; i++) {
            class = order[i]
            if (!(class in kept)) continue
            short = class; sub(/^[^.]*\./, "", short)
            # Unknown classes keep the binary order after the timed ones (a tiny decreasing weight).
            weight = (short in seconds) ? seconds[short] : -i / 1e6
            printf "%.6f\t%s\n", weight, (class in skipped) ? substr(kept[class], 2) : class
        }
        printf "%d test(s) skipped by name\n", skippedTests > "/dev/stderr"
    }' "$work/durations" "$work/tests" | sort -t "$(printf '\t')" -k1,1 -g -r > "$work/classes"
# Packed into runs: a long class runs alone, short ones share a run (each run of the binary costs a start
# and, under Thread Sanitizer, a 1 s sleep at exit), so that there are about 8 runs per job, longest first.
# A class without a duration counts as 1/20 of a run.
awk -F '\t' -v jobs="$jobs" -v limit=65536 '
    { weight[NR] = $1; argument[NR] = $2; if ($1 > 0) sum += $1 }
    END {
        target = (sum > 0) ? sum / (jobs * 8) : 1
        for (i = 1; i <= NR; i++) {
            w = (weight[i] > 0) ? weight[i] : target / 20
            if (run != "" && (filled + w > target * 1.0001 || length(run) + length(argument[i]) + 1 > limit)) {
                print run; run = ""; filled = 0
            }
            run = (run == "") ? argument[i] : run "," argument[i]
            filled += w
        }
        if (run != "") print run
    }' "$work/classes" > "$work/runs"
total=$(wc -l < "$work/runs")
echo "XCTest: $(wc -l < "$work/tests") tests listed; $total runs of the binary, $jobs at a time"

# One run: the binary on one class (its output in a file of its own), then its result line, appended to
# LOG with the output under a lock so that runs finishing together do not interleave.
: > "$log"
export binary log work
run_one() {
    local index=$1 argument=$2
    local out="$work/run-$index.log" status=0
    local from
    from=$(date +%s)
    "$binary" "$argument" < /dev/null > "$out" 2>&1 || status=$?
    echo "$status" > "$work/run-$index.status"
    local summary
    summary=$(grep -E "^[[:space:]]*Executed [0-9]+ tests?," "$out" | tail -n 1 | sed -E 's/^[[:space:]]+//' || true)
    {
        flock 9
        cat "$out" >> "$log"
        local more=${argument//[^,]/}
        printf '%s%s: %s (status %d, %d s)\n' "${argument%%,*}" "${more:+ and ${#more} more}" \
            "${summary:-no XCTest summary}" "$status" "$(( $(date +%s) - from ))"
    } 9> "$work/lock"
}
export -f run_one
awk '{ printf "%d\t%s\n", NR, $0 }' "$work/runs" |
    xargs -P "$jobs" -d '\n' -n 1 bash -c 'IFS=$(printf "\t") read -r index argument <<< "$1"; run_one "$index" "$argument"' _

failed=0
executed=0
failures=0
for index in $(seq 1 "$total"); do
    status=$(cat "$work/run-$index.status" 2>/dev/null || echo missing)
    out="$work/run-$index.log"
    # "Executed 920 tests, with 1 test skipped and 0 failures (0 unexpected) in …"
    summary=$(grep -E "^[[:space:]]*Executed [0-9]+ tests?," "$out" 2>/dev/null | tail -n 1 || true)
    n=$(sed -nE 's/^[[:space:]]*Executed ([0-9]+) tests?,.*/\1/p' <<< "$summary")
    f=$(sed -nE 's/.* ([0-9]+) failures? \(.*/\1/p' <<< "$summary")
    executed=$(( executed + ${n:-0} ))
    failures=$(( failures + ${f:-0} ))
    if [ "$status" != 0 ]; then
        failed=$(( failed + 1 ))
        echo "--- run $index ($(sed -n "${index}p" "$work/runs" | cut -c1-200)) exited with status $status:"
        cat "$out"
    fi
done
echo "XCTest: executed $executed tests in $total runs, $failures failure(s), $failed run(s) failed," \
    "$(( $(date +%s) - started )) s"
[ "$failed" -eq 0 ]
