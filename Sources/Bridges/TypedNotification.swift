import Foundation
import Observable

/// A notification name declared once with the type of its payload, so posting and observing never touch
/// `userInfo` by hand.
///
/// By default the payload travels as one value in `userInfo` (any type, no encoding). To observe
/// notifications posted by code that fills `userInfo` itself, give the key its value is stored under, or
/// your own `encode`/`decode`. A notification whose `userInfo` does not decode into `Payload` is
/// skipped and reported as an `ObservationWarning` — never a crash, and never the silent end of a
/// binding; ask for ``MalformedNotificationPolicy/fail`` to get it as a
/// ``BridgeError/malformedNotification(name:reason:)`` error event instead.
///
/// ```swift
/// let center = NotificationCenter()
/// struct Login: Sendable { let user: String }
/// enum AppNotifications {
///     static let didLogIn = TypedNotification<Login>(Notification.Name("AppDidLogIn"))
/// }
///
/// center.signal(for: AppNotifications.didLogIn)
///     .subscribe(next: { login in print("hello", login.user) })
/// center.post(AppNotifications.didLogIn, Login(user: "ada"))
/// // hello ada
/// ```
public struct TypedNotification<Payload>: Sendable {
    /// The notification's name.
    ///
    /// ```swift
    /// let center = NotificationCenter()
    /// let progress = TypedNotification<Double>(Notification.Name("DownloadProgress"))
    /// center.post(name: progress.name, object: nil)   // what a poster without Tether sends
    /// ```
    public let name: Notification.Name
    let encode: @Sendable (Payload) -> [AnyHashable: Any]?
    let decode: @Sendable ([AnyHashable: Any]?) throws -> Payload

    /// Declares `name` with a payload carried as one `userInfo` value under a Tether key.
    ///
    /// ```swift
    /// let progress = TypedNotification<Double>(Notification.Name("DownloadProgress"))
    /// ```
    public init(_ name: Notification.Name) {
        self.init(name, key: TypedNotificationKey.payload)
    }

    /// Declares `name` with a payload stored under `key` in `userInfo` — to read notifications that other
    /// code posts as `userInfo: [key: value]`.
    ///
    /// ```swift
    /// let center = NotificationCenter()
    /// let volume = TypedNotification<Int>(Notification.Name("VolumeChanged"), key: "level")
    /// center.signal(for: volume).subscribe(next: { print("observed as", $0) })
    /// center.post(name: .init("VolumeChanged"), object: nil, userInfo: ["level": 7])
    /// // observed as 7
    /// ```
    public init(_ name: Notification.Name, key: String) {
        self.name = name
        self.encode = { payload in [key: payload] }
        self.decode = { userInfo in
            guard let userInfo else {
                throw PayloadMismatch("no userInfo (expected \(Payload.self) under \"\(key)\")")
            }
            guard let value = userInfo[key] else {
                throw PayloadMismatch("no value under \"\(key)\" (expected \(Payload.self))")
            }
            guard let payload = value as? Payload else {
                throw PayloadMismatch("value under \"\(key)\" is \(type(of: value)), expected \(Payload.self)")
            }
            return payload
        }
    }

    /// Declares `name` with your own mapping between the payload and `userInfo`. A `decode` that throws
    /// makes the notification malformed (the thrown error's description is the reason).
    ///
    /// ```swift
    /// let resized = TypedNotification<(width: Int, height: Int)>(
    ///     Notification.Name("WindowResized"),
    ///     encode: { ["w": $0.width, "h": $0.height] },
    ///     decode: { info in
    ///         struct SizeMissing: Error {}
    ///         guard let w = info?["w"] as? Int, let h = info?["h"] as? Int else { throw SizeMissing() }
    ///         return (w, h)
    ///     })
    /// ```
    public init(
        _ name: Notification.Name,
        encode: @escaping @Sendable (Payload) -> [AnyHashable: Any]?,
        decode: @escaping @Sendable ([AnyHashable: Any]?) throws -> Payload
    ) {
        self.name = name
        self.encode = encode
        self.decode = decode
    }

    /// Reads the payload of `notification`, or describes why it cannot.
    func payload(of notification: Notification) -> Result<Payload, BridgeError> {
        do {
            return .success(try decode(notification.userInfo))
        } catch let mismatch as PayloadMismatch {
            return .failure(.malformedNotification(name: name, reason: mismatch.reason))
        } catch {
            return .failure(.malformedNotification(name: name, reason: "\(error)"))
        }
    }
}

