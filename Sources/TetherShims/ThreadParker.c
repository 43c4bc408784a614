#include "TetherShims.h"

#include <stdint.h>

// Each thread parks on a word of its own, in thread-local storage: it outlives any one park, so a wake
// may be sent after the waker let go of the parking lot's bucket (see `ParkingLot`).
static _Thread_local uint32_t parker_word;

uint32_t *tether_parker_word(void) { return &parker_word; }

#if defined(__linux__)
#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>

void tether_parker_wait(uint32_t *word) {
    while (__atomic_load_n(word, __ATOMIC_ACQUIRE) == 1) {
        // Returns at once if the word is no longer 1; an interrupted or spurious return checks again.
        syscall(SYS_futex, word, FUTEX_WAIT_PRIVATE, 1, NULL, NULL, 0);
    }
}

void tether_parker_wake(uint32_t *word) { syscall(SYS_futex, word, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0); }

#else
#include <pthread.h>

// Without futexes: one process-wide mutex and condition variable. Slower, but only the wait loop's
// check and the broadcast run under them.
static pthread_mutex_t parker_mutex = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t parker_condition = PTHREAD_COND_INITIALIZER;

void tether_parker_wait(uint32_t *word) {
    pthread_mutex_lock(&parker_mutex);
    while (__atomic_load_n(word, __ATOMIC_ACQUIRE) == 1) pthread_cond_wait(&parker_condition, &parker_mutex);
    pthread_mutex_unlock(&parker_mutex);
}

void tether_parker_wake(uint32_t *word) {
    (void)word;
    pthread_mutex_lock(&parker_mutex);
    pthread_cond_broadcast(&parker_condition);
    pthread_mutex_unlock(&parker_mutex);
}
#endif
