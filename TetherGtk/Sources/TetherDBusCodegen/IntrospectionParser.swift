import Foundation

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// Reads introspection XML (the D-Bus specification's format, as `Introspect()` replies and as
/// `/usr/share/dbus-1/interfaces/*.xml` hold it) into interface descriptions, with FoundationXML's parser.
/// External entities and DTDs are not fetched.
final class IntrospectionParser: NSObject, XMLParserDelegate {
    private var interfaces: [DBusInterfaceDescription] = []
    private var failure: DBusCodegenError?
    /// The names of the open elements, outermost first.
    private var elements: [String] = []
    private var interface: DBusInterfaceDescription?
    private var method: DBusMethodDescription?
    private var signal: DBusSignalDescription?
    private var property: DBusPropertyDescription?
    private var argument: (description: DBusArgumentDescription, isOutput: Bool)?
    /// The text of the XML comment just before the current element, for its documentation.
    private var pendingComment: String?
    /// The documentation element being read: its depth in `elements`, and its paragraphs so far.
    private var documentation: (depth: Int, paragraphs: [String], current: String)?
    /// The root element's name, once it started.
    private var root: String?

    /// The interfaces of `xml`'s root node, in document order.
    static func parse(_ xml: Data) throws(DBusCodegenError) -> [DBusInterfaceDescription] {
        let delegate = IntrospectionParser()
        let parser = XMLParser(data: xml)
        parser.shouldResolveExternalEntities = false
        parser.shouldProcessNamespaces = false
        parser.delegate = delegate
        let parsed = parser.parse()
        if let failure = delegate.failure { throw failure }
        guard parsed else {
            let message = parser.parserError.map { "\($0.localizedDescription)" } ?? "the XML parser stopped"
            throw .malformedXML(line: parser.lineNumber, message: message)
        }
        guard let root = delegate.root else {
            throw .malformedXML(line: max(parser.lineNumber, 1), message: "there is no root element")
        }
        guard root == "node" else {
            throw .malformedXML(line: 1, message: "the root element is <\(root)>, not <node>")
        }
        guard delegate.elements.isEmpty else {
            throw .malformedXML(
                line: parser.lineNumber, message: "the document ends inside <\(delegate.elements.last!)>")
        }
        return delegate.interfaces
    }

    private func fail(_ error: DBusCodegenError, _ parser: XMLParser) {
        if failure == nil { failure = error }
        parser.abortParsing()
    }

    // MARK: elements

    func parser(
        _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName: String?,
        attributes: [String: String] = [:]
    ) {
        defer { elements.append(elementName) }
        if root == nil { root = elementName }
        let comment = pendingComment
        pendingComment = nil
        if documentation != nil {
            if Self.isParagraph(elementName) { breakParagraph() }
            return
        }
        if Self.isDocumentation(elementName) {
            documentation = (elements.count, [], "")
            return
        }
        do throws(DBusCodegenError) {
            try start(elementName, attributes, comment: comment)
        } catch {
            fail(error, parser)
        }
    }

