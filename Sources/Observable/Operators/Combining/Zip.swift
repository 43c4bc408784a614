import TetherEngine

extension SignalConvertible {
    /// Pairs the values of this signal and `other` by position: the first with the first, the second
    /// with the second, … (RAC's `zipWith:`).
    ///
    /// The faster side's values are buffered until the other side catches up. The result fails as
    /// soon as either side fails, and completes — as in RAC — as soon as no new pair is possible: when
    /// one side has completed and its buffered values have all been paired. Disposing the
    /// subscription disposes both upstreams.
    ///
    /// ```swift
    /// let letters = Subject<String, Never>()
    /// let numbers = Subject<Int, Never>()
    /// letters.zip(with: numbers).subscribe(next: { print($0) })
    /// letters.send("a"); letters.send("b")   // prints nothing yet
    /// numbers.send(1)                        // ("a", 1)
    /// numbers.send(2)                        // ("b", 2)
    /// ```
    /// Marble:
    /// ```text
    /// self:   -a-b---c-|
    /// other:  ---1-2-----3-
    /// result: ---(a,1)-(b,2)---(c,3)|
    /// ```
    /// Events of both sides are serialized (they may arrive on different threads).
    @inlinable
    public func zip<Other: SignalConvertible>(
        with other: Other
    ) -> Signal<(Value, Other.Value), Failure> where Other.Failure == Failure {
        let first = signal
        let second = other.signal
        return Signal.combining(first, second, logic: ZipPair<Value, Other.Value, Failure>())
    }
}

/// The logic of a two-input `zip`: one per subscription, driven by its mailbox.
@usableFromInline
final class ZipPair<First, Second, Failure: Error>: TwoInputLogic {
    @usableFromInline @exclusivity(unchecked) var first = FIFOBuffer<First>()
    @usableFromInline @exclusivity(unchecked) var second = FIFOBuffer<Second>()
    @usableFromInline @exclusivity(unchecked) var firstCompleted = false
    @usableFromInline @exclusivity(unchecked) var secondCompleted = false

    @inlinable
    init() {}

    /// Whether no further pair is possible.
    @inlinable
    var isExhausted: Bool {
        (firstCompleted && first.isEmpty) || (secondCompleted && second.isEmpty)
    }

    @inlinable @inline(__always)  // into the scaffold's mailbox handler: no call per value
    func receive(_ input: BinaryInput<First, Second, Failure>, output: OperatorOutput<(First, Second), Failure>) {
        switch input {
        case .first(.next(let value)):
            if second.isEmpty {
                first.append(value)
                return
            }
            output.send((value, second.removeFirst()))
        case .second(.next(let value)):
            if first.isEmpty {
                second.append(value)
                return
            }
            output.send((first.removeFirst(), value))
        case .first(.completed):
            firstCompleted = true
        case .second(.completed):
            secondCompleted = true
        case .first(.error), .second(.error), .gone:
            return  // the scaffold's
        }
        // RAC's rule: complete once a side has completed and all its values were paired.
        if isExhausted { output.finish(.completed) }
    }
}

extension Signal {
    /// Zips two signals into pairs by position (RAC's `+zip:`); see ``SignalConvertible/zip(with:)``.
    /// Reduce the pairs with `map` (RAC's `+zip:reduce:`).
    ///
    /// ```swift
    /// let requests = Subject<String, Never>(), responses = Subject<Int, Never>()
    /// Signal.zip(requests, responses).map { "\($0) → \($1)" }
    /// ```
    /// Marble: `a: -1-2-3-|`, `b: --x--y-` → `--(1,x)--(2,y)-`
    @inlinable
    public static func zip<A: SignalConvertible, B: SignalConvertible>(
        _ a: A, _ b: B
    ) -> Signal where Value == (A.Value, B.Value), A.Failure == Failure, B.Failure == Failure {
        a.zip(with: b)
    }

