import Foundation
import TetherGio
import TetherGioTestSupport
import XCTest

/// The main-context scheduler without GTK: what a daemon that links only TetherGio gets.
final class HeadlessSchedulerTests: XCTestCase {
    func testTheMainContextSchedulerRunsWorkWithoutGtkOrADisplay() {
        let ranOnMain = Locked(nil as Bool?)
        DispatchQueue.global().async {
            MainContextScheduler.main.schedule { ranOnMain.store(Thread.isMainThread) }
        }
        pump(until: { ranOnMain.load() != nil })
        XCTAssertEqual(ranOnMain.load(), true)
    }

    func testAWorkerContextsSchedulerRunsWorkOnTheThreadThatIteratesIt() {
        let context = g_main_context_new()
        let worker = MainContextScheduler(context: context)
        let order = Locked([Int]())
        worker.schedule { order.modify { $0.append(1) } }
        worker.schedule(after: .milliseconds(5)) { order.modify { $0.append(2) } }
        XCTAssertEqual(order.load(), [], "nothing runs until the context is iterated")
        let deadline = Date().addingTimeInterval(10)
        while order.load().count < 2 && Date() < deadline { g_main_context_iteration(context, 1) }
        XCTAssertEqual(order.load(), [1, 2])
        g_main_context_unref(context)
    }

    func testDeliveringOnTheMainContextKeepsTheOrderOfValuesSentOnAnotherThread() {
        let subject = Subject<Int, Never>()
        let received = Locked([Int]())
        let subscription = subject.deliver(on: MainContextScheduler.main).subscribe(next: { value in
            received.modify { $0.append(value) }
        })
        defer { subscription.dispose() }
        DispatchQueue.global().async { for value in 1...100 { subject.send(value) } }
        pump(until: { received.load().count == 100 })
        XCTAssertEqual(received.load(), Array(1...100))
    }
}
