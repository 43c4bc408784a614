// Checks that every public symbol of a module has a doc comment and a DocC page, for
// Scripts/check-doc-coverage.sh. Usage: DocCoverage <module> <linkable-entities.json> <file.symbols.json>...
//
// The symbol graphs are the ones Scripts/build-docs.sh gave docc (public, no synthesized members,
// with extension blocks); linkable-entities.json is the digest docc wrote next to the archive (one
// entry per page, with the symbol's USR). A symbol fails when
// - it has no `///` comment of its own module (a comment inherited from a protocol of another
//   module, e.g. the standard library's `description`, does not count), or
// - no page carries its USR (docc dropped it: before extension blocks were extracted, every member
//   declared on another module's type was dropped this way without a warning).
// Extension blocks themselves (`extension NotificationCenter`) need no comment: their page lists
// the members. Prints one line per offender and exits 1 when there is any.
import Foundation

struct CoverageError: Error, CustomStringConvertible {
    let description: String
}

func json(_ path: String) throws -> Any {
    let data = try Data(contentsOf: URL(fileURLWithPath: path))
    return try JSONSerialization.jsonObject(with: data)
}

func check(module: String, entities: String, graphs: [String]) throws -> [String] {
    guard let pages = try json(entities) as? [[String: Any]] else {
        throw CoverageError(description: "\(entities): not a docc digest")
    }
    let documented = Set(pages.compactMap { $0["usr"] as? String })
    var offenders: [String] = []
    var checked = 0
    for file in graphs {
        guard let graph = try json(file) as? [String: Any] else {
            throw CoverageError(description: "\(file): not a symbol graph")
        }
        // `Module@Other.symbols.json` holds extensions of Other's types: name them `Other.Type.member`.
        let base = URL(fileURLWithPath: file).lastPathComponent
        let extended = base.contains("@") ? String(base.split(separator: "@")[1].split(separator: ".")[0]) + "." : ""
        for case let symbol as [String: Any] in graph["symbols"] as? [Any] ?? [] {
            guard let usr = (symbol["identifier"] as? [String: Any])?["precise"] as? String,
                !usr.contains("::SYNTHESIZED::")
            else { continue }
            let kind = (symbol["kind"] as? [String: Any])?["identifier"] as? String ?? "?"
            if kind == "swift.extension" { continue }
            checked += 1
            let path = extended + (symbol["pathComponents"] as? [String] ?? []).joined(separator: ".")
            var location = ""
            if let place = symbol["location"] as? [String: Any], let uri = place["uri"] as? String {
                var file = uri.hasPrefix("file://") ? String(uri.dropFirst(7)) : uri
                if let range = file.range(of: "/Sources/") { file = "Sources/" + file[range.upperBound...] }
                let line = ((place["position"] as? [String: Any])?["line"] as? Int).map { $0 + 1 } ?? 0
                location = "\(file):\(line): "
            }
            var problems: [String] = []
            let comment = symbol["docComment"] as? [String: Any]
            let lines = (comment?["lines"] as? [[String: Any]] ?? []).compactMap { $0["text"] as? String }
            let ownModule = (comment?["module"] as? String).map { $0 == module } ?? true
            if !ownModule || lines.allSatisfy({ $0.trimmingCharacters(in: .whitespaces).isEmpty }) {
                problems.append("no doc comment")
            }
            if !documented.contains(usr) { problems.append("no DocC page") }
            if !problems.isEmpty {
                offenders.append("\(location)\(module): \(path) [\(kind)]: \(problems.joined(separator: ", "))")
            }
        }
    }
    if checked == 0 { throw CoverageError(description: "\(module): the symbol graphs hold no symbol") }
    return offenders.sorted()
}

let arguments = CommandLine.arguments
guard arguments.count >= 4 else {
    FileHandle.standardError.write(Data("usage: DocCoverage <module> <linkable-entities.json> <file.symbols.json>...\n".utf8))
    exit(2)
}
do {
    let offenders = try check(module: arguments[1], entities: arguments[2], graphs: Array(arguments[3...]))
    for line in offenders { print(line) }
    exit(offenders.isEmpty ? 0 : 1)
} catch {
    FileHandle.standardError.write(Data("error: \(error)\n".utf8))
    exit(2)
}
