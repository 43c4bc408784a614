import TetherEngine
import XCTest

/// The owner-only reentrancy queue of the serial gate and of `@Observed`'s observer list.
final class ReentrantQueueTests: XCTestCase {
    func testOperationsComeOutInSubmissionOrderAndTheQueueIsEmptyAfterTheLast() {
        var queue = ReentrantQueue<Int>()
        XCTAssertTrue(queue.isEmpty)
        XCTAssertNil(queue.next())
        queue.append(1)
        queue.append(2)
        XCTAssertEqual(queue.count, 2)
        XCTAssertEqual(queue.next(), 1)
        XCTAssertEqual(queue.count, 1)
        XCTAssertEqual(queue.next(), 2)
        XCTAssertTrue(queue.isEmpty)
        XCTAssertNil(queue.next())
    }

    /// The doc comment's example: what a callback appends is taken after what was there before it.
    func testAnOperationAppendedWhileDrainingIsTakenAfterTheOnesBeforeIt() {
        var queue = ReentrantQueue<Int>()
        queue.append(1)
        queue.append(2)
        var performed: [Int] = []
        while let operation = queue.next() {
            performed.append(operation)
            // Each operation below 4 submits the next from inside its own callback.
            if operation < 4 && operation >= 2 { queue.append(operation + 1) }
        }
        XCTAssertEqual(performed, [1, 2, 3, 4])
        XCTAssertTrue(queue.isEmpty)
    }

    func testOperationsAreReleasedOnceTheQueueRunsEmpty() {
        final class Token {}
        weak var released: Token?
        var queue = ReentrantQueue<Token>()
        do {
            let token = Token()
            released = token
            queue.append(token)
        }
        XCTAssertNotNil(queue.next())
        XCTAssertNil(queue.next())
        XCTAssertNil(released, "the drained operation is not kept by the queue")
    }

    func testRemoveAllHandsBackTheWaitingOperationsOnly() {
        var queue = ReentrantQueue<String>()
        queue.append("a")
        queue.append("b")
        queue.append("c")
        XCTAssertEqual(queue.next(), "a")
        XCTAssertEqual(Array(queue.removeAll()), ["b", "c"])
        XCTAssertTrue(queue.isEmpty)
        XCTAssertNil(queue.next())
        queue.append("d")
        XCTAssertEqual(queue.next(), "d")
    }
}
