import TetherEngine

/// A snapshot of live subscriptions as a graph: sources, operator stages (with their names) and
/// subscribers, with edges in the direction events flow. Made by ``TetherDebug/graph(matching:)``.
///
/// A subject or property that several subscriptions read appears once. ``text`` draws each subscription
/// as a tree, subscriber first; ``dot`` is Graphviz input (`dot -Tpng graph.dot -o graph.png`).
///
/// ```swift
/// TetherDebug.isEnabled = true
/// let username = Subject<String, Never>()
/// let subscription = username.named("login.username").map { $0.count > 3 }.subscribe(next: { _ in })
/// print(TetherDebug.graph().text)
/// // subscriber
/// // └─ …login.username.map — a main-actor module adds a .delivered stage above it
/// //    └─ login.username  [0 values]
/// subscription.dispose()
/// ```
public struct PipelineGraph: Sendable, CustomStringConvertible {
    /// One node: a source, an operator stage or a subscriber.
    ///
    /// ```swift
    /// let labels = TetherDebug.graph().nodes.map(\.label)
    /// ```
    public struct Node: Sendable, Hashable {
        /// What a node is.
        ///
        /// ```swift
        /// let subscribers = TetherDebug.graph().nodes.filter { $0.kind == .subscriber }
        /// ```
        public enum Kind: Sendable, Hashable {
            /// Where events start: a subject, a property, a recipe (`Signal { … }`), `Signal(values:)`.
            case source
            /// A stage made by an operator (`map`, `combineLatest`, …).
            case stage
            /// Who receives the events: `subscribe(next:…)`, a binding and its target.
            case subscriber
        }

        /// A stable identifier within this graph (also the DOT node name).
        public let id: String
        /// The name shown: the signal's name (`login.valid.map`) or the subscriber.
        public let label: String
        /// What the node is.
        public let kind: Kind
        /// How many values passed the node since its subscription started, for the nodes that record
        /// their events: named stages (``SignalConvertible/named(_:)``) and the sources of subjects and
        /// properties; `nil` for other stages and for subscribers.
        public let values: Int?
        /// The subscription the node belongs to (`0` for a source shared by several).
        public let subscription: Int
    }

    /// One edge: events flow from `from` to `to` (node ids).
    ///
    /// ```swift
    /// let edges = TetherDebug.graph().edges.map { "\($0.from) -> \($0.to)" }
    /// ```
    public struct Edge: Sendable, Hashable {
        /// The sending node's id.
        public let from: String
        /// The receiving node's id.
        public let to: String

        /// An edge from the node `from` to the node `to` (to look one up in ``PipelineGraph/edges``).
        ///
        /// ```swift
        /// let graph = TetherDebug.graph()
        /// let hasEdge = graph.edges.contains(PipelineGraph.Edge(from: "n1", to: "s1"))
        /// ```
        public init(from: String, to: String) {
            self.from = from
            self.to = to
        }
    }

    /// The nodes, in order of creation (sources first within a subscription).
    public let nodes: [Node]
    /// The edges.
    public let edges: [Edge]

    init(_ live: [LiveSubscriptionNode]) {
        var nodes: [Node] = []
        var edges: [Edge] = []
        var seen: Set<String> = []
        func id(of node: LiveSubscriptionNode) -> String {
            if let source = node.info.source, node.info.inputs.isEmpty {
                return "source\(UInt(bitPattern: source.hashValue))"
            }
            return "n\(node.id)"
        }
        for node in live {
            let nodeID = id(of: node)
            if seen.insert(nodeID).inserted {
                let isSource = node.info.inputs.isEmpty && node.info.source != nil
                nodes.append(
                    Node(
                        id: nodeID, label: node.info.label,
                        kind: node.info.inputs.isEmpty ? .source : .stage,
                        values: node.nextCount, subscription: isSource ? 0 : node.subscription))
            }
            if let downstream = node.downstream {
                edges.append(Edge(from: nodeID, to: id(of: downstream)))
            } else {
                let subscriberID = "s\(node.subscription)"
                nodes.append(
                    Node(
                        id: subscriberID, label: node.subscriber ?? "subscriber", kind: .subscriber, values: nil,
                        subscription: node.subscription))
                edges.append(Edge(from: nodeID, to: subscriberID))
            }
        }
        self.nodes = nodes
        self.edges = Array(Set(edges)).sorted { ($0.to, $0.from) < ($1.to, $1.from) }
    }

