/*
 * Contiguous float32/float64 min and max (see extrema.h).
 *
 * The step is r = x > r ? x : r (max; < for min).  x86's MAXPD/MINPD
 * compute exactly that (Intel SDM, MAXPD: "IF (SRC1 > SRC2) THEN SRC1
 * ELSE SRC2", so the second operand wins for NaNs and for equal zeros):
 * one instruction where GCC's vector compare-and-select takes a compare
 * and a blend, which measured 6-10% slower on a Zen 4 (a 10^6-element run
 * and rows of 1000).  NaNs drop out of MAXPD's result, so a separate
 * unordered compare remembers them, as NumPy's rule asks.  Four
 * accumulators keep four independent chains in flight, and are folded
 * with vector steps before their lanes: the loop this replaced folded all
 * 4 x lanes of them one scalar step at a time, as long as the vector work
 * of a row of 1000 floats (max(axis=1) of (1000, 1000) float32 went from
 * 1.00x to 0.80x PyTorch's time, one thread).
 *
 * AVX2 is checked for at run time (no -march flags: the build stays
 * portable); without it, or off x86, the plain loop runs.
 */
#include "extrema.h"

#include <math.h>

/* ---- the step, written plainly (other CPUs, and every kernel's tail) ------- */

#define EXTREME_PLAIN(T, NAME, CMP)                   \
  static T NAME(const T *a, int64_t n, T r) {         \
    int nan = r != r;                                 \
    for (int64_t i = 0; i < n; i++) {                 \
      T x = a[i];                                     \
      r = x CMP r ? x : r;                            \
      nan |= x != x;                                  \
    }                                                 \
    return nan ? (T)NAN : r;                          \
  }

EXTREME_PLAIN(double, max_f64_plain, >)
EXTREME_PLAIN(double, min_f64_plain, <)
EXTREME_PLAIN(float, max_f32_plain, >)
EXTREME_PLAIN(float, min_f32_plain, <)

#if defined(__x86_64__) && defined(__GNUC__)
#define EXTREMA_X86 1
#include <immintrin.h>

/* V: the 256-bit vector type; L: its lanes; P: the intrinsics' suffix
 * (pd or ps); STEP: _mm256_max_P or _mm256_min_P; PLAIN: the tail. */
#define EXTREME_AVX2(T, NAME, V, L, P, STEP, PLAIN)                                            \
  __attribute__((target("avx2"))) static T NAME(const T *a, int64_t n, T init) {                \
    V r0 = _mm256_set1_##P(init), r1 = r0, r2 = r0, r3 = r0, nan = _mm256_setzero_##P();       \
    int64_t i = 0;                                                                             \
    for (; i + 4 * L <= n; i += 4 * L) {                                                       \
      V x0 = _mm256_loadu_##P(a + i), x1 = _mm256_loadu_##P(a + i + L);                        \
      V x2 = _mm256_loadu_##P(a + i + 2 * L), x3 = _mm256_loadu_##P(a + i + 3 * L);            \
      r0 = STEP(x0, r0);                                                                       \
      r1 = STEP(x1, r1);                                                                       \
      r2 = STEP(x2, r2);                                                                       \
      r3 = STEP(x3, r3);                                                                       \
      nan = _mm256_or_##P(nan, _mm256_or_##P(_mm256_cmp_##P(x0, x1, _CMP_UNORD_Q),             \
                                            _mm256_cmp_##P(x2, x3, _CMP_UNORD_Q)));           \
    }                                                                                          \
    if (_mm256_movemask_##P(nan)) return (T)NAN;                                               \
    /* The fold visits lane j of r0, r1, r2, r3, then lane j + 1..., the                      \
     * order of the generic loop this replaced.  The step keeps the earlier                   \
     * of two equal values (it decides which of two equal zeros is kept),                     \
     * which makes it associative: folding r0 with r1 and r2 with r3 lane                     \
     * by lane, then the two, then the lanes in order, gives the same bits                    \
     * as the element-by-element fold. */                                                      \
    V m = STEP(STEP(r3, r2), STEP(r1, r0));                                                    \
    T lanes[L];                                                                                \
    _mm256_storeu_##P(lanes, m);                                                               \
    T r = PLAIN(lanes, L, init);                                                               \
    return PLAIN(a + i, n - i, r);                                                             \
  }

EXTREME_AVX2(double, max_f64_avx2, __m256d, 4, pd, _mm256_max_pd, max_f64_plain)
EXTREME_AVX2(double, min_f64_avx2, __m256d, 4, pd, _mm256_min_pd, min_f64_plain)
EXTREME_AVX2(float, max_f32_avx2, __m256, 8, ps, _mm256_max_ps, max_f32_plain)
EXTREME_AVX2(float, min_f32_avx2, __m256, 8, ps, _mm256_min_ps, min_f32_plain)
#endif

/* The entry points: the AVX2 kernel when the CPU has it (a flag libgcc
 * set when the library was loaded), else the plain loop. */
#ifdef EXTREMA_X86
#define EXTREME_ENTRY(T, NAME, STEM)                                    \
  T NAME(const T *a, int64_t n, T init) {                              \
    if (__builtin_cpu_supports("avx2")) return STEM##_avx2(a, n, init); \
    return STEM##_plain(a, n, init);                                   \
  }
#else
#define EXTREME_ENTRY(T, NAME, STEM) \
  T NAME(const T *a, int64_t n, T init) { return STEM##_plain(a, n, init); }
#endif

EXTREME_ENTRY(double, ma_max_f64, max_f64)
EXTREME_ENTRY(double, ma_min_f64, min_f64)
EXTREME_ENTRY(float, ma_max_f32, max_f32)
EXTREME_ENTRY(float, ma_min_f32, min_f32)
