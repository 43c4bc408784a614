import Synchronization

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
/// list of waiters, each with its own condition variable): no allocation per lock, and Thread Sanitizer
/// sees every hand-off (it intercepts pthread mutexes and condition variables). A parked thread's
/// record lives on its own stack: parking allocates nothing.
///
/// Rules: a condition passed to ``park(on:while:)`` runs with a bucket mutex held, so it may only read
/// atomics — never take a lock. Callers loop: `park` may return before the condition changed.
@usableFromInline
package enum ParkingLot {
    /// One parked thread, on its own stack: linked into its bucket's list while it waits.
    struct Waiter {
        var address: UInt
        var woken: Bool
        var next: UnsafeMutablePointer<Waiter>?
        var condition: pthread_cond_t
    }

    /// A slice of the table: a mutex and the list of threads parked on addresses that hash here.
    struct Bucket {
        var mutex: pthread_mutex_t
        var head: UnsafeMutablePointer<Waiter>?
        var tail: UnsafeMutablePointer<Waiter>?
    }

    /// The table, allocated once and never freed (raw memory: no reference counting on these paths,
    /// which contended threads take all at once).
    struct Table: @unchecked Sendable {
        // Safety: each bucket is only touched with its mutex held.
        let buckets: UnsafeMutablePointer<Bucket>
        static let size = 128

        init() {
            buckets = .allocate(capacity: Self.size)
            for index in 0..<Self.size {
                (buckets + index).initialize(to: Bucket(mutex: pthread_mutex_t(), head: nil, tail: nil))
                pthread_mutex_init(&buckets[index].mutex, nil)
            }
        }
    }

    static let table = Table()

    static func bucket(for address: UInt) -> UnsafeMutablePointer<Bucket> {
        // Fibonacci hashing: neighbouring objects land in different buckets.
        table.buckets + Int(truncatingIfNeeded: (address &* 0x9E37_79B9_7F4A_7C15) >> 57)
    }

    /// Parks the calling thread on `address` if `shouldPark()` holds, until a waker unparks it.
    ///
    /// Returns at once if `shouldPark()` is false. `shouldPark` runs under the bucket's mutex: it may read
    /// atomics only.
    @usableFromInline
    package static func park(on address: UInt, while shouldPark: () -> Bool) {
        let bucket = bucket(for: address)
        pthread_mutex_lock(&bucket.pointee.mutex)
        guard shouldPark() else {
            pthread_mutex_unlock(&bucket.pointee.mutex)
            return
        }
        withUnsafeTemporaryAllocation(of: Waiter.self, capacity: 1) { buffer in
            let waiter = buffer.baseAddress!
            waiter.initialize(to: Waiter(address: address, woken: false, next: nil, condition: pthread_cond_t()))
            pthread_cond_init(&waiter.pointee.condition, nil)
            if let tail = bucket.pointee.tail {
                tail.pointee.next = waiter
            } else {
                bucket.pointee.head = waiter
            }
            bucket.pointee.tail = waiter
            let observed = observing.load(ordering: .relaxed)
            if observed { observer?.willPark(UInt(bitPattern: waiter), on: address) }
            while !waiter.pointee.woken {
                pthread_cond_wait(&waiter.pointee.condition, &bucket.pointee.mutex)
            }
            pthread_mutex_unlock(&bucket.pointee.mutex)
            if observed { observer?.didResume(UInt(bitPattern: waiter), on: address) }
            pthread_cond_destroy(&waiter.pointee.condition)
            waiter.deinitialize(count: 1)
        }
    }

    /// Unlinks the waiters on `address` (all of them, or the first), marks them woken and signals them.
    /// Called with the bucket's mutex held. Returns how many were woken.
    static func wake(_ address: UInt, in bucket: UnsafeMutablePointer<Bucket>, all: Bool) -> Int {
        var woken = 0
        var previous: UnsafeMutablePointer<Waiter>?
        var current = bucket.pointee.head
        while let waiter = current {
            let next = waiter.pointee.next
            if waiter.pointee.address == address {
                if let previous { previous.pointee.next = next } else { bucket.pointee.head = next }
                if bucket.pointee.tail == waiter { bucket.pointee.tail = previous }
                waiter.pointee.next = nil
                waiter.pointee.woken = true
                if observing.load(ordering: .relaxed) { observer?.didUnpark(UInt(bitPattern: waiter), on: address) }
                // The waiter may return as soon as the mutex is released: signal before that.
                pthread_cond_signal(&waiter.pointee.condition)
                woken += 1
                if !all { break }
            } else {
                previous = waiter
            }
            current = next
        }
        return woken
    }

    /// Wakes one thread parked on `address`, if any. Returns whether one was woken.
    @usableFromInline
    @discardableResult
    package static func unparkOne(_ address: UInt) -> Bool {
        let bucket = bucket(for: address)
        pthread_mutex_lock(&bucket.pointee.mutex)
        let woken = bucket.pointee.head == nil ? 0 : wake(address, in: bucket, all: false)
        pthread_mutex_unlock(&bucket.pointee.mutex)
        return woken != 0
    }

    /// Wakes every thread parked on `address`.
    @usableFromInline
    package static func unparkAll(_ address: UInt) {
        let bucket = bucket(for: address)
        pthread_mutex_lock(&bucket.pointee.mutex)
        if bucket.pointee.head != nil { _ = wake(address, in: bucket, all: true) }
        pthread_mutex_unlock(&bucket.pointee.mutex)
    }
}

