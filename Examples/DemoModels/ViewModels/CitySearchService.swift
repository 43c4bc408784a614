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
public struct CitySearchService: Sendable {
    /// How long a search takes.
    public var latency: Duration = .milliseconds(600)
    /// What is searched.
    public var corpus: [String] = Corpus.cities
    /// Where the answers are sent (a background queue, or virtual time).
    public let scheduler: any Scheduler

    /// A service searching `corpus`, answering after `latency` on `scheduler`.
    public init(latency: Duration = .milliseconds(600), corpus: [String] = Corpus.cities, scheduler: any Scheduler) {
        self.latency = latency
        self.corpus = corpus
        self.scheduler = scheduler
    }

    /// One search: a timer from Bridges on the background scheduler, then the lookup on that scheduler.
    /// Disposing the subscription before the timer fires cancels the search.
    public func search(_ query: String) -> Signal<SearchResults, Never> {
        let corpus = corpus
        return Signal.timer(after: latency, on: scheduler)
            .map { SearchResults(query: query, matches: CorpusSearch.matches(for: query, in: corpus)) }
    }
}
