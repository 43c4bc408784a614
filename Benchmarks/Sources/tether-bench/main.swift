import Foundation

// tether-bench: workloads W1–W10 of DESIGN.md, every implementation in one process, interleaved.
// Usage: swift run -c release --package-path Benchmarks tether-bench [--filter W1,W4] [--quick] [--json FILE]

let options = Options.parse(Array(CommandLine.arguments.dropFirst()))
let runner = Runner(options: options)
/// Operation counts: DESIGN.md's sizes, a tenth with `--quick`.
func size(_ full: Int) -> Int { options.quick ? max(full / 10, 1) : full }

let baseline = "closures"
var rows: [Row] = []

// W1: subject → map(+1) → filter(even) → map(*2) → sum; ns per value sent.
do {
    let n = size(1_000_000)
    rows.append(
        Row(
            workload: "W1", label: "W1 chain", operations: n, unit: "value", reference: baseline,
            goals: ["Tether": "≤ 2×"],
            contenders: [
                Contender(name: baseline, prepare: { Baseline.w1(n) }),
                Contender(name: "Tether", prepare: { TetherImpl.w1(n) }),
                Contender(name: "OpenCombine", prepare: { OpenCombineImpl.w1(n) }),
            ]))
}

// W1 with the debugging tools (TetherDebug): the disabled cost is the plain Tether row above (the tools
// are always compiled in; callgrind instruction counts against main are in README.md); these are the costs
// when they are on. "named stages": every stage named, graph off; "graph on": built with the graph on.
do {
    let n = size(1_000_000)
    rows.append(
        Row(
            workload: "W1", label: "W1 chain, debugging tools", operations: n, unit: "value",
            reference: "Tether, tools off", goals: ["Tether, named stages": "≤ 1.02×"],
            contenders: [
                Contender(name: "Tether, tools off", prepare: { TetherImpl.w1(n) }),
                Contender(name: "Tether, named stages", prepare: { TetherImpl.w1Named(n) }),
                Contender(name: "Tether, graph on", prepare: { TetherImpl.w1WithGraph(n) }),
            ]))
}

// W2: one subject, k subscribers; ns per delivery.
for (subscribers, values) in [(1, 1_000_000), (10, 1_000_000), (100, 100_000), (1_000, 10_000)] {
    let v = size(values)
    rows.append(
        Row(
            workload: "W2", label: "W2 fan-out ×\(subscribers)", operations: v * subscribers, unit: "delivery",
            reference: baseline, goals: subscribers == 100 ? ["Tether": "≤ 1.5×"] : [:],
            contenders: [
                Contender(name: baseline, prepare: { Baseline.w2(subscribers: subscribers, values: v) }),
                Contender(name: "Tether", prepare: { TetherImpl.w2(subscribers: subscribers, values: v) }),
                Contender(name: "OpenCombine", prepare: { OpenCombineImpl.w2(subscribers: subscribers, values: v) }),
            ]))
}

// W3: subscribe through one map, then dispose; ns per cycle, bytes per live subscription.
do {
    let n = size(100_000)
    rows.append(
        Row(
            workload: "W3", label: "W3 subscribe+dispose", operations: n, unit: "cycle", reference: baseline,
            goals: ["Tether": "≤ 4×, ≤ 250 B"],
            contenders: [
                Contender(name: baseline, prepare: { Baseline.w3(n) }, live: Baseline.w3Live),
                Contender(name: "Tether", prepare: { TetherImpl.w3(n) }, live: TetherImpl.w3Live),
                Contender(name: "OpenCombine", prepare: { OpenCombineImpl.w3(n) }, live: OpenCombineImpl.w3Live),
            ]))
}

// W4: combineLatest of two subjects → map(a+b), alternating sends; ns per send. OpenCombine has none.
do {
    let n = size(1_000_000)
    rows.append(
        Row(
            workload: "W4", label: "W4 combineLatest", operations: n, unit: "send", reference: baseline,
            goals: ["Tether": "≤ 3×"],
            contenders: [
                Contender(name: baseline, prepare: { Baseline.w4(n) })
            ] + TetherRows.w4(n)))
}

