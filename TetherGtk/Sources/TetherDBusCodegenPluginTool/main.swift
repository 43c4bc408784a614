import Foundation
import TetherDBusCodegen

// The build-tool plugin's tool: `tether-dbus-codegen` for XML files only (`--output FILE.swift FILE.xml`). It
// needs nothing but TetherDBusCodegen, so a build that uses the plugin builds only that module for the host,
// not TetherGio and the library beneath it.
exit(DBusCodegenCommand.run(Array(CommandLine.arguments.dropFirst()), introspect: nil))
