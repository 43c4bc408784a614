import TetherGtk

/// GTK 4 imports some widget types as typed pointers and others as `OpaquePointer`; these casts keep the
/// demo's layout code readable.
extension UnsafeMutablePointer where Pointee == GtkWidget {
    var box: UnsafeMutablePointer<GtkBox> { UnsafeMutableRawPointer(self).assumingMemoryBound(to: GtkBox.self) }
    var window: UnsafeMutablePointer<GtkWindow> {
        UnsafeMutableRawPointer(self).assumingMemoryBound(to: GtkWindow.self)
    }
    var entry: UnsafeMutablePointer<GtkEntry> {
        UnsafeMutableRawPointer(self).assumingMemoryBound(to: GtkEntry.self)
    }
    var opaque: OpaquePointer { OpaquePointer(self) }
}

/// A vertical or horizontal box holding `children`, with `spacing` between them.
@MainActor
func makeBox(_ orientation: GtkOrientation, spacing: Int32, _ children: [UnsafeMutablePointer<GtkWidget>])
    -> UnsafeMutablePointer<GtkWidget>
{
    let box = gtk_box_new(orientation, spacing)!
    for child in children { gtk_box_append(box.box, child) }
    return box
}

/// A label with Pango markup, aligned to the start.
@MainActor
func makeLabel(markup: String, wraps: Bool = false) -> UnsafeMutablePointer<GtkWidget> {
    let label = gtk_label_new(nil)!
    gtk_label_set_markup(label.opaque, markup)
    gtk_label_set_xalign(label.opaque, 0)
    if wraps { gtk_label_set_wrap(label.opaque, 1) }
    return label
}

/// `text` escaped for Pango markup.
nonisolated func escapedMarkup(_ text: String) -> String {
    guard let escaped = g_markup_escape_text(text, -1) else { return "" }
    defer { g_free(escaped) }
    return String(cString: escaped)
}

/// The demo's style sheet: invalid fields are yellow, as in the RAC tutorial.
let demoStyleSheet = """
    entry.invalid, entry.invalid text { background-color: #fff3a0; }
    .panel { padding: 18px; }
    """

/// Loads ``demoStyleSheet`` for the default display.
@MainActor
func installStyleSheet() {
    guard let display = gdk_display_get_default() else { return }
    let provider = gtk_css_provider_new()
    gtk_css_provider_load_from_data(provider, demoStyleSheet, -1)
    gtk_style_context_add_provider_for_display(
        display, OpaquePointer(provider), guint(GTK_STYLE_PROVIDER_PRIORITY_APPLICATION))
}
