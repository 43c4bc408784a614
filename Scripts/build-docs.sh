#!/usr/bin/env bash
# Builds the DocC documentation of Observable, Bridges, Binding and TetherTesting with the toolchain's
# `docc` — no package plugin, no dependency. Fails on any DocC warning (an unresolved symbol link, a missing
# article, a malformed directive) in the catalogs or in the doc comments of public symbols.
#
#   Scripts/build-docs.sh [--output DIR] [--hosting-base-path PATH]
#
# For each module: build it, extract its public symbol graph (its own symbols, not the ones it
# re-exports; with extension blocks, so that the members it adds to another module's types —
# `bind(_:to:)` on `BindingTarget`, `NotificationCenter.signal(for:object:)` — get pages under
# "Extended Modules": without them docc drops those members silently), then
# `docc convert Sources/<Module>/<Module>.docc --warnings-as-errors`. The archives
# land in DIR (default .build/docs/<Module>.doccarchive), transformed for static hosting: serve DIR
# with any web server and open <Module>.doccarchive/documentation/<module>/ (or pass
# --hosting-base-path when they are served under a sub-path). A module without a catalog gets a
# symbols-only archive. Each archive also holds docc's digest (linkable-entities.json: one entry
# per page), which Scripts/check-doc-coverage.sh compares with the symbol graphs.
# Environment: TETHER_SCRATCH (build directory, default .build).
set -euo pipefail
cd "$(dirname "$0")/.."
source Scripts/lib/common.sh

output="$TETHER_SCRATCH/docs"
base_path=""
while [ $# -gt 0 ]; do
    case "$1" in
        --output) output=$2; shift 2 ;;
        --hosting-base-path) base_path=$2; shift 2 ;;
        *) echo "usage: $0 [--output DIR] [--hosting-base-path PATH]" >&2; exit 2 ;;
    esac
done

work="$TETHER_SCRATCH/tether-docs"
mkdir -p "$work" "$output"
modules_dir=$(tether_build_modules)

status=0
for module in "${TETHER_MODULES[@]}"; do
    graphs="$work/symbol-graphs/$module"
    tether_symbol_graphs "$module" "$modules_dir" "$graphs" -skip-synthesized-members -emit-extension-block-symbols
    catalog="Sources/$module/$module.docc"
    arguments=()
    if [ -d "$catalog" ]; then
        arguments+=("$catalog")
    else
        echo "note: $catalog does not exist; building a symbols-only archive for $module"
    fi
    lower=$(echo "$module" | tr '[:upper:]' '[:lower:]')
    options=(
        --additional-symbol-graph-dir "$graphs"
        --fallback-display-name "$module"
        --fallback-bundle-identifier "org.tether.$lower"
        --output-path "$output/$module.doccarchive"
        --transform-for-static-hosting
        --warnings-as-errors
        --emit-digest
    )
    [ -n "$base_path" ] && options+=(--hosting-base-path "$base_path/$module.doccarchive")
    if docc convert "${arguments[@]}" "${options[@]}" >"$work/$module.log" 2>&1; then
        echo "ok    $module → $output/$module.doccarchive"
    else
        cat "$work/$module.log" >&2
        echo "FAIL  $module: docc reported the problems above" >&2
        status=1
    fi
done

if [ $status -eq 0 ]; then
    echo "build-docs: ${TETHER_MODULES[*]} built without warnings ($(tether_elapsed))"
fi
exit $status
