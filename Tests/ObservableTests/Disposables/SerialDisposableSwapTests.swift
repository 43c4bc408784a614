import Dispatch
import Foundation
import Observable
import TetherTesting
import XCTest

private final class IdentifierLog: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [ObjectIdentifier] = []
    var values: [ObjectIdentifier] { lock.withLock { storage } }
    func append(_ value: ObjectIdentifier) { lock.withLock { storage.append(value) } }
}

final class SerialDisposableSwapTests: ResourceCheckedTestCase {
    func testSwapReturnsThePreviousInnerWithoutDisposingIt() {
        let first = AnyDisposable()
        let second = AnyDisposable()
        let serial = SerialDisposable(first)
        let old = serial.swap(second)
        XCTAssertTrue(old === first)
        XCTAssertFalse(first.isDisposed)
        XCTAssertFalse(second.isDisposed)
        XCTAssertTrue(serial.inner === second)
        serial.dispose()
        XCTAssertTrue(second.isDisposed)
        XCTAssertFalse(first.isDisposed)
    }

    func testSwapOnAnEmptySerialDisposableReturnsNil() {
        let serial = SerialDisposable()
        let inner = AnyDisposable()
        XCTAssertNil(serial.swap(inner))
        XCTAssertTrue(serial.swap(nil) === inner)
        XCTAssertFalse(inner.isDisposed)
        XCTAssertNil(serial.inner)
    }

    func testSwapAfterDisposalDisposesTheNewInnerAtOnceAndReturnsNil() {
        let serial = SerialDisposable()
        serial.dispose()
        let late = AnyDisposable()
        XCTAssertNil(serial.swap(late))
        XCTAssertTrue(late.isDisposed)
        XCTAssertNil(serial.inner)
    }

    func testConcurrentSwapsHandEachInnerBackExactlyOnce() {
        let serial = SerialDisposable()
        let returned = IdentifierLog()
        let threads = 4
        let perThread = 500
        let all = (0..<threads * perThread).map { _ in AnyDisposable() }
        DispatchQueue.concurrentPerform(iterations: threads) { thread in
            for index in 0..<perThread {
                let old = serial.swap(all[thread * perThread + index])
                if let old {
                    returned.append(ObjectIdentifier(old))
                }
            }
        }
        let last = serial.swap(nil)
        if let last { returned.append(ObjectIdentifier(last)) }
        XCTAssertEqual(returned.values.count, all.count)
        XCTAssertEqual(Set(returned.values), Set(all.map { ObjectIdentifier($0) }))
        XCTAssertFalse(all.contains { $0.isDisposed })
    }
}
