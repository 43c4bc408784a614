import Observable
import XCTest

/// `named(_:)` and names carried through operators into `description`.
final class SignalNameTests: DebugTestCase {
    func testANamedSignalDescribesItselfByItsName() {
        let subject = Subject<Bool, Never>()
        XCTAssertEqual(subject.named("login.valid").description, "login.valid")
    }

    func testMapOfANamedSignalReadsNameDotMap() {
        let subject = Subject<Bool, Never>()
        let mapped = subject.named("login.valid").map { !$0 }
        XCTAssertEqual(mapped.description, "login.valid.map")
    }

    func testNamesCarryThroughAChainOfOperators() {
        let source = Signal(values: 1...10).named("numbers")
        let chain = source.map { $0 + 1 }.filter { $0 % 2 == 0 }.map { $0 * 2 }.take(3)
        XCTAssertEqual(chain.description, "numbers.map.filter.map.take")
    }

    func testACombinatorListsItsNamedInputs() {
        let username = Subject<String, Never>()
        let password = Subject<String, Never>()
        let valid = Signal.combineLatest(username.named("username"), password.named("password"))
            .map { $0.count > 3 && $1.count > 3 }
        XCTAssertEqual(valid.description, "combineLatest(username, password).map")
    }

    func testAnInstanceCombinatorListsTheReceiverFirst() {
        let a = Subject<Int, Never>().named("a")
        let b = Subject<Int, Never>().named("b")
        XCTAssertEqual(a.merge(with: b).description, "merge(a, b)")
    }

    func testRenamingAStageReplacesItsDerivedName() {
        let valid = Subject<String, Never>().named("login.username").map { $0.count > 3 }.named("login.usernameValid")
        XCTAssertEqual(valid.map { !$0 }.description, "login.usernameValid.map")
    }

    func testAnUnnamedSignalDescribesItsType() {
        XCTAssertEqual(Signal<Int, Never>(values: [1]).description, "Signal<Int, Never>")
        XCTAssertEqual(Subject<String, Never>().map { $0.count }.description, "Signal<Int, Never>")
    }

    func testASignalReadButNotUsedDoesNotBecomeTheNextSignalsInput() {
        let named = Subject<Int, Never>().named("stale")
        _ = named.signal
        let unrelated = Signal(values: [1, 2]).named("fresh").map { $0 }
        XCTAssertEqual(unrelated.description, "fresh.map")
        let source = Signal(values: [3])
        XCTAssertEqual(source.description, "Signal<Int, Never>", "a source takes no inputs")
    }

    func testNamingChangesNoEvent() {
        var values: [Int] = []
        var completed = false
        Signal(values: [1, 2, 3]).named("numbers").map { $0 * 10 }
            .subscribe(next: { values.append($0) }, completed: { completed = true })
        XCTAssertEqual(values, [10, 20, 30])
        XCTAssertTrue(completed)
    }

    func testANamedPlainSubjectIsStillJoinedByMapWhileTheGraphIsOff() {
        let subject = Subject<Int, Never>()
        let named = subject.named("joined.source")
        XCTAssertNotNil(named.plainSubjectSource, "the named stage only records with the graph on")
        XCTAssertTrue(
            named.plainSubjectSource?.takeUnretainedValue() === subject.signal.plainSubjectSource?.takeUnretainedValue()
        )
        XCTAssertEqual(named.description, "joined.source")
        var values: [Int] = []
        let subscription = named.map { $0 * 10 }.named("joined.tens").subscribe(next: { values.append($0) })
        subject.send(1)
        subject.send(2)
        subscription.dispose()
        subject.send(3)
        XCTAssertEqual(values, [10, 20])
        XCTAssertTrue(TetherDebug.graph(matching: "joined").isEmpty)
    }

    func testANamedPlainSubjectSubscribedWithTheGraphOnRecordsItsValues() {
        let subject = Subject<Int, Never>()
        let named = subject.named("recorded.source")  // named while the graph is off: it keeps its subject
        XCTAssertNotNil(named.plainSubjectSource)
        TetherDebug.isEnabled = true
        var values: [Int] = []
        let subscription = named.map { $0 + 1 }.subscribe(next: { values.append($0) })
        subject.send(1)
        subject.send(2)
        let graph = TetherDebug.graph(matching: "recorded")
        XCTAssertEqual(graph.nodes.map(\.label).first, "recorded.source")
        XCTAssertEqual(graph.nodes.first?.values, 2, "map started the named stage, which recorded")
        XCTAssertEqual(values, [2, 3])
        subscription.dispose()
    }

    func testWithTheGraphOnUnnamedSignalsAreNamedByTheirOperators() {
        TetherDebug.isEnabled = true
        let chain = Signal(values: [1, 2]).map { $0 }.filter { $0 > 0 }
        XCTAssertEqual(chain.description, "Signal(values:).map.filter")
        XCTAssertEqual(Subject<Int, Never>().map { $0 }.description, "Subject.map")
        XCTAssertEqual(Signal<Int, Never>.empty.description, "Signal.empty")
    }

    func testNamesCarryThroughFlatMapAndDeliverOn() {
        let outer = Subject<Int, Never>().named("outer")
        let flattened = outer.flatMap { Signal(value: $0) }
        XCTAssertEqual(flattened.description, "outer.flatten", "flatMap's signal is made by the flatten helper")
        XCTAssertEqual(outer.deliver(on: ImmediateScheduler()).description, "outer.deliver")
        XCTAssertEqual(outer.deliverOnMainThread().description, "outer.deliverOnMainThread")
    }

    func testNamesCarryThroughTheTimerDrivenOperators() {
        let scheduler = TestScheduler()
        let typing = Subject<Int, Never>().named("typing")
        XCTAssertEqual(typing.debounce(.seconds(1), on: scheduler).description, "typing.debounce")
        XCTAssertEqual(typing.throttle(.seconds(1), latest: true, on: scheduler).description, "typing.throttle")
        XCTAssertEqual(typing.buffer(.seconds(1), on: scheduler).description, "typing.buffer")
    }
}
