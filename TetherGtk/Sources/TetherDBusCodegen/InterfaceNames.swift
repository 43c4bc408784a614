/// The Swift names chosen for one interface and its members: unique within their scopes, Swift keywords
/// escaped, each beside the D-Bus name it stands for.
struct InterfaceNames {
    struct Property {
        let description: DBusPropertyDescription
        let name: String
        let type: String
        /// `setX`, `bindX` for a writable property.
        let setter: String?
        let binder: String?
    }

    struct Argument {
        let description: DBusArgumentDescription
        let name: String
        let type: String
    }

    struct Method {
        let description: DBusMethodDescription
        let name: String
        let command: String
        let inputs: [Argument]
        let outputs: [Argument]
    }

    struct SignalNames {
        let description: DBusSignalDescription
        let name: String
        /// The nested struct of its arguments (`nil` for a signal without arguments: `Void`).
        let argumentsType: String?
        let arguments: [Argument]
    }

    let interface: DBusInterfaceDescription
    let typeName: String
    let serviceName: String
    let properties: [Property]
    let methods: [Method]
    let signals: [SignalNames]

    /// Names for `interface`, whose client type and service protocol names are claimed in `types`.
    init(_ interface: DBusInterfaceDescription, types: inout NameScope) throws(DBusCodegenError) {
        self.interface = interface
        typeName = types.claim(SwiftNaming.typeName(interface: interface.name), orWith: "Interface")
        serviceName = types.claim(typeName + "Service", orWith: "Protocol")
        var members = NameScope(reserved: ["remote", "interfaceName", "export", "init"])
        var nested = NameScope(reserved: SwiftNaming.reservedTypeNames.union([typeName, serviceName]))
        var properties: [Property] = []
        for property in interface.properties {
            let base = SwiftNaming.lowerCamel(property.name)
            let name = members.claim(base, orWith: "Property")
            let upper = Self.upperFirst(name)
            properties.append(
                Property(
                    description: property, name: SwiftNaming.identifier(name),
                    type: try property.type.swiftType(member: property.name),
                    setter: property.access.isWritable ? members.claim("set" + upper, orWith: "Property") : nil,
                    binder: property.access.isWritable ? members.claim("bind" + upper, orWith: "Property") : nil))
        }
        var methods: [Method] = []
        for method in interface.methods {
            let name = members.claim(SwiftNaming.lowerCamel(method.name), orWith: "Method")
            let command = members.claim(name + "Command", orWith: "")
            var arguments = NameScope(reserved: ["self"])
            let inputs = try Self.arguments(method.inputs, member: method.name, scope: &arguments, prefix: "argument")
            var replies = NameScope()
            let outputs = try Self.arguments(method.outputs, member: method.name, scope: &replies, prefix: "value")
            methods.append(
                Method(
                    description: method, name: SwiftNaming.identifier(name), command: command, inputs: inputs,
                    outputs: outputs))
        }
        var signals: [SignalNames] = []
        for signal in interface.signals {
            let name = members.claim(SwiftNaming.lowerCamel(signal.name), orWith: "Signal")
            var fields = NameScope(reserved: ["init"])
            let arguments = try Self.arguments(
                signal.arguments, member: signal.name, scope: &fields, prefix: "argument")
            let argumentsType =
                arguments.isEmpty ? nil : nested.claim(SwiftNaming.upperCamel(signal.name), orWith: "Arguments")
            signals.append(
                SignalNames(
                    description: signal, name: SwiftNaming.identifier(name),
                    argumentsType: argumentsType.map(SwiftNaming.identifier), arguments: arguments))
        }
        self.properties = properties
        self.methods = methods
        self.signals = signals
    }

    private static func arguments(
        _ descriptions: [DBusArgumentDescription], member: String, scope: inout NameScope, prefix: String
    ) throws(DBusCodegenError) -> [Argument] {
        var result: [Argument] = []
        for (index, description) in descriptions.enumerated() {
            let base = description.name.map(SwiftNaming.lowerCamel) ?? "\(prefix)\(index)"
            let name = scope.claim(base, orWith: "\(index)")
            result.append(
                Argument(
                    description: description, name: SwiftNaming.identifier(name),
                    type: try description.type.swiftType(member: member)))
        }
        return result
    }

    private static func upperFirst(_ name: String) -> String {
        guard let first = name.first else { return name }
        return first.uppercased() + name.dropFirst()
    }
}
