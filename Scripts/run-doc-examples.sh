#!/usr/bin/env bash
# Runs every example of the documentation — the ```swift blocks of README.md, of the DocC articles and of the
# `///` doc comments in Sources, as Scripts/check-doc-examples.sh compiles them (same generator, same
# markers) — plus the checks in Tests/ExampleRuns (the demo's view models driven from background threads),
# in two builds: a module per source compiled with `-default-isolation MainActor` (what SwiftPM's
# `.defaultIsolation(MainActor.self)` passes, Swift 6.2's default for app targets), and one without.
#
#   Scripts/run-doc-examples.sh [--tsan] [--mode main-actor|nonisolated] [--timeout S] [file.md | file.swift ...]
#
# An example is a ```swift block that is not `top-level`; the test methods of the XCTestCase subclasses and
# the `@Test` functions that top-level blocks declare run too (the first each in a test case of its class,
# the second through Swift Testing's entry point). Drivers in Tests/ExampleRuns/Articles use the types
# that articles only declare (see Tests/ExampleRuns/README.md).
# Each example runs inside an XCTest test case (its XCTAssert failures and thrown errors count), under a
# watchdog (an example that does not finish within --timeout seconds, default 20, fails as a hang), in a
# runner with an `async` entry point (the runtime drives the main queue, so QueueScheduler.main and
# ActorScheduler.main work), followed by a short settle step that lets the main-queue work it left run.
# An example that traps (an isolation check: `_dispatch_assert_queue_fail`, "Illegal instruction") or hangs
# ends the runner: it is reported — run again alone, with a backtrace — and the runner starts again after it.
# Blocks marked `<!-- example: compile-only: why -->` are compiled, not run.
# What each example prints is compared with its output comments (`print(x)   // 1, 2`, `// prints ann` on
# a send, the `// …` lines below a call; Scripts/README.md, "Output comments"): a difference, confirmed
# by running the example again alone, fails it (OUTPUT); `<!-- example: output-unchecked: why -->` exempts
# an example whose output depends on real time or other threads.
#
# --tsan builds the library (in .build-tsan) and the examples with Thread Sanitizer; a report fails the
# example it appears in. Output: one line per example that fails, traps, hangs or races, then one summary
# line per build; everything the examples printed is in $TETHER_SCRATCH/tether-doc-run/<build>/run.log.
# Exits 1 when any example fails to compile, fails, traps, hangs, races or prints other than its comments say.
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
    while IFS= read -r file; do run_files+=("$file"); done < <(find Tests/ExampleRuns -maxdepth 1 -name '*.swift' | sort)
fi

modules_dir=$(tether_build_modules TetherDemoModels)
bin_dir=$(dirname "$modules_dir")
read -ra module_map_flags <<<"$(tether_module_map_flags "$modules_dir")"
swiftc_flags+=(-I "$modules_dir" ${module_map_flags[@]+"${module_map_flags[@]}"})

# The library's object files, as SwiftPM last built them (its output file maps list the current ones).
library_objects=()
for target in TetherEngine Observable Bridges Binding TetherTesting TetherDemoModels; do
    while IFS= read -r object; do library_objects+=("$object"); done < <(
        sed -n 's/^ *"object": "\(.*\)",*$/\1/p' "$bin_dir/$target.build/output-file-map.json")
