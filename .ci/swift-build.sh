#!/usr/bin/env bash
# `swift build ARGS…` for CI's build steps, once more if the build tool itself dies of a signal.
#
# Why: on 2026-12-02 a CI run ended in `.ci/gtk-leaks.sh` with `swift build` (SwiftPM, not a compiler or a
# test) killed by SIGSEGV right after it linked the D-Bus code generator's plugin tool (exit 139, no
# backtrace: CI had the Swift backtracer off). The same cold AddressSanitizer build passed on the same commit
# before and after, and ten rebuilds of the plugin tool and its plugin here did not crash again: a toolchain
# crash, not a failure of Tether's code. So:
# - the backtracer is on for the build tool (non-interactive), so that a crash prints where SwiftPM died;
# - a death by signal (exit status above 128) is reported and the same build runs once more — it resumes
#   from what was built. A compile error, a warning check or a failing test is never retried: those exit
#   with 1, and so does a second crash.
set -uo pipefail
SWIFT_BACKTRACE=enable=yes,interactive=no swift build "$@"
status=$?
if [ "$status" -gt 128 ]; then
    echo "::warning:: swift build $* died of signal $((status - 128)) (backtrace above): a toolchain crash; building once more." >&2
    SWIFT_BACKTRACE=enable=yes,interactive=no swift build "$@"
    status=$?
fi
exit "$status"
