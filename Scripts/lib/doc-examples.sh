# The documentation examples' generator, shared by Scripts/check-doc-examples.sh (compiles every example)
# and Scripts/run-doc-examples.sh (also runs them). Sourced, not run.

# tether_doc_generate OUTPUT MODE FILE... — writes one Swift file for FILEs; prints the numbers of blocks
# compiled and skipped (on stderr, last line). MODE is "markdown" (each line as is) or "doc" (only `///`
# lines, with the `///` and one space removed; any other line ends a doc comment). In doc comments a bare
# ``` fence is Swift too, as DocC reads it.
#
# Each block that is not `top-level` becomes `func exampleN() async throws`. A Markdown block with `import`
# lines goes, with those imports alone, to a file of its own, OUTPUT.blockN.swift, listed in OUTPUT.blocks
# (compile them with OUTPUT: one module); a doc comment's block adds its imports to OUTPUT's. With TETHER_DOC_RUNNABLE=1
# the file also imports DocExampleSupport (Scripts/Tools/DocExampleRunner.swift) and ends with
# `public func docExamples() -> [DocExample]`, one entry per such block: its file and first line, and a
# closure calling it — or, for a `compile-only` block, the reason it is not run — and one per `func test…()`
# of an `XCTestCase` subclass that a top-level block declares.
# Environment: TETHER_DOC_IMPORTS (more imports), TETHER_DOC_ISOLATION=main-actor (a block without a
# marker is @MainActor), TETHER_DOC_RUNNABLE, TETHER_DOC_EXCLUDE (`file:line` words: the blocks holding
# these lines are left out — run-doc-examples.sh leaves out the blocks that do not compile in one build,
# to run the others), TETHER_DOC_EXPECT (a file: the output each example's comments state, below).
#
# Output comments (Scripts/README.md, "Output comments"): in a block that is run, the trailing comments of
# a column — consecutive lines of code that each end with a `// comment`, up to a blank line or a line
# without one — in which a line calls `print(` or a comment starts with `prints`; and the full-line
# `// text` comments directly after a line of code that does not open a body (`{`, `in`), with no blank
# line between. Each states printed lines: `prints ` is dropped, `prints nothing…` states none, `(empty)`
# stands for an empty string, ` — ` starts an aside; a comment wrapped in parentheses, `// (…)`, is prose
# (in a column too) unless it looks like a printed tuple: `(` then a quote, a digit, `-`, `[` or `(`; a
# full-line `// (…` aside may close on a later line. With
# TETHER_DOC_EXPECT, one line per output comment — `E<TAB>file:line<TAB>comment line<TAB>text`, `file:line`
# being the example's as in docExamples() —, `U<TAB>file:line<TAB>reason` for a block marked
# `<!-- example: output-unchecked: why -->`, and `P<TAB>file:line` for one that calls `print(` but has no
# output comment.
# Markdown files whose blocks still get the shared imports besides their own, until their blocks write
# every import they need (issue 43 item 5; this one is the core's to fix: its `import Observation` blocks
# need `import Tether` too).
tether_doc_shared_imports="Sources/Observable/Observable.docc/ObservationFramework.md"

