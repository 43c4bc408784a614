import Foundation
import Observable
import XCTest

/// A thread-safe list of events stamped with a `TestScheduler`'s virtual time, for timing assertions.
final class VirtualTimeLog<Value, Failure: Error>: @unchecked Sendable {
    /// One recorded event and the virtual time at which it arrived.
    struct Entry: CustomStringConvertible {
        let time: Duration
        let event: Event<Value, Failure>

        static func next(_ value: Value, at milliseconds: Int) -> Entry {
            Entry(time: .milliseconds(milliseconds), event: .next(value))
        }

        static func error(_ failure: Failure, at milliseconds: Int) -> Entry {
            Entry(time: .milliseconds(milliseconds), event: .error(failure))
        }

        static func completed(at milliseconds: Int) -> Entry {
            Entry(time: .milliseconds(milliseconds), event: .completed)
        }

        var description: String { "\(event)@\(time)" }
    }

    private let lock = NSLock()
    private var storage: [Entry] = []
    private let scheduler: TestScheduler

    init(_ scheduler: TestScheduler) {
        self.scheduler = scheduler
    }

    var entries: [Entry] { lock.withLock { storage } }
    var values: [Value] { entries.compactMap(\.event.value) }

    func append(_ event: Event<Value, Failure>) {
        let time = scheduler.now
        lock.withLock { storage.append(Entry(time: time, event: event)) }
    }
}

extension VirtualTimeLog.Entry: Equatable where Value: Equatable, Failure: Equatable {}

extension SignalConvertible {
    /// Subscribes and records every event with the virtual time of `log`'s scheduler.
    @discardableResult
    func record(into log: VirtualTimeLog<Value, Failure>) -> any Disposable {
        subscribeEvents { log.append($0) }
    }
}

/// A cold source for disposal tests: hands out its observer and counts subscriptions and disposals.
final class ProbeSource<Value, Failure: Error>: @unchecked Sendable {
    private let lock = NSLock()
    private var observers: [Observer<Value, Failure>] = []
    private var subscribed = 0
    private var disposed = 0

    var subscriptions: Int { lock.withLock { subscribed } }
    var disposals: Int { lock.withLock { disposed } }
    var observer: Observer<Value, Failure>? { lock.withLock { observers.last } }

    var signal: Signal<Value, Failure> {
        Signal { observer in
            self.lock.withLock {
                self.subscribed += 1
                self.observers.append(observer)
            }
            return AnyDisposable { self.lock.withLock { self.disposed += 1 } }
        }
    }

    func send(_ value: Value) { observer?.send(value) }
    func sendError(_ failure: Failure) { observer?.sendError(failure) }
    func sendCompleted() { observer?.sendCompleted() }
}
