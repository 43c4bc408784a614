#!/usr/bin/env bash
# Runs every example of the documentation — the ```swift blocks of README.md, of the DocC articles and of the
# `///` doc comments in Sources, as Scripts/check-doc-examples.sh compiles them (same generator, same
# markers) — plus the checks in Tests/ExampleRuns (the demo's view models driven from background threads),
# in two builds: a module per source compiled with `-default-isolation MainActor` (what SwiftPM's
# `.defaultIsolation(MainActor.self)` passes, Swift 6.2's default for app targets), and one without.
#
#   Scripts/run-doc-examples.sh [--tsan] [--mode main-actor|nonisolated] [--timeout S] [file.md | file.swift ...]
#
# Each example runs inside an XCTest test case (its XCTAssert failures and thrown errors count), under a
# watchdog (an example that does not finish within --timeout seconds, default 20, fails as a hang), in a
# runner with an `async` entry point (the runtime drives the main queue, so QueueScheduler.main and
# ActorScheduler.main work), followed by a short settle step that lets the main-queue work it left run.
# An example that traps (an isolation check: `_dispatch_assert_queue_fail`, "Illegal instruction") or hangs
# ends the runner: it is reported — run again alone, with a backtrace — and the runner starts again after it.
# Blocks marked `<!-- example: compile-only: why -->` are compiled, not run.
#
# --tsan builds the library (in .build-tsan) and the examples with Thread Sanitizer; a report fails the
# example it appears in. Output: one line per example that fails, traps, hangs or races, then one summary
# line per build; everything the examples printed is in $TETHER_SCRATCH/tether-doc-run/<build>/run.log.
# Exits 1 when any example fails to compile, fails, traps, hangs or races.
set -euo pipefail
cd "$(dirname "$0")/.."
source Scripts/lib/common.sh
source Scripts/lib/doc-examples.sh # tether_doc_generate

tsan=0
modes=(main-actor nonisolated)
timeout=20
files=()
while [ $# -gt 0 ]; do
    case "$1" in
        --tsan) tsan=1 ;;
        --mode) modes=("$2"); shift ;;
        --timeout) timeout=$2; shift ;;
        -*) echo "usage: $0 [--tsan] [--mode main-actor|nonisolated] [--timeout S] [file.md | file.swift ...]" >&2; exit 2 ;;
        *) files+=("$1") ;;
    esac
    shift
done

swiftc_flags=(-parse-as-library -swift-version 6 -gline-tables-only)
if [ $tsan -eq 1 ]; then
    export TETHER_SCRATCH="${TETHER_SCRATCH_TSAN:-.build-tsan}"
    export TETHER_BUILD_FLAGS="--sanitize=thread"
    swiftc_flags+=(-sanitize=thread)
fi

