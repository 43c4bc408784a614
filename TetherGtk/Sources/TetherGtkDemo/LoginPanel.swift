import Foundation
import TetherDemoModels
import TetherGtk

/// The RAC tutorial's sign-in form in GTK 4, bound to the terminal demo's `LoginViewModel`:
///
/// - each entry ⇄ its `@Observed` field, a two-way channel (`entry.channel(property: "text")` `<~>`
///   `login.channel(\.username)`);
/// - each entry's colour ← its validity (`RAC(field, backgroundColor) = …`: `css-classes` bound to
///   `["invalid"]` or `[]`, yellow when invalid);
/// - the button ⇄ the sign-in `Command` (`GtkControl` is an `ActionSource`: `enabled` drives
///   `sensitive`, a click executes); the spinner ← `executing`; the status ← `errors` and the user.
@MainActor
public final class LoginPanel {
    /// The panel's root widget.
    public let root: GObjectHandle
    /// The username entry.
    public let username: GtkControl
    /// The password entry (text hidden).
    public let password: GtkControl
    /// The sign-in button, bound to `login.signIn`.
    public let signInButton: GtkControl
    /// Spins while signing in.
    public let spinner: GObjectHandle
    /// The outcome: the error, or the welcome.
    public let status: GObjectHandle
    /// The view model.
    public let login: LoginViewModel
    private let bindings = CompositeDisposable()

    /// Builds the panel and binds it to `login`.
    public init(login: LoginViewModel) throws {
        self.login = login
        username = GtkControl(entry: gtk_entry_new())
        password = GtkControl(entry: gtk_entry_new())
        signInButton = GtkControl(button: gtk_button_new_with_label("Sign in"))
        spinner = GObjectHandle(sinking: gtk_spinner_new())
        status = GObjectHandle(sinking: makeLabel(markup: "", wraps: true))
        gtk_entry_set_placeholder_text(username.widgetPointer?.entry, "Username")
        gtk_entry_set_placeholder_text(password.widgetPointer?.entry, "Password")
        gtk_entry_set_visibility(password.widgetPointer?.entry, 0)
        gtk_widget_add_css_class(signInButton.widgetPointer, "suggested-action")

        let title = makeLabel(markup: "<big><b>Sign in</b></big>")
        let hint = makeLabel(
            markup: "<small>Account: <tt>\(FakeSignInService.validUsername)</tt> / "
                + "<tt>\(FakeSignInService.validPassword)</tt></small>")
        let buttonRow = makeBox(
            GTK_ORIENTATION_HORIZONTAL, spacing: 8, [signInButton.widgetPointer!, spinner.widgetPointer!])
        root = GObjectHandle(
            sinking: makeBox(
                GTK_ORIENTATION_VERTICAL, spacing: 10,
                [title, username.widgetPointer!, password.widgetPointer!, buttonRow, status.widgetPointer!, hint]))
        gtk_widget_add_css_class(root.widgetPointer, "panel")
        gtk_widget_set_size_request(root.widgetPointer, 300, -1)

        // Two-way: typing sets the model; setting the model shows in the entry.
        bindings.add(try username.channel(property: "text", as: String.self) <~> login.channel(\.username))
        bindings.add(try password.channel(property: "text", as: String.self) <~> login.channel(\.password))
        // RAC(self.usernameTextField, backgroundColor) = [validUsernameSignal map: …]
        bindings.add(try username.bind(property: "css-classes", to: login.usernameIsValid.map(Self.fieldClasses)))
        bindings.add(try password.bind(property: "css-classes", to: login.passwordIsValid.map(Self.fieldClasses)))
        // self.signInButton.rac_command = self.viewModel.signIn; Enter in the password field signs in too.
        bindings.add(signInButton.bind(command: login.signIn, input: { _ in () }))
        bindings.add(password.signal(for: .primaryAction).subscribe(next: { _ in login.signIn.execute(()) }))
        bindings.add(try spinner.bind(property: "spinning", to: login.signIn.executing))
        bindings.add(try status.bind(property: "label", to: Self.statusText(for: login)))
    }

    isolated deinit { bindings.dispose() }

    /// The entry's CSS classes for a validity: `invalid` (yellow) or none.
    nonisolated static func fieldClasses(_ isValid: Bool) -> [String] { isValid ? [] : ["invalid"] }

    /// The status line: "Signing in…", the error in red, or the welcome in green.
    nonisolated static func statusText(for login: LoginViewModel) -> Signal<String, Never> {
        let signingIn = login.signIn.executing.filter { $0 }.map { _ in "<i>Signing in…</i>" }
        let failures = login.signIn.errors.map { error in
            "<span foreground=\"#c01c28\">\(escapedMarkup(error.description))</span>"
        }
        let welcomes = login.signIn.executionSignals.flatten().map { user in
            "<span foreground=\"#26a269\"><b>Welcome, \(escapedMarkup(user.name))!</b></span>"
        }
        return Signal.merge([signingIn, failures, welcomes]).startWith("")
    }
}
