import TetherEngine

/// The downstream end of one operator subscription: the sink it sends to and the lifetime that its
/// terminal event ends.
///
/// Every operator ends its subscription through this type, never by disposing the lifetime itself:
/// ``finish(_:)`` delivers a terminal event at most once (not after the subscription has ended, by
/// a terminal event or by `dispose()`) and then disposes the lifetime, so that what the operator
/// holds is released. A struct of two references: capturing it costs what capturing the sink and the
/// lifetime costs, and values go straight to the sink.
@usableFromInline
struct OperatorOutput<Value, Failure: Error> {
    @usableFromInline let sink: Sink<Value, Failure>
    @usableFromInline let lifetime: CompositeDisposable

    @inlinable @inline(__always)
    init(_ sink: Sink<Value, Failure>, _ lifetime: CompositeDisposable) {
        self.sink = sink
        self.lifetime = lifetime
    }

    /// Whether the subscription has ended (a terminal event went out, or it was disposed): nothing
    /// more should be sent.
    @inlinable @inline(__always)
    var isFinished: Bool { lifetime.isDisposed }

    /// Sends a value.
    @inlinable @inline(__always)
    func send(_ value: Value) {
        sink.send(.next(value))
    }

    /// Sends `event` on: a value as it is, a terminal event through ``finish(_:)``.
    @inlinable @inline(__always)
    func forward(_ event: Event<Value, Failure>) {
        if event.isTerminal {
            finish(event)
        } else {
            sink.send(event)
        }
    }

    /// Sends the terminal event `terminal` unless the subscription has already ended, then ends it.
    @inlinable
    func finish(_ terminal: Event<Value, Failure>) {
        if lifetime.isDisposed { return }
        sink.send(terminal)
        lifetime.dispose()
    }

    /// Sends `value`, then completes, unless the value ended the subscription (a downstream `take(1)`).
    @inlinable
    func finish(after value: Value) {
        sink.send(.next(value))
        finish(.completed)
    }

    /// Ends the subscription without a terminal event: its inputs went away without one, so nothing
    /// more can come (ending frees what the pipeline holds).
    @inlinable
    func end() {
        lifetime.dispose()
    }
}

/// How many of a multi-input operator's inputs are still running (or still live): the one count of
/// finished inputs that every multi-input operator keeps (`merge`, `combineLatest`, `zip`,
/// `take(untilReplacement:)` and the two-input scaffold).
@usableFromInline
struct InputCount {
    @usableFromInline var remaining: Int

    @inlinable
    init(_ count: Int) {
        remaining = count
    }

    /// Counts one more input as finished; `true` when it was the last one.
    @inlinable
    mutating func finishOne() -> Bool {
        remaining -= 1
        return remaining == 0
    }
}
