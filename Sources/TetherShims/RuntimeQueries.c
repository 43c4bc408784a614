// The Swift runtime's reference-count queries of TetherShims.h, looked up by name when the library loads.
#include "TetherShims.h"

#include <dlfcn.h>

_Bool (*tether_runtime_is_deallocating)(void *object) = 0;
void *(*tether_runtime_try_retain)(void *object) = 0;

/// Runs before any Swift code: the pointers never change while anything reads them. A statically linked
/// runtime that does not export its symbols dynamically leaves them NULL (the safe path is taken then).
__attribute__((constructor)) static void tether_find_runtime_queries(void) {
    _Bool (*is_deallocating)(void *) = (_Bool (*)(void *))dlsym(RTLD_DEFAULT, "swift_isDeallocating");
    void *(*try_retain)(void *) = (void *(*)(void *))dlsym(RTLD_DEFAULT, "swift_tryRetain");
    if (is_deallocating != 0 && try_retain != 0) {
        tether_runtime_is_deallocating = is_deallocating;
        tether_runtime_try_retain = try_retain;
    }
}
