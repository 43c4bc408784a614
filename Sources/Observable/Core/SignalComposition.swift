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
/// `parts` is the operator's own type, one type per operator so that no operator adopts another's
/// (`concat`'s `PersistentList` of signals, `catch`'s `CatchChain`); this class only tells the annex's kinds
/// apart by its identity (see ``SignalAnnex``). While the debugging tools track pipelines the annex is the
/// signal's debug info instead, and the operator nests as it would without this.
@usableFromInline
final class SignalComposition: @unchecked Sendable {
    // Safety: `parts` is set once, and what it refers to never changes after it is made (`PersistentList`'s
    // and `CatchChain`'s fields are constants; a list node's `earlier` is cleared only by its own `deinit`,
    // when nothing else refers to it). Threads that read it (a subscription started on the thread of an event,
    // a chain built wherever it is subscribed) read values nobody writes. The annex is `Sendable` so that one
    // reference type can carry a subject's core, debug info or this.
    let parts: AnyObject

    init(_ parts: AnyObject) {
        self.parts = parts
    }
}
