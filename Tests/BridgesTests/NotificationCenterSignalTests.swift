import Bridges
import Dispatch
import Foundation
import TetherTestSupport
import TetherTesting
import XCTest

private let ping = Notification.Name("BridgesTests.ping")
private let pong = Notification.Name("BridgesTests.pong")

/// A sender whose instances tests create and release.
private final class Sender: @unchecked Sendable {
    var payload = [UInt8](repeating: 0, count: 8)
}

/// The Swift runtime's unowned reference count of an object, read and changed by address
/// (`swift_unownedRetainCount`, `swift_unownedRetain`, `swift_unownedRelease`, looked up by name as Tether
/// looks up its own runtime queries): how a test sees the object filter's pin on a dead object.
///
/// A live object counts 1 plus its unowned references. After its deinit, its memory stays allocated while
/// unowned references remain, the count is their number, and the release of the last one frees it. The
/// memory at `address` must be allocated at every call: the caller holds a reference while it asks.
private struct UnownedReferenceCount {
    private let countFunction: @convention(c) (UnsafeMutableRawPointer) -> UInt
    private let retainFunction: @convention(c) (UnsafeMutableRawPointer) -> Void
    private let releaseFunction: @convention(c) (UnsafeMutableRawPointer) -> Void

    init?() {
        let everywhere = UnsafeMutableRawPointer(bitPattern: 0)  // RTLD_DEFAULT
        guard let count = dlsym(everywhere, "swift_unownedRetainCount"),
            let retain = dlsym(everywhere, "swift_unownedRetain"),
            let release = dlsym(everywhere, "swift_unownedRelease")
        else { return nil }
        countFunction = unsafeBitCast(count, to: (@convention(c) (UnsafeMutableRawPointer) -> UInt).self)
        retainFunction = unsafeBitCast(retain, to: (@convention(c) (UnsafeMutableRawPointer) -> Void).self)
        releaseFunction = unsafeBitCast(release, to: (@convention(c) (UnsafeMutableRawPointer) -> Void).self)
    }

    func count(at address: UnsafeMutableRawPointer) -> UInt { countFunction(address) }

    /// Takes an unowned reference of the caller's own, which keeps the memory allocated.
    func retain(_ address: UnsafeMutableRawPointer) { retainFunction(address) }

    /// Gives back a reference taken with ``retain(_:)``; the last one frees a dead object's memory.
    func release(_ address: UnsafeMutableRawPointer) { releaseFunction(address) }
}

final class NotificationCenterSignalTests: ResourceCheckedTestCase {
    func testSignalDeliversPostsOfItsNameOnly() {
        let center = NotificationCenter()
        let log = EventLog<Notification, Never>()
        center.signal(for: ping).record(into: log)
        center.post(name: ping, object: nil, userInfo: ["n": 1])
        center.post(name: pong, object: nil)
        center.post(name: ping, object: nil, userInfo: ["n": 2])
        XCTAssertEqual(log.values.map(\.name), [ping, ping])
        XCTAssertEqual(log.values.compactMap { $0.userInfo?["n"] as? Int }, [1, 2])
    }

    func testNilNameDeliversEveryPost() {
        let center = NotificationCenter()
        let log = EventLog<Notification, Never>()
        center.signal(for: nil).record(into: log)
        center.post(name: ping, object: nil)
        center.post(name: pong, object: nil)
        XCTAssertEqual(log.values.map(\.name), [ping, pong])
    }

    func testNothingHappensUntilSubscribed() {
        let center = NotificationCenter()
        let log = EventLog<Notification, Never>()
        let signal = center.signal(for: ping)
        center.post(name: ping, object: nil)
        signal.record(into: log)
        XCTAssertEqual(log.count, 0)
        center.post(name: ping, object: nil)
        XCTAssertEqual(log.count, 1)
    }

    func testEachSubscriptionObservesIndependently() {
        let center = NotificationCenter()
        let first = EventLog<Notification, Never>()
        let second = EventLog<Notification, Never>()
        let a = center.signal(for: ping).record(into: first)
        center.signal(for: ping).record(into: second)
        center.post(name: ping, object: nil)
        a.dispose()
        center.post(name: ping, object: nil)
        XCTAssertEqual(first.count, 1)
        XCTAssertEqual(second.count, 2)
    }

