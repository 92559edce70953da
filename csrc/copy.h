/* Copying with casting and broadcasting: the kernel behind astype, copy,
 * __setitem__, asarray and every "make this contiguous". */
#ifndef MINARRAY_COPY_H
#define MINARRAY_COPY_H

#include "iterate.h"

extern const ma_loop ma_cast_loops[MA_NTYPES][MA_NTYPES];

/* Do the byte ranges touched by two arrays intersect? */
int ma_may_overlap(const ma_array *a, const ma_array *b);
/* dst[...] = src, broadcasting src and casting to dst's dtype.  Safe when
 * they overlap (src goes through a temporary).  0, -1 (shapes do not
 * broadcast) or -2 (out of memory). */
int ma_copyto(ma_array *dst, const ma_array *src);

#endif
