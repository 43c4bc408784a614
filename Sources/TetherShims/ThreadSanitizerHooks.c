// Thread Sanitizer's annotation interface of TetherShims.h, looked up by name when the library loads.
#include "TetherShims.h"

#include <dlfcn.h>

/// `__tsan_acquire` (sanitizer/tsan_interface.h); NULL unless the process runs under Thread Sanitizer.
static void (*tsan_acquire)(void *address) = 0;
/// `swift_task_getCurrent` (the concurrency runtime's exported entry point behind `withUnsafeCurrentTask`).
static void *(__attribute__((swiftcall)) *current_task)(void) = 0;

/// Runs before any Swift code: the pointers never change while anything reads them. Thread Sanitizer's
/// runtime is initialized before any constructor of the program runs, so it is found if it is there.
__attribute__((constructor)) static void tether_find_thread_sanitizer(void) {
    void (*acquire)(void *) = (void (*)(void *))dlsym(RTLD_DEFAULT, "__tsan_acquire");
    void *(__attribute__((swiftcall)) *task)(void) =
        (void *(__attribute__((swiftcall)) *)(void))dlsym(RTLD_DEFAULT, "swift_task_getCurrent");
    if (acquire != 0 && task != 0) {
        current_task = task;
        tsan_acquire = acquire;
    }
}

void tether_tsan_acquire_current_task(void) {
    if (__builtin_expect(tsan_acquire == 0, 1)) return;
    void *task = current_task();
    if (task != 0) tsan_acquire(task);
}
