import Observable
import TetherEngine

/// An action a user can trigger — signing in, searching, saving — with its state as signals
/// (RAC's `RACCommand`).
///
/// A command turns an input into work (a signal) each time it is executed, and tells the UI what is
/// going on: ``executing`` (for a spinner), ``enabled`` (for the button: your `enabled:` signal AND
/// "not already running"), ``executionSignals`` (the results of each execution) and ``errors``.
///
/// ```swift
/// final class LoginForm: KeyPathObservable { @Observed var username = ""; @Observed var password = "" }
/// enum LoginError: Error { case wrongPassword }
/// struct LoginService {
///     func signIn(_ user: String, _ password: String) -> Signal<Bool, LoginError> { Signal(value: true) }
/// }
/// final class Button: BindingTarget { var isEnabled = true }
/// final class Spinner: BindingTarget { var isSpinning = false }
///
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
/// let viewModel = LoginViewModel(service: LoginService())
/// let button = Button(), spinner = Spinner()
/// button.bind(\.isEnabled, to: viewModel.login.enabled)
/// spinner.bind(\.isSpinning, to: viewModel.login.executing)
/// viewModel.login.execute(())                         // starts at once; .disabled error if not enabled
/// ```
///
/// ## Behaviour (RAC 2.5, with the differences noted)
/// - An execution goes, in order: the `execute` closure is called with the input (the command does
///   not count as executing yet) → `executing` and `enabled` send their new values →
///   `executionSignals` sends the execution → the closure's signal is subscribed, and the work starts.
///   So a spinner is already spinning, and the button disabled, when the work begins (RAC: they "send
///   updated values before the signal actually starts performing work").
/// - `execute(_:)` is eager: the work starts on the calling thread, normally before `execute`
///   returns, and its events are replayed to whoever subscribes to the returned signal later. RAC
///   always started the work later, on the main thread; Linux has no always-running main loop. Two
///   cases differ:
///   - `execute` called from inside a callback of one of the command's own outputs (say, retrying
///     from ``errors``): the new execution's updates are queued behind the callback in progress, and
///     its work starts right after them, on the same thread — after `execute` has returned.
///   - another thread delivering the command's outputs at that moment. For a command made in
///     nonisolated code, that thread runs the `execute` closure, the updates and the start of the
///     work when its current callback returns, and `execute` returns at once: the closure is not
///     `Sendable`, so its calls never overlap — not even with ``allowsConcurrentExecution`` (the
///     executions' work may still overlap once started: an `async` closure, or a signal that sends
///     later). For a command made on an actor, the work starts at once (on the actor), and that
///     thread delivers the new execution's updates when its current callback returns (waiting for
///     it could deadlock).
///
///   The first case also covers `execute` called from the synchronous events of an execution's own
///   work, or from a subscriber of the signal `execute` returned, and "the callback in progress" may be
///   another execution's synchronous work. A callback that then waits synchronously (a semaphore, a
///   blocking `first()`) for the new execution's result deadlocks: the work starts only after that
///   callback returns. Subscribe to the returned signal instead of waiting for it.
/// - Executing a disabled command fails with ``CommandError/disabled`` and does nothing else: the
///   closure is not called, no state changes, nothing is sent on `errors`.
/// - `enabled` = the latest value of the `enabled:` signal (`true` until it sends one, as in RAC) AND,
///   unless ``allowsConcurrentExecution``, no execution in flight. It is re-evaluated when either
///   changes, including when ``allowsConcurrentExecution`` is set.
/// - Without concurrent execution, two executions never overlap: while the closure of one execution
///   runs, another `execute` fails with ``CommandError/disabled`` even though `enabled` has not
///   turned `false` yet. (RAC checked and counted at two different moments, so a second execution
///   could slip in there.)
/// - An execution's failure goes to the signal `execute` returned (as ``CommandError/failed(_:)``)
///   and to ``errors``; its inner signal on ``executionSignals`` just completes (as in RAC).
/// - When an execution ends, the command stops counting it before the execution's own subscribers
///   hear the end, so a completion handler may execute the command again (as in RAC).
/// - The four outputs are sent on the thread where the change happens — RAC hopped to the main thread;
///   use `deliver(on:)` for that. They are serialized and sent in the order of the changes:
///   subscribers never see two outputs at once, and from one thread the order is
///   `executing`/`enabled` → `executionSignals` → the work's events → `errors` (if it failed) →
///   `executing`/`enabled`.
/// - The outputs complete when the command is released; executions in flight keep running for their
///   subscribers (as in RAC). ``cancel()`` (not in RAC) stops executions in flight.
///
/// A command is thread-safe: execute it, cancel it, set ``allowsConcurrentExecution`` and subscribe to
/// it from any thread. It is `Sendable` when its input and output are. The `execute` closure runs on
/// the command's actor when it was made in actor-isolated code; made in nonisolated code, it runs on
/// the thread that calls ``execute(_:)``, one call at a time (see above).
public final class Command<Input, Output, Failure: Error> {
    /// Whether several executions may run at once (RAC's `allowsConcurrentExecution`); settable at any
    /// time, from any thread.
    ///
    /// Setting it re-evaluates ``enabled`` at once, as in RAC: turning it on while an execution runs
    /// makes the command enabled again (if its `enabled:` signal allows); turning it off while
    /// executions run makes it disabled until the last of them ends. Executions in flight are never
    /// affected — they keep running.
    ///
    /// ```swift
    /// let downloads = Command { (url: URL) in try await Task.sleep(for: .seconds(1)); return url.lastPathComponent }
    /// downloads.allowsConcurrentExecution = true      // RAC: command.allowsConcurrentExecution = YES
    /// downloads.execute(URL(string: "https://example.org/a")!)
    /// downloads.execute(URL(string: "https://example.org/b")!)   // runs alongside the first
    /// ```
    public var allowsConcurrentExecution: Bool {
        get { core.allowsConcurrentExecution }
        set { core.setAllowsConcurrentExecution(newValue) }
    }

