import Foundation
import Synchronization
import TetherGio

// tether-gio-bench: a D-Bus property change delivered through Tether (`DBusConnection.property(…)`)
// against a raw GDBus proxy's `g-properties-changed` callback, on the same private bus (issue 32; goal
// ≤ 1.2×). It starts its own `dbus-daemon` and its service in a second process (itself, `--serve`), then
// times rounds of `--changes` PropertiesChanged signals, each contender once per round in a rotated order;
// the ratio is the median over the rounds of Tether's time over the raw callback's in the same round.
//
//   swift run -c release --package-path TetherGtk tether-gio-bench [--changes N] [--rounds R]

let arguments = CommandLine.arguments
if let index = arguments.firstIndex(of: "--serve"), index + 1 < arguments.count {
    Service.serve(address: arguments[index + 1])
}

func option(_ name: String, default value: Int) -> Int {
    guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count,
        let number = Int(arguments[index + 1]), number > 0
    else { return value }
    return number
}

let changes = option("--changes", default: 5_000)
let rounds = option("--rounds", default: 9)
let goal = 1.2

// The private bus and the service.
let daemon = Process()
daemon.executableURL = URL(fileURLWithPath: "/usr/bin/env")
daemon.arguments = ["dbus-daemon", "--session", "--nofork", "--print-address=1"]
let daemonOutput = Pipe()
daemon.standardOutput = daemonOutput
daemon.standardError = FileHandle.nullDevice
do { try daemon.run() } catch { fail("cannot start dbus-daemon (Debian package dbus): \(error)") }
var addressLine = Data()
while !addressLine.contains(UInt8(ascii: "\n")) {
    let chunk = daemonOutput.fileHandleForReading.availableData
    if chunk.isEmpty { break }
    addressLine.append(chunk)
}
let address = String(decoding: addressLine, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
guard address.hasPrefix("unix:") else { fail("dbus-daemon printed no address") }
let service = Process()
service.executableURL = URL(fileURLWithPath: "/proc/self/exe")
service.arguments = ["--serve", address]
do { try service.run() } catch { fail("cannot start the service: \(error)") }
defer {
    service.terminate()
    daemon.terminate()
}

let client: DBusConnection
do { client = try DBusConnection(address: address) } catch { fail("cannot connect: \(error)") }
waitForService(client)

print("D-Bus property changes: \(changes) per run, \(rounds) rounds (+1 warm-up), contenders rotated per round")
var next: UInt32 = 1
var times: [Contender: [Double]] = [:]
var cpuTimes: [Contender: [Double]] = [:]
var paired: [Double] = []
var pairedCPU: [Double] = []
for round in 0...rounds {
    var thisRound: [Contender: Double] = [:]
    var thisRoundCPU: [Contender: Double] = [:]
    let order = round % 2 == 0 ? Contender.allCases : Contender.allCases.reversed()
    for contender in order {
        let measured = run(contender, client: client, changes: changes, first: next)
        next &+= UInt32(changes)
        thisRound[contender] = measured.wall / Double(changes)
        thisRoundCPU[contender] = measured.cpu / Double(changes)
    }
    guard round > 0 else { continue }  // the warm-up
    for (contender, time) in thisRound { times[contender, default: []].append(time) }
    for (contender, time) in thisRoundCPU { cpuTimes[contender, default: []].append(time) }
    paired.append(thisRound[.tether]! / thisRound[.raw]!)
    pairedCPU.append(thisRoundCPU[.tether]! / thisRoundCPU[.raw]!)
}

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted.count % 2 == 1
        ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
}

/// Prints one table: each contender's median, min and max ns per change, and the paired ratio.
func table(_ title: String, _ times: [Contender: [Double]], _ paired: [Double]) {
    print("")
    print(title.padding(toLength: 44, withPad: " ", startingAt: 0) + "median ns   min ns     max ns     paired ratio")
    for contender in Contender.allCases {
        let values = times[contender]!
        let ratio = contender == .raw ? "ref" : String(format: "%.2f×", median(paired))
        print(
            contender.label.padding(toLength: 44, withPad: " ", startingAt: 0)
                + String(format: "%9.0f  %9.0f  %9.0f   ", median(values), values.min()!, values.max()!) + ratio)
    }
}

table("delivery (wall time per change)", times, paired)
table("this process's CPU time per change", cpuTimes, pairedCPU)
let ratio = median(paired)
let cpuRatio = median(pairedCPU)
print("")
print(
    String(format: "D-Bus property change through Tether: %.2f× the raw g-properties-changed callback", ratio)
        + " (goal ≤ \(goal)×): " + (ratio <= goal ? "goal met" : "goal MISSED"))
print(
    String(
        format: "  (CPU time of the receiving process: %.2f×; the service and dbus-daemon are other processes)",
        cpuRatio))
