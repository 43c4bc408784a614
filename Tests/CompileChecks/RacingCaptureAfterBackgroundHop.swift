// expect-error: capture of 'counter' with non-Sendable type 'Counter' in a '@Sendable' closure
// Issue 29, scenario 2: an operator's closure may run on another thread (here after a background hop) and
// on two threads at once (one recipe, two subscriptions), so it must not share a non-Sendable object with
// main-actor code. This compiled silently and raced under Thread Sanitizer.
import Observable

final class Counter { var count = 0 }

@MainActor
final class ResultsViewModel {
    let counter = Counter()
    private var subscription: (any Disposable)?

    init(query: Subject<String, Never>) {
        let counter = self.counter
        subscription =
            query
            .deliver(on: QueueScheduler(priority: .background))
            .map { text in
                counter.count += 1  // would race with bump() below
                return text.uppercased()
            }
            .subscribe(next: { _ in })
    }

    func bump() { counter.count += 1 }
}
