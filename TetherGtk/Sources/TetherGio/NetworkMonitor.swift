import CGio
import TetherGObject

/// GIO's network monitor (`GNetworkMonitor`) as Tether signals: whether a network is available, whether it
/// is metered, and how far it reaches — each its current value first, then each change — with no GTK and
/// no NetworkManager client of your own. GIO picks the implementation (NetworkManager's state over D-Bus,
/// the kernel's routes over netlink, the desktop portal in a sandbox; `GIO_USE_NETWORK_MONITOR` overrides
/// it); all report through the same properties and the `network-changed` signal, which this follows.
///
/// Changes arrive on the thread of the main context that was current where the monitor was made (the main
/// thread, for ``default``), when its loop runs. The signals hold the monitor weakly; ``default`` is GIO's
/// process-wide monitor, which lives as long as the process.
///
/// ```swift
/// let network = NetworkMonitor.default
/// network.isNetworkAvailable.subscribe(next: { print("online:", $0) })   // online: true
/// network.connectivity.filter { $0 == .portal }.subscribe(next: { _ in print("sign in to the hotspot") })
/// ```
@MainActor
public final class NetworkMonitor {
    /// The monitor as a GObject: its other properties and signals, and its C pointer (`handle.object`).
    ///
    /// ```swift
    /// print(NetworkMonitor.default.handle.typeName)   // GNetworkMonitorNetlink, GNetworkMonitorNM, …
    /// ```
    public let handle: GObjectHandle

    /// GIO's monitor for this process (`g_network_monitor_get_default`).
    ///
    /// ```swift
    /// let network = NetworkMonitor.default
    /// ```
    public static var `default`: NetworkMonitor { NetworkMonitor(retaining: g_network_monitor_get_default()) }

    /// Follows `monitor`, any `GNetworkMonitor` implementation (a reference is added, and dropped with the
    /// handle) — one made for a given bus or backend, or your own.
    ///
    /// - Precondition: `monitor` implements `GNetworkMonitor`.
    ///
    /// ```swift
    /// let network = NetworkMonitor(retaining: g_network_monitor_get_default())
    /// ```
    public init(retaining monitor: OpaquePointer) {
        precondition(
            tether_object_is_a(UnsafeMutableRawPointer(monitor), g_network_monitor_get_type()) != 0,
            "TetherGio: NetworkMonitor(retaining:) needs a GNetworkMonitor")
        handle = GObjectHandle(retaining: monitor)
    }

    /// Whether the system has a default route — a network that could reach the Internet, though it may
    /// not (see ``connectivity``) — (`network-available`): the current value, then each change.
    ///
    /// ```swift
    /// NetworkMonitor.default.isNetworkAvailable.subscribe(next: { print("online:", $0) })
    /// ```
    /// Marble: online, then the cable unplugged, then plugged in again → `t--f--t`.
    public var isNetworkAvailable: Signal<Bool, Never> { interfaceProperty("network-available", as: Bool.self) }

    /// Whether the network is metered — a mobile connection, a tethered phone — so that big downloads
    /// should wait (`network-metered`): the current value, then each change.
    ///
    /// ```swift
    /// let downloads = MutableProperty(true)
    /// downloads <~ NetworkMonitor.default.isNetworkMetered.map { !$0 }
    /// ```
    public var isNetworkMetered: Signal<Bool, Never> { interfaceProperty("network-metered", as: Bool.self) }

    /// How far the network reaches (`connectivity`): the current value, then each change. Read on
    /// `notify::connectivity` and on each `network-changed` — GIO's netlink monitor changes it without
    /// notifying — and sent only when it differs from the last value sent.
    ///
    /// ```swift
    /// NetworkMonitor.default.connectivity.subscribe(next: { print("connectivity:", $0) })   // connectivity: full
    /// ```
    /// Marble: full, then a captive portal, then signed in → `full--portal--full`.
    public var connectivity: Signal<NetworkConnectivity, Never> {
        interfaceProperty("connectivity", as: NetworkConnectivity.self, readingAgainOn: ["network-changed"])
            .distinctUntilChanged()
    }

    /// Each `network-changed` emission, with whether a network is available then: the monitor's
    /// configuration changed (a route or a connection came or went), which may not change any of its
    /// properties. Nothing is sent at subscription.
    ///
    /// ```swift
    /// NetworkMonitor.default.networkChanges.subscribe(next: { print("network changed; available:", $0) })
    /// ```
    public var networkChanges: Signal<Bool, Never> {
        // Every GNetworkMonitor has the signal (the interface declares it): no error can come.
        (try? handle.signal(named: "network-changed") { $0.value(at: 1, as: Bool.self) }) ?? .empty
    }

    /// A property the `GNetworkMonitor` interface declares, so that every implementation has it.
    private func interfaceProperty<Value: GValueConvertible>(
        _ name: String, as type: Value.Type, readingAgainOn otherSignals: [String] = []
    ) -> Signal<Value, Never> {
        do {
            return try handle.observe(property: name, as: type, readingAgainOn: otherSignals)
        } catch {
            preconditionFailure("TetherGio: \(handle.typeName) does not implement GNetworkMonitor: \(error)")
        }
    }
}

/// How far a network monitor's network reaches (`GNetworkConnectivity`).
///
/// ```swift
/// NetworkMonitor.default.connectivity
///     .map { $0 == .full ? "online" : "limited" }
///     .subscribe(next: { print($0) })
/// ```
public enum NetworkConnectivity: Int32, GEnumConvertible, Sendable, CustomStringConvertible {
    /// Only the local network, or no network at all (`G_NETWORK_CONNECTIVITY_LOCAL`).
    case local = 1
    /// A network without a route to the Internet (`G_NETWORK_CONNECTIVITY_LIMITED`).
    case limited = 2
    /// Behind a captive portal: the Internet needs a sign-in first (`G_NETWORK_CONNECTIVITY_PORTAL`).
    case portal = 3
    /// The Internet (`G_NETWORK_CONNECTIVITY_FULL`).
    case full = 4

    /// The case's name.
    ///
    /// ```swift
    /// print(NetworkConnectivity.portal)   // portal
    /// ```
    public var description: String {
        switch self {
        case .local: "local"
        case .limited: "limited"
        case .portal: "portal"
        case .full: "full"
        }
    }
}
