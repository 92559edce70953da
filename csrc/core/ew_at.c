/* ufunc.at's kernel: see ew_at.h. */
#include "ew_at.h"

int ma_ew_at_check(const int64_t *pos, int64_t n, int64_t size, int64_t *bad) {
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
  return 0; /* (another thread changed the positions meanwhile: the kernel checks each again) */
}

/* pos[i] as a position in [0, size), or -1 outside (see ma_ew_at). */
static inline int64_t position(const int64_t *pos, int64_t i, int64_t size) {
  int64_t k = pos[i];
  if (k < 0) k += size;
  return (uint64_t)k < (uint64_t)size ? k : -1;
}

/* Integers wrap around, as the elementwise loops do: signed ones compute
 * in their unsigned type (signed overflow is undefined in C). */
#define AT_LOOP(T, U, EXPR)                                                    \
  do {                                                                         \
    T *d = (T *)base;                                                          \
    const T *v = (const T *)b;                                                 \
    for (int64_t i = 0; i < n; i++) {                                          \
      int64_t k = position(pos, i, size);                                      \
      if (k < 0) continue;                                                     \
      U x = (U)d[k], y = (U)v[i];                                              \
      d[k] = (T)(EXPR);                                                        \
    }                                                                          \
  } while (0)

#define AT_OPS(T, U)                                                           \
  switch (fast) {                                                              \
    case MA_AT_ADD: AT_LOOP(T, U, x + y); return 1;                            \
    case MA_AT_SUBTRACT: AT_LOOP(T, U, x - y); return 1;                       \
    case MA_AT_MULTIPLY: AT_LOOP(T, U, x * y); return 1;                       \
    default: return 0;                                                         \
  }

/* 1 when a typed loop did the work, 0 when the type or op has none. */
static int typed(int fast, int type, char *base, const int64_t *pos, int64_t n, int64_t size, const char *b) {
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
    default: return 0;
  }
}

void ma_ew_at(int fast, ma_array *a, ma_loop loop, const void *aux, const int64_t *pos, int64_t n, const char *b) {
  char *base = (char *)a->t.data + a->t.byte_offset;
  int64_t size = ma_array_size(a), item = ma_type_size[ma_type_of(a->t.dtype)];
  int contiguous = ma_array_is_contiguous(a, 0);
  if (fast != MA_AT_GENERIC && b && contiguous && typed(fast, ma_type_of(a->t.dtype), base, pos, n, size, b))
    return;
  /* One call of the generated loop per element: its pointers are
   * (out, in0[, in1]) with n = 1, so the strides are never stepped.  out
   * aliasing in0 is the in-place update every generated loop supports. */
  int64_t strides[3] = {0, 0, 0};
  for (int64_t i = 0; i < n; i++) {
    int64_t k = position(pos, i, size), off = 0;
    if (k < 0) continue;
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
}
