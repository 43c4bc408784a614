import Bridges
import CMallInfo
import Foundation
import Observable

// Tether, called from this separate module exactly as users call it.

/// W6/W9: an `@Observed` property.
final class TetherModel: KeyPathObservable {
    @Observed var value = 0
}

enum TetherImpl {
    static func w1(_ n: Int) -> () -> UInt64 {
        let subject = Subject<Int, Never>()
        let counter = Counter()
        subject
            .map { (value: Int) -> Int in value &+ 1 }
            .filter { (value: Int) -> Bool in value % 2 == 0 }
            .map { (value: Int) -> Int in value &* 2 }
            .subscribe(next: { (value: Int) in counter.sum &+= UInt64(value) })
        return {
            for value in 0..<n { subject.send(value) }
            return counter.checksum
        }
    }

    /// W1 with every stage named (names only: no graph, nothing per event).
    static func w1Named(_ n: Int) -> () -> UInt64 {
        let subject = Subject<Int, Never>()
        let counter = Counter()
        subject.named("w1.source")
            .map { (value: Int) -> Int in value &+ 1 }.named("w1.plusOne")
            .filter { (value: Int) -> Bool in value % 2 == 0 }.named("w1.even")
            .map { (value: Int) -> Int in value &* 2 }.named("w1.double")
            .subscribe(next: { (value: Int) in counter.sum &+= UInt64(value) })
        return {
            for value in 0..<n { subject.send(value) }
            return counter.checksum
        }
    }

    /// W1 built while ``TetherDebug/isEnabled``: every stage registered and recording (then switched off
    /// again, so that the other rows are unaffected; the pipeline keeps its recording stages).
    static func w1WithGraph(_ n: Int) -> () -> UInt64 {
        TetherDebug.isEnabled = true
        defer { TetherDebug.isEnabled = false }
        return w1(n)
    }

    static func w2(subscribers: Int, values: Int) -> () -> UInt64 {
        let subject = Subject<Int, Never>()
        let counter = Counter()
        for _ in 0..<subscribers { subject.subscribe(next: { counter.sum &+= UInt64($0) }) }
        return {
            for value in 0..<values { subject.send(value) }
            return counter.checksum
        }
    }

    static func w3(_ n: Int) -> () -> UInt64 {
        let subject = Subject<Int, Never>()
        let counter = Counter()
        return {
            for _ in 0..<n {
                let subscription = subject.map { $0 &+ 1 }.subscribe(next: { counter.sum &+= UInt64($0) })
                subscription.dispose()
                counter.count &+= 1
            }
            subject.send(1)
            return counter.checksum
        }
    }

    static func w3Live(_ count: Int, _ heap: () -> Int) -> Int {
        let subject = Subject<Int, Never>()
        let counter = Counter()
        var subscriptions: [any Disposable] = []
        subscriptions.reserveCapacity(count)
        let before = heap()
        for _ in 0..<count {
            subscriptions.append(subject.map { $0 &+ 1 }.subscribe(next: { counter.sum &+= UInt64($0) }))
        }
        let after = heap()
        for subscription in subscriptions.reversed() { subscription.dispose() }  // newest first: fast
        return after - before
    }

    static func w4(_ n: Int) -> () -> UInt64 {
        let a = Subject<Int, Never>()
        let b = Subject<Int, Never>()
        let counter = Counter()
        a.combineLatest(with: b)
            .map { (pair: (Int, Int)) -> Int in pair.0 &+ pair.1 }
            .subscribe(next: { (value: Int) in counter.sum &+= UInt64(value) })
        return {
            for value in 0..<n {
                if value & 1 == 0 { a.send(value) } else { b.send(value) }
            }
            return counter.checksum
        }
    }

    static func w5(outer n: Int, inner: Int) -> () -> UInt64 {
        let outer = Subject<Signal<Int, Never>, Never>()
        let counter = Counter()
        outer.switchToLatest().subscribe(next: { counter.sum &+= UInt64($0) })
        return {
            for index in 0..<n { outer.send(Signal(values: index &* inner..<(index &+ 1) &* inner)) }
            return counter.checksum
        }
    }

    static func w6NoObserver(_ n: Int) -> () -> UInt64 {
        let model = TetherModel()
        return {
            for value in 1...n {
                model.value = value
                tb_compiler_barrier()
            }
            return UInt64(model.value)
        }
    }

    static func w6(_ n: Int) -> () -> UInt64 {
        let model = TetherModel()
        let counter = Counter()
        let subscription = model.observe(\.value).subscribe(next: { (value: Int) in counter.sum &+= UInt64(value) })
        return {
            for value in 1...n {
                model.value = value
                tb_compiler_barrier()
            }
            subscription.dispose()
            return counter.checksum
        }
    }

    /// Tether's `observe(\.x)` on an `@Observable` (Observation framework) object.
    static func w6ObservableObject(_ n: Int) -> () -> UInt64 {
        let model = ObservedModel()
        let counter = Counter()
        let subscription = model.observe(\.value).subscribe(next: { (value: Int) in counter.sum &+= UInt64(value) })
        return {
            for value in 1...n {
                model.value = value
                tb_compiler_barrier()
            }
            subscription.dispose()
            return counter.checksum
        }
    }

