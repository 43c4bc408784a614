import Foundation
import TetherTestSupport
import TetherTesting
import XCTest

// `@testable` for `Signal(unsafeStart:)`: the fuzzer's stage probes see exactly what each operator sends
// to its downstream sink and the lifetime it was given, with no `Observer` in between to hide a
// grammar violation.
@testable import Observable

/// The failure type of fuzzed pipelines.
struct FuzzError: Error, Equatable, CustomStringConvertible {
    let code: Int
    var description: String { "E\(code)" }
}

typealias FuzzSignal = Signal<Int, FuzzError>
typealias FuzzEvent = Event<Int, FuzzError>

/// SplitMix64: small, fast and the same on every platform, so a seed replays exactly.
struct FuzzRandom {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    mutating func int(_ range: ClosedRange<Int>) -> Int {
        range.lowerBound + Int(next() % UInt64(range.count))
    }

    mutating func chance(_ percent: Int) -> Bool { int(0...99) < percent }
}

/// A scheduled event of a leaf: `offset` after its subscription (cold) or at an absolute time (hot).
struct TimedFuzzEvent: CustomStringConvertible {
    let time: Duration
    let event: FuzzEvent
    var description: String { "\(event)@\(FuzzFormat.time(time))" }
}

enum FuzzFormat {
    /// Seconds, with the lane nanoseconds (model cases) after a `+`.
    static func time(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        let nanoseconds = attoseconds / 1_000_000_000
        return nanoseconds == 0 ? "\(seconds)s" : "\(seconds)s+\(nanoseconds)ns"
    }

    static func events(_ events: [TimedFuzzEvent]) -> String {
        "[" + events.map(\.description).joined(separator: ", ") + "]"
    }
}

/// The kind of a hot leaf.
enum HotKind: CustomStringConvertible {
    case subject
    case replay(Int)
    case behavior(Int)

    var description: String {
        switch self {
        case .subject: return "Subject"
        case .replay(let capacity): return "ReplaySubject(\(capacity))"
        case .behavior(let value): return "BehaviorSubject(\(value))"
        }
    }
}

/// A hot leaf: a subject and the absolute times at which the case sends into it.
struct HotSpec: CustomStringConvertible {
    let kind: HotKind
    let schedule: [TimedFuzzEvent]
    var description: String { "\(kind) \(FuzzFormat.events(schedule))" }
}

