import Foundation
import TetherGio
import TetherGioTestSupport
import XCTest

/// Pumps the main context until an `async` call returns (or throws); returns its result.
func awaitResult<Value: Sendable>(
    file: StaticString = #filePath, line: UInt = #line, _ body: @escaping @Sendable () async throws -> Value
) -> Result<Value, any Error>? {
    let result = Locked<Result<Value, any Error>?>(nil)
    Task {
        do {
            result.store(.success(try await body()))
        } catch {
            result.store(.failure(error))
        }
    }
    pump(until: { result.load() != nil }, file: file, line: line)
    return result.load()
}

/// The values a signal sends, in order, and how it ended.
final class Recording<Value: Sendable>: Sendable {
    private let state = Locked<(values: [Value], completed: Bool, error: DBusError?)>(([], false, nil))
    private let subscription: any Disposable

    init(_ signal: Signal<Value, DBusError>) {
        let state = state
        subscription = signal.subscribe(
            next: { value in state.modify { $0.values.append(value) } },
            error: { error in state.modify { $0.error = error } },
            completed: { state.modify { $0.completed = true } })
    }

    var values: [Value] { state.load().values }
    var completed: Bool { state.load().completed }
    var error: DBusError? { state.load().error }

    func dispose() { subscription.dispose() }
}
