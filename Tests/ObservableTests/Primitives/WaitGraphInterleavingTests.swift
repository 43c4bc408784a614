import Foundation
import Observable
import Synchronization
import TetherEngine
import TetherTestSupport
import TetherTesting
import XCTest

/// `WaitGraph`: a breakable wait that would close a cycle of waiting threads is not started; a firm wait that
/// closes one breaks the breakable waits on that cycle (and wakes their threads), and no others.
final class WaitGraphInterleavingTests: XCTestCase {
    /// The thread IDs of a run's actors, known once spawned (the actors read them after their first turn).
    final class Threads: @unchecked Sendable {
        // Safety: written by the test thread before any actor's first turn, read by actors after it (the
        // harness's monitor orders the two).
        var ids: [UInt] = []
        subscript(index: Int) -> UInt { ids[index] }
    }

    /// A parking address of its own for each waiter.
    final class Spot: Sendable {
        var address: UInt { parkingAddress(of: self) }
    }

    func testABreakableWaitThatWouldCloseACycleIsNotStartedUntilTheOtherWaitEnded() {
        let graph = WaitGraph.shared
        let threads = Threads()
        let results = Locked<[Bool]>([])
        let run = Interleaving()
        let a = run.spawn("A") {
            let wait = graph.begin(waitingFor: threads[1], breakable: true, parkingAddress: Spot().address)
            results.mutate { $0.append(wait != nil) }
            Interleaving.point("A waits for B")
            if let wait { graph.end(wait) }
        }
        let b = run.spawn("B") {
            let first = graph.begin(waitingFor: threads[0], breakable: true, parkingAddress: Spot().address)
            results.mutate { $0.append(first != nil) }
            if let first { graph.end(first) }
            Interleaving.point("B tried")
            let second = graph.begin(waitingFor: threads[0], breakable: true, parkingAddress: Spot().address)
            results.mutate { $0.append(second != nil) }
            if let second { graph.end(second) }
        }
        threads.ids = [run.threadID(of: a), run.threadID(of: b)]
        XCTAssertEqual(run.step(a), .ready("A waits for B"))
        XCTAssertEqual(run.step(b), .ready("B tried"))
        XCTAssertEqual(results.value, [true, false], "B waiting for A would close the cycle: not started")
        XCTAssertEqual(run.step(a), .finished)
        XCTAssertEqual(run.step(b), .finished)
        XCTAssertEqual(results.value, [true, false, true], "once A's wait ended, B may wait for A")
    }

    func testAWaitForTheCallingThreadItselfIsACycle() {
        let graph = WaitGraph.shared
        XCTAssertNil(graph.begin(waitingFor: currentThreadID, breakable: true, parkingAddress: Spot().address))
    }

    func testAFirmWaitClosingACycleBreaksTheBreakableWaitOnItAndWakesItsThread() {
        let graph = WaitGraph.shared
        let threads = Threads()
        let aSawBroken = Locked<Bool?>(nil)
        let bStarted = Locked<Bool?>(nil)
        let run = Interleaving()
        let a = run.spawn("A") {
            let spot = Spot()
            guard let wait = graph.begin(waitingFor: threads[1], breakable: true, parkingAddress: spot.address)
            else { return }
            while !wait.isBroken {
                ParkingLot.park(on: spot.address) { !wait.isBroken }
            }
            aSawBroken.value = wait.isBroken
            graph.end(wait)
        }
        let b = run.spawn("B") {
            let wait = graph.begin(waitingFor: threads[0], breakable: false, parkingAddress: Spot().address)
            bStarted.value = wait != nil
            if let wait { graph.end(wait) }
        }
        threads.ids = [run.threadID(of: a), run.threadID(of: b)]
        XCTAssertTrue(run.step(a).isParked, "A waits for B")
        XCTAssertEqual(run.step(b), .finished)
        XCTAssertEqual(bStarted.value, true, "a firm wait is always started")
        XCTAssertEqual(run.state(of: a), .woken, "B's firm wait broke A's and woke A")
        XCTAssertEqual(run.step(a), .finished)
        XCTAssertEqual(aSawBroken.value, true)
    }

