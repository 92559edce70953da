/*
 * Scalar helpers shared by the generated loops: the storage types of the
 * 16-bit floats and conversions that C leaves undefined.
 */
#ifndef MINARRAY_SCALAR_H
#define MINARRAY_SCALAR_H

#include <complex.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

typedef _Float16 ma_f16; /* IEEE binary16; gcc >= 12 on x86-64 and aarch64 */
typedef uint16_t ma_bf16; /* bfloat16 is stored as its bit pattern */
typedef float _Complex ma_c64;
typedef double _Complex ma_c128;

static inline float ma_bf16_load(ma_bf16 h) {
  uint32_t u = (uint32_t)h << 16;
  float f;
  memcpy(&f, &u, 4);
  return f;
}

/* float -> bfloat16, rounding to nearest even; NaN stays a (quiet) NaN. */
static inline ma_bf16 ma_bf16_store(float f) {
  uint32_t u;
  memcpy(&u, &f, 4);
  if ((u & 0x7fffffffu) > 0x7f800000u) return (ma_bf16)((u >> 16) | 0x40);
  u += 0x7fffu + ((u >> 16) & 1u);
  return (ma_bf16)(u >> 16);
}

/* float -> integer without undefined behaviour.  In range: truncation toward
 * zero, as C.  NaN and out of range: INT64_MIN, which is what x86's cvtt*
 * instructions (and so NumPy) produce; narrower targets then wrap. */
static inline int64_t ma_f2i64(double x) {
  if (x >= -9223372036854775808.0 && x < 9223372036854775808.0) return (int64_t)x;
  return INT64_MIN;
}
static inline uint64_t ma_f2u64(double x) {
  if (x >= 0.0 && x < 18446744073709551616.0) return (uint64_t)x;
  if (x >= -9223372036854775808.0 && x < 0.0) return (uint64_t)(int64_t)x;
  return (uint64_t)1 << 63;
}

#endif
