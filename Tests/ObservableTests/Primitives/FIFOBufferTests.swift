import XCTest

@testable import Observable
@testable import TetherEngine

/// `FIFOBuffer`, the queue of `zip`, of `concat`'s waiting inners and of `AsyncSignal`'s buffer, driven
/// directly.
final class FIFOBufferTests: XCTestCase {
    func testRemovesInArrivalOrderAcrossCompactions() {
        var buffer = FIFOBuffer<Int>()
        var model: [Int] = []
        var next = 0
        // Appends outrun removals in waves, so that the consumed prefix is compacted many times while
        // values still wait.
        for wave in 0..<200 {
            for _ in 0..<(wave % 7 + 3) {
                buffer.append(next)
                model.append(next)
                next += 1
            }
            for _ in 0..<(wave % 5 + 2) where !model.isEmpty {
                XCTAssertEqual(buffer.removeFirst(), model.removeFirst())
            }
            XCTAssertEqual(buffer.count, model.count)
            XCTAssertEqual(buffer.isEmpty, model.isEmpty)
        }
        while !model.isEmpty {
            XCTAssertEqual(buffer.removeFirst(), model.removeFirst())
        }
        XCTAssertTrue(buffer.isEmpty)
        XCTAssertEqual(buffer.count, 0)
    }

    func testCompactsTheConsumedPrefixOnceItIsHalfTheStorage() {
        var buffer = FIFOBuffer<Int>()
        for value in 0..<100 { buffer.append(value) }
        for value in 0..<49 { XCTAssertEqual(buffer.removeFirst(), value) }
        XCTAssertEqual(buffer.head, 49, "49 of 100 consumed: less than half, not compacted yet")
        XCTAssertEqual(buffer.removeFirst(), 49)
        XCTAssertEqual(buffer.head, 0, "50 of 100 consumed: compacted")
        XCTAssertEqual(buffer.storage, Array(50..<100))
        XCTAssertEqual(buffer.count, 50)
    }

    func testKeepsSmallStorageWhenEmptiedSoASteadyFlowDoesNotAllocate() {
        var buffer = FIFOBuffer<Int>()
        for value in 0..<10 { buffer.append(value) }
        while !buffer.isEmpty { _ = buffer.removeFirst() }
        let capacity = buffer.storage.capacity
        XCTAssertGreaterThanOrEqual(capacity, 10)
        for round in 0..<1_000 {
            buffer.append(round)
            XCTAssertEqual(buffer.removeFirst(), round)
        }
        XCTAssertEqual(buffer.storage.capacity, capacity)
    }

    func testLetsGoOfLargeStorageWhenEmptied() {
        var buffer = FIFOBuffer<Int>()
        for value in 0..<1_000 { buffer.append(value) }
        for value in 0..<1_000 { XCTAssertEqual(buffer.removeFirst(), value) }
        XCTAssertTrue(buffer.isEmpty)
        XCTAssertLessThanOrEqual(buffer.storage.capacity, 64)
    }
}