    /// Zips three signals into triples by position. As in RAC (which folds `zipWith:` over the
    /// inputs), it completes once no further triple is possible.
    ///
    /// ```swift
    /// let a = Signal<Int, Never>(values: [1, 2])
    /// let b = Signal<Int, Never>(values: [3, 4])
    /// let c = Signal<Int, Never>(values: [5, 6])
    /// Signal.zip(a, b, c).map { $0 + $1 + $2 }
    /// ```
    /// Marble: `a: 1-2-`, `b: -x-y`, `c: --T-` → `--(1,x,T)-`
    @inlinable
    public static func zip<A: SignalConvertible, B: SignalConvertible, C: SignalConvertible>(
        _ a: A, _ b: B, _ c: C
    ) -> Signal
    where
        Value == (A.Value, B.Value, C.Value),
        A.Failure == Failure, B.Failure == Failure, C.Failure == Failure
    {
        a.zip(with: b).zip(with: c).map { ($0.0, $0.1, $1) }
    }

    /// Zips four signals into 4-tuples by position; see ``zip(_:_:_:)``.
    ///
    /// ```swift
    /// let a = Signal<Int, Never>(values: [1, 2]), b = Signal<Int, Never>(values: [3, 4])
    /// let c = Signal<Int, Never>(values: [5, 6]), d = Signal<Int, Never>(values: [7, 8])
    /// Signal.zip(a, b, c, d).map { [$0, $1, $2, $3] }
    /// ```
    /// Marble: `a: 1---`, `b: -2--`, `c: --3-`, `d: ---4` → `---(1,2,3,4)`
    @inlinable
    public static func zip<
        A: SignalConvertible, B: SignalConvertible, C: SignalConvertible, D: SignalConvertible
    >(
        _ a: A, _ b: B, _ c: C, _ d: D
    ) -> Signal
    where
        Value == (A.Value, B.Value, C.Value, D.Value),
        A.Failure == Failure, B.Failure == Failure, C.Failure == Failure, D.Failure == Failure
    {
        a.zip(with: b).zip(with: c).zip(with: d).map { ($0.0.0, $0.0.1, $0.1, $1) }
    }

    /// Zips any number of same-typed signals into arrays by position, in the order of `signals`
    /// (RAC's `+zip:` on an array).
    ///
    /// It fails when any input fails and completes once no further array is possible (an input has
    /// completed and its buffered values were all used). **An empty collection completes at once**
    /// without sending (as RAC's `+zip:@[]`). The collection is read once, when this signal is created.
    ///
    /// ```swift
    /// let first = Signal<Int, Never>(values: [1])
    /// let second = Signal<Int, Never>(values: [2])
    /// let third = Signal<Int, Never>(values: [3])
    /// Signal.zip([first, second, third]).map { $0.reduce(0, +) }
    /// ```
    /// Marble: `a: -1-2-`, `b: --x--y` → `--[1,x]--[2,y]`
    @inlinable
    public static func zip<Signals: Sequence>(
        _ signals: Signals
    ) -> Signal
    where
        Signals.Element: SignalConvertible, Value == [Signals.Element.Value],
        Failure == Signals.Element.Failure
    {
        return combining(signals.map(\.signal), logic: ZipMany.init)
    }
}

/// The logic of `zip` over a collection: one per subscription, driven by its mailbox.
@usableFromInline
final class ZipMany<Input, Failure: Error>: ManyInputLogic {
    @usableFromInline @exclusivity(unchecked) var buffers: [FIFOBuffer<Input>]
    @usableFromInline @exclusivity(unchecked) var completed: [Bool]
    /// Inputs with at least one buffered value.
    @usableFromInline @exclusivity(unchecked) var filled = 0

    @inlinable
    init(count: Int) {
        buffers = Array(repeating: FIFOBuffer(), count: count)
        completed = Array(repeating: false, count: count)
    }

    @inlinable @inline(__always)  // into the scaffold's mailbox handler: no call per value
    func receive(_ index: Int, _ event: Event<Input, Failure>, output: OperatorOutput<[Input], Failure>) {
        switch event {
        case .next(let value):
            if buffers[index].isEmpty { filled += 1 }
            buffers[index].append(value)
            guard filled == buffers.count else { return }
            var values: [Input] = []
            values.reserveCapacity(buffers.count)
            for position in buffers.indices {
                values.append(buffers[position].removeFirst())
                if buffers[position].isEmpty { filled -= 1 }
            }
            output.send(values)
        case .completed:
            completed[index] = true
        case .error:
            return  // the scaffold's
        }
        // RAC's rule: complete once an input has completed and all its values were paired.
        for position in buffers.indices where completed[position] && buffers[position].isEmpty {
            output.finish(.completed)
            return
        }
    }
}
