import TetherGioTestSupport
import TetherGtk
import XCTest

final class GtkControlTests: GtkTestCase {
    func testClickingAButtonBoundToACommandExecutesIt() throws {
        onMain {
            // An async command: its work runs in a Task, and its `enabled` changes arrive off the main
            // thread; the button's sensitivity still changes on the main thread.
            let executions = Locked(0)
            let command = Command { executions.modify { $0 += 1 } }
            let button = GtkControl(button: gtk_button_new_with_label("Sign in"))
            let binding = button.bind(command: command, input: { _ in () })
            defer { binding.dispose() }
            button.emit("clicked")
            pump(until: { executions.load() == 1 && gtk_widget_get_sensitive(button.widgetPointer) == 1 })
            button.emit("clicked")
            pump(until: { executions.load() == 2 && gtk_widget_get_sensitive(button.widgetPointer) == 1 })
            XCTAssertEqual(executions.load(), 2)
        }
    }

    func testTheCommandsEnabledDrivesTheButtonsSensitivity() throws {
        onMain {
            let formIsValid = MutableProperty(false)
            let clock = TestScheduler()
            let executions = Locked(0)
            let command = Command<Void, Int, Never>(enabled: formIsValid) {
                executions.modify { $0 += 1 }
                return Signal<Void, Never>.timer(after: .seconds(1), on: clock).map { _ in 1 }
            }
            let button = GtkControl(button: gtk_button_new_with_label("Sign in"))
            button.bind(command: command, input: { _ in () })
            XCTAssertEqual(gtk_widget_get_sensitive(button.widgetPointer), 0)
            button.emit("clicked")
            XCTAssertEqual(executions.load(), 0, "a disabled command does not run")

            formIsValid.value = true
            XCTAssertEqual(gtk_widget_get_sensitive(button.widgetPointer), 1)
            button.emit("clicked")
            XCTAssertEqual(executions.load(), 1)
            XCTAssertEqual(gtk_widget_get_sensitive(button.widgetPointer), 0, "insensitive while executing")
            button.emit("clicked")
            XCTAssertEqual(executions.load(), 1)
            clock.advance(by: .seconds(1))
            XCTAssertEqual(gtk_widget_get_sensitive(button.widgetPointer), 1)
        }
    }

    func testAnEntrySendsEditingChangedAndPrimaryAction() throws {
        onMain {
            let entry = GtkControl(entry: gtk_entry_new())
            var events: [String] = []
            entry.addAction(for: .editingChanged) { _ in events.append("changed") }
            entry.addAction(for: .primaryAction) { _ in events.append("activate") }
            gtk_editable_set_text(entry.editable, "a")
            entry.emit("activate")
            XCTAssertEqual(events, ["changed", "activate"])
        }
    }

    func testACheckButtonsToggledIsAValueChangedEvent() throws {
        try onMain {
            let check = try GtkControl(
                sinking: gtk_check_button_new_with_label("Remember me"), signals: ["toggled": .valueChanged])
            var states: [Bool] = []
            check.signal(for: .valueChanged).subscribe(next: { control in
                states.append((try? control.value(of: "active", as: Bool.self)) ?? false)
            })
            try check.set(property: "active", to: true)
            try check.set(property: "active", to: false)
            XCTAssertEqual(states, [true, false])
        }
    }

    func testAControlForAnUnknownSignalThrows() throws {
        try onMain {
            XCTAssertThrowsError(try GtkControl(sinking: gtk_label_new("x"), signals: ["clicked": .primaryAction])) {
                XCTAssertEqual($0 as? GObjectError, .noSuchSignal(type: "GtkLabel", signal: "clicked"))
            }
        }
    }

    func testAControlNobodyKeepsLivesAsLongAsItsWidget() throws {
        onMain {
            // Issue 43 item 1: a control made in a function that only adds its widget to a box, and is not
            // stored anywhere, still executes its command on a click.
            let before = GSignalConnection.liveCount
            let executions = Locked(0)
            let command = Command { executions.modify { $0 += 1 } }
            let box = GObjectHandle(sinking: gtk_box_new(GTK_ORIENTATION_VERTICAL, 0))
            weak var weakControl: GtkControl?
            @MainActor func addSignInButton() {
                let control = GtkControl(button: gtk_button_new_with_label("Sign in"))
                control.bind(command: command, input: { _ in () })
                gtk_box_append(box.pointer(as: GtkBox.self), control.widgetPointer)
                weakControl = control
            }
            addSignInButton()
            XCTAssertNotNil(weakControl, "the widget, held by the box, keeps its control")
            let widget = gtk_widget_get_first_child(box.widgetPointer)!
            let weakWidget = TestWeakRef(widget.gObject)
            click(widget)
            pump(until: { executions.load() == 1 })
            click(widget)
            pump(until: { executions.load() == 2 && gtk_widget_get_sensitive(widget) == 1 })
            XCTAssertEqual(executions.load(), 2)

            // Removed from the box, the widget has no owner but its control, which nobody holds: both go.
            gtk_box_remove(box.pointer(as: GtkBox.self), widget)
            XCTAssertNil(weakControl, "the control goes with its widget's last other owner")
            XCTAssertFalse(weakWidget.isAlive)
            XCTAssertEqual(GSignalConnection.liveCount, before)
        }
    }

    func testAKeptControlOutlivesItsWidgetsRemovalAndTheWidgetKeepsItWhileAdded() throws {
        onMain {
            let box = GObjectHandle(sinking: gtk_box_new(GTK_ORIENTATION_VERTICAL, 0))
            var control: GtkControl? = GtkControl(button: gtk_button_new_with_label("OK"))
            weak let weakControl = control
            let weakWidget = TestWeakRef(control!.object)
            gtk_box_append(box.pointer(as: GtkBox.self), control!.widgetPointer)
            gtk_box_remove(box.pointer(as: GtkBox.self), control!.widgetPointer)
            XCTAssertNotNil(weakControl, "held by the test")
            gtk_box_append(box.pointer(as: GtkBox.self), control!.widgetPointer)
            control = nil
            XCTAssertTrue(weakWidget.isAlive)
            guard let widget = weakControl?.widgetPointer else {
                return XCTFail("the control is gone though its widget, which the box holds, is not")
            }
            var clicks = 0
            weakControl?.addAction(for: .primaryAction) { _ in clicks += 1 }
            click(widget)
            XCTAssertEqual(clicks, 1)
            gtk_box_remove(box.pointer(as: GtkBox.self), widget)
            XCTAssertNil(weakControl)
            XCTAssertFalse(weakWidget.isAlive)
        }
    }

    func testAControlLeaksNoHandlerOnceReleased() throws {
        onMain {
            let before = GSignalConnection.liveCount
            var button: GtkControl? = GtkControl(button: gtk_button_new_with_label("OK"))
            let weakButton = TestWeakRef(button!.object)
            button!.bind(command: Command {}, input: { _ in () })
            button = nil
            XCTAssertFalse(weakButton.isAlive)
            XCTAssertEqual(GSignalConnection.liveCount, before)
        }
    }
}

/// Emits `clicked` on `widget` through a handle of its own, released at once.
@MainActor private func click(_ widget: UnsafeMutablePointer<GtkWidget>) {
    GObjectHandle(retaining: widget).emit("clicked")
}
