import TetherEngine

/// Why a blocking helper — ``SignalConvertible/first()``, ``SignalConvertible/first(default:)``,
/// ``SignalConvertible/waitUntilCompleted()``, ``SignalConvertible/toArray()`` — did not return a
/// result.
///
/// The signal's own failure arrives typed, as ``failed(_:)``.
///
/// ```swift
/// enum IOError: Error { case closed }
/// let download = Signal<Int, IOError>(error: .closed)
/// do {
///     _ = try download.toArray()
/// } catch .failed(let error) {
///     print("download failed:", error)   // download failed: closed
/// } catch {
///     print(error)
/// }
/// ```
public enum BlockingError<Failure: Error>: Error, CustomStringConvertible {
    /// The signal failed with this error.
    case failed(Failure)
    /// The helper was called on the main thread (or on the main queue) and the signal did not finish
    /// during subscription: waiting would block the main thread, and deadlock if the signal needs the
    /// main queue to make progress. The subscription was disposed.
    case wouldBlockMainThread
    /// The subscription ended without a terminal event: its source went away (it can never send
    /// again), or something disposed it.
    case interrupted

    /// A sentence saying what happened.
    ///
    /// ```swift
    /// print(BlockingError<Never>.wouldBlockMainThread)
    /// ```
    public var description: String {
        switch self {
        case .failed(let error):
            return "the signal failed: \(error)"
        case .wouldBlockMainThread:
            return "refused to block the main thread waiting for a signal that did not finish during "
                + "subscription (it could deadlock, e.g. if the signal delivers on QueueScheduler.main); "
                + "call this from a background thread, or subscribe instead"
        case .interrupted:
            return "the subscription ended without a terminal event (its source went away or it was disposed)"
        }
    }
}

extension BlockingError: Equatable where Failure: Equatable {}
