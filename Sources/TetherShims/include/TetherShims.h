// The few things Tether needs from C: compiler and process-wide memory barriers, the stack's depth and a
// thread-local slot (the core), and the runtime's reference-count queries (the bridges' notification object
// filter).
#ifndef TETHER_SHIMS_H
#define TETHER_SHIMS_H

/// 1 when no process-wide barrier is available (membarrier(2) refused): the light barrier is then a full
/// fence. Set once, before any Swift code runs (a load-time constructor).
extern int tether_symmetric_fences;

/// The cheap half of an asymmetric store-load fence, run on the hot path (a gate's owner publishing which
/// callback it is in, before reading the subscription's disposed flag). Normally only a compiler barrier:
/// a thread running `tether_heavy_barrier()` makes every thread of the process pass a full barrier, so
/// the pair orders the hot path's store before its load as a full fence would. Without a process-wide
/// barrier it is a full fence.
static inline __attribute__((always_inline)) void tether_light_barrier(void) {
    if (__builtin_expect(__atomic_load_n(&tether_symmetric_fences, __ATOMIC_RELAXED), 0)) {
        __atomic_thread_fence(__ATOMIC_SEQ_CST);
    } else {
        __asm__ __volatile__("" ::: "memory");
    }
}

/// The expensive half: returns after every running thread of the process has executed a full memory
/// barrier (membarrier(2) with MEMBARRIER_CMD_PRIVATE_EXPEDITED; MEMBARRIER_CMD_GLOBAL when expedited
/// barriers are not offered). Costs a system call and an inter-processor interrupt per busy core: for
/// slow paths only.
void tether_heavy_barrier(void);

/// The address of the calling frame on the machine stack. Unlike the address of a Swift local, it is never
/// in a sanitizer's "fake stack": AddressSanitizer moves locals whose address is taken to the heap (to catch
/// uses after return), which made the deep-chain trampoline's stack measurement meaningless under it.
static inline __attribute__((always_inline)) unsigned long tether_stack_address(void) {
    return (unsigned long)__builtin_frame_address(0);
}

/// The calling thread's deep-chain trampoline state (`DeepChainTrampoline`), or NULL before its first use on
/// the thread. A C thread-local (Swift has none): one load from the thread's TLS block, against a call to
/// `pthread_getspecific` and the runtime's lazy-global check for its key, paid once per operator start. The
/// state is still registered under a pthread key, whose destructor frees it (and clears this slot) when the
/// thread ends.
extern _Thread_local void *tether_deep_chain_state_slot;

static inline __attribute__((always_inline)) void *tether_deep_chain_state(void) {
    return tether_deep_chain_state_slot;
}

static inline __attribute__((always_inline)) void tether_set_deep_chain_state(void *state) {
    tether_deep_chain_state_slot = state;
}

// Bridges: two reference-count queries of the Swift runtime (exported C functions of libswiftCore,
// declared in the runtime's HeapObject.h; Swift code may not name them). The bridge's notification object
// filter holds an unowned reference, which keeps the object's memory allocated, and asks these about it.
extern _Bool swift_isDeallocating(void *object);
extern void *swift_tryRetain(void *object);  // the object, retained; NULL once its deinit has started

/// Whether the deinit of the Swift object at `object` has started. `object`'s memory must be allocated
/// (an unowned reference keeps it so).
static inline __attribute__((always_inline)) _Bool tether_object_is_deinitializing(void *object) {
    return swift_isDeallocating(object);
}

/// Retains the Swift object at `object` unless its deinit has started; returns whether it did. `object`'s
/// memory must be allocated (an unowned reference keeps it so).
static inline __attribute__((always_inline)) _Bool tether_object_try_retain(void *object) {
    return swift_tryRetain(object) != 0;
}

#endif
