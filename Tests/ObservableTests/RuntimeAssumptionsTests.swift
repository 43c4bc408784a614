import Foundation
import TetherTestSupport
import TetherTesting
import XCTest

@testable import Observable

/// The runtime assumptions' self-tests (RuntimeAssumptions.swift) and the fallback they choose when one
/// fails: the field-offset lookup behind `deallocated` and key-path observation, forced to its `Mirror`
/// path, finds the same storage wherever that storage exists.
final class RuntimeAssumptionsTests: XCTestCase {
    /// This toolchain's runtime behaves as assumed: the fast paths are in use. (A toolchain update that
    /// fails this test leaves Tether correct, on its safe paths: see Benchmarks/README.md for the cost.)
    func testTheSelfTestsPassOnThisToolchain() {
        XCTAssertTrue(RuntimeAssumptions.objectQueriesWork)
        XCTAssertTrue(RuntimeAssumptions.fieldOffsetsWork)
    }

    func testTheObjectQueriesAnswerForALiveObjectAndAGoneOne() throws {
        try XCTSkipUnless(RuntimeAssumptions.objectQueriesWork, "the runtime's object queries are not in use")
        var object: Tracked? = Tracked()
        let address = Unmanaged.passUnretained(object!).toOpaque()
        let pin = UnownedPin(object!)  // keeps the memory allocated; never read
        XCTAssertFalse(RuntimeAssumptions.isDeinitializing(address))
        XCTAssertTrue(RuntimeAssumptions.retainedIfAlive(address) === object)
        object = nil
        withExtendedLifetime(pin) {
            XCTAssertTrue(RuntimeAssumptions.isDeinitializing(address))
            XCTAssertNil(RuntimeAssumptions.retainedIfAlive(address))
        }
    }

    func testTheFieldOffsetPathFindsTheFirstObservedPropertyOwnOrInherited() {
        guard case .field(_, let storage) = RuntimeAssumptions.firstObservedField(of: CounterModel.self) else {
            return XCTFail("no @Observed field found in CounterModel")
        }
        XCTAssertTrue(storage == Observed<Int>.self)  // `count`, the first one
        guard case .field = RuntimeAssumptions.firstObservedField(of: OnlyInherits.self) else {
            return XCTFail("the inherited @Observed field was not found")
        }
        guard case .none = RuntimeAssumptions.firstObservedField(of: Bare.self) else {
            return XCTFail("a class with no @Observed property reported one")
        }
    }

    /// The field-offset self-test can fail: it accepts the offset the runtime reports and rejects a
    /// neighbouring one.
    func testTheFieldOffsetSelfTestRejectsAWrongOffset() {
        guard case .field(let offset, _) = RuntimeAssumptions.firstObservedField(of: FieldOffsetProbe.self) else {
            return XCTFail("no @Observed field found in the probe")
        }
        let word = MemoryLayout<UInt>.size
        XCTAssertTrue(FieldOffsetProbe().holdsItsProperty(at: offset))
        XCTAssertFalse(FieldOffsetProbe().holdsItsProperty(at: offset + word))
        XCTAssertFalse(FieldOffsetProbe().holdsItsProperty(at: offset - word))
    }

    /// Once a property's storage exists, both paths find the very same channel.
    func testBothPathsFindTheSameLifetimeChannelOnceAPropertyWasObserved() throws {
        let model = CounterModel()
        let subscription = model.observe(\.count).subscribe()
        defer { subscription.dispose() }
        let fast = try XCTUnwrap(ObjectLifetime.channel(of: model, usingFieldOffsets: true))
        let fallback = try XCTUnwrap(ObjectLifetime.channel(of: model, usingFieldOffsets: false))
        XCTAssertTrue(fast === fallback)
    }

    /// The documented limit of the fallback: on an object none of whose properties was ever observed it
    /// finds no storage (the field-offset path allocates it).
    func testTheFallbackFindsNoStorageBeforeAnyObservationAndTheFastPathAllocatesIt() {
        let model = CounterModel()
        XCTAssertNil(ObjectLifetime.channel(of: model, usingFieldOffsets: false))
        let allocated = ObjectLifetime.channel(of: model, usingFieldOffsets: true)
        XCTAssertNotNil(allocated)
        XCTAssertTrue(ObjectLifetime.channel(of: model, usingFieldOffsets: false) === allocated)
    }

    /// The deinitialization is seen through a channel found either way, with the same result.
    func testALifetimeChannelFoundEitherWayReportsTheDeinit() throws {
        for usingFieldOffsets in [true, false] {
            var model: CounterModel? = CounterModel()
            let subscription = model!.observe(\.label).subscribe()
            let channel = try XCTUnwrap(ObjectLifetime.channel(of: model!, usingFieldOffsets: usingFieldOffsets))
            let ended = Counter()
            let observer = channel.addLifetimeObserver { ended.increment() }
            XCTAssertEqual(ended.value, 0, "usingFieldOffsets: \(usingFieldOffsets)")
            model = nil
            XCTAssertEqual(ended.value, 1, "usingFieldOffsets: \(usingFieldOffsets)")
            observer.dispose()
            subscription.dispose()
        }
    }
}
