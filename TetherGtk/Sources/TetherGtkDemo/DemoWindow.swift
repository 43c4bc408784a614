import TetherDemoModels
import TetherGtk

/// The demo's window: the login form and the live search side by side, on the terminal demo's view models.
@MainActor
public final class DemoWindow {
    /// The `GtkWindow`.
    public let window: GObjectHandle
    /// The login form.
    public let loginPanel: LoginPanel
    /// The live search.
    public let searchPanel: SearchPanel
    /// The battery and the network (UPower and NetworkManager), when the window was built with a bus.
    public let statusPanel: SystemStatusPanel?

    /// Builds the window. `ui` is where view-model state changes are delivered (GTK's main context in
    /// the app, virtual time in tests); `background` runs the fake services; `systemBus`, when given, is
    /// where the battery and network state below the panels come from (UPower and NetworkManager).
    public init(
        ui: any Scheduler, background: any Scheduler,
        signInLatency: Duration = .milliseconds(800), searchLatency: Duration = .milliseconds(600),
        systemBus: DBusConnection? = nil
    ) throws {
        let login = LoginViewModel(service: FakeSignInService(latency: signInLatency, scheduler: background), ui: ui)
        let search = SearchViewModel(service: CitySearchService(latency: searchLatency, scheduler: background), ui: ui)
        loginPanel = try LoginPanel(login: login)
        searchPanel = try SearchPanel(search: search)
        let separator = gtk_separator_new(GTK_ORIENTATION_VERTICAL)!
        let panels = makeBox(
            GTK_ORIENTATION_HORIZONTAL, spacing: 0,
            [loginPanel.root.widgetPointer!, separator, searchPanel.root.widgetPointer!])
        statusPanel = try systemBus.map { try SystemStatusPanel(bus: $0) }
        let content =
            statusPanel.map { status in
                makeBox(
                    GTK_ORIENTATION_VERTICAL, spacing: 0,
                    [panels, gtk_separator_new(GTK_ORIENTATION_HORIZONTAL)!, status.root.widgetPointer!])
            } ?? panels
        let gtkWindow = gtk_window_new()!
        gtk_window_set_title(gtkWindow.window, "Tether — GTK 4 demo")
        gtk_window_set_default_size(gtkWindow.window, 720, 440)
        gtk_window_set_child(gtkWindow.window, content)
        window = GObjectHandle(retaining: gtkWindow)
    }

    /// Shows the window.
    public func present() {
        gtk_window_present(window.widgetPointer?.window)
    }

    /// Destroys the window (GTK drops its handlers; every binding to its widgets ends).
    public func destroy() {
        gtk_window_destroy(window.widgetPointer?.window)
    }
}
