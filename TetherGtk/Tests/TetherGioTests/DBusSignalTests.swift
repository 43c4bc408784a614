import Foundation
import TetherGio
import TetherGioTestSupport
import XCTest

/// D-Bus signals as typed Tether signals, emitted by `gdbus emit` in another process on a private bus.
final class DBusSignalTests: PrivateBusTestCase {
    private var client: DBusConnection!

    override func setUp() {
        super.setUp()
        client = try! DBusConnection(address: Self.bus.address)
    }

    /// `gdbus emit` of `org.tether.Test.<member>` on `/org/tether/Test` with `arguments` (GVariant text).
    private func emit(_ member: String, _ arguments: String...) throws {
        let result = try Self.bus.gdbus(
            ["emit", "--object-path", "/org/tether/Test", "--signal", "org.tether.Test." + member] + arguments
        ).finish()
        XCTAssertEqual(result.code, 0, result.output)
    }

    /// Makes sure the match rule is on the bus before another process emits (AddMatch is asynchronous).
    private func settle() {
        var error: UnsafeMutablePointer<GError>?
        let reply = g_dbus_connection_call_sync(
            client.gdbusConnection, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus.Peer",
            "Ping", nil, nil, G_DBUS_CALL_FLAGS_NONE, -1, nil, &error)
        XCTAssertNotNil(reply)
        if let reply { g_variant_unref(reply) }
    }

    func testEmissionsFromAnotherProcessArriveWithTypedArguments() throws {
        let received = Locked([String]())
        let subscription = try client.signal(
            "Greeted", interface: "org.tether.Test", path: "/org/tether/Test", as: String.self, UInt32.self
        ).subscribe(next: { name, count in received.modify { $0.append("\(name) \(count)") } })
        defer { subscription.dispose() }
        settle()
        try emit("Greeted", "'ann'", "uint32 1")
        try emit("Greeted", "'bob'", "uint32 2")
        pump(until: { received.load().count == 2 })
        XCTAssertEqual(received.load(), ["ann 1", "bob 2"])
    }

    func testOnlyTheMatchingMemberAndPathArrive() throws {
        let received = Locked([[String]]())
        let subscription = try client.signal(
            "Renamed", interface: "org.tether.Test", path: "/org/tether/Test", as: [String].self
        ).subscribe(next: { names in received.modify { $0.append(names) } })
        defer { subscription.dispose() }
        settle()
        try emit("Greeted", "'ann'", "uint32 1")
        let elsewhere = try Self.bus.gdbus([
            "emit", "--object-path", "/org/tether/Other", "--signal", "org.tether.Test.Renamed", "['elsewhere']",
        ]).finish()
        XCTAssertEqual(elsewhere.code, 0)
        try emit("Renamed", "['a', 'b']")
        pump(until: { !received.load().isEmpty })
        drainMainContext()
        XCTAssertEqual(received.load(), [["a", "b"]])
    }

    func testAnEmissionWithOtherArgumentsFailsWithATypeMismatch() throws {
        let failure = Locked(nil as DBusError?)
        let subscription = try client.signal("Greeted", interface: "org.tether.Test", as: String.self, UInt32.self)
            .subscribe(next: { _ in XCTFail("no value expected") }, error: { error in failure.store(error) })
        defer { subscription.dispose() }
        settle()
        try emit("Greeted", "'ann'")
        pump(until: { failure.load() != nil })
        XCTAssertEqual(failure.load(), .typeMismatch(member: "Greeted", expected: "(su)", actual: "(s)"))
    }

    func testDisposingRemovesTheSubscription() throws {
        weak var released: DBusConnection?
        let received = Locked(0)
        do {
            let connection = try DBusConnection(address: Self.bus.address)
            released = connection
            let subscription = try connection.signal(
                "Greeted", interface: "org.tether.Test", as: String.self, UInt32.self
            )
            .subscribe(next: { _ in received.modify { $0 += 1 } })
            subscription.dispose()
        }
        drainMainContext()
        XCTAssertNil(released, "the subscription released its connection")
        XCTAssertEqual(received.load(), 0)
    }

    func testMalformedNamesAreTypedErrorsAtTheCall() {
        XCTAssertThrowsError(
            try client.signal("Greeted", interface: "org.tether.Test", path: "no/slash", as: String.self)
        ) {
            XCTAssertEqual($0 as? DBusError, .invalidName(kind: .objectPath, value: "no/slash"))
        }
        XCTAssertThrowsError(
            try client.signal("Greeted", interface: "org.tether.Test", from: "bad name", as: String.self)
        ) {
            XCTAssertEqual($0 as? DBusError, .invalidName(kind: .busName, value: "bad name"))
        }
    }
}
