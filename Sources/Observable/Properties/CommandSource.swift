import TetherEngine

/// Something a user triggers that can be enabled or disabled — a button of a UI toolkit, an entry of
/// Bridges' action registry — so that a `Command` (module Binding) can drive it (RAC's
/// `button.rac_command = command`).
///
/// It lives in the core so that neither Binding nor Bridges depends on the other: Bridges'
/// `ActionSource` refines it, Binding's `bind(command:)` uses it.
///
/// ```swift
/// final class Button: CommandSource {
///     let taps = Subject<Void, Never>()
///     var triggers: Signal<Void, Never> { taps.signal }
///     var isEnabled = true
/// }
/// let loginButton = Button()
/// loginButton.taps.send()   // with the Binding module: `loginButton.bind(command: viewModel.login)`
/// ```
public protocol CommandSource: AnyObject {
    /// What the source sends when triggered (often `Void`).
    associatedtype Trigger

    /// Sends a value each time the user triggers the source.
    var triggers: Signal<Trigger, Never> { get }

    /// Whether the source accepts triggers; a bound command sets it (on the thread where the
    /// command's `enabled` changes).
    var isEnabled: Bool { get set }
}
