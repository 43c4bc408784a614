import XCTest

@testable import Binding

/// The echo bookkeeping of a property's channel (`ChannelEchoes`), driven one transition at a time with
/// no threads and no property: each test is a script of sets and notifications, as `ChannelCore` calls
/// them, and checks what the state machine decides.
final class ChannelEchoesTests: XCTestCase {
    /// The caller's step for a notification: compare with the expected echoes (by `==`), then consume the
    /// match or drop the stale ones. Returns whether the notification is sent on.
    private func notify(_ value: Int, on thread: UInt, _ echoes: inout ChannelEchoes<Int>) -> Bool {
        guard let expected = echoes.notificationArrived(on: thread) else {
            _ = echoes.replaceLatest(value)
            return true
        }
        if let matched = expected.first(where: { $0.value == value }) {
            _ = echoes.consume(through: matched.id)
            _ = echoes.replaceLatest(value)
            return false
        }
        _ = echoes.dropStale()
        _ = echoes.replaceLatest(value)
        return echoes.isExpectingNone
    }

    func testAChangeWithNoEchoExpectedIsSentOn() {
        var echoes = ChannelEchoes<Int>()
        XCTAssertTrue(notify(3, on: 1, &echoes))
        XCTAssertEqual(echoes.latest, 3)
        XCTAssertEqual(echoes.replay, 3)
    }

    func testTheEchoOfASetIsConsumedAndNotSentOn() {
        var echoes = ChannelEchoes<Int>()
        let id = echoes.announce(5)
        echoes.beginSet(id, on: 1)
        XCTAssertFalse(notify(5, on: 1, &echoes))
        XCTAssertNil(echoes.endSet(id, on: 1, deferred: false, ahead: nil, dropsUnheard: true))
        XCTAssertTrue(echoes.isExpectingNone)
        XCTAssertTrue(echoes.setsInProgress.isEmpty)
        XCTAssertTrue(echoes.deliversDuringSets)
        XCTAssertTrue(notify(6, on: 1, &echoes), "a later change by someone else is sent on")
    }

    func testAMatchConsumesTheEchoesBeforeItToo() {
        var echoes = ChannelEchoes<Int>()
        let first = echoes.announce(1)
        let second = echoes.announce(2)
        let third = echoes.announce(3)
        // A property that skips equal sets delivers only the last of three quick sets.
        let expected = echoes.notificationArrived(on: 9)
        XCTAssertEqual(expected?.map(\.id), [first, second, third])
        let consumed = echoes.consume(through: second)
        XCTAssertEqual(consumed.map(\.value), [1, 2])
        XCTAssertEqual(echoes.expected.map(\.id), [third])
        XCTAssertTrue(echoes.expectsOnly(third))
    }

    func testAClampedSetDeliveredDuringItsSetDropsItsEcho() {
        var echoes = ChannelEchoes<Int>()
        let id = echoes.announce(500)
        echoes.beginSet(id, on: 1)
        // The setter stored 100 (a clamp): the notification on the setting thread matches nothing.
        XCTAssertFalse(notify(100, on: 1, &echoes), "an echo is still expected while the set is in progress")
        let dropped = echoes.endSet(id, on: 1, deferred: false, ahead: nil, dropsUnheard: true)
        XCTAssertEqual(dropped?.value, 500)
        XCTAssertTrue(echoes.isExpectingNone)
        XCTAssertEqual(echoes.latest, 100)
    }

    func testASetDuringWhichNothingIsDeliveredStoredNothingOnceSetsAreKnownToDeliver() {
        var echoes = ChannelEchoes<Int>()
        // First learn that this property delivers during its sets.
        let first = echoes.announce(1)
        echoes.beginSet(first, on: 1)
        XCTAssertFalse(notify(1, on: 1, &echoes))
        _ = echoes.endSet(first, on: 1, deferred: false, ahead: nil, dropsUnheard: true)
        // Then a set that delivers nothing (the setter ignored the value): its echo is dropped.
        let second = echoes.announce(2)
        echoes.beginSet(second, on: 1)
        XCTAssertEqual(echoes.endSet(second, on: 1, deferred: false, ahead: nil, dropsUnheard: true)?.value, 2)
        XCTAssertTrue(echoes.isExpectingNone)
    }

    func testWithoutEqualityASilentSetKeepsItsEchoMarkedReturned() {
        var echoes = ChannelEchoes<Int>()
        let first = echoes.announce(1)
        echoes.beginSet(first, on: 1)
        _ = echoes.notificationArrived(on: 1).map { echoes.consume(through: $0[0].id) }
        _ = echoes.endSet(first, on: 1, deferred: false, ahead: nil, dropsUnheard: false)
        let second = echoes.announce(2)
        echoes.beginSet(second, on: 1)
        XCTAssertNil(echoes.endSet(second, on: 1, deferred: false, ahead: nil, dropsUnheard: false))
        XCTAssertEqual(echoes.expected.map(\.hasReturned), [true])
    }

