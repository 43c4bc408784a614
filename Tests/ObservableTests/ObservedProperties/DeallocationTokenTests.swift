import Observable
import TetherTestSupport
import XCTest

private final class Screen: DeallocationObservable {
    let deallocationToken = DeallocationToken()
}

/// A `KeyPathObservable` class with no `@Observed` property: a view controller that only binds.
private final class BindingOnlyScreen: KeyPathObservable {
    let deallocationToken = DeallocationToken()
    var title = ""
}

private final class FormScreen: KeyPathObservable, DeallocationObservable {
    let deallocationToken = DeallocationToken()
    @Observed var name = ""
}

/// `deallocated` (RAC's `rac_willDeallocSignal`) for any class that stores a `DeallocationToken`.
final class DeallocationTokenTests: XCTestCase {
    func testDeallocatedCompletesWhenAnyClassWithATokenDeinitializesAndNotBefore() {
        var screen: Screen? = Screen()
        let log = EventLog<Void, Never>()
        screen!.deallocated.record(into: log)
        XCTAssertEqual(log.count, 0)
        screen = nil
        XCTAssertEqual(log.count, 1)
        XCTAssertEqual(log.events.first?.isTerminal, true)
    }

    func testTakeUntilDeallocatedStopsValuesOnceTheObjectIsGone() {
        var screen: Screen? = Screen()
        let results = Subject<String, Never>()
        let log = EventLog<String, Never>()
        results.take(until: screen!.deallocated).record(into: log)
        results.send("before")
        screen = nil
        results.send("after")
        XCTAssertEqual(log.values, ["before"])
        XCTAssertEqual(log.events.last?.isTerminal, true)
    }

    func testSubscribingAfterTheObjectIsGoneCompletesAtOnce() {
        var screen: Screen? = Screen()
        let deallocated = screen!.deallocated
        screen = nil
        let log = EventLog<Void, Never>()
        deallocated.record(into: log)
        XCTAssertEqual(log.count, 1)
    }

    func testDisposingBeforeTheObjectGoesDeliversNothing() {
        var screen: Screen? = Screen()
        let log = EventLog<Void, Never>()
        screen!.deallocated.record(into: log).dispose()
        screen = nil
        XCTAssertEqual(log.count, 0)
    }

    func testAKeyPathObservableClassWithOnlyATokenReportsItsDeallocationWithoutAWarning() {
        let recorder = WarningRecorder()
        defer { recorder.stop() }
        var screen: BindingOnlyScreen? = BindingOnlyScreen()
        let log = EventLog<Void, Never>()
        screen!.deallocated.record(into: log)
        screen = nil
        XCTAssertEqual(log.count, 1)
        XCTAssertEqual(recorder.warnings, [])
    }

    func testAClassThatIsBothUsesItsTokenAndCompletes() {
        var screen: FormScreen? = FormScreen()
        let log = EventLog<Void, Never>()
        screen!.deallocated.record(into: log)
        screen!.name = "still here"
        XCTAssertEqual(log.count, 0)
        screen = nil
        XCTAssertEqual(log.count, 1)
    }

    func testTheMissingStorageWarningNamesTheToken() {
        final class Bare: KeyPathObservable {}
        let recorder = WarningRecorder()
        defer { recorder.stop() }
        let bare = Bare()
        withExtendedLifetime(bare) { _ = bare.deallocated.subscribe() }
        XCTAssertTrue(recorder.warnings.first?.message.contains("DeallocationToken") ?? false)
    }
}
