/*
 * Contiguous float32/float64 sums in NumPy's pairwise order, faster.
 *
 * The order (NumPy, numpy/_core/src/umath/loops_utils.h.src, the
 * pairwise_sum functions) for a run of n elements:
 *   n < 8:     a plain left-to-right loop from 0;
 *   n <= 128:  eight accumulators r[j] = a[j], then r[j] += a[i + j] for
 *              each following full group of 8, combined as
 *              ((r0 + r1) + (r2 + r3)) + ((r4 + r5) + (r6 + r7)), then the
 *              n % 8 leftover elements added one by one;
 *   n > 128:   split at n2 = n / 2 rounded down to a multiple of 8; the sum
 *              is sum(first n2) + sum(the rest).
 * float32 accumulates in float, float64 in double.
 *
 * Within a leaf the additions form chains (r[j] after r[j]), 15 adder
 * latencies long for a full leaf; speed has to come from the processor
 * running several leaves at once, out of order.  The plain code, a call
 * and an 8-to-16-trip loop per leaf, runs at about one chain's latency per
 * leaf (measured on a Zen 4).  Here each leaf is straight-line vector
 * code and each call covers up to eight leaves.  A leaf can be written
 * straight because every leaf of a run longer than 128 holds 64 to 128
 * elements (halving m > 128 leaves at least 64 on each side): groups 1-7
 * are always there, and groups 8-15 are read either from the run or,
 * where the leaf has none, from a block of -0.0 (adding -0.0 changes
 * nothing).  Every addition NumPy does happens here, on the same
 * operands, so the result has its bits (NaN payloads aside: which NaN an
 * addition of two NaNs keeps depends on operand order, which compilers may
 * swap in either code).
 *
 * Tried and measured slower on a Zen 4: summing two or more leaves in
 * lockstep, each in its own registers (streams 1 KiB apart that end after
 * 16 cache lines defeat the hardware prefetchers: up to 3x slower from
 * memory); masked loads for the missing groups (several times slower from
 * memory); a float64 leaf in one 512-bit register (one chain of additions
 * per leaf where two 256-bit registers give two: 10-15% slower than the
 * AVX2 kernel, so no AVX-512 variant is used).
 *
 * AVX2 is checked for at run time (no -march flags: the build stays
 * portable); without it, or off x86, the plain code runs.  Only
 * additions: no FMA.
 */
#include "pairwise.h"

#define PW_BLOCK 128 /* the largest leaf */

/* Where the tree over n > PW_BLOCK elements splits. */
static inline int64_t pw_half(int64_t n) {
  int64_t n2 = n / 2;
  return n2 - n2 % 8;
}

/* ---- the order, written plainly (small runs, other CPUs) ------------------ */

#define PW_PLAIN(T, NAME)                                                        \
  static T NAME(const T *a, int64_t n) {                                         \
    if (n < 8) {                                                                 \
      T res = 0;                                                                 \
      for (int64_t i = 0; i < n; i++) res += a[i];                               \
      return res;                                                                \
    }                                                                            \
    if (n <= PW_BLOCK) {                                                         \
      T r[8];                                                                    \
      for (int j = 0; j < 8; j++) r[j] = a[j];                                   \
      int64_t i;                                                                 \
      for (i = 8; i < n - (n % 8); i += 8)                                       \
        for (int j = 0; j < 8; j++) r[j] += a[i + j];                            \
      T res = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7])); \
      for (; i < n; i++) res += a[i];                                            \
      return res;                                                                \
    }                                                                            \
    int64_t n2 = pw_half(n);                                                     \
    return NAME(a, n2) + NAME(a + n2, n - n2);                                   \
  }

PW_PLAIN(double, plain_f64)
PW_PLAIN(float, plain_f32)

/* ---- x86 kernels ----------------------------------------------------------- */

#if defined(__x86_64__) && defined(__GNUC__)
#define PW_X86 1
#include <immintrin.h>
#include <pthread.h>

/* Groups 8..15 of a leaf that has fewer: eight -0.0, the exact identity
 * of addition (-0.0 + x is x for every x, zeros and NaNs included).  A
 * leaf reads group g from the run when it has one and from here otherwise:
 * the choice is an address, made off the chain of additions, and no load
 * reaches past the leaf (loading the next leaf's data and masking it out
 * measured slower, a masked load much slower). */
static const double nz_f64[8] __attribute__((aligned(64))) = {-0.0, -0.0, -0.0, -0.0, -0.0, -0.0, -0.0, -0.0};
static const float nz_f32[8] __attribute__((aligned(32))) = {-0.0f, -0.0f, -0.0f, -0.0f, -0.0f, -0.0f, -0.0f, -0.0f};

