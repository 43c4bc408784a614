import Observable
import TetherDemoModels
import XCTest

final class CountedTests: XCTestCase {
    func testASignalThatCompletesCountsAsCompletedNotCancelled() {
        let stats = MutableProperty(SearchStats())
        var values: [Int] = []
        Signal.counted(in: stats) { Signal<Int, Never>(values: [1, 2]) }.subscribe(next: { values.append($0) })
        XCTAssertEqual(values, [1, 2])
        XCTAssertEqual(stats.value, SearchStats(started: 1, completed: 1))
    }

    func testDisposingBeforeTheEndCountsAsCancelledOnce() {
        let stats = MutableProperty(SearchStats())
        let subject = Subject<Int, Never>()
        let subscription = Signal.counted(in: stats) { subject.signal }.subscribe()
        XCTAssertEqual(stats.value, SearchStats(started: 1))
        subscription.dispose()
        subscription.dispose()
        subject.sendCompleted()
        XCTAssertEqual(stats.value, SearchStats(started: 1, cancelled: 1))
    }

    func testAFailureCountsAsCompleted() {
        struct Boom: Error {}
        let stats = MutableProperty(SearchStats())
        Signal.counted(in: stats) { Signal<Int, Boom>(error: Boom()) }.subscribe()
        XCTAssertEqual(stats.value, SearchStats(started: 1, completed: 1))
    }
}
