#!/usr/bin/env bash
# The library's Scripts/check-compile-errors.sh for TetherGtk: each Tests/CompileChecks/*.swift file (a
# common mistake whose message names the fix) must fail to type-check against the TetherGtk module, with
# every `// expect-error: TEXT` of its first lines in the compiler's output. Needs GTK 4's development
# files (libgtk-4-dev); no display.
#
#   TetherGtk/Scripts/check-compile-errors.sh [file.swift ...]   (paths relative to TetherGtk/)
set -euo pipefail
cd "$(dirname "$0")/.."
swift build --target TetherGtk >/tmp/tethergtk-compile-checks-build.log 2>&1 ||
    { cat /tmp/tethergtk-compile-checks-build.log >&2; exit 1; }
bin=$(swift build --show-bin-path)
# The CGio and CGtk module maps, GTK's include directories, and the library's C module maps (TetherShims).
flags=(-I "$bin/Modules" -I "$PWD/Sources/CGio" -I "$PWD/Sources/CGtk")
for flag in $(pkg-config --cflags gtk4); do flags+=(-Xcc "$flag"); done
for map in "$bin"/*.build/module.modulemap; do [ -f "$map" ] && flags+=(-Xcc "-fmodule-map-file=$map"); done
files=("$@")
if [ ${#files[@]} -eq 0 ]; then files=(Tests/CompileChecks/*.swift); fi

failed=0
for file in "${files[@]}"; do
    expectations=$(sed -n 's|^// expect-error: ||p' "$file")
    if [ -z "$expectations" ]; then
        echo "FAIL  $file: no '// expect-error:' line"
        failed=1
        continue
    fi
    if output=$(swiftc -typecheck -swift-version 6 "${flags[@]}" "$file" 2>&1); then
        echo "FAIL  $file compiles; it must not"
        failed=1
        continue
    fi
    missing=0
    while IFS= read -r expected; do
        if ! grep -qF -- "$expected" <<<"$output"; then
            echo "FAIL  $file: no error containing: $expected"
            missing=1
        fi
    done <<<"$expectations"
    if [ $missing -ne 0 ]; then
        echo "$output"
        failed=1
    else
        echo "ok    $file"
    fi
done
echo "check-compile-errors (TetherGtk): ${#files[@]} files"
exit $failed
