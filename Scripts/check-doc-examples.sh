#!/usr/bin/env bash
# Compiles every ```swift code block of README.md, of the DocC articles (Sources/*/*.docc/**/*.md) and
# of the `///` doc comments in Sources/**/*.swift against the library, so the examples in the
# documentation keep up with the code.
#
#   Scripts/check-doc-examples.sh [file.md | file.swift ...]   (default: README.md, every .docc article
#                                                                and every source file's doc comments)
#
# How blocks are compiled: each Markdown file becomes one module (Swift 6 language mode) that imports
# Foundation, Dispatch, XCTest, Observable, Bridges and Binding; so do the doc comments of each library
# module's sources, batched into one module per library module (Observable, Bridges, Binding,
# TetherTesting — whose examples import Testing and TetherTesting themselves). Each
# block becomes the body of its own `func … async throws`, so it may use `await` and `try` and declare
# local types. A Markdown block that writes `import` lines is compiled with those imports alone, in a file
# of its own (as a reader who copies it gets it); a doc comment's block adds its imports to the shared
# ones. Errors and warnings (except "value never used")
# fail the check; they point at the Markdown or Swift file and line of the example.
#
# Markers — an HTML comment on the line before the block's opening fence (DocC and GitHub don't show it);
# in a doc comment, as a doc-comment line (`/// <!-- example: skip -->`):
#   <!-- example: skip -->        a fragment or another language in a swift fence: not compiled
#   <!-- example: top-level -->   declarations placed at file scope (protocols, extensions, global
#                                 functions, types the article's other blocks use)
#   <!-- example: main-actor -->  the block's function is @MainActor
#   <!-- example: compile-only: why -->  compiled here, not run by Scripts/run-doc-examples.sh (it blocks
#                                 forever by design, reads stdin, …): the reason is required
#   <!-- example: output-unchecked: why -->  run, but its output comments are not compared with what it
#                                 prints (real time, other threads); stacks with the others, on its own line
# In Markdown, blocks fenced as anything but ```swift (```text, ```sh, a bare ```) are never compiled.
# In doc comments a bare ``` fence is Swift (as DocC reads it) and is compiled; fence diagrams and
# output as ```text.
# Environment: TETHER_SCRATCH (build directory, default .build). Another package's own check (TetherGtk's
# TetherGtk/Scripts/check-doc-examples.sh) reuses this one with: TETHER_DOC_PACKAGE (its directory, where
# README.md and Sources are read), TETHER_DOC_MODULES (its modules), TETHER_DOC_MODULES_DIR (their built
# .swiftmodule directory: nothing is built here then), TETHER_DOC_IMPORTS (more imports for every block),
# TETHER_DOC_SWIFTC_FLAGS (more compiler flags) and TETHER_DOC_ISOLATION=main-actor (a block without a
# marker is @MainActor).
set -euo pipefail
cd "$(dirname "$0")/.."
source Scripts/lib/common.sh
source Scripts/lib/doc-examples.sh  # tether_doc_generate
if [ -n "${TETHER_DOC_PACKAGE:-}" ]; then cd "$TETHER_DOC_PACKAGE"; fi

markdown_files=()
swift_files=()
if [ $# -gt 0 ]; then
    for file in "$@"; do
        case "$file" in
            *.swift) swift_files+=("$file") ;;
            *) markdown_files+=("$file") ;;
        esac
    done
else
    markdown_files=(README.md)
    while IFS= read -r file; do markdown_files+=("$file"); done < <(find Sources -path '*.docc/*' -name '*.md' | sort)
    while IFS= read -r file; do swift_files+=("$file"); done < <(find Sources -name '*.swift' | sort)
fi
read -ra doc_modules <<<"${TETHER_DOC_MODULES:-${TETHER_MODULES[*]}}"
read -ra extra_swiftc_flags <<<"${TETHER_DOC_SWIFTC_FLAGS:-}"

work="$TETHER_SCRATCH/tether-doc-examples"
rm -rf "$work/src"
mkdir -p "$work/src" "$work/obj"
modules_dir=${TETHER_DOC_MODULES_DIR:-$(tether_build_modules)}
read -ra module_map_flags <<<"$(tether_module_map_flags "$modules_dir")"
extra_swiftc_flags+=(${module_map_flags[@]+"${module_map_flags[@]}"})

# compile NAME LABEL SOURCE_FILE — compiles one generated file; reports on LABEL.
compile() {
    local slug=$1 label=$2 source_file=$3 blocks skips
    read -r blocks skips < <(tail -n 1 "$source_file.count")
    total=$((total + blocks))
    skipped=$((skipped + skips))
    [ "$blocks" -eq 0 ] && return 0
    local log="$work/obj/$slug.log" own_imports=()
    # The blocks that write their own imports, each in a file with those alone (the generator's list).
    [ -f "$source_file.blocks" ] && mapfile -t own_imports <"$source_file.blocks"
    if swiftc -c -parse-as-library -swift-version 6 -wmo \
        -module-name "Examples_$slug" -module-cache-path "$work/module-cache" \
        -I "$modules_dir" ${extra_swiftc_flags[@]+"${extra_swiftc_flags[@]}"} \
        "$source_file" ${own_imports[@]+"${own_imports[@]}"} -o "$work/obj/$slug.o" >"$log" 2>&1; then
        # Warnings fail too (a Sendable or deprecation warning in an example is one a user would get),
        # except unused-value ones: examples often declare values to show them.
        if grep ': warning:' "$log" | grep -qv '\[#no-usage\]'; then
            cat "$log" >&2
            echo "FAIL  $label: warnings (generated: $source_file)" >&2
            status=1
        else
            echo "ok    $label ($blocks blocks$([ "$skips" -gt 0 ] && echo ", $skips skipped"))"
        fi
    else
        cat "$log" >&2
        echo "FAIL  $label (generated: $source_file)" >&2
        status=1
    fi
}

status=0
total=0
skipped=0
for markdown in "${markdown_files[@]}"; do
    slug=$(echo "$markdown" | sed 's/[^A-Za-z0-9]/_/g')
    source_file="$work/src/$slug.swift"
    if tether_doc_generate "$source_file" markdown "$markdown"; then
        compile "$slug" "$markdown" "$source_file"
    else
        grep -v '^[0-9]* [0-9]*$' "$source_file.count" >&2 || true
        status=1
    fi
done
# The doc comments of each module's sources: one compilation unit per module, for speed.
for module in "${doc_modules[@]}"; do
    sources=()
    for file in "${swift_files[@]}"; do
        case "$file" in Sources/"$module"/*) sources+=("$file") ;; esac
    done
    [ ${#sources[@]} -eq 0 ] && continue
    slug="${module}_doc_comments"
    source_file="$work/src/$slug.swift"
    if tether_doc_generate "$source_file" doc "${sources[@]}"; then
        compile "$slug" "/// in Sources/$module" "$source_file"
    else
        grep -v '^[0-9]* [0-9]*$' "$source_file.count" >&2 || true
        status=1
    fi
done

if [ $status -eq 0 ]; then
    echo "check-doc-examples: $total blocks in ${#markdown_files[@]} Markdown files and the doc comments of ${#swift_files[@]} source files compile, $skipped skipped ($(tether_elapsed))"
else
    echo "check-doc-examples: some examples do not compile (see above; $(tether_elapsed))" >&2
fi
exit $status