    private func start(_ element: String, _ attributes: [String: String], comment: String?) throws(DBusCodegenError) {
        // Only the root node's interfaces are read (a nested <node> describes a child object).
        let parent = elements.last
        switch element {
        case "node":
            return
        case "interface" where parent == "node" && elements.count == 1:
            let name = try Self.attribute("name", of: element, attributes)
            try DBusNames.checkInterface(name)
            guard !interfaces.contains(where: { $0.name == name }) else {
                throw .duplicateName(kind: "interface", name: name)
            }
            interface = DBusInterfaceDescription(name: name)
            interface?.documentation = Self.cleanComment(comment, name: name)
        case "method" where parent == "interface" && interface != nil:
            let name = try member(attributes, element)
            guard !interface!.methods.contains(where: { $0.name == name }) else {
                throw .duplicateName(kind: "method", name: name)
            }
            method = DBusMethodDescription(name: name, documentation: Self.cleanComment(comment, name: name))
        case "signal" where parent == "interface" && interface != nil:
            let name = try member(attributes, element)
            guard !interface!.signals.contains(where: { $0.name == name }) else {
                throw .duplicateName(kind: "signal", name: name)
            }
            signal = DBusSignalDescription(name: name, documentation: Self.cleanComment(comment, name: name))
        case "property" where parent == "interface" && interface != nil:
            let name = try member(attributes, element)
            guard !interface!.properties.contains(where: { $0.name == name }) else {
                throw .duplicateName(kind: "property", name: name)
            }
            let type = try DBusType(signature: try Self.attribute("type", of: element, attributes), member: name)
            let accessText = try Self.attribute("access", of: element, attributes)
            guard let access = DBusPropertyDescription.Access(rawValue: accessText) else {
                throw .invalidAccess(property: name, access: accessText)
            }
            property = DBusPropertyDescription(
                name: name, type: type, access: access, documentation: Self.cleanComment(comment, name: name))
        case "arg" where method != nil || signal != nil:
            let owner = method?.name ?? signal!.name
            let type = try DBusType(signature: try Self.attribute("type", of: element, attributes), member: owner)
            let direction = attributes["direction"] ?? (method != nil ? "in" : "out")
            guard direction == "out" || (direction == "in" && method != nil) else {
                throw .invalidDirection(member: owner, direction: direction)
            }
            let name = attributes["name"].flatMap { $0.isEmpty ? nil : $0 }
            argument = (
                DBusArgumentDescription(name: name, type: type, documentation: Self.cleanComment(comment, name: name)),
                direction == "out"
            )
        case "annotation":
            let name = try Self.attribute("name", of: element, attributes)
            let value = attributes["value"] ?? ""
            if property != nil, parent == "property" {
                property!.annotations[name] = value
            } else if method != nil, parent == "method" {
                method!.annotations[name] = value
            } else if signal != nil, parent == "signal" {
                signal!.annotations[name] = value
            } else if interface != nil, parent == "interface" {
                interface!.annotations[name] = value
            }
        default:
            return
        }
    }

    private func member(_ attributes: [String: String], _ element: String) throws(DBusCodegenError) -> String {
        let name = try Self.attribute("name", of: element, attributes)
        try DBusNames.checkMember(name)
        return name
    }

    func parser(
        _ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?
    ) {
        elements.removeLast()
        pendingComment = nil
        if let reading = documentation {
            if reading.depth == elements.count {
                documentation = nil
                attach(Self.joined(reading.paragraphs + [reading.current]))
            } else if Self.isParagraph(elementName) {
                breakParagraph()
            }
            return
        }
        do throws(DBusCodegenError) {
            try end(elementName)
        } catch {
            fail(error, parser)
        }
    }

    private func end(_ element: String) throws(DBusCodegenError) {
        switch element {
        case "arg" where argument != nil:
            let (description, isOutput) = argument!
            argument = nil
            if method != nil {
                if isOutput { method!.outputs.append(description) } else { method!.inputs.append(description) }
            } else {
                signal?.arguments.append(description)
            }
        case "method" where method != nil:
            interface?.methods.append(method!)
            method = nil
        case "signal" where signal != nil:
            interface?.signals.append(signal!)
            signal = nil
        case "property" where property != nil:
            interface?.properties.append(property!)
            property = nil
        case "interface" where interface != nil:
            var finished = interface!
            interface = nil
            try Self.resolveChanges(&finished)
            interfaces.append(finished)
        default:
            return
        }
    }

