import Dispatch
import Foundation
import Observable
import TetherTestSupport
import TetherTesting
import XCTest

/// Races on purpose; run under `--sanitize=thread`. The observed objects stay on the test's thread
/// (their owner); only disposables cross threads.
final class ObservedThreadSafetyTests: ResourceCheckedTestCase {
    func testObserversDisposedFromOtherThreadsWhileTheOwnerSets() {
        let counter = CounterModel()
        let violations = Counter()
        for _ in 0..<60 {
            let probes = (0..<8).map { _ in DisposalProbe() }
            let subscriptions = probes.map { probe in
                counter.observe(\.count).subscribe(next: { _ in probe.receive() })
            }
            let disposer = DispatchGroup()
            for (probe, subscription) in zip(probes, subscriptions) {
                DispatchQueue.global().async(group: disposer) {
                    subscription.dispose()
                    probe.markDisposed()
                }
            }
            for _ in 0..<300 { counter.count += 1 }
            disposer.wait()
            counter.count += 1
            for probe in probes { violations.increment(by: probe.lateDeliveries) }
        }
        XCTAssertEqual(violations.value, 0, "nothing may reach an observer after its disposal returned")
    }

    func testChainObserversDisposedFromOtherThreadsWhileTheOwnerSets() {
        let model = LoginViewModel(account: Account(name: "a"))
        let violations = Counter()
        for round in 0..<40 {
            let probes = (0..<6).map { _ in DisposalProbe() }
            let subscriptions = probes.map { probe in
                model.observe(\.account.name).subscribe(next: { _ in probe.receive() })
            }
            let disposer = DispatchGroup()
            for (probe, subscription) in zip(probes, subscriptions) {
                DispatchQueue.global().async(group: disposer) {
                    subscription.dispose()
                    probe.markDisposed()
                }
            }
            for step in 0..<100 {
                if step % 10 == 0 {
                    model.account = Account(name: "\(round)")
                } else {
                    model.account.name = "\(step)"
                }
            }
            disposer.wait()
            model.account.name = "after"
            for probe in probes { violations.increment(by: probe.lateDeliveries) }
        }
        XCTAssertEqual(violations.value, 0)
    }

    func testDeallocatedDisposedFromAnotherThreadWhileTheObjectDies() {
        for _ in 0..<200 {
            var counter: CounterModel? = CounterModel()
            let probe = DisposalProbe()
            let subscription = counter!.deallocated.subscribe(completed: { probe.receive() })
            let disposer = DispatchGroup()
            DispatchQueue.global().async(group: disposer) {
                subscription.dispose()
                probe.markDisposed()
            }
            counter = nil
            disposer.wait()
            XCTAssertEqual(probe.lateDeliveries, 0)
        }
    }
}

/// Counts deliveries that happen after `markDisposed()` (which is called right after `dispose()`
/// returned). The unsynchronized `deliveries` counter lets the thread sanitizer check that the
/// observer's last run happens-before the return of `dispose()`.
final class DisposalProbe: @unchecked Sendable {
    private let lock = NSLock()
    private var disposed = false
    private var late = 0
    private var deliveries = 0

    func receive() {
        deliveries += 1
        lock.withLock {
            if disposed { late += 1 }
        }
    }

    func markDisposed() {
        _ = deliveries  // read after dispose() returned: must not race with receive()
        lock.withLock { disposed = true }
    }

    var lateDeliveries: Int { lock.withLock { late } }
}
