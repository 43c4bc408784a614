import Foundation
import TetherTestSupport
import XCTest

// `@testable` for the internal operator scaffold.
@testable import Observable

/// `PersistentList`, the parts of a chain of `concat`s or `catch`es: extending a list leaves it unchanged.
final class PersistentListTests: XCTestCase {
    func testAppendingMakesALongerListAndLeavesTheListItExtendedUnchanged() {
        let one = PersistentList("a")
        let three = one.appending("b").appending("c")
        let branch = one.appending("x")
        XCTAssertEqual(one.elements, ["a"])
        XCTAssertEqual(three.elements, ["a", "b", "c"])
        XCTAssertEqual(branch.elements, ["a", "x"])
        XCTAssertEqual([one.count, three.count, branch.count], [1, 3, 2])
        XCTAssertEqual(three.last, "c")
    }

    func testAListOfAHundredThousandElementsBuiltAndFreedOnASmallStackFreesEveryElement() {
        // Freed by nested releases, a hundred thousand nodes need megabytes of stack; the thread has 256 KB.
        let freed = Counter()
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            do {
                var list = PersistentList(FreeCounted(freed))
                for _ in 1..<100_000 { list = list.appending(FreeCounted(freed)) }
                XCTAssertEqual(list.count, 100_000)
                XCTAssertEqual(freed.value, 0)
            }
            done.signal()
        }
        thread.stackSize = 256 * 1024
        thread.start()
        XCTAssertEqual(done.wait(timeout: .now() + 60), .success)
        XCTAssertEqual(freed.value, 100_000)
    }
}
