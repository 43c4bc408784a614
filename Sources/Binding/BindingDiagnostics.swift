import Observable

// Overloads that exist only to turn a mistake into a compile error that names the fix. Each is
// `unavailable`, so it never wins over a valid call: Swift ranks an available candidate above an
// unavailable one, and each valid overload is also more specific than these (its `Failure` is `Never`,
// its value type the property's).

extension BindingTarget {
    /// Unavailable: binding a signal that can fail. Handle the failure first (`catch`).
    ///
    /// <!-- example: skip -->
    /// ```swift
    /// view.bind(\.title, to: failing)                       // error: this signal can fail …
    /// view.bind(\.title, to: failing.catch { _ in .empty })  // compiles
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

    /// Unavailable: binding a signal that can fail to an optional property. Handle the failure first.
    ///
    /// <!-- example: skip -->
    /// ```swift
    /// view.bind(\.selectedName, to: failingNames)   // error: this signal can fail …
    /// ```
    @available(
        *, unavailable,
        message:
            "this signal can fail (its Failure is not Never): handle the failure before binding, e.g. `.catch { _ in .empty }` or `.catch { _ in Signal(value: fallback) }`; for a typed notification leave out `malformed: .fail` or pass `malformed: .skip`"
    )
    @discardableResult
    public func bind<Value, Failure: Error>(
        _ keyPath: ReferenceWritableKeyPath<Self, Value?>,
        to source: some SignalConvertible<Value, Failure>
    ) -> any Disposable {
        fatalError("unavailable")
    }

    /// Unavailable: binding a signal whose values are not the property's type. Convert them first
    /// (`map`).
    ///
    /// <!-- example: skip -->
    /// ```swift
    /// view.bind(\.count, to: texts)                            // error: … not of the property's type
    /// view.bind(\.count, to: texts.map { Int($0) ?? 0 })       // compiles
    /// ```
    @available(
        *, unavailable,
        message:
            "the signal's values are not of the property's type: convert them before binding, e.g. `.map { Int($0) ?? 0 }` for Strings bound to an Int property"
    )
    @discardableResult
    public func bind<Value, Other, Failure: Error>(
        _ keyPath: ReferenceWritableKeyPath<Self, Value>,
        to source: some SignalConvertible<Other, Failure>
    ) -> any Disposable {
        fatalError("unavailable")
    }
}

extension BindingSlot {
    /// Unavailable: binding a signal that can fail. Handle the failure first (`catch`).
    ///
    /// <!-- example: skip -->
    /// ```swift
    /// view[\.title] <~ failing                        // error: this signal can fail …
    /// ```
    @available(
        *, unavailable,
        message:
            "this signal can fail (its Failure is not Never): handle the failure before binding, e.g. `.catch { _ in .empty }` or `.catch { _ in Signal(value: fallback) }`; for a typed notification leave out `malformed: .fail` or pass `malformed: .skip`"
    )
    @discardableResult
    public static func <~ <Failure: Error>(slot: BindingSlot, source: some SignalConvertible<Value, Failure>)
        -> any Disposable
    {
        fatalError("unavailable")
    }

    /// Unavailable: binding a signal that can fail to an optional property. Handle the failure first.
    ///
    /// <!-- example: skip -->
    /// ```swift
    /// view[\.selectedName] <~ failingNames          // error: this signal can fail …
    /// ```
    @available(
        *, unavailable,
        message:
            "this signal can fail (its Failure is not Never): handle the failure before binding, e.g. `.catch { _ in .empty }` or `.catch { _ in Signal(value: fallback) }`; for a typed notification leave out `malformed: .fail` or pass `malformed: .skip`"
    )
    @discardableResult
    public static func <~ <Wrapped, Failure: Error>(
        slot: BindingSlot, source: some SignalConvertible<Wrapped, Failure>
    ) -> any Disposable where Value == Wrapped? {
        fatalError("unavailable")
    }

