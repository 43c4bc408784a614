import Binding
import Foundation
import Observable
import XCTest

/// Bindings in the debugging tools: their label in the graph, and the main-queue check.
final class BindingDebugTests: XCTestCase {
    private final class Form: BindingTarget {
        var title = ""
    }

    private final class Background: BindingTarget {
        var title = ""
    }

    private final class Findings: @unchecked Sendable {
        // Safety: guarded by `lock`.
        private let lock = NSLock()
        private var stored: [DebugFinding] = []
        func append(_ finding: DebugFinding) { lock.withLock { stored.append(finding) } }
        var all: [DebugFinding] { lock.withLock { stored } }
    }

    /// Sends `value` from a queue's thread (not `sync`, which runs the block on the calling thread).
    private func sendOnAnotherThread(_ subject: Subject<String, Never>, _ value: String) {
        let sent = expectation(description: "sent")
        DispatchQueue(label: "elsewhere").async {
            subject.send(value)
            sent.fulfill()
        }
        wait(for: [sent], timeout: 10)
    }

    override func setUp() {
        super.setUp()
        TetherDebug.resetForTesting()
    }

    override func tearDown() {
        TetherDebug.resetForTesting()
        super.tearDown()
    }

    func testABindingIsTheSubscriberInTheGraphNamedByItsKeyPath() {
        TetherDebug.isEnabled = true
        let form = Form()
        let titles = Subject<String, Never>()
        let binding = form.bind(\.title, to: titles.named("form.title").map { $0.uppercased() })
        let graph = TetherDebug.graph(matching: "form.title")
        let subscriber = graph.nodes.first { $0.kind == .subscriber }
        XCTAssertEqual(subscriber?.label, "bind(\(\Form.title as AnyKeyPath))")
        binding.dispose()
        XCTAssertTrue(TetherDebug.graph(matching: "form.title").isEmpty)
    }

    func testABindingToAMainQueueTargetSetOffTheMainQueueIsReported() {
        let findings = Findings()
        TetherDebug.requireMainQueue(for: Form.self)
        TetherDebug.enableChecks(.mainQueueBindings) { findings.append($0) }
        let form = Form()
        let titles = Subject<String, Never>()
        let binding = form.bind(\.title, to: titles.named("form.title"))
        titles.send("on the main thread")
        XCTAssertTrue(findings.all.isEmpty, "\(findings.all)")
        sendOnAnotherThread(titles, "elsewhere")
        XCTAssertEqual(form.title, "elsewhere", "the check reports; it does not change delivery")
        XCTAssertEqual(findings.all.count, 1)
        let message = findings.all.first?.message ?? ""
        XCTAssertEqual(findings.all.first?.check, .mainQueueBindings)
        XCTAssertTrue(message.contains("set off the main queue"), message)
        XCTAssertTrue(message.contains("from form.title"), message)
        binding.dispose()
    }

    func testTargetsNotRequiredOnTheMainQueueAreNotChecked() {
        let findings = Findings()
        TetherDebug.requireMainQueue(for: Form.self)
        TetherDebug.enableChecks(.mainQueueBindings) { findings.append($0) }
        let target = Background()
        let titles = Subject<String, Never>()
        let binding = target.bind(\.title, to: titles)
        sendOnAnotherThread(titles, "elsewhere")
        XCTAssertEqual(target.title, "elsewhere")
        XCTAssertTrue(findings.all.isEmpty, "\(findings.all)")
        binding.dispose()
    }
}
