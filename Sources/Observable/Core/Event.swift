import TetherEngine

/// One thing a signal tells its observer: a value, a failure, or that it has finished.
///
/// A subscription receives `next* (error | completed)?` — any number of values, then at most one
/// terminal event, and nothing after it.
///
/// ```swift
/// let events: [Event<Int, Never>] = [.next(1), .next(2), .completed]
/// print(events.map(\.isTerminal))   // [false, false, true]
/// ```
@frozen
public enum Event<Value, Failure: Error> {
    /// A value (RAC's `sendNext:`).
    case next(Value)
    /// The signal failed; no event follows (RAC's `sendError:`).
    case error(Failure)
    /// The signal finished successfully; no event follows (RAC's `sendCompleted`).
    case completed

    /// Whether this is `.error` or `.completed`.
    ///
    /// ```swift
    /// print(Event<Int, Never>.completed.isTerminal)   // true
    /// ```
    @inlinable
    public var isTerminal: Bool {
        if case .next = self { return false }
        return true
    }

    /// The value of a `.next` event, or `nil`.
    ///
    /// ```swift
    /// Event<Int, Never>.next(3).value   // 3
    /// ```
    @inlinable
    public var value: Value? {
        if case .next(let value) = self { return value }
        return nil
    }

    /// The failure of an `.error` event, or `nil`.
    ///
    /// ```swift
    /// enum MyError: Error { case boom }
    /// Event<Int, MyError>.error(.boom).error   // .boom
    /// ```
    @inlinable
    public var error: Failure? {
        if case .error(let failure) = self { return failure }
        return nil
    }

    /// The same event with its value transformed.
    ///
    /// ```swift
    /// print(Event<Int, Never>.next(2).map { $0 * 10 })   // next(20)
    /// ```
    @inlinable
    public func map<NewValue>(_ transform: (Value) throws -> NewValue) rethrows -> Event<NewValue, Failure> {
        switch self {
        case .next(let value): return .next(try transform(value))
        case .error(let failure): return .error(failure)
        case .completed: return .completed
        }
    }

    /// The same event with its failure transformed.
    ///
    /// ```swift
    /// enum MyError: Error { case boom }
    /// enum AppError: Error { case wrapped(MyError) }
    /// Event<Int, MyError>.error(.boom).mapError { AppError.wrapped($0) }
    /// ```
    @inlinable
    public func mapError<NewFailure>(_ transform: (Failure) -> NewFailure) -> Event<Value, NewFailure> {
        switch self {
        case .next(let value): return .next(value)
        case .error(let failure): return .error(transform(failure))
        case .completed: return .completed
        }
    }
}

extension Event: Sendable where Value: Sendable {}

extension Event: Equatable where Value: Equatable, Failure: Equatable {}

extension Event: Hashable where Value: Hashable, Failure: Hashable {}

extension Event: CustomStringConvertible {
    /// A readable form: `next(1)`, `error(…)`, `completed`.
    ///
    /// ```swift
    /// print(Event<Int, Never>.next(1))   // next(1)
    /// ```
    public var description: String {
        switch self {
        case .next(let value): return "next(\(value))"
        case .error(let failure): return "error(\(failure))"
        case .completed: return "completed"
        }
    }
}
