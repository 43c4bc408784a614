import Foundation
import Observable
import Synchronization
import TetherTestSupport
import XCTest

/// The 40-byte `CompositeDisposable`'s states (issue 45): no child, one child held inline (a closure or a
/// disposable, key 0), an overflow buffer once a second key is handed out, and disposed — with the thread
/// disposing the children, which a second `dispose()` waits for (parked on the composite's `HeldFlag`)
/// unless waiting would deadlock. Each of `remove`, `renewIfFinished`, pruning and `count` with 0, 1, 2 and
/// many children; the waits driven through the interleaving harness (it learns of parks from `ParkingLot`).
final class CompositeDisposableStatesTests: XCTestCase {
    /// A disposable that counts its disposals and records its name when disposed.
    private final class Probe: Disposable {
        let name: String
        let log: Locked<[String]>
        let disposals = Atomic<Int>(0)
        init(_ name: String, log: Locked<[String]>) {
            self.name = name
            self.log = log
        }
        var isDisposed: Bool { disposals.load(ordering: .relaxed) > 0 }
        func dispose() {
            if disposals.add(1, ordering: .relaxed).newValue == 1 { log.mutate { $0.append(name) } }
        }
    }

    // MARK: Two disposers

    func testASecondDisposerParksUntilTheFirstHasDisposedEveryChild() {
        let composite = CompositeDisposable()
        let log = Locked<[String]>([])
        composite.add {
            Interleaving.point("in child")
            log.mutate { $0.append("child disposed") }
        }
        let run = Interleaving()
        let first = run.spawn("first") {
            composite.dispose()
            log.mutate { $0.append("first returned") }
        }
        let second = run.spawn("second") {
            composite.dispose()
            log.mutate { $0.append("second returned") }
        }
        XCTAssertEqual(run.step(first), .ready("in child"))
        XCTAssertTrue(composite.isDisposed, "disposed from the start of the disposal")
        XCTAssertTrue(run.step(second).isParked, "the second disposer waits for the first")
        XCTAssertTrue(run.finish())
        let order = log.value
        XCTAssertEqual(order.first, "child disposed")
        XCTAssertEqual(Set(order.dropFirst()), ["first returned", "second returned"])
        XCTAssertEqual(order.count, 3, "the child was disposed once")
    }

    func testManySecondDisposersOfACompositeWithManyChildrenAllWaitForTheFirst() {
        let composite = CompositeDisposable()
        let log = Locked<[String]>([])
        composite.add { Interleaving.point("in child 0") }
        for index in 1...40 { composite.add(Probe("\(index)", log: log)) }
        let run = Interleaving()
        let returned = Locked<[Int]>([])
        let first = run.spawn("first") { composite.dispose() }
        let others = (1...3).map { index in
            run.spawn("disposer \(index)") {
                composite.dispose()
                returned.mutate { $0.append(log.value.count) }
            }
        }
        XCTAssertEqual(run.step(first), .ready("in child 0"))
        for other in others { XCTAssertTrue(run.step(other).isParked) }
        XCTAssertTrue(run.finish())
        XCTAssertEqual(log.value, (1...40).map(String.init), "every child once, in the order added")
        XCTAssertEqual(returned.value, [40, 40, 40], "each second disposer returned after the last child")
    }

    /// In every schedule of two disposers, a child is disposed once, and neither `dispose()` returns before it.
    func testInEveryScheduleOfTwoDisposersNeitherReturnsBeforeTheChildrenAreDisposed() {
        let schedules = exploreInterleavings { run in
            let composite = CompositeDisposable()
            let disposed = Locked<[String]>([])
            let early = Locked<[String]>([])
            composite.add {
                Interleaving.point("in first child")
                disposed.mutate { $0.append("first") }
            }
            composite.add {
                Interleaving.point("in second child")
                disposed.mutate { $0.append("second") }
            }
            for name in ["A", "B"] {
                run.spawn(name) {
                    composite.dispose()
                    if disposed.value != ["first", "second"] {
                        early.mutate { $0.append("\(name): \(disposed.value)") }
                    }
                }
            }
            return { early.value }
        }
        XCTAssertGreaterThan(schedules, 2)
    }

    // MARK: Waits that would deadlock