/// Told when threads park and wake (see ``ParkingLot/observe(with:)``): how the interleaving tests know, without
/// sleeping, that a thread they drive is now blocked, and that a thread they saw blocked was woken.
///
/// `willPark` and `didUnpark` run with a bucket's mutex held: they may record and signal, never wait or park.
package protocol ParkingLotObserver: AnyObject, Sendable {
    /// The calling thread is about to wait on `address`; `waiter` identifies this wait until `didResume`.
    func willPark(_ waiter: UInt, on address: UInt)
    /// The calling thread woke the wait `waiter` (it returns from `park` once it runs again).
    func didUnpark(_ waiter: UInt, on address: UInt)
    /// The calling thread, woken, has left its wait `waiter` and is about to return from `park`.
    func didResume(_ waiter: UInt, on address: UInt)
}

extension ParkingLot {
    /// Whether an observer is installed: one relaxed load on the paths that park or wake, nothing on the
    /// uncontended paths (a lock that need not wait never comes here).
    static let observing = Atomic<Bool>(false)
    /// The installed observer (an `Unmanaged` box's bits, never released), 0 before one is installed.
    static let observerBits = Atomic<UInt>(0)

    final class ObserverBox {
        let observer: any ParkingLotObserver
        init(_ observer: any ParkingLotObserver) { self.observer = observer }
    }

    static var observer: (any ParkingLotObserver)? {
        let bits = observerBits.load(ordering: .acquiring)
        guard let raw = UnsafeRawPointer(bitPattern: bits) else { return nil }
        return Unmanaged<ObserverBox>.fromOpaque(raw).takeUnretainedValue().observer
    }

    /// Installs the process's one observer of parks and wake-ups (tests only; it stays installed). Returns
    /// `false`, installing nothing, when one is installed already.
    package static func observe(with observer: any ParkingLotObserver) -> Bool {
        let box = Unmanaged.passRetained(ObserverBox(observer))
        let bits = UInt(bitPattern: box.toOpaque())
        guard observerBits.compareExchange(expected: 0, desired: bits, ordering: .releasing).exchanged else {
            box.release()
            return false
        }
        observing.store(true, ordering: .releasing)
        return true
    }
}

/// The address of an object, as a parking address.
@inlinable
package func parkingAddress(of object: AnyObject) -> UInt {
    UInt(bitPattern: Int(bitPattern: ObjectIdentifier(object)))
}