    /// Unavailable: binding a signal whose values are not the property's type. Convert them first
    /// (`map`).
    ///
    /// <!-- example: skip -->
    /// ```swift
    /// view[\.count] <~ texts                          // error: … not of the property's type
    /// ```
    @available(
        *, unavailable,
        message:
            "the signal's values are not of the property's type: convert them before binding, e.g. `.map { Int($0) ?? 0 }` for Strings bound to an Int property"
    )
    @discardableResult
    public static func <~ <Other, Failure: Error>(slot: BindingSlot, source: some SignalConvertible<Other, Failure>)
        -> any Disposable
    {
        fatalError("unavailable")
    }
}

extension MutableProperty {
    /// Unavailable: binding a signal that can fail. Handle the failure first (`catch`).
    ///
    /// <!-- example: skip -->
    /// ```swift
    /// query.bind(to: failing)                         // error: this signal can fail …
    /// ```
    @available(
        *, unavailable,
        message:
            "this signal can fail (its Failure is not Never): handle the failure before binding, e.g. `.catch { _ in .empty }` or `.catch { _ in Signal(value: fallback) }`; for a typed notification leave out `malformed: .fail` or pass `malformed: .skip`"
    )
    @discardableResult
    public func bind<Failure: Error>(to source: some SignalConvertible<Value, Failure>) -> any Disposable {
        fatalError("unavailable")
    }

    /// Unavailable: binding a signal that can fail with `<~`. Handle the failure first.
    ///
    /// <!-- example: skip -->
    /// ```swift
    /// query <~ failing                                // error: this signal can fail …
    /// ```
    @available(
        *, unavailable,
        message:
            "this signal can fail (its Failure is not Never): handle the failure before binding, e.g. `.catch { _ in .empty }` or `.catch { _ in Signal(value: fallback) }`; for a typed notification leave out `malformed: .fail` or pass `malformed: .skip`"
    )
    @discardableResult
    public static func <~ <Failure: Error>(property: MutableProperty, source: some SignalConvertible<Value, Failure>)
        -> any Disposable
    {
        fatalError("unavailable")
    }
}

extension CommandSource {
    /// Unavailable: `bind(command:)` without `input:` needs a command whose input is the trigger. Pass
    /// `input:` to turn each trigger into the command's input.
    ///
    /// <!-- example: skip -->
    /// ```swift
    /// searchButton.bind(command: search)                               // error: … pass `input:`
    /// searchButton.bind(command: search, input: { _ in query.value })  // compiles
    /// ```
    @available(
        *, unavailable,
        message:
            "the command's Input is not this control's Trigger: pass `input:` to turn each trigger into the command's input, e.g. `bind(command: search, input: { _ in query.value })` (`input: { _ in }` for a Void command)"
    )
    @discardableResult
    public func bind<Input, Output, Failure>(command: Command<Input, Output, Failure>) -> any Disposable {
        fatalError("unavailable")
    }
}

extension Command where Input == Void {
    /// Unavailable: a command whose input is `Void` executes with `execute(())`.
    ///
    /// <!-- example: skip -->
    /// ```swift
    /// signIn.execute()     // error: … use execute(())
    /// signIn.execute(())   // compiles
    /// ```
    @available(
        *, unavailable,
        message: "a command whose Input is Void executes with `execute(())` (its input is the empty tuple)"
    )
    @discardableResult
    public func execute() -> Signal<Output, CommandError<Failure>> {
        fatalError("unavailable")
    }
}

extension ChannelTerminal {
    /// Unavailable: feeding a terminal from a signal that can fail. Handle the failure first (`catch`).
    ///
    /// <!-- example: skip -->
    /// ```swift
    /// volume.channel() <~ failingPresets              // error: this signal can fail …
    /// ```
    @available(
        *, unavailable,
        message:
            "this signal can fail (its Failure is not Never): handle the failure before binding, e.g. `.catch { _ in .empty }` or `.catch { _ in Signal(value: fallback) }`; for a typed notification leave out `malformed: .fail` or pass `malformed: .skip`"
    )
    @discardableResult
    public static func <~ <SourceFailure: Error>(
        terminal: ChannelTerminal, source: some SignalConvertible<Value, SourceFailure>
    )
        -> any Disposable
    {
        fatalError("unavailable")
    }
}
