import TetherEngine
import XCTest

/// The flag set once: a one-shot claim, and the publication of what its setter wrote before.
final class OnceFlagTests: XCTestCase {
    func testOnlyTheFirstSetReturnsTrueAndTheFlagStaysSet() {
        let flag = OnceFlag()
        XCTAssertFalse(flag.isSet)
        XCTAssertTrue(flag.set())
        XCTAssertTrue(flag.isSet)
        XCTAssertFalse(flag.set())
        XCTAssertTrue(flag.isSet)
    }

    func testAmongThreadsSettingAtOnceExactlyOneWins() {
        final class Round: Sendable {
            let flag = OnceFlag()
            let winners = LockedState(0)
        }
        for _ in 0..<200 {
            let round = Round()
            XCTAssertTrue(
                onThreads(4) { _ in
                    if round.flag.set() { round.winners.withLock { $0 += 1 } }
                })
            XCTAssertEqual(round.winners.withLock { $0 }, 1)
        }
    }

    /// What the setter wrote before `set()` is visible to a thread that reads `isSet` as `true`. The write
    /// is a plain one: under Thread Sanitizer, a flag that did not order it would be reported as a race.
    func testWhatTheSetterWroteBeforeSettingIsVisibleToAReaderThatSeesItSet() {
        final class Publication: @unchecked Sendable {
            // Safety: `payload` is written once, before `published` is set, and read only after reading it
            // set — the ordering under test.
            var payload = 0
            let published = OnceFlag()
        }
        for round in 1...500 {
            let publication = Publication()
            let mismatches = LockedState(0)
            XCTAssertTrue(
                onThreads(2) { index in
                    if index == 0 {
                        publication.payload = round
                        publication.published.set()
                    } else if publication.published.isSet, publication.payload != round {
                        mismatches.withLock { $0 += 1 }
                    }
                })
            XCTAssertEqual(mismatches.withLock { $0 }, 0)
        }
    }
}
