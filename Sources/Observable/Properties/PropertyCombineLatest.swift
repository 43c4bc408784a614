/// The latest values of two never-failing signals, as pairs, once both have sent (the signal behind
/// ``Property/combineLatest(_:_:)``); completes when both have completed.
///
/// Kept private to properties so that they do not depend on the operator family; the public
/// `Signal.combineLatest` lives with the operators.
func combineLatestOfProperties<A, B>(
    _ first: Signal<A, Never>, _ second: Signal<B, Never>
) -> Signal<(A, B), Never> {
    typealias Input = PropertyPairInput<A, B>
    return Signal(unsafeStart: { sink, lifetime in
        var latestFirst: A?
        var latestSecond: B?
        var firstDone = false
        var secondDone = false
        let mailbox = Mailbox<Input>(lifetime: lifetime) { input in
            switch input {
            case .first(.next(let value)):
                latestFirst = value
            case .second(.next(let value)):
                latestSecond = value
            case .first(.completed):
                firstDone = true
            case .second(.completed):
                secondDone = true
            }
            if firstDone && secondDone {
                sink.send(.completed)
                lifetime.dispose()
                return
            }
            if case .first(.completed) = input { return }
            if case .second(.completed) = input { return }
            if let latestFirst, let latestSecond {
                sink.send(.next((latestFirst, latestSecond)))
            }
        }
        let firstLifetime = CompositeDisposable()
        lifetime.add(firstLifetime)
        let secondLifetime = CompositeDisposable()
        lifetime.add(secondLifetime)
        first.start(Sink { mailbox.post(.first($0)) }, in: firstLifetime)
        second.start(Sink { mailbox.post(.second($0)) }, in: secondLifetime)
    })
}

/// An input of ``combineLatestOfProperties(_:_:)``.
enum PropertyPairInput<A, B> {
    case first(Event<A, Never>)
    case second(Event<B, Never>)
}
