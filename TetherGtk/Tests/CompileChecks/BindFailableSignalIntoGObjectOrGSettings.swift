// expect-error: 'bind(property:to:)' is unavailable: this signal can fail (its Failure is not Never): handle the failure before binding it into a GObject property
// expect-error: 'bind(_:to:)' is unavailable: this signal can fail (its Failure is not Never): handle the failure before binding it into a GSettings key
// expect-error: 'bind(to:)' is unavailable: this signal can fail (its Failure is not Never)
// expect-error: '<~' is unavailable: this signal can fail (its Failure is not Never)
// expect-error: e.g. `.catch { _ in .empty }` or `.catch { _ in Signal(value: fallback) }`
// Issue 43 item 7: binding a signal that can fail (here a file's contents) into a GTK property or a
// GSettings key names the fix, as the core's `<~` does, not "requires the types 'FileWatchError' and
// 'Never' be equivalent".
import Foundation
import TetherGtk

@MainActor func showConfiguration(label: GObjectHandle, settings: GSettingsHandle, path: String) throws {
    let contents = Signal.fileContents(at: path).map { String(decoding: $0, as: UTF8.self) }
    try label.bind(property: "label", to: contents)
    try settings.bind("username", to: contents)
    let username = try settings.key("username", as: String.self)
    username.bind(to: contents)
    username <~ contents
}
