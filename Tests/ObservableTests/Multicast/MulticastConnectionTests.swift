import Foundation
import Observable
import TetherTestSupport
import TetherTesting
import XCTest

final class MulticastConnectionTests: ResourceCheckedTestCase {
    // MARK: connect

    func testPublishDoesNotSubscribeUntilConnected() {
        expectLiveSubscriptions("the source probe keeps its observer: the connection never ends")
        let probe = ProbeSource<Int, Never>()
        let connection = probe.signal.publish()
        connection.signal.subscribe()
        XCTAssertEqual(probe.subscriptions, 0)
        XCTAssertFalse(connection.isConnected)
        connection.connect()
        XCTAssertEqual(probe.subscriptions, 1)
        XCTAssertTrue(connection.isConnected)
    }

    func testConnectSubscribesOnceAndReturnsTheSameDisposableEachTime() {
        expectLiveSubscriptions("the source probe keeps its observer: the connection never ends")
        // RAC spec: "should return the same disposable for each invocation".
        let probe = ProbeSource<Int, Never>()
        let connection = probe.signal.publish()
        let first = connection.connect()
        let second = connection.connect()
        XCTAssertTrue(first === second)
        XCTAssertEqual(probe.subscriptions, 1)
    }

    func testConnectDoesNotReconnectAfterDisposal() {
        // RAC spec: "shouldn't reconnect after disposal".
        let probe = ProbeSource<Int, Never>()
        let connection = probe.signal.publish()
        let first = connection.connect()
        first.dispose()
        XCTAssertEqual(probe.disposals, 1)
        let second = connection.connect()
        XCTAssertTrue(first === second)
        XCTAssertTrue(second.isDisposed)
        XCTAssertEqual(probe.subscriptions, 1)
    }

    func testConcurrentConnectsSubscribeToTheSourceOnce() {
        expectLiveSubscriptions("the source probe keeps its observer: the connection never ends")
        for _ in 0..<20 {
            let probe = ProbeSource<Int, Never>()
            let connection = UncheckedBox(probe.signal.publish())
            let disposables = EventLog<ObjectIdentifier, Never>()
            runThreads(16) { _ in
                disposables.append(.next(ObjectIdentifier(connection.value.connect())))
            }
            XCTAssertEqual(probe.subscriptions, 1)
            XCTAssertEqual(Set(disposables.values).count, 1)
        }
    }

    // MARK: Sharing

    func testPublishedSignalSharesOneSubscriptionAmongSubscribers() {
        let probe = ProbeSource<Int, Never>()
        let connection = probe.signal.publish()
        let a = EventLog<Int, Never>()
        let b = EventLog<Int, Never>()
        connection.signal.record(into: a)
        connection.signal.record(into: b)
        connection.connect()
        probe.send(1)
        probe.send(2)
        probe.sendCompleted()
        XCTAssertEqual(probe.subscriptions, 1)
        XCTAssertEqual(a.events, [.next(1), .next(2), .completed])
        XCTAssertEqual(b.events, [.next(1), .next(2), .completed])
    }

    func testLateSubscriberOfPublishReceivesOnlyLaterEvents() {
        let source = Subject<Int, Never>()
        let connection = source.publish()
        connection.connect()
        source.send(1)
        let late = EventLog<Int, Never>()
        connection.signal.record(into: late)
        source.send(2)
        source.sendCompleted()
        let afterEnd = EventLog<Int, Never>()
        connection.signal.record(into: afterEnd)
        XCTAssertEqual(late.events, [.next(2), .completed])
        XCTAssertEqual(afterEnd.events, [.completed])
    }

    func testMulticastIntoAReplaySubjectReplaysToLateSubscribers() {
        let source = Subject<Int, Never>()
        let connection = source.multicast(ReplaySubject(capacity: 2))
        connection.connect()
        for value in 1...3 { source.send(value) }
        let late = EventLog<Int, Never>()
        connection.signal.record(into: late)
        XCTAssertEqual(late.values, [2, 3])
    }