/* One level of the tree: a leaf, or the sum of the two halves by NEXT. */
#define PW_LEVEL(T, NAME, TARGET, LEAF, NEXT, ATTR, KW)                \
  __attribute__((target(TARGET) ATTR)) static KW T NAME(const T *a, int64_t n) { \
    if (n <= PW_BLOCK) return LEAF(a, n);                              \
    int64_t n2 = pw_half(n);                                           \
    T x = NEXT(a, n2);                                                 \
    return x + NEXT(a + n2, n - n2);                                   \
  }

/* The tree over a run of more than 128 elements (a shorter one takes the
 * plain code): LEAF(a, n) sums a leaf of 64..128 elements.  Each call
 * covers three levels, up to eight leaves, inlined: with a call per leaf
 * the calls cost 15-30% of the time in cache (10^4-10^5 elements). */
#define PW_TREE(T, NAME, TARGET, LEAF)                                 \
  __attribute__((target(TARGET))) static T NAME(const T *a, int64_t n); \
  PW_LEVEL(T, NAME##_3, TARGET, LEAF, NAME, PW_INLINE, inline)         \
  PW_LEVEL(T, NAME##_2, TARGET, LEAF, NAME##_3, PW_INLINE, inline)     \
  PW_LEVEL(T, NAME, TARGET, LEAF, NAME##_2, , )
#define PW_INLINE , always_inline

/* float64, AVX2: r[0..3] and r[4..7] in two registers. */
__attribute__((target("avx2"), always_inline)) static inline double leaf_f64_avx2(const double *p, int64_t n) {
  int64_t full = n / 8;
  __m256d lo = _mm256_loadu_pd(p), hi = _mm256_loadu_pd(p + 4);
  for (int g = 1; g < 16; g++) {
    const double *q = g < 8 || g < full ? p + 8 * g : nz_f64;
    lo = _mm256_add_pd(lo, _mm256_loadu_pd(q));
    hi = _mm256_add_pd(hi, _mm256_loadu_pd(q + 4));
  }
  /* [r0 + r1, r4 + r5, r2 + r3, r6 + r7], then [(01) + (23), (45) + (67)], then their sum */
  __m256d h = _mm256_hadd_pd(lo, hi);
  __m128d q = _mm_add_pd(_mm256_castpd256_pd128(h), _mm256_extractf128_pd(h, 1));
  double res = _mm_cvtsd_f64(_mm_add_sd(q, _mm_unpackhi_pd(q, q)));
  for (int64_t i = 8 * full; i < n; i++) res += p[i];
  return res;
}

/* float32, AVX2: r[0..7] are the lanes of one register (NumPy's float32
 * accumulators are floats; two 128-bit registers measured slower). */
__attribute__((target("avx2"), always_inline)) static inline float leaf_f32_avx2(const float *p, int64_t n) {
  int64_t full = n / 8;
  __m256 r = _mm256_loadu_ps(p);
  for (int g = 1; g < 16; g++) r = _mm256_add_ps(r, _mm256_loadu_ps(g < 8 || g < full ? p + 8 * g : nz_f32));
  /* lanes 0, 4 of hadd(hadd(r, r), ...): (r0 + r1) + (r2 + r3), (r4 + r5) + (r6 + r7) */
  __m256 h = _mm256_hadd_ps(r, r);
  h = _mm256_hadd_ps(h, h);
  float res = _mm_cvtss_f32(_mm_add_ss(_mm256_castps256_ps128(h), _mm256_extractf128_ps(h, 1)));
  for (int64_t i = 8 * full; i < n; i++) res += p[i];
  return res;
}

PW_TREE(double, tree_f64_avx2, "avx2", leaf_f64_avx2)
PW_TREE(float, tree_f32_avx2, "avx2", leaf_f32_avx2)

static double (*sum_f64)(const double *, int64_t); /* NULL: the plain code */
static float (*sum_f32)(const float *, int64_t);
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void pick(void) {
  __builtin_cpu_init();
  if (!__builtin_cpu_supports("avx2")) return;
  sum_f64 = tree_f64_avx2;
  sum_f32 = tree_f32_avx2;
}
#endif

/* The entry points: runs longer than a leaf take the vector tree when the
 * CPU has one, everything else the plain code. */
#ifdef PW_X86
#define PW_VECTOR(KERNEL)                          \
  if (n > PW_BLOCK) {                              \
    pthread_once(&once, pick);                     \
    if (KERNEL) return KERNEL(a, n);               \
  }
#else
#define PW_VECTOR(KERNEL)
#endif

double ma_pairwise_sum_f64(const double *a, int64_t n) {
  PW_VECTOR(sum_f64)
  return plain_f64(a, n);
}

float ma_pairwise_sum_f32(const float *a, int64_t n) {
  PW_VECTOR(sum_f32)
  return plain_f32(a, n);
}
