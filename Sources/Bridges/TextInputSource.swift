import Observable

/// A control that holds text and sends editing events through its ``ActionRegistry`` — adopt it to get
/// ``textSignal`` (RAC's `rac_textSignal`): the current text first, then the text after every edit.
///
/// The only new requirement is `text`; the control sends ``ControlEvents/editingChanged`` (or another
/// of ``ControlEvents/allEditingEvents``) when its text changes, as a text field does.
///
/// ```swift
/// final class TextField: TextInputSource {
///     let actions = ActionRegistry<TextField>()
///     var text = "" {
///         didSet { sendActions(for: .editingChanged) }
///     }
/// }
/// let username = TextField()
/// username.text = "jo"
/// username.textSignal.subscribe(next: { print($0) })   // jo — the current text, at once
/// username.text = "josh"                               // josh
/// ```
public protocol TextInputSource: ActionSource {
    /// The control's current text.
    ///
    /// ```swift
    /// final class TextField: TextInputSource { let actions = ActionRegistry<TextField>(); var text = "" }
    /// let field = TextField()
    /// field.text = "ada"
    /// ```
    var text: String { get }
}

extension TextInputSource {
    /// The control's text: its current text when subscribed, then its text after each editing event
    /// (``ControlEvents/allEditingEvents``); completes when the control is deinitialized (RAC's
    /// `rac_textSignal`, which also started with the current text).
    ///
    /// Unlike `signal(for: .editingChanged).map(\.text)`, a form's validity is right before the first
    /// keystroke: the ReactiveCocoa tutorials' login form enables its button from the fields' text as
    /// it is.
    ///
    /// ```swift
    /// final class TextField: TextInputSource {
    ///     let actions = ActionRegistry<TextField>()
    ///     var text = "" { didSet { sendActions(for: .editingChanged) } }
    /// }
    /// let username = TextField(), password = TextField()
    /// username.text = "josh"   // filled in before the form shows (a saved login)
    /// password.text = "secret"
    /// let signInEnabled = Signal.combineLatest(username.textSignal, password.textSignal) { user, pass in
    ///     user.count > 3 && pass.count > 3
    /// }
    /// signInEnabled.subscribe(next: { print("enabled:", $0) })   // enabled: true — at once
    /// ```
    public var textSignal: Signal<String, Never> {
        Signal.uncheckedDeferred { [weak self] () -> Signal<String, Never> in
            guard let self else { return .empty }
            // The registry lives and dies with the control: while it sends, the control is there.
            let edits = self.signal(for: .allEditingEvents).uncheckedMap { [weak self] _ in self?.text ?? "" }
            return Signal(value: self.text).concat(edits)
        }
    }
}
