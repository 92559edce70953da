/*
 * Vectorised transcendental functions for contiguous float32/float64 loops.
 *
 * glibc ships SIMD versions of libm (libmvec: _ZGVdN4v_exp is exp on four
 * doubles with AVX2, following the x86-64 vector function ABI; glibc
 * documents their error as at most 4 ULP).  They are looked up with dlopen at
 * first use instead of linked, so the extension still loads where libmvec
 * or AVX2 is missing (musl, macOS, old CPUs): the loops then fall back to
 * scalar libm.  The CPU check is done at run time; nothing here needs
 * -march flags.
 *
 * On CPUs with AVX-512 the 512-bit variants (_ZGVeN8v_exp) are used: on a
 * Zen 4 they are 1.2-2.5x faster per element than the AVX2 ones for 16 of
 * the 18 functions in double precision and all 18 in single (expm1 and
 * sinh in double are slower there and keep AVX2).  Whichever variant a
 * process picks, it picks it for every element, contiguous or strided.
 */
#include "elementwise.h"

#if defined(__x86_64__) && defined(__linux__) && defined(__GNUC__) && !defined(MA_NO_LIBMVEC)
#include <dlfcn.h>
#include <immintrin.h>
#include <pthread.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef __m256d (*vec_f64)(__m256d);
typedef __m256 (*vec_f32)(__m256);
typedef __m512d (*vec_f64x8)(__m512d);
typedef __m512 (*vec_f32x16)(__m512);

static vec_f64 f64[MA_VM_COUNT];
static vec_f32 f32[MA_VM_COUNT];
static vec_f64x8 f64x8[MA_VM_COUNT]; /* NULL: use the AVX2 one */
static vec_f32x16 f32x16[MA_VM_COUNT];
typedef __m256d (*vec2_f64)(__m256d, __m256d);
typedef __m256 (*vec2_f32)(__m256, __m256);
typedef __m512d (*vec2_f64x8)(__m512d, __m512d);
typedef __m512 (*vec2_f32x16)(__m512, __m512);
static vec2_f64 f64_2[MA_VM2_COUNT];
static vec2_f32 f32_2[MA_VM2_COUNT];
static vec2_f64x8 f64x8_2[MA_VM2_COUNT];
static vec2_f32x16 f32x16_2[MA_VM2_COUNT];
static pthread_once_t once = PTHREAD_ONCE_INIT;
static int exp512; /* exp of float64 takes exp_f64x8 (below) */

/* ---- exp of float64, AVX-512 ------------------------------------------------
 *
 * libmvec's 512-bit exp took 0.55-0.59 ns per double in cache where PyTorch's
 * (SLEEF) took 0.46-0.47 on an Intel Xeon (Sapphire Rapids class): exp is the
 * one function whose speed decided a benchmark against PyTorch, so it has
 * a kernel of its own.  exp(x) = 2^(j/16) * exp(r) with j = round(16 x /
 * ln 2) and |r| <= ln 2 / 32: 2^(j/16) comes from a 16-entry table held in
 * two registers (a permute, no gather), as a double and the rounding error
 * of that double, exp(r) - 1 as r + r^2 q(r) with q a Chebyshev fit of
 * degree 4 to (exp(r) - 1 - r) / r^2 on |r| <= 1.02 ln 2 / 32 (its error
 * below 2^-54 relative to exp(r); Taylor's terms needed one more FMA),
 * and the power of two 2^floor(j/16) is applied by vscalefpd, which also
 * rounds overflowing, subnormal and vanishing results correctly in one
 * step.  Measured against exp in long double: at most 0.73 ulp for normal
 * results, 0.84 for subnormal ones (NumPy's own loop: 0.70); libmvec
 * promises 4.  Inputs are clamped to [-746, 710] first, which
 * changes no result (exp is 0 below and inf above once rounded) and keeps
 * j small; the clamp keeps NaNs (vminpd returns its second operand when
 * one is NaN).  Flags: the clamp raises invalid for a NaN and overflow or
 * underflow for infinities, which exp itself does not; the exact mode below
 * recomputes the flags whenever a vector call raised one, as for libmvec. */
