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
            goals: ["Tether": Goals.w1Chain],
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
            reference: "Tether, tools off", goals: ["Tether, named stages": Goals.w1NamedStages],
            contenders: [
                Contender(name: "Tether, tools off", prepare: { TetherImpl.w1(n) }),
                Contender(name: "Tether, named stages", prepare: { TetherImpl.w1Named(n) }),
                Contender(name: "Tether, graph on", prepare: { TetherImpl.w1WithGraph(n) }),
            ]))
}

// Scaling rows (issue 45). Each size is a contender of one row, so that all sizes run in the same rounds;
// ns per operation is normalized to the same unit at every size (per delivery to one subscriber, per value
// through one operator), and the ratio columns divide by the same series at the row's base size — the
// goal is that the cost per subscriber / per operator does not grow. After the table, each Tether size's
// paired ratio to the closures of the same size.

/// `10000` → `10,000`.
func grouped(_ value: Int) -> String {
    let digits = Array(String(value))
    var text = ""
    for (index, digit) in digits.enumerated() {
        if index > 0 && (digits.count - index) % 3 == 0 { text += "," }
        text.append(digit)
    }
    return text
}

/// Past DeepChainTrampoline's stack budget (512 KiB: about 5,600 `map`s, see the note after the table), a few
/// times over, so that each value is queued for the trampoline's root several times on its way.
let deepChain = 20_000
let chainScalingLabel = "W1 map chain scaling, per operator"

// W1 scaled: values through chains of 1 … 1,000 `map(+1)`s, and through one long enough that the deep-chain
// trampoline queues its events; ns per value per operator (about a million hops per run at every size). The
// closures are a chain of closures, each adding 1 and calling the next. Bytes per live subscription for 1, 10
// and 100 operators, the chain built for each subscription as W3 builds its `map` (1,000 live for 100).
do {
    let hops = size(1_000_000)
    var contenders: [Contender] = []
    var goals: [String: String] = [:]
    for operators in [1, 10, 100, 1_000, deepChain] {
        let values = max(hops / operators, 1)
        let closures = "\(baseline) ×\(operators)"
        let tether =
            operators == deepChain
            ? "Tether ×\(operators) past the stack budget (ratio to ×1000)" : "Tether ×\(operators)"
        let memory = operators <= 100
        let liveCount = operators >= 100 ? 1_000 : 10_000
        contenders.append(
            Contender(
                name: closures, prepare: { Baseline.mapChain(operators: operators, values: values) },
                live: memory ? Baseline.mapChainLive(operators: operators) : nil, liveCount: liveCount,
                operations: values * operators, reference: "\(baseline) ×10", scale: operators, series: baseline,
                sameResultAs: closures))
        contenders.append(
            Contender(
                name: tether, prepare: { TetherImpl.mapChain(operators: operators, values: values) },
                live: memory ? TetherImpl.mapChainLive(operators: operators) : nil, liveCount: liveCount,
                operations: values * operators, reference: operators == deepChain ? "Tether ×1000" : "Tether ×10",
                scale: operators, series: "Tether", sameResultAs: closures))
        if memory { goals[tether] = Goals.chainBytes(operators: operators) }
    }
    goals["Tether ×1000"] = Goals.chainScaling
    goals["Tether ×\(deepChain) past the stack budget (ratio to ×1000)"] = Goals.deepChainHop
    rows.append(
        Row(
            workload: "W1", label: chainScalingLabel, operations: hops, unit: "value × operator",
            reference: "Tether ×10", goals: goals, contenders: contenders))
}

// W2: one subject, k subscribers; ns per delivery.
for (subscribers, values) in [(1, 1_000_000), (10, 1_000_000), (100, 100_000), (1_000, 10_000)] {
    let v = size(values)
    rows.append(
        Row(
            workload: "W2", label: "W2 fan-out ×\(subscribers)", operations: v * subscribers, unit: "delivery",
            reference: baseline, goals: subscribers == 100 ? ["Tether": Goals.w2FanOut100] : [:],
            contenders: [
                Contender(name: baseline, prepare: { Baseline.w2(subscribers: subscribers, values: v) }),
                Contender(name: "Tether", prepare: { TetherImpl.w2(subscribers: subscribers, values: v) }),
                Contender(name: "OpenCombine", prepare: { OpenCombineImpl.w2(subscribers: subscribers, values: v) }),
            ]))
}

// W2 scaled: one send to 1, 100 and 10,000 subscribers of a Subject (closures: the W2 observer list); ns per
// delivery, a million deliveries per run at every size.
do {
    let deliveries = size(1_000_000)
    var contenders: [Contender] = []
    for subscribers in [1, 100, 10_000] {
        let values = max(deliveries / subscribers, 1)
        let closures = "\(baseline) ×\(subscribers)"
        contenders.append(
            Contender(
                name: closures, prepare: { Baseline.w2(subscribers: subscribers, values: values) },
                operations: values * subscribers, reference: "\(baseline) ×100", scale: subscribers,
                series: baseline, sameResultAs: closures))
        contenders.append(
            Contender(
                name: "Tether ×\(subscribers)",
                prepare: { TetherImpl.w2(subscribers: subscribers, values: values) },
                operations: values * subscribers, reference: "Tether ×100", scale: subscribers, series: "Tether",
                sameResultAs: closures))
    }
    rows.append(
        Row(
            workload: "W2", label: "W2 fan-out scaling, per subscriber", operations: deliveries, unit: "delivery",
            reference: "Tether ×100", goals: ["Tether ×10000": Goals.fanOutScaling], contenders: contenders))
}

