import TetherEngine
import XCTest

/// The latch that fires once, for the last of the pending work and the close.
final class DrainLatchTests: XCTestCase {
    func testClosingWithNothingPendingFires() {
        let latch = DrainLatch()
        XCTAssertTrue(latch.close())
    }

    /// The doc comment's example: the close comes first, the last item fires.
    func testTheLastItemDoneAfterTheCloseFires() {
        let latch = DrainLatch()
        latch.enter()
        latch.enter()
        XCTAssertFalse(latch.close())
        XCTAssertFalse(latch.leave())
        XCTAssertTrue(latch.leave())
    }

    func testTheCloseAfterEveryItemIsDoneFires() {
        let latch = DrainLatch()
        latch.enter()
        XCTAssertFalse(latch.leave(), "not closed: more may come")
        latch.enter()
        XCTAssertFalse(latch.leave())
        XCTAssertTrue(latch.close())
    }

    /// Items done on several threads while another closes: exactly one caller fires.
    func testWithConcurrentItemsAndACloseExactlyOneCallerFires() {
        final class Round: Sendable {
            let latch = DrainLatch()
            let fired = LockedState(0)
        }
        let workers = 3
        let perWorker = 200
        for _ in 0..<50 {
            let round = Round()
            // Entered before the hand-off, as a boundary sink does before queueing.
            for _ in 0..<(workers * perWorker) { round.latch.enter() }
            XCTAssertTrue(
                onThreads(workers + 1) { index in
                    if index == workers {
                        if round.latch.close() { round.fired.withLock { $0 += 1 } }
                        return
                    }
                    for _ in 0..<perWorker where round.latch.leave() {
                        round.fired.withLock { $0 += 1 }
                    }
                })
            XCTAssertEqual(round.fired.withLock { $0 }, 1)
        }
    }
}
