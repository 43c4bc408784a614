import Observation

// The `@Observable` twin of BindingDiagnostics.swift: binding a signal that can fail names the fix.

@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
extension Observation.Observable where Self: AnyObject {
    /// Unavailable: binding a signal that can fail to an `@Observable` model. Handle the failure first
    /// (`catch`).
    ///
    /// <!-- example: skip -->
    /// ```swift
    /// model.bind(\.results, to: failingSearch)                          // error: this signal can fail …
    /// model.bind(\.results, to: failingSearch.catch { _ in .empty })    // compiles
    /// ```
    @available(
        *, unavailable,
        message:
            "this signal can fail (its Failure is not Never): handle the failure before binding, e.g. `.catch { _ in .empty }` or `.catch { _ in Signal(value: fallback) }`; for a typed notification leave out `malformed: .fail` or pass `malformed: .skip`"
    )
    @discardableResult
    public func bind<Value, Failure: Error>(
        _ keyPath: ReferenceWritableKeyPath<Self, Value>,
        to source: some SignalConvertible<Value, Failure>
    ) -> any Disposable {
        fatalError("unavailable")
    }
}
