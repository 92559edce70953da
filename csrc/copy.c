#include "copy.h"

#include <stdlib.h>

static void extent(const ma_array *a, char **lo, char **hi) {
  int64_t item = a->t.dtype.bits / 8;
  char *l = (char *)a->t.data, *h = (char *)a->t.data + item;
  for (int i = 0; i < a->t.ndim; i++) {
    if (a->t.shape[i] == 0) { *lo = *hi = (char *)a->t.data; return; }
    int64_t span = (a->t.shape[i] - 1) * a->t.strides[i] * item;
    if (span < 0) l += span; else h += span;
  }
  *lo = l;
  *hi = h;
}

int ma_may_overlap(const ma_array *a, const ma_array *b) {
  char *alo, *ahi, *blo, *bhi;
  extent(a, &alo, &ahi);
  extent(b, &blo, &bhi);
  return alo < bhi && blo < ahi;
}

/* Element-by-element in place is safe only when both walk the same bytes. */
static int same_layout(const ma_array *a, const ma_array *b) {
  if (a->t.data != b->t.data || a->t.ndim != b->t.ndim) return 0;
  for (int i = 0; i < a->t.ndim; i++)
    if (a->t.shape[i] != b->t.shape[i] ||
        a->t.strides[i] * a->t.dtype.bits != b->t.strides[i] * b->t.dtype.bits)
      return 0;
  return a->t.dtype.bits == b->t.dtype.bits;
}

int ma_copyto(ma_array *dst, const ma_array *src) {
  int ts = ma_type_of(src->t.dtype), td = ma_type_of(dst->t.dtype);
  if (ts < 0 || td < 0) return -1;
  const ma_array *s = src;
  ma_array *tmp = NULL;
  if (ma_may_overlap(dst, src) && !same_layout(dst, src)) {
    int err = 0;
    tmp = ma_array_empty(src->t.dtype, src->t.ndim, src->t.shape, 0, &err);
    if (!tmp) return -2;
    const ma_array *o[2] = {tmp, src};
    ma_iterate(2, o, ma_cast_loops[ts][ts], NULL);
    s = tmp;
  }
  const ma_array *ops[2] = {dst, s};
  int rc = ma_iterate(2, ops, ma_cast_loops[ts][td], NULL);
  ma_array_free(tmp);
  return rc;
}