/// A random pipeline.
indirect enum FuzzNode: CustomStringConvertible, Sendable {
    // Leaves.
    case cold([TimedFuzzEvent])
    case sync([Int], FuzzEvent, viaRecipe: Bool)
    case hot(Int)
    case empty
    case never
    case just(Int)
    case failure(Int)
    case interval(Int)
    // Single upstream.
    case map(FuzzNode, Int)
    case filter(FuzzNode, Int)
    case take(FuzzNode, Int)
    case skip(FuzzNode, Int)
    case scan(FuzzNode)
    case distinct(FuzzNode)
    case startWith(FuzzNode, Int)
    case takeWhile(FuzzNode, Int)
    case skipWhile(FuzzNode, Int)
    case takeLast(FuzzNode, Int)
    case reduce(FuzzNode)
    case combinePrevious(FuzzNode)
    case materialized(FuzzNode)
    case ignoreValues(FuzzNode)
    case retry(FuzzNode, Int)
    case debounce(FuzzNode, Int)
    case delay(FuzzNode, Int)
    case throttle(FuzzNode, Int, latest: Bool)
    case timeout(FuzzNode, Int)
    case deliverOn(FuzzNode)
    case subscribeOn(FuzzNode)
    // Several upstreams.
    case concat(FuzzNode, FuzzNode)
    case merge(FuzzNode, FuzzNode)
    case mergeMany([FuzzNode])
    case combineLatest(FuzzNode, FuzzNode)
    case combineLatestMany([FuzzNode])
    case zip(FuzzNode, FuzzNode)
    case zipMany([FuzzNode])
    case withLatestFrom(FuzzNode, FuzzNode)
    case sample(FuzzNode, FuzzNode)
    case takeUntil(FuzzNode, FuzzNode)
    case catchError(FuzzNode, FuzzNode)
    case then(FuzzNode, FuzzNode)
    case flatMap(FuzzNode, FuzzNode)
    case flatMapLatest(FuzzNode, FuzzNode)
    case concatMap(FuzzNode, FuzzNode)

    var description: String {
        switch self {
        case .cold(let events): return "cold\(FuzzFormat.events(events))"
        case .sync(let values, let end, let viaRecipe): return "\(viaRecipe ? "recipe" : "values")(\(values), \(end))"
        case .hot(let index): return "hot#\(index)"
        case .empty: return "empty"
        case .never: return "never"
        case .just(let value): return "just(\(value))"
        case .failure(let code): return "failure(E\(code))"
        case .interval(let period): return "interval(\(period)s)"
        case .map(let a, let k): return "\(a).map(+\(k))"
        case .filter(let a, let m): return "\(a).filter(%\(m)!=0)"
        case .take(let a, let n): return "\(a).take(\(n))"
        case .skip(let a, let n): return "\(a).skip(\(n))"
        case .scan(let a): return "\(a).scan(+)"
        case .distinct(let a): return "\(a).distinctUntilChanged()"
        case .startWith(let a, let v): return "\(a).startWith(\(v))"
        case .takeWhile(let a, let v): return "\(a).take(while:<\(v))"
        case .skipWhile(let a, let v): return "\(a).skip(while:<\(v))"
        case .takeLast(let a, let n): return "\(a).takeLast(\(n))"
        case .reduce(let a): return "\(a).reduce(+)"
        case .combinePrevious(let a): return "\(a).combinePrevious(0).map(+)"
        case .materialized(let a): return "\(a).materialize().dematerialize()"
        case .ignoreValues(let a): return "\(a).ignoreValues()"
        case .retry(let a, let n): return "\(a).retry(\(n))"
        case .debounce(let a, let d): return "\(a).debounce(\(d)s)"
        case .delay(let a, let d): return "\(a).delay(\(d)s)"
        case .throttle(let a, let d, let latest): return "\(a).throttle(\(d)s, latest: \(latest))"
        case .timeout(let a, let d): return "\(a).timeout(\(d)s)"
        case .deliverOn(let a): return "\(a).deliver(on: test)"
        case .subscribeOn(let a): return "\(a).subscribe(on: test)"
        case .concat(let a, let b): return "concat(\(a), \(b))"
        case .merge(let a, let b): return "merge(\(a), \(b))"
        case .mergeMany(let all): return "merge[\(all.map(\.description).joined(separator: ", "))]"
        case .combineLatest(let a, let b): return "combineLatest(\(a), \(b)).map(+)"
        case .combineLatestMany(let all): return "combineLatest[\(all.map(\.description).joined(separator: ", "))].sum"
        case .zip(let a, let b): return "zip(\(a), \(b)).map(+)"
        case .zipMany(let all): return "zip[\(all.map(\.description).joined(separator: ", "))].sum"
        case .withLatestFrom(let a, let b): return "\(a).withLatestFrom(\(b)).map(+)"
        case .sample(let a, let b): return "\(a).sample(on: \(b))"
        case .takeUntil(let a, let b): return "\(a).take(until: \(b))"
        case .catchError(let a, let b): return "\(a).catch { \(b) }"
        case .then(let a, let b): return "\(a).then { \(b) }"
        case .flatMap(let a, let b): return "\(a).flatMap { v in \(b) + v }"
        case .flatMapLatest(let a, let b): return "\(a).flatMapLatest { v in \(b) + v }"
        case .concatMap(let a, let b): return "\(a).concatMap { v in \(b) + v }"
        }
    }

    /// A short name for messages about one stage.
    var label: String {
        let text = description
        return text.count <= 120 ? text : String(text.prefix(117)) + "..."
    }
}

// MARK: - Generation

/// Builds random pipelines from a seed.
struct FuzzGenerator {
    var random: FuzzRandom
    /// Model cases: only operators the reference model knows; cold leaves on distinct "lanes".
    let forModel: Bool
    var hot: [HotSpec] = []
    var leaves = 0
    var nextLane = 0

    init(seed: UInt64, forModel: Bool) {
        random = FuzzRandom(seed: seed)
        self.forModel = forModel
    }

    /// Each cold leaf of a model case gets its own lane: a distinct power of two added (in
    /// nanoseconds) to all its times, so that no two leaves ever send at the same instant and the
    /// model needs no tie-breaking by scheduling order (which it cannot see).
    mutating func laneOffset() -> Duration {
        defer { nextLane += 1 }
        return .nanoseconds(1 << nextLane)
    }

