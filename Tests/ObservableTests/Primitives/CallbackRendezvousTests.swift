import Foundation
import Observable
import Synchronization
import TetherEngine
import TetherTestSupport
import XCTest

/// `CallbackRendezvous` on its own, driven through scripted and explored interleavings: a disposer returns at
/// once when the owner is idle, calls another subscription, or is the disposer's own thread; it waits exactly
/// while its subscription's callback is in flight on another thread and is woken when the owner moves on
/// (another callback, the end of its ownership, a `skipped` report); a sole subscription's disposer waits
/// until the owner acknowledged the disposal or left.
final class CallbackRendezvousTests: XCTestCase {
    /// One subscription of a `Source`: its flags, and what its callback saw.
    final class Subscription: Sendable {
        let name: String
        let id: UInt
        let disposed = Atomic<Bool>(false)
        let skipped = Atomic<Bool>(false)
        /// How many callbacks to it began.
        let calls = Atomic<Int>(0)
        /// 1 while its callback runs.
        let inside = Atomic<Int>(0)
        let disposeReturned = Atomic<Bool>(false)
        /// Violations of guarantee 2 seen by the callback or the disposer.
        let violations = Atomic<Int>(0)

        init(_ name: String, id: UInt) {
            self.name = name
            self.id = id
        }
    }

    /// A minimal source built on the rendezvous, as `SerialGate` and `PropertyObserverList` are: the owner's thread
    /// ID in `ownerWord` (taken and given up with sequentially consistent operations), callbacks published
    /// with `enter`, checked against the disposed flag, reported through `skipped` when disposed.
    final class Source: @unchecked Sendable {
        // Safety: only atomics and the rendezvous (atomics).
        let rendezvous = CallbackRendezvous()
        let ownerWord = Atomic<UInt>(0)

        var address: UInt { parkingAddress(of: self) }

        func acquire() {
            let taken = ownerWord.compareExchange(
                expected: 0, desired: currentThreadID, ordering: .sequentiallyConsistent)
            precondition(taken.exchanged, "the script takes an idle source")
        }

        /// Gives the source up; `exiting: false` for a source with one subscription, which never publishes a
        /// callback (its `current` is the acknowledgment).
        func release(exiting: Bool = true) {
            if exiting { rendezvous.exit() }
            ownerWord.store(0, ordering: .sequentiallyConsistent)
            rendezvous.ownerLeft(wakingAt: address)
        }

        /// The owner calls `subscription` (unless disposed: then it reports `skipped` and stops at "skipped
        /// <name>"); the callback stops at "in <name>" and runs `body`.
        func call(_ subscription: Subscription, body: () -> Void = {}) {
            rendezvous.enter(subscription.id, wakingAt: address)
            if subscription.disposed.load(ordering: .sequentiallyConsistent) {
                subscription.skipped.store(true, ordering: .releasing)
                Interleaving.point("skipped \(subscription.name)")
                return
            }
            if subscription.disposeReturned.load(ordering: .acquiring) {
                subscription.violations.wrappingAdd(1, ordering: .relaxed)
            }
            subscription.inside.store(1, ordering: .releasing)
            subscription.calls.wrappingAdd(1, ordering: .relaxed)
            Interleaving.point("in \(subscription.name)")
            body()
            subscription.inside.store(0, ordering: .releasing)
        }

        /// Disposes `subscription` from any thread; `fromItsOwnCallback`: the caller is inside that callback
        /// on the owner thread, so no check of `inside` applies.
        func dispose(_ subscription: Subscription, fromItsOwnCallback: Bool = false) {
            subscription.disposed.store(true, ordering: .sequentiallyConsistent)
            rendezvous.waitForCallback(subscription.id, parkingAt: address) {
                ownerWord.load(ordering: .sequentiallyConsistent)
            } skipped: {
                subscription.skipped.load(ordering: .relaxed)
            }
            if !fromItsOwnCallback && subscription.inside.load(ordering: .acquiring) != 0 {
                subscription.violations.wrappingAdd(1, ordering: .relaxed)
            }
            subscription.disposeReturned.store(true, ordering: .releasing)
        }

        /// A source with one subscription: the owner's boundary check.
        func soleBoundary(_ subscription: Subscription) -> Bool {
            if subscription.disposed.load(ordering: .relaxed) {
                rendezvous.acknowledgeDisposal(wakingAt: address)
                return false
            }
            return true
        }

        func disposeSole(_ subscription: Subscription) {
            subscription.disposed.store(true, ordering: .sequentiallyConsistent)
            rendezvous.waitForSoleSubscription(parkingAt: address) { ownerWord.load(ordering: .sequentiallyConsistent) }
            subscription.disposeReturned.store(true, ordering: .releasing)
        }
    }

    // MARK: Returning at once

