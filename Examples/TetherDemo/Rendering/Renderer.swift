import Foundation
import TetherDemoModels

/// Turns the app's state into a frame: a header with the screens, the active screen's body, and a
/// status line. Pure: the same state gives the same frame, in a terminal and in a script.
enum Renderer {
    static let spinner: [Character] = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"]
    static let fieldWidth = 24

    static func frame(for app: DemoApp) -> Frame {
        let size = app.size
        guard size.columns >= TerminalSize.minimum.columns, size.rows >= TerminalSize.minimum.rows else {
            return tooSmall(size)
        }
        var body: [Line]
        switch app.screen {
        case .login: body = loginBody(app)
        case .welcome(let user): body = welcomeBody(user)
        case .search: body = searchBody(app)
        }
        // Prose breaks at word boundaries in a narrow terminal instead of being cut mid-word.
        body = body.flatMap { $0.wrapped(to: size.columns) }
        let bodyRows = size.rows - 3
        if body.count > bodyRows { body = Array(body.prefix(bodyRows)) }
        var lines = [header(app), Line(String(repeating: "─", count: size.columns), .dim)]
        lines += body
        lines += Array(repeating: Line(), count: bodyRows - body.count)
        lines.append(statusLine(app))
        return Frame(size: size, lines: lines.map { $0.fitted(to: size.columns) })
    }

    // MARK: Header and status line

    private static func header(_ app: DemoApp) -> Line {
        var line = Line(" Tether demo ", Style(foreground: .black, background: .cyan, bold: true))
        line.append("  ")
        let current = app.screen
        for screen in [Screen.login, .search] {
            let active = screen == current.tab
            line.append(active ? "[\(screen.title)]" : " \(screen.title) ", active ? .bold : .dim)
            line.append(" ")
        }
        let hint = "Tab: next field · ←/→: screen · Ctrl-C: quit"
        let room = app.size.columns - line.width - hint.count - 1
        if room > 0 {
            line.append(String(repeating: " ", count: room))
            line.append(hint, .dim)
        }
        return line
    }

    private static func statusLine(_ app: DemoApp) -> Line {
        let seconds = Double(app.uptime.components.seconds) + Double(app.uptime.components.attoseconds) / 1e18
        let tenths = Int((seconds * 10).rounded(.down))
        let time = "\(tenths / 10).\(tenths % 10)s"
        var parts = [
            "t=\(time)",
            "\(app.meter.perSecond) events/s",
            "\(app.meter.total) events",
            "\(app.size)",
        ]
        if let key = app.lastKey { parts.append("key: \(key.label)") }
        let text = " " + parts.joined(separator: " │ ")
        return Line(text, .inverse).fitted(to: app.size.columns, fill: .inverse)
    }

    private static func tooSmall(_ size: TerminalSize) -> Frame {
        var lines = [Line("Window too small: \(size)."), Line("Tether demo needs \(TerminalSize.minimum).")]
        lines += Array(repeating: Line(), count: max(size.rows - lines.count, 0))
        return Frame(size: size, lines: Array(lines.prefix(size.rows)).map { $0.fitted(to: size.columns) })
    }

    // MARK: Login

    private static func loginBody(_ app: DemoApp) -> [Line] {
        let form = app.loginForm
        let login = app.login
        let button = form.signInButton
        var lines: [Line] = [
            Line(),
            Line("  Sign in", .bold),
            Line("  Fields turn green when valid (bind); the button enables when both are", .dim),
            Line("  (combineLatest); Enter runs the sign-in Command (a fake service, 0.8 s).", .dim),
            Line(),
            Line("  Valid credentials: username ") + Line("\"tether\"", .bold) + Line(", password ")
                + Line("\"password\"", .bold),
            Line(),
            field(
                label: "Username", text: login.username, tint: form.usernameTint,
                focused: app.focus == .username, hint: "\(LoginViewModel.minimumLength)+ characters"),
            field(
                label: "Password", text: String(repeating: "•", count: login.password.count),
                tint: form.passwordTint, focused: app.focus == .password,
                hint: "\(LoginViewModel.minimumLength)+ characters"),
            Line(),
        ]
        var buttonLine = Line(app.focus == .signInButton ? "› " : "  ", .bold)
        buttonLine.append("          ")
        let label = "[ \(button.title) ]"
        if button.isEnabled {
            buttonLine.append(label, Style(foreground: .black, background: .green, bold: true))
            buttonLine.append(" enabled", .foreground(.green))
        } else {
            buttonLine.append(label, .dim)
            buttonLine.append(
                form.spinnerFrame != nil ? " disabled while signing in" : " disabled until both fields are valid", .dim)
        }
        buttonLine.wraps = false
        lines.append(buttonLine)
        lines.append(Line())
        if let frame = form.spinnerFrame {
            lines.append(
                Line("  \(spinner[frame % spinner.count]) Signing in as \(login.username)…", .foreground(.cyan)))
        } else if let message = form.message {
            switch message {
            case .hint(let text): lines.append(Line("  ! \(text)", .foreground(.yellow)))
            case .failure(let text): lines.append(Line("  ✗ \(text)", .foreground(.red, bold: true)))
            case .success(let text): lines.append(Line("  ✓ \(text)", .foreground(.green, bold: true)))
            }
        } else {
            lines.append(Line())
        }
        return lines
    }

