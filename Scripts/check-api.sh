#!/usr/bin/env bash
# Checks that the public API of Observable, Bridges, Binding and TetherTesting matches the committed api/<Module>.txt.
#
#   Scripts/check-api.sh            fail (exit 1) with a diff when the public API changed
#   Scripts/check-api.sh --update   rewrite api/<Module>.txt from the current code
#
# The dump is each module's symbol graph (swift-symbolgraph-extract, public symbols, its own only)
# reduced to one sorted line per declaration and conformance by Scripts/Tools/SymbolDigest.swift:
# a public change shows up as a readable diff, and committing the updated file makes it deliberate.
# Environment: TETHER_SCRATCH (build directory, default .build).
set -euo pipefail
cd "$(dirname "$0")/.."
source Scripts/lib/common.sh

update=false
case "${1:-}" in
    --update) update=true ;;
    "") ;;
    *) echo "usage: $0 [--update]" >&2; exit 2 ;;
esac

work="$TETHER_SCRATCH/tether-api"
mkdir -p "$work" api
digest="$work/SymbolDigest"
if [ ! -x "$digest" ] || [ Scripts/Tools/SymbolDigest.swift -nt "$digest" ]; then
    swiftc -Onone -module-cache-path "$work/module-cache" -o "$digest" Scripts/Tools/SymbolDigest.swift
fi

modules_dir=$(tether_build_modules)
status=0
for module in "${TETHER_MODULES[@]}"; do
    tether_symbol_graphs "$module" "$modules_dir" "$work/$module" -skip-synthesized-members
    "$digest" "$module" "$work/$module"/*.symbols.json >"$work/$module.txt"
    tether_check_api_snapshot "$work/$module.txt" "api/$module.txt" "api/$module.txt" Scripts/check-api.sh "$update" ||
        status=1
done

if [ $status -ne 0 ]; then
    echo "error: the public API differs from api/*.txt. If the change is deliberate, run" >&2
    echo "       Scripts/check-api.sh --update and commit the updated files with it." >&2
else
    echo "check-api: ${TETHER_MODULES[*]} match api/ ($(tether_elapsed))"
fi
exit $status
