import Binding
import TetherTesting
import XCTest

final class BindingModuleTests: ResourceCheckedTestCase {
    func testImportingBindingGivesTheCoreTypes() {
        // `import Binding` alone re-exports Observable.
        let subject = BehaviorSubject<String, Never>(value: "a")
        var received: [String] = []
        subject.subscribe(next: { received.append($0) })
        XCTAssertEqual(received, ["a"])
    }
}
