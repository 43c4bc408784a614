import Foundation
import TetherGio
import TetherGioTestSupport
import XCTest

/// Exported objects' methods (closures and `Command`s) and D-Bus signals (emitted from Tether signals),
/// called and watched by `gdbus` in another process and by a Tether client on another connection.
final class DBusServerTests: PrivateBusTestCase {
    private enum SignInError: Error { case locked }

    private var server: DBusConnection!
    private var destination: String { server.uniqueName! }
    private let path = "/org/tether/Server"
    private let interface = "org.tether.Server"

    override func setUp() {
        super.setUp()
        server = try! DBusConnection(address: Self.bus.address)
    }

    override func tearDown() {
        drainMainContext()
        super.tearDown()
    }

    /// `gdbus call` of one of the object's methods, run to its end (the test pumps the main context
    /// meanwhile, where the object answers).
    private func call(_ method: String, _ arguments: String...) throws -> (code: Int32, output: String) {
        let result = try Self.bus.gdbus(
            ["call", "--dest", destination, "--object-path", path, "--method", interface + "." + method] + arguments
        ).finish()
        return (result.code, result.output.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// `gdbus monitor` of the server's signals, started and listening (its match rule in place).
    private func monitor() throws -> RunningProcess {
        let monitor = try Self.bus.gdbus(["monitor", "--dest", destination, "--object-path", path])
        pump(until: { monitor.outputSoFar.contains("is owned by") })
        return monitor
    }

    func testAnotherProcessCallsMethodsAndGetsTheClosuresReplies() throws {
        let pinged = Locked(0)
        let exported = try server.export(
            path: path, interface: interface,
            methods: [
                .method("Greet", arguments: String.self, returning: String.self) { "Hello, \($0)" },
                .method("Add", arguments: Int32.self, Int32.self, returning: Int32.self) { $0 + $1 },
                .method("Ping") { pinged.modify { $0 += 1 } },
            ])
        defer { exported.dispose() }
        XCTAssertEqual(try call("Greet", "bob").output, "('Hello, bob',)")
        XCTAssertEqual(try call("Add", "2", "40").output, "(42,)")
        let ping = try call("Ping")
        XCTAssertEqual(ping.code, 0, ping.output)
        XCTAssertEqual(ping.output, "()")
        XCTAssertEqual(pinged.load(), 1)
    }

    func testAThrownErrorIsTheErrorReplyAndKeepsItsDBusName() throws {
        struct Broken: Error, CustomStringConvertible { var description: String { "the disk is full" } }
        let exported = try server.export(
            path: path, interface: interface,
            methods: [
                .method("Refuse") { throw DBusError.remote(name: "org.tether.Error.Refused", message: "not today") },
                .method("Break", returning: String.self) { throw Broken() },
            ])
        defer { exported.dispose() }
        let refused = try call("Refuse")
        XCTAssertNotEqual(refused.code, 0)
        XCTAssertTrue(refused.output.contains("org.tether.Error.Refused"), refused.output)
        XCTAssertTrue(refused.output.contains("not today"), refused.output)
        let broken = try call("Break")
        XCTAssertNotEqual(broken.code, 0)
        XCTAssertTrue(broken.output.contains("org.freedesktop.DBus.Error.Failed"), broken.output)
        XCTAssertTrue(broken.output.contains("the disk is full"), broken.output)
    }

    func testAReplyGVariantCannotHoldIsAnErrorReplyNotACrash() throws {
        let exported = try server.export(
            path: path, interface: interface, methods: [.method("Huge", returning: Int.self) { Int.max }])
        defer { exported.dispose() }
        let result = try call("Huge")
        XCTAssertNotEqual(result.code, 0)
        XCTAssertTrue(result.output.contains("org.freedesktop.DBus.Error.Failed"), result.output)
        XCTAssertTrue(result.output.contains("cannot be sent as a GVariant"), result.output)
    }

    func testArgumentsOfAnotherTypeAreRefusedBeforeTheClosureRuns() throws {
        let calls = Locked(0)
        let exported = try server.export(
            path: path, interface: interface,
            methods: [
                .method("Greet", arguments: String.self, returning: String.self) { name in
                    calls.modify { $0 += 1 }
                    return name
                }
            ])
        defer { exported.dispose() }
        let client = try DBusConnection(address: Self.bus.address)
        let failure = Locked<DBusError?>(nil)
        let subscription = try client.call(
            "Greet", interface: interface, path: path, on: destination, arguments: [UInt32(3)], returning: String.self
        )
        .subscribe(error: { error in failure.store(error) })
        defer { subscription.dispose() }
        pump(until: { failure.load() != nil })
        guard case .remote(let name, _) = failure.load() else {
            return XCTFail("\(String(describing: failure.load()))")
        }
        XCTAssertEqual(name, "org.freedesktop.DBus.Error.InvalidArgs")
        XCTAssertEqual(calls.load(), 0)
    }

    func testACommandAnswersWithItsExecutionsValue() throws {
        let signIn = Command { (password: String) throws(SignInError) -> Bool in
            if password == "locked" { throw .locked }
            return password == "secret"
        }
        let exported = try server.export(path: path, interface: interface, methods: [.command("SignIn", signIn)])
        defer { exported.dispose() }
        XCTAssertEqual(try call("SignIn", "secret").output, "(true,)")
        XCTAssertEqual(try call("SignIn", "guess").output, "(false,)")
        let failed = try call("SignIn", "locked")
        XCTAssertNotEqual(failed.code, 0)
        XCTAssertTrue(failed.output.contains("org.freedesktop.DBus.Error.Failed"), failed.output)
        XCTAssertTrue(failed.output.contains("locked"), failed.output)
    }

    func testAnAsyncCommandRepliesWhenItsWorkSendsTheValue() throws {
        let refresh = Command { () async -> UInt32 in
            try? await Task.sleep(for: .milliseconds(50))
            return 7
        }
        let executing = Locked([Bool]())
        let watch = refresh.executing.subscribe(next: { value in executing.modify { $0.append(value) } })
        defer { watch.dispose() }
        let exported = try server.export(path: path, interface: interface, methods: [.command("Refresh", refresh)])
        defer { exported.dispose() }
        XCTAssertEqual(try call("Refresh").output, "(uint32 7,)")
        pump(until: { executing.load() == [false, true, false] })
    }

    func testACallThatGetsNoReplyInTimeFailsWithTimedOut() throws {
        // Issue 43 item 11: a timeout is its own case, not `.remote(name: "…Error.Failed", message: "Timeout
        // was reached")`. The method's command never answers; the client's call waits 200 ms.
        let hang = Command<Void, UInt32, Never> { Signal<UInt32, Never>.never }
        let exported = try server.export(path: path, interface: interface, methods: [.command("Hang", hang)])
        defer { exported.dispose() }
        let client = try DBusConnection(address: Self.bus.address)
        let failure = Locked(nil as DBusError?)
        let subscription = try client.call(
            "Hang", interface: interface, path: path, on: destination, returning: UInt32.self,
            timeout: .milliseconds(200)
        ).subscribe(error: { error in failure.store(error) })
        defer { subscription.dispose() }
        pump(until: { failure.load() != nil })
        XCTAssertEqual(failure.load(), .timedOut)
        XCTAssertEqual(failure.load()?.description, "no reply within the call's timeout")
    }

    func testADisabledCommandIsRefusedWithItsOwnErrorName() throws {
        let executed = Locked(false)
        let save = Command(enabled: Signal(value: false)) { executed.store(true) }
        let exported = try server.export(path: path, interface: interface, methods: [.command("Save", save)])
        defer { exported.dispose() }
        let result = try call("Save")
        XCTAssertNotEqual(result.code, 0)
        XCTAssertTrue(result.output.contains("org.tether.Error.CommandDisabled"), result.output)
        XCTAssertFalse(executed.load())
    }

    func testAVoidCommandRepliesWhenItsExecutionCompletes() throws {
        let executed = Locked(0)
        let save = Command { executed.modify { $0 += 1 } }
        let exported = try server.export(path: path, interface: interface, methods: [.command("Save", save)])
        defer { exported.dispose() }
        let result = try call("Save")
        XCTAssertEqual(result.code, 0, result.output)
        XCTAssertEqual(result.output, "()")
        XCTAssertEqual(executed.load(), 1)
    }

    func testEachValueOfATetherSignalIsEmittedAsADBusSignalThatGdbusMonitorSees() throws {
        let messages = Subject<(String, UInt32), Never>()
        let signedIn = MutableProperty(false)
        let exported = try server.export(
            path: path, interface: interface,
            signals: [
                .signal("MessageReceived", messages, as: String.self, UInt32.self),
                .signal("SignedInChanged", signedIn.signal.skip(1), as: Bool.self),
            ])
        defer { exported.dispose() }
        let monitor = try monitor()
        defer { monitor.terminate() }
        messages.send(("hello", 1))
        signedIn.value = true
        messages.send(("bye", 2))
        pump(until: { monitor.outputSoFar.contains("('bye', uint32 2)") })
        let lines = monitor.outputSoFar.split(separator: "\n").filter { $0.hasPrefix(path + ":") }
        XCTAssertEqual(
            lines,
            [
                "\(path): \(interface).MessageReceived ('hello', uint32 1)",
                "\(path): \(interface).SignedInChanged (true,)",
                "\(path): \(interface).MessageReceived ('bye', uint32 2)",
            ])
    }

    func testAClientOnAnotherConnectionReceivesTheSignalsTyped() throws {
        let messages = Subject<(String, UInt32), Never>()
        let exported = try server.export(
            path: path, interface: interface,
            signals: [.signal("MessageReceived", messages, as: String.self, UInt32.self)])
        defer { exported.dispose() }
        let client = try DBusConnection(address: Self.bus.address)
        let received = Locked([String]())
        let subscription = try client.signal(
            "MessageReceived", interface: interface, path: path, from: destination, as: String.self, UInt32.self
        )
        .subscribe(next: { text, number in received.modify { $0.append("\(text) \(number)") } })
        defer { subscription.dispose() }
        syncWithBus(client)  // the client's match rule is in place
        messages.send(("one", 1))
        messages.send(("two", 2))
        pump(until: { received.load() == ["one 1", "two 2"] })
    }

    func testIntrospectionDescribesTheMethodsSignalsAndProperties() throws {
        let exported = try server.export(
            path: path, interface: interface, properties: [.readOnly("Ready", Signal(value: true))],
            methods: [.method("Add", arguments: Int32.self, Int32.self, returning: Int32.self) { $0 + $1 }],
            signals: [.signal("Ticked", Subject<UInt64, Never>(), as: UInt64.self)])
        defer { exported.dispose() }
        let result = try Self.bus.gdbus(["introspect", "--dest", destination, "--object-path", path]).finish()
        XCTAssertEqual(result.code, 0, result.output)
        XCTAssertTrue(result.output.contains("Add(in  i arg_0,"), result.output)
        XCTAssertTrue(result.output.contains("out i arg_2);"), result.output)
        XCTAssertTrue(result.output.contains("Ticked(t arg_0);"), result.output)
        XCTAssertTrue(result.output.contains("readonly b Ready = true;"), result.output)
    }

    func testDisposingTakesTheMethodsOffTheBusAndStopsFollowingTheSignals() throws {
        weak var releasedSource: Subject<UInt32, Never>?
        weak var releasedCommand: Command<Void, Void, Never>?
        let exported: any Disposable
        do {
            let ticks = Subject<UInt32, Never>()
            let save = Command {}
            releasedSource = ticks
            releasedCommand = save
            exported = try server.export(
                path: path, interface: interface, methods: [.command("Save", save), .method("Ping") {}],
                signals: [.signal("Ticked", ticks, as: UInt32.self)])
            XCTAssertEqual(try call("Ping").code, 0)
        }
        exported.dispose()
        let after = try call("Ping")
        XCTAssertNotEqual(after.code, 0)
        XCTAssertTrue(after.output.contains("org.freedesktop.DBus.Error.UnknownMethod"), after.output)
        drainMainContext()
        XCTAssertNil(releasedSource, "the exported object released the D-Bus signal's source")
        XCTAssertNil(releasedCommand, "the exported object released the command")
    }

    func testDictionariesOfVariantsCrossTheBusAsPropertiesAndArguments() throws {
        let options = MutableProperty<[String: GVariantValue]>(["zoom": GVariantValue(1.5)!])
        let exported = try server.export(
            path: path, interface: interface, properties: [.readWrite("Options", options.channel())],
            methods: [
                .method("Mode", arguments: [String: GVariantValue].self, returning: String.self) {
                    try $0.value("mode", as: String.self)
                }
            ])
        defer { exported.dispose() }
        let get = try Self.bus.gdbus(
            [
                "call", "--dest", destination, "--object-path", path, "--method",
                "org.freedesktop.DBus.Properties.Get", interface, "Options",
            ]
        ).finish()
        XCTAssertEqual(get.output.trimmingCharacters(in: .whitespacesAndNewlines), "(<{'zoom': <1.5>}>,)")
        let set = try Self.bus.gdbus(
            [
                "call", "--dest", destination, "--object-path", path, "--method",
                "org.freedesktop.DBus.Properties.Set", interface, "Options", "<{'zoom': <2.0>, 'dark': <true>}>",
            ]
        ).finish()
        XCTAssertEqual(set.code, 0, set.output)
        XCTAssertEqual(try options.value.value("dark", as: Bool.self), true)
        XCTAssertEqual(try options.value.value("zoom", as: Double.self), 2.0)
        XCTAssertEqual(try call("Mode", "{'mode': <'fast'>}").output, "('fast',)")
        let mismatch = try call("Mode", "{'mode': <3>}")
        XCTAssertNotEqual(mismatch.code, 0)
        XCTAssertTrue(mismatch.output.contains("the entry 'mode' has the GVariant type 'i', not 's'"), mismatch.output)
    }

    func testAClientReadingADictionaryPropertyAsAnotherDictionaryTypeGetsATypedError() throws {
        let exported = try server.export(
            path: path, interface: interface,
            properties: [.readOnly("Labels", Signal(value: ["theme": "dark"]))])
        defer { exported.dispose() }
        let client = try DBusConnection(address: Self.bus.address)
        let labels = Locked([[String: String]]())
        let first = try client.property(
            "Labels", interface: interface, path: path, on: destination, as: [String: String].self
        )
        .subscribe(next: { value in labels.modify { $0.append(value) } })
        defer { first.dispose() }
        let failure = Locked<DBusError?>(nil)
        let second = try client.property(
            "Labels", interface: interface, path: path, on: destination, as: [String: GVariantValue].self
        )
        .subscribe(error: { error in failure.store(error) })
        defer { second.dispose() }
        pump(until: { labels.load() == [["theme": "dark"]] && failure.load() != nil })
        XCTAssertEqual(failure.load(), .typeMismatch(member: "Labels", expected: "a{sv}", actual: "a{ss}"))
    }

    func testAnOwnedNameReachesTheObjectUntilDisposed() throws {
        let exported = try server.export(path: path, interface: interface, methods: [.method("Ping") {}])
        defer { exported.dispose() }
        let owners = Locked([String?]())
        let client = try DBusConnection(address: Self.bus.address)
        let watch = try client.nameOwner(of: "org.tether.Owned").subscribe(next: { owner in
            owners.modify { $0.append(owner) }
        })
        defer { watch.dispose() }
        pump(until: { owners.load() == [nil] })
        let name = try server.ownName("org.tether.Owned")
        pump(until: { owners.load() == [nil, destination] })
        let ping = try Self.bus.gdbus(
            ["call", "--dest", "org.tether.Owned", "--object-path", path, "--method", interface + ".Ping"]
        ).finish()
        XCTAssertEqual(ping.code, 0, ping.output)
        name.dispose()
        pump(until: { owners.load() == [nil, destination, nil] })
    }

    func testOwningAMalformedOrUniqueNameIsATypedError() {
        XCTAssertThrowsError(try server.ownName("no dots")) {
            XCTAssertEqual($0 as? DBusError, .invalidName(kind: .busName, value: "no dots"))
        }
        XCTAssertThrowsError(try server.ownName(":1.5")) {
            XCTAssertEqual($0 as? DBusError, .invalidName(kind: .busName, value: ":1.5"))
        }
    }

    func testATypeDBusCannotCarryIsATypedError() {
        let labels = MutableProperty<[[String]: Int32]>([:])
        XCTAssertThrowsError(
            try server.export(path: path, interface: interface, properties: [.readOnly("Labels", labels.signal)])
        ) {
            XCTAssertEqual($0 as? DBusError, .invalidArgument("the type 'a{asi}' of Labels, which D-Bus cannot carry"))
        }
    }

    func testMalformedMethodAndSignalNamesAreTypedErrors() {
        XCTAssertThrowsError(try server.export(path: path, interface: interface, methods: [.method("no-dash") {}])) {
            XCTAssertEqual($0 as? DBusError, .invalidName(kind: .member, value: "no-dash"))
        }
        XCTAssertThrowsError(
            try server.export(
                path: path, interface: interface, signals: [.signal("1st", Subject<Bool, Never>(), as: Bool.self)])
        ) {
            XCTAssertEqual($0 as? DBusError, .invalidName(kind: .member, value: "1st"))
        }
    }

    /// Makes sure the bus has processed everything `connection` sent so far (its AddMatch included): a
    /// method call to the bus is answered after the messages before it.
    private func syncWithBus(_ connection: DBusConnection) {
        let reply = g_dbus_connection_call_sync(
            connection.gdbusConnection, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
            "GetId", nil, nil, G_DBUS_CALL_FLAGS_NONE, -1, nil, nil)
        if let reply { g_variant_unref(reply) }
    }
}
