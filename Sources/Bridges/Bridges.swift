// Bridges re-exports the core, so `import Bridges` is enough to use signals from Linux event sources.
@_exported import Observable