    private let work: (Input) -> Signal<Output, Failure>
    /// Where `work` runs: on the actor of the code that made the command, through one hop, in the order
    /// of the executions (`nil`: nonisolated code).
    private let hop: ActorHop?
    private let core: CommandCore<Output, Failure>
    private let enabledSubscription: any Disposable

    /// Creates a command whose executions run the signal `execute` returns for their input.
    ///
    /// ```swift
    /// func search(_ query: String) -> Signal<[String], any Error> { Signal(value: [query]) }
    /// let queryIsValid = Subject<Bool, Never>()
    /// let searchCommand = Command(enabled: queryIsValid) { (query: String) in
    ///     search(query)                          // Signal<[String], any Error>
    /// }
    /// ```
    /// - Parameters:
    ///   - enabled: whether the command may run; it counts as `true` until it sends a value. A signal
    ///     that sends at once (`Signal(value: false)`) sets ``enabled`` before `init` returns.
    ///   - allowsConcurrentExecution: whether `execute` may start while an execution is in flight;
    ///     the initial value of ``allowsConcurrentExecution``, which you may change later.
    ///   - isolation: the actor of the calling code, where `execute` runs (see "Isolation" in `Observable`).
    ///   - execute: builds the work for one execution, before the command counts the execution. Made in
    ///     actor-isolated code (a `@MainActor` view model), it runs on that actor: at once when
    ///     ``execute(_:)`` is called there, else queued to it (the execution then counts at once and its
    ///     work starts when the actor runs it). Made in nonisolated code, it runs on the thread that
    ///     calls ``execute(_:)``.
    public init(
        enabled: some SignalConvertible<Bool, Never> = Signal(value: true),
        allowsConcurrentExecution: Bool = false,
        isolation: isolated (any Actor)? = #isolation,
        execute: @escaping (Input) -> Signal<Output, Failure>
    ) {
        self.work = execute
        let isolation = CallerIsolation(isolation)
        self.hop = isolation.map(ActorHop.init)
        let core = CommandCore<Output, Failure>(allowsConcurrentExecution: allowsConcurrentExecution)
        self.core = core
        enabledSubscription = enabled.subscribe(next: { value in core.setEnabledInput(value) })
    }

