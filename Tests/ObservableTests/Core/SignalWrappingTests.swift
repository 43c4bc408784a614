import Dispatch
import Observable
import TetherTestSupport
import TetherTesting
import XCTest

extension SignalConvertible where Value == String, Failure == Never {
    /// The article's custom operator: numbers each subscription's values.
    fileprivate func numbered() -> Signal<String, Never> {
        Signal(wrapping: self) { upstream, observer in
            var count = 0
            return upstream.subscribe(
                next: { text in
                    count += 1
                    observer.send("\(count). \(text)")
                },
                completed: { observer.sendCompleted() })
        }
    }
}

final class SignalWrappingTests: ResourceCheckedTestCase {
    func testWrappingRecipeGetsTheUpstreamAndStateOfItsOwnPerSubscription() {
        let source = Subject<String, Never>()
        let numbered = source.numbered()
        let first = Locked<[String]>([])
        let second = Locked<[String]>([])
        numbered.subscribe(next: { first.append($0) })
        source.send("a")
        numbered.subscribe(next: { second.append($0) })
        source.send("b")
        XCTAssertEqual(first.values, ["1. a", "2. b"])
        XCTAssertEqual(second.values, ["1. b"])
    }

    func testWrappingRecipeEndsWithTheUpstreamAndDisposingDisposesTheUpstream() {
        let completed = Flag()
        Signal(values: ["x", "y"]).numbered().subscribe(completed: { completed.raise() })
        XCTAssertTrue(completed.isRaised)
        let upstreamDisposed = Flag()
        // Keeps its observer (a recipe that drops it ends at once) until disposed.
        let source = Signal<String, Never> { observer in
            AnyDisposable {
                withExtendedLifetime(observer) {}
                upstreamDisposed.raise()
            }
        }
        let subscription = source.numbered().subscribe()
        XCTAssertFalse(upstreamDisposed.isRaised)
        subscription.dispose()
        XCTAssertTrue(upstreamDisposed.isRaised)
    }

    func testSubscriptionsFedFromTwoThreadsAtOnceKeepSeparateCounts() {
        let last = Locked<[String]>([])
        let done = DispatchGroup()
        for _ in 0..<2 {
            let source = Subject<String, Never>()
            let values = Locked<[String]>([])
            source.numbered().subscribe(
                next: { values.append($0) }, completed: { last.append(values.values.last ?? "") })
            done.enter()
            DispatchQueue.global().async {
                for index in 0..<1_000 { source.send("\(index)") }
                source.sendCompleted()
                done.leave()
            }
        }
        done.wait()
        XCTAssertEqual(last.values, ["1000. 999", "1000. 999"])
    }
}
