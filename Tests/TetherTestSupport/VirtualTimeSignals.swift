import Foundation
import Observable
import XCTest

/// A cold signal that sends `events` on `scheduler`, each at its offset (in seconds of virtual
/// time) after subscription. Counts subscriptions and disposals.
package final class VirtualTimeSignal<Value: Sendable>: @unchecked Sendable {
    package let scheduler: TestScheduler
    package let events: [(Int, Event<Value, TestError>)]
    package let subscriptions = Counter()
    package let disposals = Counter()

    package init(_ scheduler: TestScheduler, _ events: [(Int, Event<Value, TestError>)]) {
        self.scheduler = scheduler
        self.events = events
    }

    package var signal: Signal<Value, TestError> {
        Signal { observer in
            self.subscriptions.increment()
            let bag = CompositeDisposable()
            for (offset, event) in self.events {
                bag.add(self.scheduler.schedule(after: .seconds(offset)) { observer.send(event: event) })
            }
            bag.add { self.disposals.increment() }
            return bag
        }
    }
}

/// Records every event with the virtual time at which it arrived.
package final class VirtualTimeRecorder<Value, Failure: Error>: @unchecked Sendable {
    private let lock = NSLock()
    private let scheduler: TestScheduler
    private var storage: [(Int, Event<Value, Failure>)] = []

    package init(_ scheduler: TestScheduler) {
        self.scheduler = scheduler
    }

    /// `(seconds, event)` pairs in arrival order.
    package var timedEvents: [(Int, Event<Value, Failure>)] { lock.withLock { storage } }

    @discardableResult
    package func record<S: SignalConvertible>(_ source: S) -> any Disposable
    where S.Value == Value, S.Failure == Failure {
        source.subscribeEvents { event in
            let seconds = Int(self.scheduler.now.components.seconds)
            self.lock.withLock { self.storage.append((seconds, event)) }
        }
    }
}

extension VirtualTimeRecorder where Value: Equatable, Failure: Equatable {
    package func assertEvents(
        _ expected: [(Int, Event<Value, Failure>)], file: StaticString = #filePath, line: UInt = #line
    ) {
        let actual = timedEvents
        let matches =
            actual.count == expected.count
            && zip(actual, expected).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        XCTAssertTrue(matches, "expected \(expected), got \(actual)", file: file, line: line)
    }
}
