import CMallInfo
// tether-probe: one workload, N operations, nothing else: for callgrind instruction counts, which (unlike wall
// time) repeat on a loaded machine. Scripts/callgrind-per-op.sh runs it at N and 2N and prints instructions per
// operation, so setup and process start cancel out. Usage: tether-probe W1|W2|W3|W3B|W3BC|W8 N
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

@inline(never) func w8(_ n: Int) {
    for _ in 0..<n {
        Signal(values: 0..<10).subscribe(next: { counter.sum &+= UInt64($0) }, completed: { counter.sum &+= 1 })
    }
}

switch workload {
case "W1": w1(n)
case "W2": w2(n)
case "W3": w3(n)
case "W3B": print("bytes per live subscription:", w3Bytes(n))
case "W3BC": print("bytes per live subscription (capturing next):", w3BytesCapturing(n))
case "W8": w8(n)
default: fatalError("unknown workload")
}
if counter.sum == 42 { print("unlikely") }
