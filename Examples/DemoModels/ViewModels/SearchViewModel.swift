import Binding
import Foundation
import Observable

/// The RAC tutorials' "Twitter Instant" (RWSearchFormViewController), as a view model:
///
/// ```
/// query ─debounce(300 ms, while: ≥ 3 chars)─flatMapLatest(search on a background scheduler, or nil)─deliver(on: UI)─▶ results
/// ```
///
/// A query of 3 characters or more waits for a 300 ms pause, then is searched; a shorter one (Esc
/// empties the field) passes at once, drops the query waiting, cancels the search in flight and clears
/// the results.
///
/// RAC's `throttle:0.5` is Tether's `debounce` (it waits for a pause); `flatMapLatest` (RAC's
/// `flattenMap:` + `switchToLatest`) cancels a search still in flight when a newer query arrives,
/// which the RAC tutorials' `flattenMap:` did not — ``stats`` counts both.
///
/// ```swift
/// let search = SearchViewModel(service: CitySearchService(scheduler: background), ui: QueueScheduler.main)
/// search.query = "par"          // 300 ms later a search starts; 600 ms after that:
/// search.results?.matches       // ["Paris, France", "Parma, Italy", …]
/// ```
public final class SearchViewModel: KeyPathObservable {
    /// The shortest query that is searched.
    public static let minimumQueryLength = 3
    /// How long typing must pause before a search starts (RAC's `throttle:`).
    public static let debounceInterval: Duration = .milliseconds(300)

    /// The search field's text (the RAC tutorials' `searchText.rac_textSignal`).
    @Observed public var query = ""
    /// The latest results, on the UI scheduler; `nil` until the first search finishes, and again as soon as
    /// the query is too short to search (Esc empties it).
    @Observed public private(set) var results: SearchResults?
    /// Searches started, completed and cancelled; updated on whatever thread the search ends on.
    public let stats = MutableProperty(SearchStats())
    /// The search service.
    public let service: CitySearchService

    /// A live search using `service`, delivering results on `ui`.
    public init(service: CitySearchService, ui: any Scheduler) {
        self.service = service
        let stats = stats
        let results = observe(\.query)
            // A query too short to search (Esc empties the field) does not wait: it passes at once and
            // drops a query still waiting (RAC's `throttle:valuesPassingTest:`)…
            .debounce(Self.debounceInterval, on: ui, while: Self.isValid)
            // …and, as the latest query, cancels the search in flight and clears the results, so old
            // results never stay on screen (or come back) under an emptied field.
            .flatMapLatest { query -> Signal<SearchResults?, Never> in
                guard Self.isValid(query) else { return Signal(value: nil) }
                return Signal.counted(in: stats) { service.search(query) }.map(Optional.some)
            }
            .deliver(on: ui)
        bind(\.results, to: results)  // RAC(self, results) = …
    }

    /// Whether the query is long enough to search (the RAC tutorials' `isValidSearchText:`, length > 2),
    /// current value first.
    public var queryIsValid: Signal<Bool, Never> {
        observe(\.query).map(Self.isValid)
    }

    /// Whether `query` is long enough to search (``minimumQueryLength`` characters, spaces trimmed).
    public static func isValid(_ query: String) -> Bool {
        query.trimmingCharacters(in: .whitespaces).count >= minimumQueryLength
    }
}
