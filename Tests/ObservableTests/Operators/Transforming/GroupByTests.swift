import Observable
import TetherTestSupport
import TetherTesting
import XCTest

/// RAC 2.5's `-groupBy:` and `-groupBy:transform:` (RACSignalSpec "-groupBy:").
final class GroupByTests: ResourceCheckedTestCase {
    func testShouldSendANewGroupForEachNewKeyWithItsValues() {
        let subject = Subject<Int, Never>()
        let keys = EventLog<Int, Never>()
        let odd = EventLog<Int, Never>()
        let even = EventLog<Int, Never>()
        subject.group(by: { $0 % 2 }).subscribe(next: { group in
            keys.append(.next(group.key))
            group.record(into: group.key == 1 ? odd : even)
        })
        for value in 1...5 { subject.send(value) }
        XCTAssertEqual(keys.values, [1, 0])
        XCTAssertEqual(odd.values, [1, 3, 5])
        XCTAssertEqual(even.values, [2, 4])
        subject.sendCompleted()
    }

    func testShouldTransformTheGroupedValues() {
        let log = EventLog<String, Never>()
        Signal(values: ["Ann", "Bob", "Alice"])
            .group(by: { $0.first! }, transform: { $0.count })
            .subscribe(next: { group in
                group.subscribe(next: { log.append(.next("\(group.key)\($0)")) })
            })
        XCTAssertEqual(log.values, ["A3", "B3", "A5"])
    }

    func testCompletionIsSentToTheResultThenToEveryGroup() {
        let subject = Subject<Int, Never>()
        let order = EventLog<String, Never>()
        subject.group(by: { $0 }).subscribe(
            next: { group in group.subscribe(completed: { order.append(.next("group \(group.key)")) }) },
            completed: { order.append(.next("outer")) })
        subject.send(1)
        subject.send(2)
        subject.sendCompleted()
        XCTAssertEqual(order.values, ["outer", "group 1", "group 2"])
    }

    func testErrorIsSentToTheResultThenToEveryGroup() {
        let subject = Subject<Int, TestError>()
        let order = EventLog<String, Never>()
        subject.group(by: { $0 }).subscribe(
            next: { group in group.subscribe(error: { order.append(.next("group \(group.key) \($0.code)")) }) },
            error: { order.append(.next("outer \($0.code)")) })
        subject.send(1)
        subject.send(2)
        subject.sendError(TestError(9))
        XCTAssertEqual(order.values, ["outer 9", "group 1 9", "group 2 9"])
    }

    func testAGroupSubscribedLaterSeesOnlyLaterValues() {
        let subject = Subject<Int, Never>()
        var groups: [GroupedSignal<Bool, Int, Never>] = []
        subject.group(by: { $0 > 0 }).subscribe(next: { groups.append($0) })
        subject.send(1)
        XCTAssertEqual(groups.map(\.key), [true])
        let log = EventLog<Int, Never>()
        groups[0].record(into: log)
        subject.send(2)
        subject.sendCompleted()
        XCTAssertEqual(log.values, [2])
        XCTAssertEqual(log.events.last?.isTerminal, true)
    }

    func testDisposingStopsTheSource() {
        let probe = ProbeSource<Int, Never>()
        let subscription = probe.signal.group(by: { $0 }).subscribe(next: { _ in })
        probe.send(1)
        subscription.dispose()
        XCTAssertEqual(probe.disposals, 1)
    }
}
