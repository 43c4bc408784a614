import Foundation
import Observable
import XCTest

/// A thread-safe list of events stamped with a `TestScheduler`'s virtual time, for timing assertions.
package final class VirtualTimeLog<Value, Failure: Error>: @unchecked Sendable {
    /// One recorded event and the virtual time at which it arrived.
    package struct Entry: CustomStringConvertible {
        package let time: Duration
        package let event: Event<Value, Failure>

        package static func next(_ value: Value, at milliseconds: Int) -> Entry {
            Entry(time: .milliseconds(milliseconds), event: .next(value))
        }

        package static func error(_ failure: Failure, at milliseconds: Int) -> Entry {
            Entry(time: .milliseconds(milliseconds), event: .error(failure))
        }

        package static func completed(at milliseconds: Int) -> Entry {
            Entry(time: .milliseconds(milliseconds), event: .completed)
        }

        package var description: String { "\(event)@\(time)" }
    }

    private let lock = NSLock()
    private var storage: [Entry] = []
    private let scheduler: TestScheduler

    package init(_ scheduler: TestScheduler) {
        self.scheduler = scheduler
    }

    package var entries: [Entry] { lock.withLock { storage } }
    package var values: [Value] { entries.compactMap(\.event.value) }

    package func append(_ event: Event<Value, Failure>) {
        let time = scheduler.now
        lock.withLock { storage.append(Entry(time: time, event: event)) }
    }
}

extension VirtualTimeLog.Entry: Equatable where Value: Equatable, Failure: Equatable {}

extension SignalConvertible {
    /// Subscribes and records every event with the virtual time of `log`'s scheduler.
    @discardableResult
    package func record(into log: VirtualTimeLog<Value, Failure>) -> any Disposable {
        subscribeEvents { log.append($0) }
    }
}