extension TypedNotification where Payload == Void {
    /// Declares a notification without payload: `userInfo` is neither written nor read.
    ///
    /// ```swift
    /// let center = NotificationCenter()
    /// let didLogOut = TypedNotification<Void>(Notification.Name("AppDidLogOut"))
    /// center.post(didLogOut)
    /// ```
    public init(_ name: Notification.Name) {
        self.init(name, encode: { _ in nil }, decode: { _ in () })
    }
}

/// What to do with a posted notification whose `userInfo` does not decode into the payload; its
/// `Failure` is the failure type of the signal it gives.
///
/// Without `malformed:`, `center.signal(for:)` uses ``report``: a malformed post is skipped and
/// reported as an `ObservationWarning` (kind `.malformedNotification`), so one bad post can neither end
/// a binding nor go unnoticed. Pass ``fail`` for the typed error, ``skip`` to ignore such posts quietly.
///
/// ```swift
/// let center = NotificationCenter()
/// let progress = TypedNotification<Double>(Notification.Name("DownloadProgress"))
/// center.signal(for: progress, malformed: .skip)   // ignore foreign posts of the same name
/// ```
public struct MalformedNotificationPolicy<Failure: Error>: Sendable {
    /// The error the signal fails with, or `nil` to skip the post.
    let failure: @Sendable (BridgeError) -> Failure?
    /// Whether a skipped post is reported as an `ObservationWarning`.
    let reports: Bool
}

extension MalformedNotificationPolicy where Failure == BridgeError {
    /// Fail with ``BridgeError/malformedNotification(name:reason:)``, which ends the subscription (and
    /// a binding of it, once its failure is handled): the typed-error mode.
    ///
    /// ```swift
    /// let center = NotificationCenter()
    /// let progress = TypedNotification<Double>(Notification.Name("DownloadProgress"))
    /// center.signal(for: progress, malformed: .fail)
    ///     .subscribe(next: { print($0) }, error: { print("bad post:", $0) })
    /// ```
    public static var fail: Self { Self(failure: { $0 }, reports: false) }
}

extension MalformedNotificationPolicy where Failure == Never {
    /// Skip the post, keep observing, and report it as an `ObservationWarning` (kind
    /// `.malformedNotification`; the default handler prints it once to standard error): what
    /// `center.signal(for:)` does without `malformed:`.
    ///
    /// ```swift
    /// let center = NotificationCenter()
    /// let progress = TypedNotification<Double>(Notification.Name("DownloadProgress"))
    /// center.signal(for: progress, malformed: .report)   // Signal<Double, Never>
    /// ```
    public static var report: Self { Self(failure: { _ in nil }, reports: true) }

    /// Skip the post quietly and keep observing: for a name that other code also posts with other
    /// payloads on purpose.
    ///
    /// ```swift
    /// let center = NotificationCenter()
    /// let progress = TypedNotification<Double>(Notification.Name("DownloadProgress"))
    /// center.signal(for: progress, malformed: .skip)    // Signal<Double, Never>
    /// ```
    public static var skip: Self { Self(failure: { _ in nil }, reports: false) }
}

enum TypedNotificationKey {
    static let payload = "TetherPayload"
}

struct PayloadMismatch: Error {
    let reason: String
    init(_ reason: String) { self.reason = reason }
}

extension NotificationCenter {
    /// The payloads of `notification` as a signal (see ``signal(for:object:)`` for delivery, removal and
    /// the object filter). It never fails, so it binds as it is.
    ///
    /// A post whose `userInfo` does not decode is skipped — the signal keeps observing — and reported as
    /// an `ObservationWarning` (kind `.malformedNotification`, printed once to standard error by the
    /// default handler). For the failure as a typed error pass `malformed: .fail`; to skip quietly,
    /// `malformed: .skip`.
    ///
    /// ```swift
    /// struct Login: Sendable { let user: String }
    /// enum AppNotifications {
    ///     static let didLogIn = TypedNotification<Login>(Notification.Name("AppDidLogIn"))
    ///     static let didLogOut = TypedNotification<Void>(Notification.Name("AppDidLogOut"))
    /// }
    /// let center = NotificationCenter()
    /// center.signal(for: AppNotifications.didLogIn)
    ///     .subscribe(next: { print($0.user) })
    /// ```
    public func signal<Payload>(
        for notification: TypedNotification<Payload>,
        object: AnyObject? = nil
    ) -> Signal<Payload, Never> {
        signal(for: notification, object: object, malformed: .report)
    }