done
for object in "$bin_dir"/TetherShims.build/*.o; do library_objects+=("$object"); done

work="$TETHER_SCRATCH/tether-doc-run"
mkdir -p "$work/support" "$work/module-cache"
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

# The sources: for each slug, how its Swift file is made — generated from Markdown or doc comments, or a
# hand-written file of Tests/ExampleRuns.
declare -A source_kind source_files
slugs=()
for markdown in ${markdown_files[@]+"${markdown_files[@]}"}; do
    slug=$(echo "$markdown" | sed 's/[^A-Za-z0-9]/_/g')
    slugs+=("$slug"); source_kind[$slug]=markdown; source_files[$slug]=$markdown
done
for module in "${TETHER_MODULES[@]}"; do
    module_sources=()
    for file in ${swift_files[@]+"${swift_files[@]}"}; do
        case "$file" in Sources/"$module"/*) module_sources+=("$file") ;; esac
    done
    [ ${#module_sources[@]} -eq 0 ] && continue
    slug="${module}_doc_comments"
    slugs+=("$slug"); source_kind[$slug]=doc; source_files[$slug]="${module_sources[*]}"
done
for file in ${run_files[@]+"${run_files[@]}"}; do
    slug=$(echo "$file" | sed 's/[^A-Za-z0-9]/_/g')
    slugs+=("$slug"); source_kind[$slug]=swift; source_files[$slug]=$file
done

# driver_for SLUG — Tests/ExampleRuns/Articles/<Article>.swift, the drivers of a Markdown source's
# top-level types, compiled into its module; nothing when it has none.
driver_for() {
    local file
    [ "${source_kind[$1]}" = markdown ] || return 0
    file="Tests/ExampleRuns/Articles/$(basename "${source_files[$1]}" .md).swift"
    if [ -f "$file" ]; then echo "$file"; fi
}

# refresh NEW OLD — replaces OLD by NEW unless they are equal (then OLD keeps its date: not compiled again).
refresh() {
    if cmp -s "$1" "$2"; then rm "$1"; else mv "$1" "$2"; fi
}

# compile_source DIR SLUG FLAG... — generates and compiles one example module, DIR/SLUG.o; its messages in
# DIR/SLUG.log. When blocks do not compile, they are left out (their errors in DIR/SLUG.excluded) and the
# others compiled again, up to 8 times: one block that fails in a build does not keep the others from running.
compile_source() {
    local dir=$1 slug=$2 file attempt excluded="" new driver extra own_imports=()
    shift 2
    local files=()
    read -ra files <<<"${source_files[$slug]}"
    : >"$dir/$slug.excluded"
    for attempt in 1 2 3 4 5 6 7 8; do
        if [ "${source_kind[$slug]}" = swift ]; then
            file=${files[0]}
        else
            file="$dir/src/$slug.swift"
            rm -f "$dir/src/$slug.expected"
            if ! TETHER_DOC_RUNNABLE=1 TETHER_DOC_EXCLUDE="$excluded" TETHER_DOC_EXPECT="$dir/src/$slug.expected" \
                tether_doc_generate "$dir/src/$slug.new" "${source_kind[$slug]}" "${files[@]}"; then
                grep -v '^[0-9]* [0-9]*$' "$dir/src/$slug.new.count" >"$dir/$slug.log" || true
                rm -f "$dir/$slug.o"
                return 1
            fi
            driver=$(driver_for "$slug")
            if [ -n "$driver" ]; then
                {
                    echo "#sourceLocation(file: \"$driver\", line: 1)"
                    cat "$driver"
                    echo "#sourceLocation()"
                } >>"$dir/src/$slug.new"
            fi
            refresh "$dir/src/$slug.new" "$file"
            # The blocks that write their own imports, each in a file with those alone.
            own_imports=()
            if [ -f "$dir/src/$slug.new.blocks" ]; then
                while read -r extra; do
                    refresh "$extra" "${extra/.new.block/.block}"
                    own_imports+=("${extra/.new.block/.block}")
                done <"$dir/src/$slug.new.blocks"
            fi
        fi
        if up_to_date "$dir/$slug.o" "$file" ${own_imports[@]+"${own_imports[@]}"} "$support/DocExampleSupport.o"; then
            return 0
        fi
        rm -f "$dir/$slug.o"
        if swiftc "${swiftc_flags[@]}" "$@" -wmo -module-name "Examples_$slug" -I "$support" -emit-module \
            -emit-module-path "$dir/Examples_$slug.swiftmodule" -c "$file" ${own_imports[@]+"${own_imports[@]}"} \
            -o "$dir/$slug.o.partial" \
            >"$dir/$slug.log" 2>&1; then
            mv "$dir/$slug.o.partial" "$dir/$slug.o"
            return 0
        fi
        [ "${source_kind[$slug]}" = swift ] && return 1
        # The example lines the errors point at (not the generated file's own lines).
        new=$(sed -n 's/^\([^ :]*\):\([0-9]*\):[0-9]*: error: .*/\1:\2/p' "$dir/$slug.log" | grep -v "^$dir/" | sort -u)
        [ -n "$new" ] || return 1
        grep -E '^[^ :]+:[0-9]+:[0-9]+: error: ' "$dir/$slug.log" | grep -v "^$dir/" >>"$dir/$slug.excluded" || true
        excluded="$excluded $new"
    done
    return 1
}

