import Bridges
import Foundation
import TetherTestSupport
import TetherTesting
import XCTest

#if canImport(Glibc)
    import Glibc
#endif

final class FileEventsTests: ResourceCheckedTestCase {
    func testADirectorysEntriesAreCreatedModifiedChangedAndDeleted() {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let log = EventLog<FileEvent, FileWatchError>()
        let watching = Signal.fileEvents(at: directory.path).record(into: log)
        defer { watching.dispose() }

        let written = log.expectation(count: 2)
        writeInPlace(directory("notes.txt"), "hello")
        wait(for: [written], timeout: 30)
        let changed = log.expectation(count: 3)
        chmod(directory("notes.txt"), 0o600)
        wait(for: [changed], timeout: 30)
        let deleted = log.expectation(count: 4)
        unlink(directory("notes.txt"))
        wait(for: [deleted], timeout: 30)

        XCTAssertEqual(
            log.events,
            [
                .next(.created(directory("notes.txt"))), .next(.modified(directory("notes.txt"))),
                .next(.attributesChanged(directory("notes.txt"))), .next(.deleted(directory("notes.txt"))),
            ])
    }

    func testChangesMadeByAnotherProcessArrive() {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let log = EventLog<FileEvent, FileWatchError>()
        let watching = Signal.fileEvents(at: directory.path).record(into: log)
        defer { watching.dispose() }

        let done = log.expectation(count: 4)
        runShell(
            "mkdir \(shellQuoted(directory("sub"))) && printf x > \(shellQuoted(directory("a")))"
                + " && rm \(shellQuoted(directory("a")))")
        wait(for: [done], timeout: 30)
        XCTAssertEqual(
            log.values,
            [.created(directory("sub")), .created(directory("a")), .modified(directory("a")), .deleted(directory("a"))])
    }

    func testARenameIsOneMovedEventWithBothNames() {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        writeInPlace(directory("draft.txt"), "text")
        let log = EventLog<FileEvent, FileWatchError>()
        let watching = Signal.fileEvents(at: directory.path).record(into: log)
        defer { watching.dispose() }

        let moved = log.expectation(count: 1)
        XCTAssertEqual(rename(directory("draft.txt"), directory("final.txt")), 0)
        wait(for: [moved], timeout: 30)
        // A marker after the rename: everything the rename produced arrived before it.
        let marker = log.expectation(count: 2)
        mkdir(directory("marker"), 0o755)
        wait(for: [marker], timeout: 30)
        XCTAssertEqual(
            log.values,
            [.moved(from: directory("draft.txt"), to: directory("final.txt")), .created(directory("marker"))])
    }

    func testARenameByAnotherProcessIsOneMovedEvent() {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        writeInPlace(directory("a"), "text")
        let log = EventLog<FileEvent, FileWatchError>()
        let watching = Signal.fileEvents(at: directory.path).record(into: log)
        defer { watching.dispose() }

        let done = log.expectation(count: 2)
        runShell(
            "mv \(shellQuoted(directory("a"))) \(shellQuoted(directory("b"))) && mkdir \(shellQuoted(directory("marker")))"
        )
        wait(for: [done], timeout: 30)
        XCTAssertEqual(log.values, [.moved(from: directory("a"), to: directory("b")), .created(directory("marker"))])
    }

    func testAMoveBetweenTwoWatchedDirectoriesIsOneEventInEach() {
        let source = TemporaryDirectory("source")
        let target = TemporaryDirectory("target")
        defer {
            source.remove()
            target.remove()
        }
        writeInPlace(source("report.pdf"), "%PDF")
        let fromLog = EventLog<FileEvent, FileWatchError>()
        let toLog = EventLog<FileEvent, FileWatchError>()
        let watchingSource = Signal.fileEvents(at: source.path).record(into: fromLog)
        let watchingTarget = Signal.fileEvents(at: target.path).record(into: toLog)
        defer {
            watchingSource.dispose()
            watchingTarget.dispose()
        }

        let left = fromLog.expectation(count: 1)
        let arrived = toLog.expectation(count: 1)
        XCTAssertEqual(rename(source("report.pdf"), target("report.pdf")), 0)
        wait(for: [left, arrived], timeout: 30)
        let expected = FileEvent.moved(from: source("report.pdf"), to: target("report.pdf"))
        XCTAssertEqual(fromLog.values, [expected])
        XCTAssertEqual(toLog.values, [expected])
    }

