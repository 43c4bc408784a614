import TetherEngine

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A runtime diagnostic about an observation that cannot work as written.
///
/// Tether never hands out a silently dead signal. When an observation cannot follow what it was asked
/// to follow, it reports an `ObservationWarning` to ``ObservationWarning/handler`` and behaves as
/// documented for that case:
///
/// - ``Kind-swift.enum/keyPathObservesNothing``: `observe(\.path)` read no `@Observed` (or
///   Observation-tracked) property, e.g. a plain `var`. The signal sends the current value, then completes.
/// - ``Kind-swift.enum/noLifetimeStorage``: the object owns no storage through which Tether can see it
///   deinitialize (a ``KeyPathObservable`` class without any `@Observed` property, or an Observation
///   class without the `@Observable` macro's registrar). `deallocated` then never completes, and a
///   key-path observation of such an object completes on the next change after the object is gone.
///
/// - ``Kind-swift.enum/malformedNotification``: a post did not decode into a `TypedNotification`'s
///   payload (module Bridges). The signal skipped it and keeps observing.
///
/// - ``Kind-swift.enum/userDefaultsChangesNotPosted``: a `UserDefaults` channel terminal was made on
///   Linux, where direct `set(_:forKey:)` calls post no change notification (module Binding).
///
/// The default handler prints each distinct warning once to standard error. Replace it to route
/// warnings elsewhere (a logger, a test).
///
/// ```swift
/// ObservationWarning.handler = { warning in FileHandle.standardError.write(Data("\(warning)\n".utf8)) }
/// ```
public struct ObservationWarning: Sendable, Hashable, CustomStringConvertible {
    /// The kinds of warnings.
    ///
    /// ```swift
    /// ObservationWarning.handler = { warning in
    ///     if warning.kind == .keyPathObservesNothing { print("nothing to observe:", warning.subject) }
    /// }
    /// ```
    public enum Kind: Sendable, Hashable {
        /// The key path read no observable property: the signal sent the current value and completed.
        ///
        /// ```swift
        /// final class Settings: KeyPathObservable { @Observed var theme = ""; var plainVar = 0 }
        /// let settings = Settings()
        /// settings.observe(\.plainVar)   // reports .keyPathObservesNothing
        /// ```
        case keyPathObservesNothing
        /// The object owns no storage that tells Tether when it deinitializes.
        ///
        /// ```swift
        /// final class Plain: KeyPathObservable { var name = "" }
        /// Plain().deallocated   // reports .noLifetimeStorage
        /// ```
        case noLifetimeStorage
        /// A posted notification did not decode into the payload of the `TypedNotification` a signal
        /// observes (module Bridges): the signal skipped it and keeps observing. The subject is the
        /// notification's name.
        ///
        /// ```swift
        /// ObservationWarning.handler = { warning in
        ///     if warning.kind == .malformedNotification { print("bad post of", warning.subject) }
        /// }
        /// ```
        case malformedNotification
        /// A `UserDefaults` channel terminal was made on Linux, where Foundation posts no
        /// `UserDefaults.didChangeNotification`: a change made with `set(_:forKey:)` directly is not
        /// followed unless the notification is posted after it (module Binding). The subject is the key.
        ///
        /// ```swift
        /// ObservationWarning.handler = { warning in
        ///     if warning.kind == .userDefaultsChangesNotPosted { print("key:", warning.subject) }
        /// }
        /// ```
        case userDefaultsChangesNotPosted
    }

    /// Which problem this is.
    ///
    /// ```swift
    /// ObservationWarning.handler = { warning in print(warning.kind) }   // (e.g. keyPathObservesNothing)
    /// ```
    public let kind: Kind
    /// The type (and key path) concerned, e.g. `"\Settings.plain"`.
    ///
    /// ```swift
    /// ObservationWarning.handler = { warning in print(warning.subject) }   // (e.g. \Settings.plain)
    /// ```
    public let subject: String
    /// A full explanation with the fix.
    ///
    /// ```swift
    /// ObservationWarning.handler = { warning in print(warning.message) }
    /// ```
    public let message: String

