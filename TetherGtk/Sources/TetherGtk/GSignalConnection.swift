import CGtk

/// One connected GObject signal handler, as a `Disposable`: disposing disconnects it
/// (`g_signal_handler_disconnect`). Made by ``GObjectHandle/connect(_:after:handler:)``, and inside every
/// observation and binding of TetherGtk.
///
/// The connection holds the object through a `GWeakRef`: it never keeps the object alive, and disposing
/// after the object was finalized — or after GTK destroyed the widget, which drops its handlers — does
/// nothing instead of a GLib critical. Disposing on another thread than the main one disconnects on the
/// main thread (through the default `GMainContext`); the handler runs nothing once `dispose()` returned.
///
/// ```swift
/// let button = GObjectHandle(sinking: gtk_button_new_with_label("OK"))
/// let connection = try button.connect("clicked") { _ in print("clicked") }
/// button.emit("clicked")    // clicked
/// connection.dispose()
/// button.emit("clicked")    // nothing
/// ```
public final class GSignalConnection: Disposable, @unchecked Sendable {
    // Safety: `box` is thread-safe for the flags used here; `object` is a thread-safe weak reference; the
    // disconnection itself runs on the main thread.
    private let box: HandlerBox
    private let object: WeakObject

    /// The handler ID GLib returned (`g_signal_connect_closure`).
    ///
    /// ```swift
    /// let button = GObjectHandle(sinking: gtk_button_new_with_label("OK"))
    /// let connection = try button.connect("clicked") { _ in }
    /// print(connection.handlerID > 0)   // true
    /// ```
    public let handlerID: UInt

    init(box: HandlerBox, object: WeakObject, handlerID: UInt) {
        self.box = box
        self.object = object
        self.handlerID = handlerID
    }

    /// The number of handlers TetherGtk has connected whose closures GLib still holds, process-wide:
    /// each observation, binding and connection adds one until it is disposed or its object is disposed.
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
        onMainThread {
            if box.hasEnded { return }
            object.withObject { instance in
                if g_signal_handler_is_connected(instance, gulong(handlerID)) != 0 {
                    g_signal_handler_disconnect(instance, gulong(handlerID))
                }
            }
        }
    }

    /// Connects `body` to `detailedSignal` (already validated) on `instance`.
    static func connect(
        _ instance: UnsafeMutablePointer<GObject>, _ detailedSignal: String, after: Bool,
        body: @escaping (GSignalArguments) -> Void, onEnd: (() -> Void)? = nil
    ) -> GSignalConnection {
        let box = HandlerBox(body: body, onEnd: onEnd)
        let closure = box.makeClosure()
        let id = g_signal_connect_closure(instance, detailedSignal, closure, after ? 1 : 0)
        if id == 0 {
            // Not connected (the caller validated the name, so this is unexpected): drop the floating
            // closure (sinking it drops its only reference), which finalizes it and releases the box.
            g_closure_sink(closure)
        }
        return GSignalConnection(box: box, object: WeakObject(instance), handlerID: UInt(id))
    }
}
