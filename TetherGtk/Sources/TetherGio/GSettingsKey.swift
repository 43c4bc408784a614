import CGio
import TetherGObject

/// One key of a ``GSettingsHandle``, typed: made by ``GSettingsHandle/key(_:as:)``, which checks the
/// name and the type once. Read it (``value``), write it (``set(_:)``), observe it (it is a
/// `SignalConvertible`: every operator applies), bind signals into it (``bind(to:)`` or `<~`) and link it
/// both ways (``channel()``).
///
/// ```swift
/// let settings = try GSettingsHandle(schema: "org.example.App", schemaDirectory: "schemas")
/// let username = try settings.key("username", as: String.self)
/// username.map { $0.isEmpty ? "Sign in" : "Hello, \($0)" }.subscribe(next: { print($0) })
/// let typed = Subject<String, Never>()
/// username <~ typed            // each value typed is stored
/// typed.send("ann")
/// ```
public struct GSettingsKey<Value: GVariantConvertible>: SignalConvertible, Sendable {
    /// The settings object the key belongs to (kept alive by the key).
    ///
    /// ```swift
    /// let settings = try GSettingsHandle(schema: "org.example.App", schemaDirectory: "schemas")
    /// let key = try settings.key("username", as: String.self)
    /// print(key.settings.schemaID)   // org.example.App
    /// ```
    public let settings: GSettingsHandle

    /// The key's name in the schema.
    ///
    /// ```swift
    /// let settings = try GSettingsHandle(schema: "org.example.App", schemaDirectory: "schemas")
    /// print(try settings.key("username", as: String.self).name)   // username
    /// ```
    public let name: String

    init(settings: GSettingsHandle, name: String) {
        self.settings = settings
        self.name = name
    }

    /// The stored value, or the schema's default when nothing is stored.
    ///
    /// ```swift
    /// let settings = try GSettingsHandle(schema: "org.example.App", schemaDirectory: "schemas")
    /// print(try settings.key("remember-me", as: Bool.self).value)
    /// ```
    public var value: Value {
        // The key's type was checked against Value when the key was made: GSettings returns a variant
        // of that type.
        settings.read(name)!
    }

    /// Stores `value`.
    ///
    /// - Throws: ``GSettingsError/outOfRange(schema:key:value:)`` for a value outside the key's range or
    ///   choices (or beyond 32 bits for an `i` key), ``GSettingsError/notWritable(schema:key:)``.
    ///
    /// ```swift
    /// let settings = try GSettingsHandle(schema: "org.example.App", schemaDirectory: "schemas")
    /// try settings.key("window-width", as: Int.self).set(1024)
    /// ```
    public func set(_ value: Value) throws(GSettingsError) {
        try settings.write(value, to: name)
    }

    /// The current value, then each change (GSettings' `changed::key`, from this process or another that
    /// shares the backend), without repeats. The current value is sent at once, on the thread that
    /// subscribes (GSettings reads are synchronous), as `observe`, `MutableProperty` and `BehaviorSubject`
    /// do: `subscribe` returns with it delivered, on any thread. Changes are sent on the handle's loop thread
    /// (the main thread, usually; see ``GSettingsHandle``) when its loop runs; a change made between the first
    /// read and the watch's start is read again there, so none is missed. A value is read when it is sent,
    /// so changes that follow each other before the loop runs arrive as the latest of them. Disposing
    /// disconnects.
    ///
    /// ```swift
    /// let settings = try GSettingsHandle(schema: "org.example.App", schemaDirectory: "schemas")
    /// try settings.key("window-width", as: Int.self).signal.subscribe(next: { print("width", $0) })
    /// ```
    /// Marble: stored `a`, then `gsettings set … b`, then `b` again, then `c` → `a-b--c`.
    public var signal: Signal<Value, Never> {
        let settings = settings
        let name = name
        return Signal<Value, Never> { observer in
            let subscription = ChangedSubscription()
            // The current value now, on this thread (issue 43: a subscriber off the loop thread had nothing
            // when `subscribe` returned); the watch then starts on the loop thread and reads again there.
            if let value: Value = settings.read(name) { observer.send(value) }
            settings.onContext {
                subscription.start(settings, key: name) {
                    // On the loop thread: GLib may emit `changed` on the thread that wrote.
                    settings.onContext {
                        if let value: Value = settings.read(name) { observer.send(value) }
                    }
                }
            }
            return subscription
        }
        .distinctUntilChanged()
    }

