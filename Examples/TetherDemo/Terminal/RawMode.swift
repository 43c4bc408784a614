import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Puts the terminal in raw mode and guarantees it comes back.
///
/// Raw mode: no echo, no line buffering, no signal keys (Ctrl-C arrives as byte 3, Ctrl-Z as 26), no
/// flow control, no CR→NL translation; output processing stays on. The screen moves to the
/// alternate buffer with the cursor hidden, so the shell's screen reappears untouched on exit.
///
/// The original settings are restored by ``restore()`` — called on quit, from the SIGINT/SIGTERM/SIGHUP
/// handlers (through Bridges' `Signal.unixSignals`) and, as a last resort, by an `atexit` hook for any
/// other `exit()`. Restoring twice is harmless.
final class RawMode: @unchecked Sendable {
    // Safety: `saved` is written once in `enable` before the object is shared; `restored` is guarded by `lock`.
    private let fileDescriptor: Int32
    private let saved: termios
    private let lock = NSLock()
    private var restored = false

    /// The active raw mode, for the `atexit` hook (a C function pointer cannot capture).
    private static let active = ActiveRawMode()

    enum Failure: Error, CustomStringConvertible {
        case notATerminal
        case systemCall(String, Int32)

        var description: String {
            switch self {
            case .notATerminal: return "standard input is not a terminal"
            case .systemCall(let call, let code): return "\(call) failed: \(String(cString: strerror(code)))"
            }
        }
    }

    private init(fileDescriptor: Int32, saved: termios) {
        self.fileDescriptor = fileDescriptor
        self.saved = saved
    }

    /// Switches `fileDescriptor`'s terminal to raw mode and the screen to the alternate buffer.
    static func enable(on fileDescriptor: Int32 = STDIN_FILENO) throws(Failure) -> RawMode {
        guard isatty(fileDescriptor) == 1 else { throw .notATerminal }
        var original = termios()
        guard tcgetattr(fileDescriptor, &original) == 0 else { throw .systemCall("tcgetattr", errno) }
        var raw = original
        raw.c_iflag &= ~tcflag_t(BRKINT | ICRNL | INPCK | ISTRIP | IXON)
        raw.c_cflag |= tcflag_t(CS8)
        raw.c_lflag &= ~tcflag_t(ECHO | ICANON | IEXTEN | ISIG)
        withUnsafeMutableBytes(of: &raw.c_cc) { cc in
            cc[Int(VMIN)] = 1
            cc[Int(VTIME)] = 0
        }
        guard tcsetattr(fileDescriptor, TCSAFLUSH, &raw) == 0 else { throw .systemCall("tcsetattr", errno) }
        let mode = RawMode(fileDescriptor: fileDescriptor, saved: original)
        active.set(mode)
        atexit { RawMode.active.restore() }
        Terminal.output(ANSI.enterAlternateScreen + ANSI.hideCursor + ANSI.disableAutowrap + ANSI.clearScreen)
        return mode
    }

    /// Leaves the alternate screen, shows the cursor and puts the original terminal settings back.
    func restore() {
        let first = lock.withLock {
            defer { restored = true }
            return !restored
        }
        guard first else { return }
        Terminal.output(ANSI.reset + ANSI.enableAutowrap + ANSI.showCursor + ANSI.leaveAlternateScreen)
        var original = saved
        _ = tcsetattr(fileDescriptor, TCSAFLUSH, &original)
    }
}

/// Holds the raw mode to restore at exit.
private final class ActiveRawMode: @unchecked Sendable {
    // Safety: `mode` is guarded by `lock`.
    private let lock = NSLock()
    private var mode: RawMode?

    func set(_ mode: RawMode) {
        lock.withLock { self.mode = mode }
    }

    func restore() {
        lock.withLock { mode }?.restore()
    }
}

/// Unbuffered writes to standard output.
enum Terminal {
    /// Writes all of `text` to standard output with `write(2)` (retrying short writes and EINTR).
    static func output(_ text: String) {
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeMutableBytes { buffer in
                write(STDOUT_FILENO, buffer.baseAddress! + offset, buffer.count - offset)
            }
            if written < 0 {
                if errno == EINTR { continue }
                return
            }
            offset += written
        }
    }

    static var inputIsTerminal: Bool { isatty(STDIN_FILENO) == 1 }
    static var outputIsTerminal: Bool { isatty(STDOUT_FILENO) == 1 }
}
