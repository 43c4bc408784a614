/// A weak reference that can be captured by `@Sendable` closures.
final class WeakReference: @unchecked Sendable {
    // Safety: a `weak let` is read atomically by the runtime and never reassigned.
    weak let object: AnyObject?
    init(_ object: AnyObject) { self.object = object }
}
