// expect-error: '<~' is unavailable: this signal can fail (its Failure is not Never): handle the failure before binding
// expect-error: 'bind(_:to:)' is unavailable: this signal can fail (its Failure is not Never): handle the failure before binding
// The same message for a channel terminal fed with `<~` and for an `@Observable` model's `bind(_:to:)`.
import Binding
import Bridges
import Observation

@Observation.Observable final class SearchModel {
    var results: [String] = []
}

func bindSearch(model: SearchModel, results: Signal<[String], BridgeError>, volume: MutableProperty<[String]>) {
    volume.channel() <~ results
    model.bind(\.results, to: results)
}
