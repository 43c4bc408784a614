import Bridges
import CMallInfo
import Foundation
// tether-probe: one workload, N operations, nothing else: for callgrind instruction counts, which (unlike wall
// time) repeat on a loaded machine. Scripts/callgrind-per-op.sh runs it at N and 2N and prints instructions per
// operation, so setup and process start cancel out. Usage: tether-probe W1|W1C10|W1C100|W1C1000|W1C20000|W1C10R|W1C100R|W1C1000R|W1C20000R|W2|W2S|W3|W3B|W3BC|W6B|W4|W5|W7|W7F|W7R|W7RF|W8 N
import Glibc
import Observable

final class Counter: @unchecked Sendable { var sum: UInt64 = 0 }

let args = CommandLine.arguments
let workload = args[1]
let n = Int(args[2])!
let counter = Counter()

@inline(never) func w1(_ n: Int) {
    let subject = Subject<Int, Never>()
    subject.map { (value: Int) -> Int in value &+ 1 }
        .filter { (value: Int) -> Bool in value % 2 == 0 }
        .map { (value: Int) -> Int in value &* 2 }
        .subscribe(next: { (value: Int) in counter.sum &+= UInt64(value) })
    for value in 0..<n { subject.send(value) }
}

/// W1's chain scaling row: a subject and `operators` `map(+1)`s built by a loop, `n` stage hops in all
/// (`n / operators` values), so that the cost per hop compares across chain lengths (`perf stat`'s cache
/// counters, callgrind's cache simulation).
@inline(never) func w1Chain(_ n: Int, operators: Int) {
    let subject = Subject<Int, Never>()
    var signal = subject.map { (value: Int) -> Int in value &+ 1 }
    for _ in 1..<operators { signal = signal.map { (value: Int) -> Int in value &+ 1 } }
    signal.subscribe(next: { (value: Int) in counter.sum &+= UInt64(value) })
    for value in 0..<(n / operators) { subject.send(value) }
}

/// The closures' reference for ``w1Chain(_:operators:)`` (the bench's `Baseline.mapChain`): `operators`
/// closures, each adding 1 and calling the next.
@inline(never) func w1ChainRaw(_ n: Int, operators: Int) {
    var stage: (Int) -> Void = { (value: Int) in counter.sum &+= UInt64(value) }
    for _ in 0..<operators {
        let next = stage
        stage = { next($0 &+ 1) }
    }
    for value in 0..<(n / operators) { stage(value) }
}

/// W2 with one subscriber: the per-send cost of the subject's gate plus one delivery.
@inline(never) func w2Single(_ n: Int) {
    let subject = Subject<Int, Never>()
    subject.subscribe(next: { counter.sum &+= UInt64($0) })
    for value in 0..<n { subject.send(value) }
}

@inline(never) func w2(_ n: Int) {
    let subject = Subject<Int, Never>()
    for _ in 0..<100 { subject.subscribe(next: { counter.sum &+= UInt64($0) }) }
    for value in 0..<n { subject.send(value) }
}

@inline(never) func w3(_ n: Int) {
    let subject = Subject<Int, Never>()
    for _ in 0..<n {
        let subscription = subject.map { $0 &+ 1 }.subscribe(next: { counter.sum &+= UInt64($0) })
        subscription.dispose()
    }
}

/// W3 after a pipeline was built with the debugging graph on (and the graph switched off again), as
/// tether-bench's W1 "graph on" contender leaves the process before its W3 row.
@inline(never) func w3AfterGraph(_ n: Int) {
    TetherDebug.isEnabled = true
    let subject = Subject<Int, Never>()
    subject.named("probe.source").map { $0 &+ 1 }.named("probe.plusOne").subscribe(next: { counter.sum &+= UInt64($0) })
    TetherDebug.isEnabled = false
    for value in 0..<1000 { subject.send(value) }
    w3(n)
}

@inline(never) func w3Bytes(_ n: Int) -> Int {
    let subject = Subject<Int, Never>()
    var live: [any Disposable] = []
    live.reserveCapacity(n)
    let before = tb_heap_bytes_in_use()
    for _ in 0..<n { live.append(subject.map { $0 &+ 1 }.subscribe(next: { counter.sum &+= UInt64($0) })) }
    let after = tb_heap_bytes_in_use()
    withExtendedLifetime(live) {}
    return (Int(after) - Int(before)) / n
}

