import Foundation
import Observable
import TetherTestSupport
import TetherTesting
import XCTest

/// Bad input to key-path observation: a key path that touches no observable property gets a clear
/// diagnostic and a signal that ends at once — nothing silently dead, nothing left running, and the
/// object's other observations unaffected.
final class ObservationBadInputTests: ResourceCheckedTestCase {
    func testAnUnobservableKeyPathWarnsEndsAtOnceKeepsNothingAndLeavesOtherObservationsRunning() {
        let recorder = WarningRecorder()
        defer { recorder.stop() }
        weak var modelWeakly: CounterModel?
        let countMonitor = GrammarMonitor<Int>()
        var counts: [Int] = []
        countMonitor.onValue = { counts.append($0) }
        let plainMonitor = GrammarMonitor<Int>()
        var plainValues: [Int] = []
        plainMonitor.onValue = { plainValues.append($0) }
        do {
            let model = CounterModel()
            modelWeakly = model
            _ = countMonitor.subscribe(to: model.observe(\.count))
            model.plain = 7
            let unobservable = plainMonitor.subscribe(to: model.observe(\.plain))
            XCTAssertTrue(unobservable.isDisposed, "the subscription ended at once")
            model.plain = 8
            model.count = 1
        }
        XCTAssertEqual(recorder.warnings.map(\.kind), [.keyPathObservesNothing])
        XCTAssertTrue(recorder.warnings.first?.message.contains("plain") ?? false, "the diagnostic names the key path")
        plainMonitor.assertWellFormed("unobservable key path")
        XCTAssertEqual(plainValues, [7], "the current value, then completion; no later value")
        XCTAssertEqual(plainMonitor.terminalCount, 1)
        XCTAssertEqual(counts, [0, 1], "the object's other observation is unaffected")
        XCTAssertNil(modelWeakly, "observing did not keep the object alive")
        XCTAssertEqual(countMonitor.terminalCount, 1, "it completed when the object deinitialized")
    }
}
