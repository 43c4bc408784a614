import Bridges
import Foundation
import TetherTestSupport
import TetherTesting
import XCTest

private struct Login: Equatable, Sendable {
    let user: String
}

private struct SizeMissing: Error, CustomStringConvertible {
    var description: String { "width or height missing" }
}

private enum Notes {
    static let didLogIn = TypedNotification<Login>(Notification.Name("BridgesTests.didLogIn"))
    static let didLogOut = TypedNotification<Void>(Notification.Name("BridgesTests.didLogOut"))
    static let volume = TypedNotification<Int>(Notification.Name("BridgesTests.volume"), key: "level")
    static let resized = TypedNotification<Size>(
        Notification.Name("BridgesTests.resized"),
        encode: { ["w": $0.width, "h": $0.height] },
        decode: { info in
            guard let width = info?["w"] as? Int, let height = info?["h"] as? Int else { throw SizeMissing() }
            return Size(width: width, height: height)
        })
}

private struct Size: Equatable, Sendable {
    let width: Int
    let height: Int
}

private final class Sender {}

final class TypedNotificationTests: ResourceCheckedTestCase {
    func testPayloadPostedWithTypedPostIsObservedWithoutUserInfo() {
        let center = NotificationCenter()
        let log = EventLog<Login, Never>()
        center.signal(for: Notes.didLogIn).record(into: log)
        center.post(Notes.didLogIn, Login(user: "ada"))
        center.post(Notes.didLogIn, Login(user: "bob"))
        XCTAssertEqual(log.events, [.next(Login(user: "ada")), .next(Login(user: "bob"))])
    }

    func testByDefaultAMalformedPostIsSkippedReportedAndLaterPostsArrive() {
        let center = NotificationCenter()
        let warnings = NotificationWarnings(name: Notes.didLogIn.name)
        defer { warnings.stop() }
        let log = EventLog<Login, Never>()
        let signal: Signal<Login, Never> = center.signal(for: Notes.didLogIn)
        signal.record(into: log)
        center.post(Notes.didLogIn, Login(user: "ada"))
        center.post(name: Notes.didLogIn.name, object: nil, userInfo: ["TetherPayload": 42])
        center.post(Notes.didLogIn, Login(user: "bob"))
        XCTAssertEqual(log.events, [.next(Login(user: "ada")), .next(Login(user: "bob"))])
        XCTAssertEqual(warnings.reported.count, 1)
        let warning = warnings.reported.first
        XCTAssertEqual(warning?.kind, .malformedNotification)
        XCTAssertEqual(warning?.subject, Notes.didLogIn.name.rawValue)
        let message = warning?.message ?? ""
        XCTAssertTrue(message.contains("Int") && message.contains("Login"), message)
        XCTAssertTrue(message.contains("malformed: .fail"), message)
    }

    func testReportPolicyIsTheDefaultAndSkipPolicyReportsNothing() {
        let center = NotificationCenter()
        let warnings = NotificationWarnings(name: Notes.volume.name)
        defer { warnings.stop() }
        let reported = EventLog<Int, Never>()
        let quiet = EventLog<Int, Never>()
        center.signal(for: Notes.volume, malformed: .report).record(into: reported)
        center.signal(for: Notes.volume, malformed: .skip).record(into: quiet)
        center.post(name: Notes.volume.name, object: nil, userInfo: nil)
        center.post(Notes.volume, 1)
        XCTAssertEqual(reported.events, [.next(1)])
        XCTAssertEqual(quiet.events, [.next(1)])
        XCTAssertEqual(warnings.reported.count, 1, "one warning: from .report, none from .skip")
    }

    func testFailPolicyFailsAForeignPostWithAnotherPayloadTypeWithMalformedNotification() {
        let center = NotificationCenter()
        let log = EventLog<Login, BridgeError>()
        center.signal(for: Notes.didLogIn, malformed: .fail).record(into: log)
        center.post(name: Notes.didLogIn.name, object: nil, userInfo: ["TetherPayload": 42])
        center.post(Notes.didLogIn, Login(user: "late"))
        XCTAssertEqual(log.count, 1)
        guard case .error(.malformedNotification(let name, let reason))? = log.events.first else {
            return XCTFail("expected a malformed notification error, got \(log.events)")
        }
        XCTAssertEqual(name, Notes.didLogIn.name)
        XCTAssertTrue(reason.contains("Int") && reason.contains("Login"), reason)
    }

    func testFailPolicyFailsAPostWithoutUserInfoWithMalformedNotification() {
        let center = NotificationCenter()
        let log = EventLog<Login, BridgeError>()
        center.signal(for: Notes.didLogIn, malformed: .fail).record(into: log)
        center.post(name: Notes.didLogIn.name, object: nil)
        guard case .error(.malformedNotification(_, let reason))? = log.events.first else {
            return XCTFail("expected a malformed notification error, got \(log.events)")
        }
        XCTAssertTrue(reason.contains("no userInfo"), reason)
    }

    func testSkipPolicyIgnoresMalformedPostsAndKeepsObserving() {
        let center = NotificationCenter()
        let log = EventLog<Login, Never>()
        center.signal(for: Notes.didLogIn, malformed: .skip).record(into: log)
        center.post(name: Notes.didLogIn.name, object: nil, userInfo: ["TetherPayload": "not a login"])
        center.post(name: Notes.didLogIn.name, object: nil)
        center.post(Notes.didLogIn, Login(user: "ada"))
        XCTAssertEqual(log.events, [.next(Login(user: "ada"))])
    }

