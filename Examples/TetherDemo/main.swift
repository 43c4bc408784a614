import Foundation
import Observable

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

// tether-demo: the login form and live search of the ReactiveCocoa tutorials, built with Tether. See `Options.usage`.

func fail(_ message: String, status: Int32) -> Never {
    FileHandle.standardError.write(Data("tether-demo: \(message)\n".utf8))
    exit(status)
}

func runScript(_ text: String, size: TerminalSize, graph: String? = nil, trace: String? = nil) -> Never {
    let script: Script
    do {
        script = try Script(parsing: text)
    } catch {
        fail(error.description, status: 2)
    }
    let runner = ScriptRunner(script: script, size: size)
    if trace != nil { TetherDebug.startTrace() }
    if graph != nil { TetherDebug.isEnabled = true }
    let status = runner.run(
        write: { Terminal.output($0) },
        report: { FileHandle.standardError.write(Data("\($0)\n".utf8)) },
        finish: { writeDebugOutput(graph: graph, trace: trace) })
    exit(status)
}

/// Writes what `--graph` and `--trace` asked for; called while the app is still alive.
func writeDebugOutput(graph path: String?, trace: String?) {
    do {
        if let path {
            let graph = TetherDebug.graph(matching: "login")
            let text = path.hasSuffix(".txt") ? graph.text : graph.dot
            try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        }
        if let path = trace {
            try TetherDebug.stopTrace(to: URL(fileURLWithPath: path))
        }
    } catch {
        fail("cannot write the debugging output: \(error)", status: 2)
    }
}

let options: Options
do {
    options = try Options(parsing: Array(CommandLine.arguments.dropFirst()))
} catch {
    fail("\(error.description)\n\n\(Options.usage)", status: 2)
}

if options.help {
    print(Options.usage)
    exit(0)
}

let scriptSize = options.size ?? .standard
if let path = options.script {
    let data = path == "-" ? FileHandle.standardInput.readDataToEndOfFile() : FileManager.default.contents(atPath: path)
    guard let data else { fail("cannot read the script \(path)", status: 2) }
    guard let text = String(data: data, encoding: .utf8) else { fail("the script \(path) is not UTF-8", status: 2) }
    runScript(text, size: scriptSize, graph: options.graph, trace: options.trace)
}

if Terminal.inputIsTerminal && Terminal.outputIsTerminal {
    TerminalRunner.run()
}

// No terminal: standard input's lines are the script, or the tour when there are none.
let input = Terminal.inputIsTerminal ? Data() : FileHandle.standardInput.readDataToEndOfFile()
let text = String(decoding: input, as: UTF8.self)
runScript(
    text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty ? Tour.script : text, size: scriptSize,
    graph: options.graph, trace: options.trace)
