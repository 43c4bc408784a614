import CGio
import Observable

/// One property of one GObject class, found and checked once: its spec, and the GValue plumbing to read
/// and write it with a given Swift type. Param specs belong to their class and live as long as the process.
// Safety: `spec` is immutable and owned by its class for the life of the process.
package struct PropertyAccess<Value: GValueConvertible>: @unchecked Sendable {
    package let spec: UnsafeMutablePointer<GParamSpec>

    /// The property's canonical name (`g_param_spec_get_name`), as `notify::` details use it.
    var name: String { String(cString: g_param_spec_get_name(spec)) }

    package enum Use { case read, write, readWrite }

    package init(_ object: UnsafeMutablePointer<GObject>, _ property: String, for use: Use) throws(GObjectError) {
        let typeName = String(cString: tether_object_type_name(object))
        guard let spec = g_object_class_find_property(tether_object_class(object), property) else {
            throw .noSuchProperty(type: typeName, property: property)
        }
        let flags = spec.pointee.flags.rawValue
        if use != .write, flags & G_PARAM_READABLE.rawValue == 0 {
            throw .propertyNotReadable(type: typeName, property: property)
        }
        if use != .read, flags & G_PARAM_WRITABLE.rawValue == 0 || flags & G_PARAM_CONSTRUCT_ONLY.rawValue != 0 {
            throw .propertyNotWritable(type: typeName, property: property)
        }
        guard Value.canRepresent(spec.pointee.value_type) else {
            throw .propertyTypeMismatch(
                type: typeName, property: property,
                propertyType: String(cString: g_type_name(spec.pointee.value_type)), valueType: "\(Value.self)")
        }
        self.spec = spec
    }

    /// The property's current value (`g_object_get_property`).
    package func read(_ object: UnsafeMutablePointer<GObject>) -> Value? {
        var value = GValue()
        g_value_init(&value, spec.pointee.value_type)
        defer { g_value_unset(&value) }
        g_object_get_property(object, g_param_spec_get_name(spec), &value)
        return withUnsafePointer(to: &value) { Value(gValue: $0) }
    }

    /// Writes `newValue` (`g_object_set_property`), unless the property already holds an equal value.
    /// Returns whether it wrote.
    @discardableResult
    package func write(_ newValue: Value, to object: UnsafeMutablePointer<GObject>) -> Bool {
        if let current = readIfReadable(object), current == newValue { return false }
        var value = GValue()
        g_value_init(&value, spec.pointee.value_type)
        defer { g_value_unset(&value) }
        guard newValue.store(in: &value) else { return false }
        g_object_set_property(object, g_param_spec_get_name(spec), &value)
        return true
    }

    private func readIfReadable(_ object: UnsafeMutablePointer<GObject>) -> Value? {
        guard spec.pointee.flags.rawValue & G_PARAM_READABLE.rawValue != 0 else { return nil }
        return read(object)
    }
}

// The signals, bindings and channels of a property. Nonisolated on purpose: their closures run on
// whatever thread sends (values) or emits (GLib), never assuming the main actor.
extension PropertyAccess {
    /// The current value, then each change; completes when the object is disposed. Each emission of one
    /// of `otherSignals` (already validated) reads the value again too, for properties a class changes
    /// without notifying.
    package func signal(of weakObject: WeakObject, readingAgainOn otherSignals: [String] = []) -> Signal<Value, Never> {
        let access = self
        let detailedSignal = "notify::" + name
        return Signal { observer in
            weakObject.withObject { instance -> (any Disposable)? in
                let readAndSend: @Sendable (GSignalArguments) -> Void = { arguments in
                    if let value = arguments.instance.flatMap({ access.read($0) }) { observer.send(value) }
                }
                let connection = GSignalConnection.connect(
                    instance, detailedSignal, after: false, body: readAndSend,
                    onEnd: { observer.sendCompleted() })
                if otherSignals.isEmpty {
                    if let value = access.read(instance) { observer.send(value) }
                    return connection
                }
                let connections = CompositeDisposable()
                connections.add(connection)
                for other in otherSignals {
                    connections.add(GSignalConnection.connect(instance, other, after: false, body: readAndSend))
                }
                if let value = access.read(instance) { observer.send(value) }
                return connections
            }
                ?? {
                    observer.sendCompleted()
                    return nil
                }()
        }
    }

    /// Writes each value of `source` (on the main thread), until the object is disposed or `source` ends.
    package func bind(_ weakObject: WeakObject, to source: Signal<Value, Never>) -> any Disposable {
        let access = self
        let writer = MainThreadWriter()
        let binding = CompositeDisposable()
        // A handler whose only job is to hear about the object's disposal, which ends the binding.
        let lifetime = weakObject.withObject { instance in
            GSignalConnection.connect(
                instance, "notify::" + name, after: false, body: { _ in }, onEnd: { binding.dispose() })
        }
        guard let lifetime else {
            binding.dispose()
            return binding
        }
        binding.add(lifetime)
        binding.add(
            source.subscribe(
                next: { value in
                    writer.perform {
                        if binding.isDisposed { return }
                        if weakObject.withObject({ access.write(value, to: $0) }) == nil { binding.dispose() }
                    }
                },
                // Through the writer too: a value sent on another thread just before the completion is
                // still queued for the main thread, and must be written before the binding ends.
                completed: { writer.perform { binding.dispose() } }))
        return binding
    }

    /// The two-way terminal: values from ``signal(of:)``, sets written on the main thread.
    package func channel(_ weakObject: WeakObject) -> ChannelTerminal<Value, Never> {
        let access = self
        let writer = MainThreadWriter()
        return ChannelTerminal(
            values: signal(of: weakObject),
            set: { value in writer.perform { _ = weakObject.withObject { access.write(value, to: $0) } } })
    }
}
