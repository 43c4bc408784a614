import Bridges
import Foundation
import Observable

extension Signal where Value == Key, Failure == BridgeError {
    /// The keys typed on the terminal behind `fileDescriptor`: Bridges' `Signal.bytes(from:)` (a reader
    /// thread polling the descriptor) decoded by a ``KeyDecoder`` — one decoder per subscription (`scan`'s
    /// state), since a key may be split between two reads. Completes at end of input.
    ///
    /// ```swift
    /// Signal.keys(from: STDIN_FILENO).deliver(on: QueueScheduler.main).subscribe(next: { app.handle($0) })
    /// ```
    static func keys(from fileDescriptor: Int32) -> Signal {
        Signal<Data, BridgeError>.bytes(from: fileDescriptor)
            .scan((decoder: KeyDecoder(), keys: [Key]())) { state, bytes in
                var decoder = state.decoder
                let keys = decoder.decode(bytes)
                return (decoder, keys)
            }
            .concatMap { Signal(values: $0.keys) }
    }
}
