#!/usr/bin/env bash
# Checks that every public symbol of Observable, Bridges, Binding and TetherTesting — members added to another
# module's types included — has a `///` doc comment and a page in the DocC documentation.
#
#   Scripts/check-doc-coverage.sh
#
# Builds the docs with Scripts/build-docs.sh (so it also fails on any DocC warning), then compares,
# for each module, the symbol graph docc was given with the pages docc made (the archive's
# linkable-entities.json) using Scripts/Tools/DocCoverage.swift. Each offender is printed as
# `Sources/<file>:<line>: <Module>: <symbol path> [<kind>]: no doc comment, no DocC page`.
# Environment: TETHER_SCRATCH (build directory, default .build).
set -euo pipefail
cd "$(dirname "$0")/.."
source Scripts/lib/common.sh

work="$TETHER_SCRATCH/tether-docs"
docs="$work/coverage-archives"
mkdir -p "$work"
tool="$work/DocCoverage"
if [ ! -x "$tool" ] || [ Scripts/Tools/DocCoverage.swift -nt "$tool" ]; then
    swiftc -Onone -module-cache-path "$work/module-cache" -o "$tool" Scripts/Tools/DocCoverage.swift
fi

Scripts/build-docs.sh --output "$docs"

status=0
for module in "${TETHER_MODULES[@]}"; do
    entities="$docs/$module.doccarchive/linkable-entities.json"
    if [ ! -f "$entities" ]; then
        echo "error: $entities is missing (docc did not write its digest)" >&2
        status=1
        continue
    fi
    if ! "$tool" "$module" "$entities" "$work/symbol-graphs/$module"/*.symbols.json; then
        status=1
    fi
done

if [ $status -ne 0 ]; then
    echo "error: the public symbols above lack a doc comment or a DocC page. Write a /// comment with" >&2
    echo "       an example (see STYLE.md); a missing page means docc dropped the symbol (see build-docs.sh)." >&2
else
    echo "check-doc-coverage: every public symbol of ${TETHER_MODULES[*]} has a doc comment and a page ($(tether_elapsed))"
fi
exit $status
