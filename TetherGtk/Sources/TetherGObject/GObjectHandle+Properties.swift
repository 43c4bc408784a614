import CGio

extension GObjectHandle {
    /// The current value of `property` (`g_object_get_property`).
    ///
    /// - Throws: ``GObjectError`` when the class has no such readable property, or its type cannot be
    ///   read as `Value`.
    ///
    /// ```swift
    /// let label = GObjectHandle(sinking: gtk_label_new("Hello"))
    /// print(try label.value(of: "label", as: String.self))   // Hello
    /// ```
    public func value<Value: GValueConvertible>(of property: String, as type: Value.Type = Value.self)
        throws(GObjectError) -> Value
    {
        let access = try PropertyAccess<Value>(object, property, for: .read)
        guard let value = access.read(object) else {
            throw .propertyTypeMismatch(
                type: typeName, property: property, propertyType: "an unreadable value", valueType: "\(Value.self)")
        }
        return value
    }

    /// Sets `property` to `value` (`g_object_set_property`); nothing happens when it already holds an equal
    /// value, so no `notify` is emitted.
    ///
    /// - Throws: ``GObjectError`` when the class has no such writable property, or its type cannot hold
    ///   `Value`.
    ///
    /// ```swift
    /// let button = GObjectHandle(sinking: gtk_button_new_with_label("OK"))
    /// try button.set(property: "sensitive", to: false)
    /// ```
    public func set<Value: GValueConvertible>(property: String, to value: Value) throws(GObjectError) {
        let access = try PropertyAccess<Value>(object, property, for: .write)
        access.write(value, to: object)
    }

    /// `property`'s value, then its value after each change (`notify::property`) — the GObject form of
    /// RAC's `RACObserve(target, keyPath)`. Each subscription sends the current value first and completes
    /// when the object is disposed (a GTK widget destroyed, or its last reference dropped). The signal holds
    /// the object weakly; subscribing after the object is gone completes at once.
    ///
    /// Changes come as GObject reports them: a set that leaves the value unchanged may or may not notify,
    /// depending on the class; `g_object_freeze_notify` coalesces changes into one value.
    ///
    /// - Throws: ``GObjectError`` at the call when the class has no readable `property` of a type `Value`
    ///   can represent — not a signal that never sends.
    ///
    /// ```swift
    /// let entry = GObjectHandle(sinking: gtk_entry_new())
    /// let text = try entry.observe(property: "text", as: String.self)
    /// text.subscribe(next: { print("text:", $0) })   // text:
    /// try entry.setText("tether")                     // text: tether
    /// ```
    /// Marble: property set to `a`, then `b`, then the widget destroyed → `a--b--|` (after the current value).
    public func observe<Value: GValueConvertible>(property: String, as type: Value.Type = Value.self)
        throws(GObjectError) -> Signal<Value, Never>
    {
        let access = try PropertyAccess<Value>(object, property, for: .read)
        return access.signal(of: WeakObject(object))
    }

    /// `property`'s value, then its value after each change — as ``observe(property:as:)`` — and read again
    /// after each emission of the signals in `otherSignals`, for a class that changes a property without
    /// emitting `notify` (GIO's network monitors report `connectivity` with `network-changed` only). Repeated
    /// values are sent again: add `distinctUntilChanged()` where only changes matter.
    ///
    /// - Throws: ``GObjectError`` at the call when the class has no readable `property` of a type `Value`
    ///   can represent, or no signal named in `otherSignals`.
    ///
    /// ```swift
    /// let monitor = GObjectHandle(retaining: g_network_monitor_get_default())
    /// let connectivity = try monitor.observe(
    ///     property: "connectivity", as: Int.self, readingAgainOn: ["network-changed"])
    /// connectivity.distinctUntilChanged().subscribe(next: { print("connectivity:", $0) })   // connectivity: 4
    /// ```
    public func observe<Value: GValueConvertible>(
        property: String, as type: Value.Type = Value.self, readingAgainOn otherSignals: [String]
    ) throws(GObjectError) -> Signal<Value, Never> {
        let access = try PropertyAccess<Value>(object, property, for: .read)
        for other in otherSignals { try checkSignal(other) }
        return access.signal(of: WeakObject(object), readingAgainOn: otherSignals)
    }

    /// The text of an editable widget (`GtkEntry`, `GtkSearchEntry`, `GtkText`, …) or of anything with a
    /// `text` property: the current text, then every edit — RAC's `rac_textSignal`. The same as
    /// `observe(property: "text", as: String.self)`.
    ///
    /// ```swift
    /// let search = GObjectHandle(sinking: gtk_search_entry_new())
    /// try search.textSignal().filter { $0.count >= 3 }.subscribe(next: { print("search for", $0) })
    /// ```
    public func textSignal() throws(GObjectError) -> Signal<String, Never> {
        try observe(property: "text", as: String.self)
    }

    /// Sets `property` to every value `source` sends (`RAC(target, property) = signal`), skipping values
    /// the property already holds. The binding holds the object weakly and ends when the object is
    /// disposed, when `source` completes, or when the result is disposed. Values sent on the main thread
    /// are written at once; values sent on another thread (a background search's results) are written on
    /// the main thread through GTK's main context, in the order they were sent.
    ///
    /// - Throws: ``GObjectError`` at the call when the class has no writable `property` of a type `Value`
    ///   can be stored in.
    ///
    /// ```swift
    /// let button = GObjectHandle(sinking: gtk_button_new_with_label("Sign in"))
    /// let formIsValid = MutableProperty(false)
    /// try button.bind(property: "sensitive", to: formIsValid)
    /// formIsValid.value = true   // the button becomes sensitive
    /// ```
    @discardableResult
    public func bind<Value: GValueConvertible>(property: String, to source: some SignalConvertible<Value, Never>)
        throws(GObjectError) -> any Disposable
    {
        let access = try PropertyAccess<Value>(object, property, for: .write)
        return access.bind(WeakObject(object), to: source.signal)
    }

    /// A two-way channel terminal for `property` (RAC's `RACChannelTo(object, property)`): its values are
    /// ``observe(property:as:)``, and what it receives sets the property. Join it with `<~>` to an
    /// `@Observed` property's or a `MutableProperty`'s terminal: each side then follows the other, without
    /// feedback loops. The terminal holds the object weakly; its channel ends when the object is disposed.
    ///
    /// - Throws: ``GObjectError`` when `property` is not readable and writable as `Value`.
    ///
    /// ```swift
    /// final class Form: KeyPathObservable { @Observed var username = "" }
    /// let form = Form()
    /// let entry = GObjectHandle(sinking: gtk_entry_new())
    /// try entry.channel(property: "text", as: String.self) <~> form.channel(\.username)
    /// try entry.setText("ann")                       // form.username == "ann"
    /// form.username = "bob"                          // the entry shows "bob"
    /// ```
    public func channel<Value: GValueConvertible>(property: String, as type: Value.Type = Value.self)
        throws(GObjectError) -> ChannelTerminal<Value, Never>
    {
        let access = try PropertyAccess<Value>(object, property, for: .readWrite)
        return access.channel(WeakObject(object))
    }
}
