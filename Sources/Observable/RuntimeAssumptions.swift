// The reflection SPI, for `_forEachField` only (field offsets, below: self-tested, with a `Mirror` fallback).
@_spi(Reflection) import Swift
import TetherEngine
import TetherShims

/// Every place where Tether relies on a detail of the Swift runtime that no public API promises, in one
/// file, each with its safe alternative beside it.
///
/// An assumption is kept only for a reason no public API offers: a measured gain of at least 10 % on a
/// benchmark row (Benchmarks/README.md, "Runtime assumptions"), or a documented behaviour that has no
/// public mechanism. Each one is checked once, lazily, by a self-test on an object the test makes; if the
/// runtime does not behave as assumed, the check fails and every user takes the safe path — slower, never
/// wrong — for the rest of the process. A toolchain update can therefore cost speed, not correctness.
///
/// - Object queries (the notification bridge's object filter): the runtime's `swift_isDeallocating` and
///   `swift_tryRetain`, asked about an object an unowned reference keeps allocated. Safe path: a weak
///   reference.
/// - Field offsets (``ObjectLifetime``): the standard library's reflection SPI (`_forEachField`) to find
///   an object's `@Observed` storage without a key path. Safe path: `Mirror`, which finds only storage
///   that an earlier observation allocated.
/// - An optimizer promise (``CompositeDisposable``'s slow paths, at the end of this file): `@_effects`
///   declares that they do not let `self` escape. It is not a property of the runtime but of the code,
///   so no self-test can check it: it holds because those bodies use the object's address only as a
///   number (a parking key) and call only ``HeldFlag`` methods, which keep nothing; it must be removed if
///   they ever keep `self`.
package enum RuntimeAssumptions {
    // MARK: The current executor

    /// Whether the calling code runs on `actor`'s executor, asked of the concurrency runtime
    /// (`swift_task_isCurrentExecutorWithFlags`, the query behind `Actor.assumeIsolated`, without its
    /// assertion flag, so it answers and never traps). A documented behaviour with no public mechanism:
    /// a send made on a subscriber's own actor is delivered at once (the Isolation article). Safe path:
    /// `false`, so only Tether's own hops and `subscribe` calls count as being on the actor (deliveries
    /// made elsewhere on the actor are queued to it, in order: later, never wrong).
    package static func isRunning(on actor: any Actor) -> Bool {
        currentExecutorCheck && isCurrent(actor.unownedExecutor)
    }

    /// The query, given an executor reference as its two words (identity, implementation): the layout of
    /// `UnownedSerialExecutor` (a `Builtin.Executor`), checked by the self-test's size check.
    private static func isCurrent(_ executor: UnownedSerialExecutor) -> Bool {
        let words = unsafeBitCast(executor, to: (UnsafeMutableRawPointer?, UInt).self)
        return tether_runtime_is_current_executor(words.0, words.1)
    }

    private static let currentExecutorCheck = checkCurrentExecutorQuery()

    /// The self-test: no code runs on an actor made just now, so the runtime must answer `false` for it
    /// here (an answer of `true` means the query is not what it is assumed to be). That the answer is
    /// `true` on the actor is the tests' to show (`CallerIsolationTests`).
    static func checkCurrentExecutorQuery() -> Bool {
        guard tether_runtime_has_current_executor_query(),
            MemoryLayout<UnownedSerialExecutor>.size == MemoryLayout<(UnsafeMutableRawPointer?, UInt)>.size
        else { return false }
        let probe = CurrentExecutorProbe()
        // A default actor's reference names the actor itself.
        let words = unsafeBitCast(probe.unownedExecutor, to: (UnsafeMutableRawPointer?, UInt).self)
        guard words.0 == Unmanaged.passUnretained(probe).toOpaque() else { return false }
        return !isCurrent(probe.unownedExecutor)
    }

    // MARK: Object queries

    /// Whether the runtime's object queries were found and answer as expected (checked once).
    package static var objectQueriesWork: Bool { objectQueriesCheck }

    private static let objectQueriesCheck = checkObjectQueries()

    /// Whether the deinit of the Swift object at `address` has started. Only when ``objectQueriesWork``;
    /// `address` must stay allocated (an unowned reference keeps it so).
    @inlinable
    package static func isDeinitializing(_ address: UnsafeMutableRawPointer) -> Bool {
        tether_object_is_deinitializing(address)
    }

    /// The object at `address`, retained, unless its deinit has started. Only when
    /// ``objectQueriesWork``; `address` must stay allocated (an unowned reference keeps it so).
    @inlinable
    package static func retainedIfAlive(_ address: UnsafeMutableRawPointer) -> AnyObject? {
        guard tether_object_try_retain(address) else { return nil }
        return Unmanaged<AnyObject>.fromOpaque(address).takeRetainedValue()
    }

    /// The self-test: the queries on a live object, on one inside its deinit, and on one whose deinit has
    /// finished while an unowned reference keeps its memory allocated (the filter's case).
    static func checkObjectQueries() -> Bool {
        guard tether_runtime_object_queries_found() else { return false }
        var passed = true
        var probe: ObjectQueryProbe? = ObjectQueryProbe()
        let address = Unmanaged.passUnretained(probe!).toOpaque()
        let pin = UnownedPin(probe!)
        // Alive: not deinitializing, and a retain succeeds (balanced by the returned reference).
        if isDeinitializing(address) { passed = false }
        if let retained = retainedIfAlive(address) {
            if retained !== probe { passed = false }
        } else {
            passed = false
        }
        probe!.inDeinit = { address in
            if !isDeinitializing(address) { passed = false }
            if tether_object_try_retain(address) {
                passed = false
                Unmanaged<AnyObject>.fromOpaque(address).release()
            }
        }
        probe = nil
        // Deinitialized, still allocated through `pin` (whose unowned reference is never read).
        withExtendedLifetime(pin) {
            if !isDeinitializing(address) { passed = false }
            if tether_object_try_retain(address) {
                passed = false
                Unmanaged<AnyObject>.fromOpaque(address).release()
            }
        }
        return passed
    }

    // MARK: Field offsets

    /// Whether `_forEachField` reports the offsets of an object's stored properties as expected (checked
    /// once).
    static var fieldOffsetsWork: Bool { fieldOffsetsCheck }

    private static let fieldOffsetsCheck = checkFieldOffsets()

    /// The offset and type of the first stored property of `type` (own or inherited) that is `@Observed`
    /// storage, found through the runtime's field metadata. Only when ``fieldOffsetsWork``.
    static func firstObservedField(of type: AnyObject.Type) -> ObservedFieldLookup {
        var found: ObservedFieldLookup = .none
        let supported = _forEachField(of: type, options: classFields) { _, offset, fieldType, _ in
            guard let storage = fieldType as? any LifetimeStorageField.Type else { return true }
            found = .field(offset: offset, storage: storage)
            return false
        }
        if case .none = found, !supported { return .unsupported }
        return found
    }

    enum ObservedFieldLookup {
        case field(offset: Int, storage: any LifetimeStorageField.Type)
        /// No `@Observed` stored property.
        case none
        /// The SPI cannot enumerate the type's fields.
        case unsupported
    }

    /// `_EachFieldOptions.classType`, spelled by value: the SPI declares it as a mutable static.
    private static let classFields = _EachFieldOptions(rawValue: 1 << 0)

    /// The self-test: the offset `_forEachField` reports for a probe's `@Observed` property must hold
    /// that property, as the property's own key-path accessor wrote it.
    static func checkFieldOffsets() -> Bool {
        guard case .field(let offset, let storage) = firstObservedField(of: FieldOffsetProbe.self),
            storage == Observed<Int>.self
        else { return false }
        return FieldOffsetProbe().holdsItsProperty(at: offset)
    }
}

