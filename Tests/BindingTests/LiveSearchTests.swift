import Binding
import TetherTestSupport
import TetherTesting
import XCTest

/// The RAC tutorials' "Twitter Instant" live search (RWSearchFormViewController) as a view model:
/// text → validity colour; valid text → debounce (RAC's `throttle:`) → the latest search → results.
private final class SearchViewModel: KeyPathObservable {
    enum Colour { case white, yellow }

    @Observed var text = ""
    @Observed var textColour = Colour.yellow
    @Observed var results: [String] = []

    init(search: @escaping @Sendable (String) -> Signal<[String], Never>, scheduler: some Scheduler) {
        @Sendable func isValid(_ text: String) -> Bool { text.count > 2 }
        let text = observe(\.text)
        self[\.textColour] <~ text.map { isValid($0) ? .white : .yellow }
        self[\.results] <~ text.filter(isValid).debounce(.milliseconds(500), on: scheduler).flatMapLatest(search)
    }
}

/// The results table of the RAC tutorials' split view.
private final class ResultsView: BindingTarget {
    var rows: [String] = []
}

final class LiveSearchTests: ResourceCheckedTestCase {
    private let frame = Duration.milliseconds(100)
    private let typed: [Character: String] = ["a": "s", "b": "sw", "c": "swi", "d": "swif"]
    private let found: [Character: [String]] = ["_": [], "C": ["swing"], "D": ["swift", "swiftly"]]

    func testTypingSearchesTheLatestValidTextAfterAPauseAndCancelsTheStaleSearch() throws {
        let scheduler = TestScheduler()
        let text = try scheduler.hot("-a-b-c------d", values: typed, frame: frame)
        let searches = [
            "swi": try scheduler.cold("--------C|", values: found, frame: frame),
            "swif": try scheduler.cold("--------D|", values: found, frame: frame),
        ]
        let searched = Locked<[String]>([])
        let viewModel = SearchViewModel(
            search: { query in
                searched.append(query)
                return searches[query]?.signal ?? .empty
            },
            scheduler: scheduler)
        viewModel[\.text] <~ text
        let colours = viewModel.observe(\.textColour).record(on: scheduler, frame: frame)
        let results = viewModel.observe(\.results).record(on: scheduler, frame: frame)

        scheduler.run()

        // text:       -a-b-c------d
        // debounced:  ----------c------d           (500 ms = 5 frames of quiet)
        // search swi:           --------C|          cancelled at frame 17, before it answered
        // search swif:                 --------D|
        XCTAssertEqual(colours.marbles(values: ["y": .yellow, "w": .white]), "yy-y-w------w")
        XCTAssertEqual(results.marbles(values: found), "_------------------------D")
        XCTAssertEqual(searched.values, ["swi", "swif"], "invalid text is never searched")
        XCTAssertEqual(
            searches["swi"]?.subscriptions,
            [TestSubscription(subscribed: .milliseconds(1000), ended: .milliseconds(1700))])
        XCTAssertEqual(
            searches["swif"]?.subscriptions,
            [TestSubscription(subscribed: .milliseconds(1700), ended: .milliseconds(2600))])
    }

    func testResultsBindToTheView() throws {
        let scheduler = TestScheduler()
        let text = try scheduler.hot("-c", values: typed, frame: frame)
        let search = try scheduler.cold("-C|", values: found, frame: frame)
        let viewModel = SearchViewModel(search: { _ in search.signal }, scheduler: scheduler)
        viewModel[\.text] <~ text
        let view = ResultsView()
        view[\.rows] <~ viewModel.observe(\.results)
        scheduler.run()
        XCTAssertEqual(view.rows, ["swing"])
    }
}
