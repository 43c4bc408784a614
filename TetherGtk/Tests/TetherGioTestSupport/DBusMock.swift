import Foundation
import TetherGio
import XCTest

/// A python-dbusmock template (`upower`, `networkmanager`; Debian package `python3-dbusmock`) running on a
/// test's private bus, in another process, until stopped; and its `org.freedesktop.DBus.Mock` interface for
/// changing it (adding a battery, setting a property).
package final class DBusMock: Sendable {
    package let busName: String
    package let path: String
    private let process: RunningProcess
    private let control: DBusRemoteObject

    /// Starts `template` on the bus at `address` and waits until it owns `busName`.
    package init(template: String, busName: String, path: String, address: String, client: DBusConnection) throws {
        self.busName = busName
        self.path = path
        // The system's Python: python-dbusmock is a Debian package (a Python from PATH may not have it).
        process = try RunningProcess(
            "/usr/bin/env",
            ["DBUS_SESSION_BUS_ADDRESS=" + address, "/usr/bin/python3", "-m", "dbusmock", "--session", "-t", template])
        control = try DBusRemoteObject(
            connection: client, destination: busName, path: path, interface: "org.freedesktop.DBus.Mock")
        let owner = Locked<String?>(nil)
        let watch = try client.nameOwner(of: busName).subscribe(next: { name in owner.store(name) })
        defer { watch.dispose() }
        guard pump(until: { owner.load() != nil || !process.isRunning }), owner.load() != nil else {
            throw MockError.notStarted(process.outputSoFar)
        }
    }

    package enum MockError: Error {
        case notStarted(String)
        case failed(DBusError)
        case noReply
    }

    /// Calls a method of the mock's control interface and waits for its reply's values.
    @discardableResult
    package func call<each Argument: GVariantConvertible, each Reply: GVariantConvertible>(
        _ method: String, _ arguments: repeat each Argument, returning replies: repeat (each Reply).Type
    ) throws -> (repeat each Reply) {
        try firstValue(
            of: control.callSignal(method, arguments: repeat each arguments, returning: repeat (each Reply).self))
    }

    package func stop() { process.terminate() }
}

/// Pumps the main context until `signal` sends its first value (or fails); returns it.
package func firstValue<Value: Sendable>(
    of signal: Signal<Value, DBusError>, file: StaticString = #filePath, line: UInt = #line
)
    throws -> Value
{
    let result = Locked<Result<Value, DBusError>?>(nil)
    let subscription = signal.take(1).subscribe(
        next: { value in result.store(.success(value)) }, error: { error in result.store(.failure(error)) })
    defer { subscription.dispose() }
    pump(until: { result.load() != nil }, file: file, line: line)
    switch result.load() {
    case .success(let value): return value
    case .failure(let error): throw DBusMock.MockError.failed(error)
    case nil: throw DBusMock.MockError.noReply
    }
}
