import Bridges
import Dispatch
import Foundation
import TetherTestSupport
import TetherTesting
import XCTest

#if canImport(Glibc)
    import Glibc
#endif

/// A pipe whose ends the test closes explicitly.
private struct RawPipe {
    let read: Int32
    let write: Int32

    init() {
        var fds: [Int32] = [0, 0]
        precondition(pipe(&fds) == 0, "pipe() failed")
        read = fds[0]
        write = fds[1]
    }
}

final class FileDescriptorTests: ResourceCheckedTestCase {
    func testBytesArriveInOrderAndEndOfFileCompletes() {
        let pipe = RawPipe()
        let log = EventLog<Data, BridgeError>()
        let first = log.expectation(count: 1)
        Signal.bytes(from: pipe.read).record(into: log)
        writeAll(pipe.write, Array("hello".utf8))
        wait(for: [first], timeout: 10)
        writeAll(pipe.write, Array(" world".utf8))
        close(pipe.write)
        waitUntil(timeout: 10) { log.isTerminated }
        close(pipe.read)
        XCTAssertEqual(String(decoding: log.values.reduce(Data(), +), as: UTF8.self), "hello world")
        XCTAssertEqual(log.events.last, .completed)
    }

    func testLinesIncludingALastLineWithoutNewline() {
        let pipe = RawPipe()
        let log = EventLog<String, BridgeError>()
        let done = log.expectation(count: 4)
        Signal.lines(from: pipe.read).record(into: log)
        writeAll(pipe.write, Array("first\nsecond\r\nthird without newline".utf8))
        close(pipe.write)
        wait(for: [done], timeout: 10)
        close(pipe.read)
        XCTAssertEqual(log.events, [.next("first"), .next("second"), .next("third without newline"), .completed])
    }

    func testEmptyLinesAreKeptAndNoEmptyLastLineIsInvented() {
        let pipe = RawPipe()
        let log = EventLog<String, BridgeError>()
        let done = log.expectation(count: 4)
        Signal.lines(from: pipe.read).record(into: log)
        writeAll(pipe.write, Array("a\n\nb\n".utf8))
        close(pipe.write)
        wait(for: [done], timeout: 10)
        close(pipe.read)
        XCTAssertEqual(log.events, [.next("a"), .next(""), .next("b"), .completed])
    }

    func testMultiByteCharactersSplitAcrossReadsAreDecodedWhole() {
        // One byte per read: every multi-byte character arrives split across reads.
        let pipe = RawPipe()
        let text = "héllo wörld ✓ 𝄞\nzweite Zeile: ß€"
        let log = EventLog<String, BridgeError>()
        let done = log.expectation(count: 3)
        Signal<Data, BridgeError>.bytes(from: pipe.read, maxLength: 1).lines().record(into: log)
        for byte in Array(text.utf8) { writeAll(pipe.write, [byte]) }
        close(pipe.write)
        wait(for: [done], timeout: 10)
        close(pipe.read)
        XCTAssertEqual(log.events, [.next("héllo wörld ✓ 𝄞"), .next("zweite Zeile: ß€"), .completed])
    }

    func testLinesSplitsChunksAtAnyByteBoundary() {
        let bytes = Array("αβγ\n😀 end\nlast".utf8)
        for cut in 1..<bytes.count {
            let chunks = [Data(bytes[..<cut]), Data(bytes[cut...])]
            let log = EventLog<String, Never>()
            Signal<Data, Never>(values: chunks).lines().record(into: log)
            XCTAssertEqual(log.events, [.next("αβγ"), .next("😀 end"), .next("last"), .completed], "cut at \(cut)")
        }
    }

    func testInvalidUTF8BecomesReplacementCharacters() {
        let log = EventLog<String, Never>()
        Signal<Data, Never>(values: [Data([0x61, 0xFF, 0x62, 0x0A])]).lines().record(into: log)
        XCTAssertEqual(log.events, [.next("a\u{FFFD}b"), .completed])
    }

    func testLinesPassesErrorsThrough() {
        let log = EventLog<String, TestError>()
        Signal<Data, TestError> { observer in
            observer.send(Data("partial".utf8))
            observer.sendError(TestError(3))
            return nil
        }.lines().record(into: log)
        XCTAssertEqual(log.events, [.error(TestError(3))])
    }

    func testAnInvalidDescriptorIsAnErrorEvent() {
        for fd: Int32 in [-1, 987_654] {
            let log = EventLog<String, BridgeError>()
            Signal.lines(from: fd).record(into: log)
            XCTAssertEqual(log.events, [.error(.invalidFileDescriptor(fd))])
        }
    }