// W5: outer subject sends cold inners of 10 values, switchToLatest; ns per inner value.
do {
    let outer = size(100_000)
    rows.append(
        Row(
            workload: "W5", label: "W5 switchToLatest", operations: outer * 10, unit: "inner value",
            reference: baseline, goals: ["Tether": "≤ 5×"],
            contenders: [
                Contender(name: baseline, prepare: { Baseline.w5(outer: outer, inner: 10) }),
                Contender(name: "fused closures", prepare: { Baseline.w5Fused(outer: outer, inner: 10) }),
                Contender(name: "OpenCombine", prepare: { OpenCombineImpl.w5(outer: outer, inner: 10) }),
            ] + TetherRows.w5(outer: outer, inner: 10)))
}

// W6: property sets.
do {
    let n = size(1_000_000)
    rows.append(
        Row(
            workload: "W6", label: "W6 set, 1 observer", operations: n, unit: "set", reference: "didSet + closure",
            goals: ["Tether @Observed": "≤ 2×"],
            contenders: [
                Contender(name: "didSet + closure", prepare: { Baseline.w6DidSet(n) }),
                Contender(name: "OpenCombine @Published", prepare: { OpenCombineImpl.w6(n) }),
                Contender(name: "Observation", prepare: { ObservationImpl.w6(n) }),
            ] + TetherRows.w6(n)))
    // Observation's own re-armed tracking is the reference for observing an `@Observable` object.
    rows.append(
        Row(
            workload: "W6", label: "W6 @Observable set, 1 observer", operations: n, unit: "set",
            reference: "Observation", goals: ["Tether observe(@Observable)": "≤ 1.5×"],
            contenders: [
                Contender(name: "Observation", prepare: { ObservationImpl.w6(n) })
            ] + TetherRows.w6ObservableObject(n)))
    rows.append(
        Row(
            workload: "W6", label: "W6 set, 0 observers", operations: n, unit: "set", reference: "stored property",
            goals: ["Tether @Observed": "≤ 2×"],
            contenders: [
                Contender(name: "stored property", prepare: { Baseline.w6Plain(n) }),
                Contender(name: "didSet (no closure)", prepare: { Baseline.w6DidSetNoObserver(n) }),
                Contender(name: "OpenCombine @Published", prepare: { OpenCombineImpl.w6NoObserver(n) }),
                Contender(name: "Observation", prepare: { ObservationImpl.w6NoObserver(n) }),
            ] + TetherRows.w6NoObserver(n)))
    rows.append(
        Row(
            workload: "W6", label: "W6 MutableProperty set, 1 observer", operations: n, unit: "set",
            reference: "mutex + closure", goals: ["Tether MutableProperty": "≤ 2×"],
            contenders: [
                Contender(name: "mutex + closure", prepare: { Baseline.w6Locked(n) })
            ] + TetherRows.w6MutableProperty(n)))
}

// W7: NotificationCenter with one observer; ns per post. Without and with an object filter.
for filtered in [false, true] {
    let n = size(100_000)
    rows.append(
        Row(
            workload: "W7", label: filtered ? "W7 notification, object filter" : "W7 notification",
            operations: n, unit: "post", reference: "raw block observer",
            goals: ["Tether": "≤ 1.15×"],
            contenders: [
                Contender(name: "raw block observer", prepare: { Baseline.w7Raw(n, filtered: filtered) }),
                Contender(name: "OpenCombine", prepare: { OpenCombineImpl.w7(n, filtered: filtered) }),
            ] + TetherRows.w7(n, filtered: filtered)))
}

// W8: create a cold Signal(values: 0..<10) and subscribe to completion; ns per cycle.
do {
    let n = size(100_000)
    rows.append(
        Row(
            workload: "W8", label: "W8 cold create+subscribe", operations: n, unit: "cycle",
            reference: "one-object floor", goals: ["Tether": "≤ 5×"],
            contenders: [
                Contender(name: "one-object floor", prepare: { Baseline.w8HeapObject(n) }),
                Contender(name: baseline, prepare: { Baseline.w8Closure(n) }),
                Contender(name: "Tether", prepare: { TetherImpl.w8(n) }),
                Contender(name: "OpenCombine", prepare: { OpenCombineImpl.w8(n) }),
            ]))
}

// W9: W6 with 1 observer while other objects each have an observed property.
for others in [0, 1_000, 10_000] {
    let n = size(1_000_000)
    rows.append(
        Row(
            workload: "W9", label: "W9 set, \(others) other observed", operations: n, unit: "set",
            reference: "didSet + closure", goals: ["Tether @Observed": "flat"],
            contenders: [
                Contender(name: "didSet + closure", prepare: { Baseline.w9(n, others: others) }),
                Contender(name: "OpenCombine @Published", prepare: { OpenCombineImpl.w9(n, others: others) }),
                Contender(name: "Observation", prepare: { ObservationImpl.w9(n, others: others) }),
            ] + TetherRows.w9(n, others: others)))
}

