import Foundation
import Synchronization
import TetherGio

/// The two ways of following the service's `Count`.
enum Contender: CaseIterable {
    case raw, tether, generated

    var label: String {
        switch self {
        case .raw: "raw GDBusProxy g-properties-changed"
        case .tether: "Tether DBusConnection.property"
        case .generated: "generated client (tether-dbus-codegen)"
        }
    }
}

/// What the subscriber of a run has received: how many values, and their sum (the checksum).
enum Tally {
    static let count = Atomic<Int>(0)
    static let sum = Atomic<UInt64>(0)

    static func add(_ value: UInt32) {
        count.add(1, ordering: .relaxed)
        sum.add(UInt64(value), ordering: .relaxed)
    }

    static func reset() {
        count.store(0, ordering: .relaxed)
        sum.store(0, ordering: .relaxed)
    }
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("tether-gio-bench: \(message)\n".utf8))
    exit(2)
}

/// Runs the default main context until `condition` holds (fails after 60 s: a hang, not a figure).
func pump(until condition: () -> Bool) {
    let deadline = ContinuousClock.now + .seconds(60)
    while !condition() {
        if ContinuousClock.now > deadline { fail("no progress for 60 s") }
        g_main_context_iteration(nil, 1)
    }
}

/// Waits until the service owns its name.
func waitForService(_ client: DBusConnection) {
    let owned = Atomic<Bool>(false)
    let watch = try! client.nameOwner(of: Service.busName).subscribe(next: { owner in
        if owner != nil { owned.store(true, ordering: .relaxed) }
    })
    pump(until: { owned.load(ordering: .relaxed) })
    watch.dispose()
}

/// One run: subscribes (outside the clock, until the subscription has its current value), then times the
/// service's burst of `changes` values `first`, `first + 1`, … from the call until the last one was
/// received. Returns nanoseconds of wall time and of this process's CPU time (all its threads: GDBus's
/// worker included); exits if the checksum is wrong.
func run(_ contender: Contender, client: DBusConnection, changes: Int, first: UInt32) -> (wall: Double, cpu: Double) {
    Tally.reset()
    let stop: () -> Void
    switch contender {
    case .raw:
        var error: UnsafeMutablePointer<GError>?
        guard
            let proxy = g_dbus_proxy_new_sync(
                client.gdbusConnection, G_DBUS_PROXY_FLAGS_DO_NOT_AUTO_START, nil, Service.busName, Service.path,
                Service.interface, nil, &error)
        else { fail("g_dbus_proxy_new_sync failed") }
        let callback:
            @convention(c) (OpaquePointer?, OpaquePointer?, UnsafePointer<UnsafePointer<gchar>?>?, gpointer?)
                -> Void = { _, changed, _, _ in
                    guard let changed, let value = g_variant_lookup_value(changed, "Count", nil) else { return }
                    Tally.add(g_variant_get_uint32(value))
                    g_variant_unref(value)
                }
        let handler = g_signal_connect_data(
            UnsafeMutableRawPointer(proxy), "g-properties-changed", unsafeBitCast(callback, to: GCallback.self), nil,
            nil, GConnectFlags(rawValue: 0))
        stop = {
            g_signal_handler_disconnect(UnsafeMutableRawPointer(proxy), handler)
            g_object_unref(UnsafeMutableRawPointer(proxy))
        }
    case .tether, .generated:
        let values =
            contender == .tether
            ? try! client.property(
                "Count", interface: Service.interface, path: Service.path, on: Service.busName, as: UInt32.self)
            : try! Bench(bus: client, destination: Service.busName, path: Service.path).count
        let subscription = values.subscribe(next: { Tally.add($0) })
        pump(until: { Tally.count.load(ordering: .relaxed) == 1 })  // the current value (Get)
        Tally.reset()
        stop = { subscription.dispose() }
    }
    let start = ContinuousClock.now
    let cpuStart = processCPUTime()
    var arguments: [OpaquePointer?] = [g_variant_new_uint32(UInt32(changes)), g_variant_new_uint32(first)]
    g_dbus_connection_call(
        client.gdbusConnection, Service.busName, Service.path, Service.interface, "Burst",
        g_variant_new_tuple(&arguments, 2), nil, G_DBUS_CALL_FLAGS_NONE, -1, nil, nil, nil)
    pump(until: { Tally.count.load(ordering: .relaxed) >= changes })
    let elapsed = ContinuousClock.now - start
    let cpu = processCPUTime() - cpuStart
    stop()
    while g_main_context_iteration(nil, 0) != 0 {}
    let expected = (0..<UInt64(changes)).reduce(0) { $0 + UInt64(first) + $1 }
    let received = (Tally.count.load(ordering: .relaxed), Tally.sum.load(ordering: .relaxed))
    guard received == (changes, expected) else {
        fail(
            "\(contender.label) received \(received.0) values summing to \(received.1), not \(changes) and \(expected)")
    }
    let (seconds, attoseconds) = elapsed.components
    return (Double(seconds) * 1e9 + Double(attoseconds) / 1e9, cpu)
}

/// This process's CPU time so far, in nanoseconds (`CLOCK_PROCESS_CPUTIME_ID`).
func processCPUTime() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
    return Double(time.tv_sec) * 1e9 + Double(time.tv_nsec)
}