    func testAClosedDescriptorIsAnErrorEvent() {
        let pipe = RawPipe()
        close(pipe.read)
        close(pipe.write)
        let log = EventLog<Data, BridgeError>()
        Signal.bytes(from: pipe.read).record(into: log)
        XCTAssertEqual(log.events, [.error(.invalidFileDescriptor(pipe.read))])
    }

    func testANonPositiveReadSizeIsAnErrorEvent() {
        let pipe = RawPipe()
        defer {
            close(pipe.read)
            close(pipe.write)
        }
        let log = EventLog<Data, BridgeError>()
        Signal.bytes(from: pipe.read, maxLength: 0).record(into: log)
        XCTAssertEqual(log.events, [.error(.invalidArgument("maxLength must be positive, got 0"))])
    }

    func testAFailingReadIsAnErrorEvent() throws {
        // A write-only descriptor: read(2) fails with EBADF.
        let path = NSTemporaryDirectory() + "tether-bridges-\(getpid())-write-only"
        _ = FileManager.default.createFile(atPath: path, contents: Data("x".utf8))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let fd = open(path, O_WRONLY)
        XCTAssertGreaterThanOrEqual(fd, 0)
        defer { close(fd) }
        let log = EventLog<Data, BridgeError>()
        let done = log.expectation(count: 1)
        Signal.bytes(from: fd).record(into: log)
        wait(for: [done], timeout: 10)
        XCTAssertEqual(log.events, [.error(.readFailed(fileDescriptor: fd, errno: EBADF))])
    }

    func testADirectoryDescriptorIsAnErrorEvent() {
        let fd = open(NSTemporaryDirectory(), O_RDONLY | O_DIRECTORY)
        XCTAssertGreaterThanOrEqual(fd, 0)
        defer { close(fd) }
        let log = EventLog<Data, BridgeError>()
        let done = log.expectation(count: 1)
        Signal.bytes(from: fd).record(into: log)
        wait(for: [done], timeout: 10)
        XCTAssertEqual(log.count, 1)
        XCTAssertNotNil(log.events.first?.error, "expected an error event, got \(log.events)")
    }

    func testARegularFileIsReadToTheEnd() throws {
        let path = NSTemporaryDirectory() + "tether-bridges-\(getpid())-lines"
        let lines = (0..<2_000).map { "line \($0) ✓" }
        try Data(lines.joined(separator: "\n").utf8).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
        defer { try? handle.close() }
        let log = EventLog<String, BridgeError>()
        let done = log.expectation(count: lines.count + 1)
        Signal.lines(from: handle).record(into: log)
        wait(for: [done], timeout: 30)
        XCTAssertEqual(log.values, lines)
        XCTAssertEqual(log.events.last, .completed)
    }

    func testFileHandleOfAPipeDeliversLines() {
        let pipe = Pipe()
        let log = EventLog<String, BridgeError>()
        let done = log.expectation(count: 3)
        Signal.lines(from: pipe.fileHandleForReading).record(into: log)
        pipe.fileHandleForWriting.write(Data("one\ntwo".utf8))
        try? pipe.fileHandleForWriting.close()
        wait(for: [done], timeout: 10)
        XCTAssertEqual(log.events, [.next("one"), .next("two"), .completed])
    }

    func testAClosedFileHandleIsAnErrorEvent() throws {
        let pipe = Pipe()
        let handle = pipe.fileHandleForReading
        let fd = handle.fileDescriptor
        try handle.close()
        let log = EventLog<String, BridgeError>()
        Signal.lines(from: handle).record(into: log)
        XCTAssertEqual(log.count, 1)
        guard case .error(.invalidFileDescriptor)? = log.events.first else {
            return XCTFail("expected invalidFileDescriptor, got \(log.events) (fd was \(fd))")
        }
    }

    func testClosingTheCallersDescriptorWhileSubscribedIsSafe() {
        let pipe = RawPipe()
        let log = EventLog<String, BridgeError>()
        let done = log.expectation(count: 2)
        Signal.lines(from: pipe.read).record(into: log)
        close(pipe.read)  // the bridge reads its own duplicate
        writeAll(pipe.write, Array("still here\n".utf8))
        close(pipe.write)
        wait(for: [done], timeout: 10)
        XCTAssertEqual(log.events, [.next("still here"), .completed])
    }

