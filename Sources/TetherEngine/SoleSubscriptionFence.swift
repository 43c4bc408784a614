import Synchronization

/// The disposal fence of one subscription that a single thread calls for a while — a subscriber catching
/// up on its joining thread (`JoinCatchUp`) — with the thread that calls it: ``CallbackRendezvous``'s
/// protocol for a source with one subscription, owner word included.
///
/// The calling thread takes the fence when it is made (``init()``), checks the subscription's disposed flag
/// before each callback and, finding it set, calls ``acknowledgeDisposal(wakingAt:)``; when it is done it
/// calls ``leave(wakingAt:)``. A disposer, after marking the subscription disposed with a sequentially
/// consistent store, calls ``waitForCaller(parkingAt:)``: it returns once no callback runs on another thread.
///
/// The owner word is published and cleared with sequentially consistent operations, as the rendezvous
/// requires (a disposer that finds no owner then needs no barrier).
///
/// ```swift
/// final class CatchUp { let fence = SoleSubscriptionFence() }   // owned by the thread that makes it
/// ```
@usableFromInline
package struct SoleSubscriptionFence: ~Copyable, Sendable {
    /// The thread calling the subscription (its ``currentThreadID``), or 0 once it is done.
    @usableFromInline let caller: Atomic<UInt>
    @usableFromInline let rendezvous = CallbackRendezvous()

    /// A fence held by the calling thread.
    @inlinable
    package init() {
        caller = Atomic(currentThreadID)
    }

    /// Called by the holder at a callback boundary where it found the subscription disposed: it calls
    /// nothing more, and a waiting disposer may return.
    @inlinable
    package func acknowledgeDisposal(wakingAt address: UInt) {
        rendezvous.acknowledgeDisposal(wakingAt: address)
    }

    /// The holder is done calling the subscription: wakes the disposers parked on `address`.
    @inlinable
    package func leave(wakingAt address: UInt) {
        caller.store(0, ordering: .sequentiallyConsistent)
        rendezvous.ownerLeft(wakingAt: address)
    }

    /// Called by a disposer after it marked the subscription disposed (sequentially consistent): returns
    /// once no callback of the holder's is in flight on another thread.
    @inlinable
    package func waitForCaller(parkingAt address: UInt) {
        rendezvous.waitForSoleSubscription(parkingAt: address) { caller.load(ordering: .sequentiallyConsistent) }
    }

    /// Whether the holder has left (a snapshot, for tests).
    package var holderHasLeft: Bool { caller.load(ordering: .relaxed) == 0 }

    /// Whether the holder acknowledged a disposal (a snapshot, for tests).
    package var disposalAcknowledged: Bool { rendezvous.currentRelaxed == 1 }
}
