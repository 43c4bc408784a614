/// Serializes the inputs of a multi-source or asynchronous operator into one handler.
///
/// Operators such as `combineLatest`, `merge`, `switchToLatest`, `take(until:)`, `deliver(on:)` or
/// `debounce` receive events from several upstreams (possibly on several threads at once). They post
/// every input here; the handler runs one input at a time — a post from inside the handler is queued
/// and runs right after it — so the handler can keep its state in plain captured variables and send
/// to its downstream sink directly, with no lock held while anything runs.
///
/// Part of the engine: a ``SerialGate`` with one handler. Operators make one with Observable's
/// `init(lifetime:handler:)`, which registers it in the operator's `lifetime`: when the lifetime is
/// disposed, later posts are dropped, `dispose()` waits for a handler running on another thread to
/// return, and the handler (with everything it captured) is released. The handler must call
/// `lifetime.dispose()` after sending a terminal event downstream.
///
/// <!-- example: skip -->
/// ```swift
/// // Inside an operator:
/// Signal(unsafeStart: { sink, lifetime in
///     var latest: Int?
///     let mailbox = Mailbox<Input>(lifetime: lifetime) { input in … sink.send(.next(x)) … }
///     let a = CompositeDisposable(); lifetime.add(a)
///     first.start(Sink { mailbox.post(.first($0)) }, in: a)
/// })
/// ```
@usableFromInline
package final class Mailbox<Input>: SerialGate<MailboxOp<Input>>, @unchecked Sendable {
    // Safety: `handler` is touched only by the gate's owner (an input's `perform`, and `.release`, submitted
    // through the gate as an input is); `closed` is atomic. The gate moves each input to its owner.
    @usableFromInline package typealias Op = MailboxOp<Input>

    @usableFromInline package let closed = AtomicFlag()
    /// The handler, owned manually (one retain, released by `.release` or `deinit`): calling it through
    /// `_withUnsafeGuaranteedRef` costs no reference counting per input.
    @usableFromInline @exclusivity(unchecked) package var handler: Unmanaged<MailboxHandler<Input>>?

    /// A mailbox whose inputs go to `handler`. Observable's `init(lifetime:handler:)` also registers it in
    /// an operator's lifetime, which is how operators make one.
    @inlinable
    package init(handler: @escaping (Input) -> Void) {
        self.handler = .passRetained(MailboxHandler(handler))
        super.init()
    }

    deinit {
        handler?.release()
    }

    /// Whether the mailbox stopped accepting inputs.
    @usableFromInline package var isDisposed: Bool { closed.isSet }

    /// Runs the handler with `input` now, or after the input in progress (see the type's notes).
    @inlinable
    package func post(_ input: Input) {
        if closed.isSetRelaxed { return }
        // Unretained in the closure: capturing `self` would retain and release the mailbox per input.
        let mailbox = Unmanaged.passUnretained(self)
        submitEvent(.input(input)) { op in mailbox._withUnsafeGuaranteedRef { $0.perform(op) } }
    }

    /// As ``post(_:)``, with `handle` standing in for the handler: for an operator object whose handler only
    /// calls one of its methods, posting from the object calls that method directly — no call through the
    /// handler's closure, no reference counting of the object per input. `handle` must do exactly what the
    /// handler does (an input queued here may be performed by another post, through the handler).
    @inlinable
    package func post(_ input: consuming Input, handlingWith handle: (Input) -> Void) {
        if closed.isSetRelaxed { return }
        let mailbox = Unmanaged.passUnretained(self)
        submitEvent(.input(input)) { op in
            mailbox._withUnsafeGuaranteedRef { $0.perform(op, handlingWith: handle) }
        }
    }

    /// As ``post(_:handlingWith:)``, for an input that is news only after the inputs posted before it (the end
    /// of an input whose events may still be queued): it is handled behind every input queued so far, also
    /// when posted from inside the handler — where ``post(_:)`` runs it right after the current input, before
    /// what other threads posted — and it never waits for room in the backlog. At most one per input source.
    @inlinable
    package func postBehindQueued(_ input: consuming Input, handlingWith handle: (Input) -> Void) {
        if closed.isSetRelaxed { return }
        let mailbox = Unmanaged.passUnretained(self)
        submitBookkeepingBehindQueued(.input(input)) { op in
            mailbox._withUnsafeGuaranteedRef { $0.perform(op, handlingWith: handle) }
        }
    }

    /// Runs `handle` at once, as the handler would run an input, when no input is being handled (the common
    /// case), and returns `true`; returns `false` without running anything when an input is being handled, on
    /// this thread or another: the caller then posts the input. After the mailbox was closed it runs nothing and
    /// returns `true` (the input is dropped, as ``post(_:)`` drops it).
    ///
    /// For an input that the caller only borrows (an event it was handed): the input is never built, so what
    /// it carries is not copied, retained and released on its way through the queue. `handle` must do exactly
    /// what the handler does with that input.
    @inlinable
    package func performIfIdle(_ handle: () -> Void) -> Bool {
        if closed.isSetRelaxed { return true }
        let mailbox = Unmanaged.passUnretained(self)
        return runIfIdle {
            // What `perform(_:)` does with an input.
            if handler != nil {
                if closed.isSetRelaxed { acknowledgeDisposal() } else { handle() }
            }
        } perform: { op in
            mailbox._withUnsafeGuaranteedRef { $0.perform(op) }
        }
    }

    /// ``perform(_:)``, with `handle` standing in for the handler (see ``post(_:handlingWith:)``).
    @inlinable
    package func perform(_ op: Op, handlingWith handle: (Input) -> Void) {
        switch op {
        case .input(let input):
            if handler == nil { return }
            if closed.isSetRelaxed {
                acknowledgeDisposal()
                return
            }
            handle(input)
        case .release:
            perform(op)
        }
    }

    @inlinable
    package func perform(_ op: Op) {
        switch op {
        case .input(let input):
            guard let handler else { return }
            if closed.isSetRelaxed {
                acknowledgeDisposal()
                return
            }
            handler._withUnsafeGuaranteedRef { $0.body(input) }
        case .release:
            acknowledgeDisposal()
            let released = handler
            handler = nil
            released?.release()
        }
    }

    /// Closes the mailbox: drops later inputs, waits for a running handler on another thread, and
    /// releases the handler.
    @inlinable
    package func dispose() {
        if !closed.raise() { return }
        waitForSoleSubscription()
        submitBookkeeping(.release) { self.perform($0) }
    }
}

/// A ``Mailbox``'s handler, in a box the mailbox owns manually.
@usableFromInline
package final class MailboxHandler<Input> {
    @usableFromInline let body: (Input) -> Void

    @inlinable
    init(_ body: @escaping (Input) -> Void) {
        self.body = body
    }
}

/// An operation on a ``Mailbox``.
@usableFromInline
package enum MailboxOp<Input> {
    case input(Input)
    case release
}
