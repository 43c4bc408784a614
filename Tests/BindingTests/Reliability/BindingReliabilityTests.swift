import Binding
import Foundation
import Observable
import Synchronization
import TetherTestSupport
import TetherTesting
import XCTest

/// A binding target that can be told to let go of itself while a value is being set.
final class DyingTarget: KeyPathObservable, @unchecked Sendable {
    @Observed var tick = 0  // storage the object owns: how Tether sees it deallocate
    var onSet: (() -> Void)?
    var text = "" {
        didSet { onSet?() }
    }
}

/// Holds the last strong reference to a target.
final class TargetHolder: @unchecked Sendable {
    var target: DyingTarget?
    init(_ target: DyingTarget) { self.target = target }
}

/// Bindings whose targets die at awkward moments (ReactiveSwift #135–#137), and bad input to a
/// command (a disabled command is an error event, loses nothing, starts nothing).
final class BindingReliabilityTests: ResourceCheckedTestCase {
    func testABindingWhoseTargetDeallocatesInsideItsOwnDeliveryEndsOnceWithoutDeadlock() {
        let source = Subject<String, Never>()
        let others = GrammarMonitor<String>()
        let othersSubscription = others.subscribe(to: source)
        let sourceDisposals = Atomic<Int>(0)
        let counted = Signal<String, Never> { observer in
            let inner = source.subscribe(observer)
            return AnyDisposable {
                inner.dispose()
                sourceDisposals.add(1, ordering: .relaxed)
            }
        }
        let holder = TargetHolder(DyingTarget())
        let deallocations = GrammarMonitor<Void>()
        _ = deallocations.subscribe(to: holder.target!.deallocated)
        let binding = holder.target!.bind(\.text, to: counted)
        holder.target?.onSet = { [holder] in holder.target = nil }  // the set releases the last reference
        let finished = expectation(description: "the send returned")
        DispatchQueue.global().async {
            source.send("first")  // the target dies at the end of this very delivery
            source.send("second")
            finished.fulfill()
        }
        wait(for: [finished], timeout: 5)
        XCTAssertNil(holder.target)
        XCTAssertTrue(binding.isDisposed, "the binding ended with its target")
        XCTAssertEqual(sourceDisposals.load(ordering: .relaxed), 1, "the source subscription ended exactly once")
        deallocations.assertWellFormed("deallocated")
        XCTAssertEqual(deallocations.terminalCount, 1)
        XCTAssertEqual(others.nextCount, 2, "the source's other subscribers lost nothing")
        othersSubscription.dispose()
    }

    func testBindingsWhoseTargetsDieOnOtherThreadsWhileThreadsSendEndWithoutCrashOrDeadlock() {
        let rounds = StressScale.scaled(300)
        let problems = ProblemLog()
        for round in 0..<rounds {
            let source = Subject<String, Never>()
            let holders = (0..<4).map { _ in TargetHolder(DyingTarget()) }
            let bindings = holders.map { $0.target!.bind(\.text, to: source.map { $0 }) }
            let started = Atomic<Int>(0)
            let allDone = runThreads(4, timeout: 10) { index in
                if index < 2 {
                    for value in 0..<200 { source.send("\(index)-\(value)") }
                } else {
                    // Let the senders get going, then drop the targets (the bindings hold them weakly).
                    while started.load(ordering: .relaxed) == 0 {
                        started.store(1, ordering: .relaxed)
                        spin(1_000)
                    }
                    for (position, holder) in holders.enumerated() where position % 2 == index - 2 {
                        holder.target = nil
                    }
                }
            }
            if !allDone { return }
            source.send("after")
            let open = bindings.filter { !$0.isDisposed }.count
            if open > 0 { problems.add("round \(round): \(open) binding(s) outlived their target") }
        }
        XCTAssertEqual(problems.entries, [])
    }

    // MARK: Bad input: a disabled command

    func testExecutingADisabledCommandFailsWithDisabledStartsNothingAndLeavesTheRunningExecutionAlone() {
        let work = Subject<Int, Never>()
        let started = Atomic<Int>(0)
        let command = Command<Int, Int, Never> { _ in
            started.add(1, ordering: .relaxed)
            return work.signal
        }
        var executing: [Bool] = []
        let executingMonitor = GrammarMonitor<Bool>()
        executingMonitor.onValue = { executing.append($0) }
        let executingSubscription = executingMonitor.subscribe(to: command.executing)
        let executions = GrammarMonitor<Signal<Int, Never>>()
        let executionsSubscription = executions.subscribe(to: command.executionSignals)
        let errors = GrammarMonitor<Never>()
        let errorsSubscription = errors.subscribe(to: command.errors)

        let first = GrammarMonitor<Int>()
        var firstValues: [Int] = []
        first.onValue = { firstValues.append($0) }
        _ = first.subscribe(to: command.execute(1).catch { _ in Signal<Int, Never>.empty })

        var refusal: CommandError<Never>?
        let second = command.execute(2).subscribe(error: { refusal = $0 })
        guard case .disabled? = refusal else {
            return XCTFail("expected .disabled, got \(String(describing: refusal))")
        }
        XCTAssertTrue(second.isDisposed)
        XCTAssertEqual(started.load(ordering: .relaxed), 1, "the refused execution started no work")
        XCTAssertEqual(executions.nextCount, 1, "no execution signal for the refused one")

        work.send(10)  // the running execution goes on, untouched
        work.sendCompleted()
        XCTAssertEqual(firstValues, [10])
        XCTAssertEqual(first.terminalCount, 1)
        XCTAssertEqual(executing, [false, true, false])
        XCTAssertEqual(errors.nextCount, 0, "a refusal is not an execution error")
        // Enabled again: the next execution runs.
        XCTAssertEqual(command.execute(3).collect().first(), [])
        XCTAssertEqual(started.load(ordering: .relaxed), 2)
        executingSubscription.dispose()
        executionsSubscription.dispose()
        errorsSubscription.dispose()
    }

    func testExecutingACommandDisabledByItsEnabledInputFailsUntilTheInputAllowsIt() {
        let enabled = MutableProperty(false)
        let started = Atomic<Int>(0)
        let command = Command<Int, Int, Never>(enabled: enabled) { input in
            started.add(1, ordering: .relaxed)
            return Signal(value: input)
        }
        var refusal: CommandError<Never>?
        command.execute(1).subscribe(error: { refusal = $0 })
        guard case .disabled? = refusal else { return XCTFail("expected .disabled") }
        XCTAssertEqual(started.load(ordering: .relaxed), 0)
        enabled.value = true
        XCTAssertEqual(command.execute(2).collect().first(), [2])
        XCTAssertEqual(started.load(ordering: .relaxed), 1)
    }
}

extension SignalConvertible {
    /// The first value, synchronously (for signals that send at once), or `nil`.
    func first() -> Value? {
        var result: Value?
        _ = take(1).subscribe(next: { result = $0 })
        return result
    }
}