    func testPostsAfterDisposeReachNothing() {
        let center = NotificationCenter()
        let log = EventLog<Notification, Never>()
        let subscription = center.signal(for: ping).record(into: log)
        center.post(name: ping, object: nil)
        subscription.dispose()
        center.post(name: ping, object: nil)
        XCTAssertEqual(log.count, 1)
        XCTAssertTrue(subscription.isDisposed)
    }

    func testDisposingASubscriptionAgainDoesNotRemoveAnotherObserver() {
        // On Linux a stale token can unregister a later observer: the bridge must remove exactly once
        // (white-box check of the removal itself: NotificationObservationTests).
        let center = NotificationCenter()
        let first = center.signal(for: ping).subscribe()
        first.dispose()
        let survivors = (0..<8).map { _ in EventLog<Notification, Never>() }
        let subscriptions = survivors.map { center.signal(for: ping).record(into: $0) }
        let raw = Counter()
        let token = center.addObserver(forName: ping, object: nil, queue: nil) { _ in raw.increment() }
        first.dispose()
        first.dispose()
        center.post(name: ping, object: nil)
        XCTAssertEqual(survivors.map(\.count), Array(repeating: 1, count: 8))
        XCTAssertEqual(raw.value, 1)
        center.removeObserver(token)
        for subscription in subscriptions { subscription.dispose() }
    }

    func testDisposingFromInsideTheSubscriberStopsDelivery() {
        let center = NotificationCenter()
        let log = EventLog<Notification, Never>()
        var subscription: (any Disposable)?
        subscription = center.signal(for: ping).subscribe(next: { note in
            log.append(.next(note))
            subscription?.dispose()
        })
        center.post(name: ping, object: nil)
        center.post(name: ping, object: nil)
        XCTAssertEqual(log.count, 1)
    }

    func testDisposingReleasesTheSubscribersCaptures() {
        let center = NotificationCenter()
        weak var weakTracked: Tracked?
        var subscription: (any Disposable)?
        do {
            let tracked = Tracked()
            weakTracked = tracked
            subscription = center.signal(for: ping).subscribe(next: { _ in _ = tracked.id })
        }
        center.post(name: ping, object: nil)
        XCTAssertNotNil(weakTracked)
        subscription?.dispose()
        XCTAssertNil(weakTracked, "the removed observer's block must not keep the subscriber alive")
    }

    func testObjectFilterDeliversOnlyThatObjectsPosts() {
        let center = NotificationCenter()
        let sender = Sender()
        let other = Sender()
        let log = EventLog<Notification, Never>()
        center.signal(for: ping, object: sender).record(into: log)
        center.post(name: ping, object: other)
        center.post(name: ping, object: nil)
        center.post(name: ping, object: sender)
        center.post(name: pong, object: sender)
        XCTAssertEqual(log.values.count, 1)
        XCTAssertTrue(log.values.first?.object as AnyObject? === sender)
    }

    func testObjectFilterLetsNoValueObjectThroughAndNeitherKeepsNorReleasesThePostsObjects() {
        // The filter borrows each post's object to compare it: a copy too many would keep the other
        // senders alive, one too few would free them early (or crash at the post's own release).
        let center = NotificationCenter()
        let sender = Sender()
        let log = EventLog<Notification, Never>()
        center.signal(for: ping, object: sender).record(into: log)
        weak var firstOther: Sender?
        weak var lastOther: Sender?
        for index in 0..<100 {
            let other = Sender()
            if index == 0 { firstOther = other }
            lastOther = other
            center.post(name: ping, object: other)
            center.post(name: ping, object: index)
            center.post(name: ping, object: "\(index)")
        }
        XCTAssertNil(firstOther)
        XCTAssertNil(lastOther)
        XCTAssertEqual(log.values.count, 0)
        center.post(name: ping, object: sender)
        XCTAssertEqual(log.values.count, 1)
        XCTAssertTrue(log.values.first?.object as AnyObject? === sender)
        XCTAssertEqual(log.events.count, 1, "the filter object is alive: no completion")
    }

