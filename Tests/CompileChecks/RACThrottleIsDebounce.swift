// expect-error: 'throttle(_:on:)' is unavailable
// expect-error: use debounce(_:on:)
// RAC's `throttle:` is a debounce: a ported `throttle(interval, on:)` must not compile as rate limiting.
import Observable

func liveSearch(query: Subject<String, Never>, scheduler: TestScheduler) {
    _ = query.throttle(.milliseconds(500), on: scheduler)
}
