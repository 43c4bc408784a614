import Foundation
import TetherTestSupport
import TetherTesting
import XCTest

@testable import Bridges

#if canImport(Glibc)
    import Glibc
#endif

/// Issue 43 item 12: what is not a regular file — a FIFO, a link to a device — or is too large is a typed
/// error at once, and never holds up the reader thread every watch of the process shares.
final class FileContentsBadInputTests: ResourceCheckedTestCase {
    func testAFIFOIsRefusedAtOnceInsteadOfWaitingForAWriter() {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let fifo = directory("pipe")
        XCTAssertEqual(mkfifo(fifo, 0o644), 0)
        let log = EventLog<Data, FileWatchError>()
        let subscribed = startThread { Signal.fileContents(at: fifo).record(into: log) }
        if !waitOrFail(subscribed, "subscribing to the contents of a FIFO with no writer") {
            releaseReaders(of: fifo)
        }
        XCTAssertEqual(log.events, [.error(.notARegularFile(fifo))])
        XCTAssertEqual(inotifyDescriptors(), [], "a refused path leaves no inotify descriptor behind")
    }

    func testALinkToADeviceIsRefusedAtOnce() {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let link = directory("zero")
        XCTAssertEqual(symlink("/dev/zero", link), 0)
        for path in [link, "/dev/zero", "/dev/null"] {
            let log = EventLog<Data, FileWatchError>()
            Signal.fileContents(at: path).record(into: log)
            XCTAssertEqual(log.events, [.error(.notARegularFile(path))], path)
        }
    }

    func testAFIFORenamedOverAWatchedFileEndsThatWatchAndTheOthersGoOn() {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let (victim, other) = (directory("victim.conf"), directory("other.conf"))
        writeInPlace(victim, "v1")
        writeInPlace(other, "o1")
        let victimLog = EventLog<String, FileWatchError>()
        let otherLog = EventLog<String, FileWatchError>()
        let watchingVictim = Signal.fileContents(at: victim).map { String(decoding: $0, as: UTF8.self) }
            .record(into: victimLog)
        let watchingOther = Signal.fileContents(at: other).map { String(decoding: $0, as: UTF8.self) }
            .record(into: otherLog)
        defer {
            watchingVictim.dispose()
            watchingOther.dispose()
        }
        let fifo = directory("pipe.tmp")
        XCTAssertEqual(mkfifo(fifo, 0o644), 0)
        let failed = victimLog.expectation(count: 2, "the victim's watch fails")
        XCTAssertEqual(rename(fifo, victim), 0)
        if XCTWaiter().wait(for: [failed], timeout: 30) != .completed {
            XCTFail("the re-read of the FIFO did not fail: is the reader thread blocked in open?")
            releaseReaders(of: victim)
        }
        XCTAssertEqual(victimLog.events, [.next("v1"), .error(.notARegularFile(victim))])
        // The reader thread is free: the other watch still follows its file.
        let followed = otherLog.expectation(count: 2, "the other watch goes on")
        writeInPlace(other, "o2")
        wait(for: [followed], timeout: 30)
        XCTAssertEqual(otherLog.events, [.next("o1"), .next("o2")])
    }

    func testALinkToDevZeroRenamedOverAWatchedFileIsATypedErrorNotAnEndlessRead() {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let path = directory("app.conf")
        writeInPlace(path, "one")
        let log = EventLog<String, FileWatchError>()
        let watching = Signal.fileContents(at: path).map { String(decoding: $0, as: UTF8.self) }.record(into: log)
        defer { watching.dispose() }
        let link = directory("zero.tmp")
        XCTAssertEqual(symlink("/dev/zero", link), 0)
        let failed = log.expectation(count: 2)
        XCTAssertEqual(rename(link, path), 0)
        wait(for: [failed], timeout: 30)
        XCTAssertEqual(log.events, [.next("one"), .error(.notARegularFile(path))])
    }

    func testAFileLargerThanTheLimitIsATypedError() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let path = directory("huge.bin")
        let limit = Signal<Data, FileWatchError>.maximumFileContentsSize
        XCTAssertEqual(limit, 64 << 20, "the documented limit")
        writeInPlace(path, "")
        XCTAssertEqual(truncate(path, off_t(limit + 1)), 0, "a sparse file, one byte over the limit")
        let log = EventLog<Data, FileWatchError>()
        Signal.fileContents(at: path).record(into: log)
        XCTAssertEqual(log.events, [.error(.fileTooLarge(path: path, size: limit + 1, limit: limit))])
        // At the limit exactly, the file is read.
        XCTAssertEqual(truncate(path, off_t(limit)), 0)
        let read = EventLog<Data, FileWatchError>()
        let watching = Signal.fileContents(at: path).record(into: read)
        watching.dispose()
        XCTAssertEqual(read.values.map(\.count), [limit])
        XCTAssertFalse(read.isTerminated)
    }

    func testAReadStopsOneBytePastTheLimitWhenTheSizeWasNotKnownAhead() throws {
        // /proc files report a size of 0 and have contents: the limit bounds the read itself, as for a file
        // that grows while it is read.
        let path = "/proc/self/status"
        switch readContents(of: path, limit: 16) {
        case .failed(let error): XCTAssertEqual(error, .fileTooLarge(path: path, size: 17, limit: 16))
        case let other: XCTFail("expected fileTooLarge, got \(other)")
        }
        guard case .value(let contents) = readContents(of: path, limit: 1 << 20) else {
            return XCTFail("/proc/self/status is read under a large limit")
        }
        XCTAssertTrue(String(decoding: contents, as: UTF8.self).hasPrefix("Name:"))
    }

    /// Opens the FIFO at `path` for writing and closes it, which lets a reader blocked opening it go (so a
    /// failing test does not leave the shared reader thread stuck for the tests after it).
    private func releaseReaders(of path: String) {
        let descriptor = open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC)
        if descriptor >= 0 { close(descriptor) }
    }
}
