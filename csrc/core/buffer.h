/*
 * Reference-counted memory buffers: the one place minarray allocates and frees
 * array memory.
 *
 * A buffer is either
 *   - owned:   minarray allocated it (64-byte aligned, huge-page hint when large)
 *   - foreign: someone else's pointer plus a release callback and its context,
 *              called exactly once when the last reference goes (DLPack
 *              imports, NumPy arrays, raw pointers, and mapped files, whose
 *              release unmaps them).
 *
 * retain/release are atomic and callable from any thread; releasing an owned
 * buffer touches no Python object, so a DLPack deleter can run anywhere.
 */
#ifndef MINARRAY_BUFFER_H
#define MINARRAY_BUFFER_H

#include <stddef.h>
#include <stdint.h>

typedef void (*ma_release_fn)(void *ctx);

typedef struct ma_buffer {
  int64_t refcount;      /* updated with __atomic builtins only */
  void *data;            /* first byte of the memory (never NULL for owned) */
  size_t nbytes;         /* bytes counted in the statistics */
  ma_release_fn release; /* NULL for owned memory */
  void *ctx;             /* argument of `release`; owned: the block to free */
  size_t block_size;     /* owned: bytes of that block (it may be a reused, larger one) */
  int owned;             /* 1: minarray's own memory, freed with the header */
} ma_buffer;

/* cdef-begin: the allocator's statistics, as Python reads them (csrc/build_ffi.py) */
typedef struct {
  int64_t live_buffers;      /* buffers of either kind not yet freed */
  int64_t live_bytes;        /* bytes of owned buffers not yet freed */
  int64_t total_allocations; /* owned buffers ever allocated */
  int64_t live_foreign;      /* foreign buffers not yet released */
  int64_t total_foreign;     /* foreign buffers ever created */
  int64_t failed_allocations;
  int64_t cached_bytes;      /* freed large blocks kept for reuse (see buffer.c) */
} ma_stats_t;
/* cdef-end */

/* Alignment of every owned buffer's data. */
#define MA_ALIGNMENT 64
/* From this size on, ask the kernel for transparent huge pages (as NumPy). */
#define MA_HUGEPAGE_THRESHOLD (4u << 20)

/* Ask for transparent huge pages over the whole pages inside [p, p + n),
 * when n is at least MA_HUGEPAGE_THRESHOLD and before they are first
 * written: first-touch page faults dominate the writing of a large fresh
 * block, and huge pages cut their number 512-fold.  For minarray's own
 * buffers and for memory it fills for others (a bytes object). */
void ma_advise_hugepages(void *p, size_t n);

/* Product of shape * itemsize without wrapping: 0 on success, -1 on overflow
 * (a negative dimension also gives -1). */
int ma_nbytes(int ndim, const int64_t *shape, size_t itemsize, size_t *out);

/* A new owned buffer of `nbytes` (zero-filled when `zero`); NULL when the
 * allocation fails.  Starts with one reference. */
ma_buffer *ma_buffer_new(size_t nbytes, int zero);
/* A foreign buffer; `release(ctx)` runs once when the last reference goes.
 * NULL when the header cannot be allocated (then release is NOT called). */
ma_buffer *ma_buffer_foreign(void *data, size_t nbytes, ma_release_fn release,
                             void *ctx);
/* A foreign buffer over the first `length` bytes (> 0) of the open file
 * `fd`, mapped with mmap: `mode` 0 read-only and shared, 1 read-write and
 * shared (writes reach the file), 2 copy-on-write (writes stay private).
 * The release unmaps it; the mapping outlives `fd`.  NULL with errno set
 * when the file cannot be mapped (or the header cannot be allocated). */
ma_buffer *ma_buffer_map(int fd, size_t length, int mode);
void ma_buffer_retain(ma_buffer *b);
void ma_buffer_release(ma_buffer *b);

/* cdef-begin: declared to cffi too */
void ma_stats(ma_stats_t *out);
/* Test hook: make the n-th next owned allocation fail (n >= 1); 0 disables. */
void ma_fail_allocation_after(int64_t n);
/* cdef-end */

#endif