    func testKeyedNotificationReadsUserInfoPostedByOtherCode() {
        let center = NotificationCenter()
        let log = EventLog<Int, Never>()
        center.signal(for: Notes.volume).record(into: log)
        center.post(name: Notes.volume.name, object: nil, userInfo: ["level": 7])
        center.post(Notes.volume, 8)
        XCTAssertEqual(log.events, [.next(7), .next(8)])
    }

    func testKeyedNotificationWithMissingKeyNamesTheKey() {
        let center = NotificationCenter()
        let log = EventLog<Int, BridgeError>()
        center.signal(for: Notes.volume, malformed: .fail).record(into: log)
        center.post(name: Notes.volume.name, object: nil, userInfo: ["volume": 7])
        guard case .error(.malformedNotification(_, let reason))? = log.events.first else {
            return XCTFail("expected a malformed notification error, got \(log.events)")
        }
        XCTAssertTrue(reason.contains("\"level\""), reason)
    }

    func testCustomEncodingRoundTripsAndADecodeErrorBecomesMalformedNotification() {
        let center = NotificationCenter()
        let log = EventLog<Size, BridgeError>()
        center.signal(for: Notes.resized, malformed: .fail).record(into: log)
        center.post(Notes.resized, Size(width: 80, height: 24))
        center.post(name: Notes.resized.name, object: nil, userInfo: ["w": 80])
        XCTAssertEqual(
            log.events,
            [
                .next(Size(width: 80, height: 24)),
                .error(.malformedNotification(name: Notes.resized.name, reason: "width or height missing")),
            ])
    }

    func testVoidNotificationPostsAndObservesWithoutPayload() {
        let center = NotificationCenter()
        let count = Counter()
        center.signal(for: Notes.didLogOut).subscribe(next: { count.increment() })
        center.post(Notes.didLogOut)
        center.post(name: Notes.didLogOut.name, object: nil, userInfo: ["anything": 1])
        XCTAssertEqual(count.value, 2)
    }

    func testTypedObjectFilterDeliversOnlyThatObjectsPosts() {
        let center = NotificationCenter()
        let sender = Sender()
        let log = EventLog<Int, Never>()
        center.signal(for: Notes.volume, object: sender).record(into: log)
        center.post(Notes.volume, 1, object: Sender())
        center.post(Notes.volume, 2, object: sender)
        center.post(Notes.volume, 3)
        XCTAssertEqual(log.events, [.next(2)])
    }

    func testSignalPostsEachValueAsTheTypedNotification() {
        let center = NotificationCenter()
        let log = EventLog<Int, Never>()
        center.signal(for: Notes.volume).record(into: log)
        let levels = Subject<Int, Never>()
        let posting = levels.post(to: center, as: Notes.volume)
        levels.send(1)
        levels.send(2)
        posting.dispose()
        levels.send(3)
        XCTAssertEqual(log.events, [.next(1), .next(2)])
    }

    func testSignalPostsWithItsSenderAsTheObject() {
        let center = NotificationCenter()
        let sender = Sender()
        let fromSender = EventLog<Bool, Never>()
        center.signal(for: Notes.volume.name).subscribe(next: { note in
            fromSender.append(.next(note.object as AnyObject? === sender))
        })
        let levels = Subject<Int, Never>()
        levels.post(to: center, as: Notes.volume, object: sender)
        levels.send(1)
        XCTAssertEqual(fromSender.values, [true])
    }

    func testPostingDoesNotKeepItsSenderAlive() {
        let center = NotificationCenter()
        weak var weakSender: Sender?
        let levels = Subject<Int, Never>()
        do {
            let sender = Sender()
            weakSender = sender
            levels.post(to: center, as: Notes.volume, object: sender)
        }
        XCTAssertNil(weakSender)
        let count = Counter()
        center.signal(for: Notes.volume.name).subscribe(next: { _ in count.increment() })
        levels.send(1)
        XCTAssertEqual(count.value, 0, "values are not posted once the sender is gone")
    }

    func testNotificationSignalRelaysIntoAnotherCenter() {
        let source = NotificationCenter()
        let target = NotificationCenter()
        let log = EventLog<Notification, Never>()
        target.signal(for: Notes.volume.name).record(into: log)
        source.signal(for: Notes.volume.name).post(to: target)
        source.post(Notes.volume, 5)
        XCTAssertEqual(log.values.compactMap { $0.userInfo?["level"] as? Int }, [5])
    }
}

/// Records the `ObservationWarning`s about one notification name while alive (other tests' warnings pass
/// to the previous handler).
private final class NotificationWarnings: @unchecked Sendable {
    // Safety: `storage` is only accessed under `lock`; `previous` and `name` are immutable.
    private let lock = NSLock()
    private var storage: [ObservationWarning] = []
    private let previous: @Sendable (ObservationWarning) -> Void
    private let name: String

    init(name: Notification.Name) {
        self.name = name.rawValue
        previous = ObservationWarning.handler
        ObservationWarning.handler = { [weak self, previous] warning in
            guard let self, warning.subject == self.name else { return previous(warning) }
            self.lock.withLock { self.storage.append(warning) }
        }
    }

    var reported: [ObservationWarning] { lock.withLock { storage } }

    func stop() {
        ObservationWarning.handler = previous
    }
}
