import Foundation
import Observable
import Synchronization
import TetherTestSupport
import TetherTesting
import XCTest

/// Stress: multi-source operators fed from several threads at once.
final class StressOperatorTests: ResourceCheckedTestCase {
    typealias Stamp = StressSubjectTests.Stamp

    func testCombineLatestOfFourInputsFedFromFourThreadsChangesOneInputPerOutputWithExactCount() {
        let inputs = 4
        let sendsPerInput = StressScale.scaled(50_000)
        let subjects = (0..<inputs).map { _ in Subject<Int, Never>() }
        let monitor = GrammarMonitor<[Int]>()
        var first: [Int]?
        var previous: [Int]?
        var badSteps = 0
        monitor.onValue = { values in
            if first == nil { first = values }
            if let previous {
                let changes = zip(previous, values).filter { $0 != $1 }
                if changes.count != 1 || changes[0].1 != changes[0].0 + 1 { badSteps += 1 }
            }
            previous = values
        }
        let subscription = monitor.subscribe(to: Signal.combineLatest(subjects))
        runThreads(inputs) { index in
            for value in 0..<sendsPerInput { subjects[index].send(value) }
            subjects[index].sendCompleted()
        }
        monitor.assertWellFormed("combineLatest")
        XCTAssertEqual(badSteps, 0, "each output differs from the previous in exactly one input, by one step")
        XCTAssertEqual(previous, Array(repeating: sendsPerInput - 1, count: inputs))
        // Every send after all inputs had a value makes exactly one output.
        let firstValues = first ?? []
        XCTAssertEqual(monitor.nextCount, inputs * sendsPerInput - firstValues.reduce(0, +) - (inputs - 1))
        XCTAssertEqual(monitor.terminalCount, 1, "completes once, after all inputs completed")
        XCTAssertTrue(subscription.isDisposed)
    }

    func testMergeOfEightInputsFedFromEightThreadsDeliversEveryValueOnceInPerInputOrder() {
        let inputs = 8
        let sendsPerInput = StressScale.scaled(50_000)
        let subjects = (0..<inputs).map { _ in Subject<Stamp, Never>() }
        let monitor = GrammarMonitor<Stamp>()
        let record = StressSubjectTests.ChurnRecord(senders: inputs)
        monitor.onValue = { record.see($0) }
        _ = monitor.subscribe(to: Signal.merge(subjects))
        runThreads(inputs) { index in
            for sequence in 0..<sendsPerInput { subjects[index].send(Stamp(thread: index, sequence: sequence)) }
            subjects[index].sendCompleted()
        }
        monitor.assertWellFormed("merge")
        XCTAssertEqual(monitor.nextCount, inputs * sendsPerInput)
        XCTAssertEqual(record.gaps + record.reordered, 0)
        XCTAssertEqual(monitor.terminalCount, 1)
    }

    func testFlatMapOfInnersSendingFromTheirOwnThreadsDeliversEveryValueOnceAndCompletesAfterTheLast() {
        let inners = 8
        let sendsPerInner = StressScale.scaled(25_000)
        let started = DispatchGroup()
        let outer = Subject<Int, Never>()
        let flattened = outer.flatMap { index in
            // A cold inner that sends from a thread of its own, started by the subscription.
            Signal<Stamp, Never> { observer in
                started.enter()
                let thread = Thread {
                    for sequence in 0..<sendsPerInner { observer.send(Stamp(thread: index, sequence: sequence)) }
                    observer.sendCompleted()
                    started.leave()
                }
                thread.start()
                return nil
            }
        }
        let monitor = GrammarMonitor<Stamp>()
        let record = StressSubjectTests.ChurnRecord(senders: inners)
        monitor.onValue = { record.see($0) }
        let subscription = monitor.subscribe(to: flattened)
        runThreads(2) { half in
            for index in stride(from: half, to: inners, by: 2) { outer.send(index) }
        }
        outer.sendCompleted()
        XCTAssertEqual(started.wait(timeout: .now() + 120), .success)
        waitUntil { subscription.isDisposed }
        monitor.assertWellFormed("flatMap")
        XCTAssertEqual(monitor.nextCount, inners * sendsPerInner)
        XCTAssertEqual(record.gaps + record.reordered, 0)
        XCTAssertEqual(monitor.terminalCount, 1)
    }