    func testADisposerReturnsAtOnceWhenTheOwnerIsIdle() {
        let source = Source()
        let a = Subscription("A", id: 10)
        let run = Interleaving()
        let disposer = run.spawn("disposer") { source.dispose(a) }
        XCTAssertEqual(run.step(disposer), .finished)
        XCTAssertEqual(run.parks(of: disposer), 0)
        run.finish()
    }

    func testADisposerReturnsAtOnceWhileTheOwnerCallsAnotherSubscription() {
        let source = Source()
        let a = Subscription("A", id: 10)
        let b = Subscription("B", id: 20)
        let run = Interleaving()
        let owner = run.spawn("owner") {
            source.acquire()
            source.call(b)
            source.release()
        }
        let disposer = run.spawn("disposer") { source.dispose(a) }
        XCTAssertEqual(run.step(owner), .ready("in B"))
        XCTAssertEqual(run.step(disposer), .finished, "B's callback is not A's: dispose() of A does not wait")
        XCTAssertEqual(run.parks(of: disposer), 0)
        XCTAssertEqual(b.inside.load(ordering: .acquiring), 1, "B's callback is still in flight")
        run.finish()
        XCTAssertEqual(a.calls.load(ordering: .relaxed), 0)
    }

    func testADisposerOnTheOwnerThreadReturnsAtOnceFromInsideItsOwnCallback() {
        let source = Source()
        let a = Subscription("A", id: 10)
        let run = Interleaving()
        let owner = run.spawn("owner") {
            source.acquire()
            source.call(a) {
                source.dispose(a, fromItsOwnCallback: true)
                Interleaving.point("disposed inside")
            }
            source.call(a)
            source.release()
        }
        XCTAssertEqual(run.step(owner), .ready("in A"))
        XCTAssertEqual(run.step(owner), .ready("disposed inside"), "waiting for its own callback would never end")
        XCTAssertEqual(run.parks(of: owner), 0)
        XCTAssertEqual(run.step(owner), .ready("skipped A"), "the next call finds A disposed")
        run.finish()
        XCTAssertEqual(a.calls.load(ordering: .relaxed), 1)
        XCTAssertEqual(a.violations.load(ordering: .relaxed), 0)
    }

    // MARK: Waiting for its own callback, and being woken

    func testADisposerWaitsWhileItsCallbackRunsAndIsWokenWhenTheOwnerEntersAnother() {
        let source = Source()
        let a = Subscription("A", id: 10)
        let b = Subscription("B", id: 20)
        let run = Interleaving()
        let owner = run.spawn("owner") {
            source.acquire()
            source.call(a) { Interleaving.point("A returning") }
            source.call(b)
            source.call(a)
            source.release()
        }
        let disposer = run.spawn("disposer") { source.dispose(a) }
        XCTAssertEqual(run.step(owner), .ready("in A"))
        XCTAssertTrue(run.step(disposer).isParked, "A's callback is in flight on the owner: dispose() waits")
        XCTAssertEqual(run.step(owner), .ready("A returning"))
        XCTAssertTrue(run.state(of: disposer).isParked, "still inside A's callback: nobody woke the disposer")
        XCTAssertEqual(run.step(owner), .ready("in B"))
        XCTAssertEqual(run.state(of: disposer), .woken, "entering B woke the disposer")
        XCTAssertEqual(run.step(disposer), .finished, "dispose() returns while B's callback runs: not its own")
        XCTAssertEqual(run.parks(of: disposer), 1)
        XCTAssertEqual(run.step(owner), .ready("skipped A"), "the call after dispose() returned skips A")
        run.finish()
        XCTAssertEqual(a.calls.load(ordering: .relaxed), 1)
        XCTAssertEqual(a.violations.load(ordering: .relaxed), 0)
    }

    func testADisposerParkedOnTheLastCallbackIsWokenWhenTheOwnerLeaves() {
        let source = Source()
        let a = Subscription("A", id: 10)
        let run = Interleaving()
        let owner = run.spawn("owner") {
            source.acquire()
            source.call(a)
            source.release()
            Interleaving.point("released")
        }
        let disposer = run.spawn("disposer") { source.dispose(a) }
        XCTAssertEqual(run.step(owner), .ready("in A"))
        XCTAssertTrue(run.step(disposer).isParked)
        XCTAssertEqual(run.step(owner), .ready("released"))
        XCTAssertEqual(run.state(of: disposer), .woken, "giving the source up woke the disposer")
        XCTAssertEqual(run.step(disposer), .finished)
        run.finish()
        XCTAssertEqual(a.violations.load(ordering: .relaxed), 0)
    }

