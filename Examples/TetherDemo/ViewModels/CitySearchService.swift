import Bridges
import Observable

/// The RAC tutorials' Twitter search, local: finds cities in ``Corpus`` after a simulated network delay,
/// on its own (background) scheduler.
///
/// The delay is what makes stale searches visible: a search that is still "on the wire" when the
/// user types on is cancelled by `flatMapLatest`.
///
/// ```swift
/// let service = CitySearchService(scheduler: QueueScheduler(priority: .background))
/// service.search("par")   // next(SearchResults("par", ["Paris, France", "Parma, Italy", …])), completed
/// ```
struct CitySearchService: Sendable {
    var latency: Duration = .milliseconds(600)
    var corpus: [String] = Corpus.cities
    let scheduler: any Scheduler

    /// One search: a timer from Bridges on the background scheduler, then the lookup on that scheduler.
    /// Disposing the subscription before the timer fires cancels the search.
    func search(_ query: String) -> Signal<SearchResults, Never> {
        let corpus = corpus
        return Signal.timer(after: latency, on: scheduler)
            .map { SearchResults(query: query, matches: CorpusSearch.matches(for: query, in: corpus)) }
    }
}
