// Binding re-exports the core, so `import Binding` is enough to bind signals to properties.
@_exported import Observable
