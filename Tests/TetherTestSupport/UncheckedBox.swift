/// Carries a non-`Sendable` value (a `Signal`, a connection) into concurrent test code that uses it
/// the way the library documents as thread-safe.
package final class UncheckedBox<Wrapped>: @unchecked Sendable {
    package let value: Wrapped
    package init(_ value: Wrapped) { self.value = value }
}
