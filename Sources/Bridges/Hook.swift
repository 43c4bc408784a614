import Observable

/// A typed hook that a method invokes with its arguments, observed as a signal — Tether's
/// `rac_signalForSelector:` (Linux has no selectors or swizzling: the method calls its hook itself).
///
/// Invoking is thread-safe; each invocation is delivered to the current subscribers, serialized, and an
/// invocation from inside a subscriber is queued and delivered after the current one. When the hook is
/// deinitialized (with its owner), its subscriptions complete, like RAC's selector signals at `dealloc`.
/// Several arguments travel as a tuple.
///
/// ```swift
/// final class Editor {
///     let didSave = Hook<(path: String, bytes: Int)>()
///     func save(_ text: String, to path: String) {
///         // … write the file …
///         didSave.invoke((path, text.utf8.count))
///     }
/// }
/// let editor = Editor()
/// editor.didSave.subscribe(next: { print("saved", $0.path) })
/// ```
///
/// ## Turning a delegate protocol into signals
/// Write one proxy class that adopts the protocol and gives every method a hook; set the proxy as the
/// delegate and keep it alive (delegates are usually `weak`). Methods that return a value keep a plain
/// closure property for the answer (a signal has no return channel); an original delegate can still be
/// called from each method.
///
/// ```swift
/// final class Download { weak var delegate: (any DownloadDelegate)? }
/// protocol DownloadDelegate: AnyObject {
///     func download(_ download: Download, didReceive bytes: Int)
///     func downloadDidFinish(_ download: Download)
///     func downloadShouldRetry(_ download: Download) -> Bool
/// }
///
/// final class DownloadEvents: DownloadDelegate {
///     let received = Hook<(Download, Int)>()
///     let finished = Hook<Download>()
///     var shouldRetry: (Download) -> Bool = { _ in false }
///
///     func download(_ download: Download, didReceive bytes: Int) { received.invoke((download, bytes)) }
///     func downloadDidFinish(_ download: Download) { finished.invoke(download) }
///     func downloadShouldRetry(_ download: Download) -> Bool { shouldRetry(download) }
/// }
///
/// let download = Download()
/// let events = DownloadEvents()          // keep it: the download's delegate is weak
/// download.delegate = events
/// events.received.map(\.1).scan(0, +).take(until: events.finished).subscribe(next: { print($0, "bytes") })
/// ```
public final class Hook<Arguments>: SignalConvertible {
    private let subject = Subject<Arguments, Never>()

    /// Creates a hook with no subscribers.
    ///
    /// ```swift
    /// let didTap = Hook<Void>()
    /// ```
    public init() {}

    deinit {
        subject.sendCompleted()
    }

    /// Delivers `arguments` to every current subscriber (call this from the hooked method).
    ///
    /// ```swift
    /// let textChanged = Hook<String>()
    /// func textDidChange(_ text: String) { textChanged.invoke(text) }
    /// ```
    public func invoke(_ arguments: Arguments) {
        subject.send(arguments)
    }

    /// The invocations from now on, completing when the hook is deinitialized.
    ///
    /// ```swift
    /// let hook = Hook<String>()
    /// hook.signal.subscribe(next: { args in print(args) })
    /// ```
    public var signal: Signal<Arguments, Never> { subject.signal }
}

// Safety: the only state is a thread-safe subject; arguments cross threads only when they are Sendable.
extension Hook: @unchecked Sendable where Arguments: Sendable {}

extension Hook where Arguments == Void {
    /// Invokes a hook that takes no arguments.
    ///
    /// ```swift
    /// let didAppear = Hook<Void>()
    /// didAppear.invoke()
    /// ```
    public func invoke() {
        subject.send(())
    }
}
