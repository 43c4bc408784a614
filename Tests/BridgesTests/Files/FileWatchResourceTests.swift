import Bridges
import Foundation
import TetherTestSupport
import TetherTesting
import XCTest

#if canImport(Glibc)
    import Glibc
#endif

final class FileWatchResourceTests: ResourceCheckedTestCase {
    func testDisposeRemovesTheWatchAndTheLastOneClosesTheDescriptor() throws {
        let first = TemporaryDirectory("first")
        let second = TemporaryDirectory("second")
        defer {
            first.remove()
            second.remove()
        }
        let before = inotifyDescriptors()
        let watchingFirst = Signal.fileEvents(at: first.path).subscribe()
        let againFirst = Signal.directoryEntries(at: first.path).subscribe()
        let watchingSecond = Signal.fileEvents(at: second.path).subscribe()
        let opened = inotifyDescriptors().subtracting(before)
        XCTAssertEqual(opened.count, 1, "one inotify instance for every watch")
        let fd = try XCTUnwrap(opened.first)
        XCTAssertEqual(Set(watchedInodes(of: fd)), [inode(of: first.path), inode(of: second.path)])
        XCTAssertEqual(watchedInodes(of: fd).count, 2, "two watches of one directory share its kernel watch")

        watchingFirst.dispose()
        XCTAssertEqual(Set(watchedInodes(of: fd)), [inode(of: first.path), inode(of: second.path)])
        againFirst.dispose()
        XCTAssertEqual(watchedInodes(of: fd), [inode(of: second.path)], "the last watch of a directory removes it")
        watchingSecond.dispose()
        XCTAssertEqual(inotifyDescriptors(), before, "the last watch closes the inotify descriptor")
        waitUntil { threadCount(named: "tether-inotify") == 0 }
    }

    func testTheCompletionOfAWatchRemovesItToo() {
        let parent = TemporaryDirectory()
        defer { parent.remove() }
        let before = inotifyDescriptors()
        let path = parent("gone")
        XCTAssertEqual(mkdir(path, 0o755), 0)
        let log = EventLog<FileEvent, FileWatchError>()
        let done = log.expectation(count: 2)
        Signal.fileEvents(at: path).record(into: log)
        rmdir(path)
        wait(for: [done], timeout: 30)
        waitUntil { inotifyDescriptors() == before }
    }

    func testDisposingFromInsideTheSubscriberOnTheReaderThread() {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let before = inotifyDescriptors()
        let log = EventLog<FileEvent, FileWatchError>()
        let holder = Locked<(any Disposable)?>(nil)
        let first = log.expectation(count: 1)
        holder.value = Signal.fileEvents(at: directory.path).subscribe(next: { event in
            log.append(.next(event))
            holder.value?.dispose()
        })
        writeInPlace(directory("one"), "1")
        writeInPlace(directory("two"), "2")
        wait(for: [first], timeout: 30)
        waitUntil { inotifyDescriptors() == before }
        XCTAssertEqual(log.values, [.created(directory("one"))])
        holder.value = nil
    }

    func testDisposeFromAnotherThreadReturnsAfterTheRunningCallback() {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let order = Locked<[String]>([])
        let entered = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let subscription = Signal.fileEvents(at: directory.path).subscribe(next: { _ in
            entered.signal()
            release.wait()
            order.mutate { $0.append("callback returned") }
        })
        writeInPlace(directory("trigger"), "")
        waitOrFail(entered, "the callback")
        let disposing = DispatchSemaphore(value: 0)
        let disposed = startThread {
            disposing.signal()
            subscription.dispose()
            order.mutate { $0.append("dispose returned") }
        }
        disposing.wait()
        usleep(20_000)  // gives dispose() time to (wrongly) return while the callback still runs
        release.signal()
        waitOrFail(disposed, "dispose")
        XCTAssertEqual(order.value.first, "callback returned")
        XCTAssertEqual(order.value.last, "dispose returned")
    }

    func testNothingArrivesAfterDispose() {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let log = EventLog<FileEvent, FileWatchError>()
        let witness = EventLog<FileEvent, FileWatchError>()
        let watching = Signal.fileEvents(at: directory.path).record(into: log)
        let staying = Signal.fileEvents(at: directory.path).record(into: witness)
        defer { staying.dispose() }
        let first = log.expectation(count: 1)
        writeInPlace(directory("before"), "")
        wait(for: [first], timeout: 30)
        watching.dispose()
        let later = witness.expectation(count: 2)
        mkdir(directory("after"), 0o755)
        wait(for: [later], timeout: 30)
        XCTAssertEqual(log.values, [.created(directory("before"))])
    }

    func testThreadsSubscribingAndDisposingWhileFilesChange() {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let before = inotifyDescriptors()
        let writer = startThread {
            for index in 0..<300 { writeInPlace(directory("file\(index % 7)"), "\(index)") }
        }
        runThreads(4) { thread in
            for round in 0..<40 {
                let subscription: any Disposable
                switch (thread + round) % 3 {
                case 0: subscription = Signal.fileEvents(at: directory.path).subscribe(next: { _ in })
                case 1: subscription = Signal.directoryEntries(at: directory.path).subscribe(next: { _ in })
                default:
                    subscription = Signal.fileEvents(
                        at: directory.path, coalescingFor: .milliseconds(1), on: QueueScheduler()
                    )
                    .subscribe(next: { _ in })
                }
                subscription.dispose()
            }
        }
        waitOrFail(writer, "the writer")
        XCTAssertEqual(inotifyDescriptors(), before)
    }

    func testTheErrnoOfAFailedWatchMapsToItsTypedError() {
        XCTAssertEqual(FileWatchError(errno: ENOSPC, path: "/srv"), .watchLimitReached("/srv"))
        XCTAssertTrue(
            FileWatchError(errno: ENOSPC, path: "/srv").description.contains("fs.inotify.max_user_watches"),
            FileWatchError(errno: ENOSPC, path: "/srv").description)
        XCTAssertEqual(FileWatchError(errno: EACCES, path: "/root"), .permissionDenied("/root"))
        XCTAssertEqual(FileWatchError(errno: EPERM, path: "/root"), .permissionDenied("/root"))
        XCTAssertEqual(FileWatchError(errno: ENOENT, path: "/gone"), .noSuchPath("/gone"))
        XCTAssertEqual(FileWatchError(errno: ENOTDIR, path: "/etc/hostname/x"), .noSuchPath("/etc/hostname/x"))
        XCTAssertEqual(
            FileWatchError(errno: ENOMEM, path: "/srv"), .systemCallFailed(call: "inotify_add_watch", errno: ENOMEM))
        XCTAssertTrue(FileWatchError.eventQueueOverflow("/srv").description.contains("fs.inotify.max_queued_events"))
        XCTAssertTrue(FileWatchError.instanceLimitReached.description.contains("fs.inotify.max_user_instances"))
    }
}
