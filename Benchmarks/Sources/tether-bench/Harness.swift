import CMallInfo
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

// MARK: - Model

/// One implementation of one workload row.
///
/// `prepare` builds everything the row needs (subjects, pipelines, observers) outside the timed region
/// and returns the timed body; the body performs `Row.operations` operations and returns a checksum
/// folding every value it observed. Whatever the body captured is released after the clock stopped.
struct Contender {
    let name: String
    let prepare: () -> () -> UInt64
    /// For W3: holds `count` live subscriptions and returns the heap growth measured (with the given
    /// function) around creating them, then releases them.
    var live: ((Int, () -> Int) -> Int)? = nil
    /// How many live subscriptions `live` holds (10,000 unless a long chain makes that too much memory).
    var liveCount = 10_000
    /// Scaling rows: the divisor of ns per operation for this contender, when it differs from the row's
    /// (each contender of a scaling row runs at its own size, normalized to the same unit).
    var operations: Int? = nil
    /// Scaling rows: the contender this one's ratios divide by, when it is not the row's reference.
    var reference: String? = nil
    /// Scaling rows: the size this contender runs at (subscribers, operators) and the line it belongs to
    /// (`Tether`, `closures`), for the JSON report and the chart.
    var scale: Int? = nil
    var series: String? = nil
    /// Scaling rows: the contender whose checksum this one's must equal (the same size in another series),
    /// when that is not its reference (the same series at another size computes another sum).
    var sameResultAs: String? = nil
}

/// One line group of the table: a workload at one size, with its contenders.
struct Row {
    /// Workload id for `--filter` (`W1` … `W9`).
    let workload: String
    /// Label printed in the table (`W2 ×100 subscribers`).
    let label: String
    /// Operations performed by one run of a body (the divisor of ns per operation).
    let operations: Int
    /// What one operation is (`value`, `delivery`, `cycle`, …).
    let unit: String
    /// Name of the contender the ratio column divides by (a contender may name its own: scaling rows).
    let reference: String
    /// Goals for Tether rows, keyed by contender name (shown next to the ratio).
    var goals: [String: String] = [:]
    var contenders: [Contender]
}

struct Measurement: Codable {
    let workload: String
    let row: String
    let implementation: String
    let unit: String
    let operations: Int
    let medianNs: Double
    let minNs: Double
    let maxNs: Double
    /// Median over the reference's median; nil when the reference did not run (`--impl`).
    let ratio: Double?
    /// The median, over the rounds, of this implementation's time over the reference's time in the same round
    /// (the two ran at most one row's worth of contenders apart); nil when the reference did not run.
    var pairedRatio: Double? = nil
    let reference: String
    let goal: String?
    let checksum: UInt64
    let bytesPerLiveSubscription: Double?
    /// W10: the lowest share, in percent, of the values its subscriber had received when the sending
    /// threads returned, over the runs; absent for other rows.
    var deliveredAtReturnPercent: Double? = nil
    /// W10 churn rows: the median rate of the churning threads, in subscribe/dispose cycles per second.
    var churnCyclesPerSecond: Double? = nil
    /// Scaling rows: the size this implementation ran at (subscribers, operators) and its line in the chart.
    var scale: Int? = nil
    var series: String? = nil
    /// Scaling rows: the paired ratio to the reference series at the same size (`Tether ×100` to
    /// `closures ×100`), and that contender's name.
    var sameSizePairedRatio: Double? = nil
    var sameSize: String? = nil
}

struct Report: Codable {
    let date: String
    let machine: String
    let cores: Int
    let swift: String
    let repetitions: Int
    let quick: Bool
    let measurements: [Measurement]
    let checksumMismatches: [String]
    /// The lines printed after the table (W10's side figures, the chain row's stack figures).
    let notes: [String]
}

/// What a timed body measured besides its checksum (W10): the share of the values its subscriber had
/// received when the sending threads returned, and the rate of the threads churning subscriptions.
struct SideFigures {
    var deliveredShare: Double? = nil
    var churnCyclesPerSecond: Double? = nil

    var isEmpty: Bool { deliveredShare == nil && churnCyclesPerSecond == nil }
}

/// Where a timed body leaves its `SideFigures`; the runner takes them right after each run.
final class SideFigureSink: @unchecked Sendable {
    static let shared = SideFigureSink()
    // Safety: `pending` is guarded by `lock`.
    private let lock = NSLock()
    private var pending = SideFigures()

    func record(deliveredShare: Double, churnCyclesPerSecond: Double? = nil) {
        lock.withLock {
            pending.deliveredShare = deliveredShare
            pending.churnCyclesPerSecond = churnCyclesPerSecond
        }
    }

    /// Returns what the last run recorded, and forgets it.
    func take() -> SideFigures {
        lock.withLock {
            defer { pending = SideFigures() }
            return pending
        }
    }
}

// MARK: - Options

struct Options {
    var filter: Set<String>? = nil
    /// Only these implementations (for profiling one of them); ratios need the reference.
    var implementations: Set<String>? = nil
    /// Only rows whose label contains this text (for profiling one row of a workload).
    var row: String? = nil
    var quick = false
    var repetitions: Int? = nil
    var jsonPath: String? = nil
    var measureMemory = true

