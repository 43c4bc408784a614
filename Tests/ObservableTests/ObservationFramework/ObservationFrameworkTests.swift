import Foundation
import Observable
import Observation
import TetherTestSupport
import TetherTesting
import XCTest

@Observable
final class Player {
    var score = 0
    var name = ""
    var team: Team?
    @ObservationIgnored var ignored = 0
}

@Observable
final class Team {
    var title: String
    init(title: String) { self.title = title }
}

/// Conforms to `Observable` by hand: no macro registrar for Tether to find.
final class HandWrittenObservable: Observation.Observable {
    var value = 0
}

final class ObservationFrameworkTests: ResourceCheckedTestCase {
    func testObserveSendsTheCurrentValueThenValuesAfterTheyAreSet() {
        expectLiveSubscriptions("the observer captures the observed object")
        let player = Player()
        let log = EventLog<Int, Never>()
        let storedWhenDelivered = EventLog<Int, Never>()
        player.observe(\.score).subscribe(next: { value in
            log.append(.next(value))
            storedWhenDelivered.append(.next(player.score))
        })
        player.score = 10
        settleObservations()
        player.score = 20
        settleObservations()
        XCTAssertEqual(log.values, [0, 10, 20])
        XCTAssertEqual(storedWhenDelivered.values, [0, 10, 20], "values are sent after the set, not before")
    }

    #if TETHER_OBSERVATION_PUBLIC_API
        func testPublicAPIBuildDeliversOnTheMainQueueAfterTheSetAndCoalescesSets() {
            let player = Player()
            let log = EventLog<Int, Never>()
            player.observe(\.score).record(into: log)
            player.score = 1
            player.score = 2
            XCTAssertEqual(log.values, [0], "nothing is sent before the main queue runs")
            settleObservations()
            XCTAssertEqual(log.values, [0, 2], "the sets before the re-read are one value")
        }
    #else
        func testValuesAreDeliveredSynchronouslyOnTheSettingThread() {
            let player = Player()
            let log = EventLog<Int, Never>()
            player.observe(\.score).record(into: log)
            player.score = 1
            XCTAssertEqual(log.values, [0, 1])
            player.score = 2
            XCTAssertEqual(log.values, [0, 1, 2])
        }
    #endif

    func testSetsOfEqualValuesAreNotReportedByObservation() {
        // The @Observable macro skips notifying an Equatable property set to an equal value.
        let player = Player()
        let log = EventLog<Int, Never>()
        player.observe(\.score).record(into: log)
        player.score = 0
        settleObservations()
        player.score = 1
        settleObservations()
        XCTAssertEqual(log.values, [0, 1])
    }

    func testChainFollowsTheReplacedMiddleObject() {
        let first = Team(title: "red")
        let player = Player()
        player.team = first
        let log = EventLog<String?, Never>()
        player.observe(\.team?.title).record(into: log)
        first.title = "crimson"
        settleObservations()
        player.team = Team(title: "blue")
        settleObservations()
        first.title = "ignored: no longer observed"
        settleObservations()
        player.team?.title = "navy"
        settleObservations()
        player.team = nil
        settleObservations()
        XCTAssertEqual(log.values, ["red", "crimson", "blue", "navy", nil])
    }

    func testObserveCompletesWhenTheObjectDeinitializesAndDoesNotKeepItAlive() {
        var player: Player? = Player()
        weak let weakPlayer = player
        let log = EventLog<Int, Never>()
        player!.observe(\.score).record(into: log)
        player!.score = 1
        settleObservations()
        player = nil
        XCTAssertNil(weakPlayer)
        XCTAssertEqual(log.events, [.next(0), .next(1), .completed])
    }

    func testDisposingStopsDeliveryReleasesTheObserverAndKeepsOtherSubscriptions() {
        let player = Player()
        var captured: Tracked? = Tracked()
        weak let weakCaptured = captured
        let disposedLog = EventLog<Int, Never>()
        let keptLog = EventLog<Int, Never>()
        let subscription = player.observe(\.score).subscribe(next: { [captured] value in
            _ = captured
            disposedLog.append(.next(value))
        })
        player.observe(\.score).record(into: keptLog)
        captured = nil
        subscription.dispose()
        XCTAssertNil(weakCaptured)
        player.score = 5
        settleObservations()
        player.score = 6
        settleObservations()
        XCTAssertEqual(disposedLog.values, [0])
        XCTAssertEqual(keptLog.values, [0, 5, 6])
    }

    func testSetFromInsideAnObserverIsDeliveredAfterTheCurrentValue() {
        expectLiveSubscriptions("the observer captures the observed object")
        let player = Player()
        let log = EventLog<Int, Never>()
        player.observe(\.score).subscribe(next: { value in
            log.append(.next(value))
            if value == 1 { player.score = 2 }
        })
        player.score = 1
        settleObservations()
        settleObservations()  // the set made by the observer
        XCTAssertEqual(log.values, [0, 1, 2])
    }

    func testIgnoredPropertyWarnsSendsTheCurrentValueAndCompletes() {
        let recorder = WarningRecorder()
        defer { recorder.stop() }
        let player = Player()
        player.ignored = 3
        let log = EventLog<Int, Never>()
        player.observe(\.ignored).record(into: log)
        XCTAssertEqual(log.events, [.next(3), .completed])
        XCTAssertEqual(recorder.warnings.map(\.kind), [.keyPathObservesNothing])
    }

    func testHandWrittenConformanceWarnsThatDeinitCannotBeSeen() {
        let recorder = WarningRecorder()
        defer { recorder.stop() }
        let object = HandWrittenObservable()
        let log = EventLog<Int, Never>()
        let subscription = object.observe(\.value).record(into: log)
        // A hand-written conformance reports no accesses at all.
        XCTAssertEqual(log.events, [.next(0), .completed])
        XCTAssertEqual(recorder.warnings.map(\.kind), [.keyPathObservesNothing])
        subscription.dispose()
    }
}

/// Conforms to `Observable` by hand, with its registrar under another name than the macro's.
final class CustomRegistrarModel: Observation.Observable {
    private let registrar = ObservationRegistrar()
    private var storedValue = 0
    var value: Int {
        get {
            registrar.access(self, keyPath: \.value)
            return storedValue
        }
        set {
            registrar.withMutation(of: self, keyPath: \.value) { storedValue = newValue }
        }
    }
}

extension ObservationFrameworkTests {
    func testCustomRegistrarIsObservedButWarnsThatDeinitCannotBeSeen() {
        let recorder = WarningRecorder()
        defer { recorder.stop() }
        let model = CustomRegistrarModel()
        let log = EventLog<Int, Never>()
        let subscription = model.observe(\.value).record(into: log)
        model.value = 1
        settleObservations()
        XCTAssertEqual(log.values, [0, 1])
        XCTAssertEqual(recorder.warnings.map(\.kind), [.noLifetimeStorage])
        subscription.dispose()
        model.value = 2
        settleObservations()
        XCTAssertEqual(log.values, [0, 1])
    }
}
