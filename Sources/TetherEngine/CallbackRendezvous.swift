import Synchronization
import TetherShims

/// The disposal fence: lets a disposer wait for exactly one subscription's callback in flight on another
/// thread, and for nothing else (guarantee 2 of <doc:ThreadingAndLifetimes>).
///
/// A rendezvous serves one *owner* at a time — the one thread that calls the subscriptions of a source
/// (a ``SerialGate``'s owner, an `@Observed` property's delivering thread). Who the owner is stays with the
/// source: the disposer-side methods read it through an `owner` closure that returns the owner's thread ID
/// (``currentThreadID``), or 0 when nobody owns the source. The rendezvous only holds the fence: `current`,
/// the subscription whose callback the owner is running (0: none), and `disposers`, how many disposers are
/// about to wait or waiting. It is stored as a `let` in its source (an object), and the source gives every
/// call the address disposers park on.
///
/// ## The protocol
///
/// The owner, for each callback:
///
/// 1. ``enter(_:wakingAt:)`` — publishes the subscription's `id` in `current`;
/// 2. reads the subscription's *disposed* flag with a sequentially consistent load, and calls it only if
///    the flag is clear (if it is set it may report that through its own `skipped` flag: it will never call
///    that subscription again);
/// 3. after the last callback, ``exit()``; and when it stops owning the source (or starts a new delivery
///    that changes what `owner` returns), ``ownerLeft(wakingAt:)``, after the change of owner is published
///    with a sequentially consistent store or read-modify-write.
///
/// Taking ownership must be published with a sequentially consistent store or read-modify-write (a
/// compare-and-swap, a lock's release), made before the owner's first `current` store.
///
/// The disposer: sets the subscription's disposed flag with a sequentially consistent store, then calls
/// ``waitForCallback(_:parkingAt:owner:skipped:)``. It returns at once when the source is idle, when it is
/// called from the owner thread (from inside a callback: waiting for itself would never end), or when the
/// owner turns out to be calling another subscription; otherwise it parks until that one callback returned.
/// It never waits for another subscriber's callback, for the rest of a batch, or for a reentrant pump.
///
/// **Why a disposer can't miss a callback.** The owner stores `current = id`, then reads the disposed
/// flag; the disposer sets the flag, then reads `current`. That is the store-buffer litmus test, which
/// needs a store-load fence on *both* sides — but a full fence per callback costs as much as a small
/// callback itself (an `xchg` on x86, on every delivery of a fan-out). So the fence is asymmetric: the
/// owner's half, in ``enter(_:wakingAt:)``, is only a compiler barrier (`tether_light_barrier`); the
/// disposer's half, run only when it finds the source owned by another thread, is a process-wide barrier
/// (`tether_heavy_barrier`: `membarrier(2)`), after which every running thread has executed a full fence.
/// If the owner's fence point came before its store of `current`, its later read of the flag sees the
/// disposer's write (made before the heavy barrier); if it came after, the store is visible to the
/// disposer's read of `current` (made after it). Either the owner skips the callback or the disposer sees
/// it running. A disposer that finds the source idle (`owner` returns 0) needs no barrier: the owner it did
/// not see published its ownership with a sequentially consistent operation before its first read of the
/// flag, so that read comes after the disposer's read of the owner in the single total order of
/// sequentially consistent operations, hence after the disposer's write of the flag. Where no
/// process-wide barrier exists (membarrier refused), the light barrier is a full fence, chosen once at
/// load time.
///
/// **Why a parked disposer is woken.** It parks only while `current` is its `id`, the owner is the one it
/// saw and `skipped` is false — checked under the parking bucket's mutex, which the waker takes too. It
/// increments `disposers` before the heavy barrier and its reads of `current` and of the owner. The owner
/// reads `disposers` after every change that ends the wait: in ``enter(_:wakingAt:)`` after the new
/// `current` (the fence argument above, with `disposers` for the flag), and in
/// ``ownerLeft(wakingAt:)`` after its sequentially consistent change of owner (a sequentially consistent
/// store-load pair on both sides). So either the owner sees `disposers` and wakes the parking address, or
/// the disposer sees the change and does not park. A `skipped` flag set by the owner is seen at the
/// disposer's next check, at the latest after the owner's next ``enter(_:wakingAt:)`` or
/// ``ownerLeft(wakingAt:)``. ``exit()`` alone wakes nobody: the owner always enters another callback or
/// leaves next.
///
/// **Why disposal can't deadlock.** A disposer waits only while `current` names its subscription, i.e. for
/// a callback of the very subscription it disposes. For the wait to block forever, that callback would
/// have to wait, directly or through other threads, for the disposer: a chain of Tether waits (backlog
/// waits, a second disposer of a composite) is detected by ``WaitGraph`` (the wait is registered there) and
/// broken; what remains is user code in that callback waiting for the disposer — e.g. two callbacks that
/// each dispose the subscription the other is running in, at the same moment. That cycle is inherent in
/// guarantee 2 and documented.
///
/// ## A source with one subscription
///
/// A source that serves a single subscription (an `Observer`, a `Mailbox`) needs no per-callback
/// publication: any callback in flight is that subscription's. Its callbacks only check the disposed flag
/// (one relaxed load); when the owner, at a callback boundary, finds the flag set, it calls
/// ``acknowledgeDisposal(wakingAt:)`` (`current` becomes 1 for good) and calls nothing more. The disposer
/// calls ``waitForSoleSubscription(parkingAt:owner:)``: it returns once the source is idle, owned by the
/// calling thread, or the disposal is acknowledged — which also ends a wait behind a reentrant pump. A
/// rendezvous is used in one mode or the other, never both.
@usableFromInline
package struct CallbackRendezvous: ~Copyable, Sendable {
    /// The subscription whose callback the owner is running (0: none; 1 for good once a sole subscription's
    /// disposal is acknowledged).
    @usableFromInline let current = Atomic<UInt>(0)
    /// How many disposers are about to wait, or wait.
    @usableFromInline let disposers = Atomic<Int>(0)

    @inlinable
    package init() {}

    // MARK: Owner side

    /// Publishes that the owner is about to call subscription `id` (not 0 or 1), and wakes the disposers
    /// parked on `address` if any wait (for the callback before it).
    ///
    /// The caller then reads the subscription's disposed flag with a sequentially consistent load, and
    /// calls only if it is clear.
    @inlinable
    package borrowing func enter(_ id: UInt, wakingAt address: UInt) {
        // A plain store and a compiler barrier, not a fence: a disposer that finds the source owned runs the
        // heavy half of the pair (see the type's notes).
        current.store(id, ordering: .releasing)
        tether_light_barrier()
        wakeDisposers(at: address)
    }

    /// Publishes that the owner is no longer in a callback. Wakes nobody: the owner's next
    /// ``enter(_:wakingAt:)`` or ``ownerLeft(wakingAt:)`` does.
    @inlinable
    package borrowing func exit() {
        current.store(0, ordering: .releasing)
    }

    /// Wakes the disposers parked on `address`, if any wait; called by the owner right after the
    /// sequentially consistent change that makes `owner` return something else (the source became idle,
    /// or a new delivery began).
    @inlinable
    package borrowing func ownerLeft(wakingAt address: UInt) {
        wakeDisposers(at: address)
    }

    /// Called by the owner of a source with one subscription when, at a callback boundary, it finds the
    /// subscription disposed: from now on it calls nothing, and a disposer waiting in
    /// ``waitForSoleSubscription(parkingAt:owner:)`` on `address` may return.
    @inlinable
    package borrowing func acknowledgeDisposal(wakingAt address: UInt) {
        if currentRelaxed != 0 { return }
        current.store(1, ordering: .sequentiallyConsistent)
        wakeDisposers(at: address)
    }

    /// The owner's half of the wake-up (see the type's notes): after a change that may end a disposer's
    /// wait, wakes the disposers parked on `address` if any are about to wait or wait. Sequentially
    /// consistent, against the disposer's increment of `disposers` before its reads.
    @inlinable
    borrowing func wakeDisposers(at address: UInt) {
        if disposers.load(ordering: .sequentiallyConsistent) != 0 { Self.wake(address) }
    }

    @usableFromInline
    static func wake(_ address: UInt) {
        ParkingLot.unparkAll(address)
    }

    /// `current`, relaxed: for the owner's own check, and for a parking condition (run under the bucket's
    /// mutex, which the waker takes too).
    @inlinable
    var currentRelaxed: UInt {
        current.load(ordering: .relaxed)
    }

    /// `current`, sequentially consistent: a disposer's read after its increment of `disposers` and its
    /// read of the owner (see the type's notes).
    @inlinable
    var currentSequentiallyConsistent: UInt {
        current.load(ordering: .sequentiallyConsistent)
    }

    /// Runs `body` counted in `disposers`: the increment is sequentially consistent, before every read of
    /// `current` and of the owner `body` makes (so an owner's change after those reads sees the count and
    /// wakes); the decrement releases, and wakes nobody.
    @inlinable
    borrowing func asCountedDisposer(_ body: () -> Void) {
        disposers.wrappingAdd(1, ordering: .sequentiallyConsistent)
        body()
        disposers.wrappingSubtract(1, ordering: .releasing)
    }

    // MARK: Disposer side (any thread)

    /// Returns once no callback of subscription `id` runs on another thread, or the owner reported through
    /// `skipped` that it will never call it.
    ///
    /// Call it after marking the subscription disposed with a sequentially consistent store. `owner`
    /// returns the owning thread's ID (0: idle) with a sequentially consistent load; `skipped` returns
    /// whether the owner has passed a point after which it never calls `id` again (it found the disposed
    /// flag). Both run under a parking bucket's mutex too: they may only read atomics. Returns at once when
    /// called from the owner thread (from inside a callback), when the source is idle, or when the owner is
    /// calling another subscription.
    @inlinable
    package borrowing func waitForCallback(
        _ id: UInt, parkingAt address: UInt, owner: () -> UInt, skipped: () -> Bool
    ) {
        let thread = owner()
        if thread == 0 || thread == currentThreadID { return }
        waitForCallbackSlow(id, parkingAt: address, owner: owner, skipped: skipped)
    }

    @usableFromInline
    borrowing func waitForCallbackSlow(
        _ id: UInt, parkingAt address: UInt, owner: () -> UInt, skipped: () -> Bool
    ) {
        asCountedDisposer {
            // The heavy half of the owner's `enter` barrier: after it, either the owner has seen this
            // subscription's disposed flag (and `disposers`), or this thread sees the owner's `current`.
            tether_heavy_barrier()
            let thread = owner()
            guard thread != 0, currentSequentiallyConsistent == id else { return }
            let wait = WaitGraph.shared.begin(waitingFor: thread, breakable: false, parkingAddress: address)
            defer { if let wait { WaitGraph.shared.end(wait) } }
            // `skipped` ends the wait: without it an owner in a tight loop keeps `current` on this subscription
            // (publish, find it disposed, publish…) and the disposer would keep finding it there.
            while current.load(ordering: .acquiring) == id && !skipped() && owner() == thread {
                ParkingLot.park(on: address) {
                    currentRelaxed == id && !skipped() && owner() == thread
                }
            }
        }
    }

    /// Returns once no callback of the source's one subscription runs on another thread: the source is
    /// idle, owned by the calling thread, or its owner acknowledged the disposal
    /// (``acknowledgeDisposal(wakingAt:)``).
    ///
    /// Call it after marking the subscription disposed with a sequentially consistent store. `owner` is as
    /// for ``waitForCallback(_:parkingAt:owner:skipped:)``.
    @inlinable
    package borrowing func waitForSoleSubscription(parkingAt address: UInt, owner: () -> UInt) {
        let thread = owner()
        if thread == 0 || thread == currentThreadID { return }
        if currentSequentiallyConsistent != 0 { return }
        waitForSoleSubscriptionSlow(thread, parkingAt: address, owner: owner)
    }

    @usableFromInline
    borrowing func waitForSoleSubscriptionSlow(_ thread: UInt, parkingAt address: UInt, owner: () -> UInt) {
        asCountedDisposer {
            let me = currentThreadID
            var thread = thread
            while thread != 0, thread != me, currentSequentiallyConsistent == 0 {
                let wait = WaitGraph.shared.begin(waitingFor: thread, breakable: false, parkingAddress: address)
                let waitedFor = thread
                ParkingLot.park(on: address) {
                    owner() == waitedFor && currentRelaxed == 0
                }
                if let wait { WaitGraph.shared.end(wait) }
                thread = owner()
            }
        }
    }
}
