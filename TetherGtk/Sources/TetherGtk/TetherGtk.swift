// `import TetherGtk` brings GTK's C API (CGtk), TetherGio (GIO: GSettings, D-Bus, the monitors),
// TetherGObject (GObjectHandle, the main-context scheduler), the core (Observable), Bridges and Binding.
@_exported import Binding
@_exported import Bridges
@_exported import CGtk
@_exported import Observable
@_exported import TetherGObject
@_exported import TetherGio
