import Foundation
import Observable
import XCTest

/// Past the deep-chain trampoline's stack budget the downstream part of a chain is queued on the thread's
/// root: a terminal event queued there must still arrive after the source ended the subscription, and a
/// blocking helper called from inside a callback must not wait for work queued behind its own caller
/// (issue 30, bug 4).
final class DeepChainTerminalEventTests: XCTestCase {
    static let lengths = [1_000, 2_000, 10_000]

    static func chain(_ length: Int) -> Signal<Int, Never> {
        var chain = Signal<Int, Never>(values: [1, 2, 3])
        for _ in 0..<length { chain = chain.map { $0 + 1 } }
        return chain
    }

    static func firstOrDescription(_ signal: Signal<Int, Never>) -> String {
        do throws(BlockingError<Never>) {
            return try signal.first().map { "\($0)" } ?? "nil"
        } catch {
            return "\(error)"
        }
    }

    func testTakeOneOnALongColdChainSendsTheFirstValueAndCompletes() {
        for length in Self.lengths {
            var events: [String] = []
            Self.chain(length).take(1).subscribe(
                next: { events.append("next(\($0))") }, completed: { events.append("completed") })
            XCTAssertEqual(events, ["next(\(length + 1))", "completed"], "\(length) maps")
        }
    }

    func testALongColdChainDeliversEveryValueThenCompletesToAnEventSubscriber() {
        for length in Self.lengths {
            var events: [String] = []
            Self.chain(length).subscribe(
                next: { events.append("next(\($0))") }, completed: { events.append("completed") })
            XCTAssertEqual(
                events, ["next(\(length + 1))", "next(\(length + 2))", "next(\(length + 3))", "completed"],
                "\(length) maps")
        }
    }

    func testFirstOnALongColdChainReturnsTheFirstValue() throws {
        for length in Self.lengths {
            XCTAssertEqual(try Self.chain(length).first(), length + 1, "\(length) maps")
            XCTAssertEqual(try Self.chain(length).toArray(), [length + 1, length + 2, length + 3])
        }
    }

    func testFirstOnALongColdChainCalledFromInsideACallbackReturnsItsValue() {
        // A watchdog: the call runs on its own thread, so a hang fails the test instead of stopping it.
        let done = DispatchSemaphore(value: 0)
        let results = ResultBox()
        Thread.detachNewThread {
            let subject = Subject<Int, Never>()
            let subscription = subject.signal.subscribe(next: { _ in
                for length in Self.lengths {
                    results.append(Self.firstOrDescription(Self.chain(length)))
                }
            })
            subject.send(0)
            subscription.dispose()
            // Inside a deep chain's own callback too: the outer chain's queued work is behind the caller.
            let outer = Self.chain(2_000).take(1)
            _ = outer.subscribe(next: { _ in
                results.append(Self.firstOrDescription(Self.chain(2_000)))
            })
            done.signal()
        }
        guard done.wait(timeout: .now() + 120) == .success else {
            return XCTFail("first() called from inside a callback did not return")
        }
        XCTAssertEqual(results.values, Self.lengths.map { "\($0 + 1)" } + ["2001"])
    }
}

private final class ResultBox: @unchecked Sendable {
    // Safety: `stored` is guarded by `lock`.
    private let lock = NSLock()
    private var stored: [String] = []
    func append(_ result: String) { lock.withLock { stored.append(result) } }
    var values: [String] { lock.withLock { stored } }
}
