import Foundation
import TetherGio
import TetherGioTestSupport
import XCTest

/// GIO's volume monitor as signals: the mounts it lists, and each mount added or removed as a `Mount`
/// value. A test machine has no removable media, so the changes are the monitor's own signals emitted with
/// a `GMount` made here (a GObject type implementing GIO's `GMount` interface).
final class VolumeMonitorTests: XCTestCase {
    func testTheMountsAreTheOnesGIOLists() {
        MainActor.assumeIsolated {
            let volumes = VolumeMonitor()
            let monitor = g_volume_monitor_get()!
            defer { g_object_unref(monitor) }
            var expected: [String] = []
            let list = g_volume_monitor_get_mounts(monitor)
            var node = list
            while let current = node {
                let root = g_mount_get_root(OpaquePointer(current.pointee.data))
                let uri = g_file_get_uri(root)!
                expected.append(String(cString: uri))
                g_free(uri)
                g_object_unref(UnsafeMutableRawPointer(root))
                node = current.pointee.next
            }
            g_list_free_full(list, { g_object_unref($0) })
            XCTAssertEqual(volumes.mounts.map(\.rootURI), expected)
            XCTAssertEqual(volumes.handle.object, monitor.gObject, "GIO's one monitor for the process")
        }
    }

    func testAMountAddedThenRemovedIsSentAsAValueUntilDisposed() {
        MainActor.assumeIsolated {
            let volumes = VolumeMonitor()
            let before = GSignalConnection.liveCount
            let added = Locked([Mount]())
            let removed = Locked([Mount]())
            let subscriptions = [
                volumes.mountAdded.subscribe(next: { mount in added.modify { $0.append(mount) } }),
                volumes.mountRemoved.subscribe(next: { mount in removed.modify { $0.append(mount) } }),
            ]
            XCTAssertEqual(GSignalConnection.liveCount, before + 2)
            XCTAssertEqual(added.load(), [], "nothing at subscription")

            let mount = TestMount.make()
            defer { g_object_unref(mount) }
            let expected = Mount(name: "Tether test mount", rootURI: "file:///tmp/tether-test-mount")
            XCTAssertTrue(emit("mount-added", on: volumes.handle.object, with: mount))
            XCTAssertEqual(added.load(), [expected])
            XCTAssertEqual(removed.load(), [])
            XCTAssertTrue(emit("mount-removed", on: volumes.handle.object, with: mount))
            XCTAssertEqual(removed.load(), [expected])

            for subscription in subscriptions { subscription.dispose() }
            drainMainContext()
            XCTAssertEqual(GSignalConnection.liveCount, before, "disposing disconnected both handlers")
            XCTAssertTrue(emit("mount-added", on: volumes.handle.object, with: mount))
            XCTAssertEqual(added.load(), [expected], "nothing after disposal")
        }
    }
}

extension Mount {
    /// What `TestMount` reads as.
    fileprivate init(name: String, rootURI: String) {
        let mount = TestMount.make()
        defer { g_object_unref(mount) }
        self.init(OpaquePointer(mount))
        precondition(self.name == name && self.rootURI == rootURI && path == "/tmp/tether-test-mount" && canUnmount)
    }
}

/// A GObject type implementing GIO's `GMount` interface, with a fixed name and root.
private enum TestMount {
    static let type: GType = {
        let type = g_type_register_static_simple(
            g_object_get_type(), "TetherTestMount", guint(MemoryLayout<GObjectClass>.size), nil,
            guint(MemoryLayout<GObject>.size), nil, GTypeFlags(rawValue: 0))
        var info = GInterfaceInfo(
            interface_init: { iface, _ in
                let mount = iface!.assumingMemoryBound(to: GMountIface.self)
                mount.pointee.get_name = { _ in g_strdup("Tether test mount") }
                mount.pointee.get_root = { _ in g_file_new_for_path("/tmp/tether-test-mount") }
                mount.pointee.can_unmount = { _ in 1 }
                mount.pointee.can_eject = { _ in 0 }
            }, interface_finalize: nil, interface_data: nil)
        g_type_add_interface_static(type, g_mount_get_type(), &info)
        return type
    }()

    static func make() -> UnsafeMutablePointer<GObject> { g_object_new_with_properties(type, 0, nil, nil) }
}

/// Emits `signal` on the volume monitor `instance` with `mount`, as GIO's monitors do.
private func emit(
    _ signal: String, on instance: UnsafeMutablePointer<GObject>, with mount: UnsafeMutablePointer<GObject>
) -> Bool {
    emit(signal, on: instance, argumentType: g_mount_get_type()) { g_value_set_object($0, mount) }
}
