// One import for the whole library: `import Tether` gives Observable (signals, operators, schedulers,
// @Observed), Bridges (notifications, control events, POSIX signals, files, processes) and Binding
// (bind, <~, channels, Command).
//
// It is also the module name to qualify Tether's types with. In a file that imports Swift's Observation
// framework, `Observable` names Observation's protocol, so `Observable.Signal` does not compile there;
// `Tether.Signal` does.
@_exported import Binding
@_exported import Bridges
@_exported import Observable
