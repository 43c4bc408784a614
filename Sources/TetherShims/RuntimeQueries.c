// The Swift runtime's reference-count queries of TetherShims.h, looked up by name when the library loads.
#include "TetherShims.h"

#include <dlfcn.h>

_Bool (*tether_runtime_is_deallocating)(void *object) = 0;
/// `swift_task_isCurrentExecutorWithFlags(SerialExecutorRef, flags)`: a Swift-calling-convention function
/// whose executor reference is two words (identity, implementation).
static _Bool(__attribute__((swiftcall)) * is_current_executor)(void *identity, uintptr_t implementation,
                                                                 uint64_t flags) = 0;
void *(*tether_runtime_try_retain)(void *object) = 0;

/// Runs before any Swift code: the pointers never change while anything reads them. A statically linked
/// runtime that does not export its symbols dynamically leaves them NULL (the safe path is taken then).
__attribute__((constructor)) static void tether_find_runtime_queries(void) {
    _Bool (*is_deallocating)(void *) = (_Bool (*)(void *))dlsym(RTLD_DEFAULT, "swift_isDeallocating");
    void *(*try_retain)(void *) = (void *(*)(void *))dlsym(RTLD_DEFAULT, "swift_tryRetain");
    is_current_executor = (_Bool(__attribute__((swiftcall)) *)(void *, uintptr_t, uint64_t))dlsym(
        RTLD_DEFAULT, "swift_task_isCurrentExecutorWithFlags");
    if (is_deallocating != 0 && try_retain != 0) {
        tether_runtime_is_deallocating = is_deallocating;
        tether_runtime_try_retain = try_retain;
    }
}

_Bool tether_runtime_has_current_executor_query(void) { return is_current_executor != 0; }

_Bool tether_runtime_is_current_executor(void *identity, uintptr_t implementation) {
    // Flags 0: answer without asserting (the assertion flag is `assumeIsolated`'s).
    return is_current_executor != 0 && is_current_executor(identity, implementation, 0);
}
