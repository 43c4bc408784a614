import Foundation
import TetherGio
import TetherGioTestSupport
import XCTest

/// Remote properties and name owners across a private bus started by the tests, with a service on another
/// connection and `gdbus` in another process.
final class DBusPropertyTests: PrivateBusTestCase {
    // For `DBusConnection.session()`: the session bus is this private one.
    override class var isSessionBus: Bool { true }

    private var service: TestService!
    private var client: DBusConnection!

    override func setUp() {
        super.setUp()
        service = try! TestService(address: Self.bus.address)
        client = try! DBusConnection(address: Self.bus.address)
    }

    override func tearDown() {
        service.stop()
        drainMainContext()
        super.tearDown()
    }

    private func nameProperty() throws -> Signal<String, DBusError> {
        try client.property(
            "Name", interface: TestService.interface, path: TestService.path, on: TestService.busName, as: String.self)
    }

    func testAPropertySendsItsCurrentValueThenEachAnnouncedChange() throws {
        service.name = "first"
        let received = Locked([String]())
        let subscription = try nameProperty().subscribe(next: { value in received.modify { $0.append(value) } })
        defer { subscription.dispose() }
        pump(until: { received.load() == ["first"] })
        service.setName("second")
        service.setName("second")
        service.setName("third")
        pump(until: { received.load().count == 3 })
        drainMainContext()
        XCTAssertEqual(received.load(), ["first", "second", "third"])
    }

    func testAnInvalidatedPropertyIsFetchedAgain() throws {
        service.count = 1
        let received = Locked([UInt32]())
        let subscription = try client.property(
            "Count", interface: TestService.interface, path: TestService.path, on: TestService.busName,
            as: UInt32.self
        ).subscribe(next: { value in received.modify { $0.append(value) } })
        defer { subscription.dispose() }
        pump(until: { received.load() == [1] })
        service.setCountInvalidating(2)
        pump(until: { received.load() == [1, 2] })
    }

    func testAPropertySetByAnotherProcessIsObserved() throws {
        let received = Locked([String]())
        let subscription = try nameProperty().subscribe(next: { value in received.modify { $0.append(value) } })
        defer { subscription.dispose() }
        pump(until: { received.load() == ["initial"] })
        let gdbus = try Self.bus.gdbus([
            "call", "--dest", TestService.busName, "--object-path", TestService.path, "--method",
            "org.freedesktop.DBus.Properties.Set", TestService.interface, "Name", "<'from gdbus'>",
        ])
        let result = gdbus.finish()
        XCTAssertEqual(result.code, 0, result.output)
        pump(until: { received.load().count == 2 })
        XCTAssertEqual(received.load(), ["initial", "from gdbus"])
    }

    func testAnotherProcessSeesTheValueThroughTheSameBus() throws {
        service.setName("visible")
        let gdbus = try Self.bus.gdbus([
            "call", "--dest", TestService.busName, "--object-path", TestService.path, "--method",
            "org.freedesktop.DBus.Properties.Get", TestService.interface, "Name",
        ])
        let result = gdbus.finish()
        XCTAssertEqual(result.code, 0, result.output)
        XCTAssertEqual(result.output.trimmingCharacters(in: .whitespacesAndNewlines), "(<'visible'>,)")
    }

    func testAPropertyOfAServiceThatIsNotThereFailsWithTheRemoteError() throws {
        let failure = Locked(nil as DBusError?)
        let subscription = try client.property(
            "Name", interface: TestService.interface, path: TestService.path, on: "org.tether.Nobody", as: String.self
        ).subscribe(next: { _ in XCTFail("no value expected") }, error: { error in failure.store(error) })
        defer { subscription.dispose() }
        pump(until: { failure.load() != nil })
        guard case .remote(let name, _) = failure.load() else {
            return XCTFail("unexpected \(String(describing: failure.load()))")
        }
        XCTAssertEqual(name, "org.freedesktop.DBus.Error.ServiceUnknown")
    }

    func testAnUnknownPropertyFailsWithTheServicesError() throws {
        let failure = Locked(nil as DBusError?)
        let subscription = try client.property(
            "Colour", interface: TestService.interface, path: TestService.path, on: TestService.busName,
            as: String.self
        ).subscribe(next: { _ in XCTFail("no value expected") }, error: { error in failure.store(error) })
        defer { subscription.dispose() }
        pump(until: { failure.load() != nil })
        guard case .remote(let name, _) = failure.load() else {
            return XCTFail("unexpected \(String(describing: failure.load()))")
        }
        XCTAssertEqual(name, "org.freedesktop.DBus.Error.InvalidArgs")
    }

    func testAValueOfAnotherTypeFailsWithATypeMismatch() throws {
        let failure = Locked(nil as DBusError?)
        let subscription = try client.property(
            "Count", interface: TestService.interface, path: TestService.path, on: TestService.busName,
            as: String.self
        ).subscribe(next: { _ in XCTFail("no value expected") }, error: { error in failure.store(error) })
        defer { subscription.dispose() }
        pump(until: { failure.load() != nil })
        XCTAssertEqual(failure.load(), .typeMismatch(member: "Count", expected: "s", actual: "u"))
    }

