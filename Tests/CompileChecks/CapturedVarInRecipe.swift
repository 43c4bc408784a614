// expect-error: mutation of captured var 'seen' in concurrently-executing code
// Issue 29, scenario 3: one recipe's `map` closure is shared by every subscription, which may deliver on
// two threads at once; a captured `var` would race. Keep per-subscription state in `scan`, or in a
// `Sendable` box of your own (a `Mutex`) if it must be shared.
import Observable

func numbered(_ source: Subject<String, Never>) -> Signal<String, Never> {
    var seen = 0
    return source.map { text in
        seen += 1
        return "\(seen). \(text)"
    }
}
