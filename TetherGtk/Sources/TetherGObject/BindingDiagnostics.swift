// Overloads that exist only to turn a mistake into a compile error that names the fix, as the core's
// `bind`/`<~` diagnostics do (Sources/Binding/BindingDiagnostics.swift). Each is `unavailable`, so it never
// wins over a valid call: Swift ranks an available candidate above an unavailable one.

extension GObjectHandle {
    /// Unavailable: binding a signal that can fail into a GObject property. Handle the failure first
    /// (`catch`).
    ///
    /// <!-- example: skip -->
    /// ```swift
    /// try label.bind(property: "label", to: Signal.fileContents(at: path).map { String(decoding: $0, as: UTF8.self) })
    /// // error: this signal can fail …
    /// try label.bind(property: "label", to: contents.catch { _ in Signal(value: "(unreadable)") })   // compiles
    /// ```
    @available(
        *, unavailable,
        message:
            "this signal can fail (its Failure is not Never): handle the failure before binding it into a GObject property, e.g. `.catch { _ in .empty }` or `.catch { _ in Signal(value: fallback) }`"
    )
    @discardableResult
    public func bind<Value: GValueConvertible, Failure: Error>(
        property: String, to source: some SignalConvertible<Value, Failure>
    ) throws(GObjectError) -> any Disposable {
        fatalError("unavailable")
    }
}
