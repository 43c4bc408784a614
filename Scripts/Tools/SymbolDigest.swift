// Reduces symbol graphs (from `swift-symbolgraph-extract`) to a sorted, line-per-declaration text,
// for Scripts/check-api.sh. Usage: SymbolDigest <module> <file.symbols.json>...
//
// One line per public symbol: `<path>  <declaration>`, with the constraints of the extension that
// declares it (`[where Value: Sendable]`), and one line per conformance. Synthesized members (the
// protocol's default implementations repeated on each conforming type) are left out: they change
// when the protocol does, which has its own lines.
import Foundation

struct DigestError: Error, CustomStringConvertible {
    let description: String
}

func text(_ fragments: Any?) -> String {
    guard let fragments = fragments as? [[String: Any]] else { return "" }
    return fragments.compactMap { $0["spelling"] as? String }.joined()
        .replacingOccurrences(of: "\n", with: " ")
}

func constraints(_ list: Any?) -> [String] {
    guard let list = list as? [[String: Any]] else { return [] }
    return list.compactMap { constraint in
        guard let lhs = constraint["lhs"] as? String, let rhs = constraint["rhs"] as? String else { return nil }
        switch constraint["kind"] as? String {
        case "sameType": return "\(lhs) == \(rhs)"
        case "superclass": return "\(lhs): \(rhs)"
        default: return "\(lhs): \(rhs)"
        }
    }
}

func digest(module: String, files: [String]) throws -> [String] {
    var lines = Set<String>()
    for file in files {
        let data = try Data(contentsOf: URL(fileURLWithPath: file))
        guard let graph = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw DigestError(description: "\(file): not a symbol graph")
        }
        // `Module@Other.symbols.json` holds extensions of Other's types: prefix their paths.
        let base = URL(fileURLWithPath: file).lastPathComponent
        let extended: String? =
            base.contains("@")
            ? String(base.split(separator: "@")[1].split(separator: ".")[0]) : nil
        var paths: [String: String] = [:]
        for case let symbol as [String: Any] in graph["symbols"] as? [Any] ?? [] {
            guard let identifier = (symbol["identifier"] as? [String: Any])?["precise"] as? String,
                !identifier.contains("::SYNTHESIZED::")
            else { continue }
            var path = (symbol["pathComponents"] as? [String] ?? []).joined(separator: ".")
            if let extended { path = "\(extended).\(path)" }
            paths[identifier] = path
            let kind = ((symbol["kind"] as? [String: Any])?["identifier"] as? String ?? "?")
                .replacingOccurrences(of: "swift.", with: "")
            var line = "\(path)  [\(kind)]  \(text(symbol["declarationFragments"]))"
            let context = constraints((symbol["swiftExtension"] as? [String: Any])?["constraints"])
            if !context.isEmpty { line += "  [extension where \(context.joined(separator: ", "))]" }
            lines.insert(line)
        }
        for case let relationship as [String: Any] in graph["relationships"] as? [Any] ?? [] {
            guard relationship["kind"] as? String == "conformsTo" || relationship["kind"] as? String == "inheritsFrom",
                let source = relationship["source"] as? String, let path = paths[source]
            else { continue }
            let target =
                relationship["targetFallback"] as? String
                ?? (relationship["target"] as? String).map { paths[$0] ?? $0 } ?? "?"
            var line = "\(path)  [\(relationship["kind"] as? String ?? "")]  \(target)"
            let relationshipConstraints = constraints(relationship["swiftConstraints"])
            if !relationshipConstraints.isEmpty {
                line += "  [where \(relationshipConstraints.joined(separator: ", "))]"
            }
            lines.insert(line)
        }
    }
    return lines.sorted()
}

let arguments = CommandLine.arguments.dropFirst()
guard let module = arguments.first, arguments.count >= 2 else {
    FileHandle.standardError.write(Data("usage: SymbolDigest <module> <file.symbols.json>...\n".utf8))
    exit(2)
}
do {
    let lines = try digest(module: module, files: Array(arguments.dropFirst()))
    print("# Public API of \(module) (Scripts/check-api.sh --update rewrites this file)")
    for line in lines { print(line) }
} catch {
    FileHandle.standardError.write(Data("SymbolDigest: \(error)\n".utf8))
    exit(1)
}
