import CGio
import Foundation
import TetherGObject

#if canImport(Glibc)
    import Glibc
#endif

/// A GSettings object (`GSettings *`) for one schema — GNOME's `NSUserDefaults`, with change
/// notification: keys as signals (``observe(key:as:)``), two-way channels (``channel(key:as:)``) and
/// binding targets (``bind(_:to:)``, or `<~` on a ``GSettingsKey``).
///
/// Everything GLib would abort or log a critical for is checked first and thrown as a ``GSettingsError``:
/// an unknown or relocatable schema, a bad path, an unknown key, a Swift type that is not the key's type,
/// a value out of the key's range.
///
/// **Threads.** GSettings and its backends guard their own state, so keys may be read and written from any
/// thread. Observations send their values on the handle's *loop thread*: the main thread when the handle
/// is made where the default main context is the thread's default (the usual case: GTK's loop, a daemon's
/// `g_main_loop_run`), otherwise the thread that made it, whose own context
/// (`g_main_context_push_thread_default`) it must iterate. A subscription gets the current value at once,
/// on the thread that subscribes, whatever it is; a change is sent on the loop thread when the loop next
/// runs.
///
/// ```swift
/// // A schema compiled by glib-compile-schemas next to the program, read from a file of its own:
/// let settings = try GSettingsHandle(
///     schema: "org.example.App", schemaDirectory: "schemas", backend: .keyfile(path: "app-settings.ini"))
/// try settings.set("ann", forKey: "username")
/// let username = try settings.observe(key: "username", as: String.self)
/// username.subscribe(next: { print("username:", $0) })   // username: ann, then each change
/// ```
public final class GSettingsHandle: @unchecked Sendable {
    // Safety: every stored property is immutable; GSettings objects and their backends lock their own state
    // (reads, writes and signal connections are thread-safe in GIO); `rejected` is a thread-safe subject.
    let settings: UnsafeMutablePointer<GSettings>
    private let schema: OpaquePointer
    private let scheduler: MainContextScheduler
    /// The thread that runs the handle's context: `nil` for the default main context (the main thread).
    private let thread: pthread_t?
    private let rejected = Subject<GSettingsError, Never>()

    /// The schema's id.
    ///
    /// ```swift
    /// let settings = try GSettingsHandle(schema: "org.example.App", schemaDirectory: "schemas")
    /// print(settings.schemaID)   // org.example.App
    /// ```
    public let schemaID: String

    /// The path the keys are stored under (the schema's own, or the one given for a relocatable schema).
    ///
    /// ```swift
    /// let settings = try GSettingsHandle(schema: "org.example.App", schemaDirectory: "schemas")
    /// print(settings.path)   // /org/example/app/
    /// ```
    public let path: String

    /// Where the values are stored.
    ///
    /// ```swift
    /// let inMemory = GSettingsHandle.Backend.memory
    /// let inAFile = GSettingsHandle.Backend.keyfile(path: "/tmp/example-settings.ini")
    /// ```
    public enum Backend: Sendable, Equatable {
        /// GIO's default: `GSETTINGS_BACKEND` if set, otherwise dconf where installed (the desktop's
        /// settings, shared by every program of the session), otherwise memory.
        case `default`
        /// In this process only, gone when it exits (`g_memory_settings_backend_new`).
        case memory
        /// A key file (`g_keyfile_settings_backend_new`, root path `/`): other programs that use the same
        /// file — `GSETTINGS_BACKEND=keyfile gsettings set …` with `XDG_CONFIG_HOME` such that the file is
        /// `$XDG_CONFIG_HOME/glib-2.0/settings/keyfile` — see and make the same changes, and each side is
        /// notified of the other's (GIO monitors the file).
        case keyfile(path: String)
    }

