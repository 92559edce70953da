/*
 * Scalar helpers for the generated elementwise loops (csrc/core/gen/gen_elementwise.py):
 * the operations whose IEEE / integer semantics need more than one C
 * expression.  Where NumPy 2 and the Array API standard (2024.12) agree, the
 * code follows both; where the standard leaves a case open it follows NumPy
 * (whose npymath these ports mirror), so NumPy can serve as the test oracle.
 *
 * Every helper exists for float and double; the float16 and bfloat16 loops
 * compute in float and round once when storing.
 */
#ifndef MINARRAY_EW_MATH_H
#define MINARRAY_EW_MATH_H

#include "elementwise.h"
#include "fpe.h"
#include "scalar.h"

/* ---- integers ------------------------------------------------------------ */

/* Report a domain error through a loop's `aux` (ma_ew_aux.err, which the
 * caller reads after the iteration; atomic because chunks may run on
 * several threads).  Returns 0 so it can sit inside an expression. */
static inline int ma_set_error(const void *aux) {
  __atomic_store_n(&((ma_ew_aux *)aux)->err, 1, __ATOMIC_RELAXED);
  return 0;
}

/* Integer x // 0 and x % 0 give 0 and raise the divide-by-zero flag, as
 * NumPy's integer loops do (errstate's "divide", fpe.h). */
static inline int ma_int_divide_by_zero(void) {
  ma_fpe_raise(MA_FPE_DIVIDE);
  return 0;
}

/* MIN // -1 wraps to MIN and raises the overflow flag, as NumPy's signed
 * floor_divide does ("overflow encountered in floor_divide"). */
static inline int ma_int_overflow(void) {
  ma_fpe_raise(MA_FPE_OVERFLOW);
  return 0;
}

/* Wrapping integer power by squaring (the result is reduced modulo 2^64 and
 * then to the loop type, which is the wrap-around of the narrower type). */
static inline uint64_t ma_upow(uint64_t base, uint64_t e) {
  uint64_t r = 1;
  while (e) {
    if (e & 1) r *= base;
    base *= base;
    e >>= 1;
  }
  return r;
}

/* ---- real floating point --------------------------------------------------- */

static inline int ma_signbitf(float x) {
  uint32_t u;
  memcpy(&u, &x, 4);
  return (int)(u >> 31);
}
static inline int ma_signbit(double x) {
  uint64_t u;
  memcpy(&u, &x, 8);
  return (int)(u >> 63);
}

/* floor division and remainder of NumPy's npy_divmod: the remainder takes the
 * sign of the divisor (Python semantics), the quotient is floor(x / y) made
 * consistent with that remainder, and x/0 gives x/0 (inf or nan).
 * Infinities follow the Array API's floor_divide special cases, where
 * NumPy's divmod gives NaN or -1: an infinite dividend over a finite
 * non-zero divisor is that infinity with the quotient's sign, and a finite
 * dividend over an infinite divisor is a zero with the quotient's sign.
 * The sign tests are the quiet comparisons, as NumPy's: `<` on a NaN
 * would raise the invalid flag, and NaN // 1 warns of nothing. */
#define MA_DIVMOD(T, S)                                                        \
  static inline T ma_floordiv##S(T a, T b) {                                   \
    if (!b) return a / b;                                                      \
    if (isinf(a) && isfinite(b)) return a / b;                                 \
    if (isinf(b) && isfinite(a)) return copysign##S((T)0, a) * copysign##S((T)1, b); \
    T mod = fmod##S(a, b);                                                     \
    T div = (a - mod) / b;                                                     \
    if (mod) {                                                                 \
      if (isless(b, (T)0) != isless(mod, (T)0)) div -= (T)1;                   \
    }                                                                          \
    T fdiv;                                                                    \
    if (div) {                                                                 \
      fdiv = floor##S(div);                                                    \
      if (isgreater(div - fdiv, (T)0.5)) fdiv += (T)1;                         \
    } else {                                                                   \
      fdiv = copysign##S((T)0, a / b);                                         \
    }                                                                          \
    return fdiv;                                                               \
  }                                                                            \
  static inline T ma_remainder##S(T a, T b) {                                  \
    T mod = fmod##S(a, b);                                                     \
    if (!b) return mod;                                                        \
    if (mod) {                                                                 \
      if (isless(b, (T)0) != isless(mod, (T)0)) mod += b;                      \
    } else {                                                                   \
      mod = copysign##S((T)0, b);                                              \
    }                                                                          \
    return mod;                                                                \
  }                                                                            \
  /* log(exp(a) + exp(b)) without overflow (NumPy's npy_logaddexp). */         \
  static inline T ma_logaddexp##S(T a, T b) {                                  \
    if (a == b) return a + (T)0.693147180559945309417232121458176568;          \
    T d = a - b;                                                               \
    if (d > 0) return a + log1p##S(exp##S(-d));                                \
    if (d <= 0) return b + log1p##S(exp##S(d));                                \
    return d; /* nan */                                                        \
  }                                                                            \
  static inline T ma_sign##S(T a) {                                            \
    return a > 0 ? (T)1 : (a < 0 ? (T)-1 : (a == 0 ? (T)0 : a));               \
  }