    /// The warning's message, prefixed with `Tether:`.
    ///
    /// ```swift
    /// ObservationWarning.handler = { warning in
    ///     print(warning)   // (e.g. Tether: observe(\Settings.plain) read no @Observed property …)
    /// }
    /// ```
    public var description: String { "Tether: " + message }

    /// Receives every warning, on the thread that detected it. Thread-safe to read and replace.
    ///
    /// The default prints each distinct warning once to standard error.
    ///
    /// ```swift
    /// ObservationWarning.handler = { print("observation problem:", $0.message) }
    /// ```
    public static var handler: @Sendable (ObservationWarning) -> Void {
        get { warningStore.withLock { $0.handler } }
        set {
            // The replaced handler is released after the lock: what it captured may run a deinit.
            let replaced = warningStore.withLock { store in
                defer { store.handler = newValue }
                return store.handler
            }
            withExtendedLifetime(replaced) {}
        }
    }

    /// The handler installed when the program starts: prints each distinct warning once to stderr.
    ///
    /// ```swift
    /// ObservationWarning.handler = ObservationWarning.printOnce
    /// ```
    public static let printOnce: @Sendable (ObservationWarning) -> Void = { warning in
        let isNew = warningStore.withLock { $0.printed.insert(warning).inserted }
        guard isNew else { return }
        let line = "\(warning)\n"
        _ = line.withCString { write(STDERR_FILENO, $0, strlen($0)) }
    }

    static func report(_ kind: Kind, subject: String, message: String) {
        let warning = ObservationWarning(kind: kind, subject: subject, message: message)
        handler(warning)
    }

    static func keyPathObservesNothing(_ keyPath: AnyKeyPath) {
        let subject = "\(keyPath)"
        report(
            .keyPathObservesNothing, subject: subject,
            message: "observe(\(subject)) read no @Observed property (a plain var or let cannot be "
                + "observed): the signal sent the current value and completed. Mark the property "
                + "@Observed, or observe an @Observed property it depends on.")
    }

    /// Reports a post of `name` that did not decode into `payload` (used by Bridges' typed notifications).
    package static func malformedNotification(_ name: String, payload: Any.Type, reason: String) {
        report(
            .malformedNotification, subject: name,
            message: "a post of the notification \(name) did not decode into \(payload) (\(reason)): skipped, "
                + "the signal keeps observing. Pass `malformed: .fail` to get it as a BridgeError, or "
                + "`malformed: .skip` to skip such posts without this warning.")
    }

    /// Reports that a `UserDefaults` channel for `key` cannot follow direct sets on this platform (used
    /// by Binding's `UserDefaults.channel(forKey:as:)` on Linux); the default handler prints it once per
    /// key.
    package static func userDefaultsChangesNotPosted(key: String) {
        report(
            .userDefaultsChangesNotPosted, subject: "UserDefaults.channel(forKey:)",
            message: "UserDefaults.channel(forKey: \"\(key)\") on Linux: Foundation posts no "
                + "UserDefaults.didChangeNotification here, so a change made with set(_:forKey:) directly is "
                + "not followed. Change the value through a channel terminal, or post "
                + "UserDefaults.didChangeNotification (object: the defaults) after setting it.")
    }

    static func noLifetimeStorage(_ type: Any.Type) {
        let subject = "\(type)"
        report(
            .noLifetimeStorage, subject: subject,
            message: "\(subject) owns no storage through which Tether can see it deinitialize "
                + "(store `let deallocationToken = DeallocationToken()` in it, or give it an @Observed "
                + "property, or use the @Observable macro): `deallocated` will not complete, and "
                + "key-path observations of it complete on the next change after it is gone.")
    }
}

/// The handler and the set of warnings already printed.
private struct WarningStore {
    var handler: @Sendable (ObservationWarning) -> Void = ObservationWarning.printOnce
    var printed: Set<ObservationWarning> = []
}

private let warningStore = LockedState(WarningStore())
