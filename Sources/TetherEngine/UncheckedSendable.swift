/// Carries a value across a concurrency boundary that the compiler cannot prove safe.
///
/// Use only for values that are thread-safe but not annotated (e.g. Dispatch sources), and say why
/// at the use site.
@usableFromInline
package struct UncheckedSendable<Wrapped>: @unchecked Sendable {
    // Safety: the wrapper adds no state of its own; each use site says why its value is thread-safe.
    @usableFromInline package var value: Wrapped

    @inlinable
    package init(_ value: Wrapped) {
        self.value = value
    }
}
