import Observable
import TetherTesting
import XCTest

/// A test case that starts and ends with every debugging tool off (they are process-wide switches).
class DebugTestCase: ResourceCheckedTestCase {
    override func setUp() {
        super.setUp()
        TetherDebug.resetForTesting()
    }

    override func tearDown() {
        TetherDebug.resetForTesting()
        super.tearDown()
    }
}
