import Foundation
import Observable
import TetherTesting
import XCTest

/// A model observed through key paths, for `for await` over `observe(\.x)`.
private final class ScoreModel: KeyPathObservable, @unchecked Sendable {
    @Observed var count = 0
}

final class PropertyValuesTests: ResourceCheckedTestCase {
    func testForAwaitOverMutablePropertyStartsWithTheCurrentValueThenEverySet() async {
        let property = MutableProperty(1)
        var iterator = property.values.makeAsyncIterator()
        property.value = 2
        property.modify { $0 += 1 }
        let first = await iterator.next()
        let second = await iterator.next()
        let third = await iterator.next()
        XCTAssertEqual([first, second, third], [1, 2, 3])
    }

    func testForAwaitOverMutablePropertyEndsWhenThePropertyIsReleased() async {
        var property: MutableProperty<String>? = MutableProperty("a")
        var iterator = property!.values.makeAsyncIterator()
        property = nil
        var received: [String] = []
        while let value = await iterator.next() { received.append(value) }
        XCTAssertEqual(received, ["a"])
    }

    func testForAwaitOverAKeyPathObservationReceivesEveryValue() async {
        let counter = ScoreModel()
        var iterator = counter.observe(\.count).values.makeAsyncIterator()
        counter.count = 5
        counter.count += 1
        let initial = await iterator.next()
        let first = await iterator.next()
        let second = await iterator.next()
        XCTAssertEqual([initial, first, second], [0, 5, 6])
    }

    func testKeyPathObservationLoopEndsWhenTheObjectDeallocates() async {
        var counter: ScoreModel? = ScoreModel()
        var iterator = counter!.observe(\.count).values.makeAsyncIterator()
        counter?.count = 1
        counter = nil
        var received: [Int] = []
        while let value = await iterator.next() { received.append(value) }
        XCTAssertEqual(received, [0, 1])
    }

    func testSettingFromAnotherThreadReachesTheLoopInOrder() async {
        let property = MutableProperty(0)
        var iterator = property.values.makeAsyncIterator()
        let setter = Thread {
            for value in 1...500 { property.value = value }
        }
        setter.start()
        var received: [Int] = []
        while received.last != 500, let value = await iterator.next() {
            received.append(value)
        }
        XCTAssertEqual(received, Array(0...500))
    }
}
