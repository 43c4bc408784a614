import Binding
import Observable
import TetherDemoModels

/// What the search screen shows besides the query text: the state the bindings write.
final class SearchPanel: BindingTarget {
    var queryTint = FieldTint.invalid
    var results: SearchResults?
    var stats = SearchStats()

    /// `RAC(panel, property) = signal` for each piece of state, metered for the status line and redraws.
    /// The stats change on whatever thread a search ends on, so they hop to the UI scheduler first.
    func bind(to search: SearchViewModel, ui: any Scheduler, meter: EventMeter) -> any Disposable {
        CompositeDisposable([
            bind(\.queryTint, to: search.queryIsValid.map(FieldTint.init(isValid:)).metered(meter)),
            bind(\.results, to: search.observe(\.results).metered(meter)),
            bind(\.stats, to: search.stats.deliver(on: ui).metered(meter)),
        ])
    }
}
