extension KeyPathObservable {
    /// A channel terminal for an `@Observed` property that accepts `nil` (RAC's
    /// `RACChannelTo(object, property, nilValue)`): receiving `nil` sets the property to `nilValue`.
    ///
    /// The terminal's values are the property's values (current value first, then each change it did
    /// not make itself), as optionals, so it links with a terminal of optionals — a text field's
    /// optional number, a picker that can be cleared. Setting `nilValue` in answer to a `nil` is this
    /// terminal's own change: it is not sent back. The terminal holds the object weakly; its channel
    /// completes when the object deallocates. (An optional property needs no `nilValue`: its plain
    /// `channel(_:)` terminal already sends and receives `nil`.)
    ///
    /// ```swift
    /// final class Settings: KeyPathObservable { @Observed var fontSize = 12 }
    /// let settings = Settings()
    /// let fontSize = settings.channel(\.fontSize, nilValue: 12)
    /// fontSize.send(18)    // fontSize == 18
    /// fontSize.send(nil)   // cleared: back to 12
    /// ```
    public func channel<Value>(
        _ keyPath: ReferenceWritableKeyPath<Self, Value>, nilValue: Value,
        isolation: isolated (any Actor)? = #isolation
    ) -> ChannelTerminal<Value?, Never> {
        ChannelTerminal(
            values: observe(keyPath).map { Optional($0) }, isolation: isolation,
            set: { [weak self] value in self?[keyPath: keyPath] = value ?? nilValue })
    }
}

extension MutableProperty {
    /// A channel terminal for this property that accepts `nil`: receiving `nil` sets the property to
    /// `nilValue` (RAC's `nilValue` form of `RACChannelTo`). Its values are the property's, as optionals;
    /// see `channel(_:nilValue:)` on `KeyPathObservable`.
    ///
    /// ```swift
    /// let volume = MutableProperty(0.5)
    /// let terminal = volume.channel(nilValue: 0.5)
    /// terminal.send(nil)   // volume.value == 0.5
    /// ```
    public func channel(nilValue: Value) -> ChannelTerminal<Value?, Never> {
        ChannelTerminal(
            values: signal.map { Optional($0) },
            set: { [weak self] value in self?.value = value ?? nilValue })
    }
}
