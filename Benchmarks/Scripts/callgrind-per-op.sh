#!/bin/bash
# Instructions per operation of one tether-probe workload, from callgrind runs at N and 2N (so that process
# start and setup cancel out). Usage: Benchmarks/Scripts/callgrind-per-op.sh W1 100000
# Needs valgrind (apt-get install -y valgrind) and a release build:
#   swift build -c release --package-path Benchmarks --product tether-probe
set -euo pipefail
workload=$1
n=$2
probe=${PROBE:-"$(dirname "$0")/../.build/release/tether-probe"}
# Swift seeds its hashing per process: Foundation's observer dictionaries (W7) then probe a different number
# of buckets in each run (W7 rows varied by ~130 instructions per post). A fixed seed makes counts repeat;
# SWIFT_DETERMINISTIC_HASHING=0 measures with a random one.
export SWIFT_DETERMINISTIC_HASHING=${SWIFT_DETERMINISTIC_HASHING:-1}
count() {
    valgrind --tool=callgrind --callgrind-out-file=/dev/null "$probe" "$workload" "$1" 2>&1 |
        sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}
a=$(count "$n")
b=$(count $((2 * n)))
echo "$workload: $(((b - a) / n)) instructions per operation"
