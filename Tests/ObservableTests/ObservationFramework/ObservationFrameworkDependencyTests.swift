import Foundation
import Observable
import Observation
import Synchronization
import TetherEngine
import TetherTestSupport
import TetherTesting
import XCTest

@Observable
final class Profile {
    var name = "Ada"
    var nickname = "ada"
    var usesNickname = false
    var displayName: String { usesNickname ? nickname : name }
}

/// Dependencies, lifetimes and disposal of `observe(\.path)` on `@Observable` objects; every test runs in
/// both builds (the default SPI one and `-D TETHER_OBSERVATION_PUBLIC_API`).
final class ObservationFrameworkDependencyTests: ResourceCheckedTestCase {
    func testComputedPropertyFollowsTheDependenciesItReadsNow() {
        let profile = Profile()
        let log = EventLog<String, Never>()
        let subscription = profile.observe(\.displayName).record(into: log)
        profile.name = "Ada L."
        settleObservations()
        profile.nickname = "not read yet"
        settleObservations()
        profile.usesNickname = true
        settleObservations()
        profile.name = "no longer read"
        settleObservations()
        profile.nickname = "countess"
        settleObservations()
        XCTAssertEqual(log.values, ["Ada", "Ada L.", "not read yet", "countess"])
        subscription.dispose()
    }

    func testStoredPropertyKeepsDeliveringEverySetAcrossManyChanges() {
        let player = Player()
        let log = EventLog<Int, Never>()
        let subscription = player.observe(\.score).record(into: log)
        for score in 1...100 {
            player.score = score
            settleObservations()
        }
        XCTAssertEqual(log.values, Array(0...100))
        subscription.dispose()
        player.score = 101
        settleObservations()
        XCTAssertEqual(log.values.last, 100, "nothing after disposal")
    }

    func testDisposingOneSubscriptionAfterChangesLeavesTheOthersDeliveringAndAlive() {
        let player = Player()
        let kept = EventLog<Int, Never>()
        let disposed = EventLog<Int, Never>()
        let keptSubscription = player.observe(\.score).record(into: kept)
        let disposedSubscription = player.observe(\.score).record(into: disposed)
        player.score = 1
        settleObservations()
        disposedSubscription.dispose()
        player.score = 2
        settleObservations()
        XCTAssertEqual(kept.events, [.next(0), .next(1), .next(2)], "not completed by the other's disposal")
        XCTAssertEqual(disposed.events, [.next(0), .next(1)])
        keptSubscription.dispose()
    }

    func testEachSubscriptionCompletesWhenTheObjectDeinitializesAfterAnotherWasDisposed() {
        var player: Player? = Player()
        let kept = EventLog<Int, Never>()
        player!.observe(\.score).record(into: kept)
        player!.observe(\.score).record(into: EventLog<Int, Never>()).dispose()
        player!.score = 3
        settleObservations()
        player = nil
        XCTAssertEqual(kept.events, [.next(0), .next(3), .completed])
    }

    func testSubscribingToAnObjectAlreadyGoneCompletesAtOnce() {
        var player: Player? = Player()
        let signal = player!.observe(\.score)
        player = nil
        let log = EventLog<Int, Never>()
        signal.record(into: log)
        XCTAssertEqual(log.events, [.completed])
    }

    func testDeallocatedCompletesAtDeinitAndItsDisposalRemovesItsRegistration() {
        var player: Player? = Player()
        let ends = EventLog<Void, Never>()
        let disposedEarly = EventLog<Void, Never>()
        player!.deallocated.subscribeEvents { ends.append($0) }
        player!.deallocated.subscribeEvents { disposedEarly.append($0) }.dispose()
        player!.score = 1
        XCTAssertEqual(ends.count, 0)
        player = nil
        XCTAssertEqual(ends.count, 1, "completed once, at deinit")
        XCTAssertEqual(disposedEarly.count, 0)
    }

    func testDisposingRemovesEveryRegistrationAtOnceWithoutAnotherSet() {
        let player = Player()
        player.team = Team(title: "red")
        let start = ResourceCounter.total
        do {
            let stored = player.observe(\.score).subscribe(next: { _ in })
            let chain = player.observe(\.team?.title).subscribe(next: { _ in })
            let ends = player.deallocated.subscribe(completed: {})
            player.score = 1
            player.team?.title = "blue"
            settleObservations()
            stored.dispose()
            chain.dispose()
            ends.dispose()
        }
        // No set follows: a registration left behind would keep its subscription's objects alive.
        assertResourcesReturn(to: start, "a disposed subscription is still registered")
    }

    func testDisposalFromManyThreadsWhileTheModelIsSetLeavesNothingTracking() {
        let player = Player()
        let deliveries = Atomic<Int>(0)
        let subscriptions = (0..<64).map { _ in
            player.observe(\.score).subscribe(next: { _ in deliveries.add(1, ordering: .relaxed) })
        }
        let group = DispatchGroup()
        for worker in 0..<4 {
            DispatchQueue.global().async(group: group) {
                for index in stride(from: worker, to: subscriptions.count, by: 4) {
                    subscriptions[index].dispose()
                }
            }
        }
        for score in 1...200 {
            player.score = score
            settleObservations()
        }
        XCTAssertEqual(group.wait(timeout: .now() + 30), .success)
        settleObservations()
        let afterDisposal = deliveries.load(ordering: .relaxed)
        player.score = 1000
        settleObservations()
        XCTAssertEqual(deliveries.load(ordering: .relaxed), afterDisposal, "no subscription is still tracking")
        // The leak check (ResourceCheckedTestCase) then finds no subscription object left.
    }
}