    func testAMoveOutOfSightIsDeletedAndAMoveInIsCreated() {
        let watched = TemporaryDirectory("watched")
        let elsewhere = TemporaryDirectory("elsewhere")
        defer {
            watched.remove()
            elsewhere.remove()
        }
        writeInPlace(watched("leaving"), "x")
        writeInPlace(elsewhere("arriving"), "y")
        let log = EventLog<FileEvent, FileWatchError>()
        let watching = Signal.fileEvents(at: watched.path).record(into: log)
        defer { watching.dispose() }

        let left = log.expectation(count: 1)
        XCTAssertEqual(rename(watched("leaving"), elsewhere("leaving")), 0)
        wait(for: [left], timeout: 30)
        let arrived = log.expectation(count: 2)
        XCTAssertEqual(rename(elsewhere("arriving"), watched("arriving")), 0)
        wait(for: [arrived], timeout: 30)
        XCTAssertEqual(log.values, [.deleted(watched("leaving")), .created(watched("arriving"))])
    }

    func testAFileIsFollowedThroughAnAtomicSaveByAnotherProcess() {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let path = directory("settings.ini")
        writeInPlace(path, "a=1")
        writeInPlace(directory("unrelated"), "")
        let log = EventLog<FileEvent, FileWatchError>()
        let watching = Signal.fileEvents(at: path).record(into: log)
        defer { watching.dispose() }

        // An editor's save: a temporary file in the same directory, renamed over the original.
        let saved = log.expectation(count: 1)
        let temporary = directory(".settings.ini.swp")
        runShell("printf 'a=2' > \(shellQuoted(temporary)) && mv \(shellQuoted(temporary)) \(shellQuoted(path))")
        wait(for: [saved], timeout: 30)
        // The watch follows the new file at the path: its next change arrives too; other names never do.
        let appended = log.expectation(count: 2)
        writeInPlace(directory("unrelated"), "noise")
        runShell("printf '\\nb=3' >> \(shellQuoted(path))")
        wait(for: [appended], timeout: 30)
        XCTAssertEqual(log.values, [.moved(from: temporary, to: path), .modified(path)])
    }

    func testAFileDeletedAndCreatedAgainIsStillFollowed() {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let path = directory("pid")
        writeInPlace(path, "1")
        let log = EventLog<FileEvent, FileWatchError>()
        let watching = Signal.fileEvents(at: path).record(into: log)
        defer { watching.dispose() }

        let deleted = log.expectation(count: 1)
        unlink(path)
        wait(for: [deleted], timeout: 30)
        let created = log.expectation(count: 3)
        writeInPlace(path, "2")
        wait(for: [created], timeout: 30)
        XCTAssertEqual(log.values, [.deleted(path), .created(path), .modified(path)])
    }

    func testTheWatchedDirectoryDeletedSendsDeletedThenCompletes() {
        let parent = TemporaryDirectory()
        defer { parent.remove() }
        let path = parent("doomed")
        XCTAssertEqual(mkdir(path, 0o755), 0)
        let log = EventLog<FileEvent, FileWatchError>()
        let done = log.expectation(count: 2)
        Signal.fileEvents(at: path).record(into: log)
        XCTAssertEqual(rmdir(path), 0)
        wait(for: [done], timeout: 30)
        XCTAssertEqual(log.events, [.next(.deleted(path)), .completed])
    }