    func testNothingArrivesAfterDispose() {
        let pipe = RawPipe()
        defer {
            close(pipe.read)
            close(pipe.write)
        }
        let log = EventLog<String, BridgeError>()
        let first = log.expectation(count: 1)
        let subscription = Signal.lines(from: pipe.read).record(into: log)
        writeAll(pipe.write, Array("one\n".utf8))
        wait(for: [first], timeout: 10)
        subscription.dispose()
        writeAll(pipe.write, Array("two\n".utf8))
        // A fresh subscription reads what the disposed one left unread.
        let witness = EventLog<String, BridgeError>()
        let second = witness.expectation(count: 1)
        let other = Signal.lines(from: pipe.read).record(into: witness)
        wait(for: [second], timeout: 10)
        other.dispose()
        XCTAssertEqual(log.events, [.next("one")])
        XCTAssertEqual(witness.values, ["two"])
    }

    func testDisposeReleasesTheDescriptorsAndTheReaderThread() {
        let pipe = RawPipe()
        let before = openDescriptors()
        var during: Set<Int32> = []
        for _ in 0..<20 {
            let log = EventLog<String, BridgeError>()
            let first = log.expectation(count: 1)
            let subscription = Signal.lines(from: pipe.read).record(into: log)
            writeAll(pipe.write, Array("x\n".utf8))
            wait(for: [first], timeout: 10)
            during = openDescriptors()
            subscription.dispose()
        }
        let after = openDescriptors()
        close(pipe.read)
        close(pipe.write)
        XCTAssertEqual(during.subtracting(before).count, 3, "the duplicate and the wake-up pipe while subscribed")
        XCTAssertEqual(after, before, "leaked: \(after.subtracting(before).map(describeDescriptor))")
        waitUntil(timeout: 10) { threadCount(named: "tether-fd") == 0 }
        XCTAssertEqual(threadCount(named: "tether-fd"), 0, "reader threads must end after dispose")
    }

    func testEndOfFileReleasesTheDescriptorBeforeCompletionIsDelivered() {
        let pipe = RawPipe()
        let before = openDescriptors()
        let openAtCompletion = EventLog<Set<Int32>, Never>()
        let done = openAtCompletion.expectation(count: 1)
        Signal.lines(from: pipe.read).subscribe(completed: { openAtCompletion.append(.next(openDescriptors())) })
        writeAll(pipe.write, Array("a\nb".utf8))
        close(pipe.write)
        wait(for: [done], timeout: 10)
        close(pipe.read)
        var expected = before
        expected.remove(pipe.write)
        XCTAssertEqual(openAtCompletion.values.first, expected)
    }

    func testAReadErrorReleasesTheDescriptorToo() throws {
        let path = NSTemporaryDirectory() + "tether-bridges-\(getpid())-write-only-2"
        _ = FileManager.default.createFile(atPath: path, contents: Data())
        defer { try? FileManager.default.removeItem(atPath: path) }
        let fd = open(path, O_WRONLY)
        defer { close(fd) }
        let before = openDescriptors()
        let log = EventLog<Set<Int32>, BridgeError>()
        let done = log.expectation(count: 1)
        Signal.bytes(from: fd).subscribe(error: { _ in log.append(.next(openDescriptors())) })
        wait(for: [done], timeout: 10)
        XCTAssertEqual(log.values.first, before)
    }

    func testManyPipesReadToEndOfFileAllComplete() {
        // Regression: libdispatch read sources missed or crashed on this pattern (see DescriptorReader).
        for round in 0..<200 {
            let pipe = RawPipe()
            let log = EventLog<Data, BridgeError>()
            let done = expectation(description: "round \(round)")
            Signal.bytes(from: pipe.read).subscribe(
                next: { log.append(.next($0)) },
                completed: { done.fulfill() })
            if round % 2 == 0 { writeAll(pipe.write, [UInt8(round & 0x7F)]) }
            if round % 3 == 0 { sched_yield() }
            close(pipe.write)
            wait(for: [done], timeout: 10)
            close(pipe.read)
            XCTAssertEqual(log.values.reduce(0) { $0 + $1.count }, round % 2 == 0 ? 1 : 0)
        }
    }

    func testDisposingFromInsideTheSubscriberStopsReading() {
        let pipe = RawPipe()
        defer {
            close(pipe.read)
            close(pipe.write)
        }
        let log = EventLog<String, BridgeError>()
        let first = log.expectation(count: 1)
        let holder = SubscriptionHolder()
        holder.subscription = Signal.lines(from: pipe.read).subscribe(next: { line in
            log.append(.next(line))
            holder.subscription?.dispose()
        })
        writeAll(pipe.write, Array("one\ntwo\nthree\n".utf8))
        wait(for: [first], timeout: 10)
        waitUntil(timeout: 10) { threadCount(named: "tether-fd") == 0 }
        XCTAssertEqual(log.values, ["one"])
    }
}

/// Lets a subscriber dispose its own subscription.
private final class SubscriptionHolder: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: (any Disposable)?
    var subscription: (any Disposable)? {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}
