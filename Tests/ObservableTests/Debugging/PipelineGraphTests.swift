import Observable
import TetherTestSupport
import XCTest

/// `TetherDebug.graph(matching:)`: what is alive after subscribing and after disposing.
final class PipelineGraphTests: DebugTestCase {
    func testTheGraphIsEmptyAndRecordsNothingWhileOff() {
        let subject = Subject<Int, Never>()
        let subscription = subject.named("off.source").map { $0 }.subscribe(next: { _ in })
        XCTAssertTrue(TetherDebug.graph().isEmpty)
        subscription.dispose()
    }

    func testASubscriptionShowsItsSourceStagesAndSubscriber() {
        TetherDebug.isEnabled = true
        let subject = Subject<Int, Never>()
        let subscription = subject.named("login.username").map { $0 + 1 }.filter { $0 > 0 }
            .subscribe(next: { _ in })
        subject.send(1)
        subject.send(2)
        let graph = TetherDebug.graph(matching: "login")
        XCTAssertEqual(
            graph.nodes.map(\.label),
            ["login.username", "login.username.map", "login.username.map.filter", "subscriber"])
        XCTAssertEqual(graph.nodes.map(\.kind), [.source, .stage, .stage, .subscriber])
        // The subject's source records its deliveries; unnamed stages only show where they are.
        XCTAssertEqual(graph.nodes.map(\.values), [2, nil, nil, nil])
        let ids = graph.nodes.map(\.id)
        XCTAssertEqual(
            Set(graph.edges),
            [
                PipelineGraph.Edge(from: ids[0], to: ids[1]), PipelineGraph.Edge(from: ids[1], to: ids[2]),
                PipelineGraph.Edge(from: ids[2], to: ids[3]),
            ])
        subscription.dispose()
    }

    func testDisposingRemovesTheSubscriptionFromTheGraph() {
        TetherDebug.isEnabled = true
        let subject = Subject<Int, Never>()
        let first = subject.named("fields.a").map { $0 }.subscribe(next: { _ in })
        let second = subject.named("fields.b").subscribe(next: { _ in })
        first.dispose()
        XCTAssertEqual(TetherDebug.graph(matching: "fields").nodes.map(\.label), ["fields.b", "subscriber"])
        second.dispose()
        XCTAssertTrue(TetherDebug.graph(matching: "fields").isEmpty)
    }

    func testACompletedSubscriptionLeavesTheGraph() {
        TetherDebug.isEnabled = true
        let subject = Subject<Int, Never>()
        subject.named("done.source").map { $0 }.subscribe(next: { _ in })
        XCTAssertFalse(TetherDebug.graph(matching: "done").isEmpty)
        subject.sendCompleted()
        XCTAssertTrue(TetherDebug.graph(matching: "done").isEmpty)
    }

    func testASubjectWithTwoSubscriptionsIsOneSourceNode() {
        TetherDebug.isEnabled = true
        let subject = Subject<Int, Never>()
        let named = subject.named("shared.source")
        let a = named.map { $0 }.subscribe(next: { _ in })
        let b = named.filter { $0 > 0 }.subscribe(next: { _ in })
        let graph = TetherDebug.graph(matching: "shared")
        XCTAssertEqual(graph.nodes.filter { $0.kind == .source }.map(\.label), ["shared.source"])
        XCTAssertEqual(graph.nodes.filter { $0.kind == .subscriber }.count, 2)
        let source = graph.nodes.first { $0.kind == .source }!.id
        XCTAssertEqual(graph.edges.filter { $0.from == source }.count, 2)
        a.dispose()
        b.dispose()
    }

    func testACombinatorsInputsPointAtIt() {
        TetherDebug.isEnabled = true
        let username = Subject<String, Never>()
        let password = Subject<String, Never>()
        let subscription = Signal.combineLatest(username.named("u"), password.named("p")).map { $0 + $1 }
            .subscribe(next: { _ in })
        let graph = TetherDebug.graph(matching: "combineLatest")
        let byLabel = Dictionary(graph.nodes.map { ($0.label, $0.id) }, uniquingKeysWith: { a, _ in a })
        let combined = byLabel["combineLatest(u, p)"]!
        XCTAssertTrue(graph.edges.contains(PipelineGraph.Edge(from: byLabel["u"]!, to: combined)))
        XCTAssertTrue(graph.edges.contains(PipelineGraph.Edge(from: byLabel["p"]!, to: combined)))
        XCTAssertTrue(graph.edges.contains(PipelineGraph.Edge(from: combined, to: byLabel["combineLatest(u, p).map"]!)))
        subscription.dispose()
        XCTAssertTrue(TetherDebug.graph(matching: "combineLatest").isEmpty)
    }

    func testAnInnerSignalOfFlatMapIsAnInputOfFlatMap() {
        TetherDebug.isEnabled = true
        let outer = Subject<Int, Never>()
        let inner = Subject<Int, Never>()
        let subscription = outer.named("outer").flatMap { _ in inner.named("inner") }.subscribe(next: { _ in })
        outer.send(1)
        let graph = TetherDebug.graph(matching: "outer")
        let byLabel = Dictionary(graph.nodes.map { ($0.label, $0.id) }, uniquingKeysWith: { a, _ in a })
        XCTAssertTrue(graph.edges.contains(PipelineGraph.Edge(from: byLabel["inner"]!, to: byLabel["outer.flatten"]!)))
        XCTAssertTrue(graph.edges.contains(PipelineGraph.Edge(from: byLabel["outer"]!, to: byLabel["outer.flatten"]!)))
        subscription.dispose()
        XCTAssertTrue(TetherDebug.graph(matching: "inner").isEmpty)
    }

