#!/usr/bin/env bash
# Builds the package's DocC archives (.build/docs/<Module>.doccarchive for TetherGObject, TetherGio and
# TetherGtk), failing on any DocC warning — the library's Scripts/build-docs.sh, for this package: the symbol graphs are extracted
# with GIO's and GTK's include flags. Each module has its own catalog (Sources/<module>/<module>.docc).
#
#   TetherGtk/Scripts/build-docs.sh
set -euo pipefail
cd "$(dirname "$0")/.."
source ../Scripts/lib/common.sh
swift build --target TetherGtk >/tmp/tethergtk-docs-build.log 2>&1 || { cat /tmp/tethergtk-docs-build.log >&2; exit 1; }
modules="$(swift build --show-bin-path)/Modules"
flags=(-I "$PWD/Sources/CGio" -I "$PWD/Sources/CGtk")
for flag in $(pkg-config --cflags gtk4); do flags+=(-Xcc "$flag"); done
mkdir -p .build/docs
for module in TetherGObject TetherGio TetherGtk; do
    graphs=.build/tether-docs/symbol-graphs/$module
    tether_symbol_graphs "$module" "$modules" "$graphs" -skip-synthesized-members "${flags[@]}"
    docc convert "Sources/$module/$module.docc" \
        --additional-symbol-graph-dir "$graphs" \
        --fallback-display-name "$module" \
        --fallback-bundle-identifier "org.tether.$(echo "$module" | tr '[:upper:]' '[:lower:]')" \
        --output-path ".build/docs/$module.doccarchive" \
        --transform-for-static-hosting \
        --warnings-as-errors
done
echo "build-docs: .build/docs/TetherGObject, TetherGio and TetherGtk.doccarchive ($(tether_elapsed))"
