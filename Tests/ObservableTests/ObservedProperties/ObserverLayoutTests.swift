import Foundation
import TetherTestSupport
import XCTest

@testable import Observable

#if canImport(Glibc)
    import Glibc
#endif

/// An `@Observed` observer's objects stay in malloc's 48-byte size class (40 usable bytes): its entry and its
/// callbacks (issue 45: 285 B per observer before, 173 B after, with the subscription's lifetime and the
/// list's slot; 157 B with the 40-byte lifetime, pinned by `CompositeDisposableLayoutTests`).
final class ObserverLayoutTests: XCTestCase {
    #if canImport(Glibc)
        /// glibc's `malloc_usable_size` (declared in <malloc.h>, which Glibc does not import).
        private func usableSize(of object: AnyObject) throws -> Int {
            typealias UsableSize = @convention(c) (UnsafeMutableRawPointer?) -> Int
            let symbol = try XCTUnwrap(dlsym(nil, "malloc_usable_size"))
            let usableSize = unsafeBitCast(symbol, to: UsableSize.self)
            return usableSize(Unmanaged.passUnretained(object).toOpaque())
        }

        func testAValuesObserversEntryAndCallbacksFitInMallocsFortyEightByteSizeClass() throws {
            let list = PropertyObserverList<Int>()
            let lifetime = CompositeDisposable()
            let sum = Counter()
            let entry = PropertyObserverEntry<Int>(
                channel: list, sink: .values { sum.increment(by: $0) }, lifetime: lifetime)
            XCTAssertLessThanOrEqual(try usableSize(of: entry), 40)
            let callbacks = try XCTUnwrap(entry.handlers).takeUnretainedValue()
            XCTAssertLessThanOrEqual(try usableSize(of: callbacks), 40)
            entry.receive(2)
            XCTAssertEqual(sum.value, 2)
            entry.dispose()
            XCTAssertNil(entry.handlers, "disposing releases the callbacks")
        }

        func testAnEventObserversCallbacksFitInMallocsFortyEightByteSizeClass() throws {
            let list = PropertyObserverList<Int>()
            let lifetime = CompositeDisposable()
            let log = EventLog<Int, Never>()
            let entry = PropertyObserverEntry<Int>(channel: list, sink: .events { log.append($0) }, lifetime: lifetime)
            let callbacks = try XCTUnwrap(entry.handlers).takeUnretainedValue()
            XCTAssertLessThanOrEqual(try usableSize(of: callbacks), 40)
            entry.receive(3)
            entry.finish()
            XCTAssertEqual(log.events, [.next(3), .completed])
            XCTAssertTrue(lifetime.isDisposed, "finishing ends the subscription")
        }
    #endif
}
