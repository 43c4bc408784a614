import Foundation
import TetherDemoModels
import TetherGtk

/// The "Twitter Instant" live search in GTK 4, bound to the terminal demo's `SearchViewModel`: the search
/// entry ⇄ `query` (a channel); `query` → `filter(≥ 3)` → `debounce(300 ms)` → `flatMapLatest` a search
/// (0.6 s) → `deliver(on: ui)` → `results` (all in the view model); the labels ← `results` and the
/// statistics (searches started, cancelled, completed).
@MainActor
public final class SearchPanel {
    /// The panel's root widget.
    public let root: GObjectHandle
    /// The search entry.
    public let entry: GtkControl
    /// "Type at least 3 letters", "Searching…", or the number of matches.
    public let status: GObjectHandle
    /// The first matches, one per line.
    public let results: GObjectHandle
    /// Searches started, cancelled, completed.
    public let stats: GObjectHandle
    /// The view model.
    public let search: SearchViewModel
    private let bindings = CompositeDisposable()

    /// How many matches the results label lists.
    public nonisolated static let shownMatches = 10

    /// Builds the panel and binds it to `search`.
    public init(search: SearchViewModel) throws {
        self.search = search
        entry = GtkControl(entry: gtk_search_entry_new())
        status = GObjectHandle(sinking: makeLabel(markup: ""))
        results = GObjectHandle(sinking: makeLabel(markup: ""))
        stats = GObjectHandle(sinking: makeLabel(markup: ""))
        gtk_widget_set_vexpand(results.widgetPointer, 1)
        gtk_widget_set_valign(results.widgetPointer, GTK_ALIGN_START)
        let title = makeLabel(markup: "<big><b>Live search</b></big>")
        root = GObjectHandle(
            sinking: makeBox(
                GTK_ORIENTATION_VERTICAL, spacing: 10,
                [title, entry.widgetPointer!, status.widgetPointer!, results.widgetPointer!, stats.widgetPointer!]))
        gtk_widget_add_css_class(root.widgetPointer, "panel")
        gtk_widget_set_size_request(root.widgetPointer, 320, -1)

        bindings.add(try entry.channel(property: "text", as: String.self) <~> search.channel(\.query))
        let state = Signal.combineLatest(search.observe(\.query), search.observe(\.results), search.stats.signal)
        bindings.add(try status.bind(property: "label", to: state.map(Self.statusText)))
        bindings.add(try results.bind(property: "label", to: search.observe(\.results).map(Self.resultsText)))
        bindings.add(try stats.bind(property: "label", to: search.stats.signal.map(Self.statsText)))
        // Escape in the search entry clears it (GtkSearchEntry's stop-search), through the channel.
        bindings.add(try entry.signal(named: "stop-search").subscribe(next: { search.query = "" }))
    }

    isolated deinit { bindings.dispose() }

    nonisolated static func statusText(query: String, results: SearchResults?, stats: SearchStats) -> String {
        let trimmed = query.trimmingCharacters(in: .whitespaces)
        if !SearchViewModel.isValid(query) {
            return "<i>Type at least \(SearchViewModel.minimumQueryLength) letters of a city.</i>"
        }
        guard let results, results.query == query else {
            return "<i>Searching for “\(escapedMarkup(trimmed))”…</i>"
        }
        let count = results.matches.count
        let noun = count == 1 ? "city matches" : "cities match"
        return "<b>\(count)</b> \(noun) “\(escapedMarkup(trimmed))”"
    }

    nonisolated static func resultsText(_ results: SearchResults?) -> String {
        guard let results else { return "" }
        var lines = results.matches.prefix(shownMatches).map { "• " + escapedMarkup($0) }
        if results.matches.count > shownMatches {
            lines.append("<i>… and \(results.matches.count - shownMatches) more</i>")
        }
        return lines.joined(separator: "\n")
    }

    nonisolated static func statsText(_ stats: SearchStats) -> String {
        "<small>Searches: \(stats.started) started · \(stats.cancelled) cancelled · \(stats.completed) completed</small>"
    }
}