    /// A two-way channel terminal for the key: its values are ``signal``'s, and what it receives is stored
    /// without being sent back to it (the echo is recognized by its value). A value the key refuses is not
    /// stored; it goes to ``GSettingsHandle/rejectedWrites``.
    ///
    /// ```swift
    /// final class Preferences: KeyPathObservable { @Observed var width = 640 }
    /// let preferences = Preferences()
    /// let settings = try GSettingsHandle(schema: "org.example.App", schemaDirectory: "schemas")
    /// preferences.channel(\.width) <~> (try settings.key("window-width", as: Int.self)).channel()
    /// ```
    public func channel() -> ChannelTerminal<Value, Never> {
        let settings = settings
        let name = name
        return ChannelTerminal(values: signal, set: { value in settings.writeReporting(value, to: name) })
    }

    /// Stores every value of `source` until it completes or the result is disposed (on the thread that
    /// sends it: GSettings writes from any thread). A value the key refuses is not stored; it goes to
    /// ``GSettingsHandle/rejectedWrites``.
    ///
    /// ```swift
    /// let settings = try GSettingsHandle(schema: "org.example.App", schemaDirectory: "schemas")
    /// let rememberMe = MutableProperty(false)
    /// try settings.key("remember-me", as: Bool.self).bind(to: rememberMe)
    /// ```
    @discardableResult
    public func bind(to source: some SignalConvertible<Value, Never>) -> any Disposable {
        let settings = settings
        let name = name
        return source.signal.subscribe(next: { value in settings.writeReporting(value, to: name) })
    }

    /// `key <~ source` is ``bind(to:)``.
    ///
    /// ```swift
    /// let settings = try GSettingsHandle(schema: "org.example.App", schemaDirectory: "schemas")
    /// let username = try settings.key("username", as: String.self)
    /// username <~ Signal(value: "ann")
    /// ```
    @discardableResult
    public static func <~ (key: GSettingsKey, source: some SignalConvertible<Value, Never>) -> any Disposable {
        key.bind(to: source)
    }
}

/// One subscription's `changed::key` handler (TetherGObject's `GSignalConnection`): connected on the
/// handle's main context, disconnected on dispose, at once on the disposing thread
/// (`g_signal_handler_disconnect` is thread-safe, and GSettings objects are used from any thread).
private final class ChangedSubscription: Disposable, Sendable {
    private let state = Locked<(connection: GSignalConnection?, disposed: Bool)>((nil, false))

    var isDisposed: Bool { state.withLock { $0.disposed } }

    /// Connects `changed::key`, then sends the current value (reading after connecting is what makes
    /// GSettings report the key's changes). GLib is called with no lock held.
    func start(_ settings: GSettingsHandle, key: String, send: @escaping @Sendable () -> Void) {
        if isDisposed { return }
        let connection = GSignalConnection.connect(
            settings.settings.gObject, "changed::" + key, after: false, body: { _ in send() },
            disconnectOn: { disconnect in disconnect() })
        let kept = state.withLock { state -> Bool in
            if state.disposed { return false }
            state.connection = connection
            return true
        }
        guard kept else {
            connection.dispose()  // disposed while connecting
            return
        }
        send()
    }

    func dispose() {
        let connection = state.withLock { state -> GSignalConnection? in
            if state.disposed { return nil }
            state.disposed = true
            defer { state.connection = nil }
            return state.connection
        }
        connection?.dispose()
    }
}
