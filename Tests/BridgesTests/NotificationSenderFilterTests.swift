import Foundation
import Observable
import TetherTestSupport
import TetherTesting
import XCTest

@testable import Bridges

private let ping = Notification.Name("NotificationSenderFilterTests.ping")

/// A sender whose instances tests create and release.
private class Sender {}
private final class DerivedSender: Sender {}

/// A sender that asks a filter about itself from inside its deinit.
private final class DeinitProbe {
    var inDeinit: (() -> Void)?
    deinit { inDeinit?() }
}

/// The notification bridge's object filter on both of its paths: the runtime's object queries (the fast
/// path, chosen by `RuntimeAssumptions`' self-test) and the weak reference it falls back to. Each test
/// runs the same script on both and expects the same answers.
final class NotificationSenderFilterTests: XCTestCase {
    private let paths = [true, false]

    func testTheFilterUsesTheRuntimeQueriesWhenTheirSelfTestPasses() {
        XCTAssertTrue(RuntimeAssumptions.objectQueriesWork, "this toolchain's runtime behaves as assumed")
    }

    func testBothPathsMatchTheSamePostsOfALiveObject() {
        for usingRuntimeQueries in paths {
            let sender = DerivedSender()
            let filter = NotificationSenderFilter(sender, usingRuntimeQueries: usingRuntimeQueries)
            func matches(_ object: Any?) -> Bool {
                filter.matches(Notification(name: ping, object: object))
            }
            let path = "usingRuntimeQueries: \(usingRuntimeQueries)"
            XCTAssertTrue(matches(sender), path)
            XCTAssertTrue(matches(sender as Sender), path)
            XCTAssertTrue(matches(sender as AnyObject), path)
            XCTAssertTrue(matches(Optional(sender) as Any), path)
            XCTAssertFalse(matches(DerivedSender()), path)
            XCTAssertFalse(matches(ObjectIdentifier(sender)), path)
            XCTAssertFalse(matches(nil), path)
            XCTAssertFalse(filter.isGone, path)
            XCTAssertTrue(filter.object === sender, path)
        }
    }

    func testBothPathsSeeTheObjectGoneAfterItsDeinit() {
        for usingRuntimeQueries in paths {
            var sender: Sender? = Sender()
            weak let weakSender = sender
            let filter = NotificationSenderFilter(sender!, usingRuntimeQueries: usingRuntimeQueries)
            sender = nil
            let path = "usingRuntimeQueries: \(usingRuntimeQueries)"
            XCTAssertNil(weakSender, "the filter does not keep the object alive (\(path))")
            XCTAssertTrue(filter.isGone, path)
            XCTAssertNil(filter.object, path)
            XCTAssertFalse(filter.matches(Notification(name: ping, object: Sender())), path)
        }
    }

    func testBothPathsSeeTheObjectGoingInsideItsDeinit() {
        for usingRuntimeQueries in paths {
            var probe: DeinitProbe? = DeinitProbe()
            let filter = NotificationSenderFilter(probe!, usingRuntimeQueries: usingRuntimeQueries)
            var seen: (isGone: Bool, object: AnyObject?)?
            probe!.inDeinit = { seen = (filter.isGone, filter.object) }
            probe = nil
            let path = "usingRuntimeQueries: \(usingRuntimeQueries)"
            XCTAssertEqual(seen?.isGone, true, path)
            XCTAssertNil(seen?.object ?? nil, path)
        }
    }

    func testBothPathsEndTheBridgedSignalAtTheNextPostOnceTheObjectIsGone() {
        for usingRuntimeQueries in paths {
            let center = NotificationCenter()
            var sender: Sender? = Sender()
            let filter = NotificationSenderFilter(sender!, usingRuntimeQueries: usingRuntimeQueries)
            let log = EventLog<Notification.Name, Never>()  // names only: a notification holds its object
            let signal = Signal<Notification.Name, Never> { observer in
                center.observe(ping, filter: filter, completed: { observer.sendCompleted() }) {
                    observer.send($0.name)
                }
            }
            signal.record(into: log)
            center.post(name: ping, object: sender)
            center.post(name: ping, object: nil)
            sender = nil
            XCTAssertEqual(log.values.count, 1)
            XCTAssertFalse(log.events.last?.isTerminal ?? true)
            center.post(name: ping, object: nil)
            XCTAssertEqual(log.events.count, 2, "usingRuntimeQueries: \(usingRuntimeQueries)")
            XCTAssertTrue(log.events.last?.isTerminal ?? false, "usingRuntimeQueries: \(usingRuntimeQueries)")
        }
    }
}
