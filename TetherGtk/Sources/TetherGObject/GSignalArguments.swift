import CGio

/// The arguments of one GObject signal emission, as a handler connected with
/// ``GObjectHandle/connect(_:after:handler:)`` receives them: `GValue`s read on demand, index 0 being the
/// emitting instance. Valid only during the handler's call.
///
/// ```swift
/// let adjustment = GObjectHandle(sinking: gtk_adjustment_new(0, 0, 10, 1, 1, 0))
/// try adjustment.connect("notify::value") { arguments in
///     print("argument count:", arguments.count)   // 2: the instance and the GParamSpec
/// }
/// ```
public struct GSignalArguments {
    private let values: UnsafePointer<GValue>?
    private let returnValue: UnsafeMutablePointer<GValue>?

    /// The number of arguments, the instance included.
    ///
    /// ```swift
    /// let button = GObjectHandle(sinking: gtk_button_new_with_label("OK"))
    /// try button.connect("clicked") { arguments in print(arguments.count) }   // 1
    /// ```
    public let count: Int

    /// The emitting object (argument 0).
    ///
    /// ```swift
    /// let button = GObjectHandle(sinking: gtk_button_new_with_label("OK"))
    /// try button.connect("clicked") { arguments in print(arguments.instance == button.object) }   // true
    /// ```
    public var instance: UnsafeMutablePointer<GObject>? {
        guard let values, count > 0, tether_object_is_a_value(values) != 0 else { return nil }
        return g_value_get_object(values)?.assumingMemoryBound(to: GObject.self)
    }

    init(values: UnsafePointer<GValue>?, count: Int, returnValue: UnsafeMutablePointer<GValue>?) {
        self.values = values
        self.count = count
        self.returnValue = returnValue
    }

    /// The argument at `index` (1 is the signal's first parameter) as `type`, or `nil` when out of range
    /// or of another type.
    ///
    /// ```swift
    /// let adjustment = GObjectHandle(sinking: gtk_adjustment_new(0, 0, 10, 1, 1, 0))
    /// let check = GObjectHandle(sinking: gtk_check_button_new())
    /// try check.connect("notify::active") { arguments in
    ///     print(arguments.value(at: 5, as: Bool.self) as Any)   // nil: there is no 6th argument
    /// }
    /// ```
    public func value<Value: GValueConvertible>(at index: Int, as type: Value.Type = Value.self) -> Value? {
        guard let values, index >= 0, index < count else { return nil }
        return Value(gValue: values + index)
    }

    /// The object argument at `index` (a `GObject` or an interface such as `GMount`), or `nil` when out of
    /// range, not an object, or `NULL`. Not retained: valid during the handler's call; take a reference
    /// (`g_object_ref`) to keep it.
    ///
    /// ```swift
    /// let monitor = GObjectHandle(taking: g_volume_monitor_get())
    /// try monitor.connect("mount-added") { arguments in
    ///     if let mount = arguments.object(at: 1) {
    ///         print("mounted:", String(cString: tether_object_type_name(mount)))
    ///     }
    /// }
    /// ```
    public func object(at index: Int) -> UnsafeMutablePointer<GObject>? {
        guard let values, index >= 0, index < count, tether_object_is_a_value(values + index) != 0 else {
            return nil
        }
        return g_value_get_object(values + index)?.assumingMemoryBound(to: GObject.self)
    }

    /// Sets the emission's return value (for signals that return one, such as `close-request`);
    /// `false` when the signal returns nothing or another type.
    ///
    /// ```swift
    /// let window = GObjectHandle(retaining: gtk_window_new())
    /// try window.connect("close-request") { arguments in
    ///     _ = arguments.setReturnValue(true)   // true: the window stays open
    /// }
    /// ```
    public func setReturnValue<Value: GValueConvertible>(_ value: Value) -> Bool {
        guard let returnValue, tether_value_type(returnValue) != tether_gtype_invalid() else { return false }
        return value.store(in: returnValue)
    }
}
