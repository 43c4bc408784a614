import Foundation
import Observable
import TetherTestSupport
import TetherTesting
import XCTest

final class BooleanTests: ResourceCheckedTestCase {
    // MARK: not

    // RAC: "should return the negation of the signal's values"
    func testNotReturnsTheNegationOfEachValue() {
        let log = EventLog<Bool, TestError>()
        Signal<Bool, TestError>(values: [true, false, false]).not().record(into: log)
        XCTAssertEqual(log.events, [.next(false), .next(true), .next(true), .completed])
    }

    func testNotPassesErrorsThrough() {
        let log = EventLog<Bool, TestError>()
        Signal<Bool, TestError>(error: TestError(3)).not().record(into: log)
        XCTAssertEqual(log.events, [.error(TestError(3))])
    }

    // MARK: and / or on arrays (RAC's tuples)

    // RAC: "should return YES if all YES values in tuple" / "should return NO if at least one NO value"
    func testAndOfArraysIsTrueOnlyWhenEveryBoolIsTrue() {
        let log = EventLog<Bool, Never>()
        Signal(values: [[true, true], [true, false], [false, false]]).and().record(into: log)
        XCTAssertEqual(log.events, [.next(true), .next(false), .next(false), .completed])
    }

    // RAC: "should return YES if any YES value in tuple" / "should return NO if all values are NO"
    func testOrOfArraysIsTrueWhenAnyBoolIsTrue() {
        let log = EventLog<Bool, Never>()
        Signal(values: [[true, true], [true, false], [false, false]]).or().record(into: log)
        XCTAssertEqual(log.events, [.next(true), .next(true), .next(false), .completed])
    }

    func testAndOfAnEmptyArrayIsTrueAndOrIsFalse() {
        let andLog = EventLog<Bool, Never>()
        let orLog = EventLog<Bool, Never>()
        Signal(value: [Bool]()).and().record(into: andLog)
        Signal(value: [Bool]()).or().record(into: orLog)
        XCTAssertEqual(andLog.values, [true])
        XCTAssertEqual(orLog.values, [false])
    }

    // MARK: Signal.and / Signal.or (combineLatest + and/or)

    func testStaticAndCombinesTheLatestValuesOfEverySignal() {
        let scheduler = TestScheduler()
        let a = VirtualTimeSignal<Bool>(scheduler, [(1, .next(true)), (4, .next(false)), (5, .completed)])
        let b = VirtualTimeSignal<Bool>(scheduler, [(2, .next(true)), (3, .next(true)), (6, .completed)])
        let recorder = VirtualTimeRecorder<Bool, TestError>(scheduler)
        recorder.record(Signal.and([a.signal, b.signal]))
        scheduler.run()
        recorder.assertEvents([(2, .next(true)), (3, .next(true)), (4, .next(false)), (6, .completed)])
    }

    func testStaticOrCombinesTheLatestValuesOfEverySignal() {
        let scheduler = TestScheduler()
        let a = VirtualTimeSignal<Bool>(scheduler, [(1, .next(false)), (4, .next(true)), (5, .completed)])
        let b = VirtualTimeSignal<Bool>(scheduler, [(2, .next(false)), (6, .completed)])
        let recorder = VirtualTimeRecorder<Bool, TestError>(scheduler)
        recorder.record(Signal.or([a.signal, b.signal]))
        scheduler.run()
        recorder.assertEvents([(2, .next(false)), (4, .next(true)), (6, .completed)])
    }

    func testStaticAndFailsWhenAnySignalFails() {
        let first = Subject<Bool, TestError>()
        let second = Subject<Bool, TestError>()
        let log = EventLog<Bool, TestError>()
        Signal.and([first, second]).record(into: log)
        first.send(true)
        second.sendError(TestError(9))
        first.send(false)
        XCTAssertEqual(log.events, [.error(TestError(9))])
    }

    func testStaticAndOrOfNoSignalsCompleteWithoutSending() {
        let andLog = EventLog<Bool, Never>()
        let orLog = EventLog<Bool, Never>()
        Signal.and([Signal<Bool, Never>]()).record(into: andLog)
        Signal.or([Signal<Bool, Never>]()).record(into: orLog)
        XCTAssertEqual(andLog.events, [.completed])
        XCTAssertEqual(orLog.events, [.completed])
    }
}
