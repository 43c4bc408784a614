#include "CMallInfo.h"
#include <stdlib.h>  /* defines __GLIBC__ via <features.h> on glibc systems */
#if defined(__GLIBC__)
#include <malloc.h>
#endif

size_t tb_heap_bytes_in_use(void) {
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 33))
    struct mallinfo2 info = mallinfo2();
    return info.uordblks + info.hblkhd;
#else
    return 0;
#endif
}

__attribute__((noinline)) uintptr_t tb_stack_address(void) {
    return (uintptr_t)__builtin_frame_address(0);
}
