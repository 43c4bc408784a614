// The few things Tether needs from C: compiler and process-wide memory barriers, the stack's depth and a
// thread-local slot (the core), the runtime's reference-count queries (the notification bridge's object
// filter, through `RuntimeAssumptions`), the thread parker, and one Thread Sanitizer annotation (AsyncSignal).
#ifndef TETHER_SHIMS_H
#define TETHER_SHIMS_H

#include <stdint.h>

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
/// uses after return), which would make the deep-chain trampoline's stack measurement meaningless.
static inline __attribute__((always_inline)) unsigned long tether_stack_address(void) {
    return (unsigned long)__builtin_frame_address(0);
}

// Per-thread pointer slots: C thread-locals (Swift has none). Reading one is a load from the thread's TLS
// block, against a call to `pthread_getspecific` and the runtime's lazy-global check for its key. This is how
// Tether keeps a per-thread pointer; a pthread key is made only where a thread's exit must free something
// (its destructor then clears the slot). `TETHER_THREAD_SLOT(name)` declares `tether_name()` and
// `tether_set_name(value)`; the variables are defined in ThreadSlots.c.
#define TETHER_THREAD_SLOT(name)                                                                    \
    extern _Thread_local void *tether_##name##_slot;                                                \
    static inline __attribute__((always_inline)) void *tether_##name(void) {                        \
        return tether_##name##_slot;                                                                \
    }                                                                                               \
    static inline __attribute__((always_inline)) void tether_set_##name(void *value) {              \
        tether_##name##_slot = value;                                                               \
    }

/// The thread's deep-chain trampoline state (`DeepChainTrampoline`), read by every operator start; NULL
/// before its first use on the thread. Freed by a pthread key's destructor when the thread ends.
TETHER_THREAD_SLOT(deep_chain_state)
/// The thread's `DebugThreadContext` (the debugging tools), retained by a pthread key whose destructor
/// releases it (and clears this slot) when the thread ends; NULL before its first use on the thread.
TETHER_THREAD_SLOT(debug_thread_context)
/// The scheduler whose work the thread is running (`currentScheduler`), unretained; NULL outside such work.
TETHER_THREAD_SLOT(current_scheduler)
/// The actor (other than the main actor) whose work Tether runs on the thread: a hop to a subscriber's
/// actor, or the `subscribe` call that captured it (`CallerIsolation`); unretained, NULL otherwise.
TETHER_THREAD_SLOT(current_actor)
/// The innermost `DeferredSubmissionWatch` the thread runs a body under, unretained.
TETHER_THREAD_SLOT(deferred_submission_watch)
/// The innermost `ReadTracker` (`@Observed` reads while a key path is evaluated), unretained.
TETHER_THREAD_SLOT(read_tracker)
/// The innermost `EnabledReadProbe.Probe` (Bridges), unretained.
TETHER_THREAD_SLOT(enabled_read_probe)

/// How many operators the thread has made (`Signal.linkedForDeepChains`: every 64th links its upstream).
/// A plain thread-local count: no atomic read-modify-write per operator, and nothing to synchronize.
extern _Thread_local unsigned long tether_operators_made;
/// Counts one operator more on the calling thread; returns the new count.
static inline __attribute__((always_inline)) unsigned long tether_count_operator_made(void) {
    return ++tether_operators_made;
}

// The calling thread's identity (`currentThreadID`): the address of a thread-local of its own, unique among
// the running threads as `pthread_self()` is, and read without a call — one or two instructions from the
// thread pointer where `pthread_self()` is a call into libc (the gates ask it on every send, a flattening
// operator's inner sink on every value). Aligned to 8, so bit 0 is clear; never NULL.
extern _Thread_local _Alignas(8) char tether_thread_anchor;
static inline __attribute__((always_inline)) unsigned long tether_thread_id(void) {
    return (unsigned long)&tether_thread_anchor;
}

