import Foundation
import TetherDemoModels
import TetherGtk

/// What the demo remembers between runs, through GSettings bindings (schema `org.tether.GtkDemo`, shipped
/// in `TetherGtk/schemas`): the username typed into the sign-in form and the window's size — two-way
/// channels between the keys and the view model's `username` and the window's `default-width` and
/// `default-height` (which GTK updates as the user resizes the window). At start the model and the window
/// take the stored values; each change is stored.
@MainActor
public final class DemoPreferences {
    /// The schema's id.
    public nonisolated static let schemaID = "org.tether.GtkDemo"
    /// The settings the demo is bound to.
    public let settings: GSettingsHandle
    private let bindings = CompositeDisposable()

    /// Binds `demo` to `settings` (a handle on the `org.tether.GtkDemo` schema).
    public init(demo: DemoWindow, settings: GSettingsHandle) throws {
        self.settings = settings
        bindings.add(
            try demo.loginPanel.login.channel(\.username) <~> settings.channel(key: "username", as: String.self))
        bindings.add(
            try demo.window.channel(property: "default-width", as: Int.self)
                <~> settings.channel(key: "window-width", as: Int.self))
        bindings.add(
            try demo.window.channel(property: "default-height", as: Int.self)
                <~> settings.channel(key: "window-height", as: Int.self))
    }

    isolated deinit { bindings.dispose() }

    /// Where the demo stores its preferences: GIO's default backend (dconf on a desktop) when
    /// `GSETTINGS_BACKEND` says which, otherwise a key file at `$XDG_CONFIG_HOME/glib-2.0/settings/keyfile`
    /// (`~/.config/…`) — the file `gsettings` reads and writes with `GSETTINGS_BACKEND=keyfile` — so that
    /// the demo remembers on machines without dconf too.
    public nonisolated static func backend(environment: [String: String] = ProcessInfo.processInfo.environment)
        -> GSettingsHandle.Backend
    {
        if environment["GSETTINGS_BACKEND"] != nil { return .default }
        let configHome =
            environment["XDG_CONFIG_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? (NSHomeDirectory() + "/.config")
        return .keyfile(path: configHome + "/glib-2.0/settings/keyfile")
    }

    /// Opens the demo's settings, or explains why the demo will not remember anything this time (the
    /// schema is not installed: the demo runs on without it).
    public nonisolated static func open(backend: GSettingsHandle.Backend = backend()) -> Result<
        GSettingsHandle, GSettingsError
    > {
        Result { () throws(GSettingsError) in try GSettingsHandle(schema: schemaID, backend: backend) }
    }

    /// The line the demo prints when it runs without its schema.
    public nonisolated static func fallbackMessage(for error: GSettingsError) -> String {
        "tether-gtk-demo: not remembering the username and window size (\(error)). To remember them: "
            + "glib-compile-schemas TetherGtk/schemas, then run with GSETTINGS_SCHEMA_DIR=TetherGtk/schemas"
    }
}