    mutating func events(count: ClosedRange<Int>, endPercent: Int) -> [(Int, FuzzEvent)] {
        var result: [(Int, FuzzEvent)] = []
        var time = random.int(0...3)
        for _ in 0..<random.int(count) {
            time += forModel ? random.int(1...4) : random.int(0...3)
            result.append((time, .next(random.int(0...6))))
        }
        if random.chance(endPercent) {
            time += forModel ? random.int(1...4) : random.int(0...3)
            result.append((time, random.chance(70) ? .completed : .error(FuzzError(code: random.int(1...3)))))
        }
        return result
    }

    mutating func leaf() -> FuzzNode {
        leaves += 1
        let roll = random.int(0...99)
        if forModel {
            switch roll {
            case 0..<50 where nextLane < 24:
                let lane = laneOffset()
                let schedule = events(count: 0...5, endPercent: 85).map {
                    TimedFuzzEvent(time: .seconds($0.0) + lane, event: $0.1)
                }
                return .cold(schedule)
            case 0..<75:
                let values = (0..<random.int(0...4)).map { _ in random.int(0...6) }
                let end: FuzzEvent = random.chance(80) ? .completed : .error(FuzzError(code: random.int(1...3)))
                return .sync(values, end, viaRecipe: random.chance(50))
            case 75..<82: return .empty
            case 82..<88: return .never
            case 88..<95: return .just(random.int(0...6))
            default: return .failure(random.int(1...3))
            }
        }
        switch roll {
        case 0..<40:
            let schedule = events(count: 0...6, endPercent: 75).map {
                TimedFuzzEvent(time: .seconds($0.0), event: $0.1)
            }
            return .cold(schedule)
        case 40..<55:
            let values = (0..<random.int(0...4)).map { _ in random.int(0...6) }
            let end: FuzzEvent = random.chance(80) ? .completed : .error(FuzzError(code: random.int(1...3)))
            return .sync(values, end, viaRecipe: random.chance(50))
        case 55..<72:
            if hot.count < 3 || random.chance(30) {
                let kind: HotKind
                switch random.int(0...2) {
                case 0: kind = .subject
                case 1: kind = .replay(random.int(1...3))
                default: kind = .behavior(random.int(0...6))
                }
                let schedule = events(count: 0...8, endPercent: 50).map {
                    TimedFuzzEvent(time: .seconds($0.0), event: $0.1)
                }
                hot.append(HotSpec(kind: kind, schedule: schedule))
                return .hot(hot.count - 1)
            }
            return .hot(random.int(0...(hot.count - 1)))
        case 72..<78: return .empty
        case 78..<83: return .never
        case 83..<89: return .just(random.int(0...6))
        case 89..<94: return .failure(random.int(1...3))
        default: return .interval(random.int(2...5))
        }
    }

