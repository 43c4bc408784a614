import Foundation
import Observable

/// A value a `UserDefaults` channel can store: property-list types (strings, numbers,
/// booleans, data, dates, and arrays and string-keyed dictionaries of them).
///
/// ```swift
/// let defaults = UserDefaults.standard
/// let fontSize: ChannelTerminal<Int?, Never> = defaults.channel(forKey: "fontSize")
/// ```
public protocol UserDefaultsValue: Equatable, Sendable {}

extension String: UserDefaultsValue {}
extension Int: UserDefaultsValue {}
extension Double: UserDefaultsValue {}
extension Float: UserDefaultsValue {}
extension Bool: UserDefaultsValue {}
extension Data: UserDefaultsValue {}
extension Date: UserDefaultsValue {}
extension Array: UserDefaultsValue where Element: UserDefaultsValue {}
extension Dictionary: UserDefaultsValue where Key == String, Value: UserDefaultsValue {}

extension UserDefaults {
    /// A channel terminal for the value stored under `key` (RAC's `rac_channelTerminalForKey:`): its values
    /// are the stored value when subscribed (`nil` if there is none, or if it is of another type), then
    /// each value other terminals store under the key; values it receives are stored (`nil` removes the
    /// key), and are not sent back to it.
    ///
    /// Link it with a property's terminal to keep a setting and a model in step: the setting is read
    /// once, then each side follows the other. Terminals for the same `UserDefaults` object and key see
    /// each other's changes at once, on the thread that made them.
    ///
    /// The terminal also follows `UserDefaults.didChangeNotification` posted for this object (it
    /// re-reads the value). Foundation posts it on Darwin at every set; **on Linux it does not**
    /// (swift-corelibs-foundation), so there a change made with `set(_:forKey:)` directly — not through
    /// a terminal — is not followed unless you post the notification after it:
    /// `NotificationCenter.default.post(name: UserDefaults.didChangeNotification, object: defaults)`.
    /// On Linux, making a terminal reports an `ObservationWarning` (kind
    /// `.userDefaultsChangesNotPosted`) that says so; the default handler prints it once per key.
    ///
    /// ```swift
    /// final class Settings: KeyPathObservable { @Observed var fontSize = 12 }
    /// let settings = Settings()
    /// let defaults = UserDefaults.standard
    /// let stored: ChannelTerminal<Int?, Never> = defaults.channel(forKey: "fontSize")
    /// let link = settings.channel(\.fontSize, nilValue: 12) <~> stored   // the model takes the setting
    /// settings.fontSize = 14                                               // stored under "fontSize"
    /// ```
    public func channel<Value: UserDefaultsValue>(
        forKey key: String, as type: Value.Type = Value.self
    ) -> ChannelTerminal<Value?, Never> {
        let changes = UserDefaultsChanges.shared
        let identity = UserDefaultsChanges.Key(defaults: ObjectIdentifier(self), key: key)
        #if !canImport(Darwin)
            ObservationWarning.userDefaultsChangesNotPosted(key: key)
        #endif
        let values = Signal<Value?, Never>.uncheckedDeferred { [weak self] () -> Signal<Value?, Never> in
            guard let self else { return .empty }
            let read: () -> Value? = { [weak self] in self?.object(forKey: key) as? Value }
            let later = changes.signal.filter { $0 == identity }.uncheckedMap { _ in read() }
                .merge(with: UserDefaultsChanges.posted(for: self).uncheckedMap { _ in read() })
            return Signal(value: read()).concat(later).distinctUntilChanged()
        }
        return ChannelTerminal(
            values: values,
            set: { [weak self] value in
                guard let self else { return }
                if let value {
                    self.set(value, forKey: key)
                } else {
                    self.removeObject(forKey: key)
                }
                changes.subject.send(identity)
            })
    }
}

/// The changes made through `UserDefaults` channel terminals, by defaults object and key.
final class UserDefaultsChanges: Sendable {
    struct Key: Hashable, Sendable {
        let defaults: ObjectIdentifier
        let key: String
    }

    static let shared = UserDefaultsChanges()

    let subject = Subject<Key, Never>()
    var signal: Signal<Key, Never> { subject.signal }

    /// `UserDefaults.didChangeNotification` posts for `defaults` on the default center.
    static func posted(for defaults: UserDefaults) -> Signal<Void, Never> {
        let object = UncheckedDefaults(defaults: defaults)
        return Signal { observer in
            let token = NotificationCenter.default.addObserver(
                forName: UserDefaults.didChangeNotification, object: object.defaults, queue: nil
            ) { _ in
                // The center compares addresses and may deliver late: only the original object counts.
                guard object.defaults != nil else { return }
                observer.send(())
            }
            let holder = UncheckedToken(token: token)
            return AnyDisposable { NotificationCenter.default.removeObserver(holder.token) }
        }
    }
}

/// A `UserDefaults` object, which is documented as thread-safe but not marked `Sendable`.
private struct UncheckedDefaults: @unchecked Sendable {
    // Safety: `UserDefaults` is thread-safe (Foundation's documentation); it is only used as the
    // notification's object filter.
    weak var defaults: UserDefaults?
}

/// A notification observer token, only passed to `removeObserver`.
private struct UncheckedToken: @unchecked Sendable {
    // Safety: the token is an opaque object that NotificationCenter only compares; it is never mutated.
    let token: any NSObjectProtocol
}