/// The object whose `@Observed` property the field-offset self-test looks for.
final class FieldOffsetProbe: KeyPathObservable {
    static let value = 0x5EED_F1E1D
    @Observed var first = FieldOffsetProbe.value
    /// Room after the property, so that a check of a wrong offset close to the right one reads only the
    /// probe's own memory.
    private var padding: (Int, Int, Int) = (0, 0, 0)

    /// Whether this probe's `first` property is stored at `offset` in the object: its observer storage is
    /// allocated through the key path (a tracked read), then the storage at `offset` is compared with it
    /// word by word — read as plain integers, so a wrong offset is a failed check, not a crash.
    func holdsItsProperty(at offset: Int) -> Bool {
        let (_, reads) = ReadTracker.track { first }
        let word = MemoryLayout<UInt>.size
        guard reads.count == 1, offset >= 2 * word,
            offset + MemoryLayout<Observed<Int>>.size <= 2 * word + MemoryLayout<(Observed<Int>, Int, Int, Int)>.size,
            let valueOffset = MemoryLayout<Observed<Int>>.offset(of: \Observed<Int>.value),
            let channelOffset = MemoryLayout<Observed<Int>>.offset(of: \Observed<Int>.channel)
        else { return false }
        return withExtendedLifetime(self) {
            let base = UnsafeRawPointer(Unmanaged.passUnretained(self).toOpaque()) + offset
            let channel = UInt(bitPattern: ObjectIdentifier(reads[0].channel))
            return base.loadUnaligned(fromByteOffset: valueOffset, as: Int.self) == Self.value
                && base.loadUnaligned(fromByteOffset: channelOffset, as: UInt.self) == channel
        }
    }

}

