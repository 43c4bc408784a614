import Bridges
import Foundation
import TetherTestSupport
import TetherTesting
import XCTest

// MARK: - The delegate pattern from Hook's documentation, tested.

private final class Download {
    weak var delegate: (any DownloadDelegate)?
    let url: String
    init(_ url: String) { self.url = url }

    /// Simulates the transfer: reports progress, asks whether to retry a failure, then finishes.
    func run(chunks: [Int], failOnce: Bool) {
        for chunk in chunks { delegate?.download(self, didReceive: chunk) }
        if failOnce, delegate?.downloadShouldRetry(self) == true {
            delegate?.download(self, didReceive: 1)
        }
        delegate?.downloadDidFinish(self)
    }
}

private protocol DownloadDelegate: AnyObject {
    func download(_ download: Download, didReceive bytes: Int)
    func downloadDidFinish(_ download: Download)
    func downloadShouldRetry(_ download: Download) -> Bool
}

/// The proxy: one hook per method; a closure for the method that returns a value.
private final class DownloadEvents: DownloadDelegate {
    let received = Hook<(download: Download, bytes: Int)>()
    let finished = Hook<Download>()
    var shouldRetry: (Download) -> Bool = { _ in false }
    /// An original delegate that still gets every call.
    weak var forwardTo: (any DownloadDelegate)?

    func download(_ download: Download, didReceive bytes: Int) {
        received.invoke((download, bytes))
        forwardTo?.download(download, didReceive: bytes)
    }

    func downloadDidFinish(_ download: Download) {
        finished.invoke(download)
        forwardTo?.downloadDidFinish(download)
    }

    func downloadShouldRetry(_ download: Download) -> Bool {
        shouldRetry(download)
    }
}

private final class LegacyDelegate: DownloadDelegate {
    var calls: [String] = []
    func download(_ download: Download, didReceive bytes: Int) { calls.append("received \(bytes)") }
    func downloadDidFinish(_ download: Download) { calls.append("finished") }
    func downloadShouldRetry(_ download: Download) -> Bool { false }
}

final class HookTests: ResourceCheckedTestCase {
    func testInvokeDeliversArgumentsToEverySubscriber() {
        let hook = Hook<(path: String, bytes: Int)>()
        let first = EventLog<String, Never>()
        let second = EventLog<Int, Never>()
        hook.map(\.path).record(into: first)
        hook.map(\.bytes).record(into: second)
        hook.invoke(("a.txt", 3))
        hook.invoke(("b.txt", 5))
        XCTAssertEqual(first.values, ["a.txt", "b.txt"])
        XCTAssertEqual(second.values, [3, 5])
    }

    func testSubscribersSeeOnlyLaterInvocations() {
        let hook = Hook<Int>()
        hook.invoke(1)
        let log = EventLog<Int, Never>()
        hook.record(into: log)
        hook.invoke(2)
        XCTAssertEqual(log.values, [2])
    }

    func testVoidHookInvokesWithoutArguments() {
        let hook = Hook<Void>()
        let count = Counter()
        hook.subscribe(next: { count.increment() })
        hook.invoke()
        hook.invoke()
        XCTAssertEqual(count.value, 2)
    }

    func testHookCompletesWhenDeinitialized() {
        var hook: Hook<Int>? = Hook()
        let log = EventLog<Int, Never>()
        hook?.record(into: log)
        hook?.invoke(1)
        hook = nil
        XCTAssertEqual(log.events, [.next(1), .completed])
    }

    func testInvocationFromInsideASubscriberIsDeliveredAfterTheCurrentOne() {
        expectLiveSubscriptions("the subscriber captures its own hook")
        let hook = Hook<Int>()
        var trace: [String] = []
        hook.subscribe(next: { value in
            trace.append("start \(value)")
            if value == 1 { hook.invoke(2) }
            trace.append("end \(value)")
        })
        hook.invoke(1)
        XCTAssertEqual(trace, ["start 1", "end 1", "start 2", "end 2"])
    }

    func testDelegateProtocolBecomesSignals() {
        let download = Download("https://example.org/file")
        let events = DownloadEvents()
        download.delegate = events
        let progress = EventLog<Int, Never>()
        let finished = EventLog<String, Never>()
        var total = 0
        events.received.map(\.bytes).subscribe(next: { bytes in
            total += bytes
            progress.append(.next(total))
        })
        events.finished.map(\.url).record(into: finished)
        events.shouldRetry = { _ in true }

        download.run(chunks: [10, 20, 30], failOnce: true)

        XCTAssertEqual(progress.values, [10, 30, 60, 61])
        XCTAssertEqual(finished.values, ["https://example.org/file"])
    }

    func testDelegateProxyForwardsToTheOriginalDelegate() {
        let download = Download("x")
        let legacy = LegacyDelegate()
        let events = DownloadEvents()
        events.forwardTo = legacy
        download.delegate = events
        let count = Counter()
        events.received.subscribe(next: { _ in count.increment() })
        download.run(chunks: [4], failOnce: false)
        XCTAssertEqual(count.value, 1)
        XCTAssertEqual(legacy.calls, ["received 4", "finished"])
    }

    func testDelegateSignalsCompleteWhenTheProxyGoes() {
        var events: DownloadEvents? = DownloadEvents()
        let log = EventLog<Download, Never>()
        events?.finished.record(into: log)
        events = nil
        XCTAssertEqual(log.count, 1)
        XCTAssertEqual(log.events.first?.isTerminal, true)
    }
}
