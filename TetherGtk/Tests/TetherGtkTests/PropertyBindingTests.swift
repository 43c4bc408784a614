import Foundation
import TetherGioTestSupport
import TetherGtk
import XCTest

final class PropertyBindingTests: GtkTestCase {
    func testABindingUpdatesALabel() throws {
        try onMain {
            let label = GObjectHandle(sinking: gtk_label_new(""))
            let name = MutableProperty("Ann")
            let binding = try label.bind(property: "label", to: name.signal.map { "Hello, \($0)!" })
            defer { binding.dispose() }
            XCTAssertEqual(String(cString: gtk_label_get_label(OpaquePointer(label.object))), "Hello, Ann!")
            name.value = "Bob"
            XCTAssertEqual(String(cString: gtk_label_get_label(OpaquePointer(label.object))), "Hello, Bob!")
        }
    }

    func testTheOpaquePointerReachesTheFunctionsOfGTKsOpaqueWidgetTypes() throws {
        // Issue 43 item 8: GtkLabel is opaque in Swift (`pointer(as: GtkLabel.self)` cannot be written);
        // `opaquePointer` is the typed access the docs show.
        try onMain {
            let label = GObjectHandle(sinking: gtk_label_new(""))
            XCTAssertEqual(label.opaquePointer, OpaquePointer(label.object))
            gtk_label_set_text(label.opaquePointer, "Hello")
            XCTAssertEqual(try label.value(of: "label", as: String.self), "Hello")
            try label.set(property: "label", to: "Bye")
            XCTAssertEqual(String(cString: gtk_label_get_label(label.opaquePointer)), "Bye")
        }
    }

    func testABindingSkipsValuesThePropertyAlreadyHolds() throws {
        try onMain {
            let label = GObjectHandle(sinking: gtk_label_new("same"))
            var notifications = 0
            let counting = try label.connect("notify::label") { _ in notifications += 1 }
            defer { counting.dispose() }
            let source = Subject<String, Never>()
            try label.bind(property: "label", to: source)
            source.send("same")
            source.send("same")
            XCTAssertEqual(notifications, 0)
            source.send("new")
            source.send("new")
            XCTAssertEqual(notifications, 1)
        }
    }

    func testValuesSentOnAnotherThreadAreWrittenOnTheMainThreadInOrder() throws {
        try onMain {
            let label = GObjectHandle(sinking: gtk_label_new(""))
            let source = Subject<String, Never>()
            var writtenOnMain: [Bool] = []
            let watcher = try label.connect("notify::label") { _ in writtenOnMain.append(Thread.isMainThread) }
            defer { watcher.dispose() }
            try label.bind(property: "label", to: source)
            let sent = DispatchSemaphore(value: 0)
            DispatchQueue.global().async {
                for index in 1...20 { source.send("value \(index)") }
                sent.signal()
            }
            pump(until: { sent.wait(timeout: .now()) == .success })
            pump(until: { writtenOnMain.count == 20 })
            XCTAssertEqual(String(cString: gtk_label_get_label(OpaquePointer(label.object))), "value 20")
            XCTAssertEqual(writtenOnMain, Array(repeating: true, count: 20))
        }
    }

    func testTheLastValueSentOnAnotherThreadRightBeforeCompletionIsWritten() throws {
        try onMain {
            let label = GObjectHandle(sinking: gtk_label_new("old"))
            let source = Subject<String, Never>()
            let binding = try label.bind(property: "label", to: source)
            let sent = DispatchSemaphore(value: 0)
            DispatchQueue.global().async {
                source.send("last")
                source.sendCompleted()
                sent.signal()
            }
            // The main thread does not run the queued write until this wait is over: the completion has
            // arrived on the other thread by then.
            sent.wait()
            pump(until: { binding.isDisposed })
            XCTAssertEqual(String(cString: gtk_label_get_label(OpaquePointer(label.object))), "last")
        }
    }

    func testAValueDeliveredOnABackgroundSchedulerIsWrittenBeforeItsCompletionEndsTheBinding() throws {
        try onMain {
            let label = GObjectHandle(sinking: gtk_label_new(""))
            let binding = try label.bind(
                property: "label", to: Signal(value: "x").deliver(on: QueueScheduler(name: "bg")))
            pump(until: { binding.isDisposed })
            XCTAssertEqual(String(cString: gtk_label_get_label(OpaquePointer(label.object))), "x")
        }
    }

    func testABindingEndsWhenTheWidgetIsDestroyedAndLeaksNoHandler() throws {
        try onMain {
            let before = GSignalConnection.liveCount
            let source = Subject<String, Never>()
            var label: GObjectHandle? = GObjectHandle(sinking: gtk_label_new(""))
            let binding = try label!.bind(property: "label", to: source)
            XCTAssertEqual(GSignalConnection.liveCount, before + 1)
            label = nil
            XCTAssertTrue(binding.isDisposed, "the binding ends with its target")
            XCTAssertEqual(GSignalConnection.liveCount, before)
            source.send("nobody listens")  // no crash, no critical
        }
    }

    func testBindingToAReadOnlyPropertyThrows() throws {
        try onMain {
            let adjustment = GObjectHandle(sinking: gtk_label_new(""))
            XCTAssertThrowsError(try adjustment.bind(property: "mnemonic-keyval", to: Signal(value: 1))) { error in
                XCTAssertEqual(
                    error as? GObjectError, .propertyNotWritable(type: "GtkLabel", property: "mnemonic-keyval"))
            }
        }
    }

    func testATwoWayChannelJoinsAnEntryAndAnObservedPropertyWithoutFeedback() throws {
        final class Form: KeyPathObservable { @Observed var username = "" }
        try onMain {
            let form = Form()
            form.username = "ann"
            let entry = GObjectHandle(sinking: gtk_entry_new())
            var modelValues: [String] = []
            let watching = form.observe(\.username).subscribe(next: { modelValues.append($0) })
            defer { watching.dispose() }
            var entryNotifications = 0
            let counting = try entry.connect("notify::text") { _ in entryNotifications += 1 }
            defer { counting.dispose() }

            let link = try entry.channel(property: "text", as: String.self) <~> form.channel(\.username)
            defer { link.dispose() }
            XCTAssertEqual(
                String(cString: gtk_editable_get_text(entry.editable)), "ann", "the entry takes the model's value")
            XCTAssertEqual(modelValues, ["ann"])

            gtk_editable_set_text(entry.editable, "tether")
            XCTAssertEqual(form.username, "tether")
            form.username = "bob"
            XCTAssertEqual(String(cString: gtk_editable_get_text(entry.editable)), "bob")
            XCTAssertEqual(modelValues, ["ann", "tether", "bob"], "each change once: no echo")
            XCTAssertEqual(entryNotifications, 3, "the entry changed three times: linked, typed, set by the model")
        }
    }
}
