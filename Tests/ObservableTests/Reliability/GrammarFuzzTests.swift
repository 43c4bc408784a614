import Foundation
import Observable
import TetherEngine
import TetherTestSupport
import XCTest

/// Property-based test: random pipelines on random virtual-time schedules.
///
/// Every case is built from a 64-bit seed (SplitMix64), so it replays exactly:
///
/// - `TETHER_FUZZ_SEED=0x…` runs that one case and prints its pipeline and events;
/// - `TETHER_FUZZ_BASE_SEED=<n>` (or `random`) changes which cases a run draws (default: fixed);
/// - `TETHER_FUZZ_CASES=<n>` (default 20,000) and `TETHER_FUZZ_SECONDS=<s>` (default 40) bound a run:
///   it stops at whichever comes first and prints how many cases ran.
///
/// Every case checks, for every subscription of every stage of the pipeline (stage probes see what
/// each operator sends to its downstream): the grammar `next* (error | completed)?`, nothing after the
/// stage's lifetime was disposed, nothing after the test disposed the result; then that disposing
/// (or the termination of) the result disposed every stage's lifetime and every source subscription,
/// that no scheduled work is left running, and that ``ResourceCounter`` is back where it started.
/// One case in three uses only map/filter/take/skip/scan/distinctUntilChanged/startWith/concat/merge
/// on cold and synchronous sources and is compared, event by event and time by time, against a
/// reference model.
final class GrammarFuzzTests: XCTestCase {
    struct Outcome {
        var description = ""
        var usedModel = false
        var failures: [String] = []
        var log: [String] = []
    }

    static let horizon = Duration.seconds(80)

    func testRandomPipelinesKeepTheGrammarPropagateDisposalAndMatchTheReferenceModel() {
        let environment = ProcessInfo.processInfo.environment
        if let text = environment["TETHER_FUZZ_SEED"] {
            guard let seed = Self.parseSeed(text) else { return XCTFail("TETHER_FUZZ_SEED: not a number: \(text)") }
            let outcome = Self.run(seed: seed, verbose: true)
            print("GrammarFuzz seed \(Self.hex(seed)) (model: \(outcome.usedModel)):\n  \(outcome.description)")
            for line in outcome.log { print("  " + line) }
            for failure in outcome.failures { XCTFail("seed \(Self.hex(seed)): \(failure)") }
            return
        }
        let baseSeed: UInt64
        switch environment["TETHER_FUZZ_BASE_SEED"] {
        case "random"?: baseSeed = UInt64.random(in: 0...UInt64.max)
        case let text?: baseSeed = Self.parseSeed(text) ?? 0x7E7E_2025
        case nil: baseSeed = 0x7E7E_2025
        }
        let maximumCases = environment["TETHER_FUZZ_CASES"].flatMap(Int.init) ?? 20_000
        let budget = environment["TETHER_FUZZ_SECONDS"].flatMap(Double.init) ?? 40
        let started = Date()
        var ran = 0
        var modelCases = 0
        var failed = 0
        var seeds = FuzzRandom(seed: baseSeed)
        while ran < maximumCases && Date().timeIntervalSince(started) < budget {
            let seed = seeds.next()
            let outcome = Self.run(seed: seed, verbose: false)
            ran += 1
            if outcome.usedModel { modelCases += 1 }
            if !outcome.failures.isEmpty {
                failed += 1
                if failed <= 5 {
                    XCTFail(
                        """
                        fuzz case failed — replay with TETHER_FUZZ_SEED=\(Self.hex(seed)) swift test --filter GrammarFuzzTests
                          pipeline: \(outcome.description)
                          \(outcome.failures.joined(separator: "\n  "))
                        """)
                }
            }
        }
        let seconds = Date().timeIntervalSince(started)
        print(
            "GrammarFuzz: \(ran) cases (\(modelCases) against the reference model), \(failed) failed, "
                + "base seed \(Self.hex(baseSeed)), \(String(format: "%.1f", seconds)) s")
        XCTAssertGreaterThanOrEqual(ran, min(maximumCases, 1_000), "too few cases in the time budget")
    }

    /// Runs one case; everything it builds is released before the resource count is compared.
    static func run(seed: UInt64, verbose: Bool) -> Outcome {
        let before = ResourceCounter.total
        var outcome = runCase(seed: seed, verbose: verbose)
        let leaked = ResourceCounter.total - before
        if ResourceCounter.isEnabled && leaked != 0 {
            outcome.failures.append("ResourceCounter: \(leaked) Tether object(s) still alive after the case")
        }
        return outcome
    }

