import TetherEngine

/// Storage that lets Tether see its owner deinitialize: store one in any class to give it
/// `deallocated` (RAC's `rac_willDeallocSignal`).
///
/// Swift on Linux has no deinit hooks and no associated objects, so Tether learns that an object is gone
/// when storage the object owns is deinitialized with it. A `let` holding a token is such storage — as
/// long as nothing else holds the token: keep it private and never hand it out.
///
/// ```swift
/// final class SearchScreen: DeallocationObservable {
///     let deallocationToken = DeallocationToken()
/// }
/// var screen: SearchScreen? = SearchScreen()
/// screen!.deallocated.subscribe(completed: { print("gone") })
/// screen = nil   // prints gone
/// ```
///
/// A ``KeyPathObservable`` class finds a token stored in it by itself (its ``KeyPathObservable/deallocated``
/// looks for an `@Observed` property or a token), so a view controller with no `@Observed` property needs
/// only the stored token.
public final class DeallocationToken: Sendable {
    // Checked: the box is `Sendable`. Its observer list is touched only on the owner's isolation
    // (subscribing to `deallocated`, and the owner's deinit), the contract that list's conformance states.
    let box = PropertyObserverListBox<Void>()

    /// Creates a token; store it in the object whose deinitialization it reports.
    ///
    /// ```swift
    /// final class Screen { let deallocationToken = DeallocationToken() }
    /// ```
    public init() {}
}

/// A class that reports its own deinitialization through a stored ``DeallocationToken`` — any class you
/// own: adopting it gives `deallocated`, checked at compile time, with no `@Observed` property needed.
///
/// ```swift
/// final class LoginScreen: DeallocationObservable {
///     let deallocationToken = DeallocationToken()
/// }
/// let screen = LoginScreen()
/// let ticks = Subject<Int, Never>()
/// ticks.take(until: screen.deallocated).subscribe(next: { print($0) })   // (ends with the screen)
/// ```
public protocol DeallocationObservable: AnyObject {
    /// The token stored in this object (a `let`, which nothing else holds).
    ///
    /// ```swift
    /// final class Screen: DeallocationObservable { let deallocationToken = DeallocationToken() }
    /// ```
    var deallocationToken: DeallocationToken { get }
}

extension DeallocationObservable {
    /// Completes when this object deinitializes; sends no value (RAC's `rac_willDeallocSignal`).
    ///
    /// Subscribing after the object is gone completes at once. The completion is sent on the thread that
    /// releases the object, during its deinitialization. Subscribe on the object's isolation.
    ///
    /// ```swift
    /// final class Screen: DeallocationObservable { let deallocationToken = DeallocationToken() }
    /// var screen: Screen? = Screen()
    /// screen!.deallocated.subscribe(completed: { print("gone") })
    /// screen = nil   // prints gone
    /// ```
    /// Marble: `----|` (completes at deinit)
    public var deallocated: Signal<Void, Never> {
        tokenDeallocated
    }

    var tokenDeallocated: Signal<Void, Never> {
        Signal.weaklyRooted(at: self) { root, sink, lifetime in
            lifetime.add(
                root.deallocationToken.box.channel.addLifetimeObserver {
                    sink.send(.completed)
                    lifetime.dispose()
                })
        }
    }
}

extension DeallocationObservable where Self: KeyPathObservable {
    /// Completes when this object deinitializes (RAC's `rac_willDeallocSignal`), seen through its
    /// ``DeallocationToken``; for a class that is both ``DeallocationObservable`` and
    /// ``KeyPathObservable``.
    ///
    /// ```swift
    /// final class Form: KeyPathObservable, DeallocationObservable {
    ///     let deallocationToken = DeallocationToken()
    ///     @Observed var name = ""
    /// }
    /// Form().deallocated.subscribe(completed: { print("gone") })   // gone
    /// ```
    public var deallocated: Signal<Void, Never> {
        tokenDeallocated
    }
}

extension DeallocationToken: LifetimeStorageField {
    static func lifetimeChannel(at address: UnsafeMutableRawPointer) -> any AnyPropertyObserverList {
        address.assumingMemoryBound(to: DeallocationToken.self).pointee.box.channel
    }

    var installedChannel: (any AnyPropertyObserverList)? { box.channel }
}