    /// Creates a command whose executions run a synchronous function, inside ``execute(_:)``: the
    /// function has run, and the execution has ended, when `execute` returns (except when `execute` is
    /// called from one of the command's own callbacks; see the type's notes).
    ///
    /// This is the initializer a closure without `await` picks: `Command { print("signing in") }`
    /// prints before `execute(())` returns. A closure that returns a `Signal` picks the `Signal`
    /// initializer instead (its signal is the work), and one that awaits picks the `async` initializer. The function's typed error becomes
    /// the command's `Failure` (`Never` when it does not throw).
    ///
    /// ```swift
    /// let signIn = Command { print("signing in") }
    /// signIn.execute(())                          // prints signing in — before execute returns
    /// let save = Command { (name: String) in name.count }
    /// save.execute("notes.txt").subscribe(next: { print($0) })   // 9
    /// ```
    /// - Parameters:
    ///   - enabled: whether the command may run; it counts as `true` until it sends a value.
    ///   - allowsConcurrentExecution: the initial value of ``allowsConcurrentExecution``.
    ///   - isolation: the actor of the calling code, where `work` runs (as for the `Signal` initializer).
    ///   - work: the work of one execution, run once the execution has started (after ``executing``
    ///     turned `true`): on the command's actor when it was made in actor-isolated code, else on the
    ///     thread that executes; its result is the execution's one value, its error the execution's
    ///     failure.
    @_disfavoredOverload
    public convenience init(
        enabled: some SignalConvertible<Bool, Never> = Signal(value: true),
        allowsConcurrentExecution: Bool = false,
        isolation: isolated (any Actor)? = #isolation,
        execute work: @escaping (Input) throws(Failure) -> Output
    ) {
        self.init(enabled: enabled, allowsConcurrentExecution: allowsConcurrentExecution, isolation: isolation) {
            input in
            // Runs where `execute(_:)`'s work runs: on the command's actor, if it has one (see init).
            Signal.uncheckedCreate { observer in
                do throws(Failure) {
                    observer.send(try work(input))
                    observer.sendCompleted()
                } catch {
                    observer.sendError(error)
                }
                return nil
            }
        }
    }

    deinit {
        enabledSubscription.dispose()
        core.finish()
    }

    /// Starts an execution with `input` (RAC's `-execute:`).
    ///
    /// When the command is enabled, this calls the `execute` closure with `input`, then updates
    /// ``executing`` and ``enabled``, sends the execution on ``executionSignals``, and only then
    /// subscribes to the closure's signal (see the type's notes for the two cases where the timing
    /// differs: `execute` called from the command's own callbacks, or while another thread delivers
    /// them). The returned signal replays the execution's events to any subscriber, however late, with
    /// failures wrapped in ``CommandError/failed(_:)``. Ignoring the result is fine: the work runs
    /// anyway (and its results also go to ``executionSignals`` and ``errors``).
    ///
    /// When the command is not enabled, the returned signal fails with ``CommandError/disabled`` and
    /// nothing else happens: the closure is not called. If ``cancel()`` is called while the closure
    /// runs, the execution never starts and the returned signal just completes.
    ///
    /// ```swift
    /// enum LoginError: Error { case wrongPassword }
    /// let login = Command { () async throws(LoginError) -> Bool in true }
    /// login.execute(()).subscribe(
    ///     next: { signedIn in print("signed in:", signedIn) },
    ///     error: { print($0) })            // (on failure: .disabled, or .failed(LoginError))
    /// ```
    @discardableResult
    public func execute(_ input: Input) -> Signal<Output, CommandError<Failure>> {
        guard let admission = core.admit() else {
            return Signal(error: .disabled)
        }
        let replay = ReplaySubject<Output, Failure>()
        let work = self.work
        if let hop {
            // RAC calls the signal block before the command counts the execution. Off the command's
            // actor, the block is queued to the actor and the execution counts at once.
            let signal: Signal<Output, Failure>
            if !hop.isolation.isCurrent {
                signal = Signal.uncheckedDeferred { work(input) }.started(on: hop)
            } else {
                signal = work(input)
            }
            core.begin(admission, running: signal, replay: replay)
        } else {
            // Made in nonisolated code, the closure is not `Sendable`: it runs inside the command's
            // serialized delivery, so two executions never run it at once (see the type's notes).
            core.startInOrder { [core] in
                core.begin(admission, running: work(input), replay: replay)
            }
        }
        return replay.signal.mapError(CommandError.failed)
    }

    /// Cancels every execution in flight (an addition to RAC): disposes its work — for the `async`
    /// initializer, cancels its `Task` — and completes its signal without further values; the
    /// command becomes idle. Nothing is sent on ``errors``.
    ///
    /// ```swift
    /// let search = Command { (query: String) in try await Task.sleep(for: .seconds(1)); return [query] }
    /// search.execute("swift")
    /// search.cancel()   // e.g. from a Cancel button's action
    /// ```
    public func cancel() {
        core.cancelAll()
    }

    /// Each execution's signal, sent when the execution starts (RAC's `executionSignals`).
    ///
    /// Each inner signal replays its execution's values and completes when the execution ends —
    /// also when it fails: failures go to ``errors`` instead (RAC caught them the same way). Only
    /// executions started after you subscribe are sent. Completes when the command is released.
    ///
    /// ```swift
    /// let login = Command { true }   // signs in
    /// login.executionSignals.switchToLatest()
    ///     .subscribe(next: { signedIn in print(signedIn ? "welcome" : "wrong password") })
    /// ```
    public var executionSignals: Signal<Signal<Output, Never>, Never> {
        core.executionSignals.signal
    }

