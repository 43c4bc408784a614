#!/usr/bin/env bash
# The library's Scripts/check-compile-errors.sh (same `// expect-error:` rules), pointed at this package:
# each TetherGtk/Tests/CompileChecks/*.swift file (a common mistake whose message names the fix) must fail
# to type-check against the TetherGtk module with every message its first lines name. Needs GTK 4's
# development files (libgtk-4-dev); no display.
#
#   TetherGtk/Scripts/check-compile-errors.sh [file.swift ...]   (paths relative to TetherGtk/)
set -euo pipefail
cd "$(dirname "$0")/.."
swift build --target TetherGtk >/tmp/tethergtk-compile-checks-build.log 2>&1 ||
    { cat /tmp/tethergtk-compile-checks-build.log >&2; exit 1; }
modules="$(swift build --show-bin-path)/Modules"
# The CGio and CGtk module maps, and GTK's (and so GIO's) include directories for the C importer.
flags="-I $PWD/Sources/CGio -I $PWD/Sources/CGtk"
for flag in $(pkg-config --cflags gtk4); do flags+=" -Xcc $flag"; done
TETHER_CHECK_PACKAGE="$PWD" TETHER_CHECK_MODULES_DIR="$modules" TETHER_CHECK_SWIFTC_FLAGS="$flags" \
    ../Scripts/check-compile-errors.sh "$@"
