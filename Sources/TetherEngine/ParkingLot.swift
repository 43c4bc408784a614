import Synchronization
import TetherShims

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
/// list of waiters): no allocation per lock. A parked thread's record lives on its own stack, and it
/// sleeps on its own thread-local word (`tether_parker_word`, a futex on Linux): parking allocates
/// nothing.
///
/// A waker holds the bucket's mutex only to take its waiters off the list; it marks them woken and wakes
/// them after letting go of it. So a woken thread does not wake up into a mutex its waker still holds
/// (with a condition variable signalled under the mutex, it went back to sleep on that mutex), and the
/// bucket is not held across a wake-up's system call. A waiter taken off the list stays parked — its record
/// valid — until its word is marked; its word is thread-local, so a wake sent after it returned finds
/// memory that still exists and at most makes a later park of that thread check its word again. Thread
/// Sanitizer sees every hand-off: the bucket's mutex, and the word's releasing store and acquiring load.
///
/// Rules: a condition passed to ``park(on:while:)`` runs with a bucket mutex held, so it may only read
/// atomics — never take a lock. Callers loop: `park` may return before the condition changed.
@usableFromInline
package enum ParkingLot {
    /// One parked thread, on its own stack: linked into its bucket's list while it waits.
    struct Waiter {
        var address: UInt
        var next: UnsafeMutablePointer<Waiter>?
        /// The parked thread's own word (thread-local): 1 while it must sleep.
        var parker: UnsafeMutablePointer<UInt32>
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
        let parker = tether_parker_word()!
        tether_parker_arm(parker)
        withUnsafeTemporaryAllocation(of: Waiter.self, capacity: 1) { buffer in
            let waiter = buffer.baseAddress!
            waiter.initialize(to: Waiter(address: address, next: nil, parker: parker))
            if let tail = bucket.pointee.tail {
                tail.pointee.next = waiter
            } else {
                bucket.pointee.head = waiter
            }
            bucket.pointee.tail = waiter
            let observer = Self.observer
            observer?.willPark(UInt(bitPattern: waiter), on: address)
            pthread_mutex_unlock(&bucket.pointee.mutex)
            // Until its word is marked, a waiter taken off the list is still parked here: its record stays valid.
            tether_parker_wait(parker)
            observer?.didResume(UInt(bitPattern: waiter), on: address)
            waiter.deinitialize(count: 1)
        }
    }

    /// Takes the waiters on `address` (all of them, or the first) off the bucket's list, and returns them
    /// linked through `next`, in the order they parked. Called with the bucket's mutex held; the waiters
    /// stay parked until ``wake(_:)``.
    static func detach(
        _ address: UInt, from bucket: UnsafeMutablePointer<Bucket>, all: Bool
    ) -> UnsafeMutablePointer<Waiter>? {
        var first: UnsafeMutablePointer<Waiter>?
        var last: UnsafeMutablePointer<Waiter>?
        var previous: UnsafeMutablePointer<Waiter>?
        var current = bucket.pointee.head
        while let waiter = current {
            let next = waiter.pointee.next
            if waiter.pointee.address == address {
                if let previous { previous.pointee.next = next } else { bucket.pointee.head = next }
                if bucket.pointee.tail == waiter { bucket.pointee.tail = previous }
                waiter.pointee.next = nil
                if let last { last.pointee.next = waiter } else { first = waiter }
                last = waiter
                observer?.didUnpark(UInt(bitPattern: waiter), on: address)
                if !all { break }
            } else {
                previous = waiter
            }
            current = next
        }
        return first
    }

    /// Wakes the detached waiters `list` (see ``detach(_:from:all:)``), with no mutex held. Each record is
    /// read before its word is marked: from then on its thread may return and its stack frame go away.
    static func wake(_ list: UnsafeMutablePointer<Waiter>?) {
        var current = list
        while let waiter = current {
            current = waiter.pointee.next
            let parker = waiter.pointee.parker
            tether_parker_mark_woken(parker)
            tether_parker_wake(parker)
        }
    }

    /// Wakes one thread parked on `address`, if any. Returns whether one was woken.
    @usableFromInline
    @discardableResult
    package static func unparkOne(_ address: UInt) -> Bool {
        let bucket = bucket(for: address)
        pthread_mutex_lock(&bucket.pointee.mutex)
        let waiter = bucket.pointee.head == nil ? nil : detach(address, from: bucket, all: false)
        pthread_mutex_unlock(&bucket.pointee.mutex)
        wake(waiter)
        return waiter != nil
    }

    /// Wakes every thread parked on `address`.
    @usableFromInline
    package static func unparkAll(_ address: UInt) {
        let bucket = bucket(for: address)
        pthread_mutex_lock(&bucket.pointee.mutex)
        let waiters = bucket.pointee.head == nil ? nil : detach(address, from: bucket, all: true)
        pthread_mutex_unlock(&bucket.pointee.mutex)
        wake(waiters)
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
    /// The installed observer (an `Unmanaged` box's bits, never released), 0 before one is installed: one
    /// load on the paths that park or wake, nothing on the uncontended paths (a lock that need not wait
    /// never comes here).
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
        return true
    }
}

/// The address of an object, as a parking address.
@inlinable
package func parkingAddress(of object: AnyObject) -> UInt {
    UInt(bitPattern: Int(bitPattern: ObjectIdentifier(object)))
}