    mutating func node(depth: Int) -> FuzzNode {
        if depth <= 0 || leaves > 14 || random.chance(22) { return leaf() }
        let next = depth - 1
        if forModel {
            switch random.int(0...10) {
            case 0: return .map(node(depth: next), random.int(1...3))
            case 1: return .filter(node(depth: next), random.int(2...3))
            case 2: return .take(node(depth: next), random.int(0...4))
            case 3: return .skip(node(depth: next), random.int(0...3))
            case 4: return .scan(node(depth: next))
            case 5: return .distinct(node(depth: next))
            case 6: return .startWith(node(depth: next), random.int(0...6))
            case 7, 8: return .concat(node(depth: next), node(depth: next))
            case 9: return .merge(node(depth: next), node(depth: next))
            default: return .mergeMany((0..<random.int(0...3)).map { _ in node(depth: next) })
            }
        }
        switch random.int(0...43) {
        case 0: return .map(node(depth: next), random.int(1...3))
        case 1: return .filter(node(depth: next), random.int(2...3))
        case 2, 3: return .take(node(depth: next), random.int(0...4))
        case 4: return .skip(node(depth: next), random.int(0...3))
        case 5: return .scan(node(depth: next))
        case 6: return .distinct(node(depth: next))
        case 7: return .startWith(node(depth: next), random.int(0...6))
        case 8: return .takeWhile(node(depth: next), random.int(1...6))
        case 9: return .skipWhile(node(depth: next), random.int(1...6))
        case 10: return .takeLast(node(depth: next), random.int(0...3))
        case 11: return .reduce(node(depth: next))
        case 12: return .combinePrevious(node(depth: next))
        case 13: return .materialized(node(depth: next))
        case 14: return .ignoreValues(node(depth: next))
        case 15, 16: return .retry(node(depth: next), random.int(0...3))
        case 17: return .debounce(node(depth: next), random.int(0...3))
        case 18: return .delay(node(depth: next), random.int(0...3))
        case 19: return .throttle(node(depth: next), random.int(0...3), latest: random.chance(50))
        case 20: return .timeout(node(depth: next), random.int(1...12))
        case 21: return .deliverOn(node(depth: next))
        case 22: return .subscribeOn(node(depth: next))
        case 23, 24: return .concat(node(depth: next), node(depth: next))
        case 25, 26: return .merge(node(depth: next), node(depth: next))
        case 27: return .mergeMany((0..<random.int(0...3)).map { _ in node(depth: next) })
        case 28, 29: return .combineLatest(node(depth: next), node(depth: next))
        case 30: return .combineLatestMany((0..<random.int(0...3)).map { _ in node(depth: next) })
        case 31: return .zip(node(depth: next), node(depth: next))
        case 32: return .zipMany((0..<random.int(0...3)).map { _ in node(depth: next) })
        case 33: return .withLatestFrom(node(depth: next), node(depth: next))
        case 34: return .sample(node(depth: next), node(depth: next))
        case 35, 36: return .takeUntil(node(depth: next), node(depth: next))
        case 37, 38: return .catchError(node(depth: next), node(depth: next))
        case 39: return .then(node(depth: next), node(depth: next))
        case 40: return .flatMap(node(depth: next), node(depth: next))
        case 41, 42: return .flatMapLatest(node(depth: next), node(depth: next))
        default: return .concatMap(node(depth: next), node(depth: next))
        }
    }
}

// MARK: - Running

/// What one stage (one subscription of one operator's output) did.
final class FuzzStage: @unchecked Sendable {
    // Touched only on the test thread (virtual time runs there).
    let label: String
    var lifetimeDisposed = false
    var terminated = false
    init(label: String) { self.label = label }
}

/// The state of one fuzz case: the scheduler, hot subjects, every stage subscription, violations.
final class FuzzCase: @unchecked Sendable {
    // Safety: everything runs on the test thread; `@unchecked Sendable` only because disposal
    // closures and scheduled actions are `@Sendable`.
    let scheduler = TestScheduler()
    var hotSignals: [FuzzSignal] = []
    var hotSenders: [(FuzzEvent) -> Void] = []
    var stages: [FuzzStage] = []
    var coldSubscriptions = 0
    var coldDisposals = 0
    var violations: [String] = []
    var rootDisposedByTest = false

    init(hot: [HotSpec]) {
        for spec in hot {
            switch spec.kind {
            case .subject:
                let subject = Subject<Int, FuzzError>()
                hotSignals.append(subject.signal)
                hotSenders.append { subject.send(event: $0) }
            case .replay(let capacity):
                let subject = ReplaySubject<Int, FuzzError>(capacity: capacity)
                hotSignals.append(subject.signal)
                hotSenders.append { subject.send(event: $0) }
            case .behavior(let value):
                let subject = BehaviorSubject<Int, FuzzError>(value: value)
                hotSignals.append(subject.signal)
                hotSenders.append { subject.send(event: $0) }
            }
        }
        for (index, spec) in hot.enumerated() {
            let send = UncheckedBox(hotSenders[index])
            for timed in spec.schedule {
                let event = timed.event
                scheduler.schedule(after: timed.time) { send.value(event) }
            }
        }
    }

    func violation(_ text: String) {
        if violations.count < 8 { violations.append(text) }
    }

    /// Wraps `upstream` so that every subscription of it is checked: grammar, nothing after its
    /// lifetime was disposed, nothing after the test disposed the root; its lifetime is recorded.
    func probe(_ upstream: FuzzSignal, _ label: String) -> FuzzSignal {
        Signal(unsafeStart: { sink, lifetime in
            let stage = FuzzStage(label: label)
            self.stages.append(stage)
            lifetime.add { stage.lifetimeDisposed = true }
            upstream.start(
                Sink { event in
                    if stage.terminated {
                        self.violation("\(stage.label): \(event) after a terminal event")
                    } else if stage.lifetimeDisposed {
                        self.violation("\(stage.label): \(event) after its lifetime was disposed")
                    } else if self.rootDisposedByTest {
                        self.violation("\(stage.label): \(event) after the subscription was disposed")
                    }
                    if event.isTerminal { stage.terminated = true }
                    sink.send(event)
                }, in: lifetime)
        })
    }

