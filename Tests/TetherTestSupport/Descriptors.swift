import Dispatch
import XCTest

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// What a process holds (descriptors, threads), for the leak tests of the bridges.

/// The descriptors this process has open, from `/proc/self/fd` (the directory's own descriptor excluded).
package func openDescriptors() -> Set<Int32> {
    guard let directory = opendir("/proc/self/fd") else { return [] }
    defer { closedir(directory) }
    let own = dirfd(directory)
    var result: Set<Int32> = []
    while let entry = readdir(directory) {
        let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
            String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
        }
        if let fd = Int32(name), fd != own { result.insert(fd) }
    }
    return result
}

/// The number of this process's threads whose name starts with `prefix` (from `/proc/self/task/*/comm`).
package func threadCount(named prefix: String) -> Int {
    let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
    return tasks.filter { task in
        let name = (try? String(contentsOfFile: "/proc/self/task/\(task)/comm", encoding: .utf8)) ?? ""
        return name.hasPrefix(prefix)
    }.count
}

/// What a descriptor points to (`pipe:[…]`, `anon_inode:[signalfd]`), for failure messages.
package func describeDescriptor(_ fd: Int32) -> String {
    var buffer = [CChar](repeating: 0, count: 256)
    let length = readlink("/proc/self/fd/\(fd)", &buffer, 255)
    guard length > 0 else { return "\(fd) → ?" }
    return "\(fd) → " + String(decoding: buffer[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
}

/// Creates and cancels one Dispatch read source so libdispatch's own lazily created descriptors (its epoll
/// and event descriptors) exist before a test counts descriptors.
package func warmUpDispatch() {
    var fds: [Int32] = [0, 0]
    XCTAssertEqual(pipe(&fds), 0)
    let done = DispatchSemaphore(value: 0)
    let source = DispatchSource.makeReadSource(fileDescriptor: fds[0], queue: DispatchQueue(label: "warm-up"))
    source.setRegistrationHandler { done.signal() }
    source.setCancelHandler { done.signal() }
    source.resume()
    done.wait()
    source.cancel()
    done.wait()
    close(fds[0])
    close(fds[1])
}

/// Writes all of `bytes` to `fd`.
package func writeAll(_ fd: Int32, _ bytes: [UInt8]) {
    var offset = 0
    while offset < bytes.count {
        let written = bytes[offset...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        if written < 0 {
            if errno == EINTR { continue }
            XCTFail("write failed: \(errno)")
            return
        }
        offset += written
    }
}