// W3: subscribe through one map, then dispose; ns per cycle, bytes per live subscription.
do {
    let n = size(100_000)
    rows.append(
        Row(
            workload: "W3", label: "W3 subscribe+dispose", operations: n, unit: "cycle", reference: baseline,
            goals: ["Tether": "\(Goals.w3Cycle), \(Goals.w3Bytes)"],
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
            goals: ["Tether": Goals.w4CombineLatest],
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
            reference: baseline, goals: ["Tether": Goals.w5SwitchToLatest],
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
            goals: ["Tether @Observed": "\(Goals.w6ObservedSet), \(Goals.observedObserverBytes)"],
            contenders: [
                Contender(name: "didSet + closure", prepare: { Baseline.w6DidSet(n) }),
                Contender(
                    name: "OpenCombine @Published", prepare: { OpenCombineImpl.w6(n) },
                    live: OpenCombineImpl.w6ObserversLive),
                Contender(name: "Observation", prepare: { ObservationImpl.w6(n) }),
            ] + TetherRows.w6(n)))
    // Observation's own re-armed tracking is the reference for observing an `@Observable` object.
    rows.append(
        Row(
            workload: "W6", label: "W6 @Observable set, 1 observer", operations: n, unit: "set",
            reference: "Observation", goals: ["Tether observe(@Observable)": Goals.w6ObservableObject],
            contenders: [
                Contender(name: "Observation", prepare: { ObservationImpl.w6(n) })
            ] + TetherRows.w6ObservableObject(n)))
    rows.append(
        Row(
            workload: "W6", label: "W6 set, 0 observers", operations: n, unit: "set", reference: "stored property",
            goals: ["Tether @Observed": Goals.w6NoObserver],
            contenders: [
                Contender(name: "stored property", prepare: { Baseline.w6Plain(n) }),
                Contender(name: "didSet (no closure)", prepare: { Baseline.w6DidSetNoObserver(n) }),
                Contender(name: "OpenCombine @Published", prepare: { OpenCombineImpl.w6NoObserver(n) }),
                Contender(name: "Observation", prepare: { ObservationImpl.w6NoObserver(n) }),
            ] + TetherRows.w6NoObserver(n)))
    rows.append(
        Row(
            workload: "W6", label: "W6 MutableProperty set, 1 observer", operations: n, unit: "set",
            reference: "mutex + closure", goals: ["Tether MutableProperty": Goals.w6MutableProperty],
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
            goals: ["Tether": Goals.w7Notification],
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
            reference: "one-object floor", goals: ["Tether": Goals.w8Cold],
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
            reference: "didSet + closure", goals: ["Tether @Observed": Goals.w9Flat],
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
                goals: ["Tether": churn ? Goals.w10Churn : Goals.w10Contended],
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
            reference: reference, goals: ["Tether": Goals.w10Contended],
            contenders: [
                Contender(name: reference, prepare: { Contention.mutexQueue(perSender: perSender, churn: false) }),
                Contender(name: "Tether", prepare: { Contention.tetherProperty(perSender: perSender) }),
            ]))
    rows.append(
        Row(
            workload: "W10", label: "W10 merge of 8 subjects, one thread each", operations: sends, unit: "send",
            reference: reference, goals: ["Tether": Goals.w10Contended],
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
            unit: "post", reference: "raw block observer", goals: ["Tether": Goals.w10Contended],
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
            reference: "raw read loop", goals: ["Tether": Goals.files],
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
if selected.contains(where: { $0.label == chainScalingLabel }) {
    // Outside any timing: how much stack a `map` takes while delivering, and where the long chain's
    // subscriber ran (the closures' chain for comparison); then the cost per hop past the budget.
    let perMap = Double(TetherImpl.mapChainStackDepth(operators: 1_000)) / 999
    let perClosure = Double(Baseline.mapChainStackDepth(operators: 1_000)) / 999
    let deep = TetherImpl.mapChainStackDepth(operators: deepChain)
    var note =
        "\(chainScalingLabel): a value takes \(runner.format(perMap, 0)) B of stack per `map` (chain of 1,000; "
        + "the closures' chain \(runner.format(perClosure, 0)) B per stage), so the deep-chain trampoline's "
        + "512 KiB budget is reached after about \(grouped(Int(512 * 1024 / max(perMap, 1)))) `map`s; through "
        + "\(grouped(deepChain)) `map`s the subscriber ran \(grouped(deep / 1024)) KiB below the first "
        + "(\(grouped(Int(perMap * Double(deepChain)) / 1024)) KiB without the trampoline)"
    let tether = runner.measurements.filter { $0.row == chainScalingLabel && $0.series == "Tether" }
    if let within = tether.first(where: { $0.scale == 1_000 }),
        let past = tether.first(where: { $0.scale == deepChain })
    {
        note +=
            "; past the budget a hop costs \(runner.format(past.medianNs, 1)) ns (median at ×\(deepChain)), within "
            + "it \(runner.format(within.medianNs, 1)) ns (×1000)"
    }
    runner.notes.insert(note, at: 0)
}
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
