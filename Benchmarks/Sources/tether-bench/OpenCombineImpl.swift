import CMallInfo
import Foundation
import OpenCombine
import OpenCombineFoundation

// OpenCombine 0.14.0 where it has the operator (it has no combineLatest).

/// W6/W9: `@Published` + `sink`.
final class PublishedModel {
    @Published var value = 0
}

enum OpenCombineImpl {
    static func w1(_ n: Int) -> () -> UInt64 {
        let subject = PassthroughSubject<Int, Never>()
        let counter = Counter()
        let cancellable =
            subject
            .map { (value: Int) -> Int in value &+ 1 }
            .filter { (value: Int) -> Bool in value % 2 == 0 }
            .map { (value: Int) -> Int in value &* 2 }
            .sink { (value: Int) in counter.sum &+= UInt64(value) }
        return {
            for value in 0..<n { subject.send(value) }
            cancellable.cancel()
            return counter.checksum
        }
    }

    static func w2(subscribers: Int, values: Int) -> () -> UInt64 {
        let subject = PassthroughSubject<Int, Never>()
        let counter = Counter()
        var cancellables: [AnyCancellable] = []
        for _ in 0..<subscribers { cancellables.append(subject.sink { counter.sum &+= UInt64($0) }) }
        return {
            for value in 0..<values { subject.send(value) }
            cancellables.removeAll()
            return counter.checksum
        }
    }

    static func w3(_ n: Int) -> () -> UInt64 {
        let subject = PassthroughSubject<Int, Never>()
        let counter = Counter()
        return {
            for _ in 0..<n {
                let cancellable = subject.map { (value: Int) -> Int in value &+ 1 }.sink { (value: Int) in
                    counter.sum &+= UInt64(value)
                }
                cancellable.cancel()
                counter.count &+= 1
            }
            subject.send(1)
            return counter.checksum
        }
    }

    static func w3Live(_ count: Int, _ heap: () -> Int) -> Int {
        let subject = PassthroughSubject<Int, Never>()
        let counter = Counter()
        var cancellables: [AnyCancellable] = []
        cancellables.reserveCapacity(count)
        let before = heap()
        for _ in 0..<count {
            cancellables.append(
                subject.map { (value: Int) -> Int in value &+ 1 }.sink { (value: Int) in counter.sum &+= UInt64(value) }
            )
        }
        let after = heap()
        for cancellable in cancellables.reversed() { cancellable.cancel() }  // newest first: fast
        return after - before
    }

    static func w5(outer n: Int, inner: Int) -> () -> UInt64 {
        let outer = PassthroughSubject<Publishers.Sequence<Range<Int>, Never>, Never>()
        let counter = Counter()
        let cancellable = outer.switchToLatest().sink { counter.sum &+= UInt64($0) }
        return {
            for index in 0..<n { outer.send((index &* inner..<(index &+ 1) &* inner).publisher) }
            cancellable.cancel()
            return counter.checksum
        }
    }

    static func w6NoObserver(_ n: Int) -> () -> UInt64 {
        let model = PublishedModel()
        return {
            for value in 1...n {
                model.value = value
                tb_compiler_barrier()
            }
            return UInt64(model.value)
        }
    }

    static func w6(_ n: Int) -> () -> UInt64 {
        let model = PublishedModel()
        let counter = Counter()
        let cancellable = model.$value.sink { counter.sum &+= UInt64($0) }
        return {
            for value in 1...n {
                model.value = value
                tb_compiler_barrier()
            }
            cancellable.cancel()
            return counter.checksum
        }
    }

    static func w9(_ n: Int, others: Int) -> () -> UInt64 {
        let counter = Counter()
        let sink = Counter()
        var population: [PublishedModel] = []
        var cancellables: [AnyCancellable] = []
        for _ in 0..<others {
            let other = PublishedModel()
            cancellables.append(other.$value.sink { sink.sum &+= UInt64($0) })
            population.append(other)
        }
        let model = PublishedModel()
        let cancellable = model.$value.sink { counter.sum &+= UInt64($0) }
        return {
            for value in 1...n {
                model.value = value
                tb_compiler_barrier()
            }
            cancellable.cancel()
            withExtendedLifetime((population, cancellables)) {}
            return counter.checksum
        }
    }

    static func w7(_ n: Int, filtered: Bool) -> () -> UInt64 {
        let center = NotificationCenter()
        let name = Notification.Name("tether.bench.w7")
        let sender = NSObject()
        let counter = Counter()
        let cancellable = center.ocombine.publisher(for: name, object: filtered ? sender : nil)
            .sink { _ in counter.count &+= 1 }
        return {
            for _ in 0..<n { center.post(name: name, object: sender) }
            cancellable.cancel()
            return counter.checksum
        }
    }

    static func w8(_ n: Int) -> () -> UInt64 {
        let counter = Counter()
        return {
            for _ in 0..<n {
                _ = (0..<10).publisher.sink(
                    receiveCompletion: { _ in counter.count &+= 1 }, receiveValue: { counter.sum &+= UInt64($0) })
            }
            return counter.checksum
        }
    }
}

extension OpenCombineImpl {
    /// Bytes of `count` `sink`s on one `@Published` property.
    static func w6ObserversLive(_ count: Int, _ heap: () -> Int) -> Int {
        let model = PublishedModel()
        let counter = Counter()
        var cancellables: [AnyCancellable] = []
        cancellables.reserveCapacity(count)
        let before = heap()
        for _ in 0..<count { cancellables.append(model.$value.sink { (value: Int) in counter.sum &+= UInt64(value) }) }
        let after = heap()
        for cancellable in cancellables.reversed() { cancellable.cancel() }  // newest first: fast
        return after - before
    }
}