    static func parse(_ arguments: [String]) -> Options {
        var options = Options()
        var index = 0
        func value(_ flag: String) -> String {
            index += 1
            guard index < arguments.count else { usage("missing value after \(flag)") }
            return arguments[index]
        }
        while index < arguments.count {
            let argument = arguments[index]
            switch argument {
            case "--quick":
                options.quick = true
            case "--filter":
                options.filter = Set(value(argument).split(separator: ",").map { $0.uppercased() })
            case "--impl":
                options.implementations = Set(value(argument).split(separator: ",").map(String.init))
            case "--row":
                options.row = value(argument)
            case "--no-memory":
                options.measureMemory = false
            case "--json":
                options.jsonPath = value(argument)
            case "--repetitions", "--reps":
                guard let count = Int(value(argument)), count >= 1 else { usage("bad repetition count") }
                options.repetitions = count
            case "-h", "--help":
                usage(nil)
            default:
                usage("unknown argument \(argument)")
            }
            index += 1
        }
        return options
    }

    static func usage(_ message: String?) -> Never {
        if let message { FileHandle.standardError.write(Data("error: \(message)\n".utf8)) }
        print(
            """
            usage: tether-bench [--filter W1,W4] [--quick] [--repetitions N] [--json FILE]
              --filter        run only these workloads (W1 … W10, FILES)
              --quick         a smoke run: 3 repetitions, a tenth of the operations
              --repetitions   repetitions per implementation (default 9; at least 7 is the method)
              --json FILE     also write every measurement as JSON
              --no-memory     skip the bytes-per-live-subscription measurement
              --impl A,B      run only these implementations (e.g. Tether, for a profiler)
              --row TEXT      run only the rows whose label contains TEXT (e.g. "merge")
            """)
        exit(message == nil ? 0 : 64)
    }

    func includes(_ workload: String) -> Bool {
        filter.map { $0.contains(workload) } ?? true
    }
}

// MARK: - Clock and heap

@inline(__always)
func monotonicNanoseconds() -> UInt64 {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return UInt64(time.tv_sec) &* 1_000_000_000 &+ UInt64(time.tv_nsec)
}

func heapBytesInUse() -> Int { Int(tb_heap_bytes_in_use()) }

/// Heap bytes per live subscription: heap in use with `count` subscriptions held, minus before, over
/// `count`; median of three tries.
func bytesPerLiveSubscription(_ live: (Int, () -> Int) -> Int, count: Int) -> Double {
    var samples: [Double] = []
    for _ in 0..<3 {
        samples.append(Double(live(count, heapBytesInUse)) / Double(count))
    }
    return samples.sorted()[1]
}

// MARK: - Runner

final class Runner {
    let options: Options
    let repetitions: Int
    var measurements: [Measurement] = []
    var mismatches: [String] = []
    /// Lines printed after the table: the side figures of the rows that have some (W10).
    var notes: [String] = []

    init(options: Options) {
        self.options = options
        repetitions = options.repetitions ?? (options.quick ? 3 : 9)
    }

