/* Copying with casting and broadcasting: the kernel behind astype, copy,
 * __setitem__, asarray and every "make this contiguous".  Also the one
 * overlap rule every writer applies: an operation behaves as if all of its
 * inputs (operands, index arrays, masks, values) were read before anything
 * is written, as NumPy's do, whatever aliases what. */
#ifndef MINARRAY_COPY_H
#define MINARRAY_COPY_H

#include "iterate.h"

extern const ma_loop ma_cast_loops[MA_NALLTYPES][MA_NALLTYPES];

/* Do the byte ranges touched by two arrays intersect?  0-d, broadcast
 * (stride 0) and negative-stride arrays included; empty ones touch none. */
int ma_may_overlap(const ma_array *a, const ma_array *b);
/* Must `src` be read through a snapshot before `dst` is written element by
 * element (as an elementwise loop or a copy walks them)?  Yes when they
 * overlap, unless both walk the very same bytes in the same order.  Inputs
 * that are not walked in step with dst (index arrays, masks) need a
 * snapshot whenever ma_may_overlap says so. */
int ma_must_snapshot(const ma_array *dst, const ma_array *src);
/* A C-contiguous copy of `a` in its own dtype; NULL when out of memory. */
ma_array *ma_snapshot(const ma_array *a);
/* dst[...] = src, broadcasting src and casting to dst's dtype.  Safe when
 * they overlap (src goes through a snapshot).  0, -1 (shapes do not
 * broadcast) or -2 (out of memory). */
int ma_copyto(ma_array *dst, const ma_array *src);

#endif
