import Bridges
import Foundation
import TetherTestSupport
import XCTest

#if canImport(Glibc)
    import Glibc
#endif

/// A fresh directory under the system's temporary directory, removed by `remove()`.
struct TemporaryDirectory {
    let path: String

    init(_ label: String = #function) {
        let name = label.filter { $0.isLetter || $0.isNumber }
        path = NSTemporaryDirectory() + "tether-files-\(getpid())-\(name)-\(UInt32.random(in: 0...UInt32.max))"
        precondition(mkdir(path, 0o755) == 0, "mkdir \(path): \(errno)")
    }

    func callAsFunction(_ name: String) -> String { path + "/" + name }

    func remove() { try? FileManager.default.removeItem(atPath: path) }
}

/// Writes `text` to `path` in place (open with `O_TRUNC`, one `write`, close), as a program saving
/// without a temporary file does.
func writeInPlace(_ path: String, _ text: String) {
    let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
    precondition(descriptor >= 0, "open \(path): \(errno)")
    let bytes = Array(text.utf8)
    precondition(bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) } == bytes.count)
    close(descriptor)
}

/// Runs `script` with `/bin/sh -c` in another process and waits for it; fails the test on a non-zero exit.
func runShell(_ script: String, file: StaticString = #filePath, line: UInt = #line) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    process.arguments = ["-c", script]
    do {
        try process.run()
    } catch {
        return XCTFail("cannot run /bin/sh: \(error)", file: file, line: line)
    }
    process.waitUntilExit()
    XCTAssertEqual(process.terminationStatus, 0, "sh -c '\(script)' failed", file: file, line: line)
}

/// `'text'` quoted for the shell.
func shellQuoted(_ text: String) -> String {
    "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
}

/// The inotify descriptors this process has open (`/proc/self/fd/N → anon_inode:inotify`).
func inotifyDescriptors() -> Set<Int32> {
    openDescriptors().filter { describeDescriptor($0).hasSuffix("anon_inode:inotify") }
}

/// The inodes watched through inotify descriptor `fd`, from `/proc/self/fdinfo/fd`
/// (`inotify wd:1 ino:f78662 sdev:…`).
func watchedInodes(of fd: Int32) -> [UInt64] {
    guard let info = try? String(contentsOfFile: "/proc/self/fdinfo/\(fd)", encoding: .utf8) else { return [] }
    return info.split(separator: "\n").compactMap { line -> UInt64? in
        guard line.hasPrefix("inotify "), let field = line.split(separator: " ").first(where: { $0.hasPrefix("ino:") })
        else { return nil }
        return UInt64(field.dropFirst(4), radix: 16)
    }
}

/// The inode number of `path`.
func inode(of path: String) -> UInt64 {
    var status = stat()
    precondition(stat(path, &status) == 0, "stat \(path): \(errno)")
    return UInt64(status.st_ino)
}

/// Runs `body` on a new thread whose filesystem user and group are `nobody` (`setfsuid`/`setfsgid` are
/// per thread on Linux, and dropping the filesystem user from 0 drops the thread's `CAP_DAC_OVERRIDE` and
/// `CAP_DAC_READ_SEARCH`, so permission checks apply to it even when the tests run as root). `nil` when the
/// calls are unavailable.
func asNobody<Result: Sendable>(_ body: @escaping @Sendable () -> Result) -> Result? {
    typealias SetFilesystemID = @convention(c) (UInt32) -> Int32
    guard let setfsuidSymbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "setfsuid"),
        let setfsgidSymbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "setfsgid")
    else { return nil }
    let setfsuid = unsafeBitCast(setfsuidSymbol, to: SetFilesystemID.self)
    let setfsgid = unsafeBitCast(setfsgidSymbol, to: SetFilesystemID.self)
    let box = Locked<Result?>(nil)
    let finished = startThread {
        let user = UInt32(bitPattern: Int32(getuid()))
        let group = UInt32(bitPattern: Int32(getgid()))
        _ = setfsgid(65_534)
        _ = setfsuid(65_534)
        // setfsuid returns the previous value; a second call with the same value tells whether it took.
        let dropped = setfsuid(65_534) == 65_534
        if dropped { box.value = body() }
        _ = setfsuid(user)
        _ = setfsgid(group)
    }
    finished.wait()
    return box.value
}