MA_DIVMOD(float, f)
MA_DIVMOD(double, )

/* nextafter for the 16-bit formats, on their bit patterns (sign-magnitude). */
static inline uint16_t ma_next16(uint16_t bx, uint16_t by, int xnan, int ynan,
                                 float x, float y) {
  if (xnan) return bx;
  if (ynan) return by;
  if (x == y) return by;
  if ((bx & 0x7fffu) == 0) return (uint16_t)((by & 0x8000u) | 1u);
  if ((x < y) == !(bx & 0x8000u)) return (uint16_t)(bx + 1u);
  return (uint16_t)(bx - 1u);
}
static inline float ma_nextafter_f16(float x, float y) {
  ma_f16 hx = (ma_f16)x, hy = (ma_f16)y, r;
  uint16_t bx, by, br;
  memcpy(&bx, &hx, 2);
  memcpy(&by, &hy, 2);
  br = ma_next16(bx, by, x != x, y != y, x, y);
  memcpy(&r, &br, 2);
  return (float)r;
}
static inline float ma_nextafter_bf16(float x, float y) {
  return ma_bf16_load(ma_next16(ma_bf16_store(x), ma_bf16_store(y), x != x, y != y, x, y));
}

/* NumPy's spacing: x's distance to the next value away from zero, negative
 * for negative x, NaN for the infinities (quietly, isless being the quiet
 * comparison).  +-0 give the smallest subnormal, with no flag (NumPy's
 * loops special-case zero; from a subnormal nextafter raises underflow, as
 * NumPy's does).  float16 follows NumPy's float16 loop, which differs from
 * its float32/float64 ones: a negative x steps toward zero (the result is
 * positive), the largest value overflows and the infinities and NaN raise
 * invalid. */
static inline double ma_spacing(double x) {
  if (isinf(x)) return NAN;
  if (x == 0) return 0x1p-1074;
  return nextafter(x, isless(x, 0.0) ? -INFINITY : INFINITY) - x;
}
static inline float ma_spacingf(float x) {
  if (isinf(x)) return NAN;
  if (x == 0) return 0x1p-149f;
  return nextafterf(x, isless(x, 0.0f) ? -INFINITY : INFINITY) - x;
}
static inline float ma_spacing_f16(float x) {
  if (x != x || isinf(x)) {
    ma_fpe_raise(MA_FPE_INVALID);
    return NAN;
  }
  float r = ma_nextafter_f16(x, isless(x, 0.0f) ? 0.0f : INFINITY) - x;
  if (isinf(r)) ma_fpe_raise(MA_FPE_OVERFLOW);
  return r;
}
static inline float ma_spacing_bf16(float x) {
  if (isinf(x)) return NAN;
  if (x == 0) return ma_bf16_load(1);
  return ma_nextafter_bf16(x, isless(x, 0.0f) ? -INFINITY : INFINITY) - x;
}

/* ---- complex --------------------------------------------------------------- */

/* Complex helpers, for ma_c64 (suffix f) and ma_c128 (no suffix).  Products
 * use the schoolbook formula and quotients Smith's algorithm, as NumPy does,
 * so results (including inf/nan cases) match it. */