    /// Sets each property's ``DBusPropertyDescription/changes`` from its annotation, else its interface's.
    private static func resolveChanges(_ interface: inout DBusInterfaceDescription) throws(DBusCodegenError) {
        let key = "org.freedesktop.DBus.Property.EmitsChangedSignal"
        var fallback = DBusPropertyDescription.Changes.emitted
        if let value = interface.annotations[key] {
            guard let changes = DBusPropertyDescription.Changes(rawValue: value) else {
                throw .invalidAnnotation(member: interface.name, name: key, value: value)
            }
            fallback = changes
        }
        for index in interface.properties.indices {
            guard let value = interface.properties[index].annotations[key] else {
                interface.properties[index].changes = fallback
                continue
            }
            guard let changes = DBusPropertyDescription.Changes(rawValue: value) else {
                throw .invalidAnnotation(member: interface.properties[index].name, name: key, value: value)
            }
            interface.properties[index].changes = changes
        }
    }

    // MARK: documentation

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        documentation?.current += string
    }

    func parser(_ parser: XMLParser, foundCDATA block: Data) {
        documentation?.current += String(decoding: block, as: UTF8.self)
    }

    func parser(_ parser: XMLParser, foundComment comment: String) {
        if documentation == nil { pendingComment = comment }
    }

    func parser(_ parser: XMLParser, parseErrorOccurred parseError: any Error) {
        if failure == nil {
            failure = .malformedXML(line: parser.lineNumber, message: "\(parseError.localizedDescription)")
        }
    }

    private func breakParagraph() {
        guard documentation != nil else { return }
        documentation!.paragraphs.append(documentation!.current)
        documentation!.current = ""
    }

    /// Gives the documentation just read to the innermost element being described.
    private func attach(_ text: String?) {
        guard let text else { return }
        if argument != nil {
            argument!.description.documentation = text
        } else if property != nil {
            property!.documentation = text
        } else if method != nil {
            method!.documentation = text
        } else if signal != nil {
            signal!.documentation = text
        } else if interface != nil {
            interface!.documentation = text
        }
    }

    private static func isDocumentation(_ element: String) -> Bool {
        element == "doc" || element.hasSuffix(":doc") || element == "tp:docstring"
    }

    private static func isParagraph(_ element: String) -> Bool {
        let local = element.split(separator: ":").last.map(String.init) ?? element
        return ["para", "summary", "description", "item", "term", "definition", "example", "code", "p", "list"]
            .contains(local)
    }

    /// Paragraphs with their whitespace collapsed, separated by blank lines; `nil` when there is no text.
    private static func joined(_ paragraphs: [String]) -> String? {
        let cleaned = paragraphs.map { paragraph in
            paragraph.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
        }.filter { !$0.isEmpty }
        return cleaned.isEmpty ? nil : cleaned.joined(separator: "\n\n")
    }

    /// An XML comment as documentation: its lines trimmed, a first line that only names the element
    /// (`Percentage:`) dropped, decorative lines (`*****`) dropped; `nil` when nothing is left.
    static func cleanComment(_ comment: String?, name: String?) -> String? {
        guard let comment else { return nil }
        var lines = comment.split(separator: "\n", omittingEmptySubsequences: false).map {
            $0.trimmingCharacters(in: .whitespaces)
        }
        lines = lines.filter { line in line.isEmpty || line.contains(where: { $0.isLetter || $0.isNumber }) }
        while lines.first?.isEmpty == true { lines.removeFirst() }
        if let first = lines.first, let name, first == name + ":" { lines.removeFirst() }
        var paragraphs: [String] = []
        var current: [String] = []
        for line in lines {
            if line.isEmpty {
                if !current.isEmpty { paragraphs.append(current.joined(separator: " ")) }
                current = []
            } else {
                current.append(line)
            }
        }
        if !current.isEmpty { paragraphs.append(current.joined(separator: " ")) }
        return paragraphs.isEmpty ? nil : paragraphs.joined(separator: "\n\n")
    }

    private static func attribute(_ name: String, of element: String, _ attributes: [String: String])
        throws(DBusCodegenError) -> String
    {
        guard let value = attributes[name] else { throw .missingAttribute(element: element, attribute: name) }
        return value
    }
}