    /// Opens the settings of the schema `id`.
    ///
    /// - Parameters:
    ///   - id: The schema's id, such as `org.gnome.desktop.interface`.
    ///   - path: The path of a relocatable schema (required then); for a schema with a fixed path, `nil`
    ///     or that same path.
    ///   - schemaDirectory: A directory with a `gschemas.compiled` (made by `glib-compile-schemas`) to look
    ///     in first, before the installed schemas — for an app that ships its schema beside it.
    ///   - backend: Where values are stored; GIO's default unless you say otherwise.
    /// - Throws: ``GSettingsError`` for an unknown schema, an unreadable schema directory, a missing or
    ///   invalid path. (`g_settings_new` itself would abort the process.)
    ///
    /// ```swift
    /// do {
    ///     let interface = try GSettingsHandle(schema: "org.gnome.desktop.interface")
    ///     print(try interface.value(forKey: "color-scheme", as: String.self))
    /// } catch {
    ///     print(error)   // no GSettings schema 'org.gnome.desktop.interface' is installed …
    /// }
    /// ```
    public init(
        schema id: String, path: String? = nil, schemaDirectory: String? = nil, backend: Backend = .default
    ) throws(GSettingsError) {
        // Its changes arrive through a GLib main context's loop, which then runs the main queue too.
        MainQueueIntegration.install()
        let schema = try Self.lookUp(id, in: schemaDirectory)
        let schemaPath = g_settings_schema_get_path(schema).map { String(cString: $0) }
        let resolvedPath: String
        switch (schemaPath, path) {
        case (nil, nil):
            g_settings_schema_unref(schema)
            throw .pathRequired(schema: id)
        case (nil, let path?):
            guard Self.isValidPath(path) else {
                g_settings_schema_unref(schema)
                throw .invalidPath(schema: id, path: path)
            }
            resolvedPath = path
        case (let schemaPath?, let path):
            if let path, path != schemaPath {
                g_settings_schema_unref(schema)
                throw .invalidPath(schema: id, path: path)
            }
            resolvedPath = schemaPath
        }
        let store: UnsafeMutablePointer<GSettingsBackend>? =
            switch backend {
            case .default: nil
            case .memory: g_memory_settings_backend_new()
            case .keyfile(let file): g_keyfile_settings_backend_new(file, "/", nil)
            }
        settings = g_settings_new_full(schema, store, resolvedPath)
        if let store { g_object_unref(store) }  // the GSettings object holds it
        self.schema = schema
        self.schemaID = id
        self.path = resolvedPath
        let context = g_main_context_ref_thread_default()
        scheduler = MainContextScheduler(context: context)
        thread = context == g_main_context_default() ? nil : pthread_self()
        g_main_context_unref(context)
    }

    deinit {
        g_object_unref(settings)
        g_settings_schema_unref(schema)
    }

    /// The names of the schema's keys.
    ///
    /// ```swift
    /// let settings = try GSettingsHandle(schema: "org.example.App", schemaDirectory: "schemas")
    /// print(settings.keys)   // ["username", "window-width", …]
    /// ```
    public var keys: [String] {
        guard let names = g_settings_schema_list_keys(schema) else { return [] }
        defer { g_strfreev(names) }
        var result: [String] = []
        var index = 0
        while let name = names[index] {
            result.append(String(cString: name))
            index += 1
        }
        return result
    }

    /// `name` as a key of type `Value`: checked once, then read, written, observed and bound without
    /// further errors of name or type.
    ///
    /// - Throws: ``GSettingsError/unknownKey(schema:key:)``, or
    ///   ``GSettingsError/typeMismatch(schema:key:keyType:valueType:)`` when the key's type in the schema
    ///   is not `Value`'s ``GVariantConvertible/variantType``.
    ///
    /// ```swift
    /// let settings = try GSettingsHandle(schema: "org.example.App", schemaDirectory: "schemas")
    /// let width = try settings.key("window-width", as: Int.self)
    /// try width.set(800)
    /// print(width.value)   // 800
    /// ```
    public func key<Value: GVariantConvertible>(_ name: String, as type: Value.Type = Value.self)
        throws(GSettingsError) -> GSettingsKey<Value>
    {
        guard g_settings_schema_has_key(schema, name) != 0 else {
            throw .unknownKey(schema: schemaID, key: name)
        }
        let schemaKey = g_settings_schema_get_key(schema, name)
        defer { g_settings_schema_key_unref(schemaKey) }
        let typeString = g_variant_type_dup_string(g_settings_schema_key_get_value_type(schemaKey))!
        defer { g_free(typeString) }
        let keyType = String(cString: typeString)
        guard keyType == Value.variantType else {
            throw .typeMismatch(schema: schemaID, key: name, keyType: keyType, valueType: Value.variantType)
        }
        return GSettingsKey(settings: self, name: name)
    }

