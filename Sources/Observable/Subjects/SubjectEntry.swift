import TetherEngine

/// What a ``SubjectEntry`` calls: a subscriber's closure — a ``Sink``'s two cases — or a stage's `deliver`
/// (``SubjectMappingEntry``: `map` right below a plain subject joined with an entry of its own), which takes
/// the entry's address and each value. 17 bytes, as a ``Sink``: a closure has no spare bits for the tag.
@usableFromInline
enum SubjectEntryCallback<Value, Failure: Error> {
    /// A values-only subscriber.
    case values((Value) -> Void)
    /// A subscriber of every event.
    case events((Event<Value, Failure>) -> Void)
    /// A values-only stage's entry, called with its own address (see ``SubjectMappingEntry``).
    case stage((UnsafeRawPointer, Value) -> Void)

    // The calls are the enum's own methods, as ``Sink``'s are: switching over the entry's stored callback
    // from a method of the entry copied it (an outlined copy, a retain and a release of the closure's context
    // per call), which a method of the enum, reading it in place, does not.

    /// Sends `.next(value)` (see ``Sink/send(next:)``); `entry` is the entry's address, for a stage.
    @inlinable @inline(__always)
    func send(next value: Value, entry: UInt) {
        switch self {
        case .values(let next): next(value)
        case .events(let action): action(.next(value))
        case .stage(let deliver): deliver(UnsafeRawPointer(bitPattern: entry).unsafelyUnwrapped, value)
        }
    }

    /// Sends `event` (see ``Sink/send(_:)``); a stage, values-only, ignores the terminal event, as a
    /// ``Sink/values(_:)`` sink does.
    @inlinable @inline(__always)
    func send(_ event: Event<Value, Failure>, entry: UInt) {
        switch self {
        case .values(let next):
            if case .next(let value) = event { next(value) }
        case .events(let action):
            action(event)
        case .stage(let deliver):
            if case .next(let value) = event { deliver(UnsafeRawPointer(bitPattern: entry).unsafelyUnwrapped, value) }
        }
    }
}

/// One subscriber of a subject; its subscription's lifetime holds a closure that removes it.
///
/// Not `Sendable` (it is not final: ``SubjectMappingEntry`` extends it): an entry crosses threads only inside
/// its core (the gate's queue, the join queue, the lists the owner calls), which synchronizes every access,
/// and in its lifetime's closure, which its core adds unchecked (`addUnchecked`) and which reads only the
/// entry's constants and atomic `flags` (``remove()``). Every field is immutable or atomic; the callback is
/// in ``SerializedCallbacks``, called by the core's gate or by the entry's own catch-up on the joining
/// thread before the gate calls it, one thread at a time (checked in debug builds).
///
/// Layout: the 16-byte header, `core` and `lifetime` (8 + 8), the 17-byte callback, then the three flag bytes
/// in its last word: 52 B, malloc's 64-byte class (in the order core, callback, lifetime it would be 59 B, the
/// 80-byte class). Not final: ``SubjectMappingEntry`` adds a stage's closures after it (from byte 56).
@usableFromInline
class SubjectEntry<Value, Failure: Error> {
    /// The subject's core, for ``remove()`` (the entry is the context of the closure that calls it).
    @usableFromInline let core: SubjectCore<Value, Failure>
    @usableFromInline let lifetime: CompositeDisposable
    /// The subscriber's callback, called one thread at a time (checked in debug builds).
    @usableFromInline let callbacks: SerializedCallbacks<SubjectEntryCallback<Value, Failure>>
    /// Disposed, and skipped by the gate's owner (the engine's disposal state of a subscriber).
    @usableFromInline let flags = SubscriberFlags()
    @usableFromInline let resourceToken = ResourceToken()  // ResourceCounter (leak checks)

    /// This entry's identity in the gate's `current`.
    @inlinable
    final var id: UInt { parkingAddress(of: self) }

    /// The entry of a subscriber's sink.
    @inlinable
    init(core: SubjectCore<Value, Failure>, sink: Sink<Value, Failure>, lifetime: CompositeDisposable) {
        self.core = core
        switch sink {
        case .values(let next): callbacks = SerializedCallbacks(.values(next))
        case .events(let action): callbacks = SerializedCallbacks(.events(action))
        }
        self.lifetime = lifetime
    }

    /// A stage's entry (see ``SubjectMappingEntry``).
    @inlinable
    init(
        core: SubjectCore<Value, Failure>, lifetime: CompositeDisposable,
        stage deliver: @escaping (UnsafeRawPointer, Value) -> Void
    ) {
        self.core = core
        callbacks = SerializedCallbacks(.stage(deliver))
        self.lifetime = lifetime
    }

    /// Sends `.next(value)` to the subscriber (see ``Sink/send(next:)``); `id` is this entry's ``id``, which
    /// the caller took already (taken again here, the optimizer retained and released the entry around the
    /// call in a subject's delivery loop: W2's fan-out, measured).
    @inlinable @inline(__always)
    final func send(next value: Value, at id: UInt) {
        callbacks.call { $0.send(next: value, entry: id) }
    }

    /// Sends `event` to the subscriber (see ``Sink/send(_:)``), as ``send(next:at:)``.
    @inlinable @inline(__always)
    final func send(_ event: Event<Value, Failure>, at id: UInt) {
        callbacks.call { $0.send(event, entry: id) }
    }

    /// Removes this entry from the subject (its subscription was disposed); see ``SubjectCore/remove(_:)``.
    @inlinable
    final func remove() {
        core.remove(self)
    }

    /// Called by the owner after the terminal event: ends the whole subscription.
    @inlinable
    final func finish() {
        flags.markDisposed()
        lifetime.dispose()
    }
}

/// `map`'s values-only subscription right below a plain subject (see ``SignalAnnex``): the subject's entry
/// holds the transform and the subscriber's closure itself and sends the subscriber `next(transform(value))`,
/// what the stage's sink closure would. 88 B (malloc's 96-byte class): one object where the sink's closure
/// context (48 B, the 64-byte class) and an entry holding that sink (52 B, 64) were two.
///
/// Its callback, `deliver`, is made here, in the specialized code that makes the entry, and captures nothing
/// (it is given the entry's address), so it has no context: a method overridden in this class, generic over
/// the stage's own types, would run unspecialized (W1's first `map`: ~25 instructions more per value,
/// measured). The address rather than the reference: passing the reference made the optimizer retain and
/// release every entry around its call in the subject's delivery loop.
@usableFromInline
final class SubjectMappingEntry<Value, NewValue, Failure: Error>: SubjectEntry<Value, Failure> {
    @usableFromInline let next: (NewValue) -> Void
    @usableFromInline let transform: (Value) -> NewValue

    @inlinable
    init(
        core: SubjectCore<Value, Failure>, next: @escaping (NewValue) -> Void,
        transform: @escaping (Value) -> NewValue, lifetime: CompositeDisposable
    ) {
        self.next = next
        self.transform = transform
        super.init(core: core, lifetime: lifetime) { entry, value in
            Unmanaged<SubjectMappingEntry<Value, NewValue, Failure>>.fromOpaque(entry)._withUnsafeGuaranteedRef {
                $0.next($0.transform(value))
            }
        }
    }
}
