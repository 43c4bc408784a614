import Foundation
import TetherGio
import TetherGioTestSupport
import XCTest

/// The UPower clients generated from the interfaces Debian's `upower` installs, against python-dbusmock's
/// `upower` template on a private bus: a battery's percentage and state, devices added and removed.
final class UPowerMockTests: PrivateBusTestCase {
    private var client: DBusConnection!
    private var mock: DBusMock!
    private let busName = "org.freedesktop.UPower"

    override func setUpWithError() throws {
        try super.setUpWithError()
        client = try DBusConnection(address: Self.bus.address)
        mock = try DBusMock(
            template: "upower", busName: busName, path: "/org/freedesktop/UPower", address: Self.bus.address,
            client: client)
    }

    override func tearDown() {
        mock?.stop()
        drainMainContext()
        // XCTest keeps its test case objects to the end: what a test made goes with the test.
        (mock, client) = (nil, nil)
        super.tearDown()
    }

    private func addBattery(_ name: String, percentage: Double) throws -> String {
        try mock.call("AddDischargingBattery", name, "Mock Battery", percentage, Int64(3600), returning: String.self)
    }

    func testABatterysPercentageAndStateAreSignalsOfTheirValues() throws {
        let path = try addBattery("mock_BAT0", percentage: 30)
        let battery = try UPowerDevice(bus: client, destination: busName, path: path)
        let percentage = Recording(battery.percentage)
        let state = Recording(battery.state)
        defer {
            percentage.dispose()
            state.dispose()
        }
        pump(until: { percentage.values == [30] && state.values == [2] })  // 2: discharging

        let changes: [String: GVariantValue] = ["Percentage": GVariantValue(25.5)!]
        try mock.call("SetDeviceProperties", try DBusObjectPath(path), changes)
        pump(until: { percentage.values == [30, 25.5] })
        // 1: charging.
        try mock.call("SetDeviceProperties", try DBusObjectPath(path), ["State": GVariantValue(UInt32(1))!])
        pump(until: { state.values == [2, 1] })
        drainMainContext()
        XCTAssertEqual(percentage.values, [30, 25.5])
        XCTAssertEqual(state.values, [2, 1])
        XCTAssertNil(percentage.error)
        XCTAssertEqual(try firstValue(of: battery.model), "Mock Battery")
        XCTAssertEqual(try firstValue(of: battery.timeToEmpty), 3600)
    }

    func testADeviceAddedAndRemovedAreSignalsOfTheirPaths() throws {
        let upower = try UPower(bus: client, destination: busName, path: "/org/freedesktop/UPower")
        let added = Recording(upower.deviceAdded)
        let removed = Recording(upower.deviceRemoved)
        defer {
            added.dispose()
            removed.dispose()
        }
        drainMainContext()
        let path = try mock.call("AddAC", "mock_AC", "Mock AC", returning: String.self)
        let device = try DBusObjectPath(path)
        pump(until: { added.values.count == 1 })
        XCTAssertEqual(added.values, [UPower.DeviceAdded(device: device)])

        let devices = awaitResult { try await upower.enumerateDevices() }
        XCTAssertEqual(try devices?.get(), [device])

        try mock.call("RemoveDevice", device)
        pump(until: { removed.values.count == 1 })
        XCTAssertEqual(removed.values, [UPower.DeviceRemoved(device: device)])
        XCTAssertEqual(added.values.count, 1)
        XCTAssertEqual(try awaitResult { try await upower.enumerateDevices() }?.get(), [])
    }

    func testAMethodIsACommand() throws {
        let upower = try UPower(bus: client, destination: busName, path: "/org/freedesktop/UPower")
        let command = upower.getDisplayDeviceCommand()
        let reply = Locked<DBusObjectPath?>(nil)
        command.execute(()).subscribe(next: { reply.store($0) })
        pump(until: { reply.load() != nil })
        XCTAssertEqual(reply.load()?.rawValue, "/org/freedesktop/UPower/devices/DisplayDevice")
        XCTAssertEqual(try firstValue(of: upower.onBattery), false)
        XCTAssertEqual(try firstValue(of: upower.daemonVersion), "0.99")
    }
}
