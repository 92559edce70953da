/* ufunc.at's kernel: see ew_at.h. */
#include <stdlib.h>
#include <string.h>

#include "ew_at.h"

/* The first of pos[0..n) outside [-size, size) as *bad; 0 when all are
 * inside, 1 when one is not. */
static int check(const int64_t *pos, int64_t n, int64_t size, int64_t *bad) {
  /* the extremes first, a loop the compiler vectorises; the culprit only
   * when there is one */
  int64_t lo = 0, hi = -1;
  for (int64_t i = 0; i < n; i++) {
    lo = pos[i] < lo ? pos[i] : lo;
    hi = pos[i] > hi ? pos[i] : hi;
  }
  if (lo >= -size && hi < size) return 0;
  for (int64_t i = 0; i < n; i++)
    if (pos[i] < -size || pos[i] >= size) {
      *bad = pos[i];
      return 1;
    }
  return 0; /* (another thread changed the positions meanwhile: the loops check each again) */
}

/* pos[i] as a position in [0, size), or -1 outside (see ma_ew_at). */
static inline int64_t position(const int64_t *pos, int64_t i, int64_t size) {
  int64_t k = pos[i];
  if (k < 0) k += size;
  return (uint64_t)k < (uint64_t)size ? k : -1;
}

/* Each loop below applies positions [i, n) in order and stops at the
 * first one outside a, returning its index (n when there is none). */

/* Integers wrap around, as the elementwise loops do: signed ones compute
 * in their unsigned type (signed overflow is undefined in C). */
#define AT_LOOP(T, U, EXPR)                                                    \
  do {                                                                         \
    T *d = (T *)base;                                                          \
    const T *v = (const T *)b;                                                 \
    for (; i < n; i++) {                                                       \
      int64_t k = position(pos, i, size);                                      \
      if (k < 0) return i;                                                     \
      U x = (U)d[k], y = (U)v[i];                                              \
      d[k] = (T)(EXPR);                                                        \
    }                                                                          \
    return n;                                                                  \
  } while (0)

#define AT_OPS(T, U)                                                           \
  switch (fast) {                                                              \
    case MA_AT_ADD: AT_LOOP(T, U, x + y);                                      \
    case MA_AT_SUBTRACT: AT_LOOP(T, U, x - y);                                 \
    case MA_AT_MULTIPLY: AT_LOOP(T, U, x * y);                                 \
    default: return -1;                                                        \
  }

/* Whether typed() has a loop for this op and type. */
static int has_typed(int fast, int type) {
  if (fast == MA_AT_GENERIC) return 0;
  switch (type) {
    case MA_INT8: case MA_INT16: case MA_INT32: case MA_INT64:
    case MA_UINT8: case MA_UINT16: case MA_UINT32: case MA_UINT64:
    case MA_FLOAT32: case MA_FLOAT64: return 1;
    default: return 0;
  }
}

/* A C-contiguous a of an integer or float type (has_typed). */
static int64_t typed(int fast, int type, char *base, const int64_t *pos, int64_t i, int64_t n, int64_t size,
                     const char *b) {
  switch (type) {
    case MA_INT8: AT_OPS(int8_t, uint8_t)
    case MA_INT16: AT_OPS(int16_t, uint16_t)
    case MA_INT32: AT_OPS(int32_t, uint32_t)
    case MA_INT64: AT_OPS(int64_t, uint64_t)
    case MA_UINT8: AT_OPS(uint8_t, uint8_t)
    case MA_UINT16: AT_OPS(uint16_t, uint16_t)
    case MA_UINT32: AT_OPS(uint32_t, uint32_t)
    case MA_UINT64: AT_OPS(uint64_t, uint64_t)
    case MA_FLOAT32: AT_OPS(float, float)
    case MA_FLOAT64: AT_OPS(double, double)
    default: return -1;
  }
}

/* One call of the generated loop per element: its pointers are
 * (out, in0[, in1]) with n = 1, so the strides are never stepped.  out
 * aliasing in0 is the in-place update every generated loop supports. */
static int64_t generic(ma_array *a, char *base, int contiguous, ma_loop loop, const void *aux, const int64_t *pos,
                       int64_t i, int64_t n, int64_t size, const char *b) {
  int64_t item = ma_type_size[ma_type_of(a->t.dtype)];
  int64_t strides[3] = {0, 0, 0};
  for (; i < n; i++) {
    int64_t k = position(pos, i, size), off = 0;
    if (k < 0) return i;
    if (contiguous) {
      off = k;
    } else { /* unravel the C-order position by a's strides */
      for (int d = a->t.ndim - 1; d >= 0; d--) {
        off += (k % a->t.shape[d]) * a->t.strides[d];
        k /= a->t.shape[d];
      }
    }
    char *p = base + off * item;
    char *ptrs[3] = {p, p, b ? (char *)b + i * item : NULL};
    loop(ptrs, strides, 1, aux);
  }
  return n;
}

int ma_ew_at(int fast, ma_array *a, ma_loop loop, const void *aux, const int64_t *pos, int64_t n, const char *b,
             int64_t *bad) {
  char *base = (char *)a->t.data + a->t.byte_offset;
  int type = ma_type_of(a->t.dtype);
  int64_t size = ma_array_size(a), bytes = size * ma_type_size[type];
  int contiguous = ma_array_is_contiguous(a, 0);
  int fused = fast != MA_AT_GENERIC && b && contiguous && has_typed(fast, type);
#define RUN(from) \
  (fused ? typed(fast, type, base, pos, from, n, size, b) : generic(a, base, contiguous, loop, aux, pos, from, n, size, b))
  /* NumPy's rule: a bad position changes nothing.  Where a copy of a costs
   * well under a second read of the positions (a histogram's few bins,
   * many values: the positions' read is most of the time), the one pass
   * checks each as it applies it and, at a bad one, puts the copy back.
   * The margin (a at most a quarter of the positions' bytes) pays for the
   * copy's write into fresh memory and its read. */
  void *saved = contiguous && 4 * bytes <= n * (int64_t)sizeof(int64_t) ? malloc(bytes ? (size_t)bytes : 1) : NULL;
  if (saved) {
    memcpy(saved, base, (size_t)bytes);
    int64_t i = RUN(0);
    if (i < n) {
      *bad = pos[i];
      memcpy(base, saved, (size_t)bytes);
    }
    free(saved);
    return i < n;
  }
  if (check(pos, n, size, bad)) return 1;
  /* A position that fails now was changed by another thread since the
   * check: it is skipped, never followed outside a. */
  for (int64_t i = RUN(0); i < n; i = RUN(i + 1)) {
  }
  return 0;
#undef RUN
}