    func testTheTextDrawsEachSubscriptionFromItsSubscriber() {
        TetherDebug.isEnabled = true
        let subject = Subject<Int, Never>()
        let subscription = subject.named("tree.source").map { $0 }.filter { $0 > 7 }.named("tree.large")
            .subscribe(next: { _ in })
        subject.send(7)
        XCTAssertEqual(
            TetherDebug.graph(matching: "tree").text,
            """
            subscriber
            └─ tree.large  [0 values]
               └─ tree.source.map
                  └─ tree.source  [1 value]

            """)
        subscription.dispose()
        XCTAssertEqual(TetherDebug.graph(matching: "tree").text, "(nothing alive)\n")
    }

    func testTheDotOutputHasEveryNodeAndEdge() {
        TetherDebug.isEnabled = true
        let subject = Subject<Int, Never>()
        let subscription = subject.named("dot \"quoted\"").map { $0 }.subscribe(next: { _ in })
        let graph = TetherDebug.graph(matching: "dot")
        let dot = graph.dot
        XCTAssertTrue(dot.hasPrefix("digraph tether {"))
        XCTAssertTrue(dot.contains(#"label="dot \"quoted\"\n0 sent""#), dot)
        XCTAssertTrue(dot.contains(#"label="dot \"quoted\".map", shape=box"#), dot)
        for edge in graph.edges { XCTAssertTrue(dot.contains("  \(edge.from) -> \(edge.to);"), dot) }
        XCTAssertEqual(dot.components(separatedBy: "->").count - 1, graph.edges.count)
        subscription.dispose()
    }

    func testNamedStagesCountTheValuesThatPassThem() {
        TetherDebug.isEnabled = true
        let subject = Subject<Int, Never>()
        let subscription = subject.map { $0 * 2 }.named("count.doubled").filter { $0 > 2 }.named("count.large")
            .subscribe(next: { _ in })
        for value in 1...3 { subject.send(value) }
        let values = Dictionary(
            TetherDebug.graph(matching: "count").nodes.map { ($0.label, $0.values) }, uniquingKeysWith: { a, _ in a })
        XCTAssertEqual(values["count.doubled"], 3)
        XCTAssertEqual(values["count.large"], 2)
        XCTAssertEqual(values["Subject"], 3, "a subject's source records too")
        subscription.dispose()
    }

    func testExpectNothingAliveReportsTheGraphOfWhatIs() {
        TetherDebug.isEnabled = true
        let subject = Subject<Int, Never>()
        let subscription = subject.named("mine.source").subscribe(next: { _ in })
        var messages: [String] = []
        XCTAssertFalse(TetherDebug.expectNothingAlive(matching: "mine") { messages.append($0) })
        XCTAssertEqual(messages.count, 1)
        XCTAssertTrue(messages[0].hasPrefix("1 subscription is still alive matching \"mine\":\n"), messages[0])
        XCTAssertTrue(messages[0].contains("└─ mine.source"), messages[0])
        subscription.dispose()
        XCTAssertTrue(TetherDebug.expectNothingAlive(matching: "mine") { messages.append($0) })
        XCTAssertEqual(messages.count, 1)
    }

    func testSubscriptionsOfOtherNamesDoNotMatch() {
        TetherDebug.isEnabled = true
        let subject = Subject<Int, Never>()
        let subscription = subject.named("theirs").subscribe(next: { _ in })
        XCTAssertTrue(TetherDebug.expectNothingAlive(matching: "mine") { XCTFail($0) })
        subscription.dispose()
    }

    func testChainsOfConcatsAndCatchesBuiltWhileTheGraphIsOnOrOffDeliverAlike() {
        // Off, a chain of `concat`s (or `catch`es) is one list of signals; on, each is a stage of the graph.
        let concatsOff = Signal<Int, Never>(value: 1).concat(Signal(value: 2))
        let catchesOff = Signal<Int, TestError>(error: TestError(1)).catch { error in
            Signal<Int, TestError>(value: error.code).concat(Signal(error: TestError(2)))
        }
        TetherDebug.isEnabled = true
        let concatsOn = concatsOff.concat(Signal(value: 3)).concat(Signal(value: 4))
        let catchesOn = catchesOff.catch { error in
            Signal<Int, TestError>(value: error.code).concat(Signal(error: TestError(3)))
        }
        let subject = Subject<Int, Never>()
        let live = subject.named("chain.source").concat(Signal(value: 0)).concat(Signal(value: 1))
            .subscribe(next: { _ in })
        XCTAssertEqual(TetherDebug.graph(matching: "chain").nodes.first?.label, "chain.source")
        live.dispose()
        TetherDebug.isEnabled = false
        let concatsAfter = concatsOn.concat(Signal(value: 5))
        let catchesAfter = catchesOn.catch { error in Signal<Int, TestError>(value: error.code) }

        var values: [Int] = []
        for signal in [concatsOff, concatsOn, concatsAfter] {
            signal.subscribe(next: { values.append($0) }, completed: { values.append(-1) })
        }
        XCTAssertEqual(values, [1, 2, -1, 1, 2, 3, 4, -1, 1, 2, 3, 4, 5, -1])
        var events: [Event<Int, TestError>] = []
        for signal in [catchesOff, catchesOn, catchesAfter] {
            signal.subscribe(
                next: { events.append(.next($0)) }, error: { events.append(.error($0)) },
                completed: { events.append(.completed) })
        }
        XCTAssertEqual(
            events,
            [
                .next(1), .error(TestError(2)), .next(1), .next(2), .error(TestError(3)), .next(1), .next(2),
                .next(3), .completed,
            ])
    }
}
