import CGio

/// One connected GObject signal handler, as a `Disposable`: disposing disconnects it
/// (`g_signal_handler_disconnect`). Made by ``GObjectHandle/connect(_:after:handler:)``, and inside every
/// observation and binding of TetherGObject, TetherGio (GSettings keys, the network and volume monitors)
/// and TetherGtk: the one signal-connection implementation of the package.
///
/// The connection holds the object through a `GWeakRef`: it never keeps the object alive, and disposing
/// after the object was finalized — or after GTK destroyed the widget, which drops its handlers — does
/// nothing instead of a GLib critical. Disposing on another thread than the object's disconnects on the
/// object's thread (the main thread, through the default `GMainContext`, unless the connection was made for
/// another main context); the handler runs nothing once `dispose()` returned.
///
/// ```swift
/// let button = GObjectHandle(sinking: gtk_button_new_with_label("OK"))
/// let connection = try button.connect("clicked") { _ in print("clicked") }
/// button.emit("clicked")    // clicked
/// connection.dispose()
/// button.emit("clicked")    // nothing
/// ```
public final class GSignalConnection: Disposable, @unchecked Sendable {
    // Safety: `box` is thread-safe (its lock and atomics); `object` is a thread-safe weak reference; the
    // disconnection itself runs where `disconnectOn` puts it (the object's thread).
    private let box: HandlerBox
    private let object: WeakObject
    private let disconnectOn: @Sendable (@escaping @Sendable () -> Void) -> Void

    /// The handler ID GLib returned (`g_signal_connect_closure`).
    ///
    /// ```swift
    /// let button = GObjectHandle(sinking: gtk_button_new_with_label("OK"))
    /// let connection = try button.connect("clicked") { _ in }
    /// print(connection.handlerID > 0)   // true
    /// ```
    public let handlerID: UInt

    init(
        box: HandlerBox, object: WeakObject, handlerID: UInt,
        disconnectOn: @escaping @Sendable (@escaping @Sendable () -> Void) -> Void
    ) {
        self.box = box
        self.object = object
        self.handlerID = handlerID
        self.disconnectOn = disconnectOn
    }

    /// The number of handlers TetherGObject has connected (for itself, TetherGio and TetherGtk) whose
    /// closures GLib still holds, process-wide: each observation, binding and connection adds one until it
    /// is disposed or its object is disposed.
    /// Tests use it to check that nothing leaks.
    ///
    /// ```swift
    /// let before = GSignalConnection.liveCount
    /// do {
    ///     let button = GObjectHandle(sinking: gtk_button_new_with_label("OK"))
    ///     try button.connect("clicked") { _ in }
    /// }
    /// print(GSignalConnection.liveCount == before)   // true: the button was finalized
    /// ```
    public static var liveCount: Int { HandlerBox.live.load(ordering: .relaxed) }

    /// Whether ``dispose()`` was called.
    ///
    /// ```swift
    /// let button = GObjectHandle(sinking: gtk_button_new_with_label("OK"))
    /// let connection = try button.connect("clicked") { _ in }
    /// connection.dispose()
    /// print(connection.isDisposed)   // true
    /// ```
    public var isDisposed: Bool { box.isDisposed }

    /// Whether the handler is still connected: not disposed, and its object not disposed.
    ///
    /// ```swift
    /// let button = GObjectHandle(sinking: gtk_button_new_with_label("OK"))
    /// let connection = try button.connect("clicked") { _ in }
    /// print(connection.isConnected)   // true
    /// ```
    public var isConnected: Bool { !box.isDisposed && !box.hasEnded }

    /// Disconnects the handler (idempotent; safe after the object is gone).
    ///
    /// ```swift
    /// let entry = GObjectHandle(sinking: gtk_entry_new())
    /// let connection = try entry.connect("activate") { _ in print("enter") }
    /// connection.dispose()
    /// ```
    public func dispose() {
        guard box.markDisposed() else { return }
        let box = box
        let object = object
        let handlerID = handlerID
        disconnectOn {
            if box.hasEnded { return }
            object.withObject { instance in
                if g_signal_handler_is_connected(instance, gulong(handlerID)) != 0 {
                    g_signal_handler_disconnect(instance, gulong(handlerID))
                }
            }
        }
    }

    /// Connects `body` to `detailedSignal` (already validated) on `instance`. `body` runs on the thread that
    /// emits; `onEnd` when GLib drops the handler by itself (the object disposed). `disconnectOn` runs a
    /// disposal's disconnection on the object's thread: by default the main thread (GTK's objects and those
    /// of the default main context); TetherGio passes its handle's context for a GSettings object made on
    /// another thread.
    package static func connect(
        _ instance: UnsafeMutablePointer<GObject>, _ detailedSignal: String, after: Bool,
        body: @escaping @Sendable (GSignalArguments) -> Void, onEnd: (@Sendable () -> Void)? = nil,
        disconnectOn: @escaping @Sendable (@escaping @Sendable () -> Void) -> Void = onMainThread
    ) -> GSignalConnection {
        let box = HandlerBox(body: body, onEnd: onEnd)
        let closure = box.makeClosure()
        let id = g_signal_connect_closure(instance, detailedSignal, closure, after ? 1 : 0)
        if id == 0 {
            // Not connected (the caller validated the name, so this is unexpected): drop the floating
            // closure (sinking it drops its only reference), which finalizes it and releases the box.
            g_closure_sink(closure)
        }
        return GSignalConnection(
            box: box, object: WeakObject(instance), handlerID: UInt(id), disconnectOn: disconnectOn)
    }
}
