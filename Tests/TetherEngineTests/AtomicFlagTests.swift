import TetherEngine
import XCTest

/// The package's one flag: a one-shot claim, a publication of what its setter wrote before, a request its
/// owner takes.
final class AtomicFlagTests: XCTestCase {
    func testOnlyTheFirstSetReturnsTrueAndTheFlagStaysSet() {
        let flag = AtomicFlag()
        XCTAssertFalse(flag.isSet)
        XCTAssertTrue(flag.raise())
        XCTAssertTrue(flag.isSet)
        XCTAssertFalse(flag.raise())
        XCTAssertTrue(flag.isSet)
    }

    func testAmongThreadsSettingAtOnceExactlyOneWins() {
        final class Round: Sendable {
            let flag = AtomicFlag()
            let winners = LockedState(0)
        }
        for _ in 0..<200 {
            let round = Round()
            XCTAssertTrue(
                onThreads(4) { _ in
                    if round.flag.raise() { round.winners.withLock { $0 += 1 } }
                })
            XCTAssertEqual(round.winners.withLock { $0 }, 1)
        }
    }

    /// What the setter wrote before `raise()` is visible to a thread that reads `isSet` as `true`. The write
    /// is a plain one: under Thread Sanitizer, a flag that did not order it would be reported as a race.
    func testWhatTheSetterWroteBeforeSettingIsVisibleToAReaderThatSeesItSet() {
        final class Publication: @unchecked Sendable {
            // Safety: `payload` is written once, before `published` is set, and read only after reading it
            // set — the ordering under test.
            var payload = 0
            let published = AtomicFlag()
        }
        for round in 1...500 {
            let publication = Publication()
            let mismatches = LockedState(0)
            XCTAssertTrue(
                onThreads(2) { index in
                    if index == 0 {
                        publication.payload = round
                        publication.published.raise()
                    } else if publication.published.isSet, publication.payload != round {
                        mismatches.withLock { $0 += 1 }
                    }
                })
            XCTAssertEqual(mismatches.withLock { $0 }, 0)
        }
    }

    func testAStoredFlagCanBeClearedAndRaisedAgain() {
        let flag = AtomicFlag()
        flag.store(true)
        XCTAssertTrue(flag.isSet)
        XCTAssertFalse(flag.raise(), "already set by the store")
        flag.store(false)
        XCTAssertFalse(flag.isSetRelaxed)
        XCTAssertTrue(flag.raise())
        XCTAssertTrue(flag.isSetSequentiallyConsistent)
    }

    func testTakeIfSetClearsTheFlagAndReportsItOnce() {
        let flag = AtomicFlag()
        XCTAssertFalse(flag.takeIfSet())
        flag.store(true)
        XCTAssertTrue(flag.takeIfSet())
        XCTAssertFalse(flag.isSet)
        XCTAssertFalse(flag.takeIfSet())
    }

    /// A request stored by many threads while its owner takes it: every store is taken at most once, and a
    /// store after the owner's last take is still there — none is lost between a take and a store.
    func testARequestStoredWhileItsOwnerTakesItIsNeverLost() {
        final class Round: Sendable {
            let request = AtomicFlag()
            let taken = LockedState(0)
        }
        for _ in 0..<200 {
            let round = Round()
            XCTAssertTrue(
                onThreads(3) { index in
                    if index == 0 {
                        for _ in 0..<50 where round.request.takeIfSet() { round.taken.withLock { $0 += 1 } }
                    } else {
                        for _ in 0..<20 { round.request.store(true) }
                    }
                })
            let takenDuring = round.taken.withLock { $0 }
            XCTAssertLessThanOrEqual(takenDuring, 40)
            XCTAssertTrue(round.request.takeIfSet() || takenDuring > 0, "the stores were taken or are still there")
        }
    }
}
