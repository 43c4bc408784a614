// `import TetherGObject` brings GLib's, GObject's and GIO's C API (CGio), the core (Observable), Bridges and
// Binding — what a program that observes and binds GObjects needs.
@_exported import Binding
@_exported import Bridges
@_exported import CGio
@_exported import Observable