    func testDisposingTheConnectionStopsTheSourceWithoutTerminatingSubscribers() {
        let probe = ProbeSource<Int, Never>()
        let connection = probe.signal.publish()
        let events = EventLog<Int, Never>()
        let subscription = connection.signal.record(into: events)
        connection.connect()
        probe.send(1)
        connection.connect().dispose()
        probe.send(2)
        XCTAssertEqual(probe.disposals, 1)
        XCTAssertEqual(events.events, [.next(1)])
        XCTAssertFalse(subscription.isDisposed)
    }

    func testMulticastForwardsTheSourcesError() {
        let connection = Signal<Int, TestError>(error: TestError(3)).publish()
        let events = EventLog<Int, TestError>()
        connection.signal.record(into: events)
        connection.connect()
        XCTAssertEqual(events.events, [.error(TestError(3))])
    }

    // MARK: autoconnect

    func testAutoconnectConnectsOnTheFirstSubscriptionOnly() {
        expectLiveSubscriptions("the source probe keeps its observer: the connection never ends")
        // RAC spec: "should subscribe to the multicasted signal on the first subscription".
        let probe = ProbeSource<Int, Never>()
        let shared = probe.signal.publish().autoconnect()
        XCTAssertEqual(probe.subscriptions, 0)
        let a = EventLog<Int, Never>()
        let b = EventLog<Int, Never>()
        shared.record(into: a)
        XCTAssertEqual(probe.subscriptions, 1)
        shared.record(into: b)
        XCTAssertEqual(probe.subscriptions, 1)
        probe.send(1)
        XCTAssertEqual(a.values, [1])
        XCTAssertEqual(b.values, [1])
    }

    func testAutoconnectDisposesTheConnectionWhenTheLastSubscriberLeaves() {
        // RAC spec: "should dispose of the multicasted subscription when the signal has no subscribers".
        let probe = ProbeSource<Int, Never>()
        let shared = probe.signal.publish().autoconnect()
        let a = shared.subscribe()
        let b = shared.subscribe()
        a.dispose()
        XCTAssertEqual(probe.disposals, 0)
        b.dispose()
        XCTAssertEqual(probe.disposals, 1)
    }

    func testAutoconnectDoesNotReconnectAfterDisposal() {
        // RAC spec: "shouldn't reconnect after disposal".
        let probe = ProbeSource<Int, Never>()
        let shared = probe.signal.publish().autoconnect()
        shared.subscribe().dispose()
        XCTAssertEqual(probe.subscriptions, 1)
        let again = EventLog<Int, Never>()
        shared.record(into: again).dispose()
        XCTAssertEqual(probe.subscriptions, 1)
        XCTAssertEqual(again.events, [])
    }

    func testAutoconnectedReplaySubjectReplaysAfterDisposal() {
        // RAC spec: "should replay values after disposal when multicasted to a replay subject".
        let source = Subject<Int, Never>()
        let shared = source.multicast(ReplaySubject()).autoconnect()
        let first = EventLog<Int, Never>()
        let subscription = shared.record(into: first)
        source.send(1)
        source.send(2)
        XCTAssertEqual(first.values, [1, 2])
        subscription.dispose()
        let second = EventLog<Int, Never>()
        shared.record(into: second)
        XCTAssertEqual(second.values, [1, 2])
    }

    func testAutoconnectSubscriptionsEndedByTheSourceReleaseTheConnection() {
        let probe = ProbeSource<Int, Never>()
        let shared = probe.signal.publish().autoconnect()
        let events = EventLog<Int, Never>()
        shared.record(into: events)
        probe.sendCompleted()
        XCTAssertEqual(events.events, [.completed])
        XCTAssertEqual(probe.disposals, 1)
        let late = EventLog<Int, Never>()
        shared.record(into: late)
        XCTAssertEqual(late.events, [.completed])
        XCTAssertEqual(probe.subscriptions, 1)
    }