    func testTheEventsOfOneWindowAreCoalescedOnTheScheduler() {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        writeInPlace(directory("existing"), "0")
        let scheduler = TestScheduler()
        let log = EventLog<FileEvent, FileWatchError>()
        let coalesced = Signal.fileEvents(at: directory.path, coalescingFor: .seconds(1), on: scheduler)
            .record(into: log)
        // A second, immediate watch of the same directory: its clients hear each event after the coalescing
        // one, so once it has the marker, so has the window.
        let witness = EventLog<FileEvent, FileWatchError>()
        let immediate = Signal.fileEvents(at: directory.path).record(into: witness)
        defer {
            coalesced.dispose()
            immediate.dispose()
        }

        writeInPlace(directory("new"), "1")  // created, modified → created
        for value in ["2", "3", "4"] { writeInPlace(directory("existing"), value) }  // modified ×3 → once
        chmod(directory("existing"), 0o600)  // attributesChanged
        chmod(directory("existing"), 0o644)  // again: dropped
        writeInPlace(directory("scratch"), "x")  // created, modified, deleted → nothing
        unlink(directory("scratch"))
        mkdir(directory("marker"), 0o755)
        waitUntil { witness.values.last == .created(directory("marker")) }

        scheduler.advance(by: .milliseconds(999))
        XCTAssertEqual(log.events, [], "nothing before the window ends")
        scheduler.advance(by: .milliseconds(1))
        XCTAssertEqual(
            log.values,
            [
                .created(directory("new")), .modified(directory("existing")),
                .attributesChanged(directory("existing")), .created(directory("marker")),
            ])

        // The next change opens a new window.
        let before = witness.count
        writeInPlace(directory("new"), "5")
        waitUntil { witness.count > before }
        scheduler.advance(by: .seconds(1))
        XCTAssertEqual(log.values.last, .modified(directory("new")))
        XCTAssertEqual(log.count, 5)
    }

    func testAnOverflowOfTheEventQueueIsAnError() throws {
        let limit =
            Int(
                (try? String(contentsOfFile: "/proc/sys/fs/inotify/max_queued_events", encoding: .utf8))?
                    .trimmingCharacters(in: .whitespacesAndNewlines) ?? "") ?? 16_384
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        writeInPlace(directory("a"), "")
        writeInPlace(directory("b"), "")
        writeInPlace(directory("config"), "before")
        let log = EventLog<FileEvent, FileWatchError>()
        let release = DispatchSemaphore(value: 0)
        let blocked = DispatchSemaphore(value: 0)
        let firstEvent = Flag()
        // The first event blocks the shared reader thread, so the kernel's queue fills up.
        let watching = Signal.fileEvents(at: directory.path).subscribeEvents { event in
            if !firstEvent.isRaised {
                firstEvent.raise()
                blocked.signal()
                release.wait()
            }
            log.append(event)
        }
        // A value watch on the same instance re-reads instead of failing.
        let contents = EventLog<String, FileWatchError>()
        let contentsWatch = Signal.fileContents(at: directory("config"))
            .map { String(decoding: $0, as: UTF8.self) }.record(into: contents)
        defer {
            watching.dispose()
            contentsWatch.dispose()
        }

        chmod(directory("a"), 0o600)
        waitOrFail(blocked, "the first event")
        // Alternating names: the kernel merges only an event equal to the last one queued.
        for index in 0...(limit + 10) { chmod(directory(index % 2 == 0 ? "b" : "a"), index % 4 < 2 ? 0o644 : 0o600) }
        writeInPlace(directory("config"), "after")
        release.signal()
        waitUntil { log.isTerminated }
        XCTAssertEqual(log.events.last, .error(.eventQueueOverflow(directory.path)))
        XCTAssertLessThan(log.count, limit + 10, "events were lost, and the error says so")
        waitUntil { contents.values.last == "after" }
        XCTAssertEqual(contents.values, ["before", "after"])
        XCTAssertFalse(contents.isTerminated)
    }
}