    func build(_ node: FuzzNode) -> FuzzSignal {
        probe(buildRaw(node), node.label)
    }

    private func sum(_ values: [Int]) -> Int { values.reduce(0, +) }

    private func buildRaw(_ node: FuzzNode) -> FuzzSignal {
        let scheduler = self.scheduler
        switch node {
        case .cold(let schedule):
            return Signal { observer in
                self.coldSubscriptions += 1
                let bag = CompositeDisposable()
                for timed in schedule {
                    let event = timed.event
                    bag.add(scheduler.schedule(after: timed.time) { observer.send(event: event) })
                }
                bag.add { self.coldDisposals += 1 }
                return bag
            }
        case .sync(let values, let end, let viaRecipe):
            if viaRecipe {
                return Signal { observer in
                    for value in values { observer.send(value) }
                    observer.send(event: end)
                    return nil
                }
            }
            if case .error(let failure) = end {
                return Signal(values: values).concat(Signal(error: failure))
            }
            return Signal(values: values)
        case .hot(let index): return hotSignals[index]
        case .empty: return .empty
        case .never: return .never
        case .just(let value): return Signal(value: value)
        case .failure(let code): return Signal(error: FuzzError(code: code))
        case .interval(let period):
            return Signal.interval(.seconds(period), on: scheduler).promoteError(FuzzError.self)
        case .map(let a, let k): return build(a).map { $0 + k }
        case .filter(let a, let m): return build(a).filter { $0 % m != 0 }
        case .take(let a, let n): return build(a).take(n)
        case .skip(let a, let n): return build(a).skip(n)
        case .scan(let a): return build(a).scan(0, +)
        case .distinct(let a): return build(a).distinctUntilChanged()
        case .startWith(let a, let v): return build(a).startWith(v)
        case .takeWhile(let a, let v): return build(a).take(while: { $0 < v })
        case .skipWhile(let a, let v): return build(a).skip(while: { $0 < v })
        case .takeLast(let a, let n): return build(a).takeLast(n)
        case .reduce(let a): return build(a).reduce(0, +)
        case .combinePrevious(let a): return build(a).combinePrevious(0).map { $0.0 + $0.1 }
        case .materialized(let a): return build(a).materialize().dematerialize()
        case .ignoreValues(let a): return build(a).ignoreValues()
        case .retry(let a, let n): return build(a).retry(n)
        case .debounce(let a, let d): return build(a).debounce(.seconds(d), on: scheduler)
        case .delay(let a, let d): return build(a).delay(.seconds(d), on: scheduler)
        case .throttle(let a, let d, let latest): return build(a).throttle(.seconds(d), latest: latest, on: scheduler)
        case .timeout(let a, let d):
            return build(a).timeout(after: .seconds(d), raising: FuzzError(code: 9), on: scheduler)
        case .deliverOn(let a): return build(a).deliver(on: scheduler)
        case .subscribeOn(let a): return build(a).subscribe(on: scheduler)
        case .concat(let a, let b): return build(a).concat(build(b))
        case .merge(let a, let b): return build(a).merge(with: build(b))
        case .mergeMany(let all): return Signal.merge(all.map { build($0) })
        case .combineLatest(let a, let b): return build(a).combineLatest(with: build(b)).map { $0 + $1 }
        case .combineLatestMany(let all): return Signal.combineLatest(all.map { build($0) }).map { self.sum($0) }
        case .zip(let a, let b): return build(a).zip(with: build(b)).map { $0 + $1 }
        case .zipMany(let all): return Signal.zip(all.map { build($0) }).map { self.sum($0) }
        case .withLatestFrom(let a, let b): return build(a).withLatestFrom(build(b)).map { $0 + $1 }
        case .sample(let a, let b): return build(a).sample(on: build(b))
        case .takeUntil(let a, let b): return build(a).take(until: build(b))
        // A `Signal` is not `Sendable`: the operators' closures build the inner signal (building has no
        // side effects; only subscribing does).
        case .catchError(let a, let b):
            return build(a).catch { _ in self.build(b) }
        case .then(let a, let b):
            return build(a).then { self.build(b) }
        case .flatMap(let a, let b):
            return build(a).flatMap { v in self.build(b).map { $0 + v } }
        case .flatMapLatest(let a, let b):
            return build(a).flatMapLatest { v in self.build(b).map { $0 + v } }
        case .concatMap(let a, let b):
            return build(a).concatMap { v in self.build(b).map { $0 + v } }
        }
    }
}

