import Bridges
import Dispatch
import Foundation
import TetherTestSupport
import TetherTesting
import XCTest

#if canImport(Glibc)
    import Glibc
#endif

/// The address of the handler currently installed for `number` (SIG_DFL is 0, SIG_IGN is 1).
private func currentHandler(_ number: Int32) -> Int {
    var action = sigaction()
    sigaction(number, nil, &action)
    return unsafeBitCast(action.__sigaction_handler.sa_handler, to: Int.self)
}

private let ignoreHandler = unsafeBitCast(SIG_IGN, to: Int.self)

final class UnixSignalTests: ResourceCheckedTestCase {
    /// Tests start from SIGUSR1/SIGUSR2 ignored, so a stray signal can never kill the test process.
    private var saved: [Int32: sigaction] = [:]

    override func setUp() {
        super.setUp()
        for number in [SIGUSR1, SIGUSR2] {
            var ignore = sigaction()
            ignore.__sigaction_handler.sa_handler = SIG_IGN
            var previous = sigaction()
            sigaction(number, &ignore, &previous)
            saved[number] = previous
        }
    }

    override func tearDown() {
        for (number, var previous) in saved { sigaction(number, &previous, nil) }
        super.tearDown()
    }

    func testReceivesARealSIGUSR1() {
        let log = EventLog<UnixSignal, BridgeError>()
        let received = log.expectation(count: 1)
        let subscription = Signal.unixSignals(.user1).record(into: log)
        kill(getpid(), SIGUSR1)
        wait(for: [received], timeout: 10)
        subscription.dispose()
        XCTAssertEqual(log.events, [.next(.user1)])
    }

    func testEverySignalSentWhileSubscribedArrives() {
        let log = EventLog<UnixSignal, BridgeError>()
        let subscription = Signal.unixSignals(.user1, .user2).record(into: log)
        for expected in 1...3 {
            let received = log.expectation(count: 2 * expected - 1)
            kill(getpid(), SIGUSR1)
            wait(for: [received], timeout: 10)
            let second = log.expectation(count: 2 * expected)
            kill(getpid(), SIGUSR2)
            wait(for: [second], timeout: 10)
        }
        subscription.dispose()
        XCTAssertEqual(log.values, [.user1, .user2, .user1, .user2, .user1, .user2])
    }

    func testASignalFromAnotherThreadArrives() {
        let log = EventLog<UnixSignal, BridgeError>()
        let received = log.expectation(count: 1)
        let subscription = Signal.unixSignals(.user2).record(into: log)
        let thread = Thread { kill(getpid(), SIGUSR2) }
        thread.start()
        wait(for: [received], timeout: 10)
        subscription.dispose()
        XCTAssertEqual(log.values, [.user2])
    }

    func testPreviousDispositionIsRestoredOnDispose() {
        XCTAssertEqual(currentHandler(SIGUSR1), ignoreHandler)
        let subscription = Signal.unixSignals(.user1).subscribe()
        XCTAssertNotEqual(currentHandler(SIGUSR1), ignoreHandler, "the bridge owns the disposition while subscribed")
        subscription.dispose()
        XCTAssertEqual(currentHandler(SIGUSR1), ignoreHandler)
    }

    func testDispositionIsRestoredOnlyAfterTheLastSubscriptionEnds() {
        let first = Signal.unixSignals(.user1).subscribe()
        let log = EventLog<UnixSignal, BridgeError>()
        let second = Signal.unixSignals(.user1).record(into: log)
        first.dispose()
        XCTAssertNotEqual(currentHandler(SIGUSR1), ignoreHandler)
        let received = log.expectation(count: 1)
        kill(getpid(), SIGUSR1)
        wait(for: [received], timeout: 10)
        second.dispose()
        XCTAssertEqual(currentHandler(SIGUSR1), ignoreHandler)
        XCTAssertEqual(log.values, [.user1])
    }

    func testNothingArrivesAfterDispose() {
        let log = EventLog<UnixSignal, BridgeError>()
        let subscription = Signal.unixSignals(.user1).record(into: log)
        subscription.dispose()
        // Another subscription proves the signal was delivered and handled, and the first saw nothing.
        let witness = EventLog<UnixSignal, BridgeError>()
        let received = witness.expectation(count: 1)
        let other = Signal.unixSignals(.user1).record(into: witness)
        kill(getpid(), SIGUSR1)
        wait(for: [received], timeout: 10)
        other.dispose()
        XCTAssertEqual(log.count, 0)
    }

    func testInvalidSignalNumbersAreErrorEvents() {
        for number: Int32 in [0, -1, 65, 9_999] {
            let log = EventLog<UnixSignal, BridgeError>()
            Signal.unixSignals(UnixSignal(rawValue: number)).record(into: log)
            XCTAssertEqual(log.events, [.error(.invalidSignalNumber(number))])
        }
    }

    func testUncatchableAndFaultSignalsAreErrorEventsAndInstallNothing() {
        for signal in [UnixSignal.kill, .stop, UnixSignal(rawValue: SIGSEGV)] {
            let log = EventLog<UnixSignal, BridgeError>()
            Signal.unixSignals(.user1, signal).record(into: log)
            XCTAssertEqual(log.events, [.error(.unobservableSignal(signal))])
        }
        XCTAssertEqual(currentHandler(SIGUSR1), ignoreHandler, "a failed subscription installs nothing")
    }

    func testSubscriptionsOpenNoDescriptorsBeyondTheProcessWidePipe() {
        Signal.unixSignals(.user2).subscribe().dispose()  // creates the process-wide pipe once
        let before = openDescriptors()
        let log = EventLog<UnixSignal, BridgeError>()
        let received = log.expectation(count: 1)
        let subscription = Signal.unixSignals(.user1, .user2).record(into: log)
        kill(getpid(), SIGUSR1)
        wait(for: [received], timeout: 10)
        let during = openDescriptors()
        subscription.dispose()
        let after = openDescriptors()
        XCTAssertEqual(during, before, "opened: \(during.subtracting(before).map(describeDescriptor))")
        XCTAssertEqual(after, before, "leaked: \(after.subtracting(before).map(describeDescriptor))")
    }

    func testRepeatedSubscriptionsEachReceiveTheirSignal() {
        for _ in 0..<50 {
            let log = EventLog<UnixSignal, BridgeError>()
            let received = log.expectation(count: 1)
            let subscription = Signal.unixSignals(.user1).record(into: log)
            kill(getpid(), SIGUSR1)
            wait(for: [received], timeout: 10)
            subscription.dispose()
            XCTAssertEqual(log.values, [.user1])
        }
        XCTAssertEqual(currentHandler(SIGUSR1), ignoreHandler)
    }

    func testDescriptionsUseConventionalNames() {
        XCTAssertEqual(UnixSignal.interrupt.description, "SIGINT")
        XCTAssertEqual(UnixSignal.windowChange.description, "SIGWINCH")
        XCTAssertEqual(UnixSignal(rawValue: 40).description, "signal 40")
        XCTAssertEqual(BridgeError.unobservableSignal(.kill).description, "SIGKILL cannot be observed")
    }
}
