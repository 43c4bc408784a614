import Observable
import XCTest

/// `IndexedHeap` (the queue behind `TestScheduler`), tested directly: order, removal by key from
/// anywhere, the positions it keeps, and the work it does (counted in comparisons, never timed).
final class IndexedHeapTests: XCTestCase {
    /// Keys are the insertion numbers; the payload repeats the priority, to check it travels with it.
    typealias Heap = IndexedHeap<Int, Int, String>

    func testPopMinReturnsElementsInPriorityOrder() {
        var heap = Heap()
        var random = SeededGenerator(seed: 1)
        let priorities = (0..<1_000).map { _ in Int(random.next() % 10_000) }
        for (key, priority) in priorities.enumerated() {
            heap.insert(key: key, priority: priority, payload: "\(priority)")
        }
        XCTAssertEqual(heap.count, priorities.count)
        XCTAssertTrue(heap.isValid())
        var popped: [Int] = []
        while let element = heap.popMin() {
            XCTAssertFalse(heap.contains(element.key))
            XCTAssertEqual(element.payload, "\(element.priority)")
            XCTAssertEqual(priorities[element.key], element.priority)
            popped.append(element.priority)
        }
        XCTAssertEqual(popped, priorities.sorted())
        XCTAssertTrue(heap.isEmpty)
        XCTAssertNil(heap.popMin())
    }

    func testMinIsTheSmallestAndStaysInTheHeap() {
        var heap = Heap()
        XCTAssertNil(heap.min)
        for (key, priority) in [5, 3, 8, 1, 9].enumerated() { heap.insert(key: key, priority: priority, payload: "") }
        XCTAssertEqual(heap.min?.priority, 1)
        XCTAssertEqual(heap.min?.key, 3)
        XCTAssertEqual(heap.count, 5)
        XCTAssertTrue(heap.contains(3))
    }

    func testRemovingTheMinimumAMiddleAndTheLastElement() {
        var heap = Heap()
        for priority in (0..<15).reversed() { heap.insert(key: priority, priority: priority, payload: "\(priority)") }
        XCTAssertEqual(heap.remove(0)?.payload, "0")  // the root
        XCTAssertTrue(heap.isValid())
        XCTAssertEqual(heap.remove(14)?.priority, 14)  // inserted first: a leaf
        XCTAssertTrue(heap.isValid())
        XCTAssertEqual(heap.remove(7)?.priority, 7)  // somewhere in between
        XCTAssertTrue(heap.isValid())
        for key in [0, 14, 7] { XCTAssertFalse(heap.contains(key)) }
        var popped: [Int] = []
        while let element = heap.popMin() { popped.append(element.priority) }
        XCTAssertEqual(popped, (0..<15).filter { ![0, 14, 7].contains($0) })
    }

    func testRemovingAKeyThatIsNotInTheHeapDoesNothing() {
        var heap = Heap()
        heap.insert(key: 1, priority: 1, payload: "one")
        XCTAssertNil(heap.remove(2))  // never inserted
        XCTAssertEqual(heap.remove(1)?.payload, "one")
        XCTAssertNil(heap.remove(1))  // already removed
        XCTAssertEqual(heap.count, 0)
        XCTAssertTrue(heap.isValid())
    }

    func testARemovedKeyCanBeInsertedAgainWithAnotherPriority() {
        var heap = Heap()
        heap.insert(key: 1, priority: 4, payload: "first")
        heap.insert(key: 2, priority: 2, payload: "other")
        let removed = heap.remove(1)
        XCTAssertEqual(removed?.priority, 4)
        heap.insert(key: 1, priority: 1, payload: "again")
        XCTAssertTrue(heap.contains(1))
        XCTAssertEqual(heap.popMin()?.payload, "again")
        XCTAssertEqual(heap.popMin()?.payload, "other")
    }

    func testRemoveAllEmptiesTheHeapAndForgetsEveryKey() {
        var heap = Heap()
        for key in 0..<10 { heap.insert(key: key, priority: 10 - key, payload: "") }
        let removed = heap.removeAll()
        XCTAssertEqual(Set(removed.map(\.key)), Set(0..<10))
        XCTAssertTrue(heap.isEmpty)
        XCTAssertFalse(heap.contains(3))
        heap.insert(key: 3, priority: 0, payload: "")  // the key is free again
        XCTAssertTrue(heap.isValid())
    }

    /// Random inserts, pops and removals from anywhere, checked against a plain array after each step.
    func testRandomOperationsMatchASortedReference() {
        var heap = Heap()
        var reference: [(key: Int, priority: Int)] = []
        var random = SeededGenerator(seed: 42)
        var nextKey = 0
        for step in 0..<5_000 {
            switch random.next() % 4 {
            case 0, 1:
                let priority = Int(random.next() % 500)
                heap.insert(key: nextKey, priority: priority, payload: "")
                reference.append((nextKey, priority))
                nextKey += 1
            case 2:
                let popped = heap.popMin()
                let smallest = reference.map(\.priority).min()
                XCTAssertEqual(popped?.priority, smallest, "step \(step)")
                if let popped { reference.removeAll { $0.key == popped.key } }
            default:
                guard !reference.isEmpty else { continue }
                let victim = reference.remove(at: Int(random.next() % UInt64(reference.count)))
                XCTAssertEqual(heap.remove(victim.key)?.priority, victim.priority, "step \(step)")
            }
            XCTAssertEqual(heap.count, reference.count)
            if step.isMultiple(of: 97) { XCTAssertTrue(heap.isValid(), "step \(step)") }
        }
        XCTAssertTrue(heap.isValid())
        var popped: [Int] = []
        while let element = heap.popMin() { popped.append(element.priority) }
        XCTAssertEqual(popped, reference.map(\.priority).sorted())
    }

    /// Each operation makes at most 2·log2(n) + 2 comparisons: n inserts, n/2 removals from anywhere
    /// and n/2 pops stay within 2n of them, for every n (a sorted array would do n²/4 moves).
    func testComparisonsPerOperationAreLogarithmic() {
        for n in [1_000, 10_000, 40_000] {
            var heap = Heap()
            var random = SeededGenerator(seed: UInt64(n))
            let priorities = (0..<n).map { _ in Int(random.next() % 1_000_000) }
            var worst = 0
            func measure(_ operation: (inout Heap) -> Void) {
                let before = heap.comparisons
                operation(&heap)
                worst = max(worst, heap.comparisons - before)
            }
            for (key, priority) in priorities.enumerated() {
                measure { $0.insert(key: key, priority: priority, payload: "") }
            }
            for key in stride(from: 0, to: n, by: 2) { measure { $0.remove(key) } }
            while !heap.isEmpty { measure { $0.popMin() } }
            let log2n = log2(Double(n))
            XCTAssertLessThanOrEqual(Double(worst), 2 * log2n + 2, "n = \(n)")
            XCTAssertLessThanOrEqual(Double(heap.comparisons), 2 * Double(n) * (2 * log2n + 2), "n = \(n)")
        }
    }

    func testEqualPrioritiesAllComeOut() {
        var heap = Heap()
        for key in 0..<100 { heap.insert(key: key, priority: 7, payload: "") }
        var seen = Set<Int>()
        while let element = heap.popMin() {
            XCTAssertEqual(element.priority, 7)
            seen.insert(element.key)
        }
        XCTAssertEqual(seen, Set(0..<100))
    }
}

/// A seeded generator (SplitMix64), so that the random cases are the same on every run.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
