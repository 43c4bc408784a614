import Foundation
import Observable
import TetherTestSupport
import TetherTesting
import XCTest

// RAC's `-any`, `-any:`, `-all:` and `+switch:cases:default:`.
final class QuantifiersAndSwitchTests: ResourceCheckedTestCase {
    private func flag(_ value: Bool) -> String { value ? "t" : "f" }

    // MARK: any

    func testAnySendsTrueAtTheFirstPassingValueAndStopsTheSource() throws {
        let scheduler = TestScheduler()
        let numbers = try scheduler.cold("-a-b-c-d-|", values: ["a": 1, "b": 2, "c": 5, "d": 1])
        let result = numbers.signal.any { $0 > 3 }.record(on: scheduler)
        scheduler.run()
        XCTAssertEqual(result.marbles(flag), "-----(t|)")
        XCTAssertEqual(numbers.subscriptions, [TestSubscription(subscribed: .zero, ended: .seconds(5))])
    }

    func testAnySendsFalseWhenTheSourceCompletesWithoutAPassingValue() throws {
        let scheduler = TestScheduler()
        let numbers = try scheduler.cold("-a-b-|", values: ["a": 1, "b": 2])
        let result = numbers.signal.any { $0 > 3 }.record(on: scheduler)
        scheduler.run()
        XCTAssertEqual(result.marbles(flag), "-----(f|)")
    }

    func testAnyWithoutPredicateIsTrueForAnyValueAndFalseForNone() {
        XCTAssertEqual(Signal(values: ["a", "b"]).any().record().values, [true])
        XCTAssertEqual(Signal<String, Never>.empty.any().record().values, [false])
    }

    func testAnyPassesAFailureOnInsteadOfAnsweringFalse() throws {
        let scheduler = TestScheduler()
        let numbers = try scheduler.cold("-a-#", values: ["a": 1], error: TestError(1))
        let result = numbers.signal.any { $0 > 3 }.record(on: scheduler)
        scheduler.run()
        XCTAssertEqual(result.events, [.error(TestError(1), at: .seconds(3))])
    }

    // MARK: all

    func testAllSendsFalseAtTheFirstFailingValueAndStopsTheSource() throws {
        let scheduler = TestScheduler()
        let numbers = try scheduler.cold("-a-b-c-|", values: ["a": 2, "b": 3, "c": 6])
        let result = numbers.signal.all { $0.isMultiple(of: 2) }.record(on: scheduler)
        scheduler.run()
        XCTAssertEqual(result.marbles(flag), "---(f|)")
        XCTAssertEqual(numbers.subscriptions, [TestSubscription(subscribed: .zero, ended: .seconds(3))])
    }

    func testAllSendsTrueWhenEveryValuePassedAndForNoValues() throws {
        let scheduler = TestScheduler()
        let numbers = try scheduler.cold("-a-b-|", values: ["a": 2, "b": 4])
        let result = numbers.signal.all { $0.isMultiple(of: 2) }.record(on: scheduler)
        scheduler.run()
        XCTAssertEqual(result.marbles(flag), "-----(t|)")
        XCTAssertEqual(Signal<Int, Never>.empty.all { _ in false }.record().values, [true])
    }

    func testAllPassesAFailureOnInsteadOfAnsweringFalse() {
        let failing = Signal<Int, TestError>(error: TestError(2))
        XCTAssertEqual(failing.all { _ in true }.record().failure, TestError(2))
    }

    // MARK: switch

    func testSwitchFollowsTheCaseOfTheLatestKeyAndTheDefaultForUnknownKeys() throws {
        let scheduler = TestScheduler()
        let keys = try scheduler.hot("-a---b---c-|")
        let first = try scheduler.cold("-1|")
        let second = try scheduler.cold("-2-3|")
        let fallback = try scheduler.cold("-4|")
        let result = Signal.switch(
            keys, cases: ["a": first.signal, "b": second.signal], default: fallback
        ).record(on: scheduler)
        scheduler.run()
        XCTAssertEqual(result.marbles, "--1---2-3-4|")
    }

    func testSwitchDisposesThePreviousCaseWhenTheKeyChanges() throws {
        let scheduler = TestScheduler()
        let keys = try scheduler.hot("-a-b")
        let slow = try scheduler.cold("---1|")
        let other = try scheduler.cold("-2")
        let result = Signal.switch(keys, cases: ["a": slow.signal, "b": other.signal], default: Signal.never)
            .record(on: scheduler)
        scheduler.run()
        XCTAssertEqual(result.marbles, "----2")
        XCTAssertEqual(slow.subscriptions, [TestSubscription(subscribed: .seconds(1), ended: .seconds(3))])
    }

    func testSwitchSendsNothingBeforeAKeyAndFailsWithAnyInnerFailure() {
        let keys = Subject<Int, TestError>()
        let failing = Subject<String, TestError>()
        let log = EventLog<String, TestError>()
        Signal.switch(keys, cases: [1: failing.signal], default: Signal.empty).record(into: log)
        failing.send("early")
        XCTAssertEqual(log.events, [])
        keys.send(1)
        failing.send("x")
        failing.sendError(TestError(3))
        XCTAssertEqual(log.events, [.next("x"), .error(TestError(3))])
    }
}
