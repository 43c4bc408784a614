import Bridges
import Foundation
import TetherTestSupport
import TetherTesting
import XCTest

#if canImport(Glibc)
    import Glibc
#endif

final class DirectoryEntriesTests: ResourceCheckedTestCase {
    func testEntriesStartWithTheCurrentListThenFollowEachChange() {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        writeInPlace(directory("b"), "")
        writeInPlace(directory("a"), "")
        let log = EventLog<[String], FileWatchError>()
        let watching = Signal.directoryEntries(at: directory.path).record(into: log)
        defer { watching.dispose() }
        XCTAssertEqual(log.values, [["a", "b"]])

        var expected = [["a", "b"]]
        func step(_ entries: [String], _ change: () -> Void) {
            expected.append(entries)
            let arrived = log.expectation(count: expected.count)
            change()
            wait(for: [arrived], timeout: 30)
        }
        step(["a", "b", "c"]) { runShell("printf x > \(shellQuoted(directory("c")))") }
        step(["b", "c", "z"]) { XCTAssertEqual(rename(directory("a"), directory("z")), 0) }
        // A modification changes no name: no list, so the next one is after the deletion.
        writeInPlace(directory("c"), "changed")
        step(["c", "z"]) { runShell("rm \(shellQuoted(directory("b")))") }
        step(["c", "sub", "z"]) { mkdir(directory("sub"), 0o755) }
        XCTAssertEqual(log.values, expected)
    }

    func testListingsAreCoalescedIntoOnePerWindowOnTheScheduler() {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let scheduler = TestScheduler()
        let log = EventLog<[String], FileWatchError>()
        let watching = Signal.directoryEntries(at: directory.path, coalescingFor: .seconds(2), on: scheduler)
            .record(into: log)
        defer { watching.dispose() }
        XCTAssertEqual(log.values, [[]], "the first list is read at once")

        for name in ["x", "y", "z"] { writeInPlace(directory(name), name) }
        waitUntil { scheduler.pendingCount == 1 }  // the first change opened a window
        scheduler.advance(by: .seconds(1))
        XCTAssertEqual(log.values, [[]])
        scheduler.advance(by: .seconds(1))
        XCTAssertEqual(log.values, [[], ["x", "y", "z"]], "one list, at the end of the window")
    }

    func testAFileAMissingDirectoryAndAnUnreadableDirectoryAreTypedErrors() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        writeInPlace(directory("file"), "")
        for (path, error) in [
            (directory("file"), FileWatchError.notADirectory(directory("file"))),
            (directory("absent"), .noSuchPath(directory("absent"))),
        ] {
            let log = EventLog<[String], FileWatchError>()
            Signal.directoryEntries(at: path).record(into: log)
            XCTAssertEqual(log.events, [.error(error)])
        }
        let closed = directory("closed")
        XCTAssertEqual(mkdir(closed, 0o700), 0)
        let events = asNobody { () -> [Event<[String], FileWatchError>] in
            let log = EventLog<[String], FileWatchError>()
            Signal.directoryEntries(at: closed).record(into: log)
            return log.events
        }
        XCTAssertEqual(try XCTUnwrap(events, "setfsuid is unavailable"), [.error(.permissionDenied(closed))])
        let watchEvents = asNobody { () -> [Event<FileEvent, FileWatchError>] in
            let log = EventLog<FileEvent, FileWatchError>()
            Signal.fileEvents(at: closed).record(into: log)
            return log.events
        }
        XCTAssertEqual(try XCTUnwrap(watchEvents), [.error(.permissionDenied(closed))])
    }
}
