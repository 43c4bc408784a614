import CGio
import Foundation

extension GObjectHandle {
    /// Connects `handler` to the signal `detailedSignal` (`"clicked"`, `"notify::text"`, …) — GTK's
    /// target-action. The handler runs on the thread that emits (GTK: the main thread) with the emission's
    /// arguments; disposing the result disconnects it. The connection holds the object weakly and ends
    /// by itself when the object is disposed.
    ///
    /// - Throws: ``GObjectError/noSuchSignal(type:signal:)`` when the object's class has no such signal.
    ///
    /// ```swift
    /// let button = GObjectHandle(sinking: gtk_button_new_with_label("OK"))
    /// let clicks = try button.connect("clicked") { _ in print("clicked") }
    /// button.emit("clicked")   // clicked
    /// clicks.dispose()
    /// ```
    @discardableResult
    public func connect(
        _ detailedSignal: String, after: Bool = false, handler: @escaping @MainActor (GSignalArguments) -> Void
    ) throws(GObjectError) -> GSignalConnection {
        try checkSignal(detailedSignal)
        return connectOnMainActor(object, detailedSignal, after: after, handler)
    }

    /// A signal that sends each time the object emits `detailedSignal` — `clicked`, `activate`, `changed`,
    /// `toggled`, … as a Tether signal (RAC's `rac_signalForControlEvents:` for one GTK signal). Each
    /// subscription connects a handler; disposing it disconnects; it completes when the object is disposed.
    /// The signal holds the object weakly.
    ///
    /// - Throws: ``GObjectError/noSuchSignal(type:signal:)`` at the call when the class has no such signal.
    ///
    /// ```swift
    /// let entry = GObjectHandle(sinking: gtk_entry_new())
    /// try entry.signal(named: "activate").subscribe(next: { print("enter pressed") })
    /// entry.emit("activate")   // enter pressed
    /// ```
    public func signal(named detailedSignal: String) throws(GObjectError) -> Signal<Void, Never> {
        try checkSignal(detailedSignal)
        return emissions(of: detailedSignal, on: WeakObject(object)) { _ in () }
    }

    /// A signal that sends, for each emission of `detailedSignal`, what `transform` makes of the emission's
    /// arguments (`nil`: nothing is sent) — for signals whose parameters matter, such as a volume monitor's
    /// `mount-added` (its mount) or a network monitor's `network-changed` (whether the network is
    /// available). `transform` runs during the emission, on the thread that emits: the arguments are valid
    /// only then, so it copies what it needs into a `Sendable` value. Each subscription connects a handler;
    /// disposing it disconnects; it completes when the object is disposed. The signal holds the object
    /// weakly.
    ///
    /// - Throws: ``GObjectError/noSuchSignal(type:signal:)`` at the call when the class has no such signal.
    ///
    /// ```swift
    /// let monitor = GObjectHandle(retaining: g_network_monitor_get_default())
    /// let changes = try monitor.signal(named: "network-changed") { $0.value(at: 1, as: Bool.self) }
    /// changes.subscribe(next: { print("network changed; available:", $0) })
    /// ```
    public func signal<Value: Sendable>(
        named detailedSignal: String, _ transform: @escaping @Sendable (GSignalArguments) -> Value?
    ) throws(GObjectError) -> Signal<Value, Never> {
        try checkSignal(detailedSignal)
        return emissions(of: detailedSignal, on: WeakObject(object), transform)
    }

    /// Emits `signalName` with no arguments besides the instance (`g_signal_emitv`) — how a test clicks a
    /// button or activates an entry. Signals with parameters, or unknown names, are not emitted:
    /// the result is `false`.
    ///
    /// ```swift
    /// let button = GObjectHandle(sinking: gtk_button_new_with_label("OK"))
    /// button.emit("clicked")
    /// ```
    @discardableResult
    public func emit(_ signalName: String) -> Bool {
        var signalID: guint = 0
        var detail: GQuark = 0
        guard g_signal_parse_name(signalName, tether_object_type(object), &signalID, &detail, 0) != 0 else {
            return false
        }
        var query = GSignalQuery()
        g_signal_query(signalID, &query)
        guard query.n_params == 0 else { return false }
        var instance = GValue()
        g_value_init(&instance, tether_object_type(object))
        g_value_set_object(&instance, object)
        defer { g_value_unset(&instance) }
        let returnType = query.return_type & ~tether_signal_type_static_scope()
        if returnType == tether_gtype_none() {
            g_signal_emitv(&instance, signalID, detail, nil)
        } else {
            var result = GValue()
            g_value_init(&result, returnType)
            g_signal_emitv(&instance, signalID, detail, &result)
            g_value_unset(&result)
        }
        return true
    }

    package func checkSignal(_ detailedSignal: String) throws(GObjectError) {
        var signalID: guint = 0
        var detail: GQuark = 0
        guard g_signal_parse_name(detailedSignal, tether_object_type(object), &signalID, &detail, 0) != 0 else {
            throw .noSuchSignal(type: typeName, signal: detailedSignal)
        }
    }
}

/// A handler made for the main thread was emitted on another one: dropped, with one line on standard error.
private func reportOffMainEmission(_ signal: String) {
    let message = "TetherGObject: \"\(signal)\" was emitted off the main thread; the handler did not run\n"
    FileHandle.standardError.write(Data(message.utf8))
}

/// Connects a main-actor handler; nonisolated so that the trampoline itself assumes nothing.
private func connectOnMainActor(
    _ object: UnsafeMutablePointer<GObject>, _ detailedSignal: String, after: Bool,
    _ handler: @escaping @MainActor (GSignalArguments) -> Void
) -> GSignalConnection {
    GSignalConnection.connect(
        object, detailedSignal, after: after,
        body: { arguments in
            guard isOnMainThread else {
                reportOffMainEmission(detailedSignal)
                return
            }
            // On the main thread, so the arguments do not cross threads.
            let arguments = UncheckedTransfer(arguments)
            MainActor.assumeIsolated { handler(arguments.value) }
        })
}

/// Each emission of `detailedSignal` as a value (`transform`'s); completes when the object is disposed.
private func emissions<Value: Sendable>(
    of detailedSignal: String, on weakObject: WeakObject,
    _ transform: @escaping @Sendable (GSignalArguments) -> Value?
) -> Signal<Value, Never> {
    Signal { observer in
        weakObject.withObject { instance -> (any Disposable)? in
            GSignalConnection.connect(
                instance, detailedSignal, after: false,
                body: { arguments in if let value = transform(arguments) { observer.send(value) } },
                onEnd: { observer.sendCompleted() })
        }
            ?? {
                observer.sendCompleted()
                return nil
            }()
    }
}