    func testADisposeFromInsideAChildReturnsAtOnce() {
        let composite = CompositeDisposable()
        let log = Locked<[String]>([])
        composite.add {
            composite.dispose()  // the disposing thread: returns at once
            log.mutate { $0.append("reentrant dispose returned") }
        }
        composite.add { log.mutate { $0.append("second child") } }
        let returned = startThread { composite.dispose() }
        waitOrFail(returned, "a dispose() from inside a child of the same composite")
        XCTAssertEqual(log.value, ["reentrant dispose returned", "second child"])
    }

    func testAChildAddedDuringDisposalIsDisposedAtOnce() {
        let composite = CompositeDisposable()
        let log = Locked<[String]>([])
        composite.add {
            let key = composite.add { log.mutate { $0.append("added during disposal") } }
            XCTAssertNil(key, "no key from a disposed composite")
            log.mutate { $0.append("child") }
        }
        composite.dispose()
        XCTAssertEqual(log.value, ["added during disposal", "child"])
    }

    /// The first disposer waits (firmly) for a callback running on the second thread, and that callback
    /// disposes the composite: the second `dispose()` must return at once (WaitGraph finds the cycle).
    func testADisposerThatTheFirstDisposerWaitsForReturnsAtOnce() {
        let subject = Subject<Int, Never>()
        let composite = CompositeDisposable()
        let log = Locked<[String]>([])
        let subscription = subject.subscribe(next: { _ in
            Interleaving.point("in callback")
            composite.dispose()
            log.mutate { $0.append("the callback's dispose returned") }
        })
        composite.add(subscription)
        let run = Interleaving()
        let sender = run.spawn("sender") { subject.send(1) }
        let disposer = run.spawn("disposer") {
            composite.dispose()
            log.mutate { $0.append("the first dispose returned") }
        }
        XCTAssertEqual(run.step(sender), .ready("in callback"))
        XCTAssertTrue(run.step(disposer).isParked, "disposing the subscription waits for its callback")
        XCTAssertTrue(run.finish())
        XCTAssertEqual(log.value, ["the callback's dispose returned", "the first dispose returned"])
    }

    func testASecondDisposeAfterTheFirstFinishedReturnsAtOnce() {
        let composite = CompositeDisposable()
        let runs = Locked(0)
        composite.add { runs.mutate { $0 += 1 } }
        composite.dispose()
        let run = Interleaving()
        let second = run.spawn("second") { composite.dispose() }
        XCTAssertEqual(run.step(second), .finished)
        XCTAssertEqual(run.parks(of: second), 0)
        XCTAssertEqual(runs.value, 1)
    }

    // MARK: remove, by number of children

    func testRemoveWithNoChildDoesNothing() throws {
        let composite = CompositeDisposable()
        composite.remove(try XCTUnwrap(composite.add(AnyDisposable())))  // key 0, then removed
        composite.remove(try XCTUnwrap(composite.add { XCTFail("removed") }))  // key 1
        XCTAssertEqual(composite.count, 0)
        let finished = AnyDisposable()
        finished.dispose()
        let key = try XCTUnwrap(composite.add(finished), "a finished disposable is not kept")
        composite.remove(key)
        composite.dispose()
        XCTAssertTrue(composite.isDisposed)
    }

    func testRemovingTheOnlyChildInlineLeavesNothingToDisposeWhetherClosureOrDisposable() throws {
        let log = Locked<[String]>([])
        let withClosure = CompositeDisposable()
        withClosure.remove(try XCTUnwrap(withClosure.add { log.mutate { $0.append("closure") } }))
        let withDisposable = CompositeDisposable()
        let probe = Probe("disposable", log: log)
        withDisposable.remove(try XCTUnwrap(withDisposable.add(probe)))
        XCTAssertEqual(withClosure.count, 0)
        XCTAssertEqual(withDisposable.count, 0)
        withClosure.dispose()
        withDisposable.dispose()
        XCTAssertEqual(log.value, [])
        XCTAssertFalse(probe.isDisposed)
    }

    func testAStaleKeyDoesNotRemoveAChildAddedAfter() throws {
        let composite = CompositeDisposable()
        let log = Locked<[String]>([])
        let first = try XCTUnwrap(composite.add { log.mutate { $0.append("first") } })
        composite.remove(first)
        let second = try XCTUnwrap(composite.add { log.mutate { $0.append("second") } })
        XCTAssertNotEqual(first, second, "a key is handed out once")
        composite.remove(first)  // stale: nothing to remove
        XCTAssertEqual(composite.count, 1)
        composite.dispose()
        XCTAssertEqual(log.value, ["second"])
    }

