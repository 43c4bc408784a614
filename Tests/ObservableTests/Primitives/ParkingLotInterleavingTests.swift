import Foundation
import Observable
import Synchronization
import TetherEngine
import TetherTestSupport
import TetherTesting
import XCTest

/// `ParkingLot`'s park/unpark hand-shake, driven through scripted and explored interleavings: a waker changes
/// the state, then unparks; a parker parks only if its condition still holds, and loops.
final class ParkingLotInterleavingTests: XCTestCase {
    /// A word to wait on, and its parking address.
    final class Word: Sendable {
        let value = Atomic<Int>(0)
        var address: UInt { parkingAddress(of: self) }

        /// Parks while the word is 0, the way the package's waits do: check, park, check again. Stops at
        /// "saw 0" between its check and its park (the window a lost wake-up would fall into).
        func waitUntilSet(wakeUps: Counter? = nil) {
            while value.load(ordering: .acquiring) == 0 {
                Interleaving.point("saw 0")
                ParkingLot.park(on: address) { value.load(ordering: .relaxed) == 0 }
                wakeUps?.increment()
            }
        }
    }

    func testAWakeUpSentBetweenTheCheckAndTheParkIsNotLost() {
        let word = Word()
        let woke = Locked<Bool?>(nil)
        let run = Interleaving()
        let waiter = run.spawn("waiter") { word.waitUntilSet() }
        let waker = run.spawn("waker") {
            word.value.store(1, ordering: .releasing)
            woke.value = ParkingLot.unparkOne(word.address)
        }
        XCTAssertEqual(run.step(waiter), .ready("saw 0"), "the waiter checked and is about to park")
        XCTAssertEqual(run.step(waker), .finished)
        XCTAssertEqual(woke.value, false, "nobody was parked yet")
        XCTAssertEqual(run.step(waiter), .finished, "park saw the change under the bucket's mutex and returned")
        XCTAssertEqual(run.parks(of: waiter), 0)
    }

    func testAParkedThreadIsWokenByUnparkOneAfterTheStateChanged() {
        let word = Word()
        let woke = Locked<Bool?>(nil)
        let run = Interleaving()
        let waiter = run.spawn("waiter") { word.waitUntilSet() }
        let waker = run.spawn("waker") {
            word.value.store(1, ordering: .releasing)
            woke.value = ParkingLot.unparkOne(word.address)
        }
        run.step(waiter)
        XCTAssertTrue(run.step(waiter).isParked)
        XCTAssertEqual(run.step(waker), .finished)
        XCTAssertEqual(woke.value, true)
        XCTAssertEqual(run.state(of: waiter), .woken)
        XCTAssertEqual(run.step(waiter), .finished)
    }

    func testAWakeUpWithoutAStateChangeMakesTheWaiterCheckAgainAndParkAgain() {
        let word = Word()
        let wakeUps = Counter()
        let run = Interleaving()
        let waiter = run.spawn("waiter") { word.waitUntilSet(wakeUps: wakeUps) }
        let waker = run.spawn("waker") {
            ParkingLot.unparkAll(word.address)  // nothing changed: a spurious wake-up for the waiter
            Interleaving.point("woke without a change")
            word.value.store(1, ordering: .releasing)
            ParkingLot.unparkAll(word.address)
        }
        run.step(waiter)
        XCTAssertTrue(run.step(waiter).isParked)
        XCTAssertEqual(run.step(waker), .ready("woke without a change"))
        XCTAssertEqual(run.state(of: waiter), .woken)
        XCTAssertEqual(run.step(waiter), .ready("saw 0"), "the waiter checked again and found nothing changed")
        XCTAssertTrue(run.step(waiter).isParked, "and parked again")
        XCTAssertEqual(run.step(waker), .finished)
        XCTAssertEqual(run.step(waiter), .finished)
        XCTAssertEqual(run.parks(of: waiter), 2)
        XCTAssertEqual(wakeUps.value, 2)
    }

    func testUnparkOneWakesTheEarliestWaiterAndUnparkAllWakesTheOthers() {
        let word = Word()
        let run = Interleaving()
        let waiters = ["A", "B", "C"].map { name in run.spawn(name) { word.waitUntilSet() } }
        let waker = run.spawn("waker") {
            word.value.store(1, ordering: .releasing)
            ParkingLot.unparkOne(word.address)
            Interleaving.point("woke one")
            ParkingLot.unparkAll(word.address)
        }
        for waiter in waiters {
            run.step(waiter)
            XCTAssertTrue(run.step(waiter).isParked)
        }
        XCTAssertEqual(run.step(waker), .ready("woke one"))
        XCTAssertEqual(waiters.map { run.state(of: $0) == .woken }, [true, false, false])
        XCTAssertEqual(run.step(waker), .finished)
        XCTAssertEqual(waiters.map { run.state(of: $0) == .woken }, [true, true, true])
        run.finish()
    }

    func testUnparkingAnAddressWakesNoThreadParkedOnAnotherAddressOfTheSameBucket() {
        // An address in a buffer this test owns (no other thread parks on it) that hashes to the same bucket
        // as `first` (the table's Fibonacci hash; if the hash changes, the two may not share a bucket, and
        // the test still checks that unparking one address leaves the other's waiter parked).
        func bucket(_ address: UInt) -> UInt { (address &* 0x9E37_79B9_7F4A_7C15) >> 57 }
        let first = Word()
        let second = Word()
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: 1 << 14, alignment: 16)
        defer { buffer.deallocate() }
        let start = UInt(bitPattern: buffer)
        let otherAddress =
            (start..<start + (1 << 14)).first { bucket($0) == bucket(first.address) } ?? start
        let run = Interleaving()
        let a = run.spawn("A") { first.waitUntilSet() }
        let b = run.spawn("B") {
            while second.value.load(ordering: .acquiring) == 0 {
                ParkingLot.park(on: otherAddress) { second.value.load(ordering: .relaxed) == 0 }
            }
        }
        let waker = run.spawn("waker") {
            first.value.store(1, ordering: .releasing)
            ParkingLot.unparkAll(first.address)
            Interleaving.point("woke the first address")
            second.value.store(1, ordering: .releasing)
            ParkingLot.unparkAll(otherAddress)
        }
        run.step(a)
        XCTAssertTrue(run.step(a).isParked)
        XCTAssertTrue(run.step(b).isParked)
        run.step(waker)
        XCTAssertEqual(run.state(of: a), .woken)
        XCTAssertTrue(run.state(of: b).isParked, "B waits on another address: not woken")
        run.step(waker)
        XCTAssertEqual(run.state(of: b), .woken)
        run.finish()
    }

    /// A waiter and a waker, each stopping between its steps, in every order: the waiter always returns
    /// (a lost wake-up would leave it parked with nobody to run: a deadlock the explorer reports).
    func testInEveryScheduleAWaiterAndTwoWakersNeverLoseTheWakeUp() {
        let schedules = exploreInterleavings { run in
            let word = Word()
            let returned = Counter()
            run.spawn("waiter") {
                word.waitUntilSet()
                returned.increment()
            }
            run.spawn("waker 1") {
                Interleaving.point("before the store")
                word.value.store(1, ordering: .releasing)
                Interleaving.point("stored")
                ParkingLot.unparkOne(word.address)
            }
            run.spawn("waker 2") {
                Interleaving.point("before the unpark")
                ParkingLot.unparkAll(word.address)  // a wake-up that may come before the change
            }
            return { returned.value == 1 ? [] : ["the waiter did not return"] }
        }
        print("ParkingLotInterleavingTests: \(schedules) schedules")
        XCTAssertGreaterThan(schedules, 1)
    }
}