/// The object the object-query self-test asks about, alive, in its deinit and after it.
private final class ObjectQueryProbe {
    var inDeinit: ((UnsafeMutableRawPointer) -> Void)?
    deinit { inDeinit?(Unmanaged.passUnretained(self).toOpaque()) }
}

/// Keeps an object's memory allocated after its deinit, as the notification filter does: an unowned
/// reference, never read.
package final class UnownedPin {
    private unowned let object: AnyObject
    package init(_ object: AnyObject) { self.object = object }
}

// MARK: - The optimizer promise

extension CompositeDisposable {
    // Out of line and declared `notEscaping`: these slow paths use this object's address as a number (the
    // key waiters park on) and keep nothing; the `HeldFlag` methods they call keep nothing either.
    // Without the declaration the optimizer must assume that `self` escapes from every `dispose()`, and a
    // subscription's lifetime that never leaves its subscriber (a cold signal subscribed for its values
    // only) could not be allocated on the stack. Keep the bodies to integer keys, non-escaping closures and
    // `HeldFlag` calls: storing `self` (or a closure capturing it) anywhere would make the promise false,
    // and a stack-allocated lifetime would then be used after its frame.

    /// Wakes the threads waiting in a second `dispose()`.
    // (swift-format would rewrite the attribute below as `notEscapingself.**`.)
    // swift-format-ignore
    @usableFromInline
    @_effects(notEscaping self.**)
    @inline(never)
    func wakeWaitingDisposers() {
        disposedFlag.wakeAll(parkedAt: parkingAddress(of: self))
    }

    /// The waiting half of ``waitForDisposer(_:)``: parks until the first disposer has finished, unless
    /// that would close a cycle of waits.
    // (swift-format would rewrite the attribute below as `notEscapingself.**`.)
    // swift-format-ignore
    @usableFromInline
    @_effects(notEscaping self.**)
    @inline(never)
    func waitForDisposerSlow(_ disposer: UInt) {
        // A breakable wait (registered in WaitGraph): it returns early rather than close a cycle of waits.
        disposedFlag.waitUntilReleased(by: disposer, parkingAt: parkingAddress(of: self))
    }
}

/// The actor of the current-executor self-test: never runs anything.
private actor CurrentExecutorProbe {}