    func testObjectFilterWithoutNameDeliversEveryNameFromThatObject() {
        let center = NotificationCenter()
        let sender = Sender()
        let log = EventLog<Notification, Never>()
        center.signal(for: nil, object: sender).record(into: log)
        center.post(name: ping, object: sender)
        center.post(name: pong, object: Sender())
        center.post(name: pong, object: sender)
        XCTAssertEqual(log.values.map(\.name), [ping, pong])
    }

    func testObjectFilterDoesNotKeepTheObjectAliveAndCompletesWhenItIsGone() {
        let center = NotificationCenter()
        // Record names only: a recorded notification would keep its object alive.
        let log = EventLog<Notification.Name, Never>()
        weak var weakSender: Sender?
        do {
            let sender = Sender()
            weakSender = sender
            center.signal(for: ping, object: sender).map(\.name).record(into: log)
            center.post(name: ping, object: sender)
        }
        XCTAssertNil(weakSender)
        center.post(name: ping, object: Sender())
        XCTAssertEqual(log.count, 2)
        XCTAssertEqual(log.events.last?.isTerminal, true)
        center.post(name: ping, object: nil)
        XCTAssertEqual(log.count, 2)
    }

    func testSubscribingAfterTheObjectIsGoneCompletesAtOnce() {
        let center = NotificationCenter()
        var sender: Sender? = Sender()
        let signal = center.signal(for: ping, object: sender)
        sender = nil
        let log = EventLog<Notification, Never>()
        signal.record(into: log)
        XCTAssertEqual(log.count, 1)
        XCTAssertEqual(log.events.first?.isTerminal, true)
    }

    func testObjectFilterKeepsTheDeadObjectsAddressFromAnyNewObjectUntilDisposed() throws {
        // The pin is an unowned reference: the dead object's memory stays allocated exactly while the
        // runtime counts one. The test reads that count instead of waiting for the allocator to hand the
        // address out again, which glibc does only if nothing else of the process took the block first.
        let references = try XCTUnwrap(UnownedReferenceCount(), "the Swift runtime exports its unowned-count calls")
        for name in [ping, nil] as [Notification.Name?] {
            let label = "name: \(name?.rawValue ?? "nil")"
            let center = NotificationCenter()
            let log = EventLog<Notification, Never>()
            let address: UnsafeMutableRawPointer
            weak var weakSender: Sender?
            var subscription: (any Disposable)?
            do {
                let sender = Sender()
                weakSender = sender
                address = Unmanaged.passUnretained(sender).toOpaque()
                XCTAssertEqual(references.count(at: address), 1, "\(label): alive, not yet pinned")
                subscription = center.signal(for: name, object: sender).record(into: log)
                let pins = Int(references.count(at: address)) - 1
                // Without its pin the object's memory is freed with it, and no longer the test's to read.
                guard pins == 1 else { return XCTFail("\(label): the signal pins its object \(pins) times") }
            }
            XCTAssertNil(weakSender, "\(label): the filter must not keep its object alive")
            // Foundation on Linux filters by address: a new object there would match the old observer.
            // While the pin alone keeps the memory, no new object can be allocated there.
            let newcomers = (0..<2_000).map { _ in Sender() }
            guard !newcomers.contains(where: { Unmanaged.passUnretained($0).toOpaque() == address }) else {
                return XCTFail("\(label): a new object was allocated at the address of the observed object")
            }
            XCTAssertEqual(references.count(at: address), 1, "\(label): the pin keeps the dead object's memory")
            // A reference of the test's own, so that the count can still be read once the pin is gone.
            references.retain(address)
            for sender in newcomers.prefix(3) { center.post(name: ping, object: sender) }
            XCTAssertTrue(log.values.isEmpty, "\(label): a post from another object was delivered")
            if name != nil {
                // The post that found the object dead ended the observation, and with it the pin.
                XCTAssertEqual(log.events.last?.isTerminal, true, "the dead filter object should end the signal")
                XCTAssertEqual(references.count(at: address), 1, "\(label): the ended observation still pins")
            } else {
                // Only the object's own posts reach this observation: it lives, pinned, until disposed.
                XCTAssertTrue(log.events.isEmpty, "\(label): nothing ends this observation but dispose")
                XCTAssertEqual(references.count(at: address), 2, "\(label): the live observation lost its pin")
            }
            subscription?.dispose()
            XCTAssertEqual(references.count(at: address), 1, "\(label): the pin outlived dispose()")
            subscription = nil
            XCTAssertEqual(references.count(at: address), 1, "\(label): the subscription kept a pin")
            references.release(address)  // the last reference: the runtime frees the memory
        }
    }

