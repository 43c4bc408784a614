import CGio

/// A GObject — a GIO `GNetworkMonitor` or `GSettings`, a GTK widget, a `GtkAdjustment`, any `GObject` —
/// seen from Tether: it owns one reference to the object, and its properties and signals become Tether
/// signals and binding targets.
///
/// - Properties → signals (KVO): ``observe(property:as:)`` sends the current value, then each change
///   (`notify::property`), and completes when the object is disposed.
/// - Signals → properties (`RAC(label, text) = …`): ``bind(property:to:)`` writes with
///   `g_object_set_property`, skipping values the property already has; ``channel(property:as:)`` is the
///   two-way form, joined with `<~>` to an `@Observed` property or a `MutableProperty` without feedback.
/// - GObject signals (GTK's target-action): ``connect(_:after:handler:)``, ``signal(named:)`` and
///   ``emit(_:)``; TetherGtk's `GtkControl` makes a widget an `ActionSource`, so a `Command` binds to a
///   button.
///
/// Observations, bindings and connections hold the object weakly (a `GWeakRef`): they never keep it alive,
/// and they end when it goes away. Like GTK itself, a handle is used on the main thread.
///
/// ```swift
/// let monitor = GObjectHandle(retaining: g_network_monitor_get_default())
/// try monitor.observe(property: "network-available", as: Bool.self)
///     .subscribe(next: { print("network available:", $0) })   // network available: true
///
/// let entry = GObjectHandle(sinking: gtk_entry_new())
/// let label = GObjectHandle(sinking: gtk_label_new(""))
/// let text = try entry.observe(property: "text", as: String.self)
/// try label.bind(property: "label", to: text.map { "Hello, \($0)!" })
/// try entry.setText("Ann")
/// print(try label.value(of: "label", as: String.self))   // Hello, Ann!
/// ```
@MainActor
open class GObjectHandle {
    /// The object (this handle holds one strong reference to it).
    ///
    /// ```swift
    /// let button = GObjectHandle(sinking: gtk_button_new_with_label("OK"))
    /// print(String(cString: tether_object_type_name(button.object)))   // GtkButton
    /// ```
    public let object: UnsafeMutablePointer<GObject>

    /// Takes ownership of a new object whose reference may be floating — what GTK's `gtk_*_new`
    /// constructors return (`g_object_ref_sink`).
    ///
    /// ```swift
    /// let label = GObjectHandle(sinking: gtk_label_new("Hello"))
    /// ```
    public init(sinking pointer: some GObjectPointer) {
        object = pointer.gObject
        g_object_ref_sink(object)
        MainQueueIntegration.install()  // GTK's loop runs the main queue (issue 43: no silent dead app)
    }

    /// Adds a reference to an object someone else also holds (a window, which GTK keeps in its toplevel
    /// list; a widget found in a hierarchy).
    ///
    /// ```swift
    /// let window = GObjectHandle(retaining: gtk_window_new())
    /// gtk_window_destroy(window.pointer(as: GtkWindow.self))
    /// ```
    public init(retaining pointer: some GObjectPointer) {
        object = pointer.gObject
        g_object_ref(object)
        MainQueueIntegration.install()  // GTK's loop runs the main queue (issue 43: no silent dead app)
    }

    /// Takes over a reference the caller owns and gives up — what GIO's constructors and getters documented
    /// "transfer full" return (`g_volume_monitor_get`, `g_settings_new`, `g_simple_action_new`): the handle
    /// adds no reference, and drops this one when it goes. A floating reference (a GTK constructor's) is
    /// sunk into it, as ``init(sinking:)`` does.
    ///
    /// ```swift
    /// let volumes = GObjectHandle(taking: g_volume_monitor_get())
    /// print(volumes.typeName)   // GUnionVolumeMonitor
    /// ```
    public init(taking pointer: some GObjectPointer) {
        object = pointer.gObject
        if g_object_is_floating(object) != 0 { g_object_ref_sink(object) }  // the floating reference becomes ours
        MainQueueIntegration.install()  // the default main context's loop runs the main queue (issue 43)
    }

    // Isolated: the reference is dropped on the main thread even when the handle's last owner was not there
    // (such a deinit runs on the main actor: in a GTK app, once MainQueueIntegration is installed).
    isolated deinit {
        g_object_unref(object)
    }

