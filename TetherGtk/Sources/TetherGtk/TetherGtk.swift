// `import TetherGtk` brings GTK's C API (CGtk), the core (Observable), Bridges and Binding.
@_exported import Binding
@_exported import Bridges
@_exported import CGtk
@_exported import Observable
