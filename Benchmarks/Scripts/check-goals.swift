// Compares a tether-bench JSON report with the goals it carries (the `goal` of each Tether row: issue 45's table
// and DESIGN.md's, kept in one place, Sources/tether-bench/Goals.swift) and prints, row by row, which goals are
// met and which are missed. This script holds no goal of its own.
//
// Usage: swift Benchmarks/Scripts/check-goals.swift REPORT.json
//
// A report, never a gate: it always exits 0 (even on an unreadable file, which it says), because wall-clock
// figures on the shared 2-core machines swing by more than some rows' distance to their goal. A `--quick`
// report (CI's smoke run: a tenth of the operations, three repetitions) is noisier still; it is flagged.
//
// Goals understood (the forms tether-bench writes):
// - `≤ N×`: the row's paired ratio is at most N: the median, over the rounds, of Tether's time over the reference's
//   time in the same round (a scaling row's contender names its own reference: the same implementation at the
//   row's base size, e.g. `Tether ×10000` against `Tether ×100`, so the ratio is how much the cost per subscriber
//   or per operator grew) (reports from before the paired ratio have only the ratio of the two medians, which is
//   used then and printed beside it otherwise). A round runs every contender of the row once, one after the
//   other, so the pair shares the machine's state of the moment; the ratio of medians takes the two medians from
//   different rounds, and a machine whose speed drifts by ±30 % between rounds (the shared 2-core machines) moves
//   it by more than some rows' distance to their goal;
// - `≤ N B`: the bytes per live subscription are at most N;
// - `flat` (W9): the cost must not grow with the number of other observed objects — judged on the ratios to
//   the same run's hand-written baseline, so that a machine slowing down between rows does not count: the
//   largest ratio of the family is at most 1.5 times the smallest (the noise seen between reruns).
// Anything else is printed as "not judged".
import Foundation

struct Measurement: Decodable {
    let workload: String
    let row: String
    let implementation: String
    let medianNs: Double
    let ratio: Double?
    let pairedRatio: Double?
    let reference: String
    let goal: String?
    let bytesPerLiveSubscription: Double?
    /// Scaling rows: the size this implementation ran at (absent in other rows and older reports).
    let scale: Int?
}

struct Report: Decodable {
    let date: String
    let machine: String
    let cores: Int
    let repetitions: Int
    let quick: Bool
    let measurements: [Measurement]
    let checksumMismatches: [String]
}

/// What one part of a goal came to.
enum Verdict {
    case met(String)
    case missed(String)
    case notJudged(String)
}

/// The tolerance of `flat`: the family's largest ratio over its smallest.
let flatTolerance = 1.5

func format(_ value: Double, _ digits: Int = 2) -> String { String(format: "%.\(digits)f", value) }

/// `≤ 2×` → 2; `≤ 1600 B` (or `≤ 1,600 B`) → 1600 (the number after `≤`, before the unit).
func bound(_ part: String, unit: String) -> Double? {
    var text = part.trimmingCharacters(in: .whitespaces)
    guard text.hasPrefix("≤"), text.hasSuffix(unit) else { return nil }
    text.removeFirst()
    text.removeLast(unit.count)
    return Double(text.replacingOccurrences(of: ",", with: "").trimmingCharacters(in: .whitespaces))
}

func judge(_ part: String, of measurement: Measurement, in family: [Measurement]) -> Verdict {
    if let limit = bound(part, unit: "×") {
        guard let ratio = measurement.pairedRatio ?? measurement.ratio else {
            return .notJudged("\(part): no ratio (reference not run)")
        }
        let medians = measurement.pairedRatio == nil ? "" : ", ratio of medians \(format(measurement.ratio ?? 0))×"
        // A scaling row's ratio is to the same implementation at another size: say which.
        let of = measurement.scale == nil ? "" : " of \(measurement.reference)"
        let text = "\(format(ratio))×\(of) (goal \(part)\(medians))"
        return ratio <= limit ? .met(text) : .missed(text)
    }
    if let limit = bound(part, unit: "B") {
        guard let bytes = measurement.bytesPerLiveSubscription else { return .notJudged("\(part): bytes not measured") }
        let text = "\(format(bytes, 0)) B per live subscription (goal \(part))"
        return bytes <= limit ? .met(text) : .missed(text)
    }
    if part == "flat" {
        let ratios = family.compactMap { $0.pairedRatio ?? $0.ratio }
        guard ratios.count == family.count, let low = ratios.min(), let high = ratios.max(), low > 0 else {
            return .notJudged("flat: a ratio is missing")
        }
        let spread = high / low
        let text =
            "ratios \(ratios.map { format($0) + "×" }.joined(separator: " / ")) across the family: "
            + "spread \(format(spread))× (flat: ≤ \(format(flatTolerance, 1))×)"
        return spread <= flatTolerance ? .met(text) : .missed(text)
    }
    return .notJudged("\(part): goal not understood")
}

let arguments = CommandLine.arguments.dropFirst()
guard arguments.count == 1, let path = arguments.first else {
    print("usage: swift Benchmarks/Scripts/check-goals.swift REPORT.json (tether-bench --json REPORT.json)")
    exit(0)
}
let report: Report
do {
    report = try JSONDecoder().decode(Report.self, from: Data(contentsOf: URL(fileURLWithPath: path)))
} catch {
    print("check-goals: cannot read \(path): \(error) (no goal checked)")
    exit(0)
}

print(
    "Goals (Goals.swift: issue 45, DESIGN.md) against \(path): \(report.date), \(report.machine), \(report.cores) cores, "
        + "\(report.repetitions) repetitions\(report.quick ? ", QUICK run: figures are indicative only" : "")")
if !report.checksumMismatches.isEmpty {
    print("(the report has \(report.checksumMismatches.count) checksum mismatch(es): its figures are suspect)")
}
var met = 0
var missed = 0
var notJudged = 0
var judgedFamilies: Set<String> = []
for measurement in report.measurements {
    guard let goal = measurement.goal else { continue }
    let family = report.measurements.filter {
        $0.workload == measurement.workload && $0.implementation == measurement.implementation && $0.goal == goal
    }
    var name = "\(measurement.row) [\(measurement.implementation)]"
    if goal == "flat" {
        // One goal for the whole family: judged once.
        guard judgedFamilies.insert("\(measurement.workload) \(measurement.implementation)").inserted else { continue }
        name = "\(measurement.workload), \(family.count) rows [\(measurement.implementation)]"
    }
    for part in goal.split(separator: ",") {
        switch judge(part.trimmingCharacters(in: .whitespaces), of: measurement, in: family) {
        case .met(let text):
            met += 1
            print("  met     \(name): \(text)")
        case .missed(let text):
            missed += 1
            print("  MISSED  \(name): \(text)")
        case .notJudged(let text):
            notJudged += 1
            print("  ?       \(name): \(text)")
        }
    }
}
print("\(met) goal(s) met, \(missed) missed, \(notJudged) not judged (a report: this never fails the run).")
exit(0)
