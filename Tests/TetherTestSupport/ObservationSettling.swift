import Foundation
import XCTest

/// Lets `observe(\.path)` subscriptions on `@Observable` objects deliver what the sets before this call
/// changed. In the default build they already have (synchronously, on the setting thread): this does
/// nothing. In a library built with `-D TETHER_OBSERVATION_PUBLIC_API` they re-read on the main queue:
/// this waits (on the main thread, running its run loop) until the work queued there before the call
/// has run; a 10 s watchdog turns a hang into a failure.
package func settleObservations(file: StaticString = #filePath, line: UInt = #line) {
    #if TETHER_OBSERVATION_PUBLIC_API
        precondition(Thread.isMainThread, "settleObservations() drains the main queue from the main thread")
        let drained = XCTestExpectation(description: "the main queue ran the work queued before")
        DispatchQueue.main.async { drained.fulfill() }
        let result = XCTWaiter().wait(for: [drained], timeout: 10)
        XCTAssertEqual(result, .completed, "the main queue did not run within 10 s", file: file, line: line)
    #endif
}
