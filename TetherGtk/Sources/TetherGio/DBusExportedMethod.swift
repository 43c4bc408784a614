import CGio
import Synchronization
import TetherGObject

/// One method of an object exported with ``DBusConnection/export(path:interface:properties:methods:signals:)``:
/// another process calls it (`gdbus call`, a proxy) and a closure or a `Command` answers — target-action
/// across processes.
///
/// The arguments and the reply are typed with ``GVariantConvertible``; their GVariant types are the method's
/// D-Bus signature (in its introspection data), and GDBus refuses a call whose arguments have other types
/// (`org.freedesktop.DBus.Error.InvalidArgs`) before the closure runs. A closure that throws answers with
/// an error reply: ``DBusError/remote(name:message:)`` thrown keeps its D-Bus error name, any other error is
/// `org.freedesktop.DBus.Error.Failed` with the error's description.
///
/// ```swift
/// let greet = DBusExportedMethod.method("Greet", arguments: String.self, returning: String.self) { name in
///     "Hello, \(name)"
/// }
/// let signIn = Command { (password: String) in password == "secret" }
/// let methods: [DBusExportedMethod] = [greet, .command("SignIn", signIn), .method("Ping") { print("ping") }]
/// ```
public struct DBusExportedMethod: Sendable {
    let info: ExportedMethodInfo

    /// A method whose reply is `body`'s result, called with the arguments (in order, of the types listed)
    /// on the GLib main context the object was exported from.
    ///
    /// - Parameters:
    ///   - name: The method's D-Bus name (`Greet`).
    ///   - arguments: The Swift types of its arguments, in order (none: leave it out).
    ///   - returning: The Swift type of its one reply value.
    ///   - body: Answers a call; an error it throws is the error reply.
    ///
    /// ```swift
    /// let add = DBusExportedMethod.method("Add", arguments: Int32.self, Int32.self, returning: Int32.self) {
    ///     $0 &+ $1
    /// }
    /// ```
    public static func method<each Argument: GVariantConvertible, Reply: GVariantConvertible>(
        _ name: String, arguments: repeat (each Argument).Type, returning: Reply.Type,
        perform body: @escaping @Sendable (repeat each Argument) throws -> Reply
    ) -> DBusExportedMethod {
        let inTypes = variantTypes(repeat (each Argument).self)
        return DBusExportedMethod(
            info: ExportedMethodInfo(
                name: name, inTypes: inTypes, outTypes: [Reply.variantType],
                handle: { parameters, reply in
                    guard let values = DBusConnection.arguments(parameters, as: repeat (each Argument).self) else {
                        return reply.failInvalidArguments(parameters, expected: inTypes)
                    }
                    do {
                        reply.send(try body(repeat each values), method: name)
                    } catch {
                        reply.fail(error)
                    }
                }))
    }

    /// A method that replies with nothing once `body` has run (`Ping`, `Quit`, `Reload`).
    ///
    /// - Parameters:
    ///   - name: The method's D-Bus name.
    ///   - arguments: The Swift types of its arguments, in order (none: leave it out).
    ///   - body: Runs for each call; an error it throws is the error reply.
    ///
    /// ```swift
    /// let reload = DBusExportedMethod.method("Reload") { print("reloading the configuration") }
    /// let rename = DBusExportedMethod.method("Rename", arguments: String.self) { print("renamed to", $0) }
    /// ```
    public static func method<each Argument: GVariantConvertible>(
        _ name: String, arguments: repeat (each Argument).Type,
        perform body: @escaping @Sendable (repeat each Argument) throws -> Void
    ) -> DBusExportedMethod {
        let inTypes = variantTypes(repeat (each Argument).self)
        return DBusExportedMethod(
            info: ExportedMethodInfo(
                name: name, inTypes: inTypes, outTypes: [],
                handle: { parameters, reply in
                    guard let values = DBusConnection.arguments(parameters, as: repeat (each Argument).self) else {
                        return reply.failInvalidArguments(parameters, expected: inTypes)
                    }
                    do {
                        try body(repeat each values)
                        reply.sendNothing()
                    } catch {
                        reply.fail(error)
                    }
                }))
    }