# The sources: README.md, the articles, each module's doc comments, and Tests/ExampleRuns.
markdown_files=()
swift_files=()
run_files=()
if [ ${#files[@]} -gt 0 ]; then
    for file in "${files[@]}"; do
        case "$file" in
            Tests/ExampleRuns/*.swift) run_files+=("$file") ;;
            *.swift) swift_files+=("$file") ;;
            *) markdown_files+=("$file") ;;
        esac
    done
else
    markdown_files=(README.md)
    while IFS= read -r file; do markdown_files+=("$file"); done < <(find Sources -path '*.docc/*' -name '*.md' | sort)
    while IFS= read -r file; do swift_files+=("$file"); done < <(find Sources -name '*.swift' | sort)
    while IFS= read -r file; do run_files+=("$file"); done < <(find Tests/ExampleRuns -name '*.swift' | sort)
fi

modules_dir=$(tether_build_modules TetherDemoModels)
bin_dir=$(dirname "$modules_dir")
read -ra module_map_flags <<<"$(tether_module_map_flags "$modules_dir")"
swiftc_flags+=(-I "$modules_dir" ${module_map_flags[@]+"${module_map_flags[@]}"})

# The library's object files, as SwiftPM last built them (its output file maps list the current ones).
library_objects=()
for target in Observable Bridges Binding TetherTesting TetherDemoModels; do
    while IFS= read -r object; do library_objects+=("$object"); done < <(
        sed -n 's/^ *"object": "\(.*\)",*$/\1/p' "$bin_dir/$target.build/output-file-map.json")
done
for object in "$bin_dir"/TetherShims.build/*.o; do library_objects+=("$object"); done

work="$TETHER_SCRATCH/tether-doc-run"
mkdir -p "$work/support" "$work/src" "$work/module-cache"
swiftc_flags+=(-module-cache-path "$work/module-cache")

# up_to_date OUTPUT INPUT... — whether OUTPUT exists and is newer than every INPUT and every library module.
up_to_date() {
    local output=$1 input
    shift
    [ -f "$output" ] || return 1
    for input in "$@" "$modules_dir"/*.swiftmodule; do [ "$input" -nt "$output" ] && return 1; done
    return 0
}

# The runner's support module (no default isolation: it is the harness, not an example).
support="$work/support"
if ! up_to_date "$support/DocExampleSupport.o" Scripts/Tools/DocExampleRunner.swift; then
    swiftc "${swiftc_flags[@]}" -wmo -module-name DocExampleSupport -emit-module \
        -emit-module-path "$support/DocExampleSupport.swiftmodule" -c Scripts/Tools/DocExampleRunner.swift \
        -o "$support/DocExampleSupport.o"
fi

# Generates one Swift file per source (shared by both builds); a generated file that did not change is
# not rewritten, so its modules are not compiled again.
sources=() # slug=file.swift
generate_status=0
refresh() { # NEW OLD
    if cmp -s "$1" "$2"; then rm "$1"; else mv "$1" "$2"; fi
}
for markdown in ${markdown_files[@]+"${markdown_files[@]}"}; do
    slug=$(echo "$markdown" | sed 's/[^A-Za-z0-9]/_/g')
    if TETHER_DOC_RUNNABLE=1 tether_doc_generate "$work/src/$slug.new" markdown "$markdown"; then
        refresh "$work/src/$slug.new" "$work/src/$slug.swift"
        sources+=("$slug=$work/src/$slug.swift")
    else
        grep -v '^[0-9]* [0-9]*$' "$work/src/$slug.new.count" >&2 || true
        generate_status=1
    fi
done
for module in "${TETHER_MODULES[@]}"; do
    module_sources=()
    for file in ${swift_files[@]+"${swift_files[@]}"}; do
        case "$file" in Sources/"$module"/*) module_sources+=("$file") ;; esac
    done
    [ ${#module_sources[@]} -eq 0 ] && continue
    slug="${module}_doc_comments"
    if TETHER_DOC_RUNNABLE=1 tether_doc_generate "$work/src/$slug.new" doc "${module_sources[@]}"; then
        refresh "$work/src/$slug.new" "$work/src/$slug.swift"
        sources+=("$slug=$work/src/$slug.swift")
    else
        grep -v '^[0-9]* [0-9]*$' "$work/src/$slug.new.count" >&2 || true
        generate_status=1
    fi
done
for file in ${run_files[@]+"${run_files[@]}"}; do
    slug=$(echo "$file" | sed 's/[^A-Za-z0-9]/_/g')
    sources+=("$slug=$file")
done

# compile_source DIR SLUG FILE FLAG... — one example module; its messages in DIR/SLUG.log.
compile_source() {
    local dir=$1 slug=$2 file=$3
    shift 3
    if up_to_date "$dir/$slug.o" "$file" "$support/DocExampleSupport.o"; then return 0; fi
    rm -f "$dir/$slug.o"
    swiftc "${swiftc_flags[@]}" "$@" -wmo -module-name "Examples_$slug" -I "$support" -emit-module \
        -emit-module-path "$dir/Examples_$slug.swiftmodule" -c "$file" -o "$dir/$slug.o.partial" \
        >"$dir/$slug.log" 2>&1 && mv "$dir/$slug.o.partial" "$dir/$slug.o"
}

# report_run DIR LOG FROM_LINE RC — reads what one run of the runner wrote after FROM_LINE of LOG; appends
# one line per example to DIR/results; prints the index to start from next, or "done".
report_run() {
    local dir=$1 log=$2 from_line=$3 rc=$4
    tail -n +"$from_line" "$log" | awk -v rc="$rc" -v results="$dir/results" '
        /^@@docrun START / { current = $3; location = $4; race = ""; next }
        /^@@docrun PASS / {
            if (race != "") print "RACE  " location ": " race >> results
            else print "PASS  " location >> results
            current = ""; next
        }
        /^@@docrun FAIL / { line = $0; sub(/^@@docrun FAIL [0-9]+ /, "", line); print "FAIL  " line >> results; failed[$3] = 1; next }
        /^@@docrun SKIP / { line = $0; sub(/^@@docrun SKIP [0-9]+ /, "", line); print "SKIP  " line >> results; next }
        /^@@docrun HANG / { line = $0; sub(/^@@docrun HANG [0-9]+ /, "", line); print "HANG  " line >> results; hung = $3; next }
        /^@@docrun DONE/ { done = 1; next }
        /^SUMMARY: ThreadSanitizer/ && current != "" && race == "" { race = $0; sub(/^SUMMARY: ThreadSanitizer: /, "", race) }
        /(Fatal error|Illegal instruction|_dispatch_assert_queue_fail|Incorrect actor executor|Precondition failed|Assertion failed)/ && current != "" && !(current in why) { why[current] = $0 }
        END {
            if (done) { print "done"; exit }
            if (hung != "") { print hung + 1; exit }
            if (current != "") {
                signal = rc > 128 ? " (signal " rc - 128 ")" : " (exit status " rc ")"
                printf "TRAP  %s: the process ended%s%s\n", location, signal, (current in why ? ": " why[current] : "") >> results
                print current + 1; exit
            }
            printf "TRAP  (between examples): the runner ended with status %d\n", rc >> results
            print "done"
        }'
}

overall=0
for mode in "${modes[@]}"; do
    case "$mode" in
        main-actor) mode_flags=(-default-isolation MainActor) ;;
        nonisolated) mode_flags=() ;;
        *) echo "unknown mode $mode" >&2; exit 2 ;;
    esac
    dir="$work/$mode"
    mkdir -p "$dir"
    # Compile the example modules, two at a time.
    for entry in "${sources[@]}"; do
        compile_source "$dir" "${entry%%=*}" "${entry#*=}" ${mode_flags[@]+"${mode_flags[@]}"} &
        while [ "$(jobs -rp | wc -l)" -ge 2 ]; do wait -n || true; done
    done
    wait || true
    compiled=()
    compile_failures=0
    warnings=0
    for entry in "${sources[@]}"; do
        slug=${entry%%=*}
        if [ -f "$dir/$slug.o" ]; then
            compiled+=("$slug")
            if grep ': warning:' "$dir/$slug.log" 2>/dev/null | grep -qv '\[#no-usage\]'; then
                grep -A3 ': warning:' "$dir/$slug.log" | grep -v '\[#no-usage\]' >&2 || true
                echo "WARN  $mode: ${entry#*=} compiles with warnings (above)" >&2
                warnings=$((warnings + 1))
            fi
        else
            cat "$dir/$slug.log" >&2
            echo "COMPILE-FAIL  $mode: ${entry#*=} (generated: ${entry#*=}; its examples are not run)" >&2
            compile_failures=$((compile_failures + 1))
        fi
    done
    # The entry point: every compiled source's examples, in order.
    {
        echo "import DocExampleSupport"
        for slug in ${compiled[@]+"${compiled[@]}"}; do echo "import Examples_$slug"; done
        echo
        echo "@main enum DocExamplesMain {"
        echo "    static func main() async {"
        echo "        await DocExampleRunner.main(["
        for slug in ${compiled[@]+"${compiled[@]}"}; do echo "            Examples_$slug.docExamples(),"; done
        echo "        ])"
        echo "    }"
        echo "}"
    } >"$dir/main.new"
    refresh "$dir/main.new" "$dir/main.swift"
    objects=()
    for slug in ${compiled[@]+"${compiled[@]}"}; do objects+=("$dir/$slug.o"); done
    if ! up_to_date "$dir/run-doc-examples" "$dir/main.swift" "$support/DocExampleSupport.o" \
        ${objects[@]+"${objects[@]}"} "${library_objects[@]}"; then
        swiftc "${swiftc_flags[@]}" -module-name DocExamplesMain -I "$support" -I "$dir" "$dir/main.swift" \
            "$support/DocExampleSupport.o" ${objects[@]+"${objects[@]}"} "${library_objects[@]}" \
            -o "$dir/run-doc-examples"
    fi

    # Run; after a trap or a hang, start again after the example that ended the runner.
    log="$dir/run.log"
    : >"$log"
    : >"$dir/results"
    from=0
    while [ "$from" != done ]; do
        first_line=$(($(wc -l <"$log") + 1))
        rc=0
        if [ $tsan -eq 1 ]; then
            SWIFT_BACKTRACE=enable=no TSAN_OPTIONS="${TSAN_OPTIONS:-} halt_on_error=0" \
                "$dir/run-doc-examples" --from "$from" --timeout "$timeout" >>"$log" 2>&1 || rc=$?
        else
            SWIFT_BACKTRACE=enable=no "$dir/run-doc-examples" --from "$from" --timeout "$timeout" >>"$log" 2>&1 || rc=$?
        fi
        from=$(report_run "$dir" "$log" "$first_line" "$rc")
    done
    # Each example that trapped, run again alone with a backtrace: does it trap on its own, and where.
    : >"$dir/traps.log"
    while IFS= read -r line; do
        location=${line#TRAP  }
        location=${location%%: *}
        index=$("$dir/run-doc-examples" --list | awk -v location="$location" '$2 == location { print $1; exit }')
        [ -n "$index" ] || continue
        {
            echo "=== $location, run alone"
            SWIFT_BACKTRACE=enable=yes,interactive=no,color=no,threads=crashed,registers=none,images=none,sanitize=yes \
                "$dir/run-doc-examples" --only "$index" --timeout "$timeout" 2>&1 || true
        } >>"$dir/traps.log"
    done < <(grep '^TRAP  ' "$dir/results" | grep -v '(between examples)' || true)

    grep -v '^PASS  \|^SKIP  ' "$dir/results" | sed "s/^/$mode: /" || true
    passed=$(grep -c '^PASS  ' "$dir/results" || true)
    bad=$(grep -c -v '^PASS  \|^SKIP  ' "$dir/results" || true)
    skipped=$(grep -c '^SKIP  ' "$dir/results" || true)
    examples=$(grep -c '^[A-Z]' "$dir/results" || true)
    echo "run-doc-examples ($mode$([ $tsan -eq 1 ] && echo ", TSan")): $passed of $examples examples pass, $bad fail/trap/hang/race, $skipped compile-only; $compile_failures of ${#sources[@]} sources do not compile, $warnings with warnings (log: $log$([ -s "$dir/traps.log" ] && echo "; backtraces: $dir/traps.log"); $(tether_elapsed))"
    if [ "$bad" -gt 0 ] || [ $compile_failures -gt 0 ] || [ $warnings -gt 0 ]; then overall=1; fi
done
[ $generate_status -eq 0 ] || overall=1
exit $overall
