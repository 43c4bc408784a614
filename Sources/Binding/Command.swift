import Observable

/// An action a user can trigger — signing in, searching, saving — with its state as signals
/// (RAC's `RACCommand`).
///
/// A command turns an input into work (a signal) each time it is executed, and tells the UI what is
/// going on: ``executing`` (for a spinner), ``enabled`` (for the button: your `enabled:` signal AND
/// "not already running"), ``executionSignals`` (the results of each execution) and ``errors``.
///
/// ```swift
/// final class LoginViewModel: KeyPathObservable {
///     let form = LoginForm()                 // @Observed var username, password
///     let login: Command<Void, Bool, LoginError>
///
///     init(service: LoginService) {
///         let valid = Signal.combineLatest(form.observe(\.username), form.observe(\.password))
///             .map { !$0.isEmpty && !$1.isEmpty }
///         login = Command(enabled: valid) { [form] in service.signIn(form.username, form.password) }
///     }
/// }
///
/// button.bind(\.isEnabled, to: viewModel.login.enabled)
/// spinner.bind(\.isSpinning, to: viewModel.login.executing)
/// viewModel.login.execute(())                         // starts at once; .disabled error if not enabled
/// ```
///
/// ## Behaviour (RAC 2.5, with the differences noted)
/// - `execute(_:)` is eager: when the command is enabled, the work starts at once on the calling thread
///   and its events are replayed to whoever subscribes to the returned signal later. `executing` and
///   `enabled` change, and `executionSignals` sends the execution, *before* the work starts.
///   (RAC started the work on the main thread; Linux has no always-running main loop.)
/// - Executing a disabled command fails with ``CommandError/disabled`` and starts nothing: no work,
///   no state change, nothing on `errors`.
/// - `enabled` = the latest value of the `enabled:` signal (`true` until it sends one, as in RAC) AND,
///   unless `allowsConcurrentExecution`, no execution in flight.
/// - When an execution ends, the command stops counting it before the execution's own subscribers hear
///   the end, so a completion handler may execute the command again (as in RAC).
/// - The four outputs are sent on the thread where the change happens — RAC hopped to the main thread;
///   use `deliver(on:)` for that. They are serialized: subscribers never see two outputs at once, and
///   from one thread the order is execution start → `executing`/`enabled` → `executionSignals` →
///   the work's events → `errors` (if it failed) → `executing`/`enabled`.
/// - The outputs complete when the command is released; executions in flight keep running for their
///   subscribers (as in RAC). ``cancel()`` (not in RAC) stops executions in flight.
///
/// A command is thread-safe: execute it, cancel it and subscribe to it from any thread. It is
/// `Sendable` when its input and output are. The `execute` closure runs on the thread that calls
/// ``execute(_:)``; without `allowsConcurrentExecution`, two executions never overlap.
public final class Command<Input, Output, Failure: Error> {
    /// Whether several executions may run at once (RAC's `allowsConcurrentExecution`).
    ///
    /// ```swift
    /// let downloads = Command(allowsConcurrentExecution: true) { (url: URL) in fetch(url) }
    /// ```
    public let allowsConcurrentExecution: Bool

    private let work: (Input) -> Signal<Output, Failure>
    private let state: CommandState<Output, Failure>
    private let outputs: CommandOutputs<Output, Failure>
    private let enabledSubscription: any Disposable

    /// Creates a command whose executions run the signal `execute` returns for their input.
    ///
    /// ```swift
    /// let search = Command(enabled: queryIsValid) { (query: String) in
    ///     api.search(query)                      // Signal<[Result], APIError>
    /// }
    /// ```
    /// - Parameters:
    ///   - enabled: whether the command may run; it counts as `true` until it sends a value.
    ///   - allowsConcurrentExecution: whether `execute` may start while an execution is in flight.
    ///   - execute: builds the work for one execution (called on the thread that executes).
    public init(
        enabled: some SignalConvertible<Bool, Never> = Signal(value: true),
        allowsConcurrentExecution: Bool = false,
        execute: @escaping (Input) -> Signal<Output, Failure>
    ) {
        self.allowsConcurrentExecution = allowsConcurrentExecution
        self.work = execute
        let state = CommandState<Output, Failure>(allowsConcurrentExecution: allowsConcurrentExecution)
        let outputs = CommandOutputs<Output, Failure>()
        self.state = state
        self.outputs = outputs
        enabledSubscription = enabled.subscribe(next: { value in
            if let snapshot = state.setEnabledInput(value) { outputs.post(.state(snapshot)) }
        })
    }

