import CGtk
import TetherGObject

/// Why a widget could not be rendered to an image.
///
/// ```swift
/// let label = GObjectHandle(sinking: gtk_label_new("not in a window"))
/// do { try label.savePNG(to: "/tmp/label.png") } catch { print(error) }   // the widget is not realized …
/// ```
public enum SnapshotError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The object is not a `GtkWidget`.
    case notAWidget(type: String)
    /// The widget has no size or no renderer yet: it is not in a window that was presented and laid out.
    case notRealized(type: String)
    /// GTK could not write the PNG file.
    case writeFailed(path: String)

    /// A sentence saying what went wrong.
    ///
    /// ```swift
    /// print(SnapshotError.writeFailed(path: "/nope/x.png"))   // could not write /nope/x.png
    /// ```
    public var description: String {
        switch self {
        case .notAWidget(let type): return "\(type) is not a widget"
        case .notRealized(let type):
            return "the widget is not realized and laid out (\(type)): present its window and run the main loop first"
        case .writeFailed(let path): return "could not write \(path)"
        }
    }
}

extension GObjectHandle {
    /// Renders the widget as it looks now into a PNG file, inside the process (no screen grab): the
    /// widget's paintable is snapshotted and rendered by its window's renderer. The widget must be in a
    /// presented window that the main loop has laid out.
    ///
    /// Presenting a window is asynchronous: right after `gtk_window_present` the window is usually not
    /// mapped and laid out yet (a call then fails with ``SnapshotError/notRealized(type:)`` — about one run
    /// in three under Xvfb). Run the main loop until the widget is mapped and has a size first, as below;
    /// `savePNG` itself never runs the loop (it would run your handlers inside the call).
    ///
    /// - Throws: ``SnapshotError``.
    ///
    /// ```swift
    /// let window = GObjectHandle(retaining: gtk_window_new())
    /// gtk_window_present(window.pointer(as: GtkWindow.self))
    /// while gtk_widget_get_mapped(window.widgetPointer) == 0 || gtk_widget_get_width(window.widgetPointer) == 0 {
    ///     g_main_context_iteration(nil, 1)   // wait until GTK has mapped and laid out the window
    /// }
    /// try window.savePNG(to: "window.png")
    /// ```
    public func savePNG(to path: String) throws(SnapshotError) {
        guard let widget = widgetPointer else { throw .notAWidget(type: typeName) }
        let width = gtk_widget_get_width(widget)
        let height = gtk_widget_get_height(widget)
        guard width > 0, height > 0, let native = gtk_widget_get_native(widget),
            let renderer = gtk_native_get_renderer(native)
        else { throw .notRealized(type: typeName) }
        let paintable = gtk_widget_paintable_new(widget)
        defer { g_object_unref(UnsafeMutableRawPointer(paintable)) }
        let snapshot = gtk_snapshot_new()
        gdk_paintable_snapshot(paintable, snapshot, Double(width), Double(height))
        guard let node = gtk_snapshot_free_to_node(snapshot) else { throw .notRealized(type: typeName) }
        defer { gsk_render_node_unref(node) }
        var bounds = graphene_rect_t()
        graphene_rect_init(&bounds, 0, 0, Float(width), Float(height))
        guard let texture = gsk_renderer_render_texture(renderer, node, &bounds) else {
            throw .notRealized(type: typeName)
        }
        defer { g_object_unref(UnsafeMutableRawPointer(texture)) }
        guard gdk_texture_save_to_png(texture, path) != 0 else { throw .writeFailed(path: path) }
    }
}