    func testAutoconnectFromManyThreadsConnectsOnceAndDisconnectsWhenAllLeave() {
        for _ in 0..<20 {
            let probe = ProbeSource<Int, Never>()
            let shared = UncheckedBox(probe.signal.publish().autoconnect())
            let subscriptions = EventLog<AnyDisposable, Never>()
            runThreads(16) { _ in
                let subscription = shared.value.subscribe()
                subscriptions.append(.next(AnyDisposable { subscription.dispose() }))
            }
            XCTAssertEqual(probe.subscriptions, 1)
            XCTAssertEqual(probe.disposals, 0)
            let all = UncheckedBox(subscriptions.values)
            runThreads(16) { index in all.value[index].dispose() }
            XCTAssertEqual(probe.disposals, 1)
        }
    }

    // MARK: Lifetimes

    func testReleasingAConnectedConnectionsPiecesInAnyOrderNeitherCrashesNorLeaks() {
        let orders = [[0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]]
        for disposeFirst in [false, true] {
            for order in orders {
                weak var weakConnection: MulticastConnection<Int, Never>?
                weak var weakSubject: Subject<Int, Never>?
                weak var weakTracked: Tracked?
                let events = EventLog<Int, Never>()
                do {
                    var upstream: Subject<Int, Never>? = Subject()
                    var connection: MulticastConnection<Int, Never>?
                    do {
                        let subject = Subject<Int, Never>()
                        weakSubject = subject
                        connection = upstream?.multicast(subject)
                    }
                    weakConnection = connection
                    var signal = connection?.signal
                    let tracked = Tracked(1)
                    weakTracked = tracked
                    var subscription = signal?.subscribe(next: { events.append(.next($0 * tracked.id)) })
                    var connectionDisposable = connection?.connect()
                    upstream?.send(1)
                    for piece in order {
                        switch piece {
                        case 0:
                            if disposeFirst { connectionDisposable?.dispose() }
                            connectionDisposable = nil
                            connection = nil
                        case 1:
                            signal = nil
                        default:
                            if disposeFirst { subscription?.dispose() }
                            subscription = nil
                        }
                        upstream?.send(2)
                    }
                    XCTAssertNil(weakConnection, "order \(order)")
                    upstream = nil
                    _ = (signal, subscription, connectionDisposable)
                }
                XCTAssertNil(weakSubject, "order \(order), disposing: \(disposeFirst)")
                XCTAssertNil(weakTracked, "order \(order), disposing: \(disposeFirst)")
                XCTAssertEqual(events.values.first, 1)
                if !disposeFirst {
                    // Releasing references ends nothing: the connected source kept delivering.
                    XCTAssertEqual(events.values, [1, 2, 2, 2], "order \(order)")
                }
            }
        }
    }

    func testReleasingTheConnectionObjectDoesNotDisconnect() {
        let source = Subject<Int, Never>()
        let events = EventLog<Int, Never>()
        weak var weakConnection: MulticastConnection<Int, Never>?
        do {
            let connection = source.publish()
            weakConnection = connection
            connection.signal.record(into: events)
            connection.connect()
        }
        XCTAssertNil(weakConnection)
        source.send(1)
        source.sendCompleted()
        XCTAssertEqual(events.events, [.next(1), .completed])
    }

    func testConnectedSourceAndSubscribersAreReleasedWhenTheSourceCompletes() {
        weak var weakTracked: Tracked?
        let source = Subject<Int, Never>()
        let connection = source.publish()
        do {
            let tracked = Tracked()
            weakTracked = tracked
            connection.signal.subscribe(next: { _ in _ = tracked })
        }
        connection.connect()
        source.sendCompleted()
        XCTAssertNil(weakTracked)
        XCTAssertTrue(connection.connect().isDisposed)
    }
}
