import Foundation
import TetherDBusCodegen
import TetherGio
import TetherGioTestSupport
import XCTest

/// An implementation of the sample interface, exported with the generated `export`.
final class SampleService: CodegenSampleService, @unchecked Sendable {
    // Safety: the properties are immutable references to thread-safe Tether types (MutableProperty and
    // Subject lock their state); `@unchecked` only because ChannelTerminal does not declare Sendable.
    let countValue = MutableProperty<UInt32>(0)
    let labelValue = MutableProperty("")
    let limitValue = MutableProperty<Int32>(0)
    let moves = Subject<CodegenSample.Moved, Never>()
    let pings = Subject<Void, Never>()
    let protocols = Subject<CodegenSample.Protocol_, Never>()
    private let labelTerminal: ChannelTerminal<String, Never>
    private let limitTerminal: ChannelTerminal<Int32, Never>

    init() {
        labelTerminal = labelValue.channel()
        limitTerminal = limitValue.channel()
    }

    var count: Signal<UInt32, Never> { countValue.signal }
    var label: ChannelTerminal<String, Never> { labelTerminal }
    var limit: ChannelTerminal<Int32, Never> { limitTerminal }
    var version: Signal<String, Never> { Signal(value: "1.0") }
    var load: Signal<Double, Never> { Signal(value: 0.25) }
    var points: Signal<[DBusStruct<Double, Double>], Never> { Signal(value: [DBusStruct(1, 2), DBusStruct(3, 4)]) }
    var options: Signal<[String: GVariantValue], Never> { Signal(value: ["mode": GVariantValue("fast")!]) }
    var `default`: Signal<Bool, Never> { Signal(value: true) }
    var oldName: Signal<String, Never> { Signal(value: "old") }

    func increment(by: UInt32) throws -> UInt32 {
        countValue.modify { $0 += by }
        return countValue.value
    }

    func divide(dividend: Int32, divisor: Int32) throws -> (quotient: Int32, remainder: Int32) {
        guard divisor != 0 else { throw DBusError.remote(name: "org.tether.Error.DivisionByZero", message: "÷ 0") }
        return (dividend / divisor, dividend % divisor)
    }

    func echo(`in`: DBusStruct<String, [String: GVariantValue]>) throws -> DBusStruct<String, [String: GVariantValue]> {
        `in`
    }

    func reset() throws { countValue.value = 0 }
    func countMethod() throws -> UInt32 { countValue.value }
    func old() throws {}
    var moved: Signal<CodegenSample.Moved, Never> { moves.signal }
    var ping: Signal<Void, Never> { pings.signal }
    var `protocol`: Signal<CodegenSample.Protocol_, Never> { protocols.signal }
}

/// The generated service exported with the interface's signature and driven by the generated client from
/// another connection: properties by their change annotation, writes, methods with several values, signals.
final class GeneratedServiceTests: PrivateBusTestCase {
    private var server: DBusConnection!
    private var client: DBusConnection!
    private var service: SampleService!
    private var exported: (any Disposable)!
    private var sample: CodegenSample!

    override func setUpWithError() throws {
        try super.setUpWithError()
        server = try DBusConnection(address: Self.bus.address)
        client = try DBusConnection(address: Self.bus.address)
        service = SampleService()
        exported = try CodegenSample.export(service, on: server, path: "/org/tether/Sample")
        sample = try CodegenSample(
            bus: client, destination: try XCTUnwrap(server.uniqueName), path: "/org/tether/Sample")
    }

    override func tearDown() {
        exported?.dispose()
        drainMainContext()
        // XCTest keeps its test case objects to the end: what a test made goes with the test.
        (exported, sample, service, client, server) = (nil, nil, nil, nil, nil)
        super.tearDown()
    }

    func testPropertiesFollowTheirChangeAnnotation() throws {
        let count = Recording(sample.count)
        let version = Recording(sample.version)
        let load = Recording(sample.load)
        defer {
            count.dispose()
            version.dispose()
            load.dispose()
        }
        pump(until: { count.values == [0] && version.completed && load.completed })
        XCTAssertEqual(version.values, ["1.0"], "const: read once")
        XCTAssertEqual(load.values, [0.25], "EmitsChangedSignal false: read once, no pretended changes")
        service.countValue.value = 5
        pump(until: { count.values == [0, 5] })
        XCTAssertFalse(count.completed)
        XCTAssertEqual(try firstValue(of: sample.points), [DBusStruct(1, 2), DBusStruct(3, 4)])
        XCTAssertEqual(try firstValue(of: sample.options).value("mode", as: String.self), "fast")
        XCTAssertEqual(try firstValue(of: sample.default), true)
    }

    func testWritablePropertiesAreSetAndBound() throws {
        let sample = self.sample!
        XCTAssertNoThrow(try awaitResult { try await sample.setLabel("set") }?.get())
        XCTAssertEqual(service.labelValue.value, "set")
        let limits = MutableProperty<Int32>(1)
        let failures = Locked([DBusError]())
        let binding = sample.bindLimit(to: limits.signal, failed: { error in failures.modify { $0.append(error) } })
        defer { binding.dispose() }
        pump(until: { self.service.limitValue.value == 1 })
        limits.value = 7
        pump(until: { self.service.limitValue.value == 7 })
        XCTAssertEqual(failures.load(), [])
    }

