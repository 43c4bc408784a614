import Foundation
import Observable

/// Counts the events the UI reacts to (keys, bound values, timer ticks) for the status line, and
/// asks for a redraw after each one. Thread-safe: ``metered(_:)`` records from an operator's closure, which
/// Tether may call on any thread (the demo's bound signals all deliver on the UI scheduler, but the
/// compiler cannot know that).
final class EventMeter: @unchecked Sendable {
    // Safety: `counts` and `callback` are only touched under `lock`; `callback` runs outside it.
    private let lock = NSLock()
    private var counts = (total: 0, perSecond: 0, thisSecond: 0)
    private var callback: (@Sendable () -> Void)?

    var total: Int { lock.withLock { counts.total } }
    /// Events in the last whole second, updated by ``tick()`` once a second.
    var perSecond: Int { lock.withLock { counts.perSecond } }
    /// Called after every event (the terminal runner schedules a redraw).
    var onEvent: (@Sendable () -> Void)? {
        get { lock.withLock { callback } }
        set { lock.withLock { callback = newValue } }
    }

    func record() {
        let onEvent = lock.withLock {
            counts.total += 1
            counts.thisSecond += 1
            return callback
        }
        onEvent?()
    }

    /// Closes the current one-second window.
    func tick() {
        lock.withLock {
            counts.perSecond = counts.thisSecond
            counts.thisSecond = 0
        }
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