static const double exp_tab_hi[16] __attribute__((aligned(64))) = {
    0x1.0000000000000p+0, 0x1.0b5586cf9890fp+0, 0x1.172b83c7d517bp+0, 0x1.2387a6e756238p+0,
    0x1.306fe0a31b715p+0, 0x1.3dea64c123422p+0, 0x1.4bfdad5362a27p+0, 0x1.5ab07dd485429p+0,
    0x1.6a09e667f3bcdp+0, 0x1.7a11473eb0187p+0, 0x1.8ace5422aa0dbp+0, 0x1.9c49182a3f090p+0,
    0x1.ae89f995ad3adp+0, 0x1.c199bdd85529cp+0, 0x1.d5818dcfba487p+0, 0x1.ea4afa2a490dap+0};
/* 2^(j/16) - exp_tab_hi[j], rounded */
static const double exp_tab_lo[16] __attribute__((aligned(64))) = {
    0x0.0p+0,                0x1.8a62e4adc610bp-54,  -0x1.19041b9d78a76p-55, 0x1.9b07eb6c70573p-54,
    0x1.6f46ad23182e4p-55,   0x1.ada0911f09ebcp-55,  0x1.d4397afec42e2p-56,  0x1.6324c054647adp-54,
    -0x1.bdd3413b26456p-54,  -0x1.41577ee04992fp-55, 0x1.6e9f156864b27p-54,  0x1.c7c46b071f2bep-56,
    0x1.7a1cd345dcc81p-54,   0x1.11065895048ddp-55,  0x1.2ed02d75b3707p-55,  -0x1.e9c23179c2893p-54};

__attribute__((target("avx512f"), always_inline)) static inline __m512d exp_f64x8(__m512d x) {
  const __m512d shift = _mm512_set1_pd(0x1.8p52); /* adding it rounds to an integer, kept in the low bits */
  x = _mm512_max_pd(_mm512_set1_pd(-746.0), _mm512_min_pd(_mm512_set1_pd(710.0), x));
  __m512d t = _mm512_fmadd_pd(x, _mm512_set1_pd(0x1.71547652b82fep+4), shift); /* 16 / ln 2 */
  __m512d j = _mm512_sub_pd(t, shift);
  /* ln 2 / 16 in two parts (fdlibm's split of ln 2): j times the first is
   * exact, so r is x - j ln 2 / 16 to well below an ulp of r */
  __m512d r = _mm512_fnmadd_pd(j, _mm512_set1_pd(0x1.62e42fee00000p-5), x);
  r = _mm512_fnmadd_pd(j, _mm512_set1_pd(0x1.a39ef35793c76p-37), r);
  __m512d p = _mm512_fmadd_pd(_mm512_set1_pd(0x1.6c17c56a81063p-10), r, _mm512_set1_pd(0x1.1112150f92708p-7));
  p = _mm512_fmadd_pd(p, r, _mm512_set1_pd(0x1.55555555145a4p-5));
  p = _mm512_fmadd_pd(p, r, _mm512_set1_pd(0x1.55555554d35f2p-3));
  p = _mm512_fmadd_pd(p, r, _mm512_set1_pd(0.5));
  p = _mm512_fmadd_pd(p, _mm512_mul_pd(r, r), r); /* exp(r) - 1 */
  /* the table entry: j mod 16, the low four bits of t (vpermt2pd reads no more) */
  __m512i idx = _mm512_castpd_si512(t);
  __m512d hi = _mm512_permutex2var_pd(_mm512_load_pd(exp_tab_hi), idx, _mm512_load_pd(exp_tab_hi + 8));
  __m512d lo = _mm512_permutex2var_pd(_mm512_load_pd(exp_tab_lo), idx, _mm512_load_pd(exp_tab_lo + 8));
  __m512d v = _mm512_add_pd(hi, _mm512_fmadd_pd(hi, p, lo));
  /* times 2^floor(j / 16) */
  return _mm512_scalef_pd(v, _mm512_mul_pd(j, _mm512_set1_pd(1.0 / 16)));
}

