import Observable
import TetherTestSupport
import TetherTesting
import XCTest

final class MarblesTests: ResourceCheckedTestCase {
    func testHotSignalSendsEachEventAtItsFrame() throws {
        let scheduler = TestScheduler()
        let text = try scheduler.hot("-a-b--c|")
        let recorder = text.record(on: scheduler)
        scheduler.run()
        XCTAssertEqual(
            recorder.events,
            [
                .next("a", at: .seconds(1)), .next("b", at: .seconds(3)), .next("c", at: .seconds(6)),
                .completed(at: .seconds(7)),
            ])
        XCTAssertEqual(recorder.marbles, "-a-b--c|")
    }

    func testHotSignalDeliversOnlyWhatIsSentAfterSubscribing() throws {
        let scheduler = TestScheduler()
        let text = try scheduler.hot("-a-b-c")
        scheduler.advance(by: .seconds(2))
        let late = text.record(on: scheduler)
        scheduler.run()
        XCTAssertEqual(late.events, [.next("b", at: .seconds(3)), .next("c", at: .seconds(5))])
        // Rendered from the recorder's own start (2 s).
        XCTAssertEqual(late.marbles, "-b-c")
    }

    func testSubscriptionPointIsFrameZeroAndEarlierEventsAreNotSeen() throws {
        let scheduler = TestScheduler()
        let text = try scheduler.hot("a-^-b|")
        let recorder = text.record(on: scheduler)
        scheduler.run()
        XCTAssertEqual(recorder.events, [.next("b", at: .seconds(2)), .completed(at: .seconds(3))])
    }

    func testTerminalEventBeforeSubscriptionPointEndsLateSubscribersAtOnce() throws {
        let scheduler = TestScheduler()
        let finished = try scheduler.hot("a|^--")
        let recorder = finished.record(on: scheduler)
        XCTAssertEqual(recorder.events, [.completed(at: .zero)])
    }

    func testColdSignalStartsItsTimelineAtEachSubscription() throws {
        let scheduler = TestScheduler()
        let search = try scheduler.cold("-r|", values: ["r": 42])
        let first = search.record(on: scheduler)
        scheduler.advance(by: .seconds(5))
        let second = search.record(on: scheduler)
        scheduler.run()
        XCTAssertEqual(first.events, [.next(42, at: .seconds(1)), .completed(at: .seconds(2))])
        XCTAssertEqual(second.events, [.next(42, at: .seconds(6)), .completed(at: .seconds(7))])
        XCTAssertEqual(first.marbles(values: ["r": 42]), "-r|")
        XCTAssertEqual(second.marbles(values: ["r": 42]), "-r|")
        XCTAssertEqual(
            search.subscriptions,
            [
                TestSubscription(subscribed: .zero, ended: .seconds(2)),
                TestSubscription(subscribed: .seconds(5), ended: .seconds(7)),
            ])
    }

    func testColdFrameZeroEventsArriveOnTheNextAdvance() throws {
        let scheduler = TestScheduler()
        let recorder = try scheduler.cold("(a|)").record(on: scheduler)
        XCTAssertEqual(recorder.events, [])
        scheduler.advance()
        XCTAssertEqual(recorder.events, [.next("a", at: .zero), .completed(at: .zero)])
        XCTAssertEqual(recorder.marbles, "(a|)")
    }

    func testDisposingColdSubscriptionCancelsItsPendingEvents() throws {
        let scheduler = TestScheduler()
        let search = try scheduler.cold("---r|")
        let recorder = search.record(on: scheduler)
        scheduler.advance(by: .seconds(1))
        XCTAssertEqual(scheduler.pendingCount, 2)
        recorder.dispose()
        XCTAssertEqual(scheduler.pendingCount, 0)
        scheduler.run()
        XCTAssertEqual(recorder.events, [])
        XCTAssertEqual(search.subscriptions, [TestSubscription(subscribed: .zero, ended: .seconds(1))])
    }

    func testLiveSubscriptionIsLoggedAsStillAlive() throws {
        let scheduler = TestScheduler()
        let text = try scheduler.hot("-a-b")
        let recorder = text.record(on: scheduler)
        scheduler.run()
        XCTAssertEqual(text.subscriptions, [TestSubscription(subscribed: .zero, ended: nil)])
        XCTAssertFalse(recorder.isDisposed)
        XCTAssertEqual(text.subscriptions[0].description, "subscribed @ 0.0 seconds, still alive")
    }

