import Observable
import TetherTestSupport
import TetherTesting
import XCTest

/// The RAC tutorials' live search (RAC tutorial "TwitterInstant"): text → `filter(isValidSearchText)` →
/// `throttle:0.5` (Tether's `debounce`) → search → results, on virtual time.
///
/// `flatMap` was not on main when this was written, so the search is started from the debounced
/// signal's subscriber; once `flatMap` exists, `.flatMap { search($0) }` is the RAC tutorials' exact shape.
final class LiveSearchTests: ResourceCheckedTestCase {
    private let corpus = ["swift", "swiftui", "switch", "reactive", "react", "rust"]

    /// A fake asynchronous search: answers `latency` after subscription on `scheduler`.
    private func search(_ text: String, on scheduler: TestScheduler, latency: Duration = .milliseconds(200))
        -> Signal<[String], Never>
    {
        Signal(value: corpus.filter { $0.hasPrefix(text) }).delay(latency, on: scheduler)
    }

    /// Types each string at its time (milliseconds), as a user editing the search field.
    private func type(_ keystrokes: [(Int, String)], into field: Subject<String, Never>, on scheduler: TestScheduler) {
        for (time, text) in keystrokes {
            scheduler.advance(to: .milliseconds(time))
            field.send(text)
        }
    }

    func testSearchesOnlyValidTextOnceTypingPauses() {
        let scheduler = TestScheduler()
        let searchText = Subject<String, Never>()
        let searched = VirtualTimeLog<String, Never>(scheduler)
        searchText
            .filter { $0.count > 2 }
            .debounce(.milliseconds(500), on: scheduler)
            .record(into: searched)
        type(
            [
                (0, "s"), (100, "sw"), (200, "swi"), (300, "swif"), (400, "swift"),  // quick typing, then a pause
                (1500, "sw"),  // too short: ignored
                (1600, "swi"), (1700, "swit"), (2000, "switc"), (2400, "switch"),
                (3500, "re"),
            ],  // too short: ignored
            into: searchText, on: scheduler)
        scheduler.advance(to: .seconds(5))
        XCTAssertEqual(searched.entries, [.next("swift", at: 900), .next("switch", at: 2900)])
    }

    func testResultsArriveAfterTheSearchLatency() {
        let scheduler = TestScheduler()
        let searchText = Subject<String, Never>()
        let results = VirtualTimeLog<[String], Never>(scheduler)
        let subscription =
            searchText
            .filter { $0.count > 2 }
            .debounce(.milliseconds(500), on: scheduler)
            .subscribe(next: { text in
                self.search(text, on: scheduler).subscribe(next: { results.append(.next($0)) })
            })
        type(
            [(0, "swi"), (100, "swif"), (1000, "rea"), (1100, "reac"), (1200, "react")], into: searchText, on: scheduler
        )
        scheduler.advance(to: .seconds(3))
        XCTAssertEqual(
            results.entries,
            [.next(["swift", "swiftui"], at: 800), .next(["reactive", "react"], at: 1900)])
        subscription.dispose()
        XCTAssertEqual(scheduler.pendingCount, 0)
    }

    func testEndingTheFieldSearchesThePendingText() {
        let scheduler = TestScheduler()
        let searchText = Subject<String, Never>()
        let searched = VirtualTimeLog<String, Never>(scheduler)
        searchText
            .filter { $0.count > 2 }
            .debounce(.milliseconds(500), on: scheduler)
            .record(into: searched)
        type([(0, "rus"), (100, "rust")], into: searchText, on: scheduler)
        searchText.sendCompleted()
        XCTAssertEqual(searched.entries, [.next("rust", at: 100), .completed(at: 100)])
    }
}
