#include "copy.h"

#include <stdlib.h>

/* The lowest and one-past-highest byte an array's elements touch. */
static void extent(const ma_array *a, char **lo, char **hi) {
  int64_t item = ma_elsize(a->t.dtype);
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

/* Element-by-element in place is safe only when both walk the same bytes in
 * the same order: element i of dst is then written after element i of src
 * was read, and no other element of src lives there.  Size-1 axes are never
 * stepped along, so their strides do not matter. */
static int same_layout(const ma_array *a, const ma_array *b) {
  if (a->t.data != b->t.data || a->t.ndim != b->t.ndim || a->t.dtype.bits != b->t.dtype.bits) return 0;
  for (int i = 0; i < a->t.ndim; i++)
    if (a->t.shape[i] != b->t.shape[i] || (a->t.shape[i] > 1 && a->t.strides[i] != b->t.strides[i]))
      return 0;
  return 1;
}

int ma_must_snapshot(const ma_array *dst, const ma_array *src) {
  return ma_may_overlap(dst, src) && !same_layout(dst, src);
}

ma_array *ma_snapshot(const ma_array *a) {
  int t = ma_type_of(a->t.dtype), err = 0;
  if (t < 0) return NULL;
  ma_array *s = ma_array_empty(a->t.dtype, a->t.ndim, a->t.shape, 0, &err);
  if (!s) return NULL;
  const ma_array *ops[2] = {s, a};
  ma_iterate(2, ops, ma_cast_loops[t][t], NULL);
  return s;
}

int ma_copyto(ma_array *dst, const ma_array *src) {
  int ts = ma_type_of(src->t.dtype), td = ma_type_of(dst->t.dtype);
  if (ts < 0 || td < 0) return -1;
  ma_array *tmp = NULL;
  if (ma_must_snapshot(dst, src) && !(tmp = ma_snapshot(src))) return -2;
  const ma_array *ops[2] = {dst, tmp ? tmp : src};
  int rc = ma_iterate(2, ops, ma_cast_loops[ts][td], NULL);
  ma_array_free(tmp);
  return rc;
}