    /// The GObject type's name (`G_OBJECT_TYPE_NAME`), as errors report it.
    ///
    /// ```swift
    /// let label = GObjectHandle(sinking: gtk_label_new("Hi"))
    /// print(label.typeName)   // GtkLabel
    /// ```
    public var typeName: String { String(cString: tether_object_type_name(object)) }

    /// The object as a pointer to `Pointee` — a cast for GTK functions that take a typed pointer
    /// (`GtkWindow *`, `GtkAdjustment *`). Unchecked, as the C cast macros are without their type check:
    /// pass the object's own type or one of its ancestors.
    ///
    /// Only types whose C struct GTK publishes can be named here. GTK 4's final widget types (`GtkLabel`,
    /// `GtkImage`, `GtkSpinner`, `GtkPicture`, …) are opaque in C, so Swift imports their pointers as
    /// `OpaquePointer` and `pointer(as: GtkLabel.self)` does not compile ("cannot find 'GtkLabel' in
    /// scope"): pass ``opaquePointer`` to their functions instead.
    ///
    /// ```swift
    /// let adjustment = GObjectHandle(sinking: gtk_adjustment_new(0, 0, 10, 1, 1, 0))
    /// gtk_adjustment_set_value(adjustment.pointer(as: GtkAdjustment.self), 5)
    /// ```
    public func pointer<Pointee>(as type: Pointee.Type) -> UnsafeMutablePointer<Pointee> {
        UnsafeMutableRawPointer(object).assumingMemoryBound(to: Pointee.self)
    }

    /// The object as an `OpaquePointer`, for the GTK functions whose type Swift imports opaquely: those of
    /// GTK 4's final widget types (`gtk_label_*` take a `GtkLabel *`, `gtk_image_*` a `GtkImage *`, …),
    /// which ``pointer(as:)`` cannot name. Unchecked, as the C cast macros are without their type check:
    /// pass it to functions of the object's own type or of an ancestor.
    ///
    /// ```swift
    /// let label = GObjectHandle(sinking: gtk_label_new(""))
    /// gtk_label_set_text(label.opaquePointer, "Hello")
    /// gtk_label_set_selectable(label.opaquePointer, 1)
    /// print(try label.value(of: "label", as: String.self))   // Hello
    /// ```
    public var opaquePointer: OpaquePointer { OpaquePointer(object) }
}

/// A pointer to a GObject instance of any GTK, GIO or GLib type — typed (`UnsafeMutablePointer<GtkWidget>`),
/// opaque (GTK 4 imports some types, such as `GtkLabel *`, as `OpaquePointer`) or raw — so that
/// ``GObjectHandle`` takes what GTK's constructors return without casts.
///
/// ```swift
/// let fromWidget = GObjectHandle(sinking: gtk_button_new())            // UnsafeMutablePointer<GtkWidget>?
/// let fromAdjustment = GObjectHandle(sinking: gtk_adjustment_new(0, 0, 1, 0.1, 0.1, 0))
/// ```
public protocol GObjectPointer {
    /// The pointer as a `GObject *`.
    var gObject: UnsafeMutablePointer<GObject> { get }
}

extension UnsafeMutablePointer: GObjectPointer {
    /// The pointer, reinterpreted as a `GObject *`.
    ///
    /// ```swift
    /// let widget = gtk_label_new("Hi")!
    /// let object = widget.gObject
    /// ```
    public var gObject: UnsafeMutablePointer<GObject> {
        UnsafeMutableRawPointer(self).assumingMemoryBound(to: GObject.self)
    }
}

extension OpaquePointer: GObjectPointer {
    /// The pointer, reinterpreted as a `GObject *`.
    ///
    /// ```swift
    /// let adjustment: OpaquePointer = OpaquePointer(gtk_adjustment_new(0, 0, 1, 0.1, 0.1, 0)!)
    /// let object = adjustment.gObject
    /// ```
    public var gObject: UnsafeMutablePointer<GObject> {
        UnsafeMutablePointer<GObject>(self)
    }
}

extension Optional: GObjectPointer where Wrapped: GObjectPointer {
    /// The wrapped pointer; a `nil` pointer (a constructor that failed) stops the program with a message,
    /// as GTK's own constructors do not return `NULL` for valid arguments.
    ///
    /// ```swift
    /// let button: UnsafeMutablePointer<GtkWidget>? = gtk_button_new()
    /// let object = button.gObject
    /// ```
    public var gObject: UnsafeMutablePointer<GObject> {
        guard let self else { preconditionFailure("TetherGObject: a NULL GObject pointer was passed to GObjectHandle") }
        return self.gObject
    }
}