static void load(void) {
  __builtin_cpu_init();
  if (!__builtin_cpu_supports("avx2")) return;
  void *lib = dlopen("libmvec.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!lib) return;
#define MA_VM_LOAD(E, n)                                                       \
  f64[MA_VM_##E] = (vec_f64)dlsym(lib, "_ZGVdN4v_" #n);                        \
  f32[MA_VM_##E] = (vec_f32)dlsym(lib, "_ZGVdN8v_" #n "f");
  MA_VM_LIST(MA_VM_LOAD)
#undef MA_VM_LOAD
#define MA_VM2_LOAD(E, n)                                                      \
  f64_2[MA_VM2_##E] = (vec2_f64)dlsym(lib, "_ZGVdN4vv_" #n);                   \
  f32_2[MA_VM2_##E] = (vec2_f32)dlsym(lib, "_ZGVdN8vv_" #n "f");
  MA_VM2_LIST(MA_VM2_LOAD)
#undef MA_VM2_LOAD
  /* MINARRAY_NO_AVX512=1 keeps the AVX2 kernels on an AVX-512 machine: to
   * measure (and test) the path AVX2-only CPUs take */
  const char *no512 = getenv("MINARRAY_NO_AVX512");
  if (__builtin_cpu_supports("avx512f") && !(no512 && *no512 && strcmp(no512, "0") != 0)) {
#define MA_VM_LOAD512(E, n)                                                    \
  f64x8[MA_VM_##E] = (vec_f64x8)dlsym(lib, "_ZGVeN8v_" #n);                    \
  f32x16[MA_VM_##E] = (vec_f32x16)dlsym(lib, "_ZGVeN16v_" #n "f");
    MA_VM_LIST(MA_VM_LOAD512)
#undef MA_VM_LOAD512
#define MA_VM2_LOAD512(E, n)                                                   \
  f64x8_2[MA_VM2_##E] = (vec2_f64x8)dlsym(lib, "_ZGVeN8vv_" #n);               \
  f32x16_2[MA_VM2_##E] = (vec2_f32x16)dlsym(lib, "_ZGVeN16vv_" #n "f");
    MA_VM2_LIST(MA_VM2_LOAD512)
#undef MA_VM2_LOAD512
    /* measured slower than their AVX2 twins (see the top of this file) */
    f64x8[MA_VM_EXPM1] = NULL;
    f64x8[MA_VM_SINH] = NULL;
    exp512 = 1; /* faster than libmvec's (above) */
  }
  /* the library stays loaded for the life of the process */
}

/* The loop, inlined into each caller: a kernel known there (exp_f64x8) is
 * inlined into it in turn, its constants then loaded once per call */
__attribute__((target("avx512f"), always_inline)) static inline void loop_f64x8(vec_f64x8 f, double *d,
                                                                                const double *s, int64_t n) {
  int64_t i = 0;
  for (; i + 8 <= n; i += 8) _mm512_storeu_pd(d + i, f(_mm512_loadu_pd(s + i)));
  if (i < n) {
    double tmp[8];
    memcpy(tmp, s + i, (size_t)(n - i) * sizeof(double));
    for (int64_t k = n - i; k < 8; k++) tmp[k] = s[i]; /* padding: a real input (above) */
    _mm512_storeu_pd(tmp, f(_mm512_loadu_pd(tmp)));
    memcpy(d + i, tmp, (size_t)(n - i) * sizeof(double));
  }
}

__attribute__((target("avx512f"))) static void run_f64x8(vec_f64x8 f, double *d, const double *s, int64_t n) {
  loop_f64x8(f, d, s, n);
}

__attribute__((target("avx512f"))) static void run_exp_f64x8(double *d, const double *s, int64_t n) {
  loop_f64x8(exp_f64x8, d, s, n);
}

__attribute__((target("avx512f"))) static void run_f32x16(vec_f32x16 f, float *d, const float *s,
                                                          int64_t n) {
  int64_t i = 0;
  for (; i + 16 <= n; i += 16) _mm512_storeu_ps(d + i, f(_mm512_loadu_ps(s + i)));
  if (i < n) {
    float tmp[16];
    memcpy(tmp, s + i, (size_t)(n - i) * sizeof(float));
    for (int64_t k = n - i; k < 16; k++) tmp[k] = s[i]; /* padding: a real input (above) */
    _mm512_storeu_ps(tmp, f(_mm512_loadu_ps(tmp)));
    memcpy(d + i, tmp, (size_t)(n - i) * sizeof(float));
  }
}

/* The tail is computed on a padded vector, so every element goes through
 * the same implementation (results do not depend on the array's length).
 * The padding repeats the tail's first input: zeros would make log and
 * its kind raise floating-point flags no input raised (fpe.h). */
__attribute__((target("avx2"))) static void run_f64(vec_f64 f, double *d, const double *s,
                                                    int64_t n) {
  int64_t i = 0;
  for (; i + 4 <= n; i += 4) _mm256_storeu_pd(d + i, f(_mm256_loadu_pd(s + i)));
  if (i < n) {
    double tmp[4];
    memcpy(tmp, s + i, (size_t)(n - i) * sizeof(double));
    for (int64_t k = n - i; k < 4; k++) tmp[k] = s[i]; /* padding: a real input (above) */
    _mm256_storeu_pd(tmp, f(_mm256_loadu_pd(tmp)));
    memcpy(d + i, tmp, (size_t)(n - i) * sizeof(double));
  }
}

__attribute__((target("avx2"))) static void run_f32(vec_f32 f, float *d, const float *s,
                                                    int64_t n) {
  int64_t i = 0;
  for (; i + 8 <= n; i += 8) _mm256_storeu_ps(d + i, f(_mm256_loadu_ps(s + i)));
  if (i < n) {
    float tmp[8];
    memcpy(tmp, s + i, (size_t)(n - i) * sizeof(float));
    for (int64_t k = n - i; k < 8; k++) tmp[k] = s[i]; /* padding: a real input (above) */
    _mm256_storeu_ps(tmp, f(_mm256_loadu_ps(tmp)));
    memcpy(d + i, tmp, (size_t)(n - i) * sizeof(float));
  }
}

/* Binary: operands contiguous (step 1) or broadcast (step 0); the tail is
 * padded with the first elements, so it sees valid inputs only. */
#define MA_RUN2(NAME, T, V, W, TARGET, LOAD, STORE, SET1)                      \
  __attribute__((target(TARGET))) static void NAME(V f, T *d, const T *a, int64_t sa,  \
                                                   const T *b, int64_t sb, int64_t n) { \
    if (n <= 0) return;                                                        \
    int64_t i = 0;                                                             \
    for (; i + W <= n; i += W)                                                 \
      STORE(d + i, f(sa ? LOAD(a + i) : SET1(a[0]), sb ? LOAD(b + i) : SET1(b[0]))); \
    if (i < n) {                                                               \
      T ta[W], tb[W];                                                          \
      for (int k = 0; k < W; k++) {                                            \
        ta[k] = a[sa && i + k < n ? i + k : 0];                                \
        tb[k] = b[sb && i + k < n ? i + k : 0];                                \
      }                                                                        \
      STORE(ta, f(LOAD(ta), LOAD(tb)));                                        \
      memcpy(d + i, ta, (size_t)(n - i) * sizeof(T));                          \
    }                                                                          \
  }
MA_RUN2(run2_f64, double, vec2_f64, 4, "avx2", _mm256_loadu_pd, _mm256_storeu_pd, _mm256_set1_pd)
MA_RUN2(run2_f32, float, vec2_f32, 8, "avx2", _mm256_loadu_ps, _mm256_storeu_ps, _mm256_set1_ps)
MA_RUN2(run2_f64x8, double, vec2_f64x8, 8, "avx512f", _mm512_loadu_pd, _mm512_storeu_pd,
        _mm512_set1_pd)
MA_RUN2(run2_f32x16, float, vec2_f32x16, 16, "avx512f", _mm512_loadu_ps, _mm512_storeu_ps,
        _mm512_set1_ps)

/* ---- floating-point flags ---------------------------------------------------
 *
 * libmvec takes special inputs down paths that raise flags the function
 * itself would not (overflow in sin's range reduction of 1e308, invalid in
 * exp of NaN), and a padded tail computes log(0) on the padding.  errstate
 * must report what the function raises (NumPy's warnings, fpe.h), so when
 * a vector call raised a flag that was not already set (only special
 * values do), the flags are recomputed, not the values, by scalar libm
 * over the same inputs.  The common case costs two reads of the flags,
 * which only a call with `exact` pays: a caller that can run the loop
 * again passes exact = 0, takes the flags raw, and when any is set runs
 * it again with exact = 1 (ma_ew_aux, elementwise.h). */

#define MA_VM_SCALAR(E, n) n,
static double (*const scalar64[MA_VM_COUNT])(double) = {MA_VM_LIST(MA_VM_SCALAR)};
#undef MA_VM_SCALAR
#define MA_VM_SCALAR(E, n) n##f,
static float (*const scalar32[MA_VM_COUNT])(float) = {MA_VM_LIST(MA_VM_SCALAR)};
#undef MA_VM_SCALAR
#define MA_VM_SCALAR(E, n) n,
static double (*const scalar64_2[MA_VM2_COUNT])(double, double) = {MA_VM2_LIST(MA_VM_SCALAR)};
#undef MA_VM_SCALAR
#define MA_VM_SCALAR(E, n) n##f,
static float (*const scalar32_2[MA_VM2_COUNT])(float, float) = {MA_VM2_LIST(MA_VM_SCALAR)};
#undef MA_VM_SCALAR

/* The flags are `before`, plus what the scalar function raises over the
 * inputs (the EXPR evaluated for i < n). */
#define MA_FPE_REDO(before, T, EXPR)                                           \
  do {                                                                         \
    volatile T sink_;                                                          \
    ma_fpe_clear();                                                            \
    for (int64_t i = 0; i < n; i++) sink_ = (EXPR);                            \
    (void)sink_;                                                               \
    unsigned redo_ = ma_fpe_read();                                            \
    ma_fpe_clear();                                                            \
    ma_fpe_raise((before) | redo_);                                            \
  } while (0)

static int vm2_float64(int fn, double *d, const double *a, int64_t sa, const double *b, int64_t sb,
                  int64_t n, int exact) {
  unsigned before = exact ? ma_fpe_read() : 0;
  if (f64x8_2[fn])
    run2_f64x8(f64x8_2[fn], d, a, sa, b, sb, n);
  else if (f64_2[fn])
    run2_f64(f64_2[fn], d, a, sa, b, sb, n);
  else
    return 0;
  if (exact && (ma_fpe_read() & ~before)) MA_FPE_REDO(before, double, scalar64_2[fn](a[i * sa], b[i * sb]));
  return 1;
}

static int vm2_float32(int fn, float *d, const float *a, int64_t sa, const float *b, int64_t sb,
                  int64_t n, int exact) {
  unsigned before = exact ? ma_fpe_read() : 0;
  if (f32x16_2[fn])
    run2_f32x16(f32x16_2[fn], d, a, sa, b, sb, n);
  else if (f32_2[fn])
    run2_f32(f32_2[fn], d, a, sa, b, sb, n);
  else
    return 0;
  if (exact && (ma_fpe_read() & ~before)) MA_FPE_REDO(before, float, scalar32_2[fn](a[i * sa], b[i * sb]));
  return 1;
}

static int vm_float64(int fn, double *d, const double *s, int64_t n, int exact) {
  unsigned before = exact ? ma_fpe_read() : 0;
  if (fn == MA_VM_EXP && exp512)
    run_exp_f64x8(d, s, n);
  else if (f64x8[fn])
    run_f64x8(f64x8[fn], d, s, n);
  else if (f64[fn])
    run_f64(f64[fn], d, s, n);
  else
    return 0;
  if (exact && (ma_fpe_read() & ~before)) MA_FPE_REDO(before, double, scalar64[fn](s[i]));
  return 1;
}

static int vm_float32(int fn, float *d, const float *s, int64_t n, int exact) {
  unsigned before = exact ? ma_fpe_read() : 0;
  if (f32x16[fn])
    run_f32x16(f32x16[fn], d, s, n);
  else if (f32[fn])
    run_f32(f32[fn], d, s, n);
  else
    return 0;
  if (exact && (ma_fpe_read() & ~before)) MA_FPE_REDO(before, float, scalar32[fn](s[i]));
  return 1;
}

/* The public entry points: an output that is also an input (log(x, out=x))
 * goes chunk by chunk through a copy of that input, so the flags can be
 * recomputed from the inputs (above). */
#define MA_VM_CHUNK 512
#define MA_VM_ENTRY(NAME, INNER, T)                                            \
  int NAME(int fn, T *d, const T *s, int64_t n, int exact) {                   \
    pthread_once(&once, load);                                                 \
    if (d != s || n == 0) return INNER(fn, d, s, n, exact);                    \
    T tmp[MA_VM_CHUNK];                                                        \
    for (int64_t i = 0; i < n; i += MA_VM_CHUNK) {                             \
      int64_t m = n - i < MA_VM_CHUNK ? n - i : MA_VM_CHUNK;                   \
      memcpy(tmp, s + i, (size_t)m * sizeof(T));                               \
      if (!INNER(fn, d + i, tmp, m, exact)) return 0; /* (before any write) */ \
    }                                                                          \
    return 1;                                                                  \
  }
MA_VM_ENTRY(ma_vecmath_float64, vm_float64, double)
MA_VM_ENTRY(ma_vecmath_float32, vm_float32, float)

#define MA_VM2_ENTRY(NAME, INNER, T)                                           \
  int NAME(int fn, T *d, const T *a, int64_t sa, const T *b, int64_t sb, int64_t n, int exact) { \
    pthread_once(&once, load);                                                 \
    if ((d != a || !sa) && (d != b || !sb)) return INNER(fn, d, a, sa, b, sb, n, exact); \
    T ta[MA_VM_CHUNK], tb[MA_VM_CHUNK];                                        \
    for (int64_t i = 0; i < n; i += MA_VM_CHUNK) {                             \
      int64_t m = n - i < MA_VM_CHUNK ? n - i : MA_VM_CHUNK;                   \
      const T *pa = sa ? memcpy(ta, a + i, (size_t)m * sizeof(T)) : a;         \
      const T *pb = sb ? memcpy(tb, b + i, (size_t)m * sizeof(T)) : b;         \
      if (!INNER(fn, d + i, pa, sa, pb, sb, m, exact)) return 0;               \
    }                                                                          \
    return 1;                                                                  \
  }
MA_VM2_ENTRY(ma_vecmath2_float64, vm2_float64, double)
MA_VM2_ENTRY(ma_vecmath2_float32, vm2_float32, float)

#else

int ma_vecmath2_float64(int fn, double *d, const double *a, int64_t sa, const double *b, int64_t sb,
                        int64_t n, int exact) {
  (void)fn, (void)d, (void)a, (void)sa, (void)b, (void)sb, (void)n, (void)exact;
  return 0;
}
int ma_vecmath2_float32(int fn, float *d, const float *a, int64_t sa, const float *b, int64_t sb,
                        int64_t n, int exact) {
  (void)fn, (void)d, (void)a, (void)sa, (void)b, (void)sb, (void)n, (void)exact;
  return 0;
}

int ma_vecmath_float64(int fn, double *d, const double *s, int64_t n, int exact) {
  (void)fn, (void)d, (void)s, (void)n, (void)exact;
  return 0;
}
int ma_vecmath_float32(int fn, float *d, const float *s, int64_t n, int exact) {
  (void)fn, (void)d, (void)s, (void)n, (void)exact;
  return 0;
}

#endif