    private static func runCase(seed: UInt64, verbose: Bool) -> Outcome {
        var generator = FuzzGenerator(seed: seed, forModel: seed % 3 == 0)
        let node = generator.node(depth: generator.random.int(1...5))
        var outcome = Outcome()
        outcome.usedModel = generator.forModel
        outcome.description = node.description
        if !generator.hot.isEmpty {
            outcome.description +=
                " where " + generator.hot.enumerated().map { "hot#\($0)=\($1)" }.joined(separator: ", ")
        }
        // Dispose the result at a whole second (never the instant of a model event: those carry lane
        // nanoseconds), in about one case in three.
        let subscribeAt: Duration =
            generator.forModel || !generator.random.chance(30) ? .zero : .seconds(generator.random.int(1...6))
        let disposeAt: Duration? =
            generator.random.chance(35) ? subscribeAt + .seconds(generator.random.int(1...30)) : nil
        if let disposeAt { outcome.description += " (disposed at \(FuzzFormat.time(disposeAt)))" }
        if subscribeAt > .zero { outcome.description += " (subscribed at \(FuzzFormat.time(subscribeAt)))" }

        let fuzz = FuzzCase(hot: generator.hot)
        let scheduler = fuzz.scheduler
        let root = fuzz.build(node)
        let received = ReceivedEvents()
        let subscription = SubscriptionSlot()
        let start = UncheckedBox({
            subscription.value = root.subscribeEvents { event in
                if received.terminated { fuzz.violation("result: \(event) after a terminal event") }
                if fuzz.rootDisposedByTest { fuzz.violation("result: \(event) after dispose() returned") }
                if event.isTerminal { received.terminated = true }
                received.events.append(TimedFuzzEvent(time: scheduler.now, event: event))
            }
        })
        if subscribeAt == .zero { start.value() } else { scheduler.schedule(after: subscribeAt) { start.value() } }
        if let disposeAt {
            scheduler.schedule(after: disposeAt) {
                subscription.value?.dispose()
                fuzz.rootDisposedByTest = true
            }
        }
        scheduler.advance(to: horizon)
        if !received.terminated && !fuzz.rootDisposedByTest {
            subscription.value?.dispose()
            fuzz.rootDisposedByTest = true
        }
        // Disposal propagation: every stage's lifetime and every cold source subscription is disposed.
        let open = fuzz.stages.filter { !$0.lifetimeDisposed }
        if !open.isEmpty {
            fuzz.violation(
                "\(open.count) stage subscription(s) not disposed after the result ended, e.g. \(open[0].label)")
        }
        if fuzz.coldDisposals != fuzz.coldSubscriptions {
            fuzz.violation("cold sources: \(fuzz.coldSubscriptions) subscribed, \(fuzz.coldDisposals) disposed")
        }
        // What is still scheduled must be the hot sources' own sends (finite): no timer left running.
        let leftover = scheduler.run(limit: 10_000)
        if leftover >= 10_000 { fuzz.violation("scheduled work keeps running after the result ended") }

        if generator.forModel {
            var expected = FuzzModel.events(node, start: .zero)
            if let disposeAt { expected = expected.filter { $0.time < disposeAt } }
            let actual = received.events
            let same =
                expected.count == actual.count
                && zip(expected, actual).allSatisfy { $0.time == $1.time && $0.event == $1.event }
            if !same {
                fuzz.violation(
                    "differs from the reference model:\n    expected \(FuzzFormat.events(expected))\n    actual   \(FuzzFormat.events(actual))"
                )
            }
        }
        if verbose {
            outcome.log.append("events: \(FuzzFormat.events(received.events))")
            outcome.log.append(
                "stage subscriptions: \(fuzz.stages.count), cold subscriptions: \(fuzz.coldSubscriptions)")
        }
        outcome.failures = fuzz.violations
        return outcome
    }

    static func parseSeed(_ text: String) -> UInt64? {
        let trimmed = text.trimmingCharacters(in: .whitespaces).lowercased()
        if trimmed.hasPrefix("0x") { return UInt64(trimmed.dropFirst(2), radix: 16) }
        return UInt64(trimmed)
    }

    static func hex(_ seed: UInt64) -> String { "0x" + String(seed, radix: 16) }
}

/// The result's events, recorded on the test thread.
final class ReceivedEvents: @unchecked Sendable {
    var events: [TimedFuzzEvent] = []
    var terminated = false
}

/// The result's subscription, set when it starts.
final class SubscriptionSlot: @unchecked Sendable {
    var value: (any Disposable)?
}
