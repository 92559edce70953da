/*
 * Scalar helpers shared by the generated loops: the storage types of the
 * 16-bit floats, complex32 and the sub-byte integers, and conversions that
 * C leaves undefined.  (The 8-, 6- and 4-bit floats are in minifloat.h.)
 */
#ifndef MINARRAY_SCALAR_H
#define MINARRAY_SCALAR_H

#include <complex.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "minifloat.h"

typedef _Float16 ma_f16; /* IEEE binary16; gcc >= 12 on x86-64 and aarch64 */
typedef uint16_t ma_bf16; /* bfloat16 is stored as its bit pattern */
typedef float _Complex ma_c64;
typedef double _Complex ma_c128;
typedef struct {
  ma_f16 re, im;
} ma_c32; /* PyTorch's complex32: two binary16 halves, real first */

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

/* CMPLXF, not re + im * I: infinity times I would make the real part NaN */
static inline ma_c64 ma_c32_load(ma_c32 c) { return CMPLXF((float)c.re, (float)c.im); }
/* Each half rounded from float (so a complex128 source rounds twice, once
 * to complex64 and once here, as ml_dtypes' complex32 does). */
static inline ma_c32 ma_c32_store(ma_c64 c) {
  ma_c32 r = {(ma_f16)crealf(c), (ma_f16)cimagf(c)};
  return r;
}

/* The sub-byte integers keep their value in the low `bits` of a byte; the
 * bits above are ignored on loading (a signed value is sign-extended from
 * its own top bit) and written as zeros, as ml_dtypes does. */
static inline int8_t ma_sub_int_load(uint8_t b, int bits) {
  return (int8_t)((int8_t)(uint8_t)(b << (8 - bits)) >> (8 - bits));
}
static inline uint8_t ma_sub_uint_load(uint8_t b, int bits) { return (uint8_t)(b & ((1u << bits) - 1)); }
static inline uint8_t ma_sub_store(int64_t v, int bits) { return (uint8_t)((uint64_t)v & ((1u << bits) - 1)); }

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
