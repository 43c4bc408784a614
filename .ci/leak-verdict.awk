# The verdict of a LeakSanitizer report (.ci/leaks.sh, .ci/gtk-leaks.sh): prints each leak whose allocation
# stack has a frame matching `own` (a regular expression naming the project's modules), except one allocated
# while XCTest created a test case object (a stored property's default: kept by that object, which XCTest
# never frees, or in its setUp() and kept in it); exits 1 when it printed any.
    function flush() { if (block != "" && tether && !fixture) { print block; found++ } block = ""; tether = 0; fixture = 0 }
    /^(Direct|Indirect) leak of/ { flush(); block = $0 "\n"; next }
    block != "" && /^    #[0-9]+ / {
        block = block $0 "\n"
        if ($0 ~ own) tether = 1
        # Allocated while XCTest created a test case object (a stored property default): kept by that
        # object, which XCTest never frees.
        if ($0 ~ /4name11testClosureACSS_y6XCTest/) fixture = 1
        # Allocated in a test case's setUp() (an instance method's frame) and stored in the test case
        # object, which XCTest never frees.
        if ($0 ~ /Tests[0-9A-Za-z_]*C5setUpyyF /) fixture = 1
        next
    }
    block != "" && /^$/ { flush() }
    END { flush(); exit found > 0 }
