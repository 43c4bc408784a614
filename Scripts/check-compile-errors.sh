#!/usr/bin/env bash
# Checks that the RAC spellings Tether deliberately refuses, and the common mistakes it diagnoses, fail
# to compile, with a message that names the Tether spelling or the fix. Each Tests/CompileChecks/*.swift file starts with one or more lines
#   // expect-error: TEXT
# and must fail to type-check (Swift 6 mode, against the debug-built modules) with every TEXT in the
# compiler's output. A line `// swiftc-flags: FLAGS` adds compiler flags for that file (e.g.
# `-default-isolation MainActor`, Swift 6.2's default for app modules). Pass files to check only those.
#
# Another package (TetherGtk/Scripts/check-compile-errors.sh) reuses this one with: TETHER_CHECK_PACKAGE
# (its directory, where Tests/CompileChecks is read), TETHER_CHECK_MODULES_DIR (its built .swiftmodule
# directory: nothing is built here then) and TETHER_CHECK_SWIFTC_FLAGS (more compiler flags).
set -euo pipefail
cd "$(dirname "$0")/.."
source Scripts/lib/common.sh

modules=${TETHER_CHECK_MODULES_DIR:-$(tether_build_modules)}
read -ra map_flags <<<"$(tether_module_map_flags "$modules") ${TETHER_CHECK_SWIFTC_FLAGS:-}"
if [ -n "${TETHER_CHECK_PACKAGE:-}" ]; then cd "$TETHER_CHECK_PACKAGE"; fi
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
    read -ra file_flags <<<"$(sed -n 's|^// swiftc-flags: ||p' "$file")"
    if output=$(swiftc -typecheck -swift-version 6 -I "$modules" ${map_flags[@]+"${map_flags[@]}"} \
        ${file_flags[@]+"${file_flags[@]}"} "$file" 2>&1); then
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
echo "check-compile-errors: ${#files[@]} files ($(tether_elapsed))"
exit $failed
