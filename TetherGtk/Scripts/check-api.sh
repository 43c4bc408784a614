#!/usr/bin/env bash
# Checks that the public API of the TetherGtk package's library modules (TetherGObject, TetherGio, TetherGtk,
# TetherDBusCodegen) matches the committed TetherGtk/api/<Module>.txt — the library's Scripts/check-api.sh
# (the same symbol graphs, reduced by the same Scripts/Tools/SymbolDigest.swift), for this package.
#
#   TetherGtk/Scripts/check-api.sh            fail (exit 1) with a diff when the public API changed
#   TetherGtk/Scripts/check-api.sh --update   rewrite TetherGtk/api/<Module>.txt from the current code
#
# Needs GTK 4's development files (libgtk-4-dev), as building the package does.
set -euo pipefail
cd "$(dirname "$0")/.."
source ../Scripts/lib/common.sh

update=false
case "${1:-}" in
    --update) update=true ;;
    "") ;;
    *) echo "usage: $0 [--update]" >&2; exit 2 ;;
esac

modules=(TetherGObject TetherGio TetherGtk TetherDBusCodegen)
work="$PWD/.build/tether-api"
mkdir -p "$work" api
digest="$work/SymbolDigest"
if [ ! -x "$digest" ] || [ ../Scripts/Tools/SymbolDigest.swift -nt "$digest" ]; then
    swiftc -Onone -module-cache-path "$work/module-cache" -o "$digest" ../Scripts/Tools/SymbolDigest.swift
fi
log="$work/build.log"
for module in "${modules[@]}"; do
    swift build --target "$module" >"$log" 2>&1 || { cat "$log" >&2; exit 1; }
done
modules_dir="$(swift build --show-bin-path)/Modules"
# The C modules' maps and GTK's (and so GIO's) include directories, for the importer.
c_flags=(-I "$PWD/Sources/CGio" -I "$PWD/Sources/CGtk")
for flag in $(pkg-config --cflags gtk4); do c_flags+=(-Xcc "$flag"); done

status=0
for module in "${modules[@]}"; do
    tether_symbol_graphs "$module" "$modules_dir" "$work/$module" -skip-synthesized-members "${c_flags[@]}"
    "$digest" "$module" "$work/$module"/*.symbols.json |
        sed '1s|(Scripts/check-api.sh --update|(TetherGtk/Scripts/check-api.sh --update|' >"$work/$module.txt"
    tether_check_api_snapshot "$work/$module.txt" "api/$module.txt" "TetherGtk/api/$module.txt" \
        TetherGtk/Scripts/check-api.sh "$update" || status=1
done

if [ $status -ne 0 ]; then
    echo "error: the public API differs from TetherGtk/api/*.txt. If the change is deliberate, run" >&2
    echo "       TetherGtk/Scripts/check-api.sh --update and commit the updated files with it." >&2
else
    echo "check-api: ${modules[*]} match TetherGtk/api/ ($(tether_elapsed))"
fi
exit $status