    func testHotSignalStaysAliveWhileSubscribedEvenWhenTheTestDropsIt() throws {
        let scheduler = TestScheduler()
        let recorder = try scheduler.hot("-a---b").map { $0.uppercased() }.record(on: scheduler)
        scheduler.run()
        XCTAssertEqual(recorder.values, ["A", "B"])
        XCTAssertFalse(recorder.isDisposed, "an unterminated hot diagram does not end its subscribers")
    }

    func testGroupSendsItsEventsInOneFrameAndKeepsItsWidth() throws {
        let scheduler = TestScheduler()
        let recorder = try scheduler.hot("-(ab)-|").record(on: scheduler)
        scheduler.run()
        XCTAssertEqual(
            recorder.events,
            [.next("a", at: .seconds(1)), .next("b", at: .seconds(1)), .completed(at: .seconds(6))])
        XCTAssertEqual(recorder.marbles, "-(ab)-|")
    }

    func testHashSendsTheSuppliedFailure() throws {
        let scheduler = TestScheduler()
        let recorder = try scheduler.hot("-a-#", values: ["a": 1], error: TestError(7)).record(on: scheduler)
        scheduler.run()
        XCTAssertEqual(recorder.events, [.next(1, at: .seconds(1)), .error(TestError(7), at: .seconds(3))])
        XCTAssertEqual(recorder.failure, TestError(7))
        XCTAssertTrue(recorder.isTerminated)
        XCTAssertFalse(recorder.isCompleted)
        XCTAssertEqual(recorder.marbles { "\($0)" }, "-1-#")
    }

    func testSpacesAreIgnored() throws {
        let scheduler = TestScheduler()
        let recorder = try scheduler.hot(" a b  c ").record(on: scheduler)
        scheduler.run()
        XCTAssertEqual(recorder.marbles, "abc")
    }

    func testFrameDurationIsConfigurable() throws {
        let scheduler = TestScheduler()
        let frame = Duration.milliseconds(100)
        let text = try scheduler.hot("--a-b|", frame: frame)
        let recorder = text.record(on: scheduler, frame: frame)
        scheduler.run()
        XCTAssertEqual(recorder.events.map(\.time), [.milliseconds(200), .milliseconds(400), .milliseconds(500)])
        XCTAssertEqual(recorder.marbles, "--a-b|")
        XCTAssertEqual(scheduler.now, .milliseconds(500))
    }

    func testMarblesEventsParsesExpectedTimelines() throws {
        XCTAssertEqual(
            try Marbles.events("-a-(bc)|", values: ["a": 1, "b": 2, "c": 3]),
            [
                .next(1, at: .seconds(1)), .next(2, at: .seconds(3)), .next(3, at: .seconds(3)),
                .completed(at: .seconds(7)),
            ])
        XCTAssertEqual(
            try Marbles.events(
                "x#", values: ["x": 0], error: TestError(2), frame: .milliseconds(10), start: .seconds(1)),
            [.next(0, at: .seconds(1)), .error(TestError(2), at: .milliseconds(1010))])
        XCTAssertEqual(try Marbles.events("-^a"), [.next("a", at: .seconds(1))])
    }

