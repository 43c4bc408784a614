import Foundation
import Observation
import Tether
import TetherTesting
import XCTest

// `import Tether` re-exports the three library modules, and qualifies their names where `Observable`
// cannot: in a file that imports Observation, `Observable` is Observation's protocol.

@Observation.Observable private final class SearchModel {
    var results: [String] = []
}

final class QualifiedNamesTests: XCTestCase {
    func testTetherQualifiesTheLibrarysTypesNextToObservation() {
        let subject = Tether.Subject<Int, Never>()
        let doubled: Tether.Signal<Int, Never> = subject.map { $0 * 2 }
        var received: [Int] = []
        let subscription: any Tether.Disposable = doubled.subscribe(next: { received.append($0) })
        subject.send(21)
        subscription.dispose()
        XCTAssertEqual(received, [42])
    }

    func testOneImportGivesBridgesAndBindingToo() {
        let center = NotificationCenter()
        let found = Tether.TypedNotification<[String]>(Notification.Name("TetherTests.found"))
        let model = SearchModel()
        let binding = model.bind(\.results, to: center.signal(for: found))
        center.post(found, ["Santa Fe"])
        XCTAssertEqual(model.results, ["Santa Fe"])
        let search = Tether.Command { (query: String) in query.uppercased() }
        XCTAssertEqual(search.execute("swift").record().values, ["SWIFT"])
        binding.dispose()
    }
}