    deinit {
        enabledSubscription.dispose()
        outputs.finish()
    }

    /// Starts an execution with `input` (RAC's `-execute:`).
    ///
    /// The work starts at once; the returned signal replays its events to any subscriber, however
    /// late, with failures wrapped in ``CommandError/failed(_:)``. Ignoring the result is fine: the
    /// work runs anyway (and its results also go to ``executionSignals`` and ``errors``).
    /// When the command is not enabled, the returned signal fails with ``CommandError/disabled`` and
    /// nothing else happens.
    ///
    /// ```swift
    /// viewModel.login.execute(()).subscribe(
    ///     next: { signedIn in print("signed in:", signedIn) },
    ///     error: { print($0) })            // .disabled, or .failed(LoginError)
    /// ```
    @discardableResult
    public func execute(_ input: Input) -> Signal<Output, CommandError<Failure>> {
        let replay = ReplaySubject<Output, Failure>()
        guard let (id, started) = state.begin(completing: replay) else {
            return Signal(error: .disabled)
        }
        let outputs = self.outputs
        outputs.post(.state(started))
        outputs.post(.execution(Self.withoutFailure(replay)))
        let state = self.state
        let subscription = work(input).subscribeEvents { event in
            guard event.isTerminal else {
                replay.send(event: event)
                return
            }
            // Stop counting the execution first, so its subscribers see the command idle (RAC).
            guard let ended = state.end(id) else { return }  // cancelled meanwhile: `cancel()` ends it
            replay.send(event: event)
            if case .error(let failure) = event { outputs.post(.error(failure)) }
            outputs.post(.state(ended))
        }
        if !state.attach(subscription, to: id) {
            subscription.dispose()  // cancelled while the work was starting
        }
        return replay.signal.mapError(CommandError.failed)
    }

    /// Cancels every execution in flight (an addition to RAC): disposes its work — for the `async`
    /// initializer, cancels its `Task` — and completes its signal without further values; the
    /// command becomes idle. Nothing is sent on ``errors``.
    ///
    /// ```swift
    /// cancelButton.addAction(for: .tapped) { viewModel.search.cancel() }
    /// ```
    public func cancel() {
        guard let (cancelled, snapshot) = state.cancelAll() else { return }
        for execution in cancelled {
            execution.subscription?.dispose()
            execution.replay.sendCompleted()
        }
        outputs.post(.state(snapshot))
    }

    /// Each execution's signal, sent when the execution starts (RAC's `executionSignals`).
    ///
    /// Each inner signal replays its execution's values and completes when the execution ends —
    /// also when it fails: failures go to ``errors`` instead. Only executions started after you
    /// subscribe are sent. Completes when the command is released.
    ///
    /// ```swift
    /// viewModel.login.executionSignals.switchToLatest()
    ///     .subscribe(next: { signedIn in print(signedIn ? "welcome" : "wrong password") })
    /// ```
    public var executionSignals: Signal<Signal<Output, Never>, Never> {
        outputs.executionSignals.signal
    }

    /// Whether an execution is in flight: the current value first, then each change
    /// (RAC's `executing`). Completes when the command is released.
    ///
    /// ```swift
    /// spinner.bind(\.isSpinning, to: viewModel.login.executing)   // false → true → false
    /// ```
    public var executing: Signal<Bool, Never> {
        outputs.executing.signal
    }

    /// Whether `execute` would start work now: the current value first, then each change
    /// (RAC's `enabled`). Completes when the command is released.
    ///
    /// ```swift
    /// loginButton.bind(\.isEnabled, to: viewModel.login.enabled)
    /// ```
    public var enabled: Signal<Bool, Never> {
        outputs.enabled.signal
    }