    /// The value of `key` (`g_settings_get_value`): what is stored, or the schema's default.
    ///
    /// - Throws: ``GSettingsError`` for an unknown key or a type mismatch.
    ///
    /// ```swift
    /// let settings = try GSettingsHandle(schema: "org.example.App", schemaDirectory: "schemas")
    /// print(try settings.value(forKey: "username", as: String.self))
    /// ```
    public func value<Value: GVariantConvertible>(forKey key: String, as type: Value.Type = Value.self)
        throws(GSettingsError) -> Value
    {
        try self.key(key, as: type).value
    }

    /// Stores `value` under `key` (`g_settings_set_value`); observers of the key, in this process and in
    /// others that share the backend, are notified.
    ///
    /// - Throws: ``GSettingsError`` for an unknown key, a type mismatch, a value outside the key's range
    ///   or choices, or a key that is not writable.
    ///
    /// ```swift
    /// let settings = try GSettingsHandle(schema: "org.example.App", schemaDirectory: "schemas")
    /// try settings.set(true, forKey: "remember-me")
    /// ```
    public func set<Value: GVariantConvertible>(_ value: Value, forKey key: String) throws(GSettingsError) {
        try self.key(key, as: Value.self).set(value)
    }

    /// The value of `key`, then its value after each change — from this process or from another one that
    /// shares the backend (`gsettings set`). Each subscription sends the current value first; a change GIO
    /// reports that leaves the value as it was is not sent. Values are sent on the handle's loop thread (the
    /// main thread, usually; see ``GSettingsKey/signal``).
    ///
    /// - Throws: ``GSettingsError`` at the call for an unknown key or a type mismatch — not a signal that
    ///   never sends.
    ///
    /// ```swift
    /// let settings = try GSettingsHandle(schema: "org.example.App", schemaDirectory: "schemas")
    /// try settings.observe(key: "window-width", as: Int.self).subscribe(next: { print("width:", $0) })
    /// ```
    public func observe<Value: GVariantConvertible>(key: String, as type: Value.Type = Value.self)
        throws(GSettingsError) -> Signal<Value, Never>
    {
        try self.key(key, as: type).signal
    }

    /// A two-way channel terminal for `key` (RAC's `rac_channelTerminalForKey:` on `NSUserDefaults`): its
    /// values are ``observe(key:as:)``'s, and what it receives is stored — not sent back to it. Link it to
    /// a model's or a widget's terminal with `<~>`.
    ///
    /// - Throws: ``GSettingsError`` for an unknown key or a type mismatch.
    ///
    /// ```swift
    /// final class Preferences: KeyPathObservable { @Observed var username = "" }
    /// let preferences = Preferences()
    /// let settings = try GSettingsHandle(schema: "org.example.App", schemaDirectory: "schemas")
    /// try preferences.channel(\.username) <~> settings.channel(key: "username", as: String.self)
    /// ```
    public func channel<Value: GVariantConvertible>(key: String, as type: Value.Type = Value.self)
        throws(GSettingsError) -> ChannelTerminal<Value, Never>
    {
        try self.key(key, as: type).channel()
    }

    /// Stores every value `source` sends under `key` (RAC's `RAC(defaults, key) = signal`), until `source`
    /// completes or the result is disposed. A value the key refuses is not stored and is sent on
    /// ``rejectedWrites``.
    ///
    /// - Throws: ``GSettingsError`` at the call for an unknown key or a type mismatch.
    ///
    /// ```swift
    /// let settings = try GSettingsHandle(schema: "org.example.App", schemaDirectory: "schemas")
    /// let width = MutableProperty(640)
    /// try settings.bind("window-width", to: width)
    /// ```
    @discardableResult
    public func bind<Value: GVariantConvertible>(_ key: String, to source: some SignalConvertible<Value, Never>)
        throws(GSettingsError) -> any Disposable
    {
        try self.key(key, as: Value.self).bind(to: source)
    }

