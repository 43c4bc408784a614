// expect-error: 'bind(_:to:)' is unavailable: the signal's values are not of the property's type: convert them before binding
// expect-error: '<~' is unavailable: the signal's values are not of the property's type
// expect-error: `.map { Int($0) ?? 0 }`
// Binding a String signal to an Int property says to convert the values, not "no exact matches" or a
// BindingSlot<M, String?> conversion.
import Binding
import Observable

final class Counter: BindingTarget {
    var count = 0
}

func bindCount(counter: Counter, texts: Signal<String, Never>) {
    counter.bind(\.count, to: texts)
    counter[\.count] <~ texts
}
