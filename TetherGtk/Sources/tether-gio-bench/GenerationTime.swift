import Foundation
import TetherDBusCodegen

/// Times generating Swift for every NetworkManager interface file installed under
/// `/usr/share/dbus-1/interfaces/` (Debian's network-manager-dev): the files read, parsed and generated in
/// this process, the best of five runs, against the goal of 2 s (issue 44). Skipped when none is installed.
func reportGenerationTime() {
    let directory = "/usr/share/dbus-1/interfaces"
    let names = ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? [])
        .filter { $0.hasPrefix("org.freedesktop.NetworkManager") && $0.hasSuffix(".xml") }.sorted()
    guard !names.isEmpty else {
        print("generating NetworkManager's interfaces: skipped (network-manager-dev is not installed)")
        return
    }
    var best = Duration.seconds(3600)
    var lines = 0
    for _ in 0..<5 {
        let start = ContinuousClock.now
        lines = 0
        for name in names {
            guard let data = FileManager.default.contents(atPath: directory + "/" + name) else {
                fail("cannot read \(name)")
            }
            do {
                let swift = try DBusCodegen.swiftSource(forIntrospection: String(decoding: data, as: UTF8.self))
                lines += swift.utf8.reduce(0) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) }
            } catch {
                fail("\(name): \(error)")
            }
        }
        best = min(best, ContinuousClock.now - start)
    }
    let seconds = Double(best.components.seconds) + Double(best.components.attoseconds) / 1e18
    print(
        String(
            format: "generating all %d NetworkManager interface files (%d lines of Swift): %.3f s, best of 5",
            names.count, lines, seconds) + " (goal < 2 s): " + (seconds < 2 ? "goal met" : "goal MISSED"))
}