/// As W3B, with a `next` closure that captures an object (as most real subscribers do, and as
/// tether-bench's row does): its context cannot be folded away.
@inline(never) func w3BytesCapturing(_ n: Int) -> Int {
    let subject = Subject<Int, Never>()
    let local = Counter()
    var live: [any Disposable] = []
    live.reserveCapacity(n)
    let before = tb_heap_bytes_in_use()
    for _ in 0..<n { live.append(subject.map { $0 &+ 1 }.subscribe(next: { local.sum &+= UInt64($0) })) }
    let after = tb_heap_bytes_in_use()
    withExtendedLifetime(live) {}
    counter.sum &+= local.sum
    return (Int(after) - Int(before)) / n
}

@inline(never) func w4(_ n: Int) {
    let a = Subject<Int, Never>()
    let b = Subject<Int, Never>()
    a.combineLatest(with: b).map { $0 &+ $1 }.subscribe(next: { counter.sum &+= UInt64($0) })
    for value in 0..<n {
        if value & 1 == 0 { a.send(value) } else { b.send(value) }
    }
}

/// N inner signals of 10 values each, through `switchToLatest` (each replaces the previous inner subscription).
@inline(never) func w5(_ n: Int) {
    let outer = Subject<Signal<Int, Never>, Never>()
    outer.switchToLatest().subscribe(next: { counter.sum &+= UInt64($0) })
    for index in 0..<n { outer.send(Signal(values: index &* 10..<(index &+ 1) &* 10)) }
}

@inline(never) func w8(_ n: Int) {
    for _ in 0..<n {
        Signal(values: 0..<10).subscribe(next: { counter.sum &+= UInt64($0) }, completed: { counter.sum &+= 1 })
    }
}

final class ProbeModel: KeyPathObservable {
    @Observed var value = 0
}

/// Bytes per `@Observed` observer: `n` live observers of one property, each with a `next` closure that
/// captures an object (as tether-bench's `@Observed` memory row does). The property's observer storage is
/// installed before the first reading, as one observer costs it once for all.
@inline(never) func observedBytes(_ n: Int) -> Int {
    let model = ProbeModel()
    let local = Counter()
    model.observe(\.value).subscribe(next: { local.sum &+= UInt64($0) }).dispose()
    var live: [any Disposable] = []
    live.reserveCapacity(n)
    let before = tb_heap_bytes_in_use()
    for _ in 0..<n { live.append(model.observe(\.value).subscribe(next: { local.sum &+= UInt64($0) })) }
    let after = tb_heap_bytes_in_use()
    model.value = 1
    withExtendedLifetime(live) {}
    counter.sum &+= local.sum
    return (Int(after) - Int(before)) / n
}

/// W7: `n` posts of one name by one sender into the bridge with one subscriber (`filtered`: observing that
/// sender only); W7R/W7RF: the same into a raw `addObserver(forName:object:queue:using:)` block.
@inline(never) func w7(_ n: Int, filtered: Bool, raw: Bool) {
    let center = NotificationCenter()
    let name = Notification.Name("tether.probe.w7")
    let sender = NSObject()
    if raw {
        let token = center.addObserver(forName: name, object: filtered ? sender : nil, queue: nil) { _ in
            counter.sum &+= 1
        }
        for _ in 0..<n { center.post(name: name, object: sender) }
        center.removeObserver(token)
    } else {
        let subscription = center.signal(for: name, object: filtered ? sender : nil)
            .subscribe(next: { _ in counter.sum &+= 1 })
        for _ in 0..<n { center.post(name: name, object: sender) }
        subscription.dispose()
    }
}

switch workload {
// W7 (bridged and raw, with and without an object filter): W7, W7F, W7R, W7RF.
case "W7": w7(n, filtered: false, raw: false)
case "W7F": w7(n, filtered: true, raw: false)
case "W7R": w7(n, filtered: false, raw: true)
case "W7RF": w7(n, filtered: true, raw: true)
case "W1": w1(n)
case "W1C10": w1Chain(n, operators: 10)
case "W1C100": w1Chain(n, operators: 100)
case "W1C1000": w1Chain(n, operators: 1000)
case "W1C20000": w1Chain(n, operators: 20000)
case "W1C10R": w1ChainRaw(n, operators: 10)
case "W1C100R": w1ChainRaw(n, operators: 100)
case "W1C1000R": w1ChainRaw(n, operators: 1000)
case "W1C20000R": w1ChainRaw(n, operators: 20000)
case "W2": w2(n)
case "W2S": w2Single(n)
case "W3": w3(n)
case "W3G": w3AfterGraph(n)
case "W3B": print("bytes per live subscription:", w3Bytes(n))
case "W3BC": print("bytes per live subscription (capturing next):", w3BytesCapturing(n))
case "W6B": print("bytes per @Observed observer:", observedBytes(n))
case "W4": w4(n)
case "W5": w5(n)
case "W8": w8(n)
default: fatalError("unknown workload")
}
if counter.sum == 42 { print("unlikely") }