    /// Whether an execution is in flight: the current value first, then each change
    /// (RAC's `executing`). It turns `true` after the `execute` closure returned and before the work
    /// starts. Completes when the command is released.
    ///
    /// ```swift
    /// final class Spinner: BindingTarget { var isSpinning = false }
    /// let spinner = Spinner(), login = Command { true }
    /// spinner.bind(\.isSpinning, to: login.executing)   // false → true → false
    /// ```
    public var executing: Signal<Bool, Never> {
        core.executing.signal
    }

    /// Whether the command may be executed: the current value first, then each change
    /// (RAC's `enabled`): the latest value of the `enabled:` signal AND, unless
    /// ``allowsConcurrentExecution``, no execution in flight. Completes when the command is released.
    ///
    /// ```swift
    /// final class Button: BindingTarget { var isEnabled = true }
    /// let loginButton = Button(), login = Command { true }
    /// loginButton.bind(\.isEnabled, to: login.enabled)
    /// ```
    public var enabled: Signal<Bool, Never> {
        core.enabled.signal
    }

    /// The failures of executions, as values (RAC's `errors`): this signal itself never fails.
    /// Only failures of executions that end after you subscribe are sent — also of executions that
    /// started before.
    ///
    /// ```swift
    /// enum LoginError: Error { case wrongPassword }
    /// let login = Command { () async throws(LoginError) -> Bool in throw .wrongPassword }
    /// login.errors.map { "Sign-in failed: \($0)" }.subscribe(next: { print($0) })
    /// ```
    public var errors: Signal<Failure, Never> {
        core.errors.signal
    }

    /// Whether an execution is in flight right now (synchronous; ``executing`` may lag behind by the
    /// change being delivered). `false` while the `execute` closure of the first execution runs.
    ///
    /// ```swift
    /// let command = Command { print("saving") }
    /// if command.isExecuting { print("busy") }
    /// ```
    public var isExecuting: Bool { core.isExecuting }

    /// Whether `execute` would start work right now (synchronous). Unlike ``enabled``, it is already
    /// `false` while the `execute` closure of an execution runs, when concurrent execution is off.
    ///
    /// ```swift
    /// let command = Command { (name: String) in print("saving", name) }
    /// if command.isEnabled { command.execute("notes.txt") }
    /// ```
    public var isEnabled: Bool { core.isEnabled }
}

// Safety: all mutable state lives in `CommandCore` (behind its lock) and in subjects, which are
// thread-safe; `work` is immutable and only called by `execute`, under the conditions documented on
// the type.
extension Command: @unchecked Sendable where Input: Sendable, Output: Sendable {}

extension Command where Input: Sendable, Output: Sendable {
    /// Creates a command whose executions run an `async` function; disposing an execution's work —
    /// ``cancel()`` — cancels its `Task`.
    ///
    /// The function's typed error becomes the command's `Failure`; a closure that just says `throws`
    /// gives `any Error`.
    ///
    /// ```swift
    /// struct Credentials: Sendable { var user, password: String }
    /// enum LoginError: Error { case wrongPassword }
    /// @Sendable func signIn(_ credentials: Credentials) async throws(LoginError) -> Bool { true }
    /// let valid = Subject<Bool, Never>()
    /// let login = Command(enabled: valid) { (credentials: Credentials) async throws(LoginError) -> Bool in
    ///     try await signIn(credentials)
    /// }
    /// ```
    /// - Parameters:
    ///   - enabled: whether the command may run; it counts as `true` until it sends a value.
    ///   - allowsConcurrentExecution: the initial value of ``allowsConcurrentExecution``.
    ///   - work: the work of one execution, run in a new `Task` once the execution has started. Written
    ///     in actor-isolated code (a `@MainActor` view model), it takes that actor's isolation, as a
    ///     `Task`'s closure does, and runs there: it may read the view model's state
    ///     (`Command { () async -> Bool in !self.username.isEmpty }`). Written in nonisolated code it runs
    ///     on the concurrent executor and must be `@Sendable`.
    ///
    /// A closure that does not `await` picks the synchronous initializer instead, which runs inside
    /// `execute`; this one is disfavoured so that it never wins over it.
    @_disfavoredOverload
    public convenience init(
        enabled: some SignalConvertible<Bool, Never> = Signal(value: true),
        allowsConcurrentExecution: Bool = false,
        @_inheritActorContext execute work: @escaping @Sendable @isolated(any) (Input) async throws(Failure) -> Output
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
