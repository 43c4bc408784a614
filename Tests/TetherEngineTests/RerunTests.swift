import Dispatch
import Foundation
import Synchronization
import TetherEngine
import XCTest

/// ``Rerun``'s runtime on real threads: several threads request while the work runs. Never two runs at
/// once (an atomic count of the runs inside the work), and a run starts after every request (each request
/// is numbered before it is made; the last run to start must see the last number). A watchdog turns a
/// hang into a failure; nothing depends on timing.
final class RerunTests: XCTestCase {
    private static let threads = 4
    private static let requestsPerThread = 3_000

    func testRequestsFromSeveralThreadsAreEachFollowedByARunAndRunsNeverOverlap() {
        let probe = WorkProbe()
        let rerun = Rerun()
        rerun.install { probe.run() }
        let total = Self.threads * Self.requestsPerThread
        XCTAssertTrue(
            onThreads(Self.threads) { _ in
                for _ in 0..<Self.requestsPerThread {
                    probe.requested.add(1, ordering: .sequentiallyConsistent)
                    rerun.runNow()
                }
            }, "the requesters did not finish")
        // Every runner is one of the requesters: all runs are over.
        XCTAssertEqual(probe.overlaps.load(ordering: .sequentiallyConsistent), 0, "two runs at once")
        XCTAssertEqual(probe.seenByLastRun.load(ordering: .sequentiallyConsistent), total)
        let runs = probe.runs.load(ordering: .sequentiallyConsistent)
        XCTAssertLessThanOrEqual(runs, total)
        print("Rerun: \(total) requests from \(Self.threads) threads, \(runs) runs")
    }

    func testRunGivenItsWorkServesRequestsMadeWhileItRuns() {
        let probe = WorkProbe()
        let rerun = Rerun()
        let total = Self.threads * Self.requestsPerThread
        XCTAssertTrue(
            onThreads(Self.threads) { _ in
                for _ in 0..<Self.requestsPerThread {
                    probe.requested.add(1, ordering: .sequentiallyConsistent)
                    rerun.run { probe.run() }
                }
            }, "the requesters did not finish")
        XCTAssertEqual(probe.overlaps.load(ordering: .sequentiallyConsistent), 0, "two runs at once")
        XCTAssertEqual(probe.seenByLastRun.load(ordering: .sequentiallyConsistent), total)
    }

    func testRequestsInWindowsFromSeveralThreadsAreEachFollowedByARun() {
        let total = Self.threads * Self.requestsPerThread
        let probe = WorkProbe(signalWhenSeen: total)
        // A window that elapses as soon as a thread of the global queue takes it.
        let rerun = Rerun(window: { elapsed in
            DispatchQueue.global().async { elapsed() }
            return {}
        })
        rerun.install { probe.run() }
        XCTAssertTrue(
            onThreads(Self.threads) { index in
                for request in 0..<Self.requestsPerThread {
                    probe.requested.add(1, ordering: .sequentiallyConsistent)
                    if index == 0 && request % 7 == 0 { rerun.runNow() } else { rerun.request() }
                }
            }, "the requesters did not finish")
        XCTAssertEqual(probe.allSeen.wait(timeout: .now() + 60), .success, "no run after the last request")
        XCTAssertEqual(probe.overlaps.load(ordering: .sequentiallyConsistent), 0, "two runs at once")
        let runs = probe.runs.load(ordering: .sequentiallyConsistent)
        print("Rerun with windows: \(total) requests from \(Self.threads) threads, \(runs) runs")
    }

    func testNoRunStartsAfterDisposeButTheOneAlreadyGivenAndTheWorkIsReleased() {
        let disposal = DisposalProbe()
        let probe = WorkProbe(atStart: {
            if disposal.disposed.load(ordering: .sequentiallyConsistent) {
                disposal.startsAfterDispose.add(1, ordering: .sequentiallyConsistent)
            }
        })
        let rerun = Rerun()
        weak var weakOwner: Owner?
        do {
            let owner = Owner()
            weakOwner = owner
            rerun.install { withExtendedLifetime(owner) { probe.run() } }
        }
        XCTAssertTrue(
            onThreads(Self.threads + 1) { index in
                if index == Self.threads {
                    // Dispose while the others request.
                    for _ in 0..<Self.requestsPerThread / 4 { rerun.runNow() }
                    rerun.dispose()
                    disposal.disposed.store(true, ordering: .sequentiallyConsistent)
                    return
                }
                for _ in 0..<Self.requestsPerThread { rerun.runNow() }
            }, "the requesters did not finish")
        XCTAssertEqual(probe.overlaps.load(ordering: .sequentiallyConsistent), 0, "two runs at once")
        XCTAssertLessThanOrEqual(disposal.startsAfterDispose.load(ordering: .sequentiallyConsistent), 1)
        XCTAssertNil(weakOwner, "dispose did not release the work")
        let runs = probe.runs.load(ordering: .sequentiallyConsistent)
        rerun.runNow()
        XCTAssertEqual(probe.runs.load(ordering: .sequentiallyConsistent), runs, "a run after dispose")
    }
}

/// What the work records: runs inside it at once, runs, and the request count its last run saw.
private final class WorkProbe: Sendable {
    let requested = Atomic<Int>(0)
    let inside = Atomic<Int>(0)
    let overlaps = Atomic<Int>(0)
    let runs = Atomic<Int>(0)
    let seenByLastRun = Atomic<Int>(0)
    let allSeen = DispatchSemaphore(value: 0)
    /// The request count at which a run signals ``allSeen``.
    let signalWhenSeen: Int
    /// Called at the start of each run.
    let atStart: @Sendable () -> Void

    init(signalWhenSeen: Int = .max, atStart: @escaping @Sendable () -> Void = {}) {
        self.signalWhenSeen = signalWhenSeen
        self.atStart = atStart
    }

    func run() {
        if inside.add(1, ordering: .sequentiallyConsistent).newValue != 1 {
            overlaps.add(1, ordering: .sequentiallyConsistent)
        }
        atStart()
        let seen = requested.load(ordering: .sequentiallyConsistent)
        seenByLastRun.store(seen, ordering: .sequentiallyConsistent)
        runs.add(1, ordering: .sequentiallyConsistent)
        // A little work, so that requests arrive while it runs.
        var sum = 0
        for index in 0..<5_000 { sum &+= index &* seen }
        blackHole(sum)
        if seen == signalWhenSeen { allSeen.signal() }
        inside.subtract(1, ordering: .sequentiallyConsistent)
    }
}

/// Whether dispose returned, and how many runs started after it did.
private final class DisposalProbe: Sendable {
    let disposed = Atomic<Bool>(false)
    let startsAfterDispose = Atomic<Int>(0)
}

/// Something the work captures, to see it released.
private final class Owner: Sendable {}

@inline(never)
private func blackHole(_ value: Int) {
    withExtendedLifetime(value) {}
}
