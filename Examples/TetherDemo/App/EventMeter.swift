import Observable

/// Counts the events the UI reacts to (keys, bound values, timer ticks) for the status line, and
/// asks for a redraw after each one. Used on the UI scheduler only.
final class EventMeter {
    private(set) var total = 0
    /// Events in the last whole second, updated by ``tick()`` once a second.
    private(set) var perSecond = 0
    private var thisSecond = 0
    /// Called after every event (the terminal runner schedules a redraw).
    var onEvent: (() -> Void)?

    func record() {
        total += 1
        thisSecond += 1
        onEvent?()
    }

    /// Closes the current one-second window.
    func tick() {
        perSecond = thisSecond
        thisSecond = 0
    }
}

extension SignalConvertible {
    /// Records each value in `meter` just before passing it on.
    ///
    /// ```swift
    /// form.bind(\.usernameTint, to: tints.metered(meter))
    /// ```
    func metered(_ meter: EventMeter) -> Signal<Value, Failure> {
        doNext { _ in meter.record() }
    }
}
