import Synchronization

/// Runs `body` with `object` installed in one of TetherShims' per-thread slots (`TETHER_THREAD_SLOT`),
/// then puts back what the slot held before: scopes nest, an inner one standing in for the outer one
/// while its body runs.
///
/// `active` counts the threads inside such a scope right now, so that a hot path (an `@Observed` getter,
/// a gate leaving a submission for later) looks the slot up only when it is non-zero: one relaxed load
/// when nobody is in a scope. The slot holds `object` unretained; it is kept alive until `body` returns.
///
/// Returns the body's result and what the slot held before (an enclosing scope's object, unretained).
///
/// <!-- example: skip -->
/// ```swift
/// let tracker = ReadTracker()
/// let (value, _) = withObjectInThreadSlot(
///     tracker, read: tether_read_tracker, write: tether_set_read_tracker,
///     active: observedReadTrackingDepth) { model.name }
/// ```
@inline(__always)
package func withObjectInThreadSlot<Result>(
    _ object: AnyObject,
    read: () -> UnsafeMutableRawPointer?,
    write: (UnsafeMutableRawPointer?) -> Void,
    active: borrowing RelaxedCounter,
    _ body: () -> Result
) -> (result: Result, enclosing: UnsafeMutableRawPointer?) {
    let enclosing = read()
    write(Unmanaged.passUnretained(object).toOpaque())
    active.add(1)
    let result = withExtendedLifetime(object) { body() }
    active.add(-1)
    write(enclosing)
    return (result, enclosing)
}