    static func w6MutableProperty(_ n: Int) -> () -> UInt64 {
        let property = MutableProperty(0)
        let counter = Counter()
        let subscription = property.signal.subscribe(next: { (value: Int) in counter.sum &+= UInt64(value) })
        return {
            for value in 1...n { property.value = value }
            subscription.dispose()
            return counter.checksum
        }
    }

    static func w9(_ n: Int, others: Int) -> () -> UInt64 {
        let counter = Counter()
        let sink = Counter()
        var population: [TetherModel] = []
        var subscriptions: [any Disposable] = []
        for _ in 0..<others {
            let other = TetherModel()
            subscriptions.append(other.observe(\.value).subscribe(next: { (value: Int) in sink.sum &+= UInt64(value) }))
            population.append(other)
        }
        let model = TetherModel()
        let subscription = model.observe(\.value).subscribe(next: { (value: Int) in counter.sum &+= UInt64(value) })
        return {
            for value in 1...n {
                model.value = value
                tb_compiler_barrier()
            }
            subscription.dispose()
            for other in subscriptions { other.dispose() }
            withExtendedLifetime(population) {}
            return counter.checksum
        }
    }

    static func w7(_ n: Int, filtered: Bool) -> () -> UInt64 {
        let center = NotificationCenter()
        let name = Notification.Name("tether.bench.w7")
        let sender = NSObject()
        let counter = Counter()
        let subscription = center.signal(for: name, object: filtered ? sender : nil)
            .subscribe(next: { _ in counter.count &+= 1 })
        return {
            for _ in 0..<n { center.post(name: name, object: sender) }
            subscription.dispose()
            return counter.checksum
        }
    }

    static func w8(_ n: Int) -> () -> UInt64 {
        let counter = Counter()
        return {
            for _ in 0..<n {
                Signal<Int, Never>(values: 0..<10).subscribe(
                    next: { counter.sum &+= UInt64($0) }, completed: { counter.count &+= 1 })
            }
            return counter.checksum
        }
    }
}

// MARK: - Scaling rows

extension TetherImpl {
    /// `operators` `map(+1)`s after `subject`, built by a loop (as a user reducing over an array would).
    static func mapChain(after subject: Subject<Int, Never>, operators: Int) -> Signal<Int, Never> {
        var signal = subject.map { (value: Int) -> Int in value &+ 1 }
        for _ in 1..<max(operators, 1) { signal = signal.map { (value: Int) -> Int in value &+ 1 } }
        return signal
    }

    /// W1 scaled: `values` values through `operators` `map`s; the subscriber sums them.
    static func mapChain(operators: Int, values: Int) -> () -> UInt64 {
        let subject = Subject<Int, Never>()
        let counter = Counter()
        // Not disposed in the body: taking down a long chain would be timed. The subject holds the pipeline;
        // both go when the runner releases the body, after the clock stopped.
        mapChain(after: subject, operators: operators)
            .subscribe(next: { (value: Int) in counter.sum &+= UInt64(value) })
        return {
            for value in 0..<values { subject.send(value) }
            return counter.checksum
        }
    }

    /// Bytes of `count` live subscriptions, each through a chain of `operators` `map`s built for it (as W3
    /// builds its `map` for each subscription).
    static func mapChainLive(operators: Int) -> (Int, () -> Int) -> Int {
        { count, heap in
            let subject = Subject<Int, Never>()
            let counter = Counter()
            var subscriptions: [any Disposable] = []
            subscriptions.reserveCapacity(count)
            let before = heap()
            for _ in 0..<count {
                subscriptions.append(
                    mapChain(after: subject, operators: operators)
                        .subscribe(next: { (value: Int) in counter.sum &+= UInt64(value) }))
            }
            let after = heap()
            for subscription in subscriptions.reversed() { subscription.dispose() }  // newest first: fast
            return after - before
        }
    }

    /// How far below the first `map` of a chain of `operators` its subscriber runs while one value goes
    /// through, in bytes of stack (outside any timing: for the notes after the table).
    static func mapChainStackDepth(operators: Int) -> Int {
        let subject = Subject<Int, Never>()
        let top = Counter()
        let bottom = Counter()
        var signal = subject.map { (value: Int) -> Int in
            top.sum = UInt64(tb_stack_address())
            return value &+ 1
        }
        for _ in 1..<max(operators, 1) { signal = signal.map { (value: Int) -> Int in value &+ 1 } }
        let subscription = signal.subscribe(next: { (_: Int) in bottom.sum = UInt64(tb_stack_address()) })
        subject.send(0)
        subscription.dispose()
        return Int(bitPattern: UInt(top.sum)) - Int(bitPattern: UInt(bottom.sum))
    }

    /// Bytes of `count` observers of one `@Observed` property.
    static func w6ObserversLive(_ count: Int, _ heap: () -> Int) -> Int {
        let model = TetherModel()
        let counter = Counter()
        var subscriptions: [any Disposable] = []
        subscriptions.reserveCapacity(count)
        let before = heap()
        for _ in 0..<count {
            subscriptions.append(
                model.observe(\.value).subscribe(next: { (value: Int) in counter.sum &+= UInt64(value) }))
        }
        let after = heap()
        for subscription in subscriptions.reversed() { subscription.dispose() }  // newest first: fast
        return after - before
    }
}
