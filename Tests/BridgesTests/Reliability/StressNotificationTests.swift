import Bridges
import Foundation
import Observable
import Synchronization
import TetherTestSupport
import TetherTesting
import XCTest

private let stressName = Notification.Name("BridgesTests.Reliability.stress")

/// Objects posted as notification senders; instances of one size, so that a new one often takes a
/// dead one's address.
final class TrapSender: @unchecked Sendable {
    // An unusual size (344 bytes), so that Tether's own objects do not take a freed sender's memory first.
    var payload = [Int](repeating: 0, count: 0)
    var padding:
        (
            Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int,
            Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int
        ) =
            (
                0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
                0, 0, 0, 0, 0
            )
}

/// Stress: NotificationCenter posts from several threads while bridged observers come and go, and the
/// Linux Foundation traps (see the Linux notes article, Observable.docc/LinuxNotes.md) under load.
final class StressNotificationTests: ResourceCheckedTestCase {
    func testPostsFromEightThreadsWhileBridgedObserversAreAddedAndRemovedReachEachLiveObserverOnce() {
        let center = NotificationCenter()
        let posters = 8
        let postsPerPoster = StressScale.scaled(10_000)
        let permanent = GrammarMonitor<Notification>()
        let permanentSubscription = permanent.subscribe(to: center.signal(for: stressName))
        let postersDone = Atomic<Int>(0)
        let problems = ProblemLog()
        let churned = Atomic<Int>(0)
        let churnersReady = ChurnersReady(churners: 4)
        runThreads(posters + 4) { index in
            if index < posters {
                churnersReady.wait()
                for _ in 0..<postsPerPoster { center.post(name: stressName, object: nil) }
                postersDone.add(1, ordering: .acquiringAndReleasing)
                return
            }
            var round = 0
            churnersReady.arrive()
            repeat {
                let monitor = GrammarMonitor<Notification>()
                let signal = index % 2 == 0 ? center.signal(for: stressName) : center.signal(for: nil)
                let subscription = monitor.subscribe(to: signal)
                spin((round % 4) * 2_000)
                subscription.dispose()
                monitor.markDisposed()
                round += 1
                churned.add(1, ordering: .relaxed)
                if monitor.overlaps > 0 || monitor.eventsAfterDispose > 0 || monitor.terminalCount > 0 {
                    problems.add(
                        "overlaps \(monitor.overlaps), after dispose \(monitor.eventsAfterDispose), "
                            + "terminal \(monitor.terminalCount)")
                }
            } while postersDone.load(ordering: .acquiring) < posters
        }
        XCTAssertEqual(problems.entries, [])
        permanent.assertWellFormed("permanent observer")
        XCTAssertEqual(permanent.nextCount, posters * postsPerPoster, "every post reached the live observer once")
        XCTAssertGreaterThan(churned.load(ordering: .relaxed), 0)
        // No removal took someone else's registration (Foundation recycles tokens): a post still
        // reaches the permanent observer, and only it.
        center.post(name: stressName, object: nil)
        XCTAssertEqual(permanent.nextCount, posters * postsPerPoster + 1)
        permanentSubscription.dispose()
    }

    func testDisposingOneBridgedObserverFromEightThreadsAtOnceRemovesItExactlyOnce() {
        // On Linux, removing a token twice can unregister a later, unrelated observer.
        let center = NotificationCenter()
        for round in 0..<StressScale.scaled(200) {
            let subscription = UncheckedBox(center.signal(for: stressName).subscribe(next: { _ in }))
            let bystanders = (0..<3).map { _ in GrammarMonitor<Notification>() }
            let bystanderSubscriptions = bystanders.map { $0.subscribe(to: center.signal(for: stressName)) }
            runThreads(8) { _ in subscription.value.dispose() }
            let raw = Atomic<Int>(0)
            let rawToken = center.addObserver(forName: stressName, object: nil, queue: nil) { _ in
                raw.add(1, ordering: .relaxed)
            }
            center.post(name: stressName, object: nil)
            XCTAssertEqual(bystanders.map(\.nextCount), [1, 1, 1], "round \(round): a bystander was unregistered")
            XCTAssertEqual(raw.load(ordering: .relaxed), 1, "round \(round): a later observer was unregistered")
            center.removeObserver(rawToken)
            for subscription in bystanderSubscriptions { subscription.dispose() }
        }
    }

