import Foundation
import XCTest

/// `tether-demo --graph` and `--trace`: the login view model as a named graph and as a trace.
final class DemoDebuggingTests: XCTestCase {
    private func temporaryFile(_ name: String) -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("tether-demo-\(UUID())-\(name)")
    }

    func testTheGraphShowsTheLoginViewModelsNamedPipelinesAndBindings() throws {
        let text = temporaryFile("graph.txt")
        let dot = temporaryFile("graph.dot")
        defer {
            try? FileManager.default.removeItem(at: text)
            try? FileManager.default.removeItem(at: dot)
        }
        let script = "type tether\nkey tab\ntype pass"
        XCTAssertEqual(try DemoProcess.run(script: script, arguments: ["--graph", text.path]).status, 0)
        XCTAssertEqual(try DemoProcess.run(script: script, arguments: ["--graph", dot.path]).status, 0)
        let graph = try String(contentsOf: text, encoding: .utf8)
        XCTAssertTrue(graph.contains("bind(\\LoginForm.usernameTint)\n└─ login.usernameValid.map"), graph)
        XCTAssertTrue(graph.contains("└─ login.enabled  ["), graph)
        XCTAssertTrue(graph.contains("combineLatest(login.usernameValid, login.passwordValid)"), graph)
        XCTAssertTrue(graph.contains("└─ login.username  [7 values]"), "the initial value and 6 keystrokes\n\(graph)")
        let digraph = try String(contentsOf: dot, encoding: .utf8)
        XCTAssertTrue(digraph.hasPrefix("digraph tether {"), digraph)
        XCTAssertTrue(digraph.contains("label=\"login.enabled\\n"), digraph)
    }

    func testTheTraceIsChromeTraceJSONOfTheLoginPipelines() throws {
        let trace = temporaryFile("trace.json")
        defer { try? FileManager.default.removeItem(at: trace) }
        let result = try DemoProcess.run(script: "type tether\nkey tab\ntype pass", arguments: ["--trace", trace.path])
        XCTAssertEqual(result.status, 0, result.errors)
        let root = try XCTUnwrap(
            try JSONSerialization.jsonObject(with: Data(contentsOf: trace)) as? [String: Any])
        let events = try XCTUnwrap(root["traceEvents"] as? [[String: Any]])
        let slices = events.filter { $0["ph"] as? String == "X" }.compactMap { $0["name"] as? String }
        XCTAssertEqual(
            slices.filter { $0 == "login.username" }.count, 14,
            "two subscriptions (the tint's binding, login.enabled) × (the initial value and 6 keystrokes)")
        XCTAssertTrue(slices.contains("login.enabled"))
        XCTAssertTrue(
            events.contains {
                $0["ph"] as? String == "M" && ($0["args"] as? [String: Any])?["name"] as? String == "main"
            })
    }
}
