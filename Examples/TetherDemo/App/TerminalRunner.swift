import Bridges
import Dispatch
import Foundation
import Observable

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Runs the demo in a real terminal: raw mode, keys from standard input, SIGWINCH, SIGINT/SIGTERM/SIGHUP
/// and a redraw after every event — all through Bridges, all delivered on the main queue, which
/// `dispatchMain()` drives (on Linux, `QueueScheduler.main` runs nothing until the main thread does).
final class TerminalRunner {
    private let rawMode: RawMode
    private let app: DemoApp
    private let ui = QueueScheduler.main
    private let subscriptions = CompositeDisposable()
    private let redraws = RedrawRequests()
    private var writer = FrameWriter()

    private init(rawMode: RawMode) {
        self.rawMode = rawMode
        let background = QueueScheduler(priority: .background, name: "tether-demo.services")
        app = DemoApp(
            environment: DemoEnvironment(ui: ui, background: background),
            size: TerminalSize.current() ?? .standard)
    }

    /// Takes over the terminal until Ctrl-C (or SIGINT, SIGTERM, SIGHUP, end of input); never returns.
    static func run() -> Never {
        let rawMode: RawMode
        do {
            rawMode = try RawMode.enable()
        } catch {
            FileHandle.standardError.write(Data("tether-demo: cannot use the terminal: \(error)\n".utf8))
            exit(1)
        }
        let runner = TerminalRunner(rawMode: rawMode)
        runner.start()
        dispatchMain()
    }

    private func start() {
        let ui = ui
        let redraws = redraws
        app.meter.onEvent = { redraws.request() }
        subscriptions.add(
            redraws.requested.deliver(on: ui).subscribe(next: { [unowned self] in
                redraws.taken()
                self.draw()
            }))
        subscriptions.add(
            Signal.keys(from: STDIN_FILENO).deliver(on: ui).subscribe(
                next: { [unowned self] key in
                    self.app.handle(key)
                    if self.app.isFinished { self.quit(status: 0) }
                },
                error: { [unowned self] error in self.quit(status: 1, message: "input failed: \(error)") },
                completed: { [unowned self] in self.quit(status: 0) }))
        subscriptions.add(
            Signal.unixSignals(.windowChange).deliver(on: ui).subscribe(next: { [unowned self] _ in
                self.writer.invalidate()
                self.app.resize(to: TerminalSize.current() ?? self.app.size)
            }))
        subscriptions.add(
            Signal.unixSignals(.interrupt, .terminate, .hangup).deliver(on: ui).subscribe(
                next: { [unowned self] signal in self.quit(status: 128 + signal.rawValue, message: "\(signal)") },
                error: { [unowned self] error in self.quit(status: 1, message: "signals: \(error)") }))
        draw()
    }

    private func draw() {
        let update = writer.update(to: Renderer.frame(for: app))
        if !update.isEmpty { Terminal.output(update) }
    }

    private func quit(status: Int32, message: String? = nil) -> Never {
        subscriptions.dispose()
        rawMode.restore()
        let stats = app.searchPanel.stats
        var summary = "tether-demo: \(app.meter.total) events in \(app.uptime.formattedMilliseconds)"
        summary += ", \(stats.started) searches (\(stats.cancelled) cancelled)"
        if let message { summary += " — \(message)" }
        print(summary)
        exit(status)
    }
}

/// Coalesces the redraw requests of one burst of events into one frame on the next turn of the main queue.
/// Thread-safe, since the meter that requests redraws records from operators' closures.
private final class RedrawRequests: @unchecked Sendable {
    // Safety: `pending` is only touched under `lock`.
    private let lock = NSLock()
    private var pending = false
    /// Sends once per burst: the first request after ``taken()``.
    let requested = Subject<Void, Never>()

    func request() {
        let first = lock.withLock {
            defer { pending = true }
            return !pending
        }
        if first { requested.send(()) }
    }

    /// The redraw is starting: the next request asks for another one.
    func taken() {
        lock.withLock { pending = false }
    }
}