    /// A method whose reply carries several values (D-Bus allows any number of `out` arguments): `body`
    /// returns them as a tuple, in order; otherwise as ``method(_:arguments:returning:perform:)``.
    ///
    /// - Parameters:
    ///   - name: The method's D-Bus name.
    ///   - arguments: The Swift types of its arguments, in order (none: leave it out).
    ///   - replying: The Swift types of its reply's values, in order.
    ///   - body: Answers a call; an error it throws is the error reply.
    ///
    /// ```swift
    /// let divide = DBusExportedMethod.method(
    ///     "Divide", arguments: Int32.self, Int32.self, replying: Int32.self, Int32.self
    /// ) { dividend, divisor in
    ///     guard divisor != 0 else { throw DBusError.remote(name: "org.example.Error.DivisionByZero", message: "÷ 0") }
    ///     return (dividend / divisor, dividend % divisor)
    /// }
    /// ```
    public static func method<each Argument: GVariantConvertible, each Reply: GVariantConvertible>(
        _ name: String, arguments: repeat (each Argument).Type, replying: repeat (each Reply).Type,
        perform body: @escaping @Sendable (repeat each Argument) throws -> (repeat each Reply)
    ) -> DBusExportedMethod {
        let inTypes = variantTypes(repeat (each Argument).self)
        return DBusExportedMethod(
            info: ExportedMethodInfo(
                name: name, inTypes: inTypes, outTypes: variantTypes(repeat (each Reply).self),
                handle: { parameters, reply in
                    guard let values = DBusConnection.arguments(parameters, as: repeat (each Argument).self) else {
                        return reply.failInvalidArguments(parameters, expected: inTypes)
                    }
                    do {
                        let replies = try body(repeat each values)
                        reply.send(tuple: makeTuple(repeat each replies), method: name)
                    } catch {
                        reply.fail(error)
                    }
                }))
    }

    /// A method that executes `command` with its one argument and replies with the execution's first
    /// value — a `Command` bound to a D-Bus method as it would be to a button. The reply waits for the
    /// execution (an `async` command answers when its work sends the value).
    ///
    /// Error replies: a disabled command (executing, or its `enabled` signal `false`) answers
    /// `org.tether.Error.CommandDisabled`; a failed execution answers with the failure
    /// (``DBusError/remote(name:message:)`` keeps its name, anything else is
    /// `org.freedesktop.DBus.Error.Failed`); an execution that completes without a value answers
    /// `org.freedesktop.DBus.Error.Failed`.
    ///
    /// ```swift
    /// let signIn = Command { (password: String) async -> Bool in password == "secret" }
    /// let method = DBusExportedMethod.command("SignIn", signIn)   // gdbus call … --method org.example.App.SignIn secret
    /// ```
    public static func command<Input: GVariantConvertible, Output: GVariantConvertible, Failure: Error>(
        _ name: String, _ command: Command<Input, Output, Failure>
    ) -> DBusExportedMethod {
        DBusExportedMethod(
            info: ExportedMethodInfo(
                name: name, inTypes: [Input.variantType], outTypes: [Output.variantType],
                handle: { parameters, reply in
                    guard let input = DBusConnection.arguments(parameters, as: Input.self) else {
                        return reply.failInvalidArguments(parameters, expected: [Input.variantType])
                    }
                    reply.follow(command.execute(input), method: name)
                }))
    }

