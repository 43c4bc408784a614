import Foundation
import TetherGioTestSupport
import XCTest

@testable import TetherGio

/// A key's value as a signal, written through Tether, by another `GSettingsHandle`, or by another process.
final class GSettingsSignalTests: XCTestCase {
    private func memorySettings() throws -> GSettingsHandle {
        try GSettingsHandle(schema: TestSchema.id, schemaDirectory: TestSchema.directory, backend: .memory)
    }

    func testEveryCommonTypeRoundTripsThroughGVariant() throws {
        let settings = try memorySettings()
        try settings.set(true, forKey: "remember-me")
        try settings.set(Int32(-7), forKey: "offset")
        try settings.set(1024, forKey: "window-width")
        try settings.set(0.25, forKey: "volume")
        try settings.set("ann ✓", forKey: "username")
        try settings.set(["a.txt", "b c.txt", ""], forKey: "recent")
        XCTAssertEqual(try settings.value(forKey: "remember-me", as: Bool.self), true)
        XCTAssertEqual(try settings.value(forKey: "offset", as: Int32.self), -7)
        XCTAssertEqual(try settings.value(forKey: "offset", as: Int.self), -7)
        XCTAssertEqual(try settings.value(forKey: "window-width", as: Int.self), 1024)
        XCTAssertEqual(try settings.value(forKey: "volume", as: Double.self), 0.25)
        XCTAssertEqual(try settings.value(forKey: "username", as: String.self), "ann ✓")
        XCTAssertEqual(try settings.value(forKey: "recent", as: [String].self), ["a.txt", "b c.txt", ""])
        try settings.set([String](), forKey: "recent")
        XCTAssertEqual(try settings.value(forKey: "recent", as: [String].self), [])
    }

    func testTheKeysOfTheSchemaAreListed() throws {
        XCTAssertEqual(
            Set(try memorySettings().keys),
            ["username", "remember-me", "window-width", "offset", "volume", "recent", "labels", "options"])
    }

    func testObservingSendsTheCurrentValueThenEachChangeWithoutRepeats() throws {
        let settings = try memorySettings()
        try settings.set("ann", forKey: "username")
        let received = Locked([String]())
        let subscription = try settings.observe(key: "username", as: String.self).subscribe(next: { value in
            received.modify { $0.append(value) }
        })
        defer { subscription.dispose() }
        XCTAssertEqual(received.load(), ["ann"], "the current value at once, on the handle's thread")
        try settings.set("bob", forKey: "username")
        try settings.set("bob", forKey: "username")
        try settings.set("cid", forKey: "username")
        pump(until: { received.load().count == 3 })
        drainMainContext()
        XCTAssertEqual(received.load(), ["ann", "bob", "cid"])
    }

    func testChangesWrittenOnAnotherThreadArriveOnTheMainContextInOrder() throws {
        let settings = try memorySettings()
        let received = Locked([Int]())
        let threads = Locked([Bool]())
        let subscription = try settings.observe(key: "offset", as: Int.self).subscribe(next: { value in
            received.modify { $0.append(value) }
            threads.modify { $0.append(Thread.isMainThread) }
        })
        defer { subscription.dispose() }
        DispatchQueue.global().async {
            for value in 1...20 { try! settings.set(value, forKey: "offset") }
        }
        pump(until: { received.load().last == 20 })
        XCTAssertEqual(received.load().first, 0)
        XCTAssertEqual(received.load(), received.load().sorted(), "in the order written")
        XCTAssertEqual(Set(threads.load()), [true])
    }

