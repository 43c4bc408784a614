#ifndef CMALLINFO_H
#define CMALLINFO_H
#include <stddef.h>
#include <stdint.h>

/// Bytes currently allocated by malloc (glibc mallinfo2: in-use arena bytes plus mmapped blocks);
/// 0 where mallinfo2 is unavailable.
size_t tb_heap_bytes_in_use(void);

/// Where the stack is now (stacks grow down): the frame address of this out-of-line function, just below
/// its caller's frame. For measuring how much stack a chain of nested calls takes.
uintptr_t tb_stack_address(void);

/// A compiler barrier: forces pending stores to memory without emitting an instruction, so a loop of
/// plain property stores cannot be collapsed into one.
static inline void tb_compiler_barrier(void) {
#if defined(__GNUC__) || defined(__clang__)
    __asm__ __volatile__("" ::: "memory");
#endif
}

#endif
