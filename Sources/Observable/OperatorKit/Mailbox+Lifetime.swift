import TetherEngine

extension Mailbox {
    /// An operator's mailbox, registered in its `lifetime`: disposing the lifetime closes the mailbox,
    /// waits for a handler running on another thread to return, and releases the handler (see
    /// ``Mailbox``).
    ///
    /// <!-- example: skip -->
    /// ```swift
    /// let mailbox = Mailbox<Int>(lifetime: lifetime) { value in sink.send(.next(value)) }
    /// ```
    @inlinable
    package convenience init(lifetime: CompositeDisposable, handler: @escaping (Input) -> Void) {
        self.init(handler: handler)
        // A closure rather than `self` as a `Disposable`: made in specialized code, so disposing runs
        // specialized code (no generic-metadata lookups through a protocol witness).
        lifetime.add { self.dispose() }
    }
}
