import TetherGtk

/// The battery and the network, below the demo's panels: UPower's display device (the battery a desktop
/// shows) and NetworkManager's state, through the clients the D-Bus generator makes from this target's
/// `org.freedesktop.UPower.Device.xml` and `org.freedesktop.NetworkManager.xml` at build time. Each label and
/// the level bar is bound to the services' properties as signals; a service that is not there shows as
/// "unavailable".
@MainActor
public final class SystemStatusPanel {
    /// The panel's box.
    public let root: GObjectHandle
    /// "Battery: 42 % (discharging)", "No battery" or "Battery: unavailable".
    public let batteryLabel: GObjectHandle
    /// The battery's percentage (a `GtkLevelBar` from 0 to 100), hidden when there is no battery.
    public let batteryLevel: GObjectHandle
    /// "Network: online", "Network: disconnected", … or "Network: unavailable".
    public let networkLabel: GObjectHandle

    /// UPower's display device: the battery (or batteries) a desktop shows.
    static let displayDevicePath = "/org/freedesktop/UPower/devices/DisplayDevice"

    /// Builds the panel on `bus` (the system bus in the app; a private bus with python-dbusmock in tests).
    public init(bus: DBusConnection) throws {
        let battery = try UPowerDevice(bus: bus, destination: "org.freedesktop.UPower", path: Self.displayDevicePath)
        let network = try NetworkManager(
            bus: bus, destination: "org.freedesktop.NetworkManager", path: "/org/freedesktop/NetworkManager")
        batteryLabel = GObjectHandle(sinking: makeLabel(markup: ""))
        networkLabel = GObjectHandle(sinking: makeLabel(markup: ""))
        let level = gtk_level_bar_new_for_interval(0, 100)!
        gtk_widget_set_size_request(level, 120, -1)
        batteryLevel = GObjectHandle(sinking: level)
        let content = makeBox(
            GTK_ORIENTATION_HORIZONTAL, spacing: 12,
            [batteryLabel.widgetPointer!, batteryLevel.widgetPointer!, networkLabel.widgetPointer!])
        gtk_widget_add_css_class(content, "panel")
        root = GObjectHandle(sinking: content)

        let status = Signal.combineLatest(battery.isPresent, battery.percentage, battery.state)
        try batteryLabel.bind(
            property: "label",
            to: status.map { Self.batteryText(isPresent: $0, percentage: $1, state: $2) }
                .catch { _ in Signal(value: "Battery: unavailable") })
        try batteryLevel.bind(property: "value", to: battery.percentage.catch { _ in Signal(value: 0) })
        try batteryLevel.bind(property: "visible", to: battery.isPresent.catch { _ in Signal(value: false) })
        try networkLabel.bind(
            property: "label",
            to: Signal.combineLatest(network.state, network.connectivity)
                .map { Self.networkText(state: $0, connectivity: $1) }
                .catch { _ in Signal(value: "Network: unavailable") })
    }

    /// The battery label's text for UPower's `IsPresent`, `Percentage` and `State`.
    nonisolated static func batteryText(isPresent: Bool, percentage: Double, state: UInt32) -> String {
        guard isPresent else { return "No battery" }
        let states = [
            1: "charging", 2: "discharging", 3: "empty", 4: "fully charged", 5: "pending charge",
            6: "pending discharge",
        ]
        let percent = "Battery: \(Int(percentage.rounded())) %"
        return states[Int(state)].map { "\(percent) (\($0))" } ?? percent
    }

    /// The network label's text for NetworkManager's `State` (NMState) and `Connectivity`.
    nonisolated static func networkText(state: UInt32, connectivity: UInt32) -> String {
        let text: String
        switch state {
        case 10: text = "asleep"
        case 20: text = "disconnected"
        case 30: text = "disconnecting"
        case 40: text = "connecting"
        case 50, 60, 70:
            switch connectivity {
            case 2: text = "behind a captive portal"
            case 3: text = "limited"
            case 1: text = "local only"
            default: text = "online"
            }
        default: text = "unknown"
        }
        return "Network: " + text
    }
}
