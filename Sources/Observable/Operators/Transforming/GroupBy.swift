import TetherEngine

/// One group of ``SignalConvertible/group(by:)``: the key its values share, and a signal of them
/// (RAC's `RACGroupedSignal`).
///
/// The group is hot, like RAC's (a subject): subscribe when the group arrives to receive its first
/// value. It ends with the source: it completes or fails when the source does.
///
/// ```swift
/// let words = Subject<String, Never>()
/// words.group(by: \.count).subscribe(next: { (group: GroupedSignal<Int, String, Never>) in
///     group.subscribe(next: { print(group.key, $0) })
/// })
/// words.send("to")    // prints 2 to
/// ```
public struct GroupedSignal<Key, Value, Failure: Error>: SignalConvertible {
    /// The key shared by every value of this group.
    ///
    /// ```swift
    /// let groups = Signal(values: [1, 2, 3]).group(by: { $0 % 2 })
    /// groups.subscribe(next: { print("group", $0.key) })   // group 1, group 0
    /// ```
    public let key: Key

    @usableFromInline let subject: Subject<Value, Failure>

    @inlinable
    init(key: Key, subject: Subject<Value, Failure>) {
        self.key = key
        self.subject = subject
    }

    /// The group's values, from the moment of subscription on, then the source's terminal event.
    ///
    /// ```swift
    /// let groups = Signal(values: [1, 2, 3]).group(by: { $0 % 2 })
    /// groups.subscribe(next: { group in group.signal.subscribe(next: { print($0) }) })
    /// ```
    @inlinable
    public var signal: Signal<Value, Failure> { subject.signal }
}

extension GroupedSignal: Sendable where Key: Sendable, Value: Sendable {}

extension SignalConvertible {
    /// Splits the values into groups by key: the first value of each new key sends a new
    /// ``GroupedSignal``, then every value goes to its key's group (RAC's `groupBy:`).
    ///
    /// A new group is sent before its first value goes to it, so a subscriber that subscribes to the
    /// group when it arrives receives that value. The groups are hot (subjects): a group subscribed to
    /// later sees only later values. When the source completes or fails, the result does, then every
    /// group, in the order they were created. Disposing the result stops the source: the groups then
    /// send nothing more, and end quietly once nothing holds them.
    ///
    /// ```swift
    /// let numbers = Signal(values: 1...6)
    /// numbers.group(by: { $0.isMultiple(of: 2) ? "even" : "odd" }).subscribe(next: { group in
    ///     group.collect().subscribe(next: { print(group.key, $0) })
    /// })
    /// // odd [1, 3, 5]
    /// // even [2, 4, 6]
    /// ```
    /// Marble (groups by parity): `-1-2-3-|` → `-O-E---|`, with `O`: `-1---3-|`, `E`: `---2---|`
    @inlinable
    public func group<Key: Hashable>(
        by key: @escaping @Sendable (Value) -> Key
    ) -> Signal<GroupedSignal<Key, Value, Failure>, Failure> {
        group(by: key, transform: { $0 })
    }

    /// Like ``group(by:)``, but each group receives `transform(value)` rather than the value
    /// (RAC's `groupBy:transform:`).
    ///
    /// ```swift
    /// let names = Signal(values: ["Ann", "Bob", "Alice"])
    /// names.group(by: { $0.first! }, transform: { $0.count }).subscribe(next: { group in
    ///     group.subscribe(next: { print(group.key, $0) })
    /// })
    /// // A 3
    /// // B 3
    /// // A 5
    /// ```
    /// Marble (groups by parity, transform ×10): `-1-2-3-|` → `-O-E---|`, with `O`: `-10---30-|`
    @inlinable
    public func group<Key: Hashable, NewValue>(
        by key: @escaping @Sendable (Value) -> Key, transform: @escaping @Sendable (Value) -> NewValue
    ) -> Signal<GroupedSignal<Key, NewValue, Failure>, Failure> {
        let upstream = signal
        return Signal(unsafeStart: { sink, lifetime in
            // The source's events arrive serialized: plain captured state suffices.
            var groups: [Key: Subject<NewValue, Failure>] = [:]
            var ordered: [Subject<NewValue, Failure>] = []
            upstream.start(
                Sink { event in
                    switch event {
                    case .next(let value):
                        let groupKey = key(value)
                        let subject: Subject<NewValue, Failure>
                        if let existing = groups[groupKey] {
                            subject = existing
                        } else {
                            subject = Subject()
                            groups[groupKey] = subject
                            ordered.append(subject)
                            sink.send(.next(GroupedSignal(key: groupKey, subject: subject)))
                        }
                        subject.send(transform(value))
                    case .error(let failure):
                        let all = ordered
                        groups = [:]
                        ordered = []
                        sink.send(.error(failure))
                        for subject in all { subject.sendError(failure) }
                    case .completed:
                        let all = ordered
                        groups = [:]
                        ordered = []
                        sink.send(.completed)
                        for subject in all { subject.sendCompleted() }
                    }
                }, in: lifetime)
        })
    }
}
