import CMallInfo
import Observation

// Swift Observation: `@Observable` with `withObservationTracking` re-armed after each change.
// `onChange` fires before the new value is stored (willSet), so it only marks the observer dirty;
// the driver re-arms right after the set, reading the new value — what an app's next run-loop turn does.

@Observable
final class ObservedModel {
    var value = 0
}

/// One observer of `ObservedModel.value`.
final class TrackingObserver: @unchecked Sendable {
    let model: ObservedModel
    let counter: Counter
    var dirty = false

    init(model: ObservedModel, counter: Counter) {
        self.model = model
        self.counter = counter
        arm()
    }

    func arm() {
        withObservationTracking {
            counter.sum &+= UInt64(model.value)
        } onChange: { [unowned self] in
            self.dirty = true
        }
    }

    @inline(__always)
    func rearmIfChanged() {
        if dirty {
            dirty = false
            arm()
        }
    }
}

enum ObservationImpl {
    static func w6NoObserver(_ n: Int) -> () -> UInt64 {
        let model = ObservedModel()
        return {
            for value in 1...n {
                model.value = value
                tb_compiler_barrier()
            }
            return UInt64(model.value)
        }
    }

    static func w6(_ n: Int) -> () -> UInt64 {
        let model = ObservedModel()
        let observer = TrackingObserver(model: model, counter: Counter())
        return {
            for value in 1...n {
                model.value = value
                observer.rearmIfChanged()
            }
            return observer.counter.checksum
        }
    }

    static func w9(_ n: Int, others: Int) -> () -> UInt64 {
        let sink = Counter()
        var population: [TrackingObserver] = []
        for _ in 0..<others { population.append(TrackingObserver(model: ObservedModel(), counter: sink)) }
        let model = ObservedModel()
        let observer = TrackingObserver(model: model, counter: Counter())
        return {
            for value in 1...n {
                model.value = value
                observer.rearmIfChanged()
            }
            withExtendedLifetime(population) {}
            return observer.counter.checksum
        }
    }
}
