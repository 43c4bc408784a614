import Foundation
import TetherGtkDemo

// The RAC tutorials' login form and live search in a GTK 4 window (see TetherGtk/README.md).
let status = MainActor.assumeIsolated { runDemo(arguments: Array(CommandLine.arguments.dropFirst())) }
exit(status)