    /// A method without arguments that executes `command` and replies with the execution's first value;
    /// otherwise as the one-argument form.
    ///
    /// ```swift
    /// let refresh = Command { () async -> UInt32 in 42 }   // how many items were refreshed
    /// let method = DBusExportedMethod.command("Refresh", refresh)
    /// ```
    public static func command<Output: GVariantConvertible, Failure: Error>(
        _ name: String, _ command: Command<Void, Output, Failure>
    ) -> DBusExportedMethod {
        DBusExportedMethod(
            info: ExportedMethodInfo(
                name: name, inTypes: [], outTypes: [Output.variantType],
                handle: { parameters, reply in
                    guard g_variant_n_children(parameters) == 0 else {
                        return reply.failInvalidArguments(parameters, expected: [])
                    }
                    reply.follow(command.execute(()), method: name)
                }))
    }

    /// A method without arguments or reply value that executes `command` and replies when the execution
    /// completes (`SignOut`, `Save`); error replies as for the other `command` forms.
    ///
    /// ```swift
    /// let signOut = Command { print("signed out") }
    /// let method = DBusExportedMethod.command("SignOut", signOut)
    /// ```
    public static func command<Failure: Error>(_ name: String, _ command: Command<Void, Void, Failure>)
        -> DBusExportedMethod
    {
        DBusExportedMethod(
            info: ExportedMethodInfo(
                name: name, inTypes: [], outTypes: [],
                handle: { parameters, reply in
                    guard g_variant_n_children(parameters) == 0 else {
                        return reply.failInvalidArguments(parameters, expected: [])
                    }
                    reply.followCompletion(command.execute(()))
                }))
    }
}

/// The GVariant types of `types`, in order.
func variantTypes<each Argument: GVariantConvertible>(_ types: repeat (each Argument).Type) -> [String] {
    var result: [String] = []
    for type in repeat each types { result.append(type.variantType) }
    return result
}

/// What the exported object keeps of a method: its signature, and what answers a call.
struct ExportedMethodInfo: Sendable {
    let name: String
    let inTypes: [String]
    let outTypes: [String]
    /// Answers a call: `parameters` is the arguments' tuple (not consumed); `reply` answers once.
    let handle: @Sendable (_ parameters: OpaquePointer, _ reply: MethodReply) -> Void
}

/// One D-Bus signal of an object exported with
/// ``DBusConnection/export(path:interface:properties:methods:signals:)``: each value a Tether signal sends
/// is emitted with those arguments (`g_dbus_connection_emit_signal`) — other processes see it in
/// `gdbus monitor` or receive it with ``DBusConnection/signal(_:interface:path:from:as:)``.
///
/// ```swift
/// let messages = Subject<(String, UInt32), Never>()
/// let signal = DBusExportedSignal.signal("MessageReceived", messages, as: String.self, UInt32.self)
/// messages.send(("hello", 1))   // once exported: MessageReceived ('hello', uint32 1)
/// ```
public struct DBusExportedSignal {
    let name: String
    let types: [String]
    /// Subscribes to the emissions; each one's arguments arrive as a floating tuple variant, or `nil` when
    /// a value cannot be represented (an `Int` beyond 32 bits).
    let subscribe: (_ onEmission: @escaping @Sendable (OpaquePointer?) -> Void) -> any Disposable

    /// A D-Bus signal emitted with each value `emissions` sends, its arguments the value (a tuple for
    /// several, of the types listed). A value GVariant cannot hold (an `Int` beyond 32 bits, a string with a
    /// NUL character) is not emitted.
    ///
    /// ```swift
    /// let signedIn = MutableProperty(false)
    /// let signal = DBusExportedSignal.signal("SignedInChanged", signedIn.signal.skip(1), as: Bool.self)
    /// ```
    public static func signal<each Argument: GVariantConvertible>(
        _ name: String, _ emissions: some SignalConvertible<(repeat each Argument), Never>,
        as types: repeat (each Argument).Type
    ) -> DBusExportedSignal {
        var variantTypes: [String] = []
        for type in repeat (each Argument).self { variantTypes.append(type.variantType) }
        let signal = emissions.signal
        return DBusExportedSignal(
            name: name, types: variantTypes,
            subscribe: { onEmission in
                signal.subscribe(next: { value in onEmission(makeTuple(repeat each value)) })
            })
    }
}

