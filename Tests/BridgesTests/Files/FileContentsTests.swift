import Bridges
import Foundation
import TetherTestSupport
import TetherTesting
import XCTest

#if canImport(Glibc)
    import Glibc
#endif

final class FileContentsTests: ResourceCheckedTestCase {
    func testContentsStartWithTheCurrentOnesAndFollowEveryKindOfSave() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let path = directory("app.conf")
        writeInPlace(path, "one")
        let log = EventLog<String, FileWatchError>()
        let watching = Signal.fileContents(at: path).map { String(decoding: $0, as: UTF8.self) }.record(into: log)
        defer { watching.dispose() }
        XCTAssertEqual(log.values, ["one"], "the current contents, before subscribe returns")

        var expected = ["one"]
        func step(_ value: String, _ change: () throws -> Void) rethrows {
            expected.append(value)
            let arrived = log.expectation(count: expected.count, value)
            try change()
            wait(for: [arrived], timeout: 30)
        }
        // In place, by this process.
        step("two") { writeInPlace(path, "two") }
        // In place, by another process.
        step("three") { runShell("printf three > \(shellQuoted(path))") }
        // An editor's atomic save by another process: a temporary file renamed over the original.
        step("four") {
            let temporary = directory(".app.conf.tmp")
            runShell("printf four > \(shellQuoted(temporary)) && mv \(shellQuoted(temporary)) \(shellQuoted(path))")
        }
        // Foundation's atomic write (a temporary file elsewhere in the directory, renamed).
        try step("five") { try Data("five".utf8).write(to: URL(fileURLWithPath: path), options: .atomic) }
        // Deleted, then written again: nothing while it is gone, the new contents when it is back.
        step("six") {
            unlink(path)
            runShell("printf six > \(shellQuoted(path))")
        }
        XCTAssertEqual(log.events, expected.map { .next($0) })
    }

    func testEqualContentsAreNotSentAgain() {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let path = directory("flag")
        writeInPlace(path, "on")
        let log = EventLog<String, FileWatchError>()
        let watching = Signal.fileContents(at: path).map { String(decoding: $0, as: UTF8.self) }.record(into: log)
        // Subscribed second, the witness hears each event after the contents watch has re-read for it.
        let witness = EventLog<FileEvent, FileWatchError>()
        let witnessing = Signal.fileEvents(at: path).record(into: witness)
        defer {
            watching.dispose()
            witnessing.dispose()
        }
        writeInPlace(path, "on")  // re-read when closed: the same contents
        chmod(path, 0o600)  // re-read: the same contents
        waitUntil { witness.values.last == .attributesChanged(path) }
        let changed = log.expectation(count: 2)
        writeInPlace(path, "off")
        wait(for: [changed], timeout: 30)
        XCTAssertEqual(log.values, ["on", "off"])
    }

    func testReReadsAreCoalescedIntoOnePerWindowOnTheScheduler() {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let path = directory("feed.json")
        writeInPlace(path, "[]")
        let scheduler = TestScheduler()
        let log = EventLog<String, FileWatchError>()
        let watching = Signal.fileContents(at: path, coalescingFor: .milliseconds(500), on: scheduler)
            .map { String(decoding: $0, as: UTF8.self) }.record(into: log)
        defer { watching.dispose() }
        XCTAssertEqual(log.values, ["[]"], "the first contents are read at once")

        for value in ["[1]", "[1,2]", "[1,2,3]"] { writeInPlace(path, value) }
        waitUntil { scheduler.pendingCount == 1 }  // the first change opened a window
        XCTAssertEqual(log.values, ["[]"])
        scheduler.advance(by: .milliseconds(500))
        XCTAssertEqual(log.values, ["[]", "[1,2,3]"], "one read, at the end of the window")
    }

    func testAMissingFileADirectoryAndABadPathAreTypedErrors() {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let cases: [(String, FileWatchError)] = [
            (directory("absent"), .noSuchPath(directory("absent"))),
            (directory("absent/deeper"), .noSuchPath(directory("absent/deeper"))),
            (directory.path, .isADirectory(directory.path)),
            ("", .invalidPath("")),
            ("bad\0path", .invalidPath("bad\0path")),
        ]
        for (path, error) in cases {
            let log = EventLog<Data, FileWatchError>()
            Signal.fileContents(at: path).record(into: log)
            XCTAssertEqual(log.events, [.error(error)], path)
        }
        XCTAssertEqual(inotifyDescriptors(), [], "a failed watch leaves no inotify descriptor behind")
    }

    func testAnUnreadableFileIsPermissionDenied() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let path = directory("secret")
        writeInPlace(path, "token")
        chmod(path, 0o000)
        // As root, permission bits do not apply: the subscription runs on a thread whose filesystem user is
        // `nobody` (see asNobody), where they do.
        let events = asNobody { () -> [Event<Data, FileWatchError>] in
            let log = EventLog<Data, FileWatchError>()
            Signal.fileContents(at: path).record(into: log)
            return log.events
        }
        let observed = try XCTUnwrap(events, "setfsuid is unavailable")
        XCTAssertEqual(observed, [.error(.permissionDenied(path))])
    }
}
