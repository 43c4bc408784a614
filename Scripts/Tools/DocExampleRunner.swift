// Runs the documentation's examples, for Scripts/run-doc-examples.sh: module DocExampleSupport, compiled
// without default isolation and linked with one module per example source (README.md, each article,
// each library module's doc comments, Tests/ExampleRuns) and a generated entry point that calls
// `DocExampleRunner.main(_:)` from an `async` `main` — so the runtime drives the main queue, and
// examples using `QueueScheduler.main` or `ActorScheduler.main` can complete.
//
// Each example runs inside an XCTest test case (on a thread of its own, as XCTest runs an async test:
// the example in a Task, the thread waiting), so its `XCTAssert…` failures and a thrown error are
// recorded; then a short settle step lets the main-queue work it left run. A watchdog turns an example
// (with its settle step) that does not finish within the timeout into a failure that names it and ends
// the process; the script starts the runner again after it. The runner reports on stderr, one line per
// event, each starting with "@@docrun ":
//
//   @@docrun START <index> <file>:<line>
//   @@docrun PASS <index> <file>:<line>
//   @@docrun FAIL <index> <file>:<line>: <what failed>   (one line per failure)
//   @@docrun SKIP <index> <file>:<line>: <reason>         (marked `compile-only`)
//   @@docrun HANG <index> <file>:<line>: <seconds>        (then the process exits with status 124)
//   @@docrun DONE
//
// A START without its PASS or FAIL is an example that ended the process (a trap).
//
// Options: --list, --from <index>, --only <index>, --timeout <seconds> (default 20),
// --settle <milliseconds> (default 20); --swift-testing runs the `@Test` functions examples declare instead
// (Swift Testing's own entry point and output).
import Dispatch
import Foundation
import Testing
import XCTest

/// One example: where it is written, and how to run it (or why it is not run).
public struct DocExample: Sendable {
    /// The Markdown or Swift file the example is written in.
    public let file: String
    /// The example's first line in `file`.
    public let line: Int
    /// Why the example is only compiled, for a block marked `<!-- example: compile-only: why -->`.
    public let compileOnly: String?
    /// The example.
    public let body: (@Sendable () async throws -> Void)?
    /// For a `test…` method of an `XCTestCase` subclass that an example declares: the test case to run.
    public let testCase: (@Sendable () -> XCTestCase)?

    /// An example that runs `body`.
    public init(file: String, line: Int, _ body: @escaping @Sendable () async throws -> Void) {
        self.file = file
        self.line = line
        self.compileOnly = nil
        self.body = body
        self.testCase = nil
    }

    /// A test method of an `XCTestCase` subclass declared by an example, run as XCTest runs it (set-up,
    /// the method, tear-down).
    public init(file: String, line: Int, testCase: @escaping @Sendable () -> XCTestCase) {
        self.file = file
        self.line = line
        self.compileOnly = nil
        self.body = nil
        self.testCase = testCase
    }

    /// An example that is compiled only, for `reason`.
    public init(file: String, line: Int, compileOnly reason: String) {
        self.file = file
        self.line = line
        self.compileOnly = reason
        self.body = nil
        self.testCase = nil
    }

    var location: String { "\(file):\(line)" }
}

/// Waits until `condition` holds, checking it on the main actor every 2 ms (the main queue runs in
/// between) — for a check whose values arrive from other threads. The watchdog ends a wait that never ends.
@MainActor
public func waitUntil(_ condition: @MainActor () -> Bool) async {
    while !condition() {
        try? await Task.sleep(for: .milliseconds(2))
    }
}

/// Marks the main queue, for `isOnMainQueue()`.
private let mainQueueKey = DispatchSpecificKey<Bool>()

/// Whether the caller runs on the main queue — where the main actor runs (on Linux after `dispatchMain()`,
/// which an async `main` calls, not necessarily on the main thread). Unlike `dispatchPrecondition`, it
/// does not trap: a check can count the callbacks that run elsewhere.
public func isOnMainQueue() -> Bool {
    DispatchQueue.getSpecific(key: mainQueueKey) == true
}

/// Runs examples and reports on them; see the comment at the top of this file.
public enum DocExampleRunner {
    /// Runs the examples of `groups` (one group per source) selected by the command line, then exits.
    public static func main(_ groups: [[DocExample]]) async -> Never {
        let examples = groups.flatMap { $0 }
        var options = Options()
        do {
            options = try Options(CommandLine.arguments.dropFirst())
        } catch {
            report("usage: \(error)")
            exit(2)
        }
        if options.swiftTesting {
            // The `@Test` functions that examples declare (in top-level blocks), run by Swift Testing as
            // `swift test` runs them.
            exit(await Testing.__swiftPMEntryPoint() as CInt)
        }
        if options.list {
            for (index, example) in examples.enumerated() { print(index, example.location) }
            exit(0)
        }
        XCTestObservationCenter.shared.addTestObserver(failures)
        DispatchQueue.main.setSpecific(key: mainQueueKey, value: true)
        let watchdog = Watchdog(timeout: options.timeout)
        let range = options.only.map { $0...$0 } ?? options.from...max(options.from, examples.count - 1)
        for index in range where examples.indices.contains(index) {
            let example = examples[index]
            if let reason = example.compileOnly {
                report("SKIP \(index) \(example.location): \(reason)")
                continue
            }
            report("START \(index) \(example.location)")
            watchdog.arm(index: index, location: example.location)
            if let body = example.body {
                await runInTestCase { try asyncTest { (_: DocExampleCase) in body }($0 as! DocExampleCase)() }
            } else if let testCase = example.testCase {
                await runOnMainThread(testCase)
            }
            await settle(milliseconds: options.settle)
            watchdog.disarm()
            let failed = failures.take()
            if failed.isEmpty {
                report("PASS \(index) \(example.location)")
            } else {
                for failure in failed { report("FAIL \(index) \(example.location): \(failure)") }
            }
        }
        report("DONE")
        exit(0)
    }

