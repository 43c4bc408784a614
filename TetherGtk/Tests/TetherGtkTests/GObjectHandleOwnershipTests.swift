import Foundation
import TetherGioTestSupport
import TetherGtk
import XCTest

/// The three ways a handle owns its object: `sinking` a floating reference, `retaining` one someone else
/// holds, `taking` one the caller gives up — each dropped exactly once with the handle.
final class GObjectHandleOwnershipTests: GtkTestCase {
    func testEachInitializerLeavesTheHandleOneReferenceThatGoesWithIt() {
        onMain {
            let criticals = GLibCriticalCounter()
            // Floating (a GTK constructor's), sunk by `sinking` and by `taking` alike.
            var sunk: GObjectHandle? = GObjectHandle(sinking: gtk_label_new("a"))
            var taken: GObjectHandle? = GObjectHandle(taking: gtk_label_new("b"))
            // Full, not floating (a GIO constructor's).
            var action: GObjectHandle? = GObjectHandle(taking: g_simple_action_new("c", nil))
            let weakSunk = TestWeakRef(sunk!.object)
            let weakTaken = TestWeakRef(taken!.object)
            let weakAction = TestWeakRef(action!.object)
            for handle in [sunk!, taken!, action!] {
                XCTAssertEqual(g_object_is_floating(handle.object), 0, "\(handle.typeName) is owned, not floating")
            }
            // Someone else's reference, retained: the object outlives the handle.
            let owned = g_simple_action_new("d", nil)!
            var retained: GObjectHandle? = GObjectHandle(retaining: owned)
            let weakOwned = TestWeakRef(owned.gObject)
            XCTAssertEqual(retained?.object, owned.gObject)

            (sunk, taken, action, retained) = (nil, nil, nil, nil)
            XCTAssertFalse(weakSunk.isAlive)
            XCTAssertFalse(weakTaken.isAlive)
            XCTAssertFalse(weakAction.isAlive)
            XCTAssertTrue(weakOwned.isAlive, "the handle dropped only its own reference")
            g_object_unref(owned.gObject)
            XCTAssertFalse(weakOwned.isAlive)
            XCTAssertEqual(criticals.criticals, 0)
        }
    }
}
