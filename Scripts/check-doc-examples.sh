#!/usr/bin/env bash
# Compiles every ```swift code block of README.md and of the DocC articles (Sources/*/*.docc/**/*.md)
# against the library, so the examples in the documentation keep up with the code.
#
#   Scripts/check-doc-examples.sh [file.md ...]     (default: README.md and every .docc article)
#
# How blocks are compiled: each Markdown file becomes one module (Swift 6 language mode) that imports
# Foundation, Dispatch, XCTest, Observable, Bridges and Binding. Each block becomes the body of its own
# `func … async throws`, so it may use `await` and `try` and declare local types (its `import` lines
# move to file scope). Errors and warnings (except "value never used") fail the check; they point at
# the Markdown file and line.
#
# Markers — an HTML comment on the line before the block's opening fence (DocC and GitHub don't show it):
#   <!-- example: skip -->        a fragment or another language in a swift fence: not compiled
#   <!-- example: top-level -->   declarations placed at file scope (protocols, extensions, global
#                                 functions, types the article's other blocks use)
#   <!-- example: main-actor -->  the block's function is @MainActor
# Blocks fenced as anything but ```swift (```text, ```sh, a bare ```) are never compiled.
# Environment: TETHER_SCRATCH (build directory, default .build).
set -euo pipefail
cd "$(dirname "$0")/.."
source Scripts/lib/common.sh

if [ $# -gt 0 ]; then
    files=("$@")
else
    files=(README.md)
    while IFS= read -r file; do files+=("$file"); done < <(find Sources -path '*.docc/*' -name '*.md' | sort)
fi

work="$TETHER_SCRATCH/tether-doc-examples"
rm -rf "$work/src"
mkdir -p "$work/src" "$work/obj"
modules_dir=$(tether_build_modules)

# Writes the Swift file for one Markdown file; prints the number of blocks compiled.
generate() {
    local markdown=$1 output=$2
    awk -v file="$markdown" '
        function flush_marker() { marker = pending; pending = "" }
        BEGIN {
            print "import Foundation"
            print "import Dispatch"
            print "import XCTest"
            print "import Observable"
            print "import Bridges"
            print "import Binding"
            print ""
            inside = 0; count = 0; pending = ""
        }
        inside == 0 && /^[ \t]*<!--[ \t]*example:[ \t]*[a-z-]+[ \t]*-->[ \t]*$/ {
            pending = $0
            sub(/^[ \t]*<!--[ \t]*example:[ \t]*/, "", pending)
            sub(/[ \t]*-->[ \t]*$/, "", pending)
            next
        }
        inside == 0 && /^[ \t]*```[ \t]*swift[ \t]*$/ {
            flush_marker()
            match($0, /^[ \t]*/); indent = RLENGTH
            if (marker == "skip") { inside = 2; next }
            if (marker != "" && marker != "top-level" && marker != "main-actor") {
                printf "%s:%d: error: unknown marker \"example: %s\"\n", file, NR - 1, marker > "/dev/stderr"
                failed = 1
            }
            inside = 1; count++
            if (marker != "top-level") {
                printf "%sfunc example%d() async throws {\n", (marker == "main-actor" ? "@MainActor " : ""), count
            }
            printf "#sourceLocation(file: \"%s\", line: %d)\n", file, NR + 1
            next
        }
        inside > 0 && /^[ \t]*```[ \t]*$/ {
            if (inside == 1) {
                print "#sourceLocation()"
                if (marker != "top-level") print "}"
                print ""
            }
            inside = 0; marker = ""; next
        }
        inside == 1 && marker != "top-level" && /^[ \t]*(@testable[ \t]+)?import[ \t]+[A-Za-z_][A-Za-z_0-9.]*[ \t]*$/ {
            imports[$0] = 1; print ""; next     # imports move to file scope, line numbers stay
        }
        inside == 1 { print substr($0, indent + 1); next }
        inside == 2 { next }
        /^[ \t]*```/ { inside = 2; pending = ""; next }   # another language: skip its body
        /[^ \t]/ { pending = "" }
        END {
            for (line in imports) { sub(/^[ \t]*/, "", line); print line }
            if (inside != 0) { printf "%s: error: unterminated code block\n", file > "/dev/stderr"; failed = 1 }
            print count > "/dev/stderr"
            exit failed
        }
    ' "$markdown" >"$output" 2>"$output.count"
}

status=0
total=0
for markdown in "${files[@]}"; do
    slug=$(echo "$markdown" | sed 's/[^A-Za-z0-9]/_/g')
    source_file="$work/src/$slug.swift"
    if ! generate "$markdown" "$source_file"; then
        grep -v '^[0-9]*$' "$source_file.count" >&2 || true
        status=1
        continue
    fi
    blocks=$(tail -n 1 "$source_file.count")
    total=$((total + blocks))
    [ "$blocks" -eq 0 ] && continue
    log="$work/obj/$slug.log"
    if swiftc -c -parse-as-library -swift-version 6 -wmo \
        -module-name "Examples_$slug" -module-cache-path "$work/module-cache" \
        -I "$modules_dir" "$source_file" -o "$work/obj/$slug.o" >"$log" 2>&1; then
        # Warnings fail too (a Sendable or deprecation warning in an example is one a user would get),
        # except unused-value ones: examples often declare values to show them.
        if grep ': warning:' "$log" | grep -qv '\[#no-usage\]'; then
            cat "$log" >&2
            echo "FAIL  $markdown: warnings (generated: $source_file)" >&2
            status=1
        else
            echo "ok    $markdown ($blocks blocks)"
        fi
    else
        cat "$log" >&2
        echo "FAIL  $markdown (generated: $source_file)" >&2
        status=1
    fi
done

if [ $status -eq 0 ]; then
    echo "check-doc-examples: $total blocks in ${#files[@]} files compile ($(tether_elapsed))"
else
    echo "check-doc-examples: some examples do not compile (see above; $(tether_elapsed))" >&2
fi
exit $status
