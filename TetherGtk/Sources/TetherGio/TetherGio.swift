// `import TetherGio` brings TetherGObject (any GObject's properties and signals, the main-context
// scheduler), GLib's, GObject's and GIO's C API (CGio), the core (Observable), Bridges and Binding —
// everything a program without a display needs.
@_exported import Binding
@_exported import Bridges
@_exported import CGio
@_exported import Observable
@_exported import TetherGObject