    /// Runs one row: a warm-up of every contender, then `repetitions` rounds in rotated order.
    func run(_ fullRow: Row) {
        var row = fullRow
        if let wanted = options.implementations {
            row.contenders = row.contenders.filter { wanted.contains($0.name) }
            if row.contenders.isEmpty { return }
        }
        let count = row.contenders.count
        var samples = Array(repeating: [Double](), count: count)
        var checksums = Array(repeating: UInt64?.none, count: count)
        var sideFigures = Array(repeating: [SideFigures](), count: count)

        func once(_ index: Int) -> Double {
            let body = row.contenders[index].prepare()
            let start = monotonicNanoseconds()
            let checksum = body()
            let end = monotonicNanoseconds()
            let operations = row.contenders[index].operations ?? row.operations
            let side = SideFigureSink.shared.take()
            if !side.isEmpty { sideFigures[index].append(side) }
            if let previous = checksums[index], previous != checksum {
                mismatches.append(
                    "\(row.label): \(row.contenders[index].name) is not deterministic (\(previous) then \(checksum))")
            }
            checksums[index] = checksum
            return Double(end - start) / Double(operations)
        }

        for index in 0..<count { _ = once(index) }  // warm-up
        sideFigures = Array(repeating: [], count: count)
        for round in 0..<repetitions {
            for offset in 0..<count {
                let index = (offset + round) % count
                samples[index].append(once(index))
            }
        }

        func referenceIndex(of index: Int) -> Int? {
            let name = row.contenders[index].reference ?? row.reference
            return row.contenders.firstIndex { $0.name == name }
        }
        // Every checksum must equal the row's reference's (every contender of a row computes the same thing)
        // or, in a scaling row, that of the same size in the reference series (`sameResultAs`).
        for index in 0..<count {
            let name = row.contenders[index].sameResultAs ?? row.contenders[index].reference ?? row.reference
            guard let checked = row.contenders.firstIndex(where: { $0.name == name }) else { continue }
            if checksums[index] != checksums[checked] {
                mismatches.append(
                    "\(row.label): checksum of \(row.contenders[index].name) is "
                        + "\(checksums[index].map(String.init) ?? "-"), \(row.contenders[checked].name) has "
                        + "\(checksums[checked].map(String.init) ?? "-")")
            }
        }
        for index in 0..<count {
            let contender = row.contenders[index]
            let reference = referenceIndex(of: index)
            let sorted = samples[index].sorted()
            let med = median(sorted)
            let bytes = contender.live.flatMap { live in options.measureMemory ? live : nil }.map {
                bytesPerLiveSubscription($0, count: contender.liveCount)
            }
            var measurement = Measurement(
                workload: row.workload, row: row.label, implementation: contender.name,
                unit: row.unit, operations: contender.operations ?? row.operations, medianNs: med,
                minNs: sorted.first ?? 0, maxNs: sorted.last ?? 0,
                ratio: reference.map { med / median(samples[$0]) }, reference: contender.reference ?? row.reference,
                goal: row.goals[contender.name], checksum: checksums[index] ?? 0, bytesPerLiveSubscription: bytes)
            measurement.pairedRatio = reference.map { reference in
                median(zip(samples[index], samples[reference]).map { $0 / $1 })
            }
            measurement.scale = contender.scale
            measurement.series = contender.series
            if let peer = contender.sameResultAs, peer != contender.name,
                let peerIndex = row.contenders.firstIndex(where: { $0.name == peer })
            {
                measurement.sameSize = peer
                measurement.sameSizePairedRatio = median(zip(samples[index], samples[peerIndex]).map { $0 / $1 })
            }
            let shares = sideFigures[index].compactMap(\.deliveredShare)
            let rates = sideFigures[index].compactMap(\.churnCyclesPerSecond)
            measurement.deliveredAtReturnPercent = shares.min().map { $0 * 100 }
            measurement.churnCyclesPerSecond = rates.isEmpty ? nil : median(rates)
            measurements.append(measurement)
            printLine(measurement)
            if let note = sideNote(measurement, runs: sideFigures[index].count) { notes.append(note) }
        }
    }

    /// "row | implementation: 0.21× closures ×10,000 (paired)" for a scaling row's size against the reference
    /// series at the same size; "…: 99.8 % delivered when the senders returned (lowest of 9 runs), …" (W10).
    func sideNote(_ m: Measurement, runs: Int) -> String? {
        var parts: [String] = []
        if let ratio = m.sameSizePairedRatio, let peer = m.sameSize {
            parts.append("\(format(ratio, 2))× \(peer) (paired)")
        }
        if let percent = m.deliveredAtReturnPercent {
            parts.append("\(format(percent, 2)) % delivered when the senders returned (lowest of \(runs) runs)")
        }
        if let rate = m.churnCyclesPerSecond {
            parts.append("\(format(rate, 0)) subscribe/dispose cycles per second by the churning threads (median)")
        }
        return parts.isEmpty ? nil : "\(m.row) | \(m.implementation): " + parts.joined(separator: ", ")
    }

    func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return 0 }
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }

    func printHeader() {
        print("| row | implementation | ns/op median | min | max | ratio | paired | goal | B/live sub | checksum |")
        print("|---|---|---:|---:|---:|---:|---:|---|---:|---:|")
    }

    func printLine(_ m: Measurement) {
        let ratio =
            m.implementation == m.reference ? "1.00 (ref)" : m.ratio.map { format($0, 2) + "×" } ?? "-"
        let paired = m.implementation == m.reference ? "" : m.pairedRatio.map { format($0, 2) + "×" } ?? "-"
        let bytes = m.bytesPerLiveSubscription.map { format($0, 0) } ?? ""
        print(
            "| \(m.row) | \(m.implementation) | \(format(m.medianNs, 1)) | \(format(m.minNs, 1)) | "
                + "\(format(m.maxNs, 1)) | \(ratio) | \(paired) | \(m.goal ?? "") | \(bytes) | \(m.checksum) |")
        fflush(nil)
    }

    func format(_ value: Double, _ digits: Int) -> String {
        String(format: "%.\(digits)f", value)
    }

    func report() -> Report {
        Report(
            date: ISO8601DateFormatter().string(from: Date()), machine: cpuModel(),
            cores: ProcessInfo.processInfo.activeProcessorCount,
            swift: compilerVersion(), repetitions: repetitions, quick: options.quick,
            measurements: measurements, checksumMismatches: mismatches, notes: notes)
    }
}

func cpuModel() -> String {
    guard let text = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8) else { return "unknown" }
    for line in text.split(separator: "\n") where line.hasPrefix("model name") {
        if let colon = line.firstIndex(of: ":") {
            return line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
    }
    return "unknown"
}

func compilerVersion() -> String {
    #if compiler(>=6.3)
        return "6.3+"
    #elseif compiler(>=6.2)
        return "6.2"
    #elseif compiler(>=6.1)
        return "6.1"
    #else
        return "6.0"
    #endif
}

/// Keeps a value alive and opaque to the optimizer.
@inline(never)
func blackHole<T>(_ value: T) {
    withExtendedLifetime(value) {}
}
