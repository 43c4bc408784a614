import Foundation
import Synchronization
import TetherEngine
import XCTest

/// A source confined to one isolation, as `@Observed`'s observer list uses ``ConfinedDelivery``: one
/// subscriber, called by whoever delivers.
private final class ConfinedSource: @unchecked Sendable {
    // Safety: `epoch` is touched by the delivering thread only (one delivery at a time, as the type
    // requires); `delivery` and `flags` are the engine's thread-safe state.
    let delivery = ConfinedDelivery()
    let flags = SubscriberFlags()
    var epoch: UInt = 0
    var address: UInt { parkingAddress(of: self) }
    let id: UInt = 0x1000

    /// One delivery to the subscriber, running `callback` unless it was disposed; returns whether it ran.
    func deliver(_ callback: () -> Void) -> Bool {
        epoch &+= 1
        delivery.begin(epoch: epoch)
        var called = false
        delivery.callUnlessDisposed(id, flags, wakingAt: address) {
            called = true
            callback()
        }
        delivery.end(wakingAt: address)
        return called
    }

    /// What a disposer does: marks the subscriber, then waits for its callback in flight.
    func dispose() -> (wasDisposed: Bool, insideDelivery: Bool) {
        let wasDisposed = flags.markDisposed()
        return (wasDisposed, delivery.waitForCallback(id, flags: flags, parkingAt: address))
    }
}

/// The engine's delivery state for a source confined to one isolation (`@Observed`'s observers): the
/// disposal fence and the compaction request.
final class ConfinedDeliveryTests: XCTestCase {
    func testADisposerOfAnIdleSourceReturnsAtOnceAndTheSubscriberIsNeverCalledAgain() {
        let source = ConfinedSource()
        XCTAssertTrue(source.deliver {})
        let (wasDisposed, inside) = source.dispose()
        XCTAssertFalse(wasDisposed)
        XCTAssertFalse(inside, "nobody delivers")
        XCTAssertFalse(source.deliver { XCTFail("called after dispose returned") })
        XCTAssertTrue(source.flags.wasSkipped, "the delivery reports the skip")
        XCTAssertTrue(source.dispose().wasDisposed, "a second dispose finds it disposed")
    }

    func testADisposeFromInsideTheSubscribersOwnCallbackSaysSoAndDoesNotWait() {
        let source = ConfinedSource()
        var result: (wasDisposed: Bool, insideDelivery: Bool)?
        XCTAssertTrue(source.deliver { result = source.dispose() })
        XCTAssertEqual(result?.wasDisposed, false)
        XCTAssertEqual(result?.insideDelivery, true, "the caller must defer releasing what may be on its stack")
        XCTAssertFalse(source.deliver { XCTFail("called after dispose") })
    }

    /// Guarantee 2: once `dispose()` returns on another thread, the callback in flight has returned.
    /// (The callback lingers so that the disposer very likely arrives while it runs; the assertion holds
    /// whatever the timing.)
    func testADisposerOnAnotherThreadReturnsOnlyAfterTheCallbackInFlightReturned() {
        for _ in 0..<20 {
            let source = ConfinedSource()
            let callbackReturned = Atomic<Bool>(false)
            let inCallback = DispatchSemaphore(value: 0)
            let disposed = DispatchSemaphore(value: 0)
            let sawCallbackReturned = Atomic<Bool>(false)
            Thread {
                _ = source.deliver {
                    inCallback.signal()
                    Thread.sleep(forTimeInterval: 0.005)
                    callbackReturned.store(true, ordering: .sequentiallyConsistent)
                }
            }.start()
            inCallback.wait()
            Thread {
                let (_, inside) = source.dispose()
                XCTAssertFalse(inside)
                sawCallbackReturned.store(
                    callbackReturned.load(ordering: .sequentiallyConsistent), ordering: .sequentiallyConsistent)
                disposed.signal()
            }.start()
            XCTAssertEqual(disposed.wait(timeout: .now() + 30), .success, "the disposer never returned")
            XCTAssertTrue(sawCallbackReturned.load(ordering: .sequentiallyConsistent))
        }
    }

    /// Many deliveries on one thread while another disposes: no call once `dispose()` has returned, and the
    /// disposer never waits for good (a watchdog turns a hang into a failure).
    func testDeliveriesRacingADisposerNeverCallTheSubscriberAfterDisposeReturned() {
        for _ in 0..<200 {
            let source = ConfinedSource()
            let disposeReturned = Atomic<Bool>(false)
            let calledAfterDispose = Atomic<Bool>(false)
            let stop = Atomic<Bool>(false)
            let ownerDone = DispatchSemaphore(value: 0)
            Thread {
                while !stop.load(ordering: .relaxed) {
                    _ = source.deliver {
                        if disposeReturned.load(ordering: .sequentiallyConsistent) {
                            calledAfterDispose.store(true, ordering: .relaxed)
                        }
                    }
                }
                ownerDone.signal()
            }.start()
            _ = source.dispose()
            disposeReturned.store(true, ordering: .sequentiallyConsistent)
            Thread.sleep(forTimeInterval: 0.0005)  // the owner runs more deliveries after the dispose
            stop.store(true, ordering: .relaxed)
            XCTAssertEqual(ownerDone.wait(timeout: .now() + 30), .success)
            XCTAssertFalse(calledAfterDispose.load(ordering: .relaxed))
        }
    }

    func testACompactionRequestIsTakenOnce() {
        let delivery = ConfinedDelivery()
        XCTAssertFalse(delivery.takeCompactionRequest())
        delivery.requestCompaction()
        delivery.requestCompaction()
        XCTAssertTrue(delivery.takeCompactionRequest())
        XCTAssertFalse(delivery.takeCompactionRequest(), "taking clears the request")
    }
}
