import CGtk
import TetherGObject

/// A GTK widget as a Tether `ActionSource` (the selector-less target-action registry): the widget's GTK
/// signals send control events — a button's `clicked` is `.primaryAction` — so `addAction(for:_:)`,
/// `signal(for:)` and, above all, `bind(command:)` work on GTK widgets as on any control.
///
/// Binding a `Command` (RAC's `button.rac_command = command`) makes the command's `enabled` drive the
/// widget's `sensitive` property (through `isEnabled`), and each click execute the command.
///
/// The control lives as long as its widget: you need not keep it. While anything besides the control
/// holds the widget (a box or window it was added to), the widget keeps the control — its actions, its
/// bound command — alive, through a GObject toggle reference, as language bindings of GObject tie a
/// wrapper to its object; once the widget is removed or its window destroyed, the control goes when you
/// no longer hold it, and the widget with it. (A widget that another binding also holds by a toggle
/// reference cannot be followed so: keep the control then.)
///
/// ```swift
/// let signIn = Command { print("signing in") }
/// let button = GtkControl(button: gtk_button_new_with_label("Sign in"))
/// button.bind(command: signIn, input: { _ in () })
/// button.emit("clicked")   // signing in
/// ```
public final class GtkControl: GObjectHandle, ActionSource {
    /// The control's action registry; GTK signals send into it, and it drops sends while disabled.
    ///
    /// ```swift
    /// let button = GtkControl(button: gtk_button_new_with_label("OK"))
    /// print(button.actions.count)   // 0
    /// ```
    public nonisolated let actions = ActionRegistry<GtkControl>()

    private var connections: [GSignalConnection] = []
    private var sensitivity: (any Disposable)?
    /// What the widget's toggle reference holds: the control, strongly while others hold the widget.
    private nonisolated let keeper = ControlKeeper()

    /// Wraps `widget`, sending `events` for each GTK signal in `signals` (for example
    /// `["toggled": .valueChanged]` for a check button).
    ///
    /// - Throws: `GObjectError.noSuchSignal(type:signal:)` when the widget has no such signal.
    ///
    /// ```swift
    /// let check = try GtkControl(sinking: gtk_check_button_new_with_label("Remember me"),
    ///                            signals: ["toggled": .valueChanged])
    /// check.addAction(for: .valueChanged) { _ in print("toggled") }
    /// ```
    public init(sinking widget: some GObjectPointer, signals: [String: ControlEvents]) throws(GObjectError) {
        super.init(sinking: widget)
        for (name, events) in signals.sorted(by: { $0.key < $1.key }) {
            try checkSignal(name)
            connections.append(forwardActions(of: object, name, as: events, to: self))
        }
        // `isEnabled` (what a bound command sets) shows as the widget's sensitivity.
        if let access = try? PropertyAccess<Bool>(object, "sensitive", for: .write) {
            sensitivity = access.bind(WeakObject(object), to: actions.enabled)
        }
        // The control's reference to the widget becomes a toggle reference: GObject tells the keeper when
        // it becomes the last one (nobody else holds the widget: let the control go) and when it stops
        // being so (the widget was added somewhere: keep the control). The link starts strong, as GObject's
        // does; the unref below reports at once if nobody else holds the widget.
        keeper.hold(self)
        g_object_add_toggle_ref(object, controlToggled, Unmanaged.passUnretained(keeper).toOpaque())
        g_object_unref(object)
    }

    /// A button (`GtkButton` and its subclasses): `clicked` sends `.primaryAction` and `.touchUpInside`.
    /// Another widget is wrapped too, but sends nothing.
    ///
    /// ```swift
    /// let button = GtkControl(button: gtk_button_new_with_label("OK"))
    /// button.addAction(for: .primaryAction) { _ in print("OK") }
    /// ```
    public convenience init(button: some GObjectPointer) {
        // Only signals the widget has: a widget that is not a button sends nothing, and nothing throws.
        try! self.init(sinking: button, signals: existing(["clicked": [.primaryAction, .touchUpInside]], on: button))
    }

    /// An editable entry (`GtkEntry`, `GtkSearchEntry`): `activate` (Enter) sends `.primaryAction` and
    /// `.editingDidEndOnExit`; `changed` sends `.editingChanged`. Another widget sends only the events of
    /// the signals it has.
    ///
    /// ```swift
    /// let entry = GtkControl(entry: gtk_entry_new())
    /// entry.addAction(for: .editingChanged) { _ in print("edited") }
    /// ```
    public convenience init(entry: some GObjectPointer) {
        // Only signals the widget has: a widget that is not an entry sends nothing, and nothing throws.
        let signals: [String: ControlEvents] = [
            "activate": [.primaryAction, .editingDidEndOnExit], "changed": .editingChanged,
        ]
        try! self.init(sinking: entry, signals: existing(signals, on: entry))
    }

    isolated deinit {
        sensitivity?.dispose()
        for connection in connections { connection.dispose() }
        // Back to a plain reference for GObjectHandle's deinit to drop (the keeper ignores the notification
        // the new reference causes).
        keeper.detach()
        g_object_ref(object)
        g_object_remove_toggle_ref(object, controlToggled, Unmanaged.passUnretained(keeper).toOpaque())
    }
}

/// The other end of a control's toggle reference: holds the control strongly while its widget has other
/// owners. Thread-safe (GObject notifies on whichever thread adds or drops a reference), with the
/// package's one lock (TetherGObject's `Locked`).
private final class ControlKeeper: Sendable {
    private struct State {
        weak var control: GtkControl?
        var held: GtkControl?
        var detached = false
    }
    private let state = Locked(State())

    /// Follows `control`, and holds it.
    func hold(_ control: GtkControl) {
        state.withLock {
            $0.control = control
            if !$0.detached { $0.held = control }
        }
    }

    /// The widget has other owners again: holds the control, if it is still there.
    func holdAgain() {
        state.withLock { if !$0.detached { $0.held = $0.control } }
    }

    /// Lets the control go; its last release (and deinit) happens here, with no lock held.
    func release() {
        let control = state.withLock { state -> GtkControl? in
            defer { state.held = nil }
            return state.held
        }
        withExtendedLifetime(control) {}
    }

    /// The control is going away: ignore later notifications.
    func detach() {
        state.withLock {
            $0.detached = true
            $0.held = nil
        }
    }
}

/// GObject's toggle notification: `isLastRef` when the control's reference became the widget's only one.
private let controlToggled: GToggleNotify = { data, _, isLastRef in
    guard let data else { return }
    let keeper = Unmanaged<ControlKeeper>.fromOpaque(data).takeUnretainedValue()
    if isLastRef != 0 { keeper.release() } else { keeper.holdAgain() }
}

/// The entries of `signals` that `widget`'s class has.
private func existing(_ signals: [String: ControlEvents], on widget: some GObjectPointer) -> [String: ControlEvents] {
    let type = tether_object_type(widget.gObject)
    return signals.filter { name, _ in
        var signalID: guint = 0
        var detail: GQuark = 0
        return g_signal_parse_name(name, type, &signalID, &detail, 0) != 0
    }
}

/// Sends `events` from `control` on each emission of `signal` (nonisolated: the handler assumes nothing
/// about the thread; the registry is thread-safe).
private func forwardActions(
    of object: UnsafeMutablePointer<GObject>, _ signal: String, as events: ControlEvents, to control: GtkControl
) -> GSignalConnection {
    weak let control = control
    return GSignalConnection.connect(
        object, signal, after: false,
        body: { _ in
            guard let control else { return }
            control.sendActions(for: events)
        })
}
