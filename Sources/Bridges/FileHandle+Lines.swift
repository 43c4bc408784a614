import Foundation
import Observable

extension Signal where Value == Data, Failure == BridgeError {
    /// The bytes read from a `FileHandle` until end of file (see ``bytes(from:maxLength:)`` for a raw
    /// descriptor: the same errors, the same release of resources).
    ///
    /// A handle that is already closed sends ``BridgeError/invalidFileDescriptor(_:)``. The handle keeps
    /// its descriptor; the bridge reads a duplicate, so closing the handle while subscribed is safe.
    ///
    /// ```swift
    /// Signal.bytes(from: FileHandle.standardInput).subscribe(next: { print($0.count) })
    /// ```
    public static func bytes(from handle: FileHandle, maxLength: Int = 65_536) -> Signal {
        Signal.deferred { bytes(from: handle.fileDescriptor, maxLength: maxLength) }
    }
}

extension Signal where Value == String, Failure == BridgeError {
    /// The lines read from a `FileHandle` — with `FileHandle.standardInput`, what the user types in the
    /// terminal (Linux's `rac_textSignal`). Line splitting and decoding are those of `Signal.lines(from:)` on a descriptor.
    ///
    /// ```swift
    /// Signal.lines(from: FileHandle.standardInput)
    ///     .filter { !$0.isEmpty }
    ///     .subscribe(next: { query in print("searching", query) })
    /// ```
    public static func lines(from handle: FileHandle) -> Signal {
        Signal<Data, BridgeError>.bytes(from: handle).lines()
    }
}