    func testObjectFilterMatchesTheObjectPostedInsideAnOptional() {
        let center = NotificationCenter()
        let sender = Sender()
        let log = EventLog<Notification, Never>()
        center.signal(for: ping, object: sender).record(into: log)
        let wrapped: Sender? = sender
        center.post(name: ping, object: wrapped as Any)
        center.post(name: ping, object: Optional(Sender()) as Any)
        XCTAssertEqual(log.values.count, 1)
    }

    func testObjectFilterMatchesTheObjectHoweverThePostTypesItAndNoValueHoldingItsAddress() {
        // However the post types the object (its class, a superclass, `AnyObject`, inside an `Optional`),
        // it matches; a value that merely carries the object's address must not.
        class Base {}
        final class Derived: Base {}
        let center = NotificationCenter()
        let sender = Derived()
        let log = EventLog<Notification, Never>()
        center.signal(for: ping, object: sender).record(into: log)
        func erased<Value>(_ value: Value) -> Any { value }  // keeps `Value` as the `Any`'s stored type
        var matched: [String] = []
        let posts: [(String, Any?)] = [
            ("own class", sender),
            ("superclass", sender as Base),
            ("AnyObject", sender as AnyObject),
            ("Optional", Optional(sender) as Any),
            ("Optional of superclass", erased(Optional(sender as Base))),
            ("AnyObject kept as the stored type", erased(sender as AnyObject)),
            ("another instance of its class", Derived()),
            ("an instance of its superclass", Base()),
            ("an NSObject", NSObject()),
            ("a string", "a string"),
            ("ObjectIdentifier", ObjectIdentifier(sender)),
            ("raw pointer", Unmanaged.passUnretained(sender).toOpaque()),
            ("Unmanaged", Unmanaged.passUnretained(sender)),
            ("address as UInt", UInt(bitPattern: ObjectIdentifier(sender))),
            ("nil", nil),
        ]
        for (label, object) in posts {
            let before = log.values.count
            center.post(name: ping, object: object)
            if log.values.count > before { matched.append(label) }
        }
        XCTAssertEqual(
            matched,
            [
                "own class", "superclass", "AnyObject", "Optional", "Optional of superclass",
                "AnyObject kept as the stored type",
            ])
        XCTAssertTrue(log.values.allSatisfy { $0.object.map { $0 as AnyObject } === sender })
        XCTAssertEqual(log.events.count, matched.count, "the filter object is alive: no completion")
    }

    func testObjectFilterOfAnNSObjectDeliversItsPostsAndCompletesWhenItIsGone() {
        let center = NotificationCenter()
        let log = EventLog<Notification.Name, Never>()
        weak var weakSender: NSObject?
        do {
            let sender = NSObject()
            weakSender = sender
            center.signal(for: ping, object: sender).map(\.name).record(into: log)
            center.post(name: ping, object: NSObject())
            center.post(name: ping, object: sender)
            center.post(name: pong, object: sender)
        }
        XCTAssertNil(weakSender)
        XCTAssertEqual(log.values, [ping])
        center.post(name: ping, object: nil)
        XCTAssertEqual(log.count, 2)
        XCTAssertEqual(log.events.last?.isTerminal, true)
    }

    func testTypedNotificationObjectFilterDeliversOnlyThatObjectsPosts() {
        let center = NotificationCenter()
        let scored = TypedNotification<Int>(ping)
        let sender = Sender()
        let log = EventLog<Int, Never>()
        center.signal(for: scored, object: sender).record(into: log)
        center.post(scored, 1, object: Sender())
        center.post(scored, 2, object: sender)
        XCTAssertEqual(log.values, [2])
    }

