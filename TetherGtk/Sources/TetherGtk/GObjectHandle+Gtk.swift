import CGtk
import TetherGObject

// What only GTK objects have: a handle seen as a widget or as an editable (the handle itself, with its
// properties and signals, is TetherGObject's).
extension GObjectHandle {
    /// The object as a `GtkWidget *`, or `nil` when it is not a widget.
    ///
    /// ```swift
    /// let label = GObjectHandle(sinking: gtk_label_new("Hi"))
    /// gtk_widget_set_visible(label.widgetPointer, 0)
    /// ```
    public var widgetPointer: UnsafeMutablePointer<GtkWidget>? {
        guard tether_object_is_a(object, gtk_widget_get_type()) != 0 else { return nil }
        return UnsafeMutableRawPointer(object).assumingMemoryBound(to: GtkWidget.self)
    }

    /// The object as a `GtkEditable *` (entries, search entries, spin buttons), or `nil` — for GTK's
    /// `gtk_editable_*` functions; ``text()`` and ``setText(_:)`` cover the text without C.
    ///
    /// ```swift
    /// let entry = GObjectHandle(sinking: gtk_entry_new())
    /// gtk_editable_set_text(entry.editable, "typed")
    /// ```
    public var editable: OpaquePointer? {
        guard tether_object_is_a(object, gtk_editable_get_type()) != 0 else { return nil }
        return OpaquePointer(object)
    }
}
