import Observable

/// Runs the demo from a script on virtual time and prints the screen, as plain text, after each step.
///
/// ```swift
/// let status = ScriptRunner(script: try Script(parsing: "type ann\nkey tab")).run { print($0, terminator: "") }
/// ```
struct ScriptRunner {
    var script: Script
    var size = TerminalSize.standard

    /// Runs every step (until `key ctrl-c`) and returns the exit status: 0, or 1 when an `expect` failed.
    /// `finish` runs after the last step, while the app and its subscriptions are still alive.
    func run(write: (String) -> Void, report: (String) -> Void, finish: () -> Void = {}) -> Int32 {
        let clock = TestScheduler()
        let app = DemoApp(environment: DemoEnvironment(ui: clock, background: clock), size: size)
        defer { withExtendedLifetime(app) { finish() } }
        clock.advance()
        write(screen(of: app, heading: "start"))
        for step in script.steps {
            switch step.action {
            case .type(let text, let interval):
                for character in text {
                    app.handle(.character(character))
                    clock.advance(by: interval ?? .zero)
                }
            case .key(let key, let count):
                for _ in 0..<count where !app.isFinished {
                    app.handle(key)
                    clock.advance()
                }
            case .wait(let duration):
                clock.advance(by: duration)
            case .resize(let newSize):
                app.resize(to: newSize)
                clock.advance()
            case .expect(let text):
                let frame = Renderer.frame(for: app).plainText
                if !frame.contains(text) {
                    report(
                        "tether-demo: expect failed (script line \(step.line)): the screen does not contain \"\(text)\""
                    )
                    return 1
                }
                continue
            }
            write(screen(of: app, heading: "\(step.line): \(step.source)"))
            if app.isFinished { break }
        }
        return 0
    }

    private func screen(of app: DemoApp, heading: String) -> String {
        let rule = "── \(heading) "
        let time = " t=\(app.uptime.formattedMilliseconds) ──"
        let fill = max(app.size.columns - rule.count - time.count, 2)
        return rule + String(repeating: "─", count: fill) + time + "\n" + Renderer.frame(for: app).plainText
    }
}

extension Duration {
    /// `1.250s`.
    var formattedMilliseconds: String {
        let milliseconds = components.seconds * 1000 + components.attoseconds / 1_000_000_000_000_000
        let fraction = String(milliseconds % 1000)
        return "\(milliseconds / 1000).\(String(repeating: "0", count: 3 - fraction.count))\(fraction)s"
    }
}
