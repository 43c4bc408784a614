import Foundation
import TetherGio
import TetherGioTestSupport
import XCTest

/// GIO's network monitor as signals: the process's default monitor in-process (its values against GIO's
/// getters, a notification driving the signal), and GIO's NetworkManager-backed monitor following
/// python-dbusmock's `networkmanager` template (Debian `python3-dbusmock`) on a private bus that stands in
/// for the system bus of `tether-gio-watch --network`, in another process.
final class NetworkMonitorTests: PrivateBusTestCase {
    func testTheDefaultMonitorsSignalsSendWhatGIOReportsThenFollowANotification() {
        MainActor.assumeIsolated {
            let monitor = g_network_monitor_get_default()!
            let network = NetworkMonitor.default
            let before = GSignalConnection.liveCount
            let available = Locked([Bool]())
            let metered = Locked([Bool]())
            let connectivity = Locked([NetworkConnectivity]())
            let subscriptions = [
                network.isNetworkAvailable.subscribe(next: { value in available.modify { $0.append(value) } }),
                network.isNetworkMetered.subscribe(next: { value in metered.modify { $0.append(value) } }),
                network.connectivity.subscribe(next: { value in connectivity.modify { $0.append(value) } }),
            ]
            // The current values at once, as GIO's own getters report them.
            XCTAssertEqual(available.load(), [g_network_monitor_get_network_available(monitor) != 0])
            XCTAssertEqual(metered.load(), [g_network_monitor_get_network_metered(monitor) != 0])
            XCTAssertEqual(
                connectivity.load().map(\.rawValue), [Int32(g_network_monitor_get_connectivity(monitor).rawValue)])
            XCTAssertEqual(GSignalConnection.liveCount, before + 4, "notify:: ×3 and network-changed")

            // A notification reads the property again and sends it (the value itself is GIO's).
            g_object_notify(monitor.gObject, "network-available")
            XCTAssertEqual(available.load().count, 2)
            XCTAssertEqual(available.load().last, g_network_monitor_get_network_available(monitor) != 0)
            XCTAssertEqual(metered.load().count, 1, "another property's notification sends nothing here")

            for subscription in subscriptions { subscription.dispose() }
            drainMainContext()
            XCTAssertEqual(GSignalConnection.liveCount, before, "disposing disconnected every handler")
            g_object_notify(monitor.gObject, "network-available")
            XCTAssertEqual(available.load().count, 2, "nothing after disposal")
        }
    }

    func testNetworkChangesAreEachEmissionWithItsArgument() {
        MainActor.assumeIsolated {
            let network = NetworkMonitor.default
            let changes = Locked([Bool]())
            let subscription = network.networkChanges.subscribe(next: { value in changes.modify { $0.append(value) } })
            XCTAssertEqual(changes.load(), [], "nothing at subscription")
            // The signal GIO's monitors emit, with its `available` argument.
            XCTAssertTrue(emitNetworkChanged(on: network.handle.object, available: false))
            XCTAssertTrue(emitNetworkChanged(on: network.handle.object, available: true))
            XCTAssertEqual(changes.load(), [false, true])
            subscription.dispose()
            XCTAssertTrue(emitNetworkChanged(on: network.handle.object, available: false))
            XCTAssertEqual(changes.load(), [false, true])
        }
    }

    func testGIOsNetworkManagerMonitorFollowsNetworkManagerThroughTheSignals() throws {
        let client = try DBusConnection(address: Self.bus.address)
        let mock = try DBusMock(
            template: "networkmanager", busName: "org.freedesktop.NetworkManager",
            path: "/org/freedesktop/NetworkManager", address: Self.bus.address, client: client)
        defer { mock.stop() }
        // GIO's NetworkManager monitor talks to the system bus: the private bus stands in for it.
        let watcher = try RunningProcess(
            "/usr/bin/env",
            [
                "DBUS_SYSTEM_BUS_ADDRESS=" + Self.bus.address, "GIO_USE_NETWORK_MONITOR=networkmanager",
                try executableNextToTests("tether-gio-watch"), "--network", "--count", "9",
            ])
        let initial =
            "network monitor: GNetworkMonitorNM\nnetwork-available: true\nnetwork-metered: false\n"
            + "connectivity: full\n"
        pump(until: { watcher.outputSoFar == initial || !watcher.isRunning })
        XCTAssertEqual(watcher.outputSoFar, initial)

        try mock.call("SetConnectivity", UInt32(2))  // NM_CONNECTIVITY_PORTAL
        pump(until: { watcher.outputSoFar == initial + "connectivity: portal\n" || !watcher.isRunning })
        // The template has no `Metered` (NetworkManager ≥ 1.0 has): added unset, then set as a change.
        try mock.call("AddProperty", "org.freedesktop.NetworkManager", "Metered", GVariantValue(UInt32(0))!)
        try mock.call(
            "SetProperty", mock.path, "org.freedesktop.NetworkManager", "Metered", GVariantValue(UInt32(1))!)  // YES
        pump(until: { watcher.outputSoFar.hasSuffix("network-metered: true\n") || !watcher.isRunning })
        try mock.call("SetGlobalConnectionState", UInt32(20))  // NM_STATE_DISCONNECTED
        let result = watcher.finish()
        XCTAssertEqual(result.code, 0, result.output)
        XCTAssertEqual(
            result.output,
            initial + "connectivity: portal\nnetwork-metered: true\n"
                + "network-available: false\nnetwork-metered: false\nconnectivity: local\n")
    }
}

/// Emits `network-changed` on `monitor` as GIO's monitors do.
private func emitNetworkChanged(on monitor: UnsafeMutablePointer<GObject>, available: Bool) -> Bool {
    emit("network-changed", on: monitor, argumentType: tether_gtype_boolean()) {
        g_value_set_boolean($0, available ? 1 : 0)
    }
}
