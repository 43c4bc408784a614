import Foundation
import Observable
import TetherTestSupport
import TetherTesting
import XCTest

final class PropertyTests: ResourceCheckedTestCase {
    func testReadOnlyViewFollowsItsSource() {
        let source = MutableProperty(1)
        let view = Property(source)
        let log = EventLog<Int, Never>()
        view.signal.record(into: log)
        source.value = 2
        XCTAssertEqual(view.value, 2)
        XCTAssertEqual(log.values, [1, 2])
    }

    func testMapDerivesValueAndSignal() {
        let count = MutableProperty(2)
        let label = count.map { "\($0) items" }
        let log = EventLog<String, Never>()
        label.signal.record(into: log)
        count.value = 3
        XCTAssertEqual(label.value, "3 items")
        XCTAssertEqual(log.values, ["2 items", "3 items"])
    }

    func testMapOfADerivedPropertyChains() {
        let count = MutableProperty(1)
        let doubledLabel = count.map { $0 * 2 }.map { "x\($0)" }
        count.value = 5
        XCTAssertEqual(doubledLabel.value, "x10")
    }

    func testCombineLatestPairsTheCurrentValuesAndSendsOnEveryChange() {
        let username = MutableProperty("")
        let password = MutableProperty("")
        let canLogIn = Property.combineLatest(username, password).map { !$0.isEmpty && !$1.isEmpty }
        let log = EventLog<Bool, Never>()
        canLogIn.signal.record(into: log)
        username.value = "ann"
        password.value = "secret"
        XCTAssertTrue(canLogIn.value)
        XCTAssertEqual(log.values, [false, false, true])
    }

    func testCombineLatestOfThree() {
        let a = MutableProperty(1)
        let b = MutableProperty("b")
        let c = MutableProperty(true)
        let all = Property.combineLatest(a, b, c)
        let log = EventLog<String, Never>()
        all.signal.map { "\($0.0)\($0.1)\($0.2)" }.record(into: log)
        b.value = "B"
        XCTAssertEqual(all.value.1, "B")
        XCTAssertEqual(log.values, ["1btrue", "1Btrue"])
    }

    func testCombineLatestCompletesWhenBothSourcesComplete() {
        var a: MutableProperty<Int>? = MutableProperty(1)
        var b: MutableProperty<Int>? = MutableProperty(2)
        let log = EventLog<Int, Never>()
        combineSignal(a!, b!).record(into: log)
        a = nil
        XCTAssertEqual(log.events, [.next(3)])
        b = nil
        XCTAssertEqual(log.events, [.next(3), .completed])
    }

    func testConstantPropertySendsItsValueThenCompletes() {
        let version = Property(value: "1.0")
        let log = EventLog<String, Never>()
        version.signal.record(into: log)
        XCTAssertEqual(version.value, "1.0")
        XCTAssertEqual(log.events, [.next("1.0"), .completed])
    }

    func testDerivedPropertyKeepsItsSourceAlive() {
        var source: MutableProperty<Int>? = MutableProperty(1)
        weak let weakSource = source
        let derived = source!.map { $0 + 1 }
        source = nil
        XCTAssertNotNil(weakSource)
        XCTAssertEqual(derived.value, 2)
    }

    private func combineSignal(_ a: MutableProperty<Int>, _ b: MutableProperty<Int>) -> Signal<Int, Never> {
        Property.combineLatest(a, b).signal.map { $0 + $1 }
    }
}