    /// The failures of executions, as values (RAC's `errors`): this signal itself never fails.
    /// Only failures of executions that end after you subscribe are sent.
    ///
    /// ```swift
    /// viewModel.login.errors.map { "Sign-in failed: \($0)" }.subscribe(next: { print($0) })
    /// ```
    public var errors: Signal<Failure, Never> {
        outputs.errors.signal
    }

    /// Whether an execution is in flight right now (synchronous; ``executing`` may lag behind by the
    /// change being delivered).
    ///
    /// ```swift
    /// if command.isExecuting { print("busy") }
    /// ```
    public var isExecuting: Bool { state.isExecuting }

    /// Whether `execute` would start work right now (synchronous).
    ///
    /// ```swift
    /// if command.isEnabled { command.execute(input) }
    /// ```
    public var isEnabled: Bool { state.isEnabled }

    private static func withoutFailure(_ replay: ReplaySubject<Output, Failure>) -> Signal<Output, Never> {
        replay.signal.catch { _ in Signal<Output, Never>.empty }
    }
}

// Safety: all mutable state lives in `CommandState` (behind its lock) and in subjects, which are
// thread-safe; `work` is only called by `execute`, under the conditions documented on the type.
extension Command: @unchecked Sendable where Input: Sendable, Output: Sendable {}

extension Command where Input: Sendable, Output: Sendable {
    /// Creates a command whose executions run an `async` function; disposing an execution's work —
    /// ``cancel()`` — cancels its `Task`.
    ///
    /// The function's typed error becomes the command's `Failure`; a closure that just says `throws`
    /// gives `any Error`.
    ///
    /// ```swift
    /// let login = Command(enabled: valid) { (credentials: Credentials) async throws(LoginError) -> Bool in
    ///     try await service.signIn(credentials)
    /// }
    /// ```
    /// - Parameters:
    ///   - enabled: whether the command may run; it counts as `true` until it sends a value.
    ///   - allowsConcurrentExecution: whether `execute` may start while an execution is in flight.
    ///   - work: the work of one execution, run in a new `Task`.
    public convenience init(
        enabled: some SignalConvertible<Bool, Never> = Signal(value: true),
        allowsConcurrentExecution: Bool = false,
        execute work: @escaping @Sendable (Input) async throws(Failure) -> Output
    ) {
        self.init(enabled: enabled, allowsConcurrentExecution: allowsConcurrentExecution) { input in
            Signal { observer in
                let task = Task {
                    do throws(Failure) {
                        let output = try await work(input)
                        observer.send(output)
                        observer.sendCompleted()
                    } catch {
                        observer.sendError(error)
                    }
                }
                return AnyDisposable { task.cancel() }
            }
        }
    }
}

/// A snapshot of a command's state, numbered so that late deliveries of older snapshots are ignored.
struct CommandSnapshot: Sendable {
    var version: UInt64
    var executing: Bool
    var enabled: Bool
}

/// What `CommandState` keeps for one execution in flight.
struct CommandExecution<Output, Failure: Error> {
    var subscription: (any Disposable)?
    let replay: ReplaySubject<Output, Failure>
}

/// The command's authoritative state. Decisions (may this execution start? has it already ended?)
/// are made here, under the lock; outputs are sent afterwards, through `CommandOutputs`.
final class CommandState<Output, Failure: Error>: @unchecked Sendable {
    // Safety: every stored var is only accessed under `lock`.
    private let lock = Lock()
    private let allowsConcurrentExecution: Bool
    private var enabledInput = true
    private var active: [UInt64: CommandExecution<Output, Failure>] = [:]
    private var nextID: UInt64 = 0
    private var version: UInt64 = 0

    init(allowsConcurrentExecution: Bool) {
        self.allowsConcurrentExecution = allowsConcurrentExecution
    }

    var isExecuting: Bool { lock.withLock { !active.isEmpty } }
    var isEnabled: Bool { lock.withLock { enabledLocked } }

