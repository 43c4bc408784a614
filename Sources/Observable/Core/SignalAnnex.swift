import TetherEngine

/// What a ``Signal`` holds besides its start closure: its debug info, the plain subject it starts, or the
/// signals it is composed of (a chain of `concat`s or `catch`es, see ``SignalComposition``).
///
/// A plain subject's `signal` names the subject's core so that `map` right below it can join the subject
/// with a single object — the subject's record of the subscriber, holding the transform and the
/// subscriber's closure — instead of a sink closure whose context holds those two, and a record holding
/// that sink (one allocation fewer per live subscription; the stage's behaviour is the same: see
/// `SubjectCore.joinMapping(next:transform:lifetime:)`). While the debugging tools track pipelines a
/// subject's signal carries its debug info instead, and `map` starts it as any other. A plain subject's
/// signal given a name (`named(_:)`) carries its debug info, which keeps the subject's core: with the graph
/// off the named stage starts the subject as it is, so `map` below it still joins the subject.
///
/// One reference, told apart by its class: as an enum of references, copying a signal went through an
/// outlined copy and destroy of the enum (W8, a cold signal made and subscribed: ~6 instructions more per
/// subscription, measured), where one optional reference is one retain and one release. `map` takes any
/// object that is neither a ``SignalDebugInfo`` nor a ``SignalComposition`` for a subject's core: a fourth
/// kind must be excluded in ``plainSubject`` too (`ConcatChainTests` and `CatchChainTests` map a
/// composition with a values-only subscriber).
@usableFromInline
package struct SignalAnnex {
    /// A ``SignalDebugInfo``, a ``SignalComposition``, or the core of the plain subject whose `signal` this is
    /// (only a `Signal` with the subject's own `Value` and `Failure` carries it: the subject's `signal`, or that
    /// signal linked for deep chains).
    @usableFromInline let object: AnyObject & Sendable

    @inlinable
    init(debugInfo: SignalDebugInfo) {
        object = debugInfo
    }

    @inlinable
    init(plainSubject source: AnyObject & Sendable) {
        object = source
    }

    init(composition: SignalComposition) {
        object = composition
    }

    /// The debug info (see ``Signal/debugInfo``): `SignalDebugInfo` is final, so its class is compared.
    @inlinable
    var debugInfo: SignalDebugInfo? {
        if ObjectIdentifier(type(of: object)) == ObjectIdentifier(SignalDebugInfo.self) {
            return unsafeDowncast(object, to: SignalDebugInfo.self)
        }
        return nil
    }

    /// Called by `Signal.signal`: notes the signal's debug info as read, if it has one (see
    /// ``SignalDebugInfo/noteReadIfTracking()``). Out of line, as that is.
    @usableFromInline
    @inline(never)
    func noteReadIfTracking() {
        debugInfo?.noteReadIfTracking()
    }

    /// The plain subject's core (see ``Signal/plainSubjectSource``): the object itself, or a named plain
    /// subject's, which its debug info keeps (see ``SignalDebugInfo/plainSubject``). Not retained: valid while
    /// this annex is. Always inlined into `map`'s start, which reads it for every `map` (as a call: W1's
    /// scaling rows +0.7 %).
    @inlinable @inline(__always)
    var plainSubject: Unmanaged<AnyObject & Sendable>? {
        let kind = ObjectIdentifier(type(of: object))
        if kind == ObjectIdentifier(SignalDebugInfo.self) {
            guard let source = unsafeDowncast(object, to: SignalDebugInfo.self).plainSubject else { return nil }
            return Unmanaged.passUnretained(source)
        }
        if kind == ObjectIdentifier(SignalComposition.self) { return nil }
        return Unmanaged.passUnretained(object)
    }

    /// The parts of a signal composed of others (see ``SignalComposition``), as the operator that made
    /// it recorded them; `nil` for every other signal.
    var compositionParts: AnyObject? {
        if ObjectIdentifier(type(of: object)) == ObjectIdentifier(SignalComposition.self) {
            return unsafeDowncast(object, to: SignalComposition.self).parts
        }
        return nil
    }
}
