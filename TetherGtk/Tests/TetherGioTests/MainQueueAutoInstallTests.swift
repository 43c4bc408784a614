import Foundation
import TetherGio
import TetherGioTestSupport
import XCTest

/// Issue 43 item 2: a program that never calls `MainQueueIntegration.install()` still gets the main queue
/// run by GLib's loop, since TetherGio installs it when the program makes something that lives on the
/// default main context. Checked in a fresh process — this test binary, run again for this one test —
/// since every other test of the process installs it.
final class MainQueueAutoInstallTests: XCTestCase {
    private static let childVariable = "TETHER_MAIN_QUEUE_FRESH_PROCESS"

    func testAProgramThatNeverInstallsTheIntegrationStillRunsTheMainQueueInGLibsLoop() throws {
        if ProcessInfo.processInfo.environment[Self.childVariable] == "1" { return freshProcess() }
        let test =
            "TetherGioTests.MainQueueAutoInstallTests/"
            + "testAProgramThatNeverInstallsTheIntegrationStillRunsTheMainQueueInGLibsLoop"
        let result = runToEnd(CommandLine.arguments[0], [test], environment: [Self.childVariable: "1"])
        XCTAssertEqual(result.code, 0, result.output)
        XCTAssertTrue(result.output.contains("main queue ran in GLib's loop"), result.output)
        XCTAssertTrue(result.output.contains("Executed 1 test, with 0 failures"), result.output)
    }

    func testAProgramRunningTheDefaultContextOffTheMainThreadIsToldOnce() throws {
        if ProcessInfo.processInfo.environment[Self.childVariable] == "1" { return offMainThreadProcess() }
        let test =
            "TetherGioTests.MainQueueAutoInstallTests/"
            + "testAProgramRunningTheDefaultContextOffTheMainThreadIsToldOnce"
        let result = runToEnd(CommandLine.arguments[0], [test], environment: [Self.childVariable: "1"])
        XCTAssertEqual(result.code, 0, result.output)
        XCTAssertTrue(result.output.contains("Executed 1 test, with 0 failures"), result.output)
        let warning = "TetherGio: GLib's default main context is running on a thread other than the main thread"
        XCTAssertEqual(result.output.components(separatedBy: warning).count - 1, 1, result.output)
        XCTAssertTrue(result.output.contains("run the loop (g_main_loop_run, GTK's loop) on the main thread"))
    }

    /// The child: asked to install on a worker thread whose loop runs the default context, the integration
    /// cannot drain the main queue there: it says so, once, and stays uninstalled.
    private func offMainThreadProcess() {
        let done = DispatchSemaphore(value: 0)
        Thread {
            for _ in 0..<2 {
                MainQueueIntegration.install()
                while g_main_context_iteration(nil, 0) != 0 {}
            }
            done.signal()
        }.start()
        XCTAssertEqual(done.wait(timeout: .now() + 30), .success, "watchdog: the worker's loop")
        XCTAssertFalse(MainQueueIntegration.isInstalled)
    }

    /// The child: nothing installed yet; the first `MainContextScheduler.main` installs it, and work sent
    /// to the main queue from another thread runs while only GLib's default context is iterated.
    private func freshProcess() {
        XCTAssertFalse(MainQueueIntegration.isInstalled, "a fresh process has nothing installed")
        MainContextScheduler.main.schedule {}
        XCTAssertTrue(MainQueueIntegration.isInstalled, "installed by the main context's scheduler")
        let ran = Locked<Bool?>(nil)
        DispatchQueue.global().async {
            DispatchQueue.main.async { ran.store(Thread.isMainThread) }
        }
        pump(until: { ran.load() != nil })
        XCTAssertEqual(ran.load(), true, "run on the main thread")
        if ran.load() == true { print("main queue ran in GLib's loop") }
    }
}
