import Foundation
import Observable

/// How many searches the live search started, finished and cancelled.
public struct SearchStats: Equatable, Sendable {
    /// Searches started.
    public var started = 0
    /// Searches that delivered their results.
    public var completed = 0
    /// Searches cancelled by a newer query before they finished.
    public var cancelled = 0

    /// Counts starting at the given values.
    public init(started: Int = 0, completed: Int = 0, cancelled: Int = 0) {
        self.started = started
        self.completed = completed
        self.cancelled = cancelled
    }

    /// Searches still running.
    public var inFlight: Int { started - completed - cancelled }
}

extension Signal where Value: Sendable {
    /// The signal `make` returns, its subscriptions counted in `stats`: `started` on subscribe, `completed`
    /// when it finishes, `cancelled` when it is disposed first (as `flatMapLatest` does to a stale search).
    ///
    /// The recipe builds the search itself (`make` runs once per subscription): a `Signal` is not
    /// `Sendable`, so a `@Sendable` recipe cannot capture one that was made outside it.
    ///
    /// ```swift
    /// query.flatMapLatest { text in Signal.counted(in: stats) { service.search(text) } }
    /// ```
    public static func counted(
        in stats: MutableProperty<SearchStats>, _ make: @escaping @Sendable () -> Signal<Value, Failure>
    ) -> Signal<Value, Failure> {
        Signal { observer in
            stats.modify { $0.started += 1 }
            let outcome = SearchOutcome()
            let subscription = make().subscribeEvents { event in
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