// W10: contention — 8 threads send at once; ns per send (wall time / sends). The checksum is what the
// subscriber had when the senders returned, so it also checks that everything was delivered by then.
do {
    let perSender = size(100_000)
    let sends = Contention.senders * perSender
    let reference = "mutex queue"
    for churn in [false, true] {
        rows.append(
            Row(
                workload: "W10",
                label: churn ? "W10 8 senders → Subject + 10 churning subscribers" : "W10 8 senders → Subject",
                operations: sends, unit: "send", reference: reference,
                goals: ["Tether": churn ? "≤ 2×" : "≤ 1.5×"],
                contenders: [
                    Contender(name: reference, prepare: { Contention.mutexQueue(perSender: perSender, churn: churn) }),
                    Contender(
                        name: "Tether", prepare: { Contention.tetherSubject(perSender: perSender, churn: churn) }),
                    Contender(
                        name: "OpenCombine",
                        prepare: { Contention.openCombineSubject(perSender: perSender, churn: churn) }
                    ),
                ]))
    }
    rows.append(
        Row(
            workload: "W10", label: "W10 8 setters → MutableProperty", operations: sends, unit: "set",
            reference: reference, goals: ["Tether": "≤ 1.5×"],
            contenders: [
                Contender(name: reference, prepare: { Contention.mutexQueue(perSender: perSender, churn: false) }),
                Contender(name: "Tether", prepare: { Contention.tetherProperty(perSender: perSender) }),
            ]))
    rows.append(
        Row(
            workload: "W10", label: "W10 merge of 8 subjects, one thread each", operations: sends, unit: "send",
            reference: reference, goals: ["Tether": "≤ 1.5×"],
            contenders: [
                Contender(name: reference, prepare: { Contention.mutexQueue(perSender: perSender, churn: false) }),
                Contender(name: "Tether", prepare: { Contention.tetherMerge(perSender: perSender) }),
                Contender(
                    name: "mutex queue per sender, merged",
                    prepare: { Contention.mutexQueuePerSender(perSender: perSender) }),
            ]))
    let posts = size(20_000)
    rows.append(
        Row(
            workload: "W10", label: "W10 8 threads post notifications", operations: Contention.senders * posts,
            unit: "post", reference: "raw block observer", goals: ["Tether": "≤ 1.5×"],
            contenders: [
                Contender(name: "raw block observer", prepare: { Contention.rawNotifications(perSender: posts) }),
                Contender(name: "Tether", prepare: { Contention.tetherNotifications(perSender: posts) }),
            ]))
}

// Files (issue 32): inotify events delivered through `Signal.fileEvents(at:)` against a raw `read` loop on an
// inotify descriptor; ns per event (FileWatchRows.swift).
do {
    let n = size(100_000)
    rows.append(
        Row(
            workload: "FILES", label: "Files: inotify events", operations: n, unit: "event",
            reference: "raw read loop", goals: ["Tether": "≤ 1.1×"],
            contenders: [
                Contender(name: "raw read loop", prepare: { FileWatchRows.raw(n) }),
                Contender(name: "Tether", prepare: { FileWatchRows.tether(n) }),
            ]))
}

let selected = rows.filter { row in
    options.includes(row.workload) && (options.row.map { row.label.contains($0) } ?? true)
}
if selected.isEmpty { Options.usage("--filter and --row match no row (workloads W1 … W10, FILES)") }
print(
    "tether-bench: \(cpuModel()), \(ProcessInfo.processInfo.activeProcessorCount) cores, "
        + "\(runner.repetitions) repetitions\(options.quick ? " (quick)" : ""), ns per operation")
print("")
runner.printHeader()
for row in selected { runner.run(row) }
if !runner.notes.isEmpty {
    print("")
    for note in runner.notes { print(note) }
}

if let path = options.jsonPath {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    do {
        try encoder.encode(runner.report()).write(to: URL(fileURLWithPath: path))
    } catch {
        FileHandle.standardError.write(Data("error: cannot write \(path): \(error)\n".utf8))
        exit(1)
    }
}
if !runner.mismatches.isEmpty {
    for mismatch in runner.mismatches { FileHandle.standardError.write(Data("CHECKSUM MISMATCH: \(mismatch)\n".utf8)) }
    exit(2)
}