    /// `› Label  [text▏      ] ✓ valid` — the box takes the tint, the caret shows focus.
    private static func field(label: String, text: String, tint: FieldTint, focused: Bool, hint: String) -> Line {
        var line = Line(focused ? "› " : "  ", .bold)
        line.append(label.padding(toLength: 10, withPad: " ", startingAt: 0), focused ? .bold : .plain)
        let boxStyle: Style =
            tint == .valid
            ? Style(foreground: .green, bold: focused) : Style(foreground: .black, background: .yellow)
        let room = fieldWidth - (focused ? 1 : 0)
        let visible = text.count > room ? String(text.suffix(room)) : text
        line.append("[")
        line.append(visible, boxStyle)
        if focused { line.append(" ", Style(inverse: true)) }
        line.append(String(repeating: " ", count: room - visible.count), boxStyle)
        line.append("] ")
        switch tint {
        case .valid: line.append("✓ valid", .foreground(.green))
        case .invalid: line.append("✗ \(hint)", .foreground(.yellow))
        }
        line.wraps = false
        return line
    }

    // MARK: Welcome

    private static func welcomeBody(_ user: User) -> [Line] {
        [
            Line(),
            Line("  ✓ Welcome, \(user.name)!", .foreground(.green, bold: true)),
            Line(),
            Line("  The sign-in Command finished: its execution signal sent the user,"),
            Line("  `executing` went back to false, and the app switched screens on the user."),
            Line(),
            Line("  Opening the live search shortly (a Bridges timer)… Enter: now.", .dim),
        ]
    }

    // MARK: Search

    private static func searchBody(_ app: DemoApp) -> [Line] {
        let panel = app.searchPanel
        let search = app.search
        let stats = panel.stats
        var lines: [Line] = [
            Line(),
            Line("  Live search", .bold)
                + Line(" — the RAC tutorial's \"Twitter Instant\" over \(search.service.corpus.count) cities"),
            Line("  The query goes debounce(0.3 s, while ≥ 3 chars) → flatMapLatest(search) → deliver(on: UI);", .dim),
            Line(
                "  each search takes 0.6 s on a background scheduler. A shorter query (Esc) clears the results.", .dim),
            Line(),
            field(
                label: "Search", text: search.query, tint: panel.queryTint, focused: app.focus == .searchField,
                hint: "type \(SearchViewModel.minimumQueryLength)+ characters"),
            Line(),
        ]
        var statsLine = Line(
            "  Searches: \(stats.started) started · \(stats.cancelled) cancelled · \(stats.completed) completed")
        if stats.inFlight > 0 {
            statsLine.append(" · \(stats.inFlight) in flight", .foreground(.cyan, bold: true))
        }
        lines.append(statsLine)
        lines.append(Line())
        guard let results = panel.results else {
            lines.append(Line("  Results appear 0.3 s after you stop typing, once the search returns.", .dim))
            return lines
        }
        var summary = Line(
            results.matches.isEmpty
                ? "  No matches for \"\(results.query)\""
                : "  \(results.matches.count) match\(results.matches.count == 1 ? "" : "es") for \"\(results.query)\"",
            .bold)
        if results.query != search.query.trimmingCharacters(in: .whitespaces) {
            summary.append("  (stale: the field says \"\(search.query)\")", .dim)
        }
        lines.append(summary)
        let rowsUsed = lines.reduce(0) { $0 + $1.wrapped(to: app.size.columns).count }
        let room = max(app.size.rows - 3 - rowsUsed - 1, 0)
        let shown = results.matches.count > room ? max(room - 1, 0) : results.matches.count
        for match in results.matches.prefix(shown) {
            lines.append(highlight(match, query: results.query))
        }
        if shown < results.matches.count {
            lines.append(Line("    … \(results.matches.count - shown) more", .dim))
        }
        return lines
    }

    /// The match with the first occurrence of the query in bold yellow.
    private static func highlight(_ match: String, query: String) -> Line {
        var line = Line("    ")
        let folded = CorpusSearch.fold(match)
        let needle = CorpusSearch.fold(query.trimmingCharacters(in: .whitespaces))
        guard folded.count == match.count, let range = folded.range(of: needle) else {
            line.append(match)
            return line
        }
        let start = folded.distance(from: folded.startIndex, to: range.lowerBound)
        let length = folded.distance(from: range.lowerBound, to: range.upperBound)
        line.append(String(match.prefix(start)))
        line.append(String(match.dropFirst(start).prefix(length)), .foreground(.yellow, bold: true))
        line.append(String(match.dropFirst(start + length)))
        return line
    }
}
