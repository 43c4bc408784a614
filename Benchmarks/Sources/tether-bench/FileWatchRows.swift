import Bridges
import Foundation
import Observable

#if canImport(Glibc)
    import Glibc
#endif

// Files (issue 32): inotify events through Tether's `Signal.fileEvents(at:)` against a raw `read(2)` loop
// on an inotify descriptor of its own. Both watch a fresh directory in which the timed body writes one byte
// at a time to two open files, alternating (the kernel merges an event only into an equal one still
// queued, so every write is one `IN_MODIFY` event), in chunks of 1,000 writes: each chunk waits until
// the consumer has received all of its events, so the queue never overflows and both sides see exactly
// the same events. The consumer folds the last byte of each event's file name into the checksum.

enum FileWatchRows {
    /// Writes per chunk; the body waits for the consumer after each.
    static let chunk = 1_000

    /// What the consumer received; signals `progress` after each chunk's events.
    final class Tally: @unchecked Sendable {
        // Safety: `received` and `sum` are written only by the consumer's thread (one at a time) and read
        // by the body after `progress` is signalled.
        let progress = DispatchSemaphore(value: 0)
        var received = 0
        var sum: UInt64 = 0

        /// Called by the consumer for each event, with the last byte of its file's name.
        @inline(__always)
        func receive(lastByte: UInt8) {
            received &+= 1
            sum &+= UInt64(lastByte)
            if received % FileWatchRows.chunk == 0 { progress.signal() }
        }
    }

    /// The directory and the two open files; `cleanup` (which must not capture the fixture) runs when the
    /// body is released, after the clock.
    final class Fixture {
        let directory: String
        let files: [Int32]
        let tally = Tally()
        var cleanup: [() -> Void] = []

        init() {
            let directory =
                NSTemporaryDirectory() + "tether-bench-inotify-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
            mkdir(directory, 0o755)
            self.directory = directory
            files = ["a", "b"].map { open(directory + "/" + $0, O_WRONLY | O_CREAT | O_CLOEXEC, 0o644) }
        }

        /// The timed body: `n` writes in chunks, each waited for.
        func run(_ n: Int) -> UInt64 {
            var byte: UInt8 = 0x2A
            var written = 0
            while written < n {
                for index in 0..<FileWatchRows.chunk { _ = write(files[index & 1], &byte, 1) }
                written += FileWatchRows.chunk
                tally.progress.wait()
            }
            return tally.sum &+ UInt64(tally.received) << 32
        }

        deinit {
            for step in cleanup { step() }
            for file in files { close(file) }
            try? FileManager.default.removeItem(atPath: directory)
        }
    }

    static func tether(_ n: Int) -> () -> UInt64 {
        let fixture = Fixture()
        let tally = fixture.tally
        let subscription = Signal.fileEvents(at: fixture.directory).subscribe(next: { (event: FileEvent) in
            if case .modified(let path) = event { tally.receive(lastByte: path.utf8.last ?? 0) }
        })
        fixture.cleanup.append { subscription.dispose() }
        return { fixture.run(n) }
    }

    static func raw(_ n: Int) -> () -> UInt64 {
        let fixture = Fixture()
        let descriptor = inotify_init1(Int32(IN_CLOEXEC))
        _ = inotify_add_watch(descriptor, fixture.directory, UInt32(IN_MODIFY) | UInt32(IN_CREATE))
        let stopped = DispatchSemaphore(value: 0)
        let tally = fixture.tally
        let directory = fixture.directory
        let reader = Thread {
            let size = 65_536
            let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: size, alignment: 16)
            defer { buffer.deallocate() }
            let header = MemoryLayout<inotify_event>.size
            reading: while true {
                // Wait with poll(2) first, as Tether's reader does: a read(2) blocked on its own wakes for
                // every event and reads them one by one, which made this loop slower than Tether's (0.6×).
                var request = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
                if poll(&request, 1, -1) < 0 { break }
                let count = read(descriptor, buffer.baseAddress, size)
                if count <= 0 { break }
                var offset = 0
                while offset + header <= count {
                    let mask = buffer.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self)
                    let length = Int(buffer.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self))
                    let nameBytes = UnsafeRawBufferPointer(
                        rebasing: buffer[(offset + header)..<(offset + header + length)])
                    let name = String(decoding: nameBytes.prefix { $0 != 0 }, as: UTF8.self)
                    offset += header + length
                    if mask & UInt32(IN_CREATE) != 0 { break reading }  // the fixture's stop marker
                    if mask & UInt32(IN_MODIFY) != 0 { tally.receive(lastByte: name.utf8.last ?? 0) }
                }
            }
            stopped.signal()
        }
        reader.stackSize = 1 << 20
        reader.start()
        fixture.cleanup.append {
            close(open(directory + "/stop", O_WRONLY | O_CREAT | O_CLOEXEC, 0o644))
            stopped.wait()
            close(descriptor)
        }
        return { fixture.run(n) }
    }
}