    /// The writes that bindings and channels could not make (a value out of the key's range, a key not
    /// writable): `set` throws these, bindings and channels send them here instead.
    ///
    /// ```swift
    /// let settings = try GSettingsHandle(schema: "org.example.App", schemaDirectory: "schemas")
    /// settings.rejectedWrites.subscribe(next: { print("not stored:", $0) })
    /// ```
    public var rejectedWrites: Signal<GSettingsError, Never> { rejected.signal }

    // MARK: - Internals used by GSettingsKey

    /// Reads `name` (checked by `key(_:as:)`).
    func read<Value: GVariantConvertible>(_ name: String) -> Value? {
        guard let variant = g_settings_get_value(settings, name) else { return nil }
        defer { g_variant_unref(variant) }
        return Value(variant: variant)
    }

    /// Writes `value` under `name` (checked by `key(_:as:)`), after the checks GSettings would log a
    /// critical or a warning for.
    func write<Value: GVariantConvertible>(_ value: Value, to name: String) throws(GSettingsError) {
        guard let floating = value.makeVariant() else {
            throw .outOfRange(schema: schemaID, key: name, value: "\(value)")
        }
        let variant = g_variant_ref_sink(floating)
        defer { g_variant_unref(variant) }
        let schemaKey = g_settings_schema_get_key(schema, name)
        defer { g_settings_schema_key_unref(schemaKey) }
        guard g_settings_schema_key_range_check(schemaKey, variant) != 0 else {
            throw .outOfRange(schema: schemaID, key: name, value: "\(value)")
        }
        guard g_settings_is_writable(settings, name) != 0, g_settings_set_value(settings, name, variant) != 0 else {
            throw .notWritable(schema: schemaID, key: name)
        }
    }

    /// Writes for a binding or a channel: a refused value goes to `rejectedWrites`.
    func writeReporting<Value: GVariantConvertible>(_ value: Value, to name: String) {
        do throws(GSettingsError) {
            try write(value, to: name)
        } catch {
            rejected.send(error)
        }
    }

    /// Runs `body` on the handle's loop thread: at once when called there, otherwise through its main
    /// context. (GLib itself may announce a change on the thread that wrote it, when that thread can
    /// acquire the idle context: Tether moves it to the loop thread.)
    func onContext(_ body: @escaping @Sendable () -> Void) {
        let onLoopThread = thread.map { pthread_equal(pthread_self(), $0) != 0 } ?? Thread.isMainThread
        if onLoopThread {
            body()
        } else {
            scheduler.schedule(body)
        }
    }

    private static func lookUp(_ id: String, in directory: String?) throws(GSettingsError) -> OpaquePointer {
        let installed = g_settings_schema_source_get_default()  // nil when no schema is installed at all
        var source = installed.map { g_settings_schema_source_ref($0) }
        if let directory {
            var error: UnsafeMutablePointer<GError>?
            guard let local = g_settings_schema_source_new_from_directory(directory, installed, 0, &error) else {
                let message = error.flatMap { $0.pointee.message.map { String(cString: $0) } } ?? "unknown error"
                g_clear_error(&error)
                if let source { g_settings_schema_source_unref(source) }
                throw .unreadableSchemaDirectory(path: directory, message: message)
            }
            if let source { g_settings_schema_source_unref(source) }
            source = local
        }
        guard let source else { throw .unknownSchema(id) }
        defer { g_settings_schema_source_unref(source) }
        guard let schema = g_settings_schema_source_lookup(source, id, 1) else { throw .unknownSchema(id) }
        return schema
    }

    /// GSettings' rule for paths: starts and ends with `/`, no `//`.
    private static func isValidPath(_ path: String) -> Bool {
        path.hasPrefix("/") && path.hasSuffix("/") && !path.contains("//")
    }
}
