import Dispatch
import Observable
import Synchronization
import XCTest

/// Checks one subscription's deliveries: the grammar `next* (error | completed)?`, nothing after
/// `dispose()` returned, and no two callbacks running at once.
///
/// The counters are plain variables on purpose: the library must serialize deliveries to one
/// observer with proper happens-before edges, and if it does not, Thread Sanitizer reports the race
/// on these variables. Overlap is also detected directly, with a relaxed atomic (which creates no
/// happens-before edge and so hides nothing from TSan).
package final class GrammarMonitor<Value>: @unchecked Sendable {
    package init() {}

    private let inside = Atomic<Bool>(false)
    private let overlapCount = Atomic<Int>(0)
    private let disposeReturned = Atomic<Bool>(false)
    private let afterDisposeCount = Atomic<Int>(0)
    private let sawValue = Atomic<Bool>(false)
    private let firstValue = DispatchSemaphore(value: 0)

    // Touched only by deliveries (serialized by the library) and read after the subscription ended.
    package private(set) var nextCount = 0
    package private(set) var terminalCount = 0
    package private(set) var eventsAfterTerminal = 0
    package private(set) var lastEvent: Event<Value, Never>?
    /// Called with each value, inside the serialized delivery.
    package var onValue: ((Value) -> Void)?

    package var overlaps: Int { overlapCount.load(ordering: .relaxed) }
    package var eventsAfterDispose: Int { afterDisposeCount.load(ordering: .relaxed) }

    package func receive<Failure: Error>(_ event: Event<Value, Failure>) {
        if inside.exchange(true, ordering: .relaxed) { overlapCount.add(1, ordering: .relaxed) }
        if disposeReturned.load(ordering: .relaxed) { afterDisposeCount.add(1, ordering: .relaxed) }
        if terminalCount > 0 { eventsAfterTerminal += 1 }
        switch event {
        case .next(let value):
            nextCount += 1
            onValue?(value)
            lastEvent = .next(value)
            if !sawValue.exchange(true, ordering: .relaxed) { firstValue.signal() }
        case .error, .completed:
            terminalCount += 1
            lastEvent = .completed
        }
        inside.store(false, ordering: .relaxed)
    }

    /// Parks until the subscription has received a value, or until `giveUp()` (checked every few
    /// milliseconds) returns `true`: a churning subscriber lets values through before it disposes, without
    /// spinning for the CPU the senders need.
    package func waitForAValue(orUntil giveUp: () -> Bool) {
        while !giveUp() {
            if firstValue.wait(timeout: .now() + .milliseconds(2)) == .success { return }
        }
    }

    /// Call right after `dispose()` returned.
    package func markDisposed() {
        disposeReturned.store(true, ordering: .relaxed)
    }

    /// Subscribes `source` and monitors the subscription.
    package func subscribe<S: SignalConvertible>(to source: S) -> any Disposable where S.Value == Value {
        source.subscribeEvents { [self] event in receive(event) }
    }

    /// Asserts the grammar, no overlap and nothing after disposal.
    package func assertWellFormed(_ label: String = "", file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(overlaps, 0, "\(label): overlapping deliveries", file: file, line: line)
        XCTAssertEqual(eventsAfterTerminal, 0, "\(label): events after a terminal event", file: file, line: line)
        XCTAssertLessThanOrEqual(terminalCount, 1, "\(label): more than one terminal event", file: file, line: line)
        XCTAssertEqual(eventsAfterDispose, 0, "\(label): events after dispose() returned", file: file, line: line)
    }
}