    func testASkippedReportEndsTheWaitWhileTheOwnerStillPublishesTheSubscription() {
        let source = Source()
        let a = Subscription("A", id: 10)
        let run = Interleaving()
        let owner = run.spawn("owner") {
            source.acquire()
            source.call(a)
            source.call(a)  // found disposed: `current` stays A, `skipped` is reported
            source.release()
        }
        let disposer = run.spawn("disposer") { source.dispose(a) }
        XCTAssertEqual(run.step(owner), .ready("in A"))
        XCTAssertTrue(run.step(disposer).isParked)
        XCTAssertEqual(run.step(owner), .ready("skipped A"))
        XCTAssertEqual(run.state(of: disposer), .woken)
        XCTAssertEqual(
            run.step(disposer), .finished,
            "A is still published, but the owner reported that it will never call it again")
        XCTAssertEqual(run.state(of: owner), .ready("skipped A"))
        run.finish()
        XCTAssertEqual(a.calls.load(ordering: .relaxed), 1)
        XCTAssertEqual(a.violations.load(ordering: .relaxed), 0)
    }

    func testEveryScheduleOfOneDisposerAgainstAnOwnerCallingTwoSubscriptionsKeepsGuaranteeTwo() {
        let schedules = exploreInterleavings { run in
            let source = Source()
            let a = Subscription("A", id: 10)
            let b = Subscription("B", id: 20)
            run.spawn("owner") {
                source.acquire()
                Interleaving.point("owns")
                source.call(a)
                source.call(b)
                source.call(a)
                source.release()
            }
            run.spawn("disposer") {
                Interleaving.point("disposing")
                source.dispose(a)
            }
            return {
                var found: [String] = []
                if a.violations.load(ordering: .relaxed) != 0 { found.append("A called after, or during, dispose()") }
                if b.calls.load(ordering: .relaxed) != 1 { found.append("B not called once") }
                if !a.disposeReturned.load(ordering: .relaxed) { found.append("dispose() did not return") }
                return found
            }
        }
        XCTAssertGreaterThan(schedules, 5)
    }

    // MARK: A sole subscription

    func testASoleSubscriptionsDisposerWaitsUntilTheOwnerAcknowledgesTheDisposal() {
        let source = Source()
        let a = Subscription("A", id: 1)
        let run = Interleaving()
        let owner = run.spawn("owner") {
            source.acquire()
            while source.soleBoundary(a) { Interleaving.point("in A") }
            Interleaving.point("acknowledged")
            source.release(exiting: false)
        }
        let disposer = run.spawn("disposer") { source.disposeSole(a) }
        XCTAssertEqual(run.step(owner), .ready("in A"))
        XCTAssertTrue(run.step(disposer).isParked, "the one subscription's callback is in flight")
        XCTAssertEqual(run.step(owner), .ready("acknowledged"))
        XCTAssertEqual(run.state(of: disposer), .woken, "the acknowledgment woke the disposer")
        XCTAssertEqual(run.step(disposer), .finished, "it returns while the owner still owns the source")
        run.finish()
    }

    func testASoleSubscriptionsDisposerReturnsAtOnceWhenIdleOrOnTheOwnerThreadOrAlreadyAcknowledged() {
        let source = Source()
        let a = Subscription("A", id: 1)
        let run = Interleaving()
        let idle = run.spawn("idle disposer") { source.disposeSole(a) }
        XCTAssertEqual(run.step(idle), .finished)
        let owner = run.spawn("owner") {
            source.acquire()
            source.disposeSole(a)
            Interleaving.point("disposed inside")
            _ = source.soleBoundary(a)
            Interleaving.point("acknowledged")
            source.release(exiting: false)
        }
        XCTAssertEqual(run.step(owner), .ready("disposed inside"), "on the owner thread it returns at once")
        XCTAssertEqual(run.step(owner), .ready("acknowledged"))
        let late = run.spawn("late disposer") { source.disposeSole(a) }
        XCTAssertEqual(run.step(late), .finished, "acknowledged: the owner calls nothing more")
        XCTAssertEqual(run.parks(of: idle) + run.parks(of: owner) + run.parks(of: late), 0)
        run.finish()
    }

    func testASoleSubscriptionsDisposerIsWokenWhenTheOwnerLeavesWithoutAcknowledging() {
        let source = Source()
        let a = Subscription("A", id: 1)
        let run = Interleaving()
        let owner = run.spawn("owner") {
            source.acquire()
            Interleaving.point("in A")
            source.release(exiting: false)
            Interleaving.point("released")
        }
        let disposer = run.spawn("disposer") { source.disposeSole(a) }
        XCTAssertEqual(run.step(owner), .ready("in A"))
        XCTAssertTrue(run.step(disposer).isParked)
        XCTAssertEqual(run.step(owner), .ready("released"))
        XCTAssertEqual(run.state(of: disposer), .woken)
        XCTAssertEqual(run.step(disposer), .finished)
        run.finish()
    }
}
