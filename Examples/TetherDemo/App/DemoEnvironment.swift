import Observable

/// The schedulers and delays the demo runs on.
///
/// In a terminal: the UI on the main queue (driven by `dispatchMain()`), services on a background
/// `QueueScheduler`. In a script: one `TestScheduler` for both, so the virtual clock makes every run
/// identical and a `wait 2s` takes no real time.
struct DemoEnvironment {
    /// Where state changes, debouncing, timers and bindings run.
    let ui: any Scheduler
    /// Where the fake services do their work.
    let background: any Scheduler
    var signInLatency: Duration = .milliseconds(800)
    var searchLatency: Duration = .milliseconds(600)
    /// How long the welcome screen stays before the search opens.
    var welcomeDuration: Duration = .seconds(2)
}
