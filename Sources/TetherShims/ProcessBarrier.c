// Process-wide memory barriers for the asymmetric fence of TetherShims.h.
#include "TetherShims.h"

#if defined(__linux__)
#include <linux/membarrier.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

int tether_symmetric_fences = 0;

/// The membarrier(2) command `tether_heavy_barrier` issues; 0 when none is available.
static int heavy_command = 0;

/// Chooses the process-wide barrier at load time, before any thread can use a light barrier: the choice
/// never changes while both halves are in use.
__attribute__((constructor)) static void tether_choose_barrier(void) {
#if defined(__linux__) && defined(__NR_membarrier)
    long offered = syscall(__NR_membarrier, MEMBARRIER_CMD_QUERY, 0, 0);
    if (offered > 0) {
        if ((offered & MEMBARRIER_CMD_PRIVATE_EXPEDITED) && (offered & MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED)
            && syscall(__NR_membarrier, MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED, 0, 0) == 0) {
            heavy_command = MEMBARRIER_CMD_PRIVATE_EXPEDITED;
            return;
        }
        if (offered & MEMBARRIER_CMD_GLOBAL) {
            heavy_command = MEMBARRIER_CMD_GLOBAL;
            return;
        }
    }
#endif
    // No process-wide barrier (another OS, an old kernel, or a sandbox that refuses the call): the light
    // barrier becomes a full fence, so the pair stays correct.
    tether_symmetric_fences = 1;
}

void tether_heavy_barrier(void) {
#if defined(__linux__) && defined(__NR_membarrier)
    if (heavy_command != 0 && syscall(__NR_membarrier, heavy_command, 0, 0) == 0) {
        return;
    }
#endif
    // Either light barriers are full fences (nothing else to do but our own fence), or the kernel refused a
    // command it accepted at load time, which it does not do.
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
}