    /// Whether nothing is alive in the graph.
    ///
    /// ```swift
    /// let idle = TetherDebug.graph(matching: "login").isEmpty
    /// ```
    public var isEmpty: Bool { nodes.isEmpty }

    /// Each subscription as a tree, subscriber first, with the values that passed each stage that records
    /// them:
    ///
    /// ```text
    /// bind(\LoginForm.isLoginEnabled)
    /// └─ login.enabled  [2 values]
    ///    └─ combineLatest(login.usernameValid, login.passwordValid)
    ///       ├─ login.passwordValid  [1 value]
    ///       …
    /// ```
    ///
    /// ```swift
    /// print(TetherDebug.graph().text)
    /// ```
    public var text: String {
        if nodes.isEmpty { return "(nothing alive)\n" }
        let byID = Dictionary(nodes.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let position = Dictionary(
            nodes.enumerated().map { ($0.element.id, $0.offset) }, uniquingKeysWith: { first, _ in first })
        var inputs: [String: [String]] = [:]
        for edge in edges { inputs[edge.to, default: []].append(edge.from) }
        for key in inputs.keys { inputs[key]!.sort { position[$0, default: 0] < position[$1, default: 0] } }
        var lines: [String] = []
        func draw(_ id: String, _ prefix: String, _ isLast: Bool, _ isRoot: Bool) {
            guard let node = byID[id] else { return }
            let count = node.values.map { "  [\($0) value\($0 == 1 ? "" : "s")]" } ?? ""
            lines.append(isRoot ? node.label : prefix + (isLast ? "└─ " : "├─ ") + node.label + count)
            let children = inputs[id] ?? []
            let childPrefix = isRoot ? "" : prefix + (isLast ? "   " : "│  ")
            for (index, child) in children.enumerated() {
                draw(child, childPrefix, index == children.count - 1, false)
            }
        }
        for subscriber in nodes where subscriber.kind == .subscriber {
            draw(subscriber.id, "", true, true)
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The graph in Graphviz's DOT language: sources as ellipses, stages as boxes (bold, with the values
    /// that passed, where they record them), subscribers as double octagons; render with `dot -Tpng`.
    ///
    /// ```swift
    /// let dot = TetherDebug.graph().dot   // digraph tether { rankdir=LR; … }
    /// ```
    public var dot: String {
        var lines = ["digraph tether {", "  rankdir=LR;", "  node [fontname=\"Helvetica\", fontsize=11];"]
        for node in nodes {
            let shape: String
            let label: [String]
            switch node.kind {
            case .source:
                shape = "ellipse, style=filled, fillcolor=\"#dbeafe\""
                label = [node.label] + (node.values.map { ["\($0) sent"] } ?? [])
            case .stage:
                shape = node.values == nil ? "box, style=rounded" : "box, style=\"rounded,bold\""
                label = [node.label] + (node.values.map { ["\($0) value\($0 == 1 ? "" : "s")"] } ?? [])
            case .subscriber:
                shape = "doubleoctagon, style=filled, fillcolor=\"#dcfce7\""
                label = [node.label]
            }
            lines.append("  \(node.id) [label=\(dotLabel(label)), shape=\(shape)];")
        }
        for edge in edges { lines.append("  \(edge.from) -> \(edge.to);") }
        lines.append("}")
        return lines.joined(separator: "\n") + "\n"
    }

    /// The same as ``text``.
    ///
    /// ```swift
    /// print(TetherDebug.graph())
    /// ```
    public var description: String { text }
}

/// Lines as one DOT string literal: quotes and backslashes escaped, lines joined with `\n`.
private func dotLabel(_ lines: [String]) -> String {
    let escaped = lines.map { line in
        line.reduce(into: "") { result, character in
            if character == "\\" || character == "\"" { result.append("\\") }
            result.append(character)
        }
    }
    return "\"" + escaped.joined(separator: "\\n") + "\""
}
