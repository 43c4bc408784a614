import Foundation
import TetherGioTestSupport
import XCTest

/// A test class whose tests share one private `dbus-daemon`, started before its first test and stopped
/// after its last: `Self.bus.address` is where its services and clients connect.
class PrivateBusTestCase: XCTestCase {
    /// The running test class's bus (test classes run one after another).
    nonisolated(unsafe) static var bus: PrivateBus!

    /// Whether the bus also stands in for the session bus (`DBUS_SESSION_BUS_ADDRESS`), for code that
    /// calls `DBusConnection.session()` and for `gdbus … --session`.
    class var isSessionBus: Bool { false }

    override class func setUp() {
        super.setUp()
        bus = try! PrivateBus()
        if isSessionBus { setenv("DBUS_SESSION_BUS_ADDRESS", bus.address, 1) }
    }

    override class func tearDown() {
        if isSessionBus { unsetenv("DBUS_SESSION_BUS_ADDRESS") }
        bus.stop()
        super.tearDown()
    }
}