    func testAFirmWaitBreaksOnlyTheBreakableWaitsOfItsOwnCycle() {
        let graph = WaitGraph.shared
        let threads = Threads()
        let broken = Locked<[String: Bool]>([:])
        let outsideSpot = Spot()
        let released = Atomic<Bool>(false)
        let run = Interleaving()
        let a = run.spawn("A") {
            let spot = Spot()
            guard let wait = graph.begin(waitingFor: threads[1], breakable: true, parkingAddress: spot.address)
            else { return }
            while !wait.isBroken { ParkingLot.park(on: spot.address) { !wait.isBroken } }
            broken.mutate { $0["A"] = wait.isBroken }
            graph.end(wait)
        }
        let c = run.spawn("C") {
            // C waits for B too, but nobody waits for C: it is on no cycle.
            guard
                let wait = graph.begin(waitingFor: threads[1], breakable: true, parkingAddress: outsideSpot.address)
            else { return }
            while !wait.isBroken && !released.load(ordering: .acquiring) {
                ParkingLot.park(on: outsideSpot.address) { !wait.isBroken && !released.load(ordering: .relaxed) }
            }
            broken.mutate { $0["C"] = wait.isBroken }
            graph.end(wait)
        }
        let b = run.spawn("B") {
            let wait = graph.begin(waitingFor: threads[0], breakable: false, parkingAddress: Spot().address)
            if let wait { graph.end(wait) }
            Interleaving.point("B's firm wait ended")
            released.store(true, ordering: .releasing)
            ParkingLot.unparkAll(outsideSpot.address)
        }
        threads.ids = [run.threadID(of: a), run.threadID(of: b), run.threadID(of: c)]
        XCTAssertTrue(run.step(a).isParked)
        XCTAssertTrue(run.step(c).isParked)
        XCTAssertEqual(run.step(b), .ready("B's firm wait ended"))
        XCTAssertEqual(run.state(of: a), .woken, "A waits for B, B for A: A's wait is broken")
        XCTAssertTrue(run.state(of: c).isParked, "C is on no cycle: its wait stands")
        run.finish()
        XCTAssertEqual(broken.value, ["A": true, "C": false])
    }

    func testAChainOfThreeWaitsClosedByAFirmWaitBreaksBothBreakableWaits() {
        let graph = WaitGraph.shared
        let threads = Threads()
        let waits = Locked<[String: WaitGraph.Wait]>([:])
        let results = Locked<[String: Bool]>([:])
        let run = Interleaving()
        let a = run.spawn("A") {
            let wait = graph.begin(waitingFor: threads[1], breakable: true, parkingAddress: Spot().address)
            waits.mutate { $0["A"] = wait }
            Interleaving.point("waiting")
            if let wait { graph.end(wait) }
        }
        let b = run.spawn("B") {
            let wait = graph.begin(waitingFor: threads[2], breakable: true, parkingAddress: Spot().address)
            waits.mutate { $0["B"] = wait }
            Interleaving.point("waiting")
            if let wait { graph.end(wait) }
        }
        let c = run.spawn("C") {
            let breakable = graph.begin(waitingFor: threads[0], breakable: true, parkingAddress: Spot().address)
            results.mutate { $0["breakable"] = breakable != nil }
            if let breakable { graph.end(breakable) }
            let firm = graph.begin(waitingFor: threads[0], breakable: false, parkingAddress: Spot().address)
            results.mutate { $0["firm"] = firm != nil }
            if let firm { graph.end(firm) }
        }
        threads.ids = [run.threadID(of: a), run.threadID(of: b), run.threadID(of: c)]
        run.step(a)
        run.step(b)
        XCTAssertEqual(waits.value.mapValues(\.isBroken), ["A": false, "B": false])
        XCTAssertEqual(run.step(c), .finished)
        XCTAssertEqual(results.value, ["breakable": false, "firm": true], "C → A → B → C is a cycle")
        XCTAssertEqual(waits.value.mapValues(\.isBroken), ["A": true, "B": true])
        run.finish()
    }

    /// Two threads each try a breakable wait for the other, in every order: never both wait at once.
    func testInEveryScheduleTwoThreadsNeverBothWaitForEachOther() {
        let schedules = exploreInterleavings { run in
            let graph = WaitGraph.shared
            let threads = Threads()
            let waiting = Locked<Int>(0)
            let overlaps = Locked<Int>(0)
            let started = Locked<Int>(0)
            for (me, other) in [(0, 1), (1, 0)] {
                run.spawn(me == 0 ? "A" : "B") {
                    Interleaving.point("before")
                    let wait = graph.begin(waitingFor: threads[other], breakable: true, parkingAddress: Spot().address)
                    if wait != nil {
                        started.mutate { $0 += 1 }
                        waiting.mutate { count in
                            count += 1
                            if count > 1 { overlaps.mutate { $0 += 1 } }
                        }
                    }
                    Interleaving.point("registered")
                    if let wait {
                        waiting.mutate { $0 -= 1 }
                        graph.end(wait)
                    }
                }
            }
            threads.ids = [run.threadID(of: 0), run.threadID(of: 1)]
            return {
                var violations: [String] = []
                if overlaps.value != 0 { violations.append("both waited for each other") }
                if started.value == 0 { violations.append("neither wait started") }
                return violations
            }
        }
        print("WaitGraphInterleavingTests: \(schedules) schedules")
        XCTAssertGreaterThan(schedules, 1)
    }
}
