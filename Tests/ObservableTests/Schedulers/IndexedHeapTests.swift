import Observable
import XCTest

/// `IndexedHeap` (the queue behind `TestScheduler`), tested directly: order, removal from anywhere,
/// the indices it keeps, and the work it does (counted in comparisons, never timed).
final class IndexedHeapTests: XCTestCase {
    func testPopMinReturnsElementsInPriorityOrder() {
        var heap = IndexedHeap<Job>()
        var random = SeededGenerator(seed: 1)
        let priorities = (0..<1_000).map { _ in Int(random.next() % 10_000) }
        for priority in priorities { heap.insert(Job(priority)) }
        XCTAssertEqual(heap.count, priorities.count)
        XCTAssertTrue(heap.isValid())
        var popped: [Int] = []
        while let job = heap.popMin() {
            XCTAssertNil(job.heapIndex)
            popped.append(job.heapPriority)
        }
        XCTAssertEqual(popped, priorities.sorted())
        XCTAssertTrue(heap.isEmpty)
        XCTAssertNil(heap.popMin())
    }

    func testMinIsTheSmallestAndStaysInTheHeap() {
        var heap = IndexedHeap<Job>()
        XCTAssertNil(heap.min)
        for priority in [5, 3, 8, 1, 9] { heap.insert(Job(priority)) }
        XCTAssertEqual(heap.min?.heapPriority, 1)
        XCTAssertEqual(heap.count, 5)
        XCTAssertEqual(heap.min?.heapIndex, 0)
    }

    func testRemovingTheMinimumAMiddleAndTheLastElement() {
        var heap = IndexedHeap<Job>()
        let jobs = (0..<15).map { Job($0) }
        for job in jobs.reversed() { heap.insert(job) }
        XCTAssertTrue(heap.remove(jobs[0]))  // the root
        XCTAssertTrue(heap.isValid())
        let last = jobs.first { $0.heapIndex == heap.count - 1 }!
        XCTAssertTrue(heap.remove(last))  // the last slot: nothing moves
        XCTAssertTrue(heap.isValid())
        XCTAssertTrue(heap.remove(jobs[7]))  // somewhere in between
        XCTAssertTrue(heap.isValid())
        for job in [jobs[0], last, jobs[7]] {
            XCTAssertNil(job.heapIndex)
            XCTAssertFalse(heap.contains(job))
        }
        var popped: [Int] = []
        while let job = heap.popMin() { popped.append(job.heapPriority) }
        let removed = Set([0, last.heapPriority, 7])
        XCTAssertEqual(popped, (0..<15).filter { !removed.contains($0) })
    }

    func testRemovingAnElementThatIsNotInTheHeapDoesNothing() {
        var heap = IndexedHeap<Job>()
        var other = IndexedHeap<Job>()
        let mine = Job(1)
        let theirs = Job(2)
        heap.insert(mine)
        other.insert(theirs)
        XCTAssertFalse(heap.remove(theirs))  // in another heap, at an index this one also has
        XCTAssertFalse(heap.remove(Job(3)))  // in no heap
        XCTAssertTrue(heap.remove(mine))
        XCTAssertFalse(heap.remove(mine))  // already removed
        XCTAssertEqual(heap.count, 0)
        XCTAssertEqual(other.count, 1)
        XCTAssertEqual(theirs.heapIndex, 0)
    }

    func testARemovedElementCanBeInsertedAgain() {
        var heap = IndexedHeap<Job>()
        let job = Job(4)
        heap.insert(job)
        heap.insert(Job(2))
        heap.remove(job)
        heap.insert(job)
        XCTAssertTrue(heap.contains(job))
        XCTAssertEqual(heap.popMin()?.heapPriority, 2)
        XCTAssertTrue(heap.popMin() === job)
    }

    /// Random inserts, pops and removals from anywhere, checked against a sorted array after each step.
    func testRandomOperationsMatchASortedReference() {
        var heap = IndexedHeap<Job>()
        var reference: [Job] = []
        var random = SeededGenerator(seed: 42)
        for step in 0..<5_000 {
            switch random.next() % 4 {
            case 0, 1:
                let job = Job(Int(random.next() % 500))
                heap.insert(job)
                reference.append(job)
            case 2:
                let popped = heap.popMin()
                let smallest = reference.map(\.heapPriority).min()
                XCTAssertEqual(popped?.heapPriority, smallest, "step \(step)")
                if let popped { reference.removeAll { $0 === popped } }
            default:
                guard !reference.isEmpty else { continue }
                let victim = reference.remove(at: Int(random.next() % UInt64(reference.count)))
                XCTAssertTrue(heap.remove(victim), "step \(step)")
            }
            XCTAssertEqual(heap.count, reference.count)
            if step.isMultiple(of: 97) { XCTAssertTrue(heap.isValid(), "step \(step)") }
        }
        XCTAssertTrue(heap.isValid())
        var popped: [Int] = []
        while let job = heap.popMin() { popped.append(job.heapPriority) }
        XCTAssertEqual(popped, reference.map(\.heapPriority).sorted())
    }

    /// Each operation makes at most 2·log2(n) + 2 comparisons: n inserts, n/2 removals from anywhere
    /// and n/2 pops stay within 2n of them, for every n (a sorted array would do n²/4 moves).
    func testComparisonsPerOperationAreLogarithmic() {
        for n in [1_000, 10_000, 40_000] {
            var heap = IndexedHeap<Job>()
            var random = SeededGenerator(seed: UInt64(n))
            let jobs = (0..<n).map { _ in Job(Int(random.next() % 1_000_000)) }
            var worst = 0
            func measure(_ operation: (inout IndexedHeap<Job>) -> Void) {
                let before = heap.comparisons
                operation(&heap)
                worst = max(worst, heap.comparisons - before)
            }
            for job in jobs { measure { $0.insert(job) } }
            for job in jobs.enumerated().filter({ $0.offset.isMultiple(of: 2) }).map(\.element) {
                measure { $0.remove(job) }
            }
            while !heap.isEmpty { measure { $0.popMin() } }
            let log2n = log2(Double(n))
            XCTAssertLessThanOrEqual(Double(worst), 2 * log2n + 2, "n = \(n)")
            XCTAssertLessThanOrEqual(Double(heap.comparisons), 2 * Double(n) * (2 * log2n + 2), "n = \(n)")
        }
    }

    func testEqualPrioritiesAllComeOut() {
        var heap = IndexedHeap<Job>()
        let jobs = (0..<100).map { _ in Job(7) }
        for job in jobs { heap.insert(job) }
        var seen = 0
        while let job = heap.popMin() {
            XCTAssertEqual(job.heapPriority, 7)
            seen += 1
        }
        XCTAssertEqual(seen, 100)
    }
}

private final class Job: IndexedHeapElement {
    let heapPriority: Int
    var heapIndex: Int?
    init(_ priority: Int) { heapPriority = priority }
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
