/// The kinds of events a control sends to its actions, as a set (UIKit's `UIControl.Event`, for the
/// selector-less action registry).
///
/// Define your own events in the application range (bits 24–31):
///
/// <!-- example: top-level -->
/// ```swift
/// extension ControlEvents {
///     static let refreshRequested = ControlEvents(rawValue: 1 << 24)
/// }
///
/// func listen(to button: some ActionSource) {
///     button.addAction(for: [.primaryAction, .refreshRequested]) { sender, events in print(events) }
/// }
/// ```
public struct ControlEvents: OptionSet, Hashable, Sendable {
    /// The bits of the set.
    ///
    /// ```swift
    /// print(ControlEvents.valueChanged.rawValue)   // 4096
    /// ```
    public let rawValue: UInt32

    /// Creates a set from its bits.
    ///
    /// ```swift
    /// let custom = ControlEvents(rawValue: 1 << 25)
    /// ```
    public init(rawValue: UInt32) {
        self.rawValue = rawValue
    }

    /// A press began.
    ///
    /// ```swift
    /// final class Button: ActionSource { let actions = ActionRegistry<Button>() }
    /// let button = Button()
    /// button.signal(for: .touchDown)
    /// ```
    public static let touchDown = ControlEvents(rawValue: 1 << 0)
    /// A press ended inside the control (a click).
    ///
    /// ```swift
    /// final class Button: ActionSource { let actions = ActionRegistry<Button>() }
    /// let button = Button()
    /// button.signal(for: .touchUpInside)
    /// ```
    public static let touchUpInside = ControlEvents(rawValue: 1 << 6)
    /// A press ended outside the control.
    ///
    /// ```swift
    /// final class Button: ActionSource { let actions = ActionRegistry<Button>() }
    /// let button = Button()
    /// button.signal(for: .touchUpOutside)
    /// ```
    public static let touchUpOutside = ControlEvents(rawValue: 1 << 7)
    /// A press was cancelled.
    ///
    /// ```swift
    /// final class Button: ActionSource { let actions = ActionRegistry<Button>() }
    /// let button = Button()
    /// button.signal(for: .touchCancel)
    /// ```
    public static let touchCancel = ControlEvents(rawValue: 1 << 8)
    /// The control's value changed (a slider moved, a switch flipped).
    ///
    /// ```swift
    /// final class Slider: ActionSource { let actions = ActionRegistry<Slider>(); var value = 0.0 }
    /// let slider = Slider()
    /// slider.signal(for: .valueChanged).subscribe(next: { print($0.value) })
    /// ```
    public static let valueChanged = ControlEvents(rawValue: 1 << 12)
    /// The control's primary action fired (a button was activated, Return was pressed in a field).
    ///
    /// ```swift
    /// final class Button: ActionSource { let actions = ActionRegistry<Button>() }
    /// let loginButton = Button()
    /// loginButton.signal(for: .primaryAction)
    /// ```
    public static let primaryAction = ControlEvents(rawValue: 1 << 13)
    /// Editing began in a text control.
    ///
    /// ```swift
    /// final class TextField: ActionSource { let actions = ActionRegistry<TextField>(); var text = "" }
    /// let field = TextField()
    /// field.signal(for: .editingDidBegin)
    /// ```
    public static let editingDidBegin = ControlEvents(rawValue: 1 << 16)
    /// The text of a text control changed.
    ///
    /// ```swift
    /// final class TextField: ActionSource { let actions = ActionRegistry<TextField>(); var text = "" }
    /// let field = TextField()
    /// field.signal(for: .editingChanged).subscribe(next: { print($0.text) })   // (RAC's rac_textSignal)
    /// ```
    public static let editingChanged = ControlEvents(rawValue: 1 << 17)
    /// Editing ended in a text control.
    ///
    /// ```swift
    /// final class TextField: ActionSource { let actions = ActionRegistry<TextField>(); var text = "" }
    /// let field = TextField()
    /// field.signal(for: .editingDidEnd)
    /// ```
    public static let editingDidEnd = ControlEvents(rawValue: 1 << 18)
    /// Editing ended because the user pressed Return.
    ///
    /// ```swift
    /// final class TextField: ActionSource { let actions = ActionRegistry<TextField>(); var text = "" }
    /// let field = TextField()
    /// field.signal(for: .editingDidEndOnExit)
    /// ```
    public static let editingDidEndOnExit = ControlEvents(rawValue: 1 << 19)

    /// Every touch event.
    ///
    /// ```swift
    /// final class Button: ActionSource { let actions = ActionRegistry<Button>() }
    /// let control = Button()
    /// control.signal(for: .allTouchEvents)
    /// ```
    public static let allTouchEvents: ControlEvents = [.touchDown, .touchUpInside, .touchUpOutside, .touchCancel]
    /// Every editing event.
    ///
    /// ```swift
    /// final class TextField: ActionSource { let actions = ActionRegistry<TextField>(); var text = "" }
    /// let field = TextField()
    /// field.signal(for: .allEditingEvents)
    /// ```
    public static let allEditingEvents: ControlEvents = [
        .editingDidBegin, .editingChanged, .editingDidEnd, .editingDidEndOnExit,
    ]
    /// The bits reserved for application-defined events (24–31).
    ///
    /// ```swift
    /// let mine = ControlEvents(rawValue: 1 << 24)
    /// print(ControlEvents.applicationReserved.contains(mine))   // true
    /// ```
    public static let applicationReserved = ControlEvents(rawValue: 0xFF00_0000)
    /// Every event, including application-defined ones.
    ///
    /// ```swift
    /// final class Button: ActionSource { let actions = ActionRegistry<Button>() }
    /// let control = Button()
    /// control.signal(for: .allEvents)
    /// ```
    public static let allEvents = ControlEvents(rawValue: .max)
}