    func testAReturnedEchoIsStaleAtTheNextUnmatchedNotificationWhenNoSetIsInProgress() {
        var echoes = ChannelEchoes<Int>()
        let id = echoes.announce(7)
        echoes.beginSet(id, on: 1)
        // Set on thread 1 but delivered by nobody during the set (and sets not yet known to deliver).
        XCTAssertNil(echoes.endSet(id, on: 1, deferred: false, ahead: nil, dropsUnheard: true))
        XCTAssertFalse(echoes.isExpectingNone)
        // A change by someone else: the returned echo is stale, dropped, and the change is sent on.
        XCTAssertTrue(notify(8, on: 2, &echoes))
        XCTAssertTrue(echoes.isExpectingNone)
    }

    func testAReturnedEchoIsNotStaleWhileAnotherSetIsInProgress() {
        var echoes = ChannelEchoes<Int>()
        let returned = echoes.announce(7)
        echoes.beginSet(returned, on: 1)
        _ = echoes.endSet(returned, on: 1, deferred: false, ahead: nil, dropsUnheard: true)
        let running = echoes.announce(9)
        echoes.beginSet(running, on: 2)
        XCTAssertFalse(notify(8, on: 3, &echoes), "a set is in progress: the change may be overwritten")
        XCTAssertEqual(echoes.expected.map(\.id), [returned, running])
    }

    func testADeferredSetKeepsItsEchoUntilItsDeadline() {
        var echoes = ChannelEchoes<Int>()
        let id = echoes.announce(5)
        echoes.beginSet(id, on: 1)
        // The gate left the set for later, behind two operations.
        XCTAssertNil(echoes.endSet(id, on: 1, deferred: true, ahead: 2, dropsUnheard: true))
        XCTAssertEqual(echoes.expected.first?.deadline, 3)
        XCTAssertFalse(echoes.expected[0].hasReturned, "a deferred set's echo stays as if in progress")
        XCTAssertFalse(notify(1, on: 2, &echoes), "changes queued before it: overwritten, not sent on")
        XCTAssertFalse(notify(2, on: 2, &echoes))
        // The third notification is where the set's own was due; it does not match: the setter stored
        // another value, the echo is stale, and the change is sent on.
        XCTAssertTrue(notify(4, on: 2, &echoes))
        XCTAssertTrue(echoes.isExpectingNone)
    }

    func testADeferredSetWithoutADeadlineWaitsForItsEcho() {
        var echoes = ChannelEchoes<Int>()
        let id = echoes.announce(5)
        echoes.beginSet(id, on: 1)
        XCTAssertNil(echoes.endSet(id, on: 1, deferred: true, ahead: nil, dropsUnheard: true))
        for value in 10..<20 { XCTAssertFalse(notify(value, on: 2, &echoes)) }
        XCTAssertFalse(notify(5, on: 2, &echoes))
        XCTAssertTrue(echoes.isExpectingNone)
    }

    func testEndingASetThatIsNotInProgressDoesNothing() {
        var echoes = ChannelEchoes<Int>()
        let id = echoes.announce(1)
        XCTAssertNil(echoes.endSet(id, on: 1, deferred: false, ahead: nil, dropsUnheard: true))
        XCTAssertEqual(echoes.expected.map(\.hasReturned), [false])
        echoes.beginSet(id, on: 1)
        XCTAssertNil(echoes.endSet(id, on: 2, deferred: false, ahead: nil, dropsUnheard: true), "another thread's")
        XCTAssertEqual(echoes.setsInProgress.count, 1)
    }

    func testReplayIsTheValueOfTheLastPendingSet() {
        var echoes = ChannelEchoes<Int>()
        _ = echoes.replaceLatest(1)
        XCTAssertEqual(echoes.replay, 1)
        let id = echoes.announce(2)
        _ = echoes.announce(3)
        XCTAssertEqual(echoes.replay, 3)
        _ = echoes.consume(through: id + 1)
        XCTAssertEqual(echoes.replay, 1, "no set pending: the latest value")
    }

    func testEveryChangeOfTheLatestValueOrTheEchoesChangesTheVersion() {
        var echoes = ChannelEchoes<Int>()
        var versions = [echoes.version]
        func changed() {
            XCTAssertFalse(versions.contains(echoes.version))
            versions.append(echoes.version)
        }
        _ = echoes.replaceLatest(1)
        changed()
        let id = echoes.announce(2)
        changed()
        _ = echoes.remove(id)
        changed()
        XCTAssertNil(echoes.remove(id))
        XCTAssertEqual(echoes.version, versions.last, "removing an echo not expected changes nothing")
        let other = echoes.announce(3)
        changed()
        _ = echoes.consume(through: other)
        changed()
    }

    func testEndingTheChannelReturnsEveryExpectedEcho() {
        var echoes = ChannelEchoes<Int>()
        _ = echoes.announce(1)
        _ = echoes.announce(2)
        XCTAssertEqual(echoes.removeAllExpected().map(\.value), [1, 2])
        XCTAssertTrue(echoes.isExpectingNone)
    }
}
