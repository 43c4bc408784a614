import Foundation
import XCTest

/// A test class whose tests share one private `dbus-daemon`, started before its first test and stopped
/// after its last: `Self.bus.address` is where its services and clients connect. (`open`: the test targets
/// subclass it from another module.)
open class PrivateBusTestCase: XCTestCase {
    /// The running test class's bus (test classes run one after another).
    nonisolated(unsafe) public static var bus: PrivateBus!

    /// Whether the bus also stands in for the session bus (`DBUS_SESSION_BUS_ADDRESS`), for code that
    /// calls `DBusConnection.session()` and for `gdbus … --session`.
    open class var isSessionBus: Bool { false }

    override open class func setUp() {
        super.setUp()
        bus = try! PrivateBus()
        if isSessionBus { setenv("DBUS_SESSION_BUS_ADDRESS", bus.address, 1) }
    }

    override open class func tearDown() {
        if isSessionBus { unsetenv("DBUS_SESSION_BUS_ADDRESS") }
        bus.stop()
        super.tearDown()
    }
}