# report_run DIR LOG FROM_LINE RC [RESULTS CHECKS] — reads what one run of the runner wrote after FROM_LINE
# of LOG; appends one line per example to RESULTS (default DIR/results); prints the index to start from
# next, or "done". An example that passes and has output comments (DIR/expected, from the generator)
# passes only if what it printed — its lines between START and PASS — is what they state (OUTPUT
# otherwise); CHECKS (default DIR/output-checks) gets one line per such example, OK or WRONG.
report_run() {
    local dir=$1 log=$2 from_line=$3 rc=$4 results=${5:-$1/results} checks=${6:-$1/output-checks}
    tail -n +"$from_line" "$log" | awk -v rc="$rc" -v results="$results" -v expected="$dir/expected" \
        -v checks="$checks" '
        # Runs of spaces, commas and line breaks count as one space.
        function squeeze(text) { gsub(/[ \t\r\n,]+/, " ", text); sub(/^ /, "", text); sub(/ $/, "", text); return text }
        # Whether `printed` is what `stated` says; "…" in `stated` stands for any text.
        function matches(printed, stated,    n, piece, i, at, rest) {
            printed = squeeze(printed)
            n = split(stated, piece, "…")
            for (i = 1; i <= n; i++) piece[i] = squeeze(piece[i])
            if (n <= 1) return printed == piece[1]
            if (substr(printed, 1, length(piece[1])) != piece[1]) return 0
            rest = substr(printed, length(piece[1]) + 1)
            for (i = 2; i < n; i++) {
                if (piece[i] == "") continue
                at = index(rest, piece[i])
                if (at == 0) return 0
                rest = substr(rest, at + length(piece[i]))
            }
            return length(rest) >= length(piece[n]) && substr(rest, length(rest) - length(piece[n]) + 1) == piece[n]
        }
        function shorten(text) {
            text = squeeze(text)
            if (length(text) <= 240) return text
            text = substr(text, 1, 240)
            sub(/ [^ ]*$/, "", text)   # not inside a word (nor a UTF-8 sequence)
            return text " …"
        }
        BEGIN {
            while ((getline record < expected) > 0) {
                if (substr(record, 1, 2) != "E\t") continue
                split(record, field, "\t")
                text = record
                sub(/^E\t[^\t]*\t[^\t]*\t/, "", text)
                if (!(field[2] in stated)) { stated[field[2]] = ""; stated_line[field[2]] = field[3] }
                stated[field[2]] = stated[field[2]] "\n" text
            }
        }
        /^@@docrun START / { current = $3; location = $4; race = ""; printed = ""; next }
        /^@@docrun PASS / {
            if (race != "") print "RACE  " location ": " race >> results
            else if ((location in stated) && !matches(printed, stated[location])) {
                printf "OUTPUT  %s: printed \"%s\", but its comments (from line %d) say \"%s\"\n", location,
                    shorten(printed), stated_line[location], shorten(stated[location]) >> results
                print "WRONG " location >> checks
            } else {
                print "PASS  " location >> results
                if (location in stated) print "OK " location >> checks
            }
            current = ""; last = $3; next
        }
        /^@@docrun FAIL / {
            line = $0; sub(/^@@docrun FAIL [0-9]+ /, "", line); print "FAIL  " line >> results
            current = ""; last = $3; next
        }
        /^@@docrun SKIP / { line = $0; sub(/^@@docrun SKIP [0-9]+ /, "", line); print "SKIP  " line >> results; last = $3; next }
        /^@@docrun HANG / { line = $0; sub(/^@@docrun HANG [0-9]+ /, "", line); print "HANG  " line >> results; hung = $3; next }
        /^@@docrun DONE/ { done = 1; next }
        /^SUMMARY: ThreadSanitizer/ && current != "" && race == "" { race = $0; sub(/^SUMMARY: ThreadSanitizer: /, "", race) }
        /run-doc-examples\.sh: line/ { next }   # the shell saying the runner was killed
        current != "" && !/^@@docrun / { printed = printed "\n" $0 }
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
            print (last != "" ? last + 1 : "done")
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
    mkdir -p "$dir/src"
    for slug in "${slugs[@]}"; do
        compile_source "$dir" "$slug" ${mode_flags[@]+"${mode_flags[@]}"} &
        while [ "$(jobs -rp | wc -l)" -ge 2 ]; do wait -n || true; done
    done
    wait || true
    compiled=()
    compile_failures=0
    blocks_left_out=0
    warnings=0
    for slug in "${slugs[@]}"; do
        label=${source_files[$slug]}
        [ "${source_kind[$slug]}" = doc ] && label="/// in $(dirname "${label%% *}" | cut -d/ -f1-2)"
        if [ -f "$dir/$slug.o" ]; then
            compiled+=("$slug")
            if grep ': warning:' "$dir/$slug.log" 2>/dev/null | grep -qv '\[#no-usage\]'; then
                grep -A3 ': warning:' "$dir/$slug.log" | grep -v '\[#no-usage\]' >&2 || true
                echo "$mode: WARN  $label compiles with warnings (above)"
                warnings=$((warnings + 1))
            fi
            if [ -s "$dir/$slug.excluded" ]; then
                # One line per block left out: its first error.
                sed "s/^/$mode: COMPILE-FAIL  /" "$dir/$slug.excluded"
                blocks_left_out=$((blocks_left_out + $(wc -l <"$dir/$slug.excluded")))
            fi
        else
            cat "$dir/$slug.log" >&2
            echo "$mode: COMPILE-FAIL  $label (none of its examples run)"
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
        for slug in ${compiled[@]+"${compiled[@]}"}; do
            if [ -n "$(driver_for "$slug")" ]; then
                echo "            Examples_$slug.docExamples() + Examples_$slug.exampleDrivers(),"
            else
                echo "            Examples_$slug.docExamples(),"
            fi
        done
        echo "        ])"
        echo "    }"
        echo "}"
    } >"$dir/main.new"
    refresh "$dir/main.new" "$dir/main.swift"
    objects=()
    for slug in ${compiled[@]+"${compiled[@]}"}; do objects+=("$dir/$slug.o"); done
    if ! up_to_date "$dir/run-doc-examples" "$dir/main.swift" "$support/DocExampleSupport.o" \
        ${objects[@]+"${objects[@]}"} "${library_objects[@]}"; then
        rm -f "$dir/run-doc-examples"
        if ! swiftc "${swiftc_flags[@]}" -module-name DocExamplesMain -I "$support" -I "$dir" "$dir/main.swift" \
            "$support/DocExampleSupport.o" ${objects[@]+"${objects[@]}"} "${library_objects[@]}" \
            -o "$dir/run-doc-examples"; then
            echo "$mode: LINK-FAIL  the runner does not build (above); no example runs"
            overall=1
            continue
        fi
    fi

    # What the examples' output comments state.
    : >"$dir/expected"
    for slug in ${compiled[@]+"${compiled[@]}"}; do
        if [ -f "$dir/src/$slug.expected" ]; then cat "$dir/src/$slug.expected" >>"$dir/expected"; fi
    done

    # Run; after a trap or a hang, start again after the example that ended the runner.
    log="$dir/run.log"
    : >"$log"
    : >"$dir/results"
    : >"$dir/output-checks"
    from=0
    while [ "$from" != done ]; do
        first_line=$(($(wc -l <"$log") + 1))
        rc=0
        # In a subshell, so that the shell's own "Illegal instruction" line goes to the log too.
        (
            set +e
            SWIFT_BACKTRACE=enable=no TSAN_OPTIONS="${TSAN_OPTIONS:-} halt_on_error=0" \
                "$dir/run-doc-examples" --from "$from" --timeout "$timeout"
            exit $?
        ) >>"$log" 2>&1 || rc=$?
        from=$(report_run "$dir" "$log" "$first_line" "$rc")
    done
    # The `@Test` functions examples declare, run by Swift Testing (its output in swift-testing.log): one
    # FAIL line per issue it records, a HANG when the run outlives its watchdog.
    rc=0
    (
        set +e
        SWIFT_BACKTRACE=enable=no TSAN_OPTIONS="${TSAN_OPTIONS:-} halt_on_error=0" \
            NO_COLOR=1 timeout "$timeout" "$dir/run-doc-examples" --swift-testing
        exit $?
    ) >"$dir/swift-testing.log" 2>&1 || rc=$?
    tests=$(sed -n 's/.*Test run with \([0-9]*\) tests\{0,1\} .*/\1/p' "$dir/swift-testing.log" | tail -n 1)
    sed -n 's/.*Test \(.*\) recorded an issue at \([^ ]*\): \(.*\)/FAIL  @Test \1 at \2: \3/p' \
        "$dir/swift-testing.log" >>"$dir/results"
    if [ $rc -eq 69 ] && [ "${tests:-0}" -eq 0 ]; then
        :   # EX_UNAVAILABLE: no @Test function among the sources run
    elif [ $rc -eq 124 ]; then
        echo "HANG  @Test functions: the Swift Testing run did not finish within $timeout s" >>"$dir/results"
    elif grep -q 'WARNING: ThreadSanitizer' "$dir/swift-testing.log"; then
        echo "RACE  @Test functions: ThreadSanitizer reported (see $dir/swift-testing.log)" >>"$dir/results"
    elif [ $rc -ne 0 ] && ! grep -q '^FAIL  @Test' "$dir/results"; then
        echo "TRAP  @Test functions: the Swift Testing run ended with status $rc (see $dir/swift-testing.log)" >>"$dir/results"
    elif [ -n "$tests" ] && [ "$tests" -gt 0 ] && [ $rc -eq 0 ]; then
        echo "PASS  @Test functions: $tests" >>"$dir/results"
    fi

    # Each example whose output differs from its comments, run again alone: what other examples left
    # running (a timer, a file watch) prints into the shared run, and an example must not be blamed for it.
    grep -a '^OUTPUT  ' "$dir/results" >"$dir/output-mismatches" || true
    while IFS= read -r line; do
        location=${line#OUTPUT  }
        location=${location%%: *}
        index=$("$dir/run-doc-examples" --list | awk -v location="$location" '$2 == location && found == "" { found = $1 } END { print found }')
        [ -n "$index" ] || continue
        : >"$dir/alone.results"
        : >"$dir/alone.checks"
        rc=0
        (
            set +e
            SWIFT_BACKTRACE=enable=no TSAN_OPTIONS="${TSAN_OPTIONS:-} halt_on_error=0" \
                "$dir/run-doc-examples" --only "$index" --timeout "$timeout"
            exit $?
        ) >"$dir/alone.log" 2>&1 || rc=$?
        report_run "$dir" "$dir/alone.log" 1 "$rc" "$dir/alone.results" "$dir/alone.checks" >/dev/null
        if grep -q '^PASS  ' "$dir/alone.results"; then
            # The example's own output is right: replace its OUTPUT line and its check.
            awk -v location="$location" -v replacement="PASS  $location" \
                'index($0, "OUTPUT  " location ": ") == 1 { print replacement; next } { print }' \
                "$dir/results" >"$dir/results.new"
            mv "$dir/results.new" "$dir/results"
            sed -i "s|^WRONG $location\$|OK $location|" "$dir/output-checks"
        elif grep -q '^OUTPUT  ' "$dir/alone.results"; then
            # What it printed alone, without the other examples' leftovers.
            awk -v location="$location" -v alone="$dir/alone.results" '
                BEGIN { getline replacement < alone }
                index($0, "OUTPUT  " location ": ") == 1 { print replacement; next } { print }' \
                "$dir/results" >"$dir/results.new"
            mv "$dir/results.new" "$dir/results"
        fi
    done <"$dir/output-mismatches"

    # Each example that trapped, run again alone with a backtrace: does it trap on its own, and where.
    : >"$dir/traps.log"
    # (The backtracer and Thread Sanitizer do not mix: under TSan the trap is only run again.)
    backtrace=enable=yes,interactive=no,color=no,threads=crashed,registers=none,images=none,sanitize=yes
    [ $tsan -eq 1 ] && backtrace=enable=no
    while IFS= read -r line; do
        location=${line#TRAP  }
        location=${location%%: *}
        index=$("$dir/run-doc-examples" --list | awk -v location="$location" '$2 == location && found == "" { found = $1 } END { print found }')
        [ -n "$index" ] || continue
        (
            echo "=== $location, run alone"
            SWIFT_BACKTRACE=$backtrace \
                "$dir/run-doc-examples" --only "$index" --timeout "$timeout" || true
        ) >>"$dir/traps.log" 2>&1
    done < <(grep '^TRAP  ' "$dir/results" | grep -v '(between examples)' || true)

    grep -av '^PASS  \|^SKIP  ' "$dir/results" | sed "s/^/$mode: /" || true
    # Where each trap happened, run alone: the backtrace's frames in documentation or example code.
    awk '/^=== / { print "    " $0; shown = 0; next }
        (/^ *0 / || / at (README|Sources|Tests)[^ ]*:[0-9]+/) && shown < 4 { sub(/^ */, "      "); print; shown++ }' \
        "$dir/traps.log"
    passed=$(grep -c '^PASS  ' "$dir/results" || true)
    # Examples, each counted once (an example can fail several assertions).
    examples_in() { sed -E 's/^[A-Z]+  (@Test [^ ]*|[^:]+:[0-9]+).*/\1/' | sort -u | wc -l; }
    bad=$( (grep -av "^PASS  \|^SKIP  " "$dir/results" || true) | examples_in)
    skipped=$(grep -c '^SKIP  ' "$dir/results" || true)
    examples=$(examples_in <"$dir/results")
    output_checked=$(wc -l <"$dir/output-checks")
    output_wrong=$(grep -c '^WRONG ' "$dir/output-checks" || true)
    output_unchecked=$(grep -c '^U' "$dir/expected" || true)
    output_unstated=$(grep -c '^P' "$dir/expected" || true)
    echo "run-doc-examples ($mode$([ $tsan -eq 1 ] && echo ", TSan")): $passed of $examples examples pass, $bad fail/trap/hang/race/wrong output, $skipped compile-only; $output_checked examples' output checked against their comments, $output_wrong wrong, $output_unchecked marked output-unchecked, $output_unstated print with no output comment; $blocks_left_out errors in blocks left out, $compile_failures of ${#slugs[@]} sources do not compile at all, $warnings with warnings (log: $log$([ -s "$dir/traps.log" ] && echo "; backtraces: $dir/traps.log"); $(tether_elapsed))"
    if [ "$bad" -gt 0 ] || [ $compile_failures -gt 0 ] || [ $blocks_left_out -gt 0 ] || [ $warnings -gt 0 ]; then
        overall=1
    fi
done
exit $overall
