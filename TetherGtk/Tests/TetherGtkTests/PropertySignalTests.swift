import TetherGtk
import XCTest

final class PropertySignalTests: GtkTestCase {
    func testObservingSendsTheCurrentValueThenEachChange() throws {
        try onMain {
            let adjustment = GObjectHandle(sinking: gtk_adjustment_new(2, 0, 10, 1, 1, 0))
            var values: [Double] = []
            let subscription = try adjustment.observe(property: "value", as: Double.self)
                .subscribe(next: { values.append($0) })
            defer { subscription.dispose() }
            gtk_adjustment_set_value(adjustment.adjustment, 5)
            gtk_adjustment_set_value(adjustment.adjustment, 7.5)
            XCTAssertEqual(values, [2, 5, 7.5])
        }
    }

    func testSettingAnEntrysTextSendsOnItsTextSignal() throws {
        try onMain {
            let entry = GObjectHandle(sinking: gtk_entry_new())
            var texts: [String] = []
            let subscription = try entry.textSignal().subscribe(next: { texts.append($0) })
            defer { subscription.dispose() }
            try entry.setText("tet")
            try entry.setText("tether")
            XCTAssertEqual(texts, ["", "tet", "tether"])
        }
    }

    func testObservationCompletesWhenTheObjectIsFinalized() throws {
        try onMain {
            var completed = false
            var values: [Double] = []
            var adjustment: GObjectHandle? = GObjectHandle(sinking: gtk_adjustment_new(1, 0, 10, 1, 1, 0))
            let subscription = try adjustment!.observe(property: "value", as: Double.self)
                .subscribe(next: { values.append($0) }, completed: { completed = true })
            XCTAssertFalse(completed)
            adjustment = nil
            XCTAssertTrue(completed)
            XCTAssertEqual(values, [1])
            subscription.dispose()  // after the object is gone: quiet
        }
    }

    func testObservationCompletesWhenADestroyedWindowLosesItsLastReference() throws {
        try onMain {
            var window: GObjectHandle? = GObjectHandle(retaining: gtk_window_new())
            var completed = false
            try window!.observe(property: "title", as: String.self).subscribe(completed: { completed = true })
            gtk_window_destroy(UnsafeMutableRawPointer(window!.object).assumingMemoryBound(to: GtkWindow.self))
            XCTAssertFalse(completed, "GTK 4 only drops its own reference; the handle still holds one")
            window = nil
            XCTAssertTrue(completed, "the last reference gone, the window is disposed, which ends its observations")
        }
    }

    func testObservingDoesNotKeepTheObjectAlive() throws {
        try onMain {
            var label: GObjectHandle? = GObjectHandle(sinking: gtk_label_new("x"))
            let weak = TestWeakRef(label!.object)
            let signal = try label!.observe(property: "label", as: String.self)
            let subscription = signal.subscribe()
            label = nil
            XCTAssertFalse(weak.isAlive)
            subscription.dispose()
            var completedAtOnce = false
            signal.subscribe(completed: { completedAtOnce = true })
            XCTAssertTrue(completedAtOnce, "subscribing after the object is gone completes at once")
        }
    }

    func testObservingAnUnknownPropertyThrowsATypedError() throws {
        try onMain {
            let label = GObjectHandle(sinking: gtk_label_new("x"))
            XCTAssertThrowsError(try label.observe(property: "colour", as: String.self)) { error in
                XCTAssertEqual(error as? GObjectError, .noSuchProperty(type: "GtkLabel", property: "colour"))
            }
        }
    }

    func testObservingWithATypeThePropertyCannotHoldThrowsAMismatch() throws {
        try onMain {
            let adjustment = GObjectHandle(sinking: gtk_adjustment_new(0, 0, 1, 1, 1, 0))
            XCTAssertThrowsError(try adjustment.observe(property: "value", as: String.self)) { error in
                XCTAssertEqual(
                    error as? GObjectError,
                    .propertyTypeMismatch(
                        type: "GtkAdjustment", property: "value", propertyType: "gdouble", valueType: "String"))
            }
        }
    }

    func testEnumAndStringArrayPropertiesConvert() throws {
        enum Justification: Int32, GEnumConvertible { case left, right, center, fill }
        try onMain {
            let label = GObjectHandle(sinking: gtk_label_new("x"))
            var seen: [Justification] = []
            let subscription = try label.observe(property: "justify", as: Justification.self)
                .subscribe(next: { seen.append($0) })
            defer { subscription.dispose() }
            try label.set(property: "justify", to: Justification.center)
            XCTAssertEqual(seen, [.left, .center])
            XCTAssertEqual(gtk_label_get_justify(OpaquePointer(label.object)), GTK_JUSTIFY_CENTER)

            try label.set(property: "css-classes", to: ["one", "two"])
            XCTAssertEqual(try label.value(of: "css-classes", as: [String].self), ["one", "two"])
            XCTAssertEqual(gtk_widget_has_css_class(label.widgetPointer, "two"), 1)
        }
    }
}

final class EditableTests: GtkTestCase {
    func testTextAndSetTextReadAndEditAnEditableAsTypingWould() throws {
        try onMain {
            let entry = GObjectHandle(sinking: gtk_search_entry_new())
            XCTAssertTrue(entry.isEditable)
            var seen: [String] = []
            let observing = try entry.textSignal().subscribe(next: { seen.append($0) })
            defer { observing.dispose() }
            try entry.setText("tether")
            XCTAssertEqual(try entry.text(), "tether")
            XCTAssertEqual(String(cString: gtk_editable_get_text(entry.editable)), "tether")
            XCTAssertEqual(seen, ["", "tether"])
        }
    }

    func testTextOfAWidgetThatIsNotEditableThrowsNamingTheInterface() throws {
        try onMain {
            let label = GObjectHandle(sinking: gtk_label_new("Hi"))
            XCTAssertFalse(label.isEditable)
            XCTAssertThrowsError(try label.setText("x")) { error in
                XCTAssertEqual(error as? GObjectError, .notImplementing(type: "GtkLabel", interface: "GtkEditable"))
                XCTAssertEqual("\(error)", "GtkLabel does not implement GtkEditable")
            }
            XCTAssertThrowsError(try label.text())
        }
    }
}
