#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where Tether's threads wait: parks a thread on an address until another thread wakes that address.
///
/// Every wait in the package goes through here — a contended ``Lock``, a `dispose()` waiting for its
/// subscription's callback in flight, a sender waiting for a full backlog to drain — so that waiting
/// threads sleep in the kernel instead of spinning (spinning collapses when threads outnumber cores).
///
/// A thread parks only if its condition still holds when checked under the bucket's mutex, and a waker
/// changes the state *before* it calls ``unparkOne(_:)`` or ``unparkAll(_:)`` (which take that mutex), so
/// a wake-up can't be lost. Addresses hash into a fixed table of buckets (a pthread mutex each, plus a
/// queue of waiters with their own condition variable): no allocation per lock, and Thread Sanitizer
/// sees every hand-off (it intercepts pthread mutexes and condition variables).
///
/// Rules: a condition passed to ``park(on:while:)`` runs with a bucket mutex held, so it may only read
/// atomics — never take a lock. Callers loop: `park` may return before the condition changed.
@usableFromInline
package enum ParkingLot {
    /// One parked thread: its own condition variable, signalled when a waker removes it from the queue.
    final class Waiter {
        let address: UInt
        let condition: UnsafeMutablePointer<pthread_cond_t>
        /// Guarded by the bucket's mutex.
        var woken = false

        init(address: UInt) {
            self.address = address
            condition = .allocate(capacity: 1)
            pthread_cond_init(condition, nil)
        }

        deinit {
            pthread_cond_destroy(condition)
            condition.deallocate()
        }
    }

    /// A slice of the table: a mutex and the threads parked on addresses that hash here.
    final class Bucket: @unchecked Sendable {
        // Safety: `waiters` is only touched with `mutex` held.
        let mutex: UnsafeMutablePointer<pthread_mutex_t>
        var waiters: [Waiter] = []

        init() {
            mutex = .allocate(capacity: 1)
            pthread_mutex_init(mutex, nil)
        }
    }

    static let buckets: [Bucket] = (0..<128).map { _ in Bucket() }

    static func bucket(for address: UInt) -> Bucket {
        // Fibonacci hashing: neighbouring objects land in different buckets.
        buckets[Int(truncatingIfNeeded: (address &* 0x9E37_79B9_7F4A_7C15) >> 57)]
    }

    /// Parks the calling thread on `address` if `shouldPark()` holds, until a waker unparks it.
    ///
    /// Returns at once if `shouldPark()` is false. `shouldPark` runs under the bucket's mutex: it may read
    /// atomics only.
    @usableFromInline
    package static func park(on address: UInt, while shouldPark: () -> Bool) {
        let bucket = bucket(for: address)
        pthread_mutex_lock(bucket.mutex)
        guard shouldPark() else {
            pthread_mutex_unlock(bucket.mutex)
            return
        }
        let waiter = Waiter(address: address)
        bucket.waiters.append(waiter)
        while !waiter.woken {
            pthread_cond_wait(waiter.condition, bucket.mutex)
        }
        pthread_mutex_unlock(bucket.mutex)
    }

    /// Wakes one thread parked on `address`, if any. Returns whether one was woken.
    @usableFromInline
    @discardableResult
    package static func unparkOne(_ address: UInt) -> Bool {
        let bucket = bucket(for: address)
        pthread_mutex_lock(bucket.mutex)
        guard let index = bucket.waiters.firstIndex(where: { $0.address == address }) else {
            pthread_mutex_unlock(bucket.mutex)
            return false
        }
        let waiter = bucket.waiters.remove(at: index)
        waiter.woken = true
        pthread_cond_signal(waiter.condition)
        pthread_mutex_unlock(bucket.mutex)
        return true
    }

    /// Wakes every thread parked on `address`.
    @usableFromInline
    package static func unparkAll(_ address: UInt) {
        let bucket = bucket(for: address)
        pthread_mutex_lock(bucket.mutex)
        if !bucket.waiters.isEmpty {
            var index = 0
            while index < bucket.waiters.count {
                let waiter = bucket.waiters[index]
                if waiter.address == address {
                    bucket.waiters.remove(at: index)
                    waiter.woken = true
                    pthread_cond_signal(waiter.condition)
                } else {
                    index += 1
                }
            }
        }
        pthread_mutex_unlock(bucket.mutex)
    }
}

/// The address of an object, as a parking address.
@inlinable
package func parkingAddress(of object: AnyObject) -> UInt {
    UInt(bitPattern: Int(bitPattern: ObjectIdentifier(object)))
}