    func testSwitchToLatestFedFromSeveralThreadsNeverForwardsAReplacedInnersValue() {
        let generations = StressScale.scaled(2_000)
        let feeders = 4
        let outer = Subject<Subject<Stamp, Never>, Never>()
        let current = LockedInners()
        let monitor = GrammarMonitor<Stamp>()
        var lastGeneration = -1
        var regressions = 0
        monitor.onValue = { stamp in
            if stamp.thread < lastGeneration { regressions += 1 }
            lastGeneration = stamp.thread
        }
        let subscription = monitor.subscribe(to: outer.switchToLatest())
        let switching = Flag()
        runThreads(feeders + 1) { index in
            if index == feeders {
                for generation in 0..<generations {
                    let inner = Subject<Stamp, Never>()
                    current.append(inner)
                    outer.send(inner)
                    if generation % 64 == 0 { spin(5_000) }
                }
                switching.raise()
                return
            }
            // Feeders send into the newest inner and into stale ones (which must be ignored).
            var sequence = 0
            while !switching.isRaised {
                let (generation, inner) = current.pick(stale: sequence % 3 == 0)
                inner?.send(Stamp(thread: generation, sequence: sequence))
                sequence += 1
            }
        }
        outer.sendCompleted()
        XCTAssertFalse(subscription.isDisposed, "the current inner is still live")
        let (lastIndex, last) = current.pick(stale: false)
        last?.send(Stamp(thread: lastIndex, sequence: -1))
        last?.sendCompleted()
        monitor.assertWellFormed("switchToLatest")
        XCTAssertEqual(regressions, 0, "a value of a replaced inner was forwarded after a newer inner's value")
        XCTAssertEqual(lastGeneration, generations - 1)
        XCTAssertEqual(monitor.terminalCount, 1)
        XCTAssertTrue(subscription.isDisposed)
    }

    func testDeliverOnAQueueSchedulerFedFromEightThreadsKeepsEachSendersOrderAndCount() {
        let senders = 8
        let sendsPerSender = StressScale.scaled(25_000)
        let subject = Subject<Stamp, Never>()
        let monitor = GrammarMonitor<Stamp>()
        let record = StressSubjectTests.ChurnRecord(senders: senders)
        monitor.onValue = { record.see($0) }
        let finished = expectation(description: "completed")
        let subscription = subject.deliver(on: QueueScheduler(name: "stress.deliver"))
            .doCompleted { finished.fulfill() }
            .subscribeEvents { monitor.receive($0) }
        runThreads(senders) { index in
            for sequence in 0..<sendsPerSender { subject.send(Stamp(thread: index, sequence: sequence)) }
        }
        subject.sendCompleted()
        wait(for: [finished], timeout: 120)
        waitUntil { subscription.isDisposed }
        monitor.assertWellFormed("deliver(on:)")
        XCTAssertEqual(monitor.nextCount, senders * sendsPerSender)
        XCTAssertEqual(record.gaps + record.reordered, 0)
    }
}

/// The inners a switchToLatest test has sent, newest last.
final class LockedInners: @unchecked Sendable {
    private let lock = NSLock()
    private var inners: [Subject<StressSubjectTests.Stamp, Never>] = []

    func append(_ inner: Subject<StressSubjectTests.Stamp, Never>) {
        lock.withLock { inners.append(inner) }
    }

    /// The newest inner, or (when `stale`) one a few generations older; with its generation.
    func pick(stale: Bool) -> (Int, Subject<StressSubjectTests.Stamp, Never>?) {
        lock.withLock {
            guard !inners.isEmpty else { return (-1, nil) }
            let index = stale ? max(0, inners.count - 1 - 3) : inners.count - 1
            return (index, inners[index])
        }
    }
}
