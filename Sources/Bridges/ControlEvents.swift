/// The kinds of events a control sends to its actions, as a set (UIKit's `UIControl.Event`, for the
/// selector-less action registry).
///
/// Pass one or several to `signal(for:)` or `addAction(for:)`; define your own events in the application
/// range (bits 24–31, ``applicationReserved``):
///
/// <!-- example: top-level -->
/// ```swift
/// extension ControlEvents {
///     static let refreshRequested = ControlEvents(rawValue: 1 << 24)
/// }
///
/// final class QueryField: ActionSource { let actions = ActionRegistry<QueryField>(); var text = "" }
///
/// func watchQuery(_ field: QueryField) {
///     field.signal(for: .editingChanged).subscribe(next: { print($0.text) })   // RAC's rac_textSignal
///     field.addAction(for: [.primaryAction, .refreshRequested]) { sender, events in print(events) }
/// }
/// ```
public struct ControlEvents: OptionSet, Hashable, Sendable {
    /// The bits of the set.
    public let rawValue: UInt32

    /// Creates a set from its bits (`ControlEvents(rawValue: 1 << 25)`).
    public init(rawValue: UInt32) {
        self.rawValue = rawValue
    }

    /// A press began.
    public static let touchDown = ControlEvents(rawValue: 1 << 0)
    /// A press ended inside the control (a click).
    public static let touchUpInside = ControlEvents(rawValue: 1 << 6)
    /// A press ended outside the control.
    public static let touchUpOutside = ControlEvents(rawValue: 1 << 7)
    /// A press was cancelled.
    public static let touchCancel = ControlEvents(rawValue: 1 << 8)
    /// The control's value changed (a slider moved, a switch flipped).
    public static let valueChanged = ControlEvents(rawValue: 1 << 12)
    /// The control's primary action fired (a button was activated, Return was pressed in a field).
    public static let primaryAction = ControlEvents(rawValue: 1 << 13)
    /// Editing began in a text control.
    public static let editingDidBegin = ControlEvents(rawValue: 1 << 16)
    /// The text of a text control changed.
    public static let editingChanged = ControlEvents(rawValue: 1 << 17)
    /// Editing ended in a text control.
    public static let editingDidEnd = ControlEvents(rawValue: 1 << 18)
    /// Editing ended because the user pressed Return.
    public static let editingDidEndOnExit = ControlEvents(rawValue: 1 << 19)

    /// Every touch event: ``touchDown``, ``touchUpInside``, ``touchUpOutside``, ``touchCancel``.
    public static let allTouchEvents: ControlEvents = [.touchDown, .touchUpInside, .touchUpOutside, .touchCancel]
    /// Every editing event: ``editingDidBegin``, ``editingChanged``, ``editingDidEnd``,
    /// ``editingDidEndOnExit``.
    public static let allEditingEvents: ControlEvents = [
        .editingDidBegin, .editingChanged, .editingDidEnd, .editingDidEndOnExit,
    ]
    /// The bits reserved for application-defined events (24–31).
    public static let applicationReserved = ControlEvents(rawValue: 0xFF00_0000)
    /// Every event, including application-defined ones.
    public static let allEvents = ControlEvents(rawValue: .max)
}
