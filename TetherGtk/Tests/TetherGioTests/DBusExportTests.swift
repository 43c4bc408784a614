import Foundation
import TetherGio
import TetherGioTestSupport
import XCTest

/// Objects exported on a private bus, their properties following Tether signals and channels, read and
/// set by `gdbus` in another process and followed by a Tether client on another connection.
final class DBusExportTests: PrivateBusTestCase {
    private final class Session: KeyPathObservable {
        @Observed var username = "ann"
    }

    private var server: DBusConnection!
    private var destination: String { server.uniqueName! }
    private let path = "/org/tether/Exported"
    private let interface = "org.tether.Exported"

    override func setUp() {
        super.setUp()
        server = try! DBusConnection(address: Self.bus.address)
    }

    override func tearDown() {
        drainMainContext()
        super.tearDown()
    }

    private func gdbus(_ method: String, _ arguments: String...) throws -> (code: Int32, output: String) {
        let result = try Self.bus.gdbus(
            [
                "call", "--dest", destination, "--object-path", path, "--method",
                "org.freedesktop.DBus.Properties." + method,
            ]
                + arguments
        ).finish()
        return (result.code, result.output.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    func testAnotherProcessReadsThePropertiesBoundFromSignals() throws {
        let signedIn = MutableProperty(false)
        let session = Session()
        let exported = try server.export(
            path: path, interface: interface,
            properties: [.readOnly("SignedIn", signedIn.signal), .readWrite("Username", session.channel(\.username))])
        defer { exported.dispose() }
        XCTAssertEqual(try gdbus("Get", interface, "SignedIn").output, "(<false>,)")
        XCTAssertEqual(try gdbus("Get", interface, "Username").output, "(<'ann'>,)")
        signedIn.value = true
        XCTAssertEqual(try gdbus("Get", interface, "SignedIn").output, "(<true>,)")
    }

    func testAClientOnAnotherConnectionFollowsEachChange() throws {
        let count = MutableProperty(UInt32(1))
        let exported = try server.export(
            path: path, interface: interface, properties: [.readOnly("Count", count.signal)])
        defer { exported.dispose() }
        let client = try DBusConnection(address: Self.bus.address)
        let received = Locked([UInt32]())
        let subscription = try client.property(
            "Count", interface: interface, path: path, on: destination, as: UInt32.self
        )
        .subscribe(next: { value in received.modify { $0.append(value) } })
        defer { subscription.dispose() }
        pump(until: { received.load() == [1] })
        count.value = 2
        count.value = 3
        pump(until: { received.load() == [1, 2, 3] })
    }

    func testAPropertyAnnouncesAValueOnceWhenItsSourceSendsItAgain() throws {
        // Issue 43 item 11: a read-only property announced `PropertiesChanged` twice for the same value.
        let online = MutableProperty(true)
        let exported = try server.export(
            path: path, interface: interface, properties: [.readOnly("Online", online.signal)])
        defer { exported.dispose() }
        let client = try DBusConnection(address: Self.bus.address)
        let announced = Locked([Bool?]())
        let watch = try client.signal(
            "PropertiesChanged", interface: "org.freedesktop.DBus.Properties", path: path, from: destination,
            as: String.self, [String: GVariantValue].self, [String].self
        ).subscribe(next: { _, changed, _ in
            announced.modify { $0.append(try? changed["Online"]?.get(Bool.self)) }
        })
        defer { watch.dispose() }
        // The first change shows that the watch's match rule is in place.
        online.value = false
        pump(until: { announced.load() == [false] })
        online.value = false  // the same value again: nothing to announce
        online.value = true
        pump(until: { announced.load().count >= 2 })
        drainMainContext()
        XCTAssertEqual(announced.load(), [false, true])
    }

    func testASetFromAnotherProcessReachesTheModelThroughTheChannel() throws {
        let session = Session()
        let exported = try server.export(
            path: path, interface: interface, properties: [.readWrite("Username", session.channel(\.username))])
        defer { exported.dispose() }
        let client = try DBusConnection(address: Self.bus.address)
        let announced = Locked([String]())
        let watch = try client.property("Username", interface: interface, path: path, on: destination, as: String.self)
            .subscribe(next: { value in announced.modify { $0.append(value) } })
        defer { watch.dispose() }
        pump(until: { announced.load() == ["ann"] })
        let result = try gdbus("Set", interface, "Username", "<'bob'>")
        XCTAssertEqual(result.code, 0, result.output)
        XCTAssertEqual(session.username, "bob")
        XCTAssertEqual(try gdbus("Get", interface, "Username").output, "(<'bob'>,)")
        pump(until: { announced.load() == ["ann", "bob"] })  // the Set is announced with PropertiesChanged
        session.username = "cid"
        pump(until: { announced.load() == ["ann", "bob", "cid"] })  // and so is the model's own change
    }

    func testSettingAReadOnlyPropertyOrAValueOfAnotherTypeIsRefused() throws {
        let session = Session()
        let exported = try server.export(
            path: path, interface: interface,
            properties: [.readOnly("Fixed", Signal(value: "x")), .readWrite("Username", session.channel(\.username))])
        defer { exported.dispose() }
        XCTAssertNotEqual(try gdbus("Set", interface, "Fixed", "<'y'>").code, 0)
        XCTAssertNotEqual(try gdbus("Set", interface, "Username", "<uint32 3>").code, 0)
        XCTAssertEqual(session.username, "ann")
    }

    func testAPropertyWithoutAValueYetCannotBeRead() throws {
        let later = Subject<Bool, Never>()
        let exported = try server.export(path: path, interface: interface, properties: [.readOnly("Ready", later)])
        defer { exported.dispose() }
        XCTAssertNotEqual(try gdbus("Get", interface, "Ready").code, 0)
        later.send(true)
        XCTAssertEqual(try gdbus("Get", interface, "Ready").output, "(<true>,)")
    }

    func testDisposingTakesTheObjectOffTheBusAndReleasesIt() throws {
        weak var released: MutableProperty<Bool>?
        do {
            let value = MutableProperty(true)
            released = value
            let exported = try server.export(
                path: path, interface: interface, properties: [.readOnly("On", value.signal)])
            XCTAssertEqual(try gdbus("Get", interface, "On").code, 0)
            exported.dispose()
        }
        XCTAssertNotEqual(try gdbus("Get", interface, "On").code, 0)
        drainMainContext()
        XCTAssertNil(released, "the exported object released the property's signal")
        // The path is free again.
        let again = try server.export(path: path, interface: interface, properties: [])
        again.dispose()
    }

    func testExportingTheSameObjectTwiceIsAnErrorNotACritical() throws {
        let first = try server.export(path: path, interface: interface, properties: [])
        defer { first.dispose() }
        XCTAssertThrowsError(try server.export(path: path, interface: interface, properties: [])) { error in
            guard case .remote(let name, _) = error as? DBusError else { return XCTFail("unexpected \(error)") }
            XCTAssertEqual(name, "org.freedesktop.DBus.Error.ObjectPathInUse")
        }
    }

    func testMalformedNamesAreTypedErrors() {
        XCTAssertThrowsError(try server.export(path: "relative", interface: interface, properties: [])) {
            XCTAssertEqual($0 as? DBusError, .invalidName(kind: .objectPath, value: "relative"))
        }
        XCTAssertThrowsError(
            try server.export(path: path, interface: interface, properties: [.readOnly("Bad-Name", Signal(value: 1))])
        ) {
            XCTAssertEqual($0 as? DBusError, .invalidName(kind: .member, value: "Bad-Name"))
        }
    }
}
