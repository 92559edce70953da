/*
 * The strided N-d iterator every kernel runs through: elementwise operations,
 * casts and copies.
 *
 * Operand 0 is the output; the inputs broadcast to its shape (numpy rules:
 * right-aligned, size-1 and missing dims get stride 0).  Before looping the
 * iterator drops size-1 dims, orders dims so the innermost walks the
 * smallest output stride, and merges dims that are contiguous together, so a
 * C- or F-ordered operation becomes one flat inner loop.
 */
#ifndef MINARRAY_ITERATE_H
#define MINARRAY_ITERATE_H

#include "array.h"

#define MA_MAXOPS 4

/* An inner loop: `n` elements, operand k at ptrs[k] advancing by
 * bstrides[k] bytes.  Loops check for the contiguous case themselves. */
typedef void (*ma_loop)(char **ptrs, const int64_t *bstrides, int64_t n,
                        const void *aux);

/* Broadcast the byte strides of `a` to `ndim`/`shape`.  -1 if it does not
 * broadcast. */
int ma_broadcast_strides(const ma_array *a, int ndim, const int64_t *shape,
                         int64_t *bstrides);

/* Run `loop` over ops[0]'s shape.  -1 if an input does not broadcast. */
int ma_iterate(int nops, const ma_array *const *ops, ma_loop loop,
               const void *aux);

/* Number of threads for large iterations (1 = serial). */
int ma_get_num_threads(void);
void ma_set_num_threads(int n);

#endif
