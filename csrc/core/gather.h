/*
 * Gather and scatter: the kernels behind integer-array ("advanced")
 * indexing, x[mask] and nonzero.
 *
 * Every advanced index is reduced to this form: a source view whose first
 * k axes are indexed by k int64 arrays of one broadcast length N, and the
 * remaining axes R are taken whole.  A gather copies N blocks of shape R
 * out; a scatter writes them in.  minarray/_indexing.py reduces any key;
 * the common keys are reduced in C by csrc/py/index.c, which calls these
 * without the GIL once the work is large.  Each index is checked where it
 * is used, so another thread writing the index arrays meanwhile never
 * turns into an address outside x (docs/reliability.md).
 */
#ifndef MINARRAY_GATHER_H
#define MINARRAY_GATHER_H

#include <stdint.h>

#include "array.h"

/* Blocks n = 0..n_blocks of `blocks` (shape (N, R...), src's dtype; 0-d
 * for a single block) copied out of src (gather) or into it (scatter), at
 * src[idx[0][n], ..., idx[k-1][n], ...]; each idx[j] is a 1-d int64 array
 * of length N, or 0-d.  Negative indices count from the end, as Python's.
 * A scatter checks every index before its first write, as NumPy does, and
 * writes in order (a repeated index: the last write wins).  0, or -1 - j
 * with *bad_value the first index outside its axis (j the index array it
 * is in; a scatter then wrote nothing). */
int64_t ma_take_blocks(ma_array *src, ma_array *blocks, ma_array *const *idx, int k, int64_t n_blocks,
                       int scatter, int64_t *bad_value);

/* A scatter writes x while it reads its index arrays: one that shares
 * memory with x (x[x] = v) is read through a snapshot, as if the whole key
 * were read before anything is written.  idx[j] is replaced by its snapshot
 * and owned[j] set (the caller frees those); -1 when out of memory. */
int ma_snapshot_indices(const ma_array *x, ma_array **idx, char *owned, int k);

/* The indices of a's non-zero elements as a new int64 (count, ndim) array,
 * in C order; NULL when out of memory.  One pass first casts a to a
 * private bool mask, which the count and the fill then both read. */
ma_array *ma_nonzero(const ma_array *a, int64_t *count);

/* x[mask] for a bool mask of x's shape (ndim >= 1): the elements where the
 * mask is true, in C order, as a new 1-d array; NULL when out of memory.
 * The copy stops at the count its first pass found, whatever the mask
 * says by then. */
ma_array *ma_mask_select(const ma_array *a, const ma_array *m);

/* x[mask] = one element (at `one`, of x's dtype) for a bool mask of x's
 * shape that does not overlap x. */
void ma_mask_fill(ma_array *a, const ma_array *m, const char *one);

#endif
