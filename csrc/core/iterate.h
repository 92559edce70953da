/*
 * The strided N-d iterator every kernel runs through: elementwise operations,
 * casts and copies (ma_iterate), and the reductions' own walks (ma_nest_walk,
 * the walk ma_iterate runs on).
 *
 * Operand 0 is the output; the inputs broadcast to its shape (numpy rules:
 * right-aligned, size-1 and missing dims get stride 0).  Before looping the
 * iterator drops size-1 dims, orders dims so the innermost walks the
 * smallest output stride, and merges dims that are contiguous together, so a
 * C- or F-ordered operation becomes one flat inner loop.
 *
 * Two refinements on top (both invisible in the results):
 *
 * - Threads.  From MA_PARALLEL_MIN elements on, the flattened index range
 *   is cut into chunks run on the thread pool (csrc/core/threads.h).  Every
 *   element is still computed by the same loop from the same inputs, so the
 *   result is bit-identical to a serial run -- provided the loop's result
 *   for an element does not depend on where a call starts or how long it
 *   is (a vector body and its scalar tail must agree).  Only done when each
 *   output element is written once (no zero output stride) and the output
 *   does not partly overlap an input.
 *
 * - Tiles.  When an input's inner stride conflicts with the output's (A.T +
 *   B: the output and B want the last dim innermost, A.T the first), a
 *   plain walk touches a new cache line of A for every element.  The
 *   iterator then walks 2-d tiles of those two dims so the lines it loads
 *   for the strided operand are reused before they are evicted.
 *
 * Loops run concurrently on several threads: `aux` must be read-only to
 * them (or the loop otherwise thread-safe).  A loop with per-call state
 * passes MA_ITER_SERIAL to ma_iterate_ex.
 */
#ifndef MINARRAY_ITERATE_H
#define MINARRAY_ITERATE_H

#include "array.h"
#include "threads.h"

#define MA_MAXOPS 4

/* Hot kernels get an AVX2 clone chosen at load time (GCC function
 * multiversioning, through glibc's ifunc) while the baseline build stays
 * portable x86-64.  AVX2 without FMA: the clones round exactly as the
 * baseline code does. */
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__linux__)
#define MA_HOT __attribute__((target_clones("avx2", "default")))
#else
#define MA_HOT
#endif

/* Default element count from which ma_iterate uses several threads.  On the
 * reference 2-core machine a memory-bound add gains from 2 threads from
 * about 2^16 elements on (docs/performance.md). */
#define MA_PARALLEL_MIN (1 << 16)

/* ma_iterate_ex flags */
#define MA_ITER_SERIAL 1u /* never split over threads */
#define MA_ITER_NOTILE 2u /* never walk in tiles (tests, measurements) */

/* An inner loop: `n` elements, operand k at ptrs[k] advancing by
 * bstrides[k] bytes.  Loops check for the contiguous case themselves. */
typedef void (*ma_loop)(char **ptrs, const int64_t *bstrides, int64_t n,
                        const void *aux);

/* The one N-d walk: `nops` pointers stepping through `ndim` dims
 * (outermost first; the last is walked in runs) by byte strides.
 * ma_iterate plans one from its operands; the reduction drivers
 * (csrc/core/reduce.c) describe theirs directly. */
typedef struct {
  int ndim, nops; /* ndim >= 1 */
  char *base[MA_MAXOPS];
  int64_t shape[MA_MAXDIMS];
  int64_t st[MA_MAXDIMS][MA_MAXOPS];
} ma_nest;

/* Positions [begin, end) of the nest's flattened index range, in C order:
 * `run` gets the operands' pointers, their strides along the last dim and
 * how many positions of that row to take (all of it, except at either end
 * of the range). */
void ma_nest_walk(const ma_nest *n, int64_t begin, int64_t end, ma_loop run, const void *ctx);

/* The broadcast shape of n shapes (shapes[k] of ndims[k] dims) into *nd and
 * out (NumPy's rules: right-aligned, a length of 1 stretches); -1 when
 * they do not broadcast.  The one statement of the rule: the elementwise
 * engine and minarray.broadcast_shapes both call it. */
int ma_broadcast_shape(int n, const int *ndims, const int64_t *const *shapes, int *nd, int64_t *out);

/* Broadcast the byte strides of `a` to `ndim`/`shape`.  -1 if it does not
 * broadcast. */
int ma_broadcast_strides(const ma_array *a, int ndim, const int64_t *shape,
                         int64_t *bstrides);

/* Run `loop` over ops[0]'s shape.  -1 if an input does not broadcast. */
int ma_iterate(int nops, const ma_array *const *ops, ma_loop loop,
               const void *aux);

/* ma_iterate with `flags` (MA_ITER_*) and the element count from which to
 * use threads: `parallel_min` <= 0 means the global setting
 * (ma_get_parallel_min), a larger count is capped at it.  An expensive loop
 * (exp, sin) passes a smaller count than a memory-bound one. */
int ma_iterate_ex(int nops, const ma_array *const *ops, ma_loop loop,
                  const void *aux, unsigned flags, int64_t parallel_min);

/* cdef-begin: declared to cffi too (minarray/_threads.py and the tests) */
/* The global element count from which ma_iterate splits work (default
 * MA_PARALLEL_MIN); n <= 0 restores the default.  Tests lower it to
 * exercise the threaded paths on small arrays. */
int64_t ma_get_parallel_min(void);
void ma_set_parallel_min(int64_t n);

/* One row of the plain walk must span more than this many bytes of a
 * strided operand for the walk to be tiled (default 32 MiB; n <= 0
 * restores it).  Tests lower it to reach the tiled walk on small arrays. */
int64_t ma_get_tile_min_span(void);
void ma_set_tile_min_span(int64_t n);

/* How many iterations so far were split over threads (out[0]) and walked
 * in tiles (out[1]): lets tests check that they reach those paths. */
void ma_iterate_counts(int64_t *out);
/* cdef-end */

#endif
