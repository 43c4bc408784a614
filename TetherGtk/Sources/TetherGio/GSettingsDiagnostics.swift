// Overloads that exist only to turn a mistake into a compile error that names the fix, as the core's
// `bind`/`<~` diagnostics do (Sources/Binding/BindingDiagnostics.swift). Each is `unavailable`, so it never
// wins over a valid call: Swift ranks an available candidate above an unavailable one.

extension GSettingsHandle {
    /// Unavailable: binding a signal that can fail into a key. Handle the failure first (`catch`).
    ///
    /// <!-- example: skip -->
    /// ```swift
    /// try settings.bind("username", to: failingNames)                        // error: this signal can fail …
    /// try settings.bind("username", to: failingNames.catch { _ in .empty })  // compiles
    /// ```
    @available(
        *, unavailable,
        message:
            "this signal can fail (its Failure is not Never): handle the failure before binding it into a GSettings key, e.g. `.catch { _ in .empty }` or `.catch { _ in Signal(value: fallback) }`"
    )
    @discardableResult
    public func bind<Value: GVariantConvertible, Failure: Error>(
        _ key: String, to source: some SignalConvertible<Value, Failure>
    ) throws(GSettingsError) -> any Disposable {
        fatalError("unavailable")
    }
}

extension GSettingsKey {
    /// Unavailable: binding a signal that can fail into the key. Handle the failure first (`catch`).
    ///
    /// <!-- example: skip -->
    /// ```swift
    /// username.bind(to: failingNames)                        // error: this signal can fail …
    /// username.bind(to: failingNames.catch { _ in .empty })  // compiles
    /// ```
    @available(
        *, unavailable,
        message:
            "this signal can fail (its Failure is not Never): handle the failure before binding it into a GSettings key, e.g. `.catch { _ in .empty }` or `.catch { _ in Signal(value: fallback) }`"
    )
    @discardableResult
    public func bind<Failure: Error>(to source: some SignalConvertible<Value, Failure>) -> any Disposable {
        fatalError("unavailable")
    }

    /// Unavailable: `key <~ signal` with a signal that can fail. Handle the failure first (`catch`).
    ///
    /// <!-- example: skip -->
    /// ```swift
    /// username <~ Signal.fileContents(at: path).map { String(decoding: $0, as: UTF8.self) }   // error: … can fail
    /// ```
    @available(
        *, unavailable,
        message:
            "this signal can fail (its Failure is not Never): handle the failure before binding it into a GSettings key, e.g. `.catch { _ in .empty }` or `.catch { _ in Signal(value: fallback) }`"
    )
    @discardableResult
    public static func <~ <Failure: Error>(key: GSettingsKey, source: some SignalConvertible<Value, Failure>)
        -> any Disposable
    {
        fatalError("unavailable")
    }
}
