import Foundation
import TetherDemoModels
import TetherGtk

/// `tether-gtk-demo`'s command line.
public struct DemoOptions: Equatable, Sendable {
    /// `--screenshot FILE`: render the window to a PNG after the scripted input, then exit.
    public var screenshot: String?
    /// `--username TEXT`: typed into the login form's username field.
    public var username: String?
    /// `--password TEXT`: typed into the password field.
    public var password: String?
    /// `--sign-in`: press the sign-in button once the fields are typed.
    public var signIn = false
    /// `--query TEXT`: typed into the live search.
    public var query: String?

    /// Parses the arguments (without the program name).
    public init(arguments: [String]) throws(DemoUsageError) {
        var rest = arguments[...]
        func value(for option: String) throws(DemoUsageError) -> String {
            guard let value = rest.popFirst() else { throw DemoUsageError(message: "\(option) needs a value") }
            return value
        }
        while let argument = rest.popFirst() {
            switch argument {
            case "--screenshot": screenshot = try value(for: argument)
            case "--username": username = try value(for: argument)
            case "--password": password = try value(for: argument)
            case "--query": query = try value(for: argument)
            case "--sign-in": signIn = true
            case "--help", "-h": throw DemoUsageError(message: nil)
            default: throw DemoUsageError(message: "unknown argument \(argument)")
            }
        }
    }

    /// The usage text.
    public static let usage = """
        usage: tether-gtk-demo [--username TEXT] [--password TEXT] [--sign-in] [--query TEXT] [--screenshot FILE]

        Opens the RAC tutorials' login form and live search in a GTK 4 window. The options type into the
        window as a user would; with --screenshot FILE the demo waits until the sign-in and the search have
        settled, renders the window to FILE (PNG) and exits.
        """
}

/// A bad command line (`message == nil`: help was asked for).
public struct DemoUsageError: Error, Equatable {
    /// What is wrong with the arguments, or `nil` for `--help`.
    public var message: String?
}

/// Runs the demo: opens the window and runs GTK's main loop until it is closed, or renders a screenshot.
/// Returns the exit status.
@MainActor
public func runDemo(arguments: [String]) -> Int32 {
    let options: DemoOptions
    do {
        options = try DemoOptions(arguments: arguments)
    } catch {
        if let message = error.message {
            FileHandle.standardError.write(Data("tether-gtk-demo: \(message)\n\(DemoOptions.usage)\n".utf8))
            return 2
        }
        print(DemoOptions.usage)
        return 0
    }
    guard gtk_init_check() != 0 else {
        FileHandle.standardError.write(
            Data(
                "tether-gtk-demo: cannot open a display (set DISPLAY or WAYLAND_DISPLAY, or run under xvfb-run -a)\n"
                    .utf8))
        return 1
    }
    // DispatchQueue.main, QueueScheduler.main and @MainActor tasks run inside GTK's loop from now on.
    MainQueueIntegration.install()
    installStyleSheet()
    // The battery and the network from the system bus (UPower, NetworkManager), when there is one.
    var systemBus: DBusConnection?
    do {
        systemBus = try DBusConnection.system()
    } catch {
        FileHandle.standardError.write(
            Data("tether-gtk-demo: not showing the battery and the network (no system bus: \(error))\n".utf8))
    }
    let demo: DemoWindow
    do {
        demo = try DemoWindow(
            ui: MainContextScheduler.main, background: QueueScheduler(name: "tether.demo.services"),
            systemBus: systemBus)
    } catch {
        FileHandle.standardError.write(Data("tether-gtk-demo: \(error)\n".utf8))
        return 1
    }
    // Remembered preferences (GSettings) and the signed-in state on the session bus: both optional, the
    // demo runs on without them, saying why.
    var preferences: DemoPreferences?
    switch DemoPreferences.open() {
    case .success(let settings):
        do {
            preferences = try DemoPreferences(demo: demo, settings: settings)
        } catch {
            FileHandle.standardError.write(Data("tether-gtk-demo: preferences not bound: \(error)\n".utf8))
        }
    case .failure(let error):
        FileHandle.standardError.write(Data((DemoPreferences.fallbackMessage(for: error) + "\n").utf8))
    }
    var publisher: DemoBusPublisher?
    switch DemoBusPublisher.publishOnSessionBus(login: demo.loginPanel.login) {
    case .success(let published):
        publisher = published
        print(
            "tether-gtk-demo: signed-in state on the session bus: gdbus monitor --session --dest \(DemoBusPublisher.busName)"
        )
    case .failure(let error):
        FileHandle.standardError.write(
            Data("tether-gtk-demo: not publishing the signed-in state on D-Bus (\(error))\n".utf8))
    }
    defer {
        // Written before exit (a key file backend writes on the main loop, later).
        if preferences != nil { g_settings_sync() }
        publisher?.flush()
        withExtendedLifetime((preferences, publisher)) {}
    }
    var closed = false
    _ = try? demo.window.connect("destroy") { _ in closed = true }
    demo.present()
    do {
        try type(options, into: demo)
    } catch {
        FileHandle.standardError.write(Data("tether-gtk-demo: \(error)\n".utf8))
        return 1
    }
    if let path = options.screenshot {
        return screenshot(demo, options: options, to: path)
    }
    while !closed { g_main_context_iteration(nil, 1) }
    return 0
}

/// Types the scripted input into the window's widgets, as a user would (each edit goes through GTK).
@MainActor
func type(_ options: DemoOptions, into demo: DemoWindow) throws(GObjectError) {
    if let username = options.username { try demo.loginPanel.username.setText(username) }
    if let password = options.password { try demo.loginPanel.password.setText(password) }
    if options.signIn { demo.loginPanel.signInButton.emit("clicked") }
    if let query = options.query { try demo.searchPanel.entry.setText(query) }
}

/// Waits (running GTK's loop) until the window is drawn and the scripted work has settled, then renders it.
@MainActor
func screenshot(_ demo: DemoWindow, options: DemoOptions, to path: String) -> Int32 {
    let login = demo.loginPanel.login
    let search = demo.searchPanel.search
    var signingIn = false
    let executing = login.signIn.executing.subscribe(next: { signingIn = $0 })
    defer { executing.dispose() }
    let settled = {
        gtk_widget_get_mapped(demo.window.widgetPointer) != 0 && !signingIn
            && (options.query.map { !SearchViewModel.isValid($0) || search.results?.query == $0 } ?? true)
    }
    // A watchdog: the loop wakes up at least every 50 ms; give up after 20 s.
    let tick = MainContextScheduler.main.schedule(after: .zero, interval: .milliseconds(50)) {}
    defer { tick.dispose() }
    let deadline = Date().addingTimeInterval(20)
    while !settled() && Date() < deadline { g_main_context_iteration(nil, 1) }
    // Let GTK lay out and draw the final state.
    let drawn = Date().addingTimeInterval(0.3)
    while Date() < drawn { g_main_context_iteration(nil, 1) }
    guard settled() else {
        FileHandle.standardError.write(Data("tether-gtk-demo: the window did not settle within 20 s\n".utf8))
        return 1
    }
    do {
        try demo.window.savePNG(to: path)
    } catch {
        FileHandle.standardError.write(Data("tether-gtk-demo: \(error)\n".utf8))
        return 1
    }
    print("tether-gtk-demo: wrote \(path)")
    demo.destroy()
    return 0
}
