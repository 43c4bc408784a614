/// The scripted tour `tether-demo` plays when it has neither a terminal nor a script: the login form
/// (disabled, failing, succeeding) and the live search (debounced, cancelling stale searches).
enum Tour {
    static let script = """
        # The login form starts invalid: both fields yellow, the button disabled.
        type tet
        key tab
        # Enter executes the command; while it is disabled it answers `.disabled` and does nothing.
        key enter
        key shift-tab
        type her
        key tab
        type pass
        # Both fields valid: the button is enabled. A wrong password fails after 0.8 s.
        key enter
        wait 400ms
        wait 500ms
        key backspace x4
        type password
        key enter
        wait 400ms
        # Signed in: the welcome screen, then the search after 2 s.
        wait 500ms
        wait 2s
        # Typing with pauses: each pause lets the debounce through; the next one cancels that search.
        type san every 100ms
        wait 300ms
        type t every 100ms
        wait 300ms
        type a
        wait 1s
        key ctrl-c
        """
}