tether_doc_generate() {
    local output=$1 mode=$2
    shift 2
    rm -f "$output.blocks" "$output".block*.swift
    awk -v mode="$mode" -v extra_imports="${TETHER_DOC_IMPORTS:-}" -v isolation="${TETHER_DOC_ISOLATION:-}" \
        -v runnable="${TETHER_DOC_RUNNABLE:-}" -v exclude="${TETHER_DOC_EXCLUDE:-}" \
        -v expect_file="${TETHER_DOC_EXPECT:-}" -v output="$output" -v shared_imports="$tether_doc_shared_imports" '
        # A block is printed when it closes, unless it holds an excluded line.
        function out(text) { block = block text "\n" }
        function close_block(last,    i, skip) {
            skip = 0
            for (i = 1; i <= excluded; i++)
                if (excluded_file[i] == file && excluded_line[i] > opened && excluded_line[i] <= last) skip = 1
            if (skip) { left_out++; block = ""; block_tests = 0; expects = 0; return }
            if (block_imports != "" && (mode == "doc" || index(" " shared_imports " ", " " file " "))) {
                # In a doc comment, a block is read as code of the module it documents: the imports above,
                # plus its own (in the one file, at the end).
                n = split(block_imports, listed, "\n")
                for (i = 1; i <= n; i++) if (listed[i] != "") imports[listed[i]] = 1
                printf "%s", block
            } else if (block_imports != "") {
                # In Markdown, a block that writes its imports is compiled with those alone, in a file of
                # its own (imports are per file in Swift): `import TetherTesting` must be all that a test
                # snippet needs, as a reader who copies it will find.
                extra_file = output ".block" count ".swift"
                printf "%s\n%s", block_imports, block > extra_file
                close(extra_file)
                print extra_file > (output ".blocks")
            } else {
                printf "%s", block
            }
            block = ""
            for (i = 1; i <= block_tests; i++) {   # the XCTest methods this block declares
                runs++
                run_file[runs] = file; run_line[runs] = block_test_line[i]; run_function[runs] = ""
                run_reason[runs] = ""; run_test[runs] = block_test[i]
            }
            block_tests = 0
            if (expect_file != "" && marker != "top-level" && marker != "compile-only") {
                if (unchecked != "")
                    printf "U\t%s:%d\t%s\n", file, opened + 1, unchecked > expect_file
                else if (expects == 0 && block_prints)
                    printf "P\t%s:%d\n", file, opened + 1 > expect_file
                else
                    for (i = 1; i <= expects; i++)
                        printf "E\t%s:%d\t%d\t%s\n", file, opened + 1, expect_line[i], expect_text[i] > expect_file
            }
            expects = 0
            if (marker != "top-level") {
                runs++
                run_file[runs] = file; run_line[runs] = opened + 1; run_function[runs] = "example" count
                run_reason[runs] = (marker == "compile-only" ? reason : ""); run_test[runs] = ""
            }
        }
        function flush_marker() {
            marker = pending; reason = pending_reason; unchecked = pending_unchecked
            pending = ""; pending_reason = ""; pending_unchecked = ""
        }
        # Splits a line at its first `//` outside a string literal: code_part, comment_part, has_comment.
        function split_comment(text,    i, c, quoted, n) {
            code_part = text; comment_part = ""; has_comment = 0; quoted = 0; n = length(text)
            for (i = 1; i < n; i++) {
                c = substr(text, i, 1)
                if (quoted) { if (c == "\\") i++; else if (c == "\"") quoted = 0; continue }
                if (c == "\"") { quoted = 1; continue }
                if (c == "/" && substr(text, i + 1, 1) == "/") {
                    code_part = substr(text, 1, i - 1); comment_part = substr(text, i + 2); has_comment = 1
                    return
                }
            }
        }
        # The printed line an output comment states; "\001" for prose: `// (…)`, or a `///` line.
        function stated(comment) {
            sub(/^[ \t]+/, "", comment); sub(/[ \t]+$/, "", comment)
            if (comment ~ /^\// || (comment ~ /^\(.*\)$/ && comment !~ /^\(["0-9(\[-]/)) return "\001"
            if (comment ~ /^prints nothing/) return ""
            sub(/^prints /, "", comment)
            sub(/ — .*$/, "", comment)
            gsub(/\(empty\)/, "", comment)
            return comment
        }
        # The comments of the column that ends: output comments if it prints.
        function end_column(    i) {
            for (i = 1; i <= column_n; i++)
                if (column_output || !column_trailing[i]) expect(column_line[i], column_text[i])
            column_n = 0; column_output = 0
        }
        function column_add(line, text, trailing) {
            column_n++; column_line[column_n] = line; column_text[column_n] = text; column_trailing[column_n] = trailing
        }
        function expect(line, text) {
            if (text == "\001") return
            expects++; expect_line[expects] = line; expect_text[expects] = text
        }
        function unterminated() {
            if (inside != 0) {
                printf "%s:%d: error: unterminated code block\n", file, opened > "/dev/stderr"
                failed = 1
                if (inside == 1) { end_column(); out("#sourceLocation()"); if (marker != "top-level") out("}"); close_block(FNR) }
            }
            inside = 0; marker = ""; pending = ""; pending_reason = ""; pending_unchecked = ""
        }
        function swift_string(text) { gsub(/\\/, "\\\\", text); gsub(/"/, "\\\"", text); return "\"" text "\"" }
        BEGIN {
            print "import Foundation"
            print "import Dispatch"
            print "import XCTest"
            print "import Observable"
            print "import Bridges"
            print "import Binding"
            n = split(extra_imports, extra, " ")
            for (i = 1; i <= n; i++) print "import " extra[i]
            if (runnable) print "import DocExampleSupport"
            print ""
            inside = 0; count = 0; skipped = 0; pending = ""; pending_reason = ""; runs = 0; left_out = 0
            pending_unchecked = ""; unchecked = ""; expects = 0
            excluded = 0
            n = split(exclude, words, /[ \t\n]+/)
            for (i = 1; i <= n; i++) {
                if (!match(words[i], /:[0-9]+$/)) continue
                excluded++
                excluded_file[excluded] = substr(words[i], 1, RSTART - 1)
                excluded_line[excluded] = substr(words[i], RSTART + 1) + 0
            }
        }
        FNR == 1 { unterminated(); file = FILENAME }
        mode == "doc" {
            if ($0 !~ /^[ \t]*\/\/\/( |$)/) { unterminated(); next }
            sub(/^[ \t]*\/\/\/ ?/, "")
        }
        # <!-- example: NAME --> or <!-- example: NAME: a reason -->
        # `output-unchecked` stacks with the other markers (a line of its own).
        inside == 0 && /^[ \t]*<!--[ \t]*example:[ \t]*[a-z-]+([ \t]*:[^>]*)?[ \t]*-->[ \t]*$/ {
            name = $0
            sub(/^[ \t]*<!--[ \t]*example:[ \t]*/, "", name)
            sub(/[ \t]*-->[ \t]*$/, "", name)
            why = ""
            if (match(name, /[ \t]*:/)) {
                why = substr(name, RSTART + RLENGTH)
                sub(/^[ \t]*/, "", why)
                name = substr(name, 1, RSTART - 1)
            }
            if (name == "output-unchecked") {
                if (why == "") {
                    printf "%s:%d: error: \"example: output-unchecked\" needs its reason: <!-- example: output-unchecked: why -->\n", \
                        file, FNR > "/dev/stderr"
                    failed = 1
                }
                pending_unchecked = why
            } else {
                pending = name; pending_reason = why
            }
            next
        }
        inside == 0 && (/^[ \t]*```[ \t]*swift[ \t]*$/ || (mode == "doc" && /^[ \t]*```[ \t]*$/)) {
            flush_marker()
            opened = FNR
            match($0, /^[ \t]*/); indent = RLENGTH
            if (marker == "skip") { inside = 2; skipped++; next }
            if (marker != "" && marker != "top-level" && marker != "main-actor" && marker != "compile-only") {
                printf "%s:%d: error: unknown marker \"example: %s\"\n", file, FNR - 1, marker > "/dev/stderr"
                failed = 1
            }
            if (marker == "compile-only" && reason == "") {
                printf "%s:%d: error: \"example: compile-only\" needs its reason: <!-- example: compile-only: why -->\n", \
                    file, FNR - 1 > "/dev/stderr"
                failed = 1
            }
            inside = 1; count++
            block = ""; expects = 0; after_code = 0; column_n = 0; column_output = 0; block_prints = 0; in_paren = 0
            block_imports = ""; test_class = ""; test_class_main_actor = 0; method_main_actor = 0
            if (marker != "top-level") {
                main_actor = marker == "main-actor" || (marker == "" && isolation == "main-actor")
                out(sprintf("%sfunc example%d() async throws {", (main_actor ? "@MainActor " : ""), count))
            }
            out(sprintf("#sourceLocation(file: \"%s\", line: %d)", file, FNR + 1))
            next
        }
        inside > 0 && /^[ \t]*```[ \t]*$/ {
            if (inside == 1) {
                end_column()
                out("#sourceLocation()")
                if (marker != "top-level") out("}")
                out("")
                close_block(FNR)
            }
            inside = 0; marker = ""; next
        }
        # Imports move to the top of the file of the block (line numbers stay; see close_block).
        inside == 1 && /^[ \t]*(@testable[ \t]+)?import[ \t]+[A-Za-z_][A-Za-z_0-9.]*[ \t]*(\/\/.*)?$/ {
            text = $0; sub(/^[ \t]*/, "", text); sub(/[ \t]*\/\/.*$/, "", text)
            block_imports = block_imports text "\n"; out(""); next
        }
        # In a top-level block, the `func test…()` methods of an XCTestCase subclass are run too, each in a
        # test case of its class (a heuristic: the class line at column 0, its methods indented by four).
        inside == 1 && marker == "top-level" && runnable {
            line = substr($0, indent + 1)
            if (match(line, /^(@MainActor |nonisolated )*(final )?class [A-Za-z_][A-Za-z0-9_]*: *(XCTestCase|ResourceCheckedTestCase)/)) {
                test_class = line
                test_class_main_actor = (line ~ /^@MainActor /)
                sub(/^(@MainActor |nonisolated )*(final )?class /, "", test_class)
                sub(/:.*/, "", test_class)
                method_main_actor = 0
            } else if (line ~ /^}/) {
                test_class = ""
            } else if (test_class != "" && line ~ /^    @MainActor( |$)/ && line !~ /func /) {
                method_main_actor = 1   # an attribute on a line of its own, for the next method
            } else if (test_class != "" && match(line, /^    (@MainActor |nonisolated )*func test[A-Za-z0-9_]*\(\)( async)?( throws)? *\{/)) {
                method = line
                sub(/^    (@MainActor |nonisolated )*func /, "", method)
                sub(/\(.*/, "", method)
                main_actor_method = method_main_actor || line ~ /^    @MainActor / || (test_class_main_actor && line !~ /^    nonisolated /)
                method_main_actor = 0
                call = "($0 as! " test_class ")." method "()"
                if (line ~ /\) async/) {
                    call = "asyncTest { (test: " test_class ") in { " (line ~ /throws/ ? "try " : "") "await test." method "() } }($0 as! " test_class ")()"
                    closure = "try " call
                } else if (main_actor_method) {
                    # What `swift test` does with it on Linux: its discovery list casts each synchronous test
                    # method to `(Class) -> () throws -> ()`, which a main-actor method is not, and the
                    # failed cast aborts the whole XCTest run (issue 43).
                    closure = "_ = $0; fatalError(\"Could not cast value of type \047(" test_class ") -> @Swift.MainActor () throws -> ()\047 to \047(" test_class ") -> () throws -> ()\047: the XCTest discovery of swift test on Linux aborts the whole run on a synchronous @MainActor test method — write it nonisolated and enter the main actor with MainActor.assumeIsolated\")"
                } else {
                    closure = (line ~ /throws/ ? "try " : "") call
                }
                block_tests++
                block_test_line[block_tests] = FNR
                block_test[block_tests] = test_class "(name: \"" method "\") { " closure " }"
            } else if (line !~ /^[ \t]*(\/\/.*)?$/) {
                method_main_actor = 0
            }
        }
        # Output comments: what the lines of the block say they print (see above).
        inside == 1 && marker != "top-level" && expect_file != "" {
            line = substr($0, indent + 1)
            if (line ~ /^[ \t]*$/) {
                end_column(); after_code = 0; in_paren = 0
            } else {
                split_comment(line)
                if (code_part !~ /^[ \t]*$/) {
                    in_paren = 0
                    if (code_part ~ /(^|[^A-Za-z0-9_.])(debugPrint|print)\(/) block_prints = 1
                    if (has_comment) {
                        column_add(FNR, stated(comment_part), 1)
                        if (code_part ~ /(^|[^A-Za-z0-9_.])(debugPrint|print)\(/ || comment_part ~ /^[ \t]*prints( |$)/)
                            column_output = 1
                    } else {
                        end_column()
                    }
                    after_code = code_part !~ /(\{|[ \t]in)[ \t]*$/   # a comment opening a body is about it
                } else if (after_code) {
                    # A parenthesized aside may run over several full-line comments.
                    text = comment_part; sub(/^[ \t]+/, "", text); sub(/[ \t]+$/, "", text)
                    if (in_paren) { if (text ~ /\)$/) in_paren = 0 }
                    else if (text ~ /^\([A-Za-z]/ && text !~ /\)$/) in_paren = 1
                    else column_add(FNR, stated(comment_part), 0)
                }
            }
        }
        inside == 1 { out(substr($0, indent + 1)); next }
        inside == 2 { next }
        /^[ \t]*```/ { inside = 2; opened = FNR; pending = ""; pending_unchecked = ""; next }   # another language: skip its body
        /[^ \t]/ { pending = ""; pending_unchecked = "" }
        END {
            unterminated()
            for (line in imports) print line
            if (runnable) {
                print ""
                print "/// Every example of this file (blocks marked top-level are declarations, not examples)."
                print "nonisolated public func docExamples() -> [DocExample] {"
                print "    ["
                for (i = 1; i <= runs; i++) {
                    if (run_test[i] != "")
                        printf "        DocExample(file: %s, line: %d, testCase: { %s }),\n", \
                            swift_string(run_file[i]), run_line[i], run_test[i]
                    else if (run_reason[i] != "")
                        printf "        DocExample(file: %s, line: %d, compileOnly: %s),\n", \
                            swift_string(run_file[i]), run_line[i], swift_string(run_reason[i])
                    else
                        printf "        DocExample(file: %s, line: %d) { try await %s() },\n", \
                            swift_string(run_file[i]), run_line[i], run_function[i]
                }
                print "    ]"
                print "}"
            }
            print count - left_out, skipped > "/dev/stderr"
            exit failed
        }
    ' "$@" >"$output" 2>"$output.count"
}