    func testAWriteTheServiceRefusesIsReportedToTheBinding() throws {
        let failures = Locked([DBusError]())
        let binding = sample.remote.bindProperty(
            "Count", to: Signal(value: UInt32(9)), failed: { error in failures.modify { $0.append(error) } })
        defer { binding.dispose() }
        pump(until: { !failures.load().isEmpty })
        guard case .remote(let name, _) = failures.load().first else { return XCTFail("\(failures.load())") }
        XCTAssertEqual(name, "org.freedesktop.DBus.Error.InvalidArgs")
        XCTAssertEqual(service.countValue.value, 0)
    }

    func testMethodsReturnTheirValuesAndErrors() throws {
        let sample = self.sample!
        XCTAssertEqual(try awaitResult { try await sample.increment(by: 2) }?.get(), 2)
        let division = try XCTUnwrap(awaitResult { try await sample.divide(dividend: 7, divisor: 2) }).get()
        XCTAssertEqual(division.quotient, 3)
        XCTAssertEqual(division.remainder, 1)
        let failed = awaitResult { try await sample.divide(dividend: 1, divisor: 0) }
        guard case .failure(let error) = failed, case .remote(let name, _) = error as? DBusError else {
            return XCTFail("\(String(describing: failed))")
        }
        XCTAssertEqual(name, "org.tether.Error.DivisionByZero")
        let value = DBusStruct("name", ["key": GVariantValue(UInt32(1))!])
        XCTAssertEqual(try awaitResult { try await sample.echo(in: value) }?.get(), value)
        XCTAssertEqual(try awaitResult { try await sample.countMethod() }?.get(), 2)
        XCTAssertNoThrow(try awaitResult { try await sample.reset() }?.get())
        XCTAssertEqual(service.countValue.value, 0)
    }

    func testAMethodsCommandSendsItsLabelledReply() throws {
        let divide = sample.divideCommand()
        let reply = Locked<(quotient: Int32, remainder: Int32)?>(nil)
        divide.execute((dividend: 9, divisor: 4)).subscribe(next: { value in reply.store(value) })
        pump(until: { reply.load() != nil })
        XCTAssertEqual(reply.load()?.quotient, 2)
        XCTAssertEqual(reply.load()?.remainder, 1)
    }

    func testSignalsAreSignalsOfTheirArguments() throws {
        let moved = Recording(sample.moved)
        let pinged = Recording(sample.ping)
        let protocols = Recording(sample.protocol)
        defer {
            moved.dispose()
            pinged.dispose()
            protocols.dispose()
        }
        // A call after the subscriptions: when it returns, the bus has their match rules (one connection's
        // messages are handled in order), so the emissions below reach the client.
        _ = try firstValue(
            of: client.call(
                "GetId", interface: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", on: "org.freedesktop.DBus",
                returning: String.self))
        service.moves.send(CodegenSample.Moved(x: 1.5, y: -2))
        service.pings.send(())
        service.protocols.send(CodegenSample.Protocol_(self_: "http"))
        pump(until: { moved.values.count == 1 && pinged.values.count == 1 && protocols.values.count == 1 })
        XCTAssertEqual(moved.values, [CodegenSample.Moved(x: 1.5, y: -2)])
        XCTAssertEqual(protocols.values, [CodegenSample.Protocol_(self_: "http")])
        XCTAssertEqual(pinged.values.count, 1)
    }

    /// The exported object's `Introspect()` describes the interface the XML does (write-only properties are
    /// exported read-write: TetherGio's export has no write-only property).
    func testTheExportedObjectHasTheInterfacesSignature() throws {
        let xml = try firstValue(
            of: client.call(
                "Introspect", interface: "org.freedesktop.DBus.Introspectable", path: "/org/tether/Sample",
                on: try XCTUnwrap(server.uniqueName), returning: String.self))
        let exported = try XCTUnwrap(DBusCodegen.parse(xml).first { $0.name == "org.tether.CodegenSample" })
        let source = try sampleInterface()
        XCTAssertEqual(exported.properties.map(\.name), source.properties.map(\.name))
        XCTAssertEqual(exported.properties.map(\.type), source.properties.map(\.type))
        XCTAssertEqual(
            exported.properties.map(\.access), source.properties.map { $0.access == .write ? .readWrite : $0.access })
        XCTAssertEqual(exported.methods.map(\.name), source.methods.map(\.name))
        XCTAssertEqual(exported.methods.map { $0.inputs.map(\.type) }, source.methods.map { $0.inputs.map(\.type) })
        XCTAssertEqual(exported.methods.map { $0.outputs.map(\.type) }, source.methods.map { $0.outputs.map(\.type) })
        XCTAssertEqual(exported.signals.map(\.name), source.signals.map(\.name))
        XCTAssertEqual(
            exported.signals.map { $0.arguments.map(\.type) }, source.signals.map { $0.arguments.map(\.type) })
    }

    /// A live object whose property has another type than the generated client's: a typed error.
    func testAReplyThatDisagreesWithTheGeneratedTypeIsATypedError() throws {
        let wrong = try server.export(
            path: "/org/tether/Wrong", interface: "org.tether.CodegenSample",
            properties: [.readOnly("Count", Signal(value: "not a number"))])
        defer { wrong.dispose() }
        let client = try CodegenSample(
            bus: client, destination: try XCTUnwrap(server.uniqueName), path: "/org/tether/Wrong")
        let count = Recording(client.count)
        defer { count.dispose() }
        pump(until: { count.error != nil })
        XCTAssertEqual(count.error, .typeMismatch(member: "Count", expected: "u", actual: "s"))
        XCTAssertEqual(count.values, [])
    }

    private func sampleInterface() throws -> DBusInterfaceDescription {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("org.tether.CodegenSample.xml")
        return try XCTUnwrap(DBusCodegen.parse(String(contentsOf: file, encoding: .utf8)).first)
    }
}