    func testASubscriptionMadeOnAnotherThreadGetsTheCurrentValueBeforeSubscribeReturns() throws {
        // Issue 43 item 6: as `observe`, `MutableProperty` and `BehaviorSubject`, on any thread; the changes
        // that follow arrive on the main context.
        let settings = try memorySettings()
        try settings.set(0.75, forKey: "volume")
        let received = Locked([(Double, Bool)]())
        let atSubscribe = Locked(nil as [Double]?)
        let subscription = Locked(nil as AnyDisposable?)
        let subscribed = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            let volume = try! settings.observe(key: "volume", as: Double.self)
            let disposable = volume.subscribe(next: { value in
                received.modify { $0.append((value, Thread.isMainThread)) }
            })
            atSubscribe.store(received.load().map(\.0))
            subscription.store(AnyDisposable { disposable.dispose() })
            subscribed.signal()
        }
        XCTAssertEqual(subscribed.wait(timeout: .now() + 30), .success, "watchdog: the subscription on another thread")
        XCTAssertEqual(atSubscribe.load(), [0.75], "the current value when subscribe returned, with no loop run")
        XCTAssertEqual(received.load().map(\.1), [false], "sent on the subscribing thread")
        drainMainContext()
        XCTAssertEqual(received.load().map(\.0), [0.75], "the watch's own read is not sent again")
        try settings.set(0.5, forKey: "volume")
        pump(until: { received.load().count == 2 })
        XCTAssertEqual(received.load().map(\.0), [0.75, 0.5])
        XCTAssertEqual(received.load().map(\.1), [false, true], "changes on the main context")
        subscription.load()?.dispose()
    }

    func testAHandleMadeOnAnotherThreadSendsOnTheMainLoopThread() throws {
        let made = Locked(nil as GSettingsHandle?)
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            made.store(
                try! GSettingsHandle(schema: TestSchema.id, schemaDirectory: TestSchema.directory, backend: .memory))
            done.signal()
        }
        done.wait()
        let settings = try XCTUnwrap(made.load())
        let threads = Locked([Bool]())
        let values = Locked([String]())
        let subscription = try settings.observe(key: "username", as: String.self).subscribe(next: { value in
            values.modify { $0.append(value) }
            threads.modify { $0.append(Thread.isMainThread) }
        })
        defer { subscription.dispose() }
        XCTAssertEqual(values.load(), [""], "subscribed on the main thread: the current value at once")
        DispatchQueue.global().async { try! settings.set("from a worker", forKey: "username") }
        pump(until: { values.load().count == 2 })
        XCTAssertEqual(values.load(), ["", "from a worker"])
        XCTAssertEqual(threads.load(), [true, true])
    }

    func testDisposingTheObservationStopsItsValues() throws {
        let settings = try memorySettings()
        let received = Locked([Bool]())
        let subscription = try settings.observe(key: "remember-me", as: Bool.self).subscribe(next: { value in
            received.modify { $0.append(value) }
        })
        try settings.set(true, forKey: "remember-me")
        pump(until: { received.load() == [false, true] })
        subscription.dispose()
        try settings.set(false, forKey: "remember-me")
        // A second observer proves the change was announced; the disposed one did not get it.
        let later = Locked([Bool]())
        let witness = try settings.observe(key: "remember-me", as: Bool.self).subscribe(next: { value in
            later.modify { $0.append(value) }
        })
        defer { witness.dispose() }
        try settings.set(true, forKey: "remember-me")
        pump(until: { later.load() == [false, true] })
        XCTAssertEqual(received.load(), [false, true])
    }

    func testAChangeMadeByAnotherProcessIsObserved() throws {
        let store = SharedKeyFile()
        let settings = try GSettingsHandle(
            schema: TestSchema.id, schemaDirectory: TestSchema.directory, backend: .keyfile(path: store.path))
        let received = Locked([String]())
        let subscription = try settings.observe(key: "username", as: String.self).subscribe(next: { value in
            received.modify { $0.append(value) }
        })
        defer { subscription.dispose() }
        XCTAssertEqual(received.load(), [""])
        store.gsettings("set", TestSchema.id, "username", "'from another process'")
        pump(until: { received.load().count == 2 })
        XCTAssertEqual(received.load(), ["", "from another process"])
        store.gsettings("set", TestSchema.id, "username", "'again'")
        pump(until: { received.load().count == 3 })
        XCTAssertEqual(received.load().last, "again")
    }

    func testAValueWrittenHereIsReadByAnotherProcess() throws {
        let store = SharedKeyFile()
        let settings = try GSettingsHandle(
            schema: TestSchema.id, schemaDirectory: TestSchema.directory, backend: .keyfile(path: store.path))
        try settings.set(["x", "y"], forKey: "recent")
        try settings.set(2048, forKey: "window-width")
        g_settings_sync()
        XCTAssertEqual(store.gsettings("get", TestSchema.id, "recent"), "['x', 'y']")
        XCTAssertEqual(store.gsettings("get", TestSchema.id, "window-width"), "2048")
    }

    func testDictionaryKeysRoundTripWithAnotherProcess() throws {
        let store = SharedKeyFile()
        let settings = try GSettingsHandle(
            schema: TestSchema.id, schemaDirectory: TestSchema.directory, backend: .keyfile(path: store.path))
        try settings.set(["theme": "dark"], forKey: "labels")
        try settings.set(["zoom": GVariantValue(1.5)!], forKey: "options")
        g_settings_sync()
        XCTAssertEqual(store.gsettings("get", TestSchema.id, "labels"), "{'theme': 'dark'}")
        XCTAssertEqual(store.gsettings("get", TestSchema.id, "options"), "{'zoom': <1.5>}")
        let received = Locked([[String: GVariantValue]]())
        let subscription = try settings.observe(key: "options", as: [String: GVariantValue].self).subscribe(next: {
            value in received.modify { $0.append(value) }
        })
        defer { subscription.dispose() }
        store.gsettings("set", TestSchema.id, "options", "{'zoom': <2.0>, 'sidebar': <true>}")
        pump(until: { received.load().count == 2 })
        let latest = received.load()[1]
        XCTAssertEqual(try latest.value("zoom", as: Double.self), 2.0)
        XCTAssertEqual(try latest.value("sidebar", as: Bool.self), true)
        XCTAssertThrowsError(try settings.value(forKey: "options", as: [String: String].self)) {
            XCTAssertEqual(
                $0 as? GSettingsError,
                .typeMismatch(schema: TestSchema.id, key: "options", keyType: "a{sv}", valueType: "a{ss}"))
        }
    }

    func testDisposedObservationsReleaseTheHandleAndItsGSettingsObject() throws {
        weak var released: GSettingsHandle?
        let object = UnsafeMutablePointer<GWeakRef>.allocate(capacity: 1)
        object.initialize(to: GWeakRef())
        defer {
            g_weak_ref_clear(object)
            object.deallocate()
        }
        do {
            let settings = try memorySettings()
            released = settings
            g_weak_ref_init(object, settings.settings)
            let subscriptions = try (0..<3).map { _ in
                try settings.observe(key: "username", as: String.self).subscribe(next: { _ in })
            }
            try settings.set("changed", forKey: "username")
            drainMainContext()
            for subscription in subscriptions { subscription.dispose() }
        }
        drainMainContext()
        XCTAssertNil(released, "no handler keeps the handle alive once disposed")
        XCTAssertNil(g_weak_ref_get(object), "the GSettings object is finalized with its handle")
    }
}