    /// Runs `test` in a test case on a thread of its own; for an example's async body, XCTest's `asyncTest`
    /// runs it as an async test: in a Task, the thread waiting on its run loop. XCTest records what fails.
    static func runInTestCase(_ test: @escaping @Sendable (XCTestCase) throws -> Void) async {
        await runInTestCase { DocExampleCase(name: "example", testClosure: test) }
    }

    /// Runs the test case `make` returns on a thread of its own.
    static func runInTestCase(_ make: @escaping @Sendable () -> XCTestCase) async {
        await withCheckedContinuation { (finished: CheckedContinuation<Void, Never>) in
            let thread = Thread {
                make().run()
                finished.resume()
            }
            thread.name = "doc example"
            thread.start()
        }
    }

    /// Runs the test case `make` returns on the main thread, where `swift test` runs XCTest's tests on
    /// Linux (a test that enters the main actor with `MainActor.assumeIsolated` works there, and only
    /// there); while it runs, the main queue waits, as it does under `swift test` unless the test waits
    /// for an expectation (which turns the main run loop).
    static func runOnMainThread(_ make: @escaping @Sendable () -> XCTestCase) async {
        await withCheckedContinuation { (finished: CheckedContinuation<Void, Never>) in
            DispatchQueue.main.async {
                make().run()
                finished.resume()
            }
        }
    }

    /// Lets the main-queue work an example left behind run: twice behind everything queued on the main
    /// queue, a short sleep for work other threads are about to queue, then once more.
    static func settle(milliseconds: Int) async {
        await drainMainQueue()
        await drainMainQueue()
        try? await Task.sleep(for: .milliseconds(milliseconds))
        await drainMainQueue()
    }

    static func drainMainQueue() async {
        await withCheckedContinuation { (drained: CheckedContinuation<Void, Never>) in
            DispatchQueue.main.async { drained.resume() }
        }
    }

    static let failures = FailureLog()

    /// Writes one report line on stderr, after what the examples printed so far.
    static func report(_ line: String) {
        fflush(nil)
        FileHandle.standardError.write(Data("@@docrun \(line)\n".utf8))
    }
}

/// The test case each example runs in.
final class DocExampleCase: XCTestCase {}

/// The failures XCTest recorded since the last `take()`.
final class FailureLog: NSObject, XCTestObservation, @unchecked Sendable {
    // Safety: `failures` is guarded by `lock`.
    private let lock = NSLock()
    private var failures: [String] = []

    func testCase(
        _ testCase: XCTestCase, didFailWithDescription description: String, inFile filePath: String?,
        atLine lineNumber: Int
    ) {
        // XCTest places a thrown error at "<EXPR>:0": the example's own location says more.
        let place = filePath.flatMap { $0 == "<EXPR>" ? nil : "\($0):\(lineNumber): " } ?? ""
        let text = "\(place)\(description)".replacingOccurrences(of: "\n", with: " ⏎ ")
        lock.withLock { failures.append(text) }
    }

    func take() -> [String] {
        lock.withLock {
            defer { failures = [] }
            return failures
        }
    }
}

/// Ends the process when an armed example runs longer than `timeout` seconds.
final class Watchdog: @unchecked Sendable {
    // Safety: `armed` and `generation` are guarded by `condition`.
    private let condition = NSCondition()
    private var armed: (index: Int, location: String, deadline: Date)?
    private var generation = 0
    private let timeout: Double

    init(timeout: Double) {
        self.timeout = timeout
        let thread = Thread { [self] in watch() }
        thread.name = "doc example watchdog"
        thread.start()
    }

    func arm(index: Int, location: String) {
        condition.withLock {
            armed = (index, location, Date(timeIntervalSinceNow: timeout))
            generation += 1
            condition.signal()
        }
    }

    func disarm() {
        condition.withLock {
            armed = nil
            generation += 1
            condition.signal()
        }
    }

    private func watch() {
        condition.lock()
        while true {
            guard let current = armed else {
                condition.wait()
                continue
            }
            let seen = generation
            if !condition.wait(until: current.deadline), generation == seen {
                DocExampleRunner.report(
                    "HANG \(current.index) \(current.location): did not finish within \(Int(timeout)) s")
                _exit(124)
            }
        }
    }
}

struct Options {
    var list = false
    var swiftTesting = false
    var from = 0
    var only: Int?
    var timeout = 20.0
    var settle = 20

    init() {}

    init(_ arguments: ArraySlice<String>) throws {
        var arguments = arguments
        func value(_ name: String) throws -> String {
            guard let value = arguments.popFirst() else { throw OptionError(description: "\(name) needs a value") }
            return value
        }
        while let argument = arguments.popFirst() {
            switch argument {
            case "--list": list = true
            case "--swift-testing": swiftTesting = true
            case "--from": from = Int(try value(argument)) ?? 0
            case "--only": only = Int(try value(argument))
            case "--timeout": timeout = Double(try value(argument)) ?? timeout
            case "--settle": settle = Int(try value(argument)) ?? settle
            default: throw OptionError(description: "unknown option \(argument)")
            }
        }
    }
}

struct OptionError: Error, CustomStringConvertible {
    let description: String
}
