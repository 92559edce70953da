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

#include "fpe.h"
#include "minifloat.h"

typedef _Float16 ma_f16; /* IEEE binary16; gcc >= 12 on x86-64 and aarch64 */
typedef uint16_t ma_bf16; /* bfloat16 is stored as its bit pattern */
typedef float _Complex ma_c64;
typedef double _Complex ma_c128;
typedef struct {
  ma_f16 re, im;
} ma_c32; /* PyTorch's complex32: two binary16 halves, real first */

/* float and double -> float16 with the flags of IEEE 754's rounding.
 * Without F16C, gcc rounds to _Float16 in libgcc, which records overflow
 * and underflow in the x87 status word, not in the SSE flags fpe.h reads,
 * so the conversion checks its operand and raises them itself.  Overflow:
 * a finite value at or beyond 65520, half-way from 65504 (the largest
 * half) to 65536, rounds to infinity.  Underflow: a non-zero value below
 * 2^-14 (the smallest normal half) that the subnormals cannot hold exactly,
 * the rule of NumPy's float -> half conversion.  The common case costs
 * one range test, with the quiet comparisons: `<` on a NaN would raise the
 * invalid flag itself. */
__attribute__((noinline, cold)) static void ma_f16_flags(double a, double rounded) {
  if (isnan(a) || a == 0.0) return;
  if (a >= 65520.0) {
    if (a != INFINITY) ma_fpe_raise(MA_FPE_OVERFLOW);
  } else if (rounded != a) {
    ma_fpe_raise(MA_FPE_UNDERFLOW);
  }
}
static inline ma_f16 ma_f16_from_float(float x) {
  ma_f16 h = (ma_f16)x;
  float a = fabsf(x);
  if (__builtin_expect(!(isless(a, 65520.0f) && isgreaterequal(a, 0x1p-14f)), 0)) ma_f16_flags(a, fabs((double)h));
  return h;
}
static inline ma_f16 ma_f16_from_double(double x) {
  ma_f16 h = (ma_f16)x;
  double a = fabs(x);
  if (__builtin_expect(!(isless(a, 65520.0) && isgreaterequal(a, 0x1p-14)), 0)) ma_f16_flags(a, fabs((double)h));
  return h;
}

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
  ma_c32 r = {ma_f16_from_float(crealf(c)), ma_f16_from_float(cimagf(c))};
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

/* float -> integer, with the values and the invalid flag of x86-64's
 * truncating conversions (cvttsd2si), which are NumPy's there; C leaves
 * NaN and out-of-range conversions undefined.  The rule:
 *
 *   int64, and uint32 through it: in range of int64, truncation toward
 *     zero; otherwise (NaN, +-inf, beyond 2^63) INT64_MIN, "invalid";
 *   int32, and int16, int8, uint16, uint8 through it: the same with
 *     int32's range and INT32_MIN;
 *   uint64: below 2^63 (and NaN) as int64; from 2^63 on, x - 2^63 as int64
 *     with the top bit flipped, so 2^64 and +inf give 0 (invalid),
 *     -1e20 gives 2^63 (invalid) and -1.0 gives 2^64 - 1 (no flag);
 *
 * a narrower type then keeps the low bits (300.0 -> int8 44, 1e20 -> int8
 * 0).  NumPy's contiguous float -> uint32 loop is vectorised with another
 * sequence for its full vectors (2^31 for NaN and negatives beyond int32),
 * so its results there depend on the element's position; these follow its
 * scalar and strided loops.  `bad` collects the invalid cases so that a
 * loop raises the flag once, after it, and stays vectorisable. */
static inline int64_t ma_f2i64(double x, unsigned *bad) {
  int ok = x >= -0x1p63 && x < 0x1p63;
  *bad |= (unsigned)!ok;
  return ok ? (int64_t)x : INT64_MIN;
}
static inline int32_t ma_f2i32(double x, unsigned *bad) {
  int ok = x > -2147483649.0 && x < 2147483648.0;
  *bad |= (unsigned)!ok;
  return ok ? (int32_t)x : INT32_MIN;
}
static inline uint64_t ma_f2u64(double x, unsigned *bad) {
  if (!(x >= 0x1p63)) return (uint64_t)ma_f2i64(x, bad);
  return (uint64_t)ma_f2i64(x - 0x1p63, bad) ^ ((uint64_t)1 << 63);
}

#endif
