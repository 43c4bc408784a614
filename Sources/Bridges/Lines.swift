import Foundation
import Observable

extension SignalConvertible where Value == Data {
    /// Splits a stream of byte chunks into lines.
    ///
    /// Lines end at `"\n"`; a `"\r\n"` ending is removed as well. When the upstream completes, a last
    /// line without a trailing newline is sent before completion (an empty remainder is not). Each line
    /// is decoded as UTF-8 only once it is complete, so a multi-byte character split across chunks is
    /// decoded whole; invalid UTF-8 becomes U+FFFD. Errors pass through (a pending partial line is
    /// dropped).
    ///
    /// ```swift
    /// Signal<Data, Never>(values: [Data("ab\ncd".utf8), Data("e\n".utf8)]).lines()
    /// ```
    /// Marble: `-"ab\ncd"-"e\nf"-|` → `-"ab"-"cde"-"f"|`
    public func lines() -> Signal<String, Failure> {
        return Signal(wrapping: self) { upstream, observer in
            // Mutated only from the upstream's callbacks, which never run concurrently.
            var decoder = LineDecoder()
            return upstream.subscribe(
                next: { chunk in
                    decoder.append(chunk) { observer.send($0) }
                },
                error: { observer.sendError($0) },
                completed: {
                    if let last = decoder.finish() { observer.send(last) }
                    observer.sendCompleted()
                })
        }
    }
}

/// Accumulates bytes and cuts complete lines out of them.
///
/// Splitting on the byte `0x0A` is safe for UTF-8: it never occurs inside a multi-byte sequence.
struct LineDecoder {
    private var partial: [UInt8] = []

    /// Appends `chunk` and emits every line it completes, without its line ending.
    mutating func append(_ chunk: Data, emit: (String) -> Void) {
        var start = chunk.startIndex
        while let newline = chunk[start...].firstIndex(of: 0x0A) {
            if partial.isEmpty {
                emit(Self.decode(chunk[start..<newline]))
            } else {
                partial.append(contentsOf: chunk[start..<newline])
                emit(Self.decode(partial))
                partial.removeAll(keepingCapacity: true)
            }
            start = chunk.index(after: newline)
        }
        if start < chunk.endIndex { partial.append(contentsOf: chunk[start...]) }
    }

    /// The unterminated last line, if any bytes are left.
    mutating func finish() -> String? {
        if partial.isEmpty { return nil }
        defer { partial.removeAll() }
        return Self.decode(partial)
    }

    private static func decode<Bytes: BidirectionalCollection>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
        if let last = bytes.last, last == 0x0D {
            return String(decoding: bytes.dropLast(), as: UTF8.self)
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
