import Bridges
import Foundation
import TetherTestSupport
import TetherTesting
import XCTest

private func shell(_ script: String) -> Process {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    process.arguments = ["-c", script]
    return process
}

final class ProcessTests: ResourceCheckedTestCase {
    func testSubscribingLaunchesAndSendsTheExitStatus() {
        let log = EventLog<ProcessExit, BridgeError>()
        let done = log.expectation(count: 2)
        Signal.termination(of: shell("exit 3")).record(into: log)
        wait(for: [done], timeout: 30)
        XCTAssertEqual(log.events, [.next(.exited(3)), .completed])
    }

    func testAProcessKilledByASignalReportsTheSignal() {
        let log = EventLog<ProcessExit, BridgeError>()
        let done = log.expectation(count: 2)
        Signal.termination(of: shell("kill -TERM $$")).record(into: log)
        wait(for: [done], timeout: 30)
        XCTAssertEqual(log.events, [.next(.signaled(.terminate)), .completed])
    }

    func testALaunchFailureIsAnErrorEvent() {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/nonexistent/tether-no-such-program")
        let log = EventLog<ProcessExit, BridgeError>()
        Signal.termination(of: process).record(into: log)
        XCTAssertEqual(log.count, 1)
        guard case .error(.launchFailed)? = log.events.first else {
            return XCTFail("expected a launch failure, got \(log.events)")
        }
    }

    func testAnAlreadyFinishedProcessReportsAtOnce() throws {
        let process = shell("exit 5")
        try process.run()
        process.waitUntilExit()
        let log = EventLog<ProcessExit, BridgeError>()
        Signal.termination(of: process).record(into: log)
        XCTAssertEqual(log.events, [.next(.exited(5)), .completed])
    }

    func testARunningProcessIsWatched() throws {
        let input = Pipe()
        let process = shell("read line; exit 4")
        process.standardInput = input
        try process.run()
        let log = EventLog<ProcessExit, BridgeError>()
        let done = log.expectation(count: 2)
        Signal.termination(of: process).record(into: log)
        input.fileHandleForWriting.write(Data("go\n".utf8))
        wait(for: [done], timeout: 30)
        XCTAssertEqual(log.events, [.next(.exited(4)), .completed])
    }

    func testATerminationHandlerSetBeforeStillRuns() {
        let process = shell("exit 0")
        let handled = expectation(description: "previous handler")
        process.terminationHandler = { _ in handled.fulfill() }
        let log = EventLog<ProcessExit, BridgeError>()
        let done = log.expectation(count: 2)
        Signal.termination(of: process).record(into: log)
        wait(for: [handled, done], timeout: 30)
        XCTAssertEqual(log.events, [.next(.exited(0)), .completed])
    }

    func testDisposingStopsWatchingAndLeavesTheChildRunning() throws {
        let input = Pipe()
        let process = shell("read line; exit 0")
        process.standardInput = input
        let log = EventLog<ProcessExit, BridgeError>()
        let subscription = Signal.termination(of: process).record(into: log)
        subscription.dispose()
        XCTAssertTrue(process.isRunning)
        // A second subscription proves the termination was reported; the disposed one saw nothing.
        let witness = EventLog<ProcessExit, BridgeError>()
        let done = witness.expectation(count: 2)
        Signal.termination(of: process).record(into: witness)
        input.fileHandleForWriting.write(Data("done\n".utf8))
        wait(for: [done], timeout: 30)
        XCTAssertEqual(witness.events, [.next(.exited(0)), .completed])
        XCTAssertEqual(log.count, 0)
    }
}