#define MA_COMPLEX(C, T, S, RE, IM, MK)                                                    \
  static inline C ma_cmul##S(C a, C b) {                                       \
    T ar = RE(a), ai = IM(a), br = RE(b),          \
      bi = IM(b);                                                     \
    return MK(ar * br - ai * bi, ar * bi + ai * br);                  \
  }                                                                            \
  static inline C ma_cdiv##S(C a, C b) {                                       \
    T ar = RE(a), ai = IM(a), br = RE(b),          \
      bi = IM(b);                                                     \
    T abr = fabs##S(br), abi = fabs##S(bi);                                    \
    if (abr >= abi) {                                                          \
      if (abr == 0 && abi == 0) return MK(ar / abr, ai / abr);        \
      T rat = bi / br, scl = (T)1 / (br + bi * rat);                           \
      return MK((ar + ai * rat) * scl, (ai - ar * rat) * scl);        \
    }                                                                          \
    T rat = br / bi, scl = (T)1 / (bi + br * rat);                             \
    return MK((ar * rat + ai) * scl, (ai * rat - ar) * scl);          \
  }                                                                            \
  static inline C ma_crecip##S(C a) {                                          \
    T r = RE(a), i = IM(a);                                 \
    if (fabs##S(i) <= fabs##S(r)) {                                            \
      T q = i / r, d = r + i * q;                                              \
      return MK((T)1 / d, -q / d);                                    \
    }                                                                          \
    T q = r / i, d = r * q + i;                                                \
    return MK(q / d, (T)-1 / d);                                      \
  }                                                                            \
  /* NumPy's nc_pow: exact repeated products for integer exponents below   \
   * 100 in magnitude, cpow otherwise. */                                     \
  static inline C ma_cpow##S(C a, C b) {                                       \
    T ar = RE(a), ai = IM(a), br = RE(b),          \
      bi = IM(b);                                                     \
    if (br == 0 && bi == 0) return MK(1, 0);                          \
    if (ar == 0 && ai == 0) {                                                  \
      /* 0 ** z is 0 for Re(z) > 0; otherwise ill-defined (four complex    \
       * zeros): NaN, and the invalid flag, as NumPy's */                    \
      if (br > 0) return MK(0, 0);                                             \
      ma_fpe_raise(MA_FPE_INVALID);                                            \
      return MK(NAN, NAN);                                            \
    }                                                                          \
    if (bi == 0 && br > -100 && br < 100 && (T)(int)br == br) {                \
      int n = (int)br;                                                         \
      if (n == 1) return a;                                                    \
      if (n == 2) return ma_cmul##S(a, a);                                     \
      if (n == 3) return ma_cmul##S(ma_cmul##S(a, a), a);                      \
      int m = n < 0 ? -n : n, mask = 1;                                        \
      C acc = MK(1, 0), p = a;                                        \
      for (;;) {                                                               \
        if (m & mask) acc = ma_cmul##S(acc, p);                                \
        mask <<= 1;                                                            \
        if (m < mask) break;                                                   \
        p = ma_cmul##S(p, p);                                                  \
      }                                                                        \
      if (n < 0) acc = ma_cdiv##S(MK(1, 0), acc);                     \
      return acc;                                                              \
    }                                                                          \
    return cpow##S(a, b);                                                      \
  }                                                                            \
  /* Array API sign for complex: z/|z|, 0 for 0, nan for nan. */               \
  static inline C ma_csign##S(C a) {                                           \
    T r = RE(a), i = IM(a), m = hypot##S(r, i);             \
    if (m != m) return MK(NAN, NAN);                                  \
    if (m == (T)INFINITY) {                                                    \
      if (isinf(r)) {                                                          \
        if (isinf(i)) return MK(NAN, NAN);                            \
        return MK(r > 0 ? 1 : -1, 0);                                 \
      }                                                                        \
      return MK(0, i > 0 ? 1 : -1);                                   \
    }                                                                          \
    if (m == 0) return MK(0, 0);                                      \
    return MK(r / m, i / m);                                          \
  }                                                                            \
  /* exp(z) - 1; on the real axis the imaginary part is y itself (+-0),    \
   * not exp(x) * 0, which is NaN once exp(x) overflows (C99 G.6.3.1's     \
   * cexp(x + i0) = exp(x) + i0; NumPy gives NaN there).  Infinities and    \
   * NaNs follow the Array API's expm1 special cases (C99 cexp's, minus 1). */ \
  static inline C ma_cexpm1##S(C a) {                                          \
    T x = RE(a), y = IM(a), h = sin##S(y / 2);                                 \
    if (isinf(x)) {                                                            \
      if (x < 0) /* -1 + 0 cis(y); any y: the zero's sign is unspecified */  \
        return MK(-1, isfinite(y) ? (T)0 * sin##S(y) : (T)0);                  \
      if (y == 0) return MK(x, y);                                             \
      if (!isfinite(y)) return MK(x, NAN);                                     \
      return MK(x * cos##S(y), x * sin##S(y));                                 \
    }                                                                          \
    if (x != x) return MK(x, y == 0 ? y : NAN);                                \
    if (!isfinite(y)) return MK(NAN, NAN);                                     \
    if (x == 0 && y == 0) return MK(0, y);                                     \
    return MK(expm1##S(x) * cos##S(y) - 2 * h * h, y == 0 ? y : exp##S(x) * sin##S(y)); \
  }                                                                            \
  /* tanh(z): C99's ctanh, except that an infinite real part with a finite  \
   * imaginary one gives +-1 + 0j with the zero's sign that of y (the Array \
   * API's special case; C99 takes the sign of sin(2y)). */                   \
  static inline C ma_ctanh##S(C a) {                                           \
    T x = RE(a), y = IM(a);                                                    \
    if (isinf(x) && isfinite(y)) return MK(copysign##S((T)1, x), copysign##S((T)0, y)); \
    return ctanh##S(a);                                                        \
  }                                                                            \
  /* log(1 + z); for small |z| the real part is log1p(2x + x^2 + y^2) / 2,  \
   * which keeps the digits that forming 1 + x would lose. */                  \
  static inline C ma_clog1p##S(C a) {                                          \
    T x = RE(a), y = IM(a);                                                    \
    T re = (fabs##S(x) < (T)0.5 && fabs##S(y) < (T)0.5)                        \
               ? (T)0.5 * log1p##S(x * (2 + x) + y * y)                         \
               : log##S(hypot##S(x + 1, y));                                   \
    return MK(re, atan2##S(y, x + 1));                                         \
  }                                                                            \
  static inline C ma_cround##S(C a) {                                          \
    return MK(nearbyint##S(RE(a)),                          \
                       nearbyint##S(IM(a)));                          \
  }                                                                            \
  static inline C ma_cscale##S(C a, T k) {                                     \
    return MK(RE(a) * k, IM(a) * k);               \
  }                                                                            \
  /* Lexicographic order with NaN-awareness (NumPy's CGT/CGE/...). */         \
  static inline int ma_clt##S(C a, C b) {                                      \
    T ar = RE(a), ai = IM(a), br = RE(b),          \
      bi = IM(b);                                                     \
    return (ar < br && ai == ai && bi == bi) || (ar == br && ai < bi);         \
  }                                                                            \
  static inline int ma_cle##S(C a, C b) {                                      \
    T ar = RE(a), ai = IM(a), br = RE(b),          \
      bi = IM(b);                                                     \
    return (ar < br && ai == ai && bi == bi) || (ar == br && ai <= bi);        \
  }                                                                            \
  static inline int ma_cisnan##S(C a) {                                        \
    return isnan(RE(a)) || isnan(IM(a));                    \
  }                                                                            \
  /* maximum/minimum: NaN-propagating, lexicographic (NumPy). */               \
  static inline C ma_cmax##S(C a, C b) {                                       \
    return (ma_clt##S(b, a) || ma_cisnan##S(a)) ? a : b;                       \
  }                                                                            \
  static inline C ma_cmin##S(C a, C b) {                                       \
    return (ma_clt##S(a, b) || ma_cisnan##S(a)) ? a : b;                       \
  }

/* float _Complex and double _Complex instances. */
MA_COMPLEX(ma_c64, float, f, crealf, cimagf, CMPLXF)
MA_COMPLEX(ma_c128, double, , creal, cimag, CMPLX)

#endif