    func testRemovingEitherOfTwoChildrenDisposesOnlyTheOther() throws {
        for removedIndex in 0..<2 {
            let composite = CompositeDisposable()
            let log = Locked<[String]>([])
            let keys = try (0..<2).map { index in try XCTUnwrap(composite.add(Probe("\(index)", log: log))) }
            composite.remove(keys[removedIndex])
            XCTAssertEqual(composite.count, 1)
            composite.dispose()
            XCTAssertEqual(log.value, ["\(1 - removedIndex)"])
        }
    }

    func testManyChildrenAreDisposedInOrderWithoutTheRemovedOnes() throws {
        let composite = CompositeDisposable()
        let log = Locked<[String]>([])
        var keys: [CompositeDisposable.Key] = []
        for index in 0..<200 {
            if index % 2 == 0 {
                keys.append(try XCTUnwrap(composite.add { log.mutate { $0.append("\(index)") } }))
            } else {
                keys.append(try XCTUnwrap(composite.add(Probe("\(index)", log: log))))
            }
        }
        XCTAssertEqual(Set(keys).count, 200, "distinct keys")
        for index in stride(from: 0, to: 200, by: 3) { composite.remove(keys[index]) }
        XCTAssertEqual(composite.count, 200 - 67)
        composite.dispose()
        let expected = (0..<200).filter { $0 % 3 != 0 }.map(String.init)
        XCTAssertEqual(log.value, expected)
        XCTAssertEqual(composite.count, 0)
    }

    // MARK: renewIfFinished, by number of children

    func testACompositeWhoseOnlyChildWasADisposableIsRenewed() {
        let log = Locked<[String]>([])
        let composite = CompositeDisposable()
        composite.add(Probe("first life", log: log))
        composite.dispose()
        XCTAssertTrue(composite.renewIfFinished())
        XCTAssertFalse(composite.isDisposed)
        XCTAssertNotNil(composite.add(Probe("second life", log: log)))
        composite.dispose()
        XCTAssertEqual(log.value, ["first life", "second life"])
    }

    func testACompositeThatHeldManyChildrenIsNotRenewed() {
        let composite = CompositeDisposable()
        for _ in 0..<50 { composite.add {} }
        XCTAssertFalse(composite.renewIfFinished(), "not disposed")
        composite.dispose()
        XCTAssertFalse(composite.renewIfFinished())
        XCTAssertTrue(composite.isDisposed)
    }

    func testACompositeIsNotRenewedWhileItsDisposalRuns() {
        let composite = CompositeDisposable()
        let renewed = Locked<Bool?>(nil)
        composite.add { renewed.value = composite.renewIfFinished() }
        composite.dispose()
        XCTAssertEqual(renewed.value, false, "disposal in progress")
        XCTAssertTrue(composite.isDisposed)
        XCTAssertTrue(composite.renewIfFinished(), "finished, and one key was handed out")
    }

    // MARK: Pruning and count, by number of children

    func testCountDropsChildrenDisposedElsewhereWithOneTwoAndManyChildren() {
        let log = Locked<[String]>([])
        for total in [1, 2, 100] {
            let composite = CompositeDisposable()
            let probes = (0..<total).map { Probe("\($0)", log: log) }
            for probe in probes { composite.add(probe) }
            composite.add {}
            XCTAssertEqual(composite.count, total + 1)
            for probe in probes where Int(probe.name)! % 2 == 0 { probe.dispose() }
            XCTAssertEqual(composite.count, total + 1 - (total + 1) / 2, "with \(total) disposables")
        }
        let single = CompositeDisposable()
        let only = Probe("only", log: log)
        single.add(only)
        only.dispose()
        XCTAssertEqual(single.count, 0, "the only child, inline, disposed elsewhere")
    }

    func testAddingPrunesChildrenDisposedElsewhereOnceThirtyTwoAccumulated() {
        let composite = CompositeDisposable()
        let log = Locked<[String]>([])
        weak var firstProbe: Probe?
        do {
            let probes = (0..<31).map { Probe("\($0)", log: log) }
            firstProbe = probes[0]
            for probe in probes {
                composite.add(probe)
                probe.dispose()
            }
        }
        XCTAssertNotNil(firstProbe, "held until a pruning pass")
        let live = Probe("live", log: log)
        composite.add(live)  // the 32nd child: a pruning pass
        XCTAssertNil(firstProbe, "pruned without asking for count")
        XCTAssertEqual(composite.count, 1)
        composite.dispose()
        XCTAssertTrue(live.isDisposed)
    }
}