    private var enabledLocked: Bool {
        enabledInput && (allowsConcurrentExecution || active.isEmpty)
    }

    private func snapshotLocked() -> CommandSnapshot {
        version += 1
        return CommandSnapshot(version: version, executing: !active.isEmpty, enabled: enabledLocked)
    }

    /// Registers a new execution if the command is enabled.
    func begin(completing replay: ReplaySubject<Output, Failure>) -> (UInt64, CommandSnapshot)? {
        lock.withLock {
            guard enabledLocked else { return nil }
            nextID += 1
            active[nextID] = CommandExecution(subscription: nil, replay: replay)
            return (nextID, snapshotLocked())
        }
    }

    /// Stores the execution's work subscription; `false` if the execution has already ended.
    func attach(_ subscription: any Disposable, to id: UInt64) -> Bool {
        lock.withLock {
            guard active[id] != nil else { return false }
            active[id]?.subscription = subscription
            return true
        }
    }

    /// Ends an execution; `nil` if it had already ended (cancelled).
    func end(_ id: UInt64) -> CommandSnapshot? {
        lock.withLock {
            guard active.removeValue(forKey: id) != nil else { return nil }
            return snapshotLocked()
        }
    }

    /// Records the latest value of the `enabled:` input; `nil` when it did not change.
    func setEnabledInput(_ value: Bool) -> CommandSnapshot? {
        lock.withLock {
            if enabledInput == value { return nil }
            enabledInput = value
            return snapshotLocked()
        }
    }

    /// Removes every execution in flight, in start order; `nil` when there was none.
    func cancelAll() -> ([CommandExecution<Output, Failure>], CommandSnapshot)? {
        lock.withLock {
            if active.isEmpty { return nil }
            let cancelled = active.sorted { $0.key < $1.key }.map(\.value)
            active.removeAll()
            return (cancelled, snapshotLocked())
        }
    }
}

/// One output update, posted in order into the command's serial inbox.
enum CommandUpdate<Output, Failure: Error> {
    case state(CommandSnapshot)
    case execution(Signal<Output, Never>)
    case error(Failure)
}

/// The four output subjects, fed by one serial inbox (a `Subject` with a single subscriber, which
/// serializes posts from any thread and queues reentrant ones) so that outputs are never sent
/// concurrently or out of order, and stale state snapshots are dropped.
final class CommandOutputs<Output, Failure: Error>: @unchecked Sendable {
    // Safety: only `let`s of thread-safe types; the handler's vars are touched by the inbox's
    // serialized delivery only.
    let executing = BehaviorSubject<Bool, Never>(value: false)
    let enabled = BehaviorSubject<Bool, Never>(value: true)
    let executionSignals = Subject<Signal<Output, Never>, Never>()
    let errors = Subject<Failure, Never>()
    private let inbox = Subject<CommandUpdate<Output, Failure>, Never>()

    init() {
        let executing = self.executing
        let enabled = self.enabled
        let executionSignals = self.executionSignals
        let errors = self.errors
        var lastVersion: UInt64 = 0
        var isExecuting = false
        var isEnabled = true
        inbox.subscribe(
            next: { update in
                switch update {
                case .state(let snapshot):
                    guard snapshot.version > lastVersion else { return }
                    lastVersion = snapshot.version
                    if snapshot.executing != isExecuting {
                        isExecuting = snapshot.executing
                        executing.send(isExecuting)
                    }
                    if snapshot.enabled != isEnabled {
                        isEnabled = snapshot.enabled
                        enabled.send(isEnabled)
                    }
                case .execution(let signal):
                    executionSignals.send(signal)
                case .error(let failure):
                    errors.send(failure)
                }
            },
            completed: {
                executing.sendCompleted()
                enabled.sendCompleted()
                executionSignals.sendCompleted()
                errors.sendCompleted()
            })
    }

    func post(_ update: CommandUpdate<Output, Failure>) {
        inbox.send(update)
    }

    /// Completes the outputs (after whatever is queued).
    func finish() {
        inbox.sendCompleted()
    }
}