    /// The payloads of `notification` as a signal, with malformed posts handled as `malformed` says:
    /// ``MalformedNotificationPolicy/fail`` fails the signal with
    /// ``BridgeError/malformedNotification(name:reason:)``; ``MalformedNotificationPolicy/skip`` and
    /// ``MalformedNotificationPolicy/report`` skip the post (the latter reporting it), and the signal
    /// cannot fail.
    ///
    /// ```swift
    /// struct Login: Sendable { let user: String }
    /// let didLogIn = TypedNotification<Login>(Notification.Name("AppDidLogIn"))
    /// let center = NotificationCenter()
    /// center.signal(for: didLogIn, malformed: .fail)
    ///     .subscribe(next: { print($0.user) }, error: { print("bad post:", $0) })
    /// ```
    public func signal<Payload, Failure>(
        for notification: TypedNotification<Payload>,
        object: AnyObject? = nil,
        malformed: MalformedNotificationPolicy<Failure>
    ) -> Signal<Payload, Failure> {
        let filter = object.map(NotificationSenderFilter.init)
        return Signal { observer in
            self.observe(notification.name, filter: filter, completed: { observer.sendCompleted() }) { posted in
                switch notification.payload(of: posted) {
                case .success(let payload):
                    observer.send(payload)
                case .failure(let error):
                    if let failure = malformed.failure(error) {
                        observer.sendError(failure)
                    } else if malformed.reports, case .malformedNotification(let name, let reason) = error {
                        ObservationWarning.malformedNotification(name.rawValue, payload: Payload.self, reason: reason)
                    }
                }
            }
        }
    }

    /// Posts `notification` with `payload`, encoded into `userInfo` as declared.
    ///
    /// ```swift
    /// struct Login: Sendable { let user: String }
    /// enum AppNotifications {
    ///     static let didLogIn = TypedNotification<Login>(Notification.Name("AppDidLogIn"))
    ///     static let didLogOut = TypedNotification<Void>(Notification.Name("AppDidLogOut"))
    /// }
    /// let center = NotificationCenter()
    /// center.post(AppNotifications.didLogIn, Login(user: "ada"))
    /// ```
    public func post<Payload>(_ notification: TypedNotification<Payload>, _ payload: Payload, object: AnyObject? = nil)
    {
        post(name: notification.name, object: object, userInfo: notification.encode(payload))
    }

    /// Posts a notification that has no payload.
    ///
    /// ```swift
    /// let didLogOut = TypedNotification<Void>(Notification.Name("AppDidLogOut"))
    /// let center = NotificationCenter()
    /// center.post(didLogOut)
    /// ```
    public func post(_ notification: TypedNotification<Void>, object: AnyObject? = nil) {
        post(name: notification.name, object: object, userInfo: nil)
    }
}

extension SignalConvertible {
    /// Posts every value as `notification` on `center` until the signal terminates or the returned
    /// disposable is disposed (the reverse of `center.signal(for:)`). Errors end the posting.
    ///
    /// `object`, the sender of the posts, is held weakly: once it is gone, values are no longer posted.
    ///
    /// ```swift
    /// let progress = TypedNotification<Double>(Notification.Name("DownloadProgress"))
    /// let downloadProgress = Subject<Double, Never>()
    /// downloadProgress.post(to: .default, as: progress)
    /// ```
    @discardableResult
    public func post(
        to center: NotificationCenter, as notification: TypedNotification<Value>, object: AnyObject? = nil
    ) -> any Disposable {
        guard let object else {
            return subscribe(next: { value in center.post(notification, value) })
        }
        let sender = WeakReference(object)
        return subscribe(next: { value in
            guard let object = sender.object else { return }
            center.post(notification, value, object: object)
        })
    }
}

extension SignalConvertible where Value == Notification {
    /// Posts every notification the signal sends on `center` (e.g. to relay one center into another).
    ///
    /// ```swift
    /// let privateCenter = NotificationCenter()
    /// NotificationCenter.default.signal(for: .init("Ping")).post(to: privateCenter)
    /// ```
    @discardableResult
    public func post(to center: NotificationCenter) -> any Disposable {
        subscribe(next: { center.post($0) })
    }
}
