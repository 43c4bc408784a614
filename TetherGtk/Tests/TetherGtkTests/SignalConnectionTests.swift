import Foundation
import TetherGioTestSupport
import TetherGtk
import XCTest

final class SignalConnectionTests: GtkTestCase {
    func testEmittingClickedRunsTheConnectedHandler() throws {
        try onMain {
            let button = GObjectHandle(sinking: gtk_button_new_with_label("OK"))
            var clicks = 0
            let connection = try button.connect("clicked") { arguments in
                XCTAssertEqual(arguments.instance, button.object)
                XCTAssertFalse(arguments.setReturnValue(true), "clicked returns nothing")
                clicks += 1
            }
            defer { connection.dispose() }
            XCTAssertTrue(button.emit("clicked"))
            XCTAssertTrue(button.emit("clicked"))
            XCTAssertEqual(clicks, 2)
        }
    }

    func testDisposalDisconnectsTheHandlerAndReleasesItsBox() throws {
        try onMain {
            let before = GSignalConnection.liveCount
            let button = GObjectHandle(sinking: gtk_button_new_with_label("OK"))
            var clicks = 0
            let connection = try button.connect("clicked") { _ in clicks += 1 }
            XCTAssertEqual(GSignalConnection.liveCount, before + 1)
            XCTAssertTrue(connection.isConnected)
            connection.dispose()
            XCTAssertFalse(connection.isConnected)
            XCTAssertEqual(GSignalConnection.liveCount, before, "GLib finalized the closure, releasing the box")
            button.emit("clicked")
            XCTAssertEqual(clicks, 0)
            XCTAssertEqual(g_signal_handler_is_connected(button.object, gulong(connection.handlerID)), 0)
        }
    }

    func testNothingLeaksAfterTheWidgetIsDestroyed() throws {
        final class Tracked {}
        try onMain {
            let before = GSignalConnection.liveCount
            weak var tracked: Tracked?
            var button: GObjectHandle? = GObjectHandle(sinking: gtk_button_new_with_label("OK"))
            let weakButton = TestWeakRef(button!.object)
            var connections: [GSignalConnection] = []
            do {
                let captured = Tracked()
                tracked = captured
                connections.append(try button!.connect("clicked") { _ in _ = captured })
                connections.append(try button!.connect("notify::label") { _ in _ = captured })
                try button!.signal(named: "clicked").subscribe(next: { _ = captured })
                try button!.observe(property: "label", as: String.self).subscribe(next: { _ in _ = captured })
            }
            XCTAssertEqual(GSignalConnection.liveCount, before + 4)
            button = nil
            XCTAssertFalse(weakButton.isAlive)
            XCTAssertEqual(GSignalConnection.liveCount, before)
            XCTAssertNil(tracked, "what the handlers captured was released with them")
            XCTAssertEqual(connections.map(\.isConnected), [false, false])
        }
    }

    func testDisposingAfterTheObjectIsFinalizedIsQuiet() throws {
        try onMain {
            let criticals = GLibCriticalCounter()
            var label: GObjectHandle? = GObjectHandle(sinking: gtk_label_new("x"))
            let connection = try label!.connect("notify::label") { _ in }
            label = nil
            connection.dispose()
            connection.dispose()
            XCTAssertEqual(criticals.criticals, 0)
        }
    }

    func testSignalNamedSendsEachEmissionAndCompletesWithTheObject() throws {
        try onMain {
            var entry: GObjectHandle? = GObjectHandle(sinking: gtk_entry_new())
            var activations = 0
            var completed = false
            try entry!.signal(named: "activate").subscribe(next: { activations += 1 }, completed: { completed = true })
            entry!.emit("activate")
            entry!.emit("activate")
            XCTAssertEqual(activations, 2)
            entry = nil
            XCTAssertTrue(completed)
        }
    }

    func testConnectingAnUnknownSignalThrowsATypedError() throws {
        try onMain {
            let button = GObjectHandle(sinking: gtk_button_new())
            XCTAssertThrowsError(try button.connect("pressed") { _ in }) { error in
                XCTAssertEqual(error as? GObjectError, .noSuchSignal(type: "GtkButton", signal: "pressed"))
            }
            XCTAssertFalse(button.emit("pressed"))
        }
    }

    func testDisposingOnAnotherThreadDisconnectsOnTheMainThread() throws {
        try onMain {
            let button = GObjectHandle(sinking: gtk_button_new_with_label("OK"))
            var clicks = 0
            let connection = try button.connect("clicked") { _ in clicks += 1 }
            let disposed = DispatchSemaphore(value: 0)
            DispatchQueue.global().async {
                connection.dispose()
                disposed.signal()
            }
            disposed.wait()
            button.emit("clicked")
            XCTAssertEqual(clicks, 0, "nothing runs once dispose() returned")
            pump(until: { g_signal_handler_is_connected(button.object, gulong(connection.handlerID)) == 0 })
        }
    }

    func testAHandlerCanSetTheReturnValueOfASignal() throws {
        try onMain {
            let window = GObjectHandle(retaining: gtk_window_new())
            defer { gtk_window_destroy(UnsafeMutableRawPointer(window.object).assumingMemoryBound(to: GtkWindow.self)) }
            var asked = 0
            let connection = try window.connect("close-request") { arguments in
                asked += 1
                XCTAssertTrue(arguments.setReturnValue(true))
            }
            defer { connection.dispose() }
            XCTAssertTrue(window.emit("close-request"), "a signal returning gboolean is emitted with a result value")
            XCTAssertEqual(asked, 1)
        }
    }
}
