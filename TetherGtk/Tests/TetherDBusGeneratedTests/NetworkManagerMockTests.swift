import Foundation
import TetherGio
import TetherGioTestSupport
import XCTest

/// The NetworkManager client generated from the interface Debian's `network-manager-dev` installs, against
/// python-dbusmock's `networkmanager` template on a private bus: connectivity and state as signals.
final class NetworkManagerMockTests: PrivateBusTestCase {
    private var client: DBusConnection!
    private var mock: DBusMock!
    private var manager: NetworkManager!

    override func setUpWithError() throws {
        try super.setUpWithError()
        client = try DBusConnection(address: Self.bus.address)
        mock = try DBusMock(
            template: "networkmanager", busName: "org.freedesktop.NetworkManager",
            path: "/org/freedesktop/NetworkManager", address: Self.bus.address, client: client)
        manager = try NetworkManager(
            bus: client, destination: "org.freedesktop.NetworkManager", path: "/org/freedesktop/NetworkManager")
    }

    override func tearDown() {
        mock?.stop()
        drainMainContext()
        // XCTest keeps its test case objects to the end: what a test made goes with the test.
        (manager, mock, client) = (nil, nil, nil)
        super.tearDown()
    }

    func testConnectivityIsASignalOfItsValues() throws {
        let manager = self.manager!
        let connectivity = Recording(manager.connectivity)
        defer { connectivity.dispose() }
        pump(until: { connectivity.values == [4] })  // NM_CONNECTIVITY_FULL
        try mock.call("SetConnectivity", UInt32(2))  // NM_CONNECTIVITY_PORTAL
        pump(until: { connectivity.values == [4, 2] })
        try mock.call("SetConnectivity", UInt32(3))  // NM_CONNECTIVITY_LIMITED
        pump(until: { connectivity.values == [4, 2, 3] })
        XCTAssertEqual(try awaitResult { try await manager.checkConnectivity() }?.get(), 3)
        XCTAssertNil(connectivity.error)
    }

    func testStateIsAPropertyAndASignal() throws {
        let manager = self.manager!
        let state = Recording(manager.state)
        let changes = Recording(manager.stateChanged)
        defer {
            state.dispose()
            changes.dispose()
        }
        pump(until: { state.values == [70] })  // NM_STATE_CONNECTED_GLOBAL
        try mock.call("SetGlobalConnectionState", UInt32(20))  // NM_STATE_DISCONNECTED
        pump(until: { state.values == [70, 20] && changes.values.count == 1 })
        XCTAssertEqual(changes.values, [NetworkManager.StateChanged(state: 20)])
        // NetworkManager has a method `state` besides the property `State`: the method is `stateMethod()`.
        XCTAssertEqual(try awaitResult { try await manager.stateMethod() }?.get(), 20)
    }

    func testDevicesAreObjectPaths() throws {
        let manager = self.manager!
        let added = Recording(manager.deviceAdded)
        defer { added.dispose() }
        drainMainContext()
        let path = try mock.call("AddEthernetDevice", "mock_Ethernet1", "eth0", Int32(100), returning: String.self)
        pump(until: { added.values.count == 1 })
        XCTAssertEqual(added.values, [NetworkManager.DeviceAdded(devicePath: try DBusObjectPath(path))])
        let devices = try XCTUnwrap(awaitResult { try await manager.getDevices() }).get()
        XCTAssertEqual(devices, [try DBusObjectPath(path)])
        XCTAssertEqual(try firstValue(of: manager.devices), [try DBusObjectPath(path)])
    }
}