    func testMalformedNamesAreTypedErrorsAtTheCall() {
        let cases: [(String, String, String, String, DBusError)] = [
            (
                "Name", TestService.interface, "relative/path", TestService.busName,
                .invalidName(kind: .objectPath, value: "relative/path")
            ),
            (
                "Name", "no-dots", TestService.path, TestService.busName,
                .invalidName(kind: .interface, value: "no-dots")
            ),
            (
                "Bad.Member", TestService.interface, TestService.path, TestService.busName,
                .invalidName(kind: .member, value: "Bad.Member")
            ),
            (
                "Name", TestService.interface, TestService.path, "not a name",
                .invalidName(kind: .busName, value: "not a name")
            ),
        ]
        for (name, interface, path, destination, expected) in cases {
            XCTAssertThrowsError(
                try client.property(name, interface: interface, path: path, on: destination, as: String.self)
            ) {
                XCTAssertEqual($0 as? DBusError, expected)
            }
        }
        XCTAssertThrowsError(try client.nameOwner(of: "..")) {
            XCTAssertEqual($0 as? DBusError, .invalidName(kind: .busName, value: ".."))
        }
    }

    func testDisposingStopsTheValuesAndReleasesTheSubscription() throws {
        let received = Locked([String]())
        let subscription = try nameProperty().subscribe(next: { value in received.modify { $0.append(value) } })
        pump(until: { received.load() == ["initial"] })
        subscription.dispose()
        service.setName("after")
        // A second subscriber proves the change was delivered; the disposed one did not get it.
        let witness = Locked([String]())
        let other = try nameProperty().subscribe(next: { value in witness.modify { $0.append(value) } })
        defer { other.dispose() }
        pump(until: { witness.load() == ["after"] })
        service.setName("later")
        pump(until: { witness.load() == ["after", "later"] })
        XCTAssertEqual(received.load(), ["initial"])
    }

    func testDisposingBeforeTheFirstAnswerSendsNothingAndReleasesTheConnection() throws {
        weak var released: DBusConnection?
        let received = Locked([String]())
        do {
            let connection = try DBusConnection(address: Self.bus.address)
            released = connection
            let subscription = try connection.property(
                "Name", interface: TestService.interface, path: TestService.path, on: TestService.busName,
                as: String.self
            ).subscribe(next: { value in received.modify { $0.append(value) } })
            subscription.dispose()
        }
        pump(until: { released == nil })
        XCTAssertEqual(received.load(), [])
    }

    func testAPropertyFollowingItsOwnerIsNilWhileTheServiceIsGoneAndFollowsEachRestart() throws {
        // Issue 43 item 3: `property` fails for good before the service runs and keeps its last value when it
        // stops; this one says "gone" (nil) and picks the values up again from the next owner.
        let followed = "org.tether.Followed"
        let received = Locked([String?]())
        let failure = Locked(nil as DBusError?)
        let subscription = try client.propertyFollowingOwner(
            "Name", interface: TestService.interface, path: TestService.path, on: followed, as: String.self
        ).subscribe(
            next: { value in received.modify { $0.append(value) } }, error: { error in failure.store(error) })
        defer { subscription.dispose() }
        pump(until: { received.load() == [nil] })
        let first = try TestService(address: Self.bus.address)
        first.name = "first"
        first.call("RequestName", "('\(followed)', uint32 4)")
        pump(until: { received.load() == [nil, "first"] })
        first.setName("changed")
        pump(until: { received.load() == [nil, "first", "changed"] })
        first.stop()
        pump(until: { received.load() == [nil, "first", "changed", nil] })
        let second = try TestService(address: Self.bus.address)
        defer { second.stop() }
        second.name = "restarted"
        second.call("RequestName", "('\(followed)', uint32 4)")
        pump(until: { received.load() == [nil, "first", "changed", nil, "restarted"] })
        XCTAssertNil(failure.load())
    }

    func testANamesOwnerAppearsAndVanishes() throws {
        let owners = Locked([String?]())
        let subscription = try client.nameOwner(of: "org.tether.Other").subscribe(next: { owner in
            owners.modify { $0.append(owner) }
        })
        defer { subscription.dispose() }
        pump(until: { owners.load() == [nil] })
        let other = try TestService(address: Self.bus.address)
        other.call("RequestName", "('org.tether.Other', uint32 4)")
        pump(until: { owners.load().count == 2 })
        XCTAssertEqual(owners.load().last, other.connection.uniqueName)
        other.stop()
        pump(until: { owners.load().count == 3 })
        XCTAssertEqual(owners.load().last, .some(nil))
    }

    func testTheSessionBusIsTheOneInTheEnvironment() throws {
        let session = try DBusConnection.session()
        let owners = Locked([String?]())
        let subscription = try session.nameOwner(of: TestService.busName).subscribe(next: { owner in
            owners.modify { $0.append(owner) }
        })
        defer { subscription.dispose() }
        pump(until: { !owners.load().isEmpty })
        XCTAssertEqual(owners.load(), [service.connection.uniqueName])
    }

    func testAnAddressWithoutABusIsAConnectionError() {
        XCTAssertThrowsError(try DBusConnection(address: "unix:path=/nonexistent/tether-bus")) {
            guard case .connectionFailed = $0 as? DBusError else { return XCTFail("unexpected \($0)") }
        }
    }
}
