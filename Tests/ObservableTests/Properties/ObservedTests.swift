import Foundation
import Observable
import XCTest

final class ObservedTests: XCTestCase {
    func testObserveSendsCurrentValueThenEverySetIncludingEqualOnes() {
        let counter = Counter2()
        counter.count = 5
        let log = EventLog<Int, Never>()
        counter.observe(\.count).record(into: log)
        counter.count = 6
        counter.count = 6
        counter.count = 7
        XCTAssertEqual(log.events, [.next(5), .next(6), .next(6), .next(7)])
    }
}
