# Shared by the scripts in Scripts/ (sourced, not run). Needs only the Swift toolchain and a POSIX shell.

# The library's modules, in dependency order.
TETHER_MODULES=(Observable Bridges Binding TetherTesting)

# Where the scripts build: the normal `.build` by default, so they reuse what `swift build` made.
TETHER_SCRATCH="${TETHER_SCRATCH:-.build}"

# Elapsed seconds since the script started, for the closing line of each script.
tether_started=$(date +%s)
tether_elapsed() { echo "$(( $(date +%s) - tether_started )) s"; }

# The host triple, e.g. x86_64-unknown-linux-gnu.
tether_triple() {
    swiftc -print-target-info | sed -n 's/^ *"triple": "\(.*\)",*$/\1/p' | head -n 1
}

# Built with them for the doc examples and compile checks, but with no API or docs of their own: the
# umbrella module (`import Tether` re-exports Observable, Bridges and Binding).
TETHER_EXTRA_MODULES=(Tether)

# tether_build_modules [TARGET...]
# Builds the library modules (debug), the umbrella module, and the given other targets, and prints the
# directory holding their .swiftmodule files. TETHER_BUILD_FLAGS: more `swift build` options
# (`--sanitize=thread`).
tether_build_modules() {
    local module log build_flags=()
    read -ra build_flags <<<"${TETHER_BUILD_FLAGS:-}"
    log=$(mktemp)
    for module in "${TETHER_MODULES[@]}" "${TETHER_EXTRA_MODULES[@]}" "$@"; do
        if ! swift build --scratch-path "$TETHER_SCRATCH" ${build_flags[@]+"${build_flags[@]}"} --target "$module" \
            >"$log" 2>&1; then
            cat "$log" >&2
            rm -f "$log"
            echo "error: building $module failed" >&2
            return 1
        fi
    done
    rm -f "$log"
    echo "$(swift build --scratch-path "$TETHER_SCRATCH" ${build_flags[@]+"${build_flags[@]}"} --show-bin-path)/Modules"
}

# tether_symbol_graphs MODULE MODULES_DIR OUTPUT_DIR [extra swift-symbolgraph-extract options]
# Extracts MODULE's public symbol graph (its own symbols only, not the ones it re-exports) into
# OUTPUT_DIR: MODULE.symbols.json, plus MODULE@Other.symbols.json for extensions of other modules' types.
tether_symbol_graphs() {
    local module=$1 modules_dir=$2 output=$3
    shift 3
    rm -rf "$output"
    mkdir -p "$output"
    local shim_maps=()
    read -ra shim_maps <<<"$(tether_module_map_flags "$modules_dir")"
    swift symbolgraph-extract \
        -module-name "$module" \
        -I "$modules_dir" \
        -target "$(tether_triple)" \
        -minimum-access-level public \
        -output-dir "$output" \
        ${shim_maps[@]+"${shim_maps[@]}"} \
        "$@"
}

# tether_module_map_flags MODULES_DIR
# Prints the -Xcc -fmodule-map-file=… flags for the C targets' module maps (TetherShims, which Observable's
# module imports), for compiling against the .swiftmodule files in MODULES_DIR outside SwiftPM.
tether_module_map_flags() {
    local map flags=()
    for map in "$1"/../*.build/module.modulemap; do
        # Not the host copies SwiftPM builds for a build-tool plugin's executable (TetherGtk's
        # tether-dbus-codegen): the same module a second time.
        case "$map" in *-tool.build/*) continue ;; esac
        [ -f "$map" ] && flags+=(-Xcc "-fmodule-map-file=$map")
    done
    echo "${flags[*]+"${flags[*]}"}"
}

# Compares the current API digest $1 with the committed snapshot $2 (named $3 in messages; $4 is the script
# that updates it), or with $5 = true rewrites the snapshot. Returns 1 when they differ or it is missing.
tether_check_api_snapshot() {
    local current=$1 snapshot=$2 shown=$3 script=$4 update=$5
    if $update; then
        if ! cmp -s "$current" "$snapshot"; then
            cp "$current" "$snapshot"
            echo "updated $shown"
        fi
    elif [ ! -f "$snapshot" ]; then
        echo "error: $shown is missing; run $script --update and commit it" >&2
        return 1
    elif ! diff -u "$snapshot" "$current" --label "$shown (committed)" \
        --label "$(basename "$shown" .txt) (current code)"; then
        return 1
    fi
}
