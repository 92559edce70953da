/* ufunc.at's kernel: see ew_at.h. */
#include "ew_at.h"

void ma_ew_at(ma_loop loop, const void *aux, char *base, const int64_t *off, int64_t n, const char *b,
              int64_t bstride) {
  /* One call of the generated loop per element: its pointers are
   * (out, in0[, in1]) with strides that are never stepped (n = 1).  The
   * loop may read its inputs before writing, so out aliasing in0 is the
   * in-place update every generated loop already supports. */
  int64_t strides[3] = {0, 0, 0};
  for (int64_t i = 0; i < n; i++) {
    char *p = base + off[i];
    char *ptrs[3] = {p, p, b ? (char *)b + i * bstride : NULL};
    loop(ptrs, strides, 1, aux);
  }
}
