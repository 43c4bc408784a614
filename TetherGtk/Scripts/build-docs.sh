#!/usr/bin/env bash
# Builds TetherGtk's DocC archive (.build/docs/TetherGtk.doccarchive), failing on any DocC warning — the
# library's Scripts/build-docs.sh, for this package: the symbol graph is extracted with GTK's include flags.
#
#   TetherGtk/Scripts/build-docs.sh
set -euo pipefail
cd "$(dirname "$0")/.."
source ../Scripts/lib/common.sh
swift build --target TetherGtk >/tmp/tethergtk-docs-build.log 2>&1 || { cat /tmp/tethergtk-docs-build.log >&2; exit 1; }
modules="$(swift build --show-bin-path)/Modules"
flags=(-I "$PWD/Sources/CGtk")
for flag in $(pkg-config --cflags gtk4); do flags+=(-Xcc "$flag"); done
graphs=.build/tether-docs/symbol-graphs/TetherGtk
tether_symbol_graphs TetherGtk "$modules" "$graphs" -skip-synthesized-members "${flags[@]}"
mkdir -p .build/docs
docc convert Sources/TetherGtk/TetherGtk.docc \
    --additional-symbol-graph-dir "$graphs" \
    --fallback-display-name TetherGtk \
    --fallback-bundle-identifier org.tether.tethergtk \
    --output-path .build/docs/TetherGtk.doccarchive \
    --transform-for-static-hosting \
    --warnings-as-errors
echo "build-docs: .build/docs/TetherGtk.doccarchive ($(tether_elapsed))"
