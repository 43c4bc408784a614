/// Why introspection XML could not be turned into Swift — each names the place, so that a bad file or a
/// service's odd reply is a message, never a crash.
///
/// ```swift
/// do {
///     _ = try DBusCodegen.swiftSource(forIntrospection: "<node><interface name='a.b'>")
/// } catch {
///     print(error)   // the introspection XML is malformed (line 1): …
/// }
/// ```
public enum DBusCodegenError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The text is not well-formed XML (`line` is where the parser stopped).
    case malformedXML(line: Int, message: String)
    /// An element lacks an attribute it needs (`<arg>` without `type`, `<property>` without `access`).
    case missingAttribute(element: String, attribute: String)
    /// A name (`kind`: interface, member, argument) is not a valid D-Bus name.
    case invalidName(kind: String, name: String)
    /// A type signature is malformed or holds an unknown type code: `member` is where, `reason` what.
    case invalidType(member: String, signature: String, reason: String)
    /// A valid D-Bus type that the generated code cannot carry yet (`h`, a file descriptor; `g`, a signature).
    case unsupportedType(member: String, signature: String)
    /// A property's `access` is not `read`, `write` or `readwrite`.
    case invalidAccess(property: String, access: String)
    /// An `<arg>`'s `direction` is neither `in` nor `out` (a signal's arguments may only be `out`).
    case invalidDirection(member: String, direction: String)
    /// An annotation's value is not one the annotation allows (`EmitsChangedSignal` other than `true`,
    /// `invalidates`, `const`, `false`).
    case invalidAnnotation(member: String, name: String, value: String)
    /// Two members of one interface (or two interfaces of one document) have the same D-Bus name.
    case duplicateName(kind: String, name: String)

    /// A sentence naming what is wrong and where.
    ///
    /// ```swift
    /// print(DBusCodegenError.unsupportedType(member: "Fd", signature: "h"))
    /// ```
    public var description: String {
        switch self {
        case .malformedXML(let line, let message): "the introspection XML is malformed (line \(line)): \(message)"
        case .missingAttribute(let element, let attribute): "<\(element)> has no '\(attribute)' attribute"
        case .invalidName(let kind, let name): "'\(name)' is not a valid D-Bus \(kind) name"
        case .invalidType(let member, let signature, let reason):
            "\(member): '\(signature)' is not a D-Bus type: \(reason)"
        case .unsupportedType(let member, let signature):
            "\(member): the D-Bus type '\(signature)' is not supported by the generated code yet"
        case .invalidAccess(let property, let access):
            "property \(property): access '\(access)' is none of read, write, readwrite"
        case .invalidDirection(let member, let direction):
            "\(member): argument direction '\(direction)' is neither in nor out"
        case .invalidAnnotation(let member, let name, let value): "\(member): \(name) cannot be '\(value)'"
        case .duplicateName(let kind, let name): "two \(kind)s are named '\(name)'"
        }
    }
}
