import Observable
import XCTest

import TetherDemoModels

final class SearchViewModelTests: XCTestCase {
    private let clock = TestScheduler()

    private func makeViewModel() -> SearchViewModel {
        SearchViewModel(service: CitySearchService(scheduler: clock), ui: clock)
    }

    func testAValidQuerySearchesAfterTheDebounceAndTheSearchLatency() {
        let search = makeViewModel()
        search.query = "par"
        clock.advance(by: .milliseconds(299))
        XCTAssertEqual(search.stats.value, SearchStats())
        clock.advance(by: .milliseconds(1))
        XCTAssertEqual(search.stats.value, SearchStats(started: 1))
        clock.advance(by: .milliseconds(599))
        XCTAssertNil(search.results)
        clock.advance(by: .milliseconds(1))
        XCTAssertEqual(search.results?.query, "par")
        XCTAssertEqual(search.results?.matches.prefix(3), ["Paramaribo, Suriname", "Paris, France", "Parma, Italy"])
        XCTAssertEqual(search.stats.value, SearchStats(started: 1, completed: 1))
    }

    func testQueriesShorterThanThreeCharactersAreFilteredOut() {
        let search = makeViewModel()
        search.query = "pa"
        clock.advance(by: .seconds(5))
        XCTAssertNil(search.results)
        XCTAssertEqual(search.stats.value.started, 0)
    }

    func testKeystrokesWithinTheDebounceIntervalStartOneSearch() {
        let search = makeViewModel()
        for query in ["san", "sant", "santa"] {
            search.query = query
            clock.advance(by: .milliseconds(200))
        }
        clock.advance(by: .seconds(2))
        XCTAssertEqual(search.stats.value, SearchStats(started: 1, completed: 1))
        XCTAssertEqual(search.results?.query, "santa")
    }

    func testANewQueryCancelsTheSearchStillInFlight() {
        let search = makeViewModel()
        var delivered: [String] = []
        let subscription = search.observe(\.results).subscribe(next: {
            if let results = $0 { delivered.append(results.query) }
        })
        defer { subscription.dispose() }
        search.query = "san"
        clock.advance(by: .milliseconds(500))  // "san" searching since 300 ms
        search.query = "sant"
        clock.advance(by: .seconds(2))
        XCTAssertEqual(search.stats.value, SearchStats(started: 2, completed: 1, cancelled: 1))
        XCTAssertEqual(delivered, ["sant"], "the stale search never delivers")
    }

    func testMatchesRankPrefixesThenWordStartsThenTheRest() {
        XCTAssertEqual(
            CorpusSearch.matches(
                for: "SAN", in: ["Busan, South Korea", "New San Town, X", "San Diego, United States"]),
            ["San Diego, United States", "New San Town, X", "Busan, South Korea"])
        XCTAssertEqual(CorpusSearch.matches(for: "sao", in: ["São Paulo, Brazil"]), ["São Paulo, Brazil"])
        XCTAssertEqual(CorpusSearch.matches(for: "  ", in: ["Paris, France"]), [])
    }

    func testTheViewModelIsReleasedWhileASearchIsInFlight() {
        weak var released: SearchViewModel?
        do {
            let search = makeViewModel()
            released = search
            search.query = "par"
            clock.advance(by: .milliseconds(400))
        }
        XCTAssertNil(released, "neither its own binding nor the pipeline keeps it alive")
        clock.advance(by: .seconds(2))
    }
}