// Two reference-count queries of the Swift runtime, `swift_isDeallocating` and `swift_tryRetain` (exported
// by libswiftCore, declared in the runtime's private HeapObject.h; Swift code may not name them). They are
// looked up by name when the library loads (RuntimeQueries.c) instead of being linked against, so a
// runtime that no longer exports them leaves the pointers NULL instead of failing to load. Swift code
// reaches them only through `RuntimeAssumptions` (Observable), whose self-test checks that they answer
// as expected before anything relies on them.

/// Whether the concurrency runtime's `swift_task_isCurrentExecutorWithFlags` was found (see below).
_Bool tether_runtime_has_current_executor_query(void);
/// `swift_task_isCurrentExecutorWithFlags` without the assertion flag: whether the calling code runs on the
/// serial executor whose reference is (`identity`, `implementation`) — an `UnownedSerialExecutor`'s two
/// words. `false` when the runtime does not export the query. Reached only through `RuntimeAssumptions`.
_Bool tether_runtime_is_current_executor(void *identity, uintptr_t implementation);

/// `swift_isDeallocating`: whether the deinit of the Swift object at the address has started. NULL
/// when the runtime does not export it.
extern _Bool (*tether_runtime_is_deallocating)(void *object);
/// `swift_tryRetain`: the object, retained, or NULL once its deinit has started. NULL when the runtime
/// does not export it.
extern void *(*tether_runtime_try_retain)(void *object);

/// Whether both queries were found.
static inline __attribute__((always_inline)) _Bool tether_runtime_object_queries_found(void) {
    return tether_runtime_is_deallocating != 0 && tether_runtime_try_retain != 0;
}

/// Whether the deinit of the Swift object at `object` has started. `object`'s memory must be allocated
/// (an unowned reference keeps it so), and the queries must have been found.
static inline __attribute__((always_inline)) _Bool tether_object_is_deinitializing(void *object) {
    return tether_runtime_is_deallocating(object);
}

/// Retains the Swift object at `object` unless its deinit has started; returns whether it did. `object`'s
/// memory must be allocated (an unowned reference keeps it so), and the queries must have been found.
static inline __attribute__((always_inline)) _Bool tether_object_try_retain(void *object) {
    return tether_runtime_try_retain(object) != 0;
}

// Thread Sanitizer cannot see every synchronization of the Swift concurrency runtime: when a continuation is
// resumed before its task reached the `await`, the task goes on without the acquire the runtime performs
// when it runs a resumed task as a job (swift_continuation_await's "already resumed" path). The resuming
// thread's accesses to the continuation's context then look unordered with the task's next use of that
// memory. The runtime does announce the resume (`__tsan_release` on the task); this supplies the missing
// half. Both lookups happen when the library loads; outside Thread Sanitizer it returns at once.

/// Tells Thread Sanitizer that everything a resumer of the current task's continuation did before resuming
/// it happened before this point. Call right after the `await` of a continuation returns. A no-op unless the
/// process runs under Thread Sanitizer (or outside a task).
void tether_tsan_acquire_current_task(void);

// A thread parker: the one place a Tether thread sleeps (`ParkingLot.park`). The word is the calling
// thread's own (thread-local), so it outlives every park of that thread: a waker may store into it and
// wake it after letting go of every lock, and a late wake only makes a later park check its word again.

/// The calling thread's parking word.
uint32_t *tether_parker_word(void);

/// Arms `word` for a park (stores 1). Call before the thread becomes visible to wakers.
static inline __attribute__((always_inline)) void tether_parker_arm(uint32_t *word) {
    __atomic_store_n(word, 1, __ATOMIC_RELAXED);
}

/// Marks the thread parked on `word` as woken (stores 0, releasing): its `tether_parker_wait` returns.
static inline __attribute__((always_inline)) void tether_parker_mark_woken(uint32_t *word) {
    __atomic_store_n(word, 0, __ATOMIC_RELEASE);
}

/// Sleeps while `word` is 1 (futex(2) on Linux); returns once it was marked woken.
void tether_parker_wait(uint32_t *word);

/// Wakes the thread sleeping on `word`, if it sleeps; after `tether_parker_mark_woken(word)`.
void tether_parker_wake(uint32_t *word);

#endif
