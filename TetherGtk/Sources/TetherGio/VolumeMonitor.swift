import CGio
import TetherGObject

/// GIO's volume monitor (`GVolumeMonitor`) as Tether signals: the mounts a file manager would show — USB
/// sticks, SD cards, network shares, disk images — and each one mounted or unmounted, with no GTK.
///
/// Mounts and unmounts arrive on the main thread (the default main context, where GIO's volume monitor
/// lives), when its loop runs. The signals hold the monitor weakly; the monitor lives as long as this
/// object.
///
/// ```swift
/// let volumes = VolumeMonitor()
/// print(volumes.mounts.map(\.name))                                  // ["USB stick"]
/// volumes.mountAdded.subscribe(next: { print("mounted", $0.name, "at", $0.rootURI) })
/// volumes.mountRemoved.subscribe(next: { print("unmounted", $0.name) })
/// ```
@MainActor
public final class VolumeMonitor {
    /// The monitor as a GObject: its other signals (`volume-added`, `drive-connected`, …) and its C pointer.
    ///
    /// ```swift
    /// print(VolumeMonitor().handle.typeName)   // GUnionVolumeMonitor
    /// ```
    public let handle: GObjectHandle

    /// GIO's volume monitor (`g_volume_monitor_get`: one per process, shared by its users).
    ///
    /// ```swift
    /// let volumes = VolumeMonitor()
    /// ```
    public init() {
        handle = GObjectHandle(taking: g_volume_monitor_get())
    }

    /// The mounts the monitor knows now, in its order (`g_volume_monitor_get_mounts`).
    ///
    /// ```swift
    /// for mount in VolumeMonitor().mounts { print(mount.name, mount.rootURI) }
    /// ```
    public var mounts: [Mount] {
        let monitor = handle.pointer(as: GVolumeMonitor.self)
        var list = g_volume_monitor_get_mounts(monitor)
        defer { g_list_free_full(list, { g_object_unref($0) }) }
        var mounts: [Mount] = []
        while let node = list {
            if let mount = node.pointee.data { mounts.append(Mount(OpaquePointer(mount))) }
            list = node.pointee.next
        }
        return mounts
    }

    /// Each mount that appears (`mount-added`): a device mounted, a share connected. Nothing is sent at
    /// subscription (``mounts`` lists those already there).
    ///
    /// ```swift
    /// VolumeMonitor().mountAdded.subscribe(next: { print("mounted", $0.name) })
    /// ```
    /// Marble: a USB stick plugged in, then an SD card → `usb--sd`.
    public var mountAdded: Signal<Mount, Never> { mountSignal("mount-added") }

    /// Each mount that goes away (`mount-removed`): unmounted, ejected or unplugged.
    ///
    /// ```swift
    /// VolumeMonitor().mountRemoved.subscribe(next: { print("unmounted", $0.name) })
    /// ```
    public var mountRemoved: Signal<Mount, Never> { mountSignal("mount-removed") }

    private func mountSignal(_ name: String) -> Signal<Mount, Never> {
        // Every GVolumeMonitor has these signals (the class declares them): no error can come.
        let mounts = try? handle.signal(named: name) { arguments in
            arguments.object(at: 1).map { Mount(OpaquePointer($0)) }
        }
        return mounts ?? .empty
    }
}

/// A mount (`GMount`) as a value, read when the monitor reported it: its name and where its files are.
///
/// ```swift
/// let mount = VolumeMonitor().mounts.first
/// print(mount?.name ?? "nothing mounted", mount?.path ?? "")   // USB stick /media/ann/USB stick
/// ```
public struct Mount: Hashable, Sendable {
    /// The name a file manager shows (`g_mount_get_name`).
    ///
    /// ```swift
    /// print(VolumeMonitor().mounts.map(\.name))
    /// ```
    public let name: String

    /// The URI of the mount's root (`g_file_get_uri` of `g_mount_get_root`): `file:///media/…`,
    /// `smb://server/share/`, ….
    ///
    /// ```swift
    /// print(VolumeMonitor().mounts.map(\.rootURI))
    /// ```
    public let rootURI: String

    /// The local path of the mount's root, or `nil` for a mount with none (a network share without a
    /// FUSE path).
    ///
    /// ```swift
    /// print(VolumeMonitor().mounts.compactMap(\.path))
    /// ```
    public let path: String?

    /// Whether the mount can be unmounted (`g_mount_can_unmount`).
    ///
    /// ```swift
    /// print(VolumeMonitor().mounts.filter(\.canUnmount).map(\.name))
    /// ```
    public let canUnmount: Bool

    /// Reads `mount` (a `GMount *`) now.
    ///
    /// ```swift
    /// let volumes = VolumeMonitor()
    /// try volumes.handle.connect("mount-added") { arguments in
    ///     if let mount = arguments.object(at: 1) { print(Mount(OpaquePointer(mount)).name) }
    /// }
    /// ```
    public init(_ mount: OpaquePointer) {
        name = Self.taking(g_mount_get_name(mount)) ?? ""
        let root = g_mount_get_root(mount)
        defer { if let root { g_object_unref(UnsafeMutableRawPointer(root)) } }
        rootURI = root.flatMap { Self.taking(g_file_get_uri($0)) } ?? ""
        path = root.flatMap { Self.taking(g_file_get_path($0)) }
        canUnmount = g_mount_can_unmount(mount) != 0
    }

    /// A string GLib allocated, copied and freed.
    private static func taking(_ string: UnsafeMutablePointer<CChar>?) -> String? {
        guard let string else { return nil }
        defer { g_free(string) }
        return String(cString: string)
    }
}
