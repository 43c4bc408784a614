import TetherEngine

/// What a key-path observation reports to the signal built on it.
@usableFromInline
enum KeyPathUpdate<Value> {
    /// The value on subscription.
    case initial(Value)
    /// About to change (sent only when asked for): the last value sent.
    case prior(old: Value)
    /// A tracked property was set and the key path re-evaluated.
    case changed(old: Value, new: Value)
    /// The observed object is gone, or the key path observes nothing.
    case ended
}

/// One subscription to `object.observe(\.some.path)` when the path is more than one `@Observed`
/// property of the object itself: a chain (`\.account.name`), an optional link (`\.account?.name`), a
/// computed property, a conditional.
///
/// The key path is evaluated under read tracking; the observation then listens to every `@Observed`
/// property that evaluation read, and re-evaluates (re-tracking) whenever one of them is set. So when
/// the middle of a chain is replaced, the next evaluation reads the new middle object and drops the old
/// one, whose sets are no longer heard. Reads of anything else are not tracked.
///
/// All inputs go through one ``Mailbox``: evaluations never overlap, and a set made by the
/// subscriber's own callback is handled after the current update (guarantees 3 and 4 of
/// <doc:ThreadingAndLifetimes>). The observation holds its object weakly and ends when the object
/// deinitializes (seen through the object's lifetime storage, see ``ObjectLifetime``).
///
/// Not `Sendable`: the observation is confined to its mailbox. `start` makes it and posts its first input;
/// from then on only the mailbox's handler touches it (the engine's ``Mailbox`` runs one input at a time,
/// whatever thread posts). What other threads reach — the disposal of the subscription, the tracked
/// properties' callbacks — are the mailbox and ``links``, which are `Sendable`.
@usableFromInline
final class KeyPathObservation<Root: AnyObject, Value> {
    @usableFromInline enum Input {
        case start(Value, [TrackedRead])
        case reevaluate
        case prior
        case rootGone
    }

    weak var root: Root?
    let keyPath: KeyPath<Root, Value>
    let wantsPrior: Bool
    var lastValue: Value?
    /// Where this observation's inputs go; set by `start` before the first input.
    var mailbox: Mailbox<Input>?
    /// The observers this observation added (the tracked properties' and the object's lifetime), which
    /// the subscription's disposal ends from any thread.
    let links = LockedState(KeyPathObservationLinks())

    init(root: Root, keyPath: KeyPath<Root, Value>, wantsPrior: Bool) {
        self.root = root
        self.keyPath = keyPath
        self.wantsPrior = wantsPrior
    }

    /// Starts an observation whose first evaluation (`value`, `reads`) has already been made.
    @usableFromInline
    static func start(
        root: Root, keyPath: KeyPath<Root, Value>, wantsPrior: Bool,
        first value: Value, reads: [TrackedRead],
        lifetime: CompositeDisposable, update: @escaping (KeyPathUpdate<Value>) -> Void
    ) {
        let observation = KeyPathObservation(root: root, keyPath: keyPath, wantsPrior: wantsPrior)
        let mailbox = Mailbox<Input>(lifetime: lifetime) { input in
            observation.handle(input, update: update)
        }
        observation.mailbox = mailbox
        let links = observation.links
        lifetime.add(AnyDisposable { links.close() })
        mailbox.post(.start(value, reads))
    }

    func handle(_ input: Input, update: (KeyPathUpdate<Value>) -> Void) {
        switch input {
        case .start(let value, let reads):
            guard let root else { return update(.ended) }
            if reads.isEmpty {
                ObservationWarning.keyPathObservesNothing(keyPath)
                update(.initial(value))
                return update(.ended)
            }
            attachLifetime(root: root, reads: reads)
            track(reads, root: root)
            lastValue = value
            update(.initial(value))
        case .reevaluate:
            guard let root else { return update(.ended) }
            let (value, reads) = ReadTracker.track { root[keyPath: keyPath] }
            track(reads, root: root)
            let old = lastValue ?? value
            lastValue = value
            update(.changed(old: old, new: value))
        case .prior:
            guard root != nil, let lastValue else { return }
            update(.prior(old: lastValue))
        case .rootGone:
            update(.ended)
        }
    }

    /// Listens for the root's deinitialization: through a root property the evaluation read, or else
    /// through the root's lifetime storage.
    func attachLifetime(root: Root, reads: [TrackedRead]) {
        let rootID = ObjectIdentifier(root)
        let channel = reads.first(where: { $0.owner == rootID })?.channel ?? ObjectLifetime.channel(of: root)
        guard let channel else {
            ObservationWarning.noLifetimeStorage(type(of: root))
            return
        }
        guard let mailbox else { return }  // set before the first input
        let observer = channel.addLifetimeObserver { mailbox.post(.rootGone) }
        let closed = links.withLock { links in
            if links.closed { return true }
            links.lifetimeObserver = observer
            return false
        }
        if closed { observer.dispose() }
    }

    func track(_ reads: [TrackedRead], root: Root) {
        guard let mailbox else { return }  // set before the first input
        var previous = links.withLock { $0.dependencies }
        var next: [ObjectIdentifier: any Disposable] = [:]
        for read in reads {
            let id = ObjectIdentifier(read.channel)
            if let existing = previous.removeValue(forKey: id) {
                next[id] = existing
                continue
            }
            // A dependency whose owner deinitializes is simply dropped: the set that released the owner
            // (of a tracked link) triggers the re-evaluation. Re-evaluating here would read the key path
            // from inside that set's access to its storage.
            next[id] = read.channel.addDependency(
                willSet: wantsPrior ? { mailbox.post(.prior) } : nil,
                didSet: { mailbox.post(.reevaluate) },
                finish: {})
        }
        let stale: [any Disposable] = links.withLock { links in
            if links.closed { return Array(previous.values) + Array(next.values) }
            links.dependencies = next
            return Array(previous.values)
        }
        for dependency in stale { dependency.dispose() }
    }
}

/// What a ``KeyPathObservation`` has subscribed to, shared with the disposal of its subscription (under
/// the `LockedState`'s lock).
@usableFromInline
struct KeyPathObservationLinks: Sendable {
    /// The tracked properties' observers, by property.
    var dependencies: [ObjectIdentifier: any Disposable] = [:]
    /// The observer of the object's deinitialization.
    var lifetimeObserver: (any Disposable)?
    /// The subscription was disposed: anything added later is disposed at once.
    var closed = false
}

extension LockedState where State == KeyPathObservationLinks {
    /// The subscription was disposed: ends every observer added, and any added from now on.
    func close() {
        let all: [any Disposable] = withLock { links in
            links.closed = true
            let all = Array(links.dependencies.values) + (links.lifetimeObserver.map { [$0] } ?? [])
            links.dependencies = [:]
            links.lifetimeObserver = nil
            return all
        }
        for dependency in all { dependency.dispose() }
    }
}
