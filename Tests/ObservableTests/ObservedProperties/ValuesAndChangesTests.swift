import Foundation
import Observable
import TetherTestSupport
import TetherTesting
import XCTest

final class ValuesAndChangesTests: ResourceCheckedTestCase {
    func testDefaultOptionsSendTheInitialValueThenNewValues() {
        let counter = CounterModel()
        let log = EventLog<Change<Int>, Never>()
        counter.valuesAndChanges(\.count).record(into: log)
        counter.count = 1
        XCTAssertEqual(
            log.values,
            [
                Change(oldValue: nil, newValue: 0, isPrior: false),
                Change(oldValue: nil, newValue: 1, isPrior: false),
            ])
    }

    func testOldAndNewWithoutInitialSendOnlyChanges() {
        let counter = CounterModel()
        let log = EventLog<Change<Int>, Never>()
        counter.valuesAndChanges(\.count, options: [.old, .new]).record(into: log)
        counter.count = 1
        counter.count = 1
        counter.count = 5
        XCTAssertEqual(
            log.values,
            [
                Change(oldValue: 0, newValue: 1, isPrior: false),
                Change(oldValue: 1, newValue: 1, isPrior: false),
                Change(oldValue: 1, newValue: 5, isPrior: false),
            ])
    }

    func testPriorChangeIsSentBeforeTheSetWithTheOldValue() {
        expectLiveSubscriptions("the observer captures the observed object")
        let counter = CounterModel()
        let log = EventLog<Change<Int>, Never>()
        let valueSeenDuringPrior = EventLog<Int, Never>()
        counter.valuesAndChanges(\.count, options: [.initial, .old, .new, .prior]).subscribe(next: { change in
            if change.isPrior { valueSeenDuringPrior.append(.next(counter.count)) }
            log.append(.next(change))
        })
        counter.count = 1
        counter.count = 2
        XCTAssertEqual(
            log.values,
            [
                Change(oldValue: nil, newValue: 0, isPrior: false),
                Change(oldValue: 0, newValue: nil, isPrior: true),
                Change(oldValue: 0, newValue: 1, isPrior: false),
                Change(oldValue: 1, newValue: nil, isPrior: true),
                Change(oldValue: 1, newValue: 2, isPrior: false),
            ])
        XCTAssertEqual(valueSeenDuringPrior.values, [0, 1], "a prior change is sent before the value is stored")
    }

    func testPriorWithoutOldCarriesNoValues() {
        let counter = CounterModel()
        let log = EventLog<Change<Int>, Never>()
        counter.valuesAndChanges(\.count, options: [.prior, .new]).record(into: log)
        counter.count = 3
        XCTAssertEqual(
            log.values,
            [
                Change(oldValue: nil, newValue: nil, isPrior: true),
                Change(oldValue: nil, newValue: 3, isPrior: false),
            ])
    }

    func testInitialWithoutNewCarriesNoValue() {
        let counter = CounterModel()
        let log = EventLog<Change<Int>, Never>()
        counter.valuesAndChanges(\.count, options: [.initial]).record(into: log)
        counter.count = 1
        XCTAssertEqual(
            log.values,
            [
                Change(oldValue: nil, newValue: nil, isPrior: false),
                Change(oldValue: nil, newValue: nil, isPrior: false),
            ])
    }

    func testChainChangesReportTheValueLastSentAsOld() {
        let model = LoginViewModel(account: Account(name: "ann"))
        let log = EventLog<Change<String>, Never>()
        model.valuesAndChanges(\.account.name, options: [.old, .new, .prior]).record(into: log)
        model.account = Account(name: "bob")
        XCTAssertEqual(
            log.values,
            [
                Change(oldValue: "ann", newValue: nil, isPrior: true),
                Change(oldValue: "ann", newValue: "bob", isPrior: false),
            ])
    }

    func testPriorChangesOfSeveralObserversComeBeforeAnyNewValue() {
        let counter = CounterModel()
        let order = EventLog<String, Never>()
        for name in ["A", "B"] {
            counter.valuesAndChanges(\.count, options: [.prior, .new]).subscribe(next: { change in
                order.append(.next("\(name)\(change.isPrior ? "-prior" : "-\(change.newValue!)")"))
            })
        }
        counter.count = 1
        XCTAssertEqual(order.values, ["A-prior", "B-prior", "A-1", "B-1"])
    }

    func testChangesCompleteWhenTheObjectDeinitializes() {
        var counter: CounterModel? = CounterModel()
        let log = EventLog<Change<Int>, Never>()
        counter!.valuesAndChanges(\.count, options: [.new]).record(into: log)
        counter = nil
        XCTAssertEqual(log.events, [.completed])
    }

    func testChangeDescriptionNamesItsParts() {
        XCTAssertEqual(Change(oldValue: 1, newValue: 2, isPrior: false).description, "Change(old: 1, new: 2)")
        XCTAssertEqual(Change<Int>(oldValue: 1, newValue: nil, isPrior: true).description, "Change(prior, old: 1)")
    }
}
