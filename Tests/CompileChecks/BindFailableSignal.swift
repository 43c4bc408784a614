// expect-error: 'bind(_:to:)' is unavailable: this signal can fail (its Failure is not Never): handle the failure before binding
// expect-error: '<~' is unavailable: this signal can fail (its Failure is not Never)
// expect-error: 'bind(to:)' is unavailable: this signal can fail (its Failure is not Never)
// expect-error: e.g. `.catch { _ in .empty }` or `.catch { _ in Signal(value: fallback) }`; for a typed notification leave out `malformed: .fail` or pass `malformed: .skip`
// Binding a signal that can fail names the fix (handle the failure: catch, or the typed notification's
// default or `malformed: .skip`), not "requires the types 'BridgeError' and 'Never' be equivalent".
import Binding
import Bridges
import Foundation
import Observable

final class ProfileView: BindingTarget {
    var title = ""
    var subtitle: String?
}

func bindProfile(view: ProfileView, names: Signal<String, BridgeError>, query: MutableProperty<String>) {
    view.bind(\.title, to: names)
    view.bind(\.subtitle, to: names)
    view[\.title] <~ names
    view[\.subtitle] <~ names
    query <~ names
    query.bind(to: names)
}
