import Foundation
import Observable

/// How many searches the live search started, finished and cancelled.
struct SearchStats: Equatable, Sendable {
    var started = 0
    var completed = 0
    var cancelled = 0

    var inFlight: Int { started - completed - cancelled }
}

extension SignalConvertible where Value: Sendable {
    /// Counts this signal's subscriptions in `stats`: `started` on subscribe, `completed` when it
    /// finishes, `cancelled` when it is disposed first (as `flatMapLatest` does to a stale search).
    ///
    /// ```swift
    /// query.flatMapLatest { service.search($0).counted(in: stats) }
    /// ```
    func counted(in stats: MutableProperty<SearchStats>) -> Signal<Value, Failure> {
        let upstream = signal
        return Signal<Value, Failure> { observer in
            stats.modify { $0.started += 1 }
            let outcome = SearchOutcome()
            let subscription = upstream.subscribeEvents { event in
                if event.isTerminal, outcome.settle() { stats.modify { $0.completed += 1 } }
                observer.send(event: event)
            }
            return AnyDisposable {
                subscription.dispose()
                if outcome.settle() { stats.modify { $0.cancelled += 1 } }
            }
        }
    }
}

/// Whether a search has finished or been cancelled — whichever happens first wins. The upstream
/// finishes on the search's scheduler while `flatMapLatest` may cancel it from another thread.
private final class SearchOutcome: @unchecked Sendable {
    // Safety: `settled` is guarded by `lock`.
    private let lock = NSLock()
    private var settled = false

    /// `true` for the first caller only.
    func settle() -> Bool {
        lock.withLock {
            defer { settled = true }
            return !settled
        }
    }
}
