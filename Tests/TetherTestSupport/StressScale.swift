import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// How hard the stress tests push: iteration counts are multiplied by this factor.
///
/// `TETHER_STRESS_SCALE` (a number, e.g. `0.25`) sets it; the default is `1` (8 threads × 100,000 sends),
/// which the whole stress suite holds in about 25 s in a debug build and 100 s under Thread Sanitizer on
/// two cores. Lower it on a slower or busier machine. Every count is at least 1.
package enum StressScale {
    package static let factor: Double = {
        if let text = ProcessInfo.processInfo.environment["TETHER_STRESS_SCALE"], let value = Double(text),
            value > 0
        {
            return value
        }
        return 1
    }()

    /// Whether this process was built with `-sanitize=address` (which quarantines freed memory).
    package static let isRunningUnderAddressSanitizer: Bool = {
        #if canImport(Glibc)
            return dlsym(UnsafeMutableRawPointer(bitPattern: 0), "__asan_init") != nil
        #else
            return false
        #endif
    }()

    /// `count` scaled by ``factor``.
    package static func scaled(_ count: Int) -> Int {
        max(1, Int((Double(count) * factor).rounded()))
    }
}