    func testRenderNeverDrawsEventsAGroupsWidthPushesLater() throws {
        // 0, 0, 1 s, 3 s used to render "(ft)ft", which reads 0, 0, 4 s, 5 s.
        let events: [TimedEvent<String, Never>] = [
            .next("f", at: .zero), .next("t", at: .zero), .next("f", at: .seconds(1)), .next("t", at: .seconds(3)),
        ]
        let rendered = Marbles.render(events, symbol: { $0 })
        XCTAssertEqual(rendered, #"inexact (frame 1.0 seconds): "f"@0 "t"@0 "f"@1 "t"@3"#)
        let misread: [TimedEvent<String, Never>] = [
            .next("f", at: .zero), .next("t", at: .zero), .next("f", at: .seconds(4)), .next("t", at: .seconds(5)),
        ]
        XCTAssertEqual(Marbles.render(misread, symbol: { $0 }), "(ft)ft")
        XCTAssertEqual(try Marbles.events("(ft)ft"), misread, "the diagram reads back as the timeline it drew")
    }

    func testRenderListsEventsBetweenFramesWithTheirExactOffsets() {
        let events: [TimedEvent<String, Never>] = [
            .next("a", at: .milliseconds(1500)), .next("b", at: .milliseconds(1700)), .completed(at: .seconds(4)),
        ]
        XCTAssertEqual(
            Marbles.render(events, symbol: { $0 }),
            #"inexact (frame 1.0 seconds): "a"@1+500ms "b"@1+700ms |@4"#)
        XCTAssertEqual(
            Marbles.render(events, frame: .milliseconds(100), symbol: { $0 }),
            String(repeating: "-", count: 15) + "a-b" + String(repeating: "-", count: 22) + "|")
        let before: [TimedEvent<String, TestError>] = [.error(TestError(1), at: .seconds(1))]
        XCTAssertEqual(Marbles.render(before, start: .seconds(3), symbol: { $0 }), "inexact (frame 1.0 seconds): #@-2")
    }

    func testRenderListsValuesWhoseSymbolIsNotOneCharacter() {
        let events: [TimedEvent<Int, Never>] = [.next(10, at: .seconds(1)), .completed(at: .seconds(2))]
        XCTAssertEqual(Marbles.render(events, symbol: { "\($0)" }), #"inexact (frame 1.0 seconds): "10"@1 |@2"#)
        let reserved: [TimedEvent<String, Never>] = [.next("-", at: .seconds(1))]
        XCTAssertEqual(Marbles.render(reserved, symbol: { $0 }), #"inexact (frame 1.0 seconds): "-"@1"#)
        let space: [TimedEvent<String, Never>] = [.next(" ", at: .zero)]
        XCTAssertEqual(Marbles.render(space, symbol: { $0 }), #"inexact (frame 1.0 seconds): " "@0"#)
    }

    func testRenderDrawsGroupsThatLeaveRoomForTheirWidth() throws {
        let events: [TimedEvent<String, Never>] = [
            .next("a", at: .seconds(1)), .next("b", at: .seconds(1)), .completed(at: .seconds(5)),
        ]
        XCTAssertEqual(Marbles.render(events, symbol: { $0 }), "-(ab)|")
        XCTAssertEqual(try Marbles.events("-(ab)|"), events)
    }

    func testUnknownSymbolThrowsAndNamesIt() {
        let scheduler = TestScheduler()
        XCTAssertThrowsError(try scheduler.hot("-a-x|", values: ["a": 1])) { error in
            XCTAssertEqual(error as? MarbleError, MarbleError(marbles: "-a-x|", offset: 3, reason: .unknownSymbol("x")))
            XCTAssertEqual(
                "\(error)",
                "marble diagram \"-a-x|\", character 3 ('x'): no value for this symbol (add it to `values:`)")
        }
    }

    func testMalformedDiagramsThrowWithTheirReason() {
        let scheduler = TestScheduler()
        func reason(_ body: () throws -> Void) -> MarbleError.Reason? {
            do {
                try body()
                return nil
            } catch {
                return (error as? MarbleError)?.reason
            }
        }
        XCTAssertEqual(reason { _ = try scheduler.hot("-a-#") }, .errorWithoutFailure)
        XCTAssertEqual(reason { _ = try scheduler.hot("-a|b") }, .eventAfterTermination)
        XCTAssertEqual(reason { _ = try scheduler.hot("-|#", error: TestError()) }, .eventAfterTermination)
        XCTAssertEqual(reason { _ = try scheduler.cold("-^a") }, .misplacedSubscriptionPoint)
        XCTAssertEqual(reason { _ = try scheduler.hot("^-^") }, .misplacedSubscriptionPoint)
        XCTAssertEqual(reason { _ = try scheduler.hot("(a(b))") }, .unbalancedGroup)
        XCTAssertEqual(reason { _ = try scheduler.hot("a)") }, .unbalancedGroup)
        XCTAssertEqual(reason { _ = try scheduler.hot("(ab") }, .unbalancedGroup)
        XCTAssertNil(reason { _ = try scheduler.hot("-a|--") })
        XCTAssertEqual(scheduler.pendingCount, 2, "only the valid diagram scheduled its events")
    }
}
