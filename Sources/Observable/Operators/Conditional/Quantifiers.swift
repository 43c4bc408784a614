import TetherEngine

extension SignalConvertible {
    /// Sends `true` as soon as a value passes `predicate`, or `false` when the signal completes without
    /// one; then completes (RAC's `-any:`).
    ///
    /// The source is disposed at the first passing value. A failure before it is sent as is (RAC sent
    /// `NO` instead, losing the error).
    ///
    /// ```swift
    /// Signal(values: [1, 2, 5, 1]).any { $0 > 3 }.subscribe(next: { print($0) })   // true
    /// Signal(values: [1, 2]).any { $0 > 3 }.subscribe(next: { print($0) })         // false
    /// ```
    /// Marble: `-1-2-5-1-|` with `> 3` → `-----(t|)`; `-1-2-|` → `-----(f|)`
    public func any(_ predicate: @escaping @Sendable (Value) -> Bool) -> Signal<Bool, Failure> {
        filter(predicate).map { _ in true }.concat(Signal<Bool, Failure>(value: false)).take(1)
    }

    /// Sends `true` as soon as the signal sends any value, or `false` when it completes without one;
    /// then completes (RAC's `-any`).
    ///
    /// ```swift
    /// let results = Subject<[String], Never>()
    /// let foundSomething = results.any()   // true at the first result
    /// ```
    /// Marble: `---a-b-|` → `---(t|)`; `---|` → `---(f|)`
    public func any() -> Signal<Bool, Failure> {
        any { _ in true }
    }

    /// Sends `false` as soon as a value fails `predicate`, or `true` when the signal completes with
    /// every value passing (also when it sent none); then completes (RAC's `-all:`).
    ///
    /// The source is disposed at the first failing value. A failure before it is sent as is (RAC sent
    /// `NO` instead, losing the error).
    ///
    /// ```swift
    /// Signal(values: [2, 4, 6]).all { $0.isMultiple(of: 2) }.subscribe(next: { print($0) })   // true
    /// Signal(values: [2, 3, 6]).all { $0.isMultiple(of: 2) }.subscribe(next: { print($0) })   // false
    /// ```
    /// Marble: `-2-3-6-|` with "even" → `---(f|)`; `-2-4-|` → `-----(t|)`
    public func all(_ predicate: @escaping @Sendable (Value) -> Bool) -> Signal<Bool, Failure> {
        filter { !predicate($0) }.map { _ in false }.concat(Signal<Bool, Failure>(value: true)).take(1)
    }
}
