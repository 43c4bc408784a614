#!/usr/bin/env bash
# Compiles every ```swift block of TetherGtk's README.md, of its DocC articles and of the `///` doc comments
# in TetherGtk/Sources/TetherGObject, TetherGio and TetherGtk against the TetherGtk module (which
# re-exports TetherGio and TetherGObject) — the library's Scripts/check-doc-examples.sh
# (same markers and rules), pointed at this package. Needs GTK 4's development files (libgtk-4-dev);
# compiling needs no display. Every block is @MainActor (TetherGtk's API is), imports TetherGtk (which
# re-exports GTK's C API), TetherDBusCodegen and GeneratedInterfaces — the clients tether-dbus-codegen
# generates from the D-Bus interfaces Debian's upower and network-manager-dev install, as a target with the
# plugin gets them (Scripts/check-generated-interfaces.sh builds it) — and is compiled, not run.
#
#   TetherGtk/Scripts/check-doc-examples.sh [file.md | file.swift ...]   (paths relative to TetherGtk/)
set -euo pipefail
cd "$(dirname "$0")/.."
{ swift build --target TetherGtk && swift build --target TetherDBusCodegen; } >/tmp/tethergtk-doc-build.log 2>&1 ||
    { cat /tmp/tethergtk-doc-build.log >&2; exit 1; }
modules="$(swift build --show-bin-path)/Modules"
generated="$PWD/.build/doc-examples-interfaces"
Scripts/check-generated-interfaces.sh --emit-module "$generated" >/tmp/tethergtk-doc-build.log 2>&1 ||
    { cat /tmp/tethergtk-doc-build.log >&2; exit 1; }
# The CGio and CGtk module maps, and GTK's (and so GIO's) include directories for the C importer.
flags="-I $PWD/Sources/CGio -I $PWD/Sources/CGtk -I $generated"
for flag in $(pkg-config --cflags gtk4); do flags+=" -Xcc $flag"; done
TETHER_DOC_PACKAGE="$PWD" TETHER_DOC_MODULES="TetherGObject TetherGio TetherGtk TetherDBusCodegen" TETHER_DOC_MODULES_DIR="$modules" \
    TETHER_DOC_IMPORTS="TetherGtk TetherDBusCodegen GeneratedInterfaces" TETHER_DOC_ISOLATION=main-actor TETHER_DOC_SWIFTC_FLAGS="$flags" \
    TETHER_SCRATCH="$PWD/.build" ../Scripts/check-doc-examples.sh "$@"
