import CGtk
import TetherGObject

// GtkEditable — the interface of GtkEntry, GtkSearchEntry, GtkPasswordEntry, GtkText, GtkSpinButton —
// in Swift, so that reading and typing text needs no C casts.
extension GObjectHandle {
    /// Whether the object implements `GtkEditable` (entries, search and password entries, spin buttons,
    /// `GtkText`): whether ``text()`` and ``setText(_:)`` work on it.
    ///
    /// ```swift
    /// let entry = GObjectHandle(sinking: gtk_entry_new())
    /// let label = GObjectHandle(sinking: gtk_label_new(""))
    /// print(entry.isEditable, label.isEditable)   // true false
    /// ```
    public var isEditable: Bool { editable != nil }

    /// The text of an editable widget (`gtk_editable_get_text`).
    ///
    /// - Throws: `GObjectError.notImplementing(type:interface:)` when the object is not a `GtkEditable`.
    ///
    /// ```swift
    /// let entry = GObjectHandle(sinking: gtk_entry_new())
    /// try entry.setText("ann")
    /// print(try entry.text())   // ann
    /// ```
    public func text() throws(GObjectError) -> String {
        guard let editable else { throw .notImplementing(type: typeName, interface: "GtkEditable") }
        return String(cString: gtk_editable_get_text(editable))
    }

    /// Replaces the text of an editable widget as an edit would (`gtk_editable_set_text`): `notify::text`
    /// is emitted, so ``textSignal()``, ``observe(property:as:)`` and channels on `text` follow it.
    ///
    /// - Throws: `GObjectError.notImplementing(type:interface:)` when the object is not a `GtkEditable`.
    ///
    /// ```swift
    /// let search = GObjectHandle(sinking: gtk_search_entry_new())
    /// try search.textSignal().subscribe(next: { print("query:", $0) })   // query:
    /// try search.setText("tether")                                        // query: tether
    /// ```
    public func setText(_ text: String) throws(GObjectError) {
        guard let editable else { throw .notImplementing(type: typeName, interface: "GtkEditable") }
        gtk_editable_set_text(editable, text)
    }
}
