/// The annex of a signal that an operator composed of other signals and may extend: `a.concat(b)` keeps
/// the list of signals it runs, so that `a.concat(b).concat(c)` runs `a`, `b` and `c` from one stage
/// instead of nesting a stage per `concat`.
///
/// Built one operator at a time (`chain = chain.concat(next)` in a loop), a chain of `n` nested
/// operators made each value of the `k`-th signal cross `n - k` stages: quadratic in `n` (ten thousand
/// nested `concat`s took 11 s in a debug build and 78 s under the Thread Sanitizer). The operator reads
/// its upstream's parts back (``Signal/compositionParts``) and, if they are its own kind for the same
/// `Value` and `Failure`, extends them: every value crosses one stage, whatever the nesting.
///
/// `parts` is the operator's own type (`concat`'s `PersistentList` of signals, `CatchChain`); this class only tells the
/// annex's kinds apart by its identity (see ``SignalAnnex``). While the debugging tools track pipelines
/// the annex is the signal's debug info instead, and the operator nests as it would without this.
@usableFromInline
final class SignalComposition: @unchecked Sendable {
    // Safety: `parts` is set once and never mutated through this reference. It holds signals, which are not
    // `Sendable`: it is read only by the operator applied to the signal that carries this annex, where that
    // signal is, and a `Signal` cannot cross isolation domains. The annex is `Sendable` only so that one
    // reference type can carry a subject's core, debug info or this.
    let parts: AnyObject

    init(_ parts: AnyObject) {
        self.parts = parts
    }
}
