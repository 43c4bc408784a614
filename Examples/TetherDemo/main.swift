import Foundation

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

func runScript(_ text: String, size: TerminalSize) -> Never {
    let script: Script
    do {
        script = try Script(parsing: text)
    } catch {
        fail(error.description, status: 2)
    }
    let runner = ScriptRunner(script: script, size: size)
    let status = runner.run(
        write: { Terminal.output($0) },
        report: { FileHandle.standardError.write(Data("\($0)\n".utf8)) })
    exit(status)
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
    runScript(text, size: scriptSize)
}

if Terminal.inputIsTerminal && Terminal.outputIsTerminal {
    TerminalRunner.run()
}

// No terminal: standard input's lines are the script, or the tour when there are none.
let input = Terminal.inputIsTerminal ? Data() : FileHandle.standardInput.readDataToEndOfFile()
let text = String(decoding: input, as: UTF8.self)
runScript(text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty ? Tour.script : text, size: scriptSize)
