import TetherGio

/// Emits `signal` on `instance` with one argument of type `argumentType`, which `setArgument` stores
/// (`g_signal_emitv`), as GIO's monitors emit theirs; `false` when the class has no such signal.
func emit(
    _ signal: String, on instance: UnsafeMutablePointer<GObject>, argumentType: GType,
    _ setArgument: (UnsafeMutablePointer<GValue>) -> Void
) -> Bool {
    let type = tether_object_type(instance)
    let id = g_signal_lookup(signal, type)
    guard id != 0 else { return false }
    var values = [GValue](repeating: GValue(), count: 2)
    values.withUnsafeMutableBufferPointer { buffer in
        let base = buffer.baseAddress!
        g_value_init(base, type)
        g_value_set_object(base, instance)
        g_value_init(base + 1, argumentType)
        setArgument(base + 1)
        g_signal_emitv(base, id, 0, nil)
        g_value_unset(base)
        g_value_unset(base + 1)
    }
    return true
}
