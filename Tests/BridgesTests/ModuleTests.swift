import Bridges
import TetherTesting
import XCTest

final class BridgesModuleTests: ResourceCheckedTestCase {
    func testImportingBridgesGivesTheCoreTypes() {
        // `import Bridges` alone re-exports Observable.
        let subject = Subject<Int, Never>()
        var received: [Int] = []
        subject.subscribe(next: { received.append($0) })
        subject.send(1)
        XCTAssertEqual(received, [1])
    }
}
