import Observable
import XCTest

/// How ``assertReleasesCapture(ending:file:line:_:)`` ends the subscription before it checks that the
/// captured object was released.
package enum SubscriptionEnding { case dispose, complete, fail }

/// Builds a pipeline on a subject that captures a ``Tracked`` object, and checks that the object is kept
/// while the subscription lives and released once it ends the way `ending` says.
package func assertReleasesCapture<Output: SignalConvertible>(
    ending: SubscriptionEnding = .dispose, file: StaticString = #filePath, line: UInt = #line,
    _ build: (Tracked, Subject<Int, TestError>) -> Output
) {
    weak var weakTracked: Tracked?
    let subject = Subject<Int, TestError>()
    var subscription: (any Disposable)?
    do {
        let tracked = Tracked()
        weakTracked = tracked
        subscription = build(tracked, subject).subscribe()
    }
    XCTAssertNotNil(weakTracked, "released while the subscription lives", file: file, line: line)
    switch ending {
    case .dispose: subscription?.dispose()
    case .complete: subject.sendCompleted()
    case .fail: subject.sendError(TestError())
    }
    XCTAssertNil(weakTracked, "captured object leaked", file: file, line: line)
}

/// Checks that disposing the operator's subscription disposes its source's, exactly once.
package func assertDisposesSource<Output: SignalConvertible>(
    file: StaticString = #filePath, line: UInt = #line, _ apply: (Signal<Int, TestError>) -> Output
) {
    let disposed = Counter()
    let holder = ObserverKeeper()
    let source = Signal<Int, TestError> { observer in
        holder.keep(observer)
        return AnyDisposable { disposed.increment() }
    }
    let subscription = apply(source).subscribe()
    XCTAssertEqual(disposed.value, 0, file: file, line: line)
    subscription.dispose()
    XCTAssertEqual(disposed.value, 1, file: file, line: line)
}
