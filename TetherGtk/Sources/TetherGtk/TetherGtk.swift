// `import TetherGtk` brings GTK's C API (CGtk), TetherGio (GLib and GIO, the main-context scheduler), the
// core (Observable), Bridges and Binding.
@_exported import Binding
@_exported import Bridges
@_exported import CGtk
@_exported import Observable
@_exported import TetherGio
