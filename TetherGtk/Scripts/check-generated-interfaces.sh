#!/usr/bin/env bash
# Runs tether-dbus-codegen over every D-Bus introspection XML file that Debian's `upower` and
# `network-manager-dev` packages install under /usr/share/dbus-1/interfaces/ (not copied into the repository:
# they are generated from the installed files here), and compiles all the generated Swift as one module in
# Swift 6 mode, complete strict concurrency, warnings as errors, against the TetherGio module just built.
# The XML written for the tests (Tests/TetherDBusGeneratedTests/*.xml that are files, not links: keywords,
# clashes, deprecations, every kind of member) is compiled with them. Prints how long generating took. Fails
# when a file is missing, does not generate or does not compile.
#
#   TetherGtk/Scripts/check-generated-interfaces.sh [--emit-module DIR] [FILE.xml ...]   (default: those files)
#
# --emit-module DIR also writes the module (GeneratedInterfaces.swiftmodule) to DIR: the documentation's
# examples (Scripts/check-doc-examples.sh) compile against the clients generated from the real interfaces.
set -euo pipefail
cd "$(dirname "$0")/.."
module_dir=
if [ "${1:-}" = --emit-module ]; then
    module_dir=$2
    shift 2
fi
if [ $# -gt 0 ]; then
    files=("$@")
else
    files=()
    for package in upower network-manager-dev; do
        if ! dpkg -L "$package" >/dev/null 2>&1; then
            echo "error: the Debian package $package is not installed (apt-get install upower network-manager-dev)" >&2
            exit 1
        fi
        while IFS= read -r file; do files+=("$file"); done < <(dpkg -L "$package" | grep '^/usr/share/dbus-1/interfaces/.*\.xml$' | sort)
    done
    while IFS= read -r file; do files+=("$PWD/$file"); done < <(find Tests/TetherDBusGeneratedTests -name '*.xml' -type f | sort)
fi
[ ${#files[@]} -gt 0 ] || { echo "error: no introspection XML files found" >&2; exit 1; }

log=$(mktemp)
if ! swift build --target TetherGio >"$log" 2>&1 || ! swift build --product tether-dbus-codegen >>"$log" 2>&1; then
    cat "$log" >&2
    exit 1
fi
bin=$(swift build --show-bin-path)
work=$(mktemp -d "${TMPDIR:-/tmp}/tether-generated-interfaces.XXXXXX")
[ -z "$module_dir" ] || mkdir -p "$module_dir"
trap 'rm -rf "$work" "$log"' EXIT

start=$(date +%s%N)
for file in "${files[@]}"; do
    name=$(basename "$file" .xml)
    if ! "$bin/tether-dbus-codegen" --output "$work/$name.swift" "$file"; then
        echo "error: $file did not generate" >&2
        exit 1
    fi
done
end=$(date +%s%N)
echo "generated ${#files[@]} interface files in $(( (end - start) / 1000000 )) ms (one process per file)"

# The CGio module map and GIO's include directories for the C importer; the C targets' module maps.
flags=(-I "$bin/Modules" -I "$PWD/Sources/CGio")
for flag in $(pkg-config --cflags gio-2.0); do flags+=(-Xcc "$flag"); done
for map in "$bin"/*.build/module.modulemap; do
    case "$map" in *-tool.build/*) continue ;; esac  # the host tools' copies (for the plugin)
    [ -f "$map" ] && flags+=(-Xcc "-fmodule-map-file=$map")
done
if ! swiftc -c -parse-as-library -swift-version 6 -strict-concurrency=complete -warnings-as-errors -wmo \
    -module-name GeneratedInterfaces "${flags[@]}" -o "$work/GeneratedInterfaces.o" "$work"/*.swift \
    ${module_dir:+-emit-module -emit-module-path "$module_dir/GeneratedInterfaces.swiftmodule"} >"$log" 2>&1; then
    cat "$log" >&2
    echo "error: the generated Swift does not compile without warnings (above)" >&2
    exit 1
fi
echo "compiled the Swift generated from ${#files[@]} interface files: no errors, no warnings"
