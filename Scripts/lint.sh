#!/usr/bin/env bash
# Lints the Swift sources with the toolchain's swift-format and the committed .swift-format
# (line length 120, 4-space indentation, documentation on every public declaration).
#
#   Scripts/lint.sh           report findings; exit 1 if there are any (what CI runs)
#   Scripts/lint.sh --fix     rewrite the files in place (swift format --in-place), then lint again
#
# Paths: Sources and Tests, plus Examples and Benchmarks when they exist.
set -euo pipefail
cd "$(dirname "$0")/.."
source Scripts/lib/common.sh

paths=(Sources Tests)
for extra in Examples Benchmarks/Sources Benchmarks/Tests; do
    [ -d "$extra" ] && paths+=("$extra")
done

if [ "${1:-}" = "--fix" ]; then
    swift format format --in-place --parallel --recursive "${paths[@]}"
elif [ -n "${1:-}" ]; then
    echo "usage: $0 [--fix]" >&2
    exit 2
fi

log=$(mktemp)
trap 'rm -f "$log"' EXIT
if swift format lint --strict --parallel --recursive "${paths[@]}" 2>"$log"; then
    echo "lint: no findings in ${paths[*]} ($(tether_elapsed))"
    exit 0
fi
cat "$log" >&2
findings=$(grep -c ': \(warning\|error\):' "$log" || true)
files=$(grep ': \(warning\|error\):' "$log" | cut -d: -f1 | sort -u | wc -l)
echo "lint: $findings findings in $files files ($(tether_elapsed)); Scripts/lint.sh --fix rewrites what swift-format can" >&2
exit 1
