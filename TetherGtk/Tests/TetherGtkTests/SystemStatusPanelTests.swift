import Foundation
import TetherGioTestSupport
import TetherGtk
import TetherGtkDemo
import XCTest

/// The demo's battery indicator and network state, through the clients generated from the demo target's
/// XML, against python-dbusmock's `upower` and `networkmanager` templates on a private bus standing in for
/// the system bus.
final class SystemStatusPanelTests: PrivateBusTestCase {

    override func setUp() {
        super.setUp()
        XCTAssertTrue(GtkTestCase.hasDisplay, "GTK could not open a display: run these tests under `xvfb-run -a`")
        drainMainContext()
    }

    override func tearDown() {
        // The panel's bindings ended with its widgets; their D-Bus subscriptions are released by GLib on the
        // main context (destroy notifies): let them run before the next test (and the leak check's exit).
        drainMainContext()
        super.tearDown()
    }

    func testTheBatteryAndTheNetworkFollowUPowerAndNetworkManager() throws {
        let client = try DBusConnection(address: Self.bus.address)
        let upower = try DBusMock(
            template: "upower", busName: "org.freedesktop.UPower", path: "/org/freedesktop/UPower",
            address: Self.bus.address, client: client)
        defer { upower.stop() }
        let networkManager = try DBusMock(
            template: "networkmanager", busName: "org.freedesktop.NetworkManager",
            path: "/org/freedesktop/NetworkManager", address: Self.bus.address, client: client)
        defer { networkManager.stop() }

        let displayDevice = "/org/freedesktop/UPower/devices/DisplayDevice"
        try MainActor.assumeIsolated {
            let demo = try DemoWindow(ui: ImmediateScheduler(), background: ImmediateScheduler(), systemBus: client)
            defer { demo.destroy() }
            let status = try XCTUnwrap(demo.statusPanel)
            @MainActor func text(_ label: GObjectHandle) -> String {
                (try? label.value(of: "label", as: String.self)) ?? ""
            }
            @MainActor func shows(_ battery: String, _ network: String) -> Bool {
                text(status.batteryLabel) == battery && text(status.networkLabel) == network
            }
            // The level bar's properties are bound from their own subscriptions to the device's properties,
            // each with its own D-Bus round trip: they may settle after the label does, so the conditions
            // wait for them too.
            @MainActor func level(visible: Bool, value: Double? = nil) -> Bool {
                (try? status.batteryLevel.value(of: "visible", as: Bool.self)) == visible
                    && (value == nil || (try? status.batteryLevel.value(of: "value", as: Double.self)) == value)
            }
            // The template's display device has no battery; its NetworkManager is connected, with full
            // connectivity.
            pump(until: { shows("No battery", "Network: online") && level(visible: false) })
            XCTAssertEqual(try status.batteryLevel.value(of: "visible", as: Bool.self), false)

            try upower.call(
                "SetDeviceProperties", try DBusObjectPath(displayDevice),
                [
                    "IsPresent": GVariantValue(true)!, "Percentage": GVariantValue(42.0)!,
                    "State": GVariantValue(UInt32(2))!,
                ])
            pump(until: { shows("Battery: 42 % (discharging)", "Network: online") && level(visible: true, value: 42) })
            XCTAssertEqual(try status.batteryLevel.value(of: "value", as: Double.self), 42)
            XCTAssertEqual(try status.batteryLevel.value(of: "visible", as: Bool.self), true)

            try upower.call(
                "SetDeviceProperties", try DBusObjectPath(displayDevice),
                ["Percentage": GVariantValue(17.0)!, "State": GVariantValue(UInt32(1))!])
            pump(until: { shows("Battery: 17 % (charging)", "Network: online") && level(visible: true, value: 17) })
            XCTAssertEqual(try status.batteryLevel.value(of: "value", as: Double.self), 17)

            try networkManager.call("SetConnectivity", UInt32(2))  // NM_CONNECTIVITY_PORTAL
            pump(until: { shows("Battery: 17 % (charging)", "Network: behind a captive portal") })
            try networkManager.call("SetGlobalConnectionState", UInt32(20))  // NM_STATE_DISCONNECTED
            pump(until: { shows("Battery: 17 % (charging)", "Network: disconnected") })
        }
    }

    func testMissingServicesShowAsUnavailable() throws {
        let client = try DBusConnection(address: Self.bus.address)
        try MainActor.assumeIsolated {
            let status = try SystemStatusPanel(bus: client)
            @MainActor func text(_ label: GObjectHandle) -> String {
                (try? label.value(of: "label", as: String.self)) ?? ""
            }
            pump(until: {
                text(status.batteryLabel) == "Battery: unavailable"
                    && text(status.networkLabel) == "Network: unavailable"
            })
            XCTAssertEqual(try status.batteryLevel.value(of: "visible", as: Bool.self), false)
        }
    }
}
