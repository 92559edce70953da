#include "iterate.h"

#include <stdlib.h>
#include <string.h>

int ma_broadcast_strides(const ma_array *a, int ndim, const int64_t *shape,
                         int64_t *bstrides) {
  int nd = a->t.ndim;
  int64_t itemsize = (a->t.dtype.bits / 8) * a->t.dtype.lanes;
  if (nd > ndim) return -1;
  for (int i = 0; i < ndim; i++) {
    int j = i - (ndim - nd);
    if (j < 0) { bstrides[i] = 0; continue; }
    int64_t n = a->t.shape[j];
    if (n == shape[i]) bstrides[i] = a->t.strides[j] * itemsize;
    else if (n == 1) bstrides[i] = 0;
    else return -1;
  }
  return 0;
}

static int64_t iabs64(int64_t x) { return x < 0 ? -x : x; }

/* Serial driver over a prepared (already simplified) layout. */
static void run(int nops, char **base, int ndim, const int64_t *shape,
                int64_t (*st)[MA_MAXOPS], ma_loop loop, const void *aux) {
  char *ptrs[MA_MAXOPS];
  int64_t inner[MA_MAXOPS];
  for (int k = 0; k < nops; k++) { ptrs[k] = base[k]; inner[k] = st[ndim - 1][k]; }
  if (ndim == 1) { loop(ptrs, inner, shape[0], aux); return; }
  int64_t idx[MA_MAXDIMS] = {0};
  int outer = ndim - 1;
  for (;;) {
    loop(ptrs, inner, shape[ndim - 1], aux);
    int d = outer - 1;
    for (; d >= 0; d--) {
      for (int k = 0; k < nops; k++) ptrs[k] += st[d][k];
      if (++idx[d] < shape[d]) break;
      for (int k = 0; k < nops; k++) ptrs[k] -= st[d][k] * shape[d];
      idx[d] = 0;
    }
    if (d < 0) return;
  }
}

int ma_iterate(int nops, const ma_array *const *ops, ma_loop loop,
               const void *aux) {
  const ma_array *out = ops[0];
  int ndim = out->t.ndim;
  int64_t shape[MA_MAXDIMS + 1];
  int64_t st[MA_MAXDIMS + 1][MA_MAXOPS];
  int64_t bs[MA_MAXDIMS];
  char *base[MA_MAXOPS];

  for (int k = 0; k < nops; k++) {
    if (ma_broadcast_strides(ops[k], ndim, out->t.shape, bs) != 0) return -1;
    for (int i = 0; i < ndim; i++) st[i][k] = bs[i];
    base[k] = (char *)ops[k]->t.data;
  }
  /* Drop size-1 dims; an empty output means nothing to do. */
  int n = 0;
  for (int i = 0; i < ndim; i++) {
    if (out->t.shape[i] == 0) return 0;
    if (out->t.shape[i] == 1) continue;
    shape[n] = out->t.shape[i];
    memcpy(st[n], st[i], sizeof(st[0]));
    n++;
  }
  if (n == 0) { /* a single element */
    shape[0] = 1;
    for (int k = 0; k < nops; k++) st[0][k] = 0;
    n = 1;
  }
  /* Order dims by decreasing |output stride| (ties: first input), so the
   * inner loop walks memory in order.  Insertion sort: n is small. */
  for (int i = 1; i < n; i++) {
    int64_t sh = shape[i];
    int64_t s[MA_MAXOPS];
    memcpy(s, st[i], sizeof(s));
    int j = i - 1;
    while (j >= 0) {
      int64_t a0 = iabs64(st[j][0]), b0 = iabs64(s[0]);
      int64_t a1 = nops > 1 ? iabs64(st[j][1]) : 0, b1 = nops > 1 ? iabs64(s[1]) : 0;
      if (a0 > b0 || (a0 == b0 && a1 >= b1)) break;
      shape[j + 1] = shape[j];
      memcpy(st[j + 1], st[j], sizeof(s));
      j--;
    }
    shape[j + 1] = sh;
    memcpy(st[j + 1], s, sizeof(s));
  }
  /* Merge dim i into dim i+1 when every operand steps through both as one. */
  int m = 0;
  for (int i = 1; i < n; i++) {
    int ok = 1;
    for (int k = 0; k < nops; k++)
      if (st[m][k] != st[i][k] * shape[i]) { ok = 0; break; }
    if (ok) {
      shape[m] *= shape[i];
      for (int k = 0; k < nops; k++) st[m][k] = st[i][k];
    } else {
      m++;
      shape[m] = shape[i];
      memcpy(st[m], st[i], sizeof(st[0]));
    }
  }
  n = m + 1;
  run(nops, base, n, shape, st, loop, aux);
  return 0;
}

static int num_threads = 1;
int ma_get_num_threads(void) { return num_threads; }
void ma_set_num_threads(int n) { num_threads = n < 1 ? 1 : n; }