    func testSchedulerOverloadDeliversOnTheScheduler() {
        let center = NotificationCenter()
        let scheduler = TestScheduler()
        let log = EventLog<Notification, Never>()
        center.signal(for: ping, on: scheduler).record(into: log)
        center.post(name: ping, object: nil, userInfo: ["n": 1])
        center.post(name: ping, object: nil, userInfo: ["n": 2])
        XCTAssertEqual(log.count, 0)
        scheduler.advance()
        XCTAssertEqual(log.values.compactMap { $0.userInfo?["n"] as? Int }, [1, 2])
    }

    func testSchedulerOverloadDropsWhatIsPendingAtDispose() {
        let center = NotificationCenter()
        let scheduler = TestScheduler()
        let log = EventLog<Notification, Never>()
        let subscription = center.signal(for: ping, on: scheduler).record(into: log)
        center.post(name: ping, object: nil)
        subscription.dispose()
        scheduler.advance()
        XCTAssertEqual(log.count, 0)
    }

    func testSchedulerOverloadDeliversOnAQueueScheduler() {
        let center = NotificationCenter()
        let scheduler = QueueScheduler(name: "bridges.tests.notifications")
        let onQueue = Counter()
        let log = EventLog<Notification, Never>()
        let done = log.expectation(count: 3)
        center.signal(for: ping, on: scheduler).subscribe(next: { note in
            if scheduler.isCurrent { onQueue.increment() }
            log.append(.next(note))
        })
        for n in 0..<3 { center.post(name: ping, object: nil, userInfo: ["n": n]) }
        wait(for: [done], timeout: 10)
        XCTAssertEqual(log.values.compactMap { $0.userInfo?["n"] as? Int }, [0, 1, 2])
        XCTAssertEqual(onQueue.value, 3)
    }

    func testConcurrentPostsAreDeliveredSerially() {
        let center = NotificationCenter()
        let detector = OverlapDetector()
        let received = Counter()
        let subscription = center.signal(for: ping).subscribe(next: { _ in
            detector.enter()
            received.increment()
            detector.leave()
        })
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            for _ in 0..<2_000 { center.post(name: ping, object: nil) }
        }
        subscription.dispose()
        XCTAssertEqual(received.value, 8_000)
        XCTAssertEqual(detector.overlaps, 0)
    }

    func testNoValueArrivesAfterDisposeReturnsWhilePostingThreadsRun() {
        // Foundation can run a removed block late; the bridge's gate must stop it.
        let center = NotificationCenter()
        let stop = Flag()
        let violations = Counter()
        let posters = DispatchGroup()
        for _ in 0..<2 {
            DispatchQueue.global().async(group: posters) {
                while !stop.isRaised { center.post(name: ping, object: nil) }
            }
        }
        for _ in 0..<300 {
            let disposed = Flag()
            let subscription = center.signal(for: ping).subscribe(next: { _ in
                if disposed.isRaised { violations.increment() }
            })
            subscription.dispose()
            disposed.raise()
        }
        stop.raise()
        posters.wait()
        XCTAssertEqual(violations.value, 0)
    }

    func testObserversComingAndGoingWhileThreadsPost() {
        let center = NotificationCenter()
        let violations = Counter()
        let delivered = Counter()
        DispatchQueue.concurrentPerform(iterations: 8) { index in
            if index % 2 == 0 {
                for _ in 0..<3_000 { center.post(name: ping, object: nil) }
            } else {
                for _ in 0..<200 {
                    let disposed = Flag()
                    let detector = OverlapDetector()
                    let subscription = center.signal(for: ping).subscribe(next: { _ in
                        detector.enter()
                        if disposed.isRaised { violations.increment() }
                        delivered.increment()
                        detector.leave()
                    })
                    subscription.dispose()
                    disposed.raise()
                    if detector.overlaps > 0 { violations.increment() }
                }
            }
        }
        XCTAssertEqual(violations.value, 0)
        // Every subscription is gone: a post reaches nothing.
        let before = delivered.value
        center.post(name: ping, object: nil)
        XCTAssertEqual(delivered.value, before)
    }
}