    func testAnObjectDyingWhileOtherThreadsDisposeItsObserverEndsItOnceAndRemovesItOnce() {
        let center = NotificationCenter()
        for round in 0..<StressScale.scaled(300) {
            let holder = SenderHolder()
            let monitor = GrammarMonitor<Notification>()
            let subscription = UncheckedBox(
                monitor.subscribe(to: center.signal(for: stressName, object: holder.sender!)))
            let bystander = GrammarMonitor<Notification>()
            let bystanderSubscription = bystander.subscribe(to: center.signal(for: stressName))
            runThreads(3) { index in
                switch index {
                case 0:
                    holder.sender = nil
                    center.post(name: stressName, object: nil)  // the dead filter ends the observation
                case 1: subscription.value.dispose()
                default: center.post(name: stressName, object: TrapSender())
                }
            }
            monitor.assertWellFormed("round \(round)")
            XCTAssertEqual(monitor.nextCount, 0, "round \(round): only the filter object's posts may pass")
            center.post(name: stressName, object: nil)
            XCTAssertEqual(bystander.nextCount, 3, "round \(round): the bystander lost its registration")
            bystanderSubscription.dispose()
        }
    }

    func testAFilteredObserverKeepsItsDeadObjectsAddressFromNewObjectsAndMatchesNoneOfThem() {
        let center = NotificationCenter()
        var reused = 0
        var matched = 0
        var completed = 0
        for _ in 0..<StressScale.scaled(2_000) {
            let monitor = GrammarMonitor<Notification>()
            var dead: TrapSender? = TrapSender()
            let deadAddress = ObjectIdentifier(dead!)
            let subscription = monitor.subscribe(to: center.signal(for: stressName, object: dead!))
            dead = nil
            // New objects of the same size: without the bridge's pin, one of them usually takes the dead
            // object's address (Foundation on Linux would then match it to the old observer).
            let newcomers = (0..<4).map { _ in TrapSender() }
            if newcomers.contains(where: { ObjectIdentifier($0) == deadAddress }) { reused += 1 }
            for newcomer in newcomers { center.post(name: stressName, object: newcomer) }
            matched += monitor.nextCount
            completed += monitor.terminalCount
            subscription.dispose()
        }
        XCTAssertEqual(reused, 0, "a new object took the address of an observed object while it was observed")
        XCTAssertEqual(matched, 0, "a post from a new object was delivered")
        XCTAssertEqual(completed, StressScale.scaled(2_000), "each observation ends once its object is gone")
    }

    func testNoNotificationArrivesAfterDisposeReturnsWhileEightThreadsPost() {
        // Foundation snapshots its observers and can run a removed block late: the bridge must drop it.
        let center = NotificationCenter()
        let stop = Flag()
        let problems = ProblemLog()
        let rounds = StressScale.scaled(400)
        runThreads(9) { index in
            if index < 8 {
                let sender = TrapSender()
                while !stop.isRaised {
                    center.post(name: stressName, object: index % 2 == 0 ? nil : sender)
                }
                return
            }
            for round in 0..<rounds {
                let monitor = GrammarMonitor<Notification>()
                let subscription = monitor.subscribe(to: center.signal(for: stressName))
                spin((round % 3) * 3_000)
                subscription.dispose()
                monitor.markDisposed()
                spin(3_000)
                if monitor.eventsAfterDispose > 0 || monitor.overlaps > 0 {
                    problems.add("round \(round): after dispose \(monitor.eventsAfterDispose)")
                }
            }
            stop.raise()
        }
        XCTAssertEqual(problems.entries, [])
    }
}

/// Lets one thread release the sender while others work.
final class SenderHolder: @unchecked Sendable {
    var sender: TrapSender? = TrapSender()
}
