import Foundation
import Observable
import XCTest

#if canImport(Glibc)
    import Glibc
#endif

/// A thread-safe list of events, for assertions.
final class EventLog<Value, Failure: Error>: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [Event<Value, Failure>] = []
    private var waiters: [(count: Int, expectation: XCTestExpectation)] = []

    var events: [Event<Value, Failure>] { lock.withLock { storage } }
    var values: [Value] { events.compactMap(\.value) }
    var count: Int { lock.withLock { storage.count } }
    var isTerminated: Bool { events.last?.isTerminal ?? false }

    func append(_ event: Event<Value, Failure>) {
        let fulfilled = lock.withLock { () -> [XCTestExpectation] in
            storage.append(event)
            let ready = waiters.filter { $0.count <= storage.count }.map(\.expectation)
            waiters.removeAll { $0.count <= storage.count }
            return ready
        }
        for expectation in fulfilled { expectation.fulfill() }
    }

    /// An expectation fulfilled once at least `count` events were recorded.
    func expectation(count: Int, _ description: String = "events") -> XCTestExpectation {
        let expectation = XCTestExpectation(description: "\(description): \(count)")
        let already = lock.withLock { () -> Bool in
            if storage.count >= count { return true }
            waiters.append((count, expectation))
            return false
        }
        if already { expectation.fulfill() }
        return expectation
    }
}

extension SignalConvertible {
    /// Subscribes and records every event.
    @discardableResult
    func record(into log: EventLog<Value, Failure>) -> any Disposable {
        subscribeEvents { log.append($0) }
    }
}

/// A thread-safe counter.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    var value: Int { lock.withLock { count } }
    func increment(by amount: Int = 1) { lock.withLock { count += amount } }
}

/// A thread-safe boolean.
final class Flag: @unchecked Sendable {
    private let lock = NSLock()
    private var raised = false
    var isRaised: Bool { lock.withLock { raised } }
    func raise() { lock.withLock { raised = true } }
}

/// An object whose deallocation tests observe through a weak reference.
final class Tracked: @unchecked Sendable {
    let id: Int
    init(_ id: Int = 0) { self.id = id }
}

/// Fails when two calls overlap: detects concurrent delivery to one observer.
final class OverlapDetector: @unchecked Sendable {
    private let lock = NSLock()
    private var inside = false
    private(set) var overlaps = 0

    func enter() {
        lock.withLock {
            if inside { overlaps += 1 }
            inside = true
        }
    }

    func leave() {
        lock.withLock { inside = false }
    }
}

/// The descriptors this process has open, from `/proc/self/fd` (the directory's own descriptor excluded).
func openDescriptors() -> Set<Int32> {
    guard let directory = opendir("/proc/self/fd") else { return [] }
    defer { closedir(directory) }
    let own = dirfd(directory)
    var result: Set<Int32> = []
    while let entry = readdir(directory) {
        let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
            String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
        }
        if let fd = Int32(name), fd != own { result.insert(fd) }
    }
    return result
}

/// The number of this process's threads whose name starts with `prefix` (from `/proc/self/task/*/comm`).
func threadCount(named prefix: String) -> Int {
    let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
    return tasks.filter { task in
        let name = (try? String(contentsOfFile: "/proc/self/task/\(task)/comm", encoding: .utf8)) ?? ""
        return name.hasPrefix(prefix)
    }.count
}

/// What a descriptor points to (`pipe:[…]`, `anon_inode:[signalfd]`), for failure messages.
func describeDescriptor(_ fd: Int32) -> String {
    var buffer = [CChar](repeating: 0, count: 256)
    let length = readlink("/proc/self/fd/\(fd)", &buffer, 255)
    guard length > 0 else { return "\(fd) → ?" }
    return "\(fd) → " + String(decoding: buffer[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
}

/// Creates and cancels one Dispatch read source so libdispatch's own lazily created descriptors (its epoll
/// and event descriptors) exist before a test counts descriptors.
func warmUpDispatch() {
    var fds: [Int32] = [0, 0]
    XCTAssertEqual(pipe(&fds), 0)
    let done = DispatchSemaphore(value: 0)
    let source = DispatchSource.makeReadSource(fileDescriptor: fds[0], queue: DispatchQueue(label: "warm-up"))
    source.setRegistrationHandler { done.signal() }
    source.setCancelHandler { done.signal() }
    source.resume()
    done.wait()
    source.cancel()
    done.wait()
    close(fds[0])
    close(fds[1])
}

/// Writes all of `bytes` to `fd`.
func writeAll(_ fd: Int32, _ bytes: [UInt8]) {
    var offset = 0
    while offset < bytes.count {
        let written = bytes[offset...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        if written < 0 {
            if errno == EINTR { continue }
            XCTFail("write failed: \(errno)")
            return
        }
        offset += written
    }
}

struct TestError: Error, Equatable {
    let code: Int
    init(_ code: Int = 1) { self.code = code }
}