/// The answer to one method call (`GDBusMethodInvocation`, whose reference it owns): sent once, from any
/// thread (GDBus allows it); a reply never sent is sent as an error when this object goes away, so that the
/// caller is not left waiting and the invocation is not leaked.
final class MethodReply: Sendable {
    /// The invocation's address until the reply is sent, then 0.
    private let invocation: Locked<UInt>

    init(_ invocation: OpaquePointer) { self.invocation = Locked(UInt(bitPattern: Int(bitPattern: invocation))) }

    deinit {
        if let invocation = take() {
            g_dbus_method_invocation_return_dbus_error(
                invocation, "org.freedesktop.DBus.Error.NoReply", "the method did not reply")
        }
    }

    /// The invocation, the first time only.
    private func take() -> OpaquePointer? {
        let address = invocation.withLock { address in
            defer { address = 0 }
            return address
        }
        return OpaquePointer(bitPattern: Int(bitPattern: address))
    }

    func send<Value: GVariantConvertible>(_ value: Value, method: String) {
        guard let invocation = take() else { return }
        guard let variant = value.makeVariant() else {
            return g_dbus_method_invocation_return_dbus_error(
                invocation, "org.freedesktop.DBus.Error.Failed",
                "\(method)'s reply \(value) cannot be sent as a GVariant")
        }
        var children: [OpaquePointer?] = [variant]
        g_dbus_method_invocation_return_value(invocation, g_variant_new_tuple(&children, 1))
    }

    /// Replies with a floating tuple of the reply's values, or an error when one could not be made.
    func send(tuple: OpaquePointer?, method: String) {
        guard let invocation = take() else { return }
        guard let tuple else {
            return g_dbus_method_invocation_return_dbus_error(
                invocation, "org.freedesktop.DBus.Error.Failed", "\(method)'s reply cannot be sent as a GVariant")
        }
        g_dbus_method_invocation_return_value(invocation, tuple)
    }

    func sendNothing() {
        guard let invocation = take() else { return }
        g_dbus_method_invocation_return_value(invocation, nil)
    }

    func fail(name: String, message: String) {
        guard let invocation = take() else { return }
        g_dbus_method_invocation_return_dbus_error(invocation, name, message)
    }

    func fail(_ error: any Error) {
        if case .remote(let name, let message) = error as? DBusError, g_dbus_is_error_name(name) != 0 {
            fail(name: name, message: message)
        } else {
            fail(name: "org.freedesktop.DBus.Error.Failed", message: "\(error)")
        }
    }

    func failInvalidArguments(_ parameters: OpaquePointer, expected: [String]) {
        let actual = String(cString: g_variant_get_type_string(parameters))
        fail(
            name: "org.freedesktop.DBus.Error.InvalidArgs",
            message: "the arguments have the type '\(actual)', not '(\(expected.joined()))'")
    }

    private func failCommand<Failure: Error>(_ error: CommandError<Failure>) {
        switch error {
        case .disabled: fail(name: "org.tether.Error.CommandDisabled", message: "the command is disabled")
        case .failed(let failure): fail(failure)
        }
    }

    /// Replies with the first value of a command's execution, or its error.
    func follow<Output: GVariantConvertible, Failure: Error>(
        _ execution: Signal<Output, CommandError<Failure>>, method: String
    ) {
        execution.subscribe(
            next: { value in self.send(value, method: method) },
            error: { error in self.failCommand(error) },
            completed: { self.fail(name: "org.freedesktop.DBus.Error.Failed", message: "\(method) sent no value") })
    }

    /// Replies with nothing when a command's execution completes, or with its error.
    func followCompletion<Failure: Error>(_ execution: Signal<Void, CommandError<Failure>>) {
        execution.subscribe(error: { error in self.failCommand(error) }, completed: { self.sendNothing() })
    }
}
