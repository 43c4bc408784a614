import Foundation
import TetherGio
import TetherGioTestSupport
import XCTest

/// TetherGObject on a GIO object, with nothing of GTK imported: a `GSimpleAction`'s `enabled`
/// property observed, bound and linked both ways, and its `activate` signal as a signal.
final class GObjectWithoutGtkTests: XCTestCase {
    func testAGIOObjectsPropertyIsASignalABindingTargetAndAChannel() throws {
        try MainActor.assumeIsolated {
            let action = GObjectHandle(taking: g_simple_action_new("save", nil))
            XCTAssertEqual(action.typeName, "GSimpleAction")
            let enabled = Locked([Bool]())
            let observation = try action.observe(property: "enabled", as: Bool.self).subscribe(next: { value in
                enabled.modify { $0.append(value) }
            })
            defer { observation.dispose() }
            g_simple_action_set_enabled(action.opaquePointer, 0)
            XCTAssertEqual(enabled.load(), [true, false], "the current value, then the change")

            let canSave = MutableProperty(true)
            let binding = try action.bind(property: "enabled", to: canSave)
            XCTAssertEqual(try action.value(of: "enabled", as: Bool.self), true)
            canSave.value = false
            XCTAssertEqual(g_action_get_enabled(action.opaquePointer), 0)
            binding.dispose()

            let model = MutableProperty(true)
            let link = try action.channel(property: "enabled", as: Bool.self) <~> model.channel()
            defer { link.dispose() }
            XCTAssertEqual(g_action_get_enabled(action.opaquePointer), 1, "the model's value, written")
            g_simple_action_set_enabled(action.opaquePointer, 0)
            XCTAssertEqual(model.value, false, "the object's change, in the model")
            XCTAssertThrowsError(try action.observe(property: "colour", as: String.self)) { error in
                XCTAssertEqual(error as? GObjectError, .noSuchProperty(type: "GSimpleAction", property: "colour"))
            }
        }
    }

    func testAGIOObjectsSignalSendsItsArgumentUntilTheObjectGoes() throws {
        try MainActor.assumeIsolated {
            var action: GObjectHandle? = GObjectHandle(taking: g_simple_action_new("open", g_variant_type_new("s")))
            let opened = Locked([String]())
            let completed = Locked(false)
            let subscription = try action!.signal(named: "activate") { arguments -> String? in
                guard let parameter = arguments.value(at: 1, as: GVariantPointer.self) else { return nil }
                return parameter.string
            }
            .subscribe(next: { name in opened.modify { $0.append(name) } }, completed: { completed.store(true) })
            defer { subscription.dispose() }
            g_action_activate(action!.opaquePointer, g_variant_new_string("notes.txt"))
            XCTAssertEqual(opened.load(), ["notes.txt"])
            action = nil  // the last reference: the action is finalized
            XCTAssertTrue(completed.load(), "the signal completes when its object goes")
        }
    }
}

/// A `GVariant *` argument (a boxed `GVariant` value) read as the string it holds.
private struct GVariantPointer: GValueConvertible {
    let string: String
    init?(gValue: UnsafePointer<GValue>) {
        guard g_type_fundamental(tether_value_type(gValue)) == g_type_from_name("GVariant"),
            let variant = g_value_get_variant(gValue)
        else { return nil }
        string = String(cString: g_variant_get_string(variant, nil))
    }
    func store(in gValue: UnsafeMutablePointer<GValue>) -> Bool { false }
    static func canRepresent(_ type: GType) -> Bool { false }
}