// MARK: - Reference model

/// What a model-able pipeline must send, with virtual times, for a subscription at `start`.
enum FuzzModel {
    static func events(_ node: FuzzNode, start: Duration) -> [TimedFuzzEvent] {
        func at(_ event: FuzzEvent) -> TimedFuzzEvent { TimedFuzzEvent(time: start, event: event) }
        switch node {
        case .cold(let schedule):
            return schedule.map { TimedFuzzEvent(time: start + $0.time, event: $0.event) }
        case .sync(let values, let end, _):
            return values.map { at(.next($0)) } + [at(end)]
        case .empty: return [at(.completed)]
        case .never: return []
        case .just(let value): return [at(.next(value)), at(.completed)]
        case .failure(let code): return [at(.error(FuzzError(code: code)))]
        case .map(let a, let k):
            return events(a, start: start).map { TimedFuzzEvent(time: $0.time, event: $0.event.map { $0 + k }) }
        case .filter(let a, let m):
            return events(a, start: start).filter { ($0.event.value ?? 1) % m != 0 }
        case .take(let a, let n):
            if n <= 0 { return [at(.completed)] }
            var result: [TimedFuzzEvent] = []
            var taken = 0
            for timed in events(a, start: start) {
                result.append(timed)
                if timed.event.isTerminal { break }
                taken += 1
                if taken == n {
                    result.append(TimedFuzzEvent(time: timed.time, event: .completed))
                    break
                }
            }
            return result
        case .skip(let a, let n):
            var skipped = 0
            return events(a, start: start).filter { timed in
                guard timed.event.value != nil else { return true }
                skipped += 1
                return skipped > n
            }
        case .scan(let a):
            var total = 0
            return events(a, start: start).map { timed in
                guard let value = timed.event.value else { return timed }
                total += value
                return TimedFuzzEvent(time: timed.time, event: .next(total))
            }
        case .distinct(let a):
            var last: Int?
            return events(a, start: start).filter { timed in
                guard let value = timed.event.value else { return true }
                defer { last = value }
                return value != last
            }
        case .startWith(let a, let v):
            return [at(.next(v))] + events(a, start: start)
        case .concat(let a, let b):
            let first = events(a, start: start)
            guard let last = first.last, case .completed = last.event else { return first }
            return first.dropLast() + events(b, start: last.time)
        case .merge(let a, let b):
            return merged([events(a, start: start), events(b, start: start)], start: start)
        case .mergeMany(let all):
            return merged(all.map { events($0, start: start) }, start: start)
        default:
            preconditionFailure("not a model node: \(node)")
        }
    }

    /// Inputs are subscribed in order at `start`; at equal times, the earlier input's events come
    /// first (they happen during its subscription, before the next input is subscribed).
    static func merged(_ inputs: [[TimedFuzzEvent]], start: Duration) -> [TimedFuzzEvent] {
        if inputs.isEmpty { return [TimedFuzzEvent(time: start, event: .completed)] }
        var all: [(time: Duration, input: Int, position: Int, event: FuzzEvent)] = []
        for (input, list) in inputs.enumerated() {
            for (position, timed) in list.enumerated() { all.append((timed.time, input, position, timed.event)) }
        }
        all.sort { ($0.time, $0.input, $0.position) < ($1.time, $1.input, $1.position) }
        var result: [TimedFuzzEvent] = []
        var completed = 0
        for item in all {
            switch item.event {
            case .next:
                result.append(TimedFuzzEvent(time: item.time, event: item.event))
            case .error:
                result.append(TimedFuzzEvent(time: item.time, event: item.event))
                return result
            case .completed:
                completed += 1
                if completed == inputs.count {
                    result.append(TimedFuzzEvent(time: item.time, event: .completed))
                    return result
                }
            }
        }
        return result
    }
}

private func < (lhs: (Duration, Int, Int), rhs: (Duration, Int, Int)) -> Bool {
    if lhs.0 != rhs.0 { return lhs.0 < rhs.0 }
    if lhs.1 != rhs.1 { return lhs.1 < rhs.1 }
    return lhs.2 < rhs.2
}
