import Foundation
import TetherGio
import TetherGioTestSupport
import XCTest

/// Method calls as cold signals, on a private bus with a service on another connection.
final class DBusMethodTests: PrivateBusTestCase {
    private var service: TestService!
    private var client: DBusConnection!

    override func setUp() {
        super.setUp()
        service = try! TestService(address: Self.bus.address)
        client = try! DBusConnection(address: Self.bus.address)
    }

    override func tearDown() {
        service.stop()
        drainMainContext()
        super.tearDown()
    }

    private func call<Reply: GVariantConvertible>(
        _ method: String, _ arguments: [any GVariantConvertible] = [], returning: Reply.Type
    ) throws -> Signal<Reply, DBusError> {
        try client.call(
            method, interface: TestService.interface, path: TestService.path, on: TestService.busName,
            arguments: arguments, returning: Reply.self)
    }

    func testACallSendsTheReplyThenCompletes() throws {
        let events = Locked([String]())
        let subscription = try call("Greet", ["ann"], returning: String.self).subscribe(
            next: { value in events.modify { $0.append(value) } }, completed: { events.modify { $0.append("|") } })
        defer { subscription.dispose() }
        pump(until: { events.load().last == "|" })
        XCTAssertEqual(events.load(), ["Hello, ann", "|"])
    }

    func testTheCallIsColdEachSubscriptionCallsAgain() throws {
        let sum = try call("Add", [Int32(2), 40], returning: Int32.self)
        let results = Locked([Int32]())
        let first = sum.subscribe(next: { value in results.modify { $0.append(value) } })
        let second = sum.subscribe(next: { value in results.modify { $0.append(value) } })
        defer {
            first.dispose()
            second.dispose()
        }
        XCTAssertEqual(service.calls, [], "nothing is called before the loop runs the calls")
        pump(until: { results.load().count == 2 })
        XCTAssertEqual(results.load(), [42, 42])
        XCTAssertEqual(service.calls, ["Add", "Add"])
    }

    func testAnErrorReplyFailsTheSignalWithTheRemoteErrorsName() throws {
        let failure = Locked(nil as DBusError?)
        let subscription = try client.call(
            "Refuse", interface: TestService.interface, path: TestService.path, on: TestService.busName
        ).subscribe(error: { error in failure.store(error) })
        defer { subscription.dispose() }
        pump(until: { failure.load() != nil })
        XCTAssertEqual(failure.load(), .remote(name: "org.tether.Error.Refused", message: "not today"))
    }

    func testAReplyOfAnotherTypeIsATypeMismatch() throws {
        let failure = Locked(nil as DBusError?)
        let subscription = try call("Greet", ["ann"], returning: UInt32.self).subscribe(error: { error in
            failure.store(error)
        })
        defer { subscription.dispose() }
        pump(until: { failure.load() != nil })
        XCTAssertEqual(failure.load(), .typeMismatch(member: "Greet", expected: "(u)", actual: "(s)"))
    }

    func testAMethodWithoutAReplyValueSendsVoidThenCompletes() throws {
        let events = Locked([String]())
        service.setName("x")
        let subscription = try client.call(
            "Ping", interface: "org.freedesktop.DBus.Peer", path: "/org/freedesktop/DBus", on: "org.freedesktop.DBus"
        ).subscribe(next: { events.modify { $0.append("()") } }, completed: { events.modify { $0.append("|") } })
        defer { subscription.dispose() }
        pump(until: { events.load().last == "|" })
        XCTAssertEqual(events.load(), ["()", "|"])
    }

    func testDisposingBeforeTheReplyCancelsTheCall() throws {
        weak var released: DBusConnection?
        let events = Locked([String]())
        do {
            let connection = try DBusConnection(address: Self.bus.address)
            released = connection
            let subscription = try connection.call(
                "Hang", interface: TestService.interface, path: TestService.path, on: TestService.busName
            ).subscribe(
                next: { events.modify { $0.append("()") } }, error: { error in events.modify { $0.append("\(error)") } }
            )
            pump(until: { service.hanging.count == 1 })
            subscription.dispose()
        }
        // The cancelled call's callback runs (GIO always calls it), releasing the call and its connection,
        // although the service has not answered.
        pump(until: { released == nil })
        XCTAssertEqual(service.hanging.count, 1, "the service never answered")
        XCTAssertEqual(events.load(), [], "a cancelled call sends nothing, not even its cancellation")
    }

    func testArgumentsGVariantCannotHoldAreTypedErrorsAtTheCall() {
        XCTAssertThrowsError(try call("Add", [Int(Int32.max) + 1, 1], returning: Int32.self)) {
            XCTAssertEqual($0 as? DBusError, .invalidArgument("\(Int(Int32.max) + 1)"))
        }
        XCTAssertThrowsError(try call("Bad-Method", returning: Int32.self)) {
            XCTAssertEqual($0 as? DBusError, .invalidName(kind: .member, value: "Bad-Method"))
        }
    }

    func testACommandMakesTheCallForEachExecution() throws {
        let client = client!
        let greet = Command { (name: String) -> Signal<String, DBusError> in
            (try? client.call(
                "Greet", interface: TestService.interface, path: TestService.path, on: TestService.busName,
                arguments: [name], returning: String.self)) ?? Signal(error: .invalidArgument(name))
        }
        let greetings = Locked([String]())
        let subscription = greet.executionSignals.flatten().subscribe(next: { value in
            greetings.modify { $0.append(value) }
        })
        defer { subscription.dispose() }
        greet.execute("ann")
        pump(until: { greetings.load() == ["Hello, ann"] })
        greet.execute("bob")
        pump(until: { greetings.load() == ["Hello, ann", "Hello, bob"] })
    }
}
