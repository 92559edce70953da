/*
 * Matrix multiplication: the kernels behind matmul, @, tensordot, vecdot and
 * outer (see gemm.h).  Plain C, run without the GIL by csrc/py/linalg.c.
 *
 * Which GEMM runs.  Every float and complex product of two matrices (m, n
 * >= 2) goes to BLAS ?gemm -- OpenBLAS from the scipy-openblas64 wheel,
 * loaded at run time by csrc/core/blas.c -- whenever gemm can read the
 * operands where they lie (one unit stride per matrix, as C-order,
 * Fortran-order and transposed arrays have).  OpenBLAS chooses its kernels
 * for the CPU it runs on; this file's kernel is AVX2-only and measured
 * 1.8-2.75x slower than NumPy on an AVX-512 Xeon.  Measured on Zen 4, one
 * gemm call ties or beats the direct path below even at 4x4, and ?gemv
 * beats the own matrix-vector loop 1.5-1.9x (docs/performance.md).  The
 * kernel below remains for what BLAS cannot do or does slower: 64-bit
 * integers; operands with no unit stride (every other column, reversed
 * rows, broadcast rows); dot products (m = n = 1) and small matrix-vector
 * products; and stacks of small products (at most MA_GEMM_SMALL
 * multiply-adds each), which the pool splits over the batch where BLAS
 * would run one call after another: 0.72x NumPy for 10^4 4x4 products
 * against 1.04x through gemm.
 *
 * Layout of the work (Goto's algorithm):
 *   for jc in N by NC:            B block  (KC x NC) packed, stays in L3
 *     for pc in K by KC:
 *       for ic in M by MC:        A block  (MC x KC) packed, stays in L2
 *         for jr in NC by NR:     B micro-panel (KC x NR) stays in L1
 *           for ir in MC by MR:   micro-kernel: an MR x NR tile of C in
 *                                 registers, KC rank-1 updates
 * Packing reads any strides, so transposed and sliced operands cost no
 * extra copy, and zero-pads ragged edges so the micro-kernel never branches.
 *
 * Element types: the kernels work on float64, float32, complex128, complex64
 * and 64-bit integers (unsigned arithmetic, so products wrap as NumPy's
 * do instead of being undefined).  minarray/_linear_algebra.py casts the other types
 * to these first (float16/bfloat16 -> float32, narrower integers and bool
 * -> int64) and back after, which is what NumPy computes too: float16 is
 * accumulated in float32, and integer results are exact modulo 2^bits.
 */
#include "gemm.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "blas.h"
#include "fpe.h"
#include "scalar.h"
#include "threads.h"

#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
#define MA_X86 1
#endif

#define MA_INLINE static inline __attribute__((always_inline))

/* Compute types. */
enum { G_F64, G_F32, G_C128, G_C64, G_I64, G_NTYPES };

typedef double v4d __attribute__((vector_size(32)));
typedef float v8f __attribute__((vector_size(32)));
typedef uint64_t v4u __attribute__((vector_size(32)));
typedef int64_t v4i __attribute__((vector_size(32)));
typedef int32_t v8i __attribute__((vector_size(32)));

/* A vector of copies of one scalar (not `(v4d){} + x`, which adds 0.0). */
#define BCAST4(x) ({ __typeof__(x) s_ = (x); (__typeof__(s_) __attribute__((vector_size(32)))){s_, s_, s_, s_}; })
#define BCAST8(x) ({ float s_ = (x); (v8f){s_, s_, s_, s_, s_, s_, s_, s_}; })
/* Unaligned loads/stores of the C tile (packed panels are aligned). */
#define LOADU(T, p) ({ T v_; memcpy(&v_, (p), sizeof(T)); v_; })
#define STOREU(p, v) do { __typeof__(v) v_ = (v); memcpy((p), &v_, sizeof(v_)); } while (0)

/* ---- micro-kernels ------------------------------------------------------
 *
 * kern(kc, a, b, c, rsc, csc, mr, nr, acc):
 *   tile = a(MR x kc, packed) . b(kc x NR, packed)
 *   c[i*rsc + j*csc] (=|+=) tile[i][j] for i < mr, j < nr
 * rsc/csc count elements of the compute type; acc chooses += over =.
 * Each body is written once (always_inline) and instantiated twice: plain,
 * and with AVX2+FMA enabled; the vector types lower to whatever the target
 * has. */
typedef void (*ukernel)(int64_t kc, const void *a, const void *b, void *c, int64_t rsc,
                        int64_t csc, int mr, int nr, int acc);

/* Write a spilled tile (row-major, ld = NR) into C. */
#define STORE_TILE(T, tile, NR)                                             \
  do {                                                                     \
    T *c_ = (T *)c;                                                        \
    for (int i = 0; i < mr; i++)                                           \
      for (int j = 0; j < nr; j++) {                                       \
        T *d_ = c_ + i * rsc + j * csc;                                    \
        *d_ = acc ? *d_ + tile[i * NR + j] : tile[i * NR + j];             \
      }                                                                    \
  } while (0)

/* float64: 6 x 8 (12 accumulators of 4 doubles). */
#define F64_MR 6
#define F64_NR 8
MA_INLINE void kern_f64_body(int64_t kc, const void *pa, const void *pb, void *c, int64_t rsc,
                             int64_t csc, int mr, int nr, int acc) {
  const double *a = (const double *)pa, *b = (const double *)pb;
  v4d c00 = {0}, c01 = {0}, c10 = {0}, c11 = {0}, c20 = {0}, c21 = {0};
  v4d c30 = {0}, c31 = {0}, c40 = {0}, c41 = {0}, c50 = {0}, c51 = {0};
#pragma GCC unroll 4
  for (int64_t p = 0; p < kc; p++) {
    v4d b0 = *(const v4d *)b, b1 = *(const v4d *)(b + 4);
    v4d x;
    x = BCAST4(a[0]); c00 += x * b0; c01 += x * b1;
    x = BCAST4(a[1]); c10 += x * b0; c11 += x * b1;
    x = BCAST4(a[2]); c20 += x * b0; c21 += x * b1;
    x = BCAST4(a[3]); c30 += x * b0; c31 += x * b1;
    x = BCAST4(a[4]); c40 += x * b0; c41 += x * b1;
    x = BCAST4(a[5]); c50 += x * b0; c51 += x * b1;
    a += F64_MR;
    b += F64_NR;
  }
  v4d r[F64_MR][2] = {{c00, c01}, {c10, c11}, {c20, c21}, {c30, c31}, {c40, c41}, {c50, c51}};
  if (mr == F64_MR && nr == F64_NR && csc == 1) {
    double *cp = (double *)c;
    for (int i = 0; i < F64_MR; i++, cp += rsc) {
      if (acc) {
        r[i][0] += LOADU(v4d, cp);
        r[i][1] += LOADU(v4d, cp + 4);
      }
      STOREU(cp, r[i][0]);
      STOREU(cp + 4, r[i][1]);
    }
    return;
  }
  double tile[F64_MR * F64_NR];
  memcpy(tile, r, sizeof(tile));
  STORE_TILE(double, tile, F64_NR);
}

/* float32: 6 x 16. */
#define F32_MR 6
#define F32_NR 16
MA_INLINE void kern_f32_body(int64_t kc, const void *pa, const void *pb, void *c, int64_t rsc,
                             int64_t csc, int mr, int nr, int acc) {
  const float *a = (const float *)pa, *b = (const float *)pb;
  v8f c00 = {0}, c01 = {0}, c10 = {0}, c11 = {0}, c20 = {0}, c21 = {0};
  v8f c30 = {0}, c31 = {0}, c40 = {0}, c41 = {0}, c50 = {0}, c51 = {0};
#pragma GCC unroll 4
  for (int64_t p = 0; p < kc; p++) {
    v8f b0 = *(const v8f *)b, b1 = *(const v8f *)(b + 8);
    v8f x;
    x = BCAST8(a[0]); c00 += x * b0; c01 += x * b1;
    x = BCAST8(a[1]); c10 += x * b0; c11 += x * b1;
    x = BCAST8(a[2]); c20 += x * b0; c21 += x * b1;
    x = BCAST8(a[3]); c30 += x * b0; c31 += x * b1;
    x = BCAST8(a[4]); c40 += x * b0; c41 += x * b1;
    x = BCAST8(a[5]); c50 += x * b0; c51 += x * b1;
    a += F32_MR;
    b += F32_NR;
  }
  v8f r[F32_MR][2] = {{c00, c01}, {c10, c11}, {c20, c21}, {c30, c31}, {c40, c41}, {c50, c51}};
  if (mr == F32_MR && nr == F32_NR && csc == 1) {
    float *cp = (float *)c;
    for (int i = 0; i < F32_MR; i++, cp += rsc) {
      if (acc) {
        r[i][0] += LOADU(v8f, cp);
        r[i][1] += LOADU(v8f, cp + 8);
      }
      STOREU(cp, r[i][0]);
      STOREU(cp + 8, r[i][1]);
    }
    return;
  }
  float tile[F32_MR * F32_NR];
  memcpy(tile, r, sizeof(tile));
  STORE_TILE(float, tile, F32_NR);
}

/* Complex: packed A holds (re, im) pairs, B interleaved complex numbers.
 * Per row, one accumulator set gathers re(a)*b and another im(a)*b; at the
 * end c = racc + (-1, +1) * swap_pairs(iacc), i.e.
 *   (ar*br - ai*bi, ar*bi + ai*br)
 * so the loop is pure FMAs, as real GEMM. */

/* complex128: 3 x 4 complex (2 vectors of 2 complex per row, 2 sets). */
#define C128_MR 3
#define C128_NR 4
MA_INLINE void kern_c128_body(int64_t kc, const void *pa, const void *pb, void *c, int64_t rsc,
                              int64_t csc, int mr, int nr, int acc) {
  const double *a = (const double *)pa, *b = (const double *)pb;
  v4d r00 = {0}, r01 = {0}, r10 = {0}, r11 = {0}, r20 = {0}, r21 = {0};
  v4d i00 = {0}, i01 = {0}, i10 = {0}, i11 = {0}, i20 = {0}, i21 = {0};
#pragma GCC unroll 4
  for (int64_t p = 0; p < kc; p++) {
    v4d b0 = *(const v4d *)b, b1 = *(const v4d *)(b + 4);
    v4d x, y;
    x = BCAST4(a[0]); y = BCAST4(a[1]); r00 += x * b0; r01 += x * b1; i00 += y * b0; i01 += y * b1;
    x = BCAST4(a[2]); y = BCAST4(a[3]); r10 += x * b0; r11 += x * b1; i10 += y * b0; i11 += y * b1;
    x = BCAST4(a[4]); y = BCAST4(a[5]); r20 += x * b0; r21 += x * b1; i20 += y * b0; i21 += y * b1;
    a += 2 * C128_MR;
    b += 2 * C128_NR;
  }
  const v4i swap = {1, 0, 3, 2};
  const v4d sign = {-1.0, 1.0, -1.0, 1.0};
  v4d r[C128_MR][2] = {
      {r00 + sign * __builtin_shuffle(i00, swap), r01 + sign * __builtin_shuffle(i01, swap)},
      {r10 + sign * __builtin_shuffle(i10, swap), r11 + sign * __builtin_shuffle(i11, swap)},
      {r20 + sign * __builtin_shuffle(i20, swap), r21 + sign * __builtin_shuffle(i21, swap)}};
  if (mr == C128_MR && nr == C128_NR && csc == 1) {
    double *cp = (double *)c;
    for (int i = 0; i < C128_MR; i++, cp += 2 * rsc) {
      if (acc) {
        r[i][0] += LOADU(v4d, cp);
        r[i][1] += LOADU(v4d, cp + 4);
      }
      STOREU(cp, r[i][0]);
      STOREU(cp + 4, r[i][1]);
    }
    return;
  }
  ma_c128 tile[C128_MR * C128_NR];
  memcpy(tile, r, sizeof(tile));
  STORE_TILE(ma_c128, tile, C128_NR);
}

/* complex64: 3 x 8 complex. */
#define C64_MR 3
#define C64_NR 8
MA_INLINE void kern_c64_body(int64_t kc, const void *pa, const void *pb, void *c, int64_t rsc,
                             int64_t csc, int mr, int nr, int acc) {
  const float *a = (const float *)pa, *b = (const float *)pb;
  v8f r00 = {0}, r01 = {0}, r10 = {0}, r11 = {0}, r20 = {0}, r21 = {0};
  v8f i00 = {0}, i01 = {0}, i10 = {0}, i11 = {0}, i20 = {0}, i21 = {0};
#pragma GCC unroll 4
  for (int64_t p = 0; p < kc; p++) {
    v8f b0 = *(const v8f *)b, b1 = *(const v8f *)(b + 8);
    v8f x, y;
    x = BCAST8(a[0]); y = BCAST8(a[1]); r00 += x * b0; r01 += x * b1; i00 += y * b0; i01 += y * b1;
    x = BCAST8(a[2]); y = BCAST8(a[3]); r10 += x * b0; r11 += x * b1; i10 += y * b0; i11 += y * b1;
    x = BCAST8(a[4]); y = BCAST8(a[5]); r20 += x * b0; r21 += x * b1; i20 += y * b0; i21 += y * b1;
    a += 2 * C64_MR;
    b += 2 * C64_NR;
  }
  const v8i swap = {1, 0, 3, 2, 5, 4, 7, 6};
  const v8f sign = {-1.f, 1.f, -1.f, 1.f, -1.f, 1.f, -1.f, 1.f};
  v8f r[C64_MR][2] = {
      {r00 + sign * __builtin_shuffle(i00, swap), r01 + sign * __builtin_shuffle(i01, swap)},
      {r10 + sign * __builtin_shuffle(i10, swap), r11 + sign * __builtin_shuffle(i11, swap)},
      {r20 + sign * __builtin_shuffle(i20, swap), r21 + sign * __builtin_shuffle(i21, swap)}};
  if (mr == C64_MR && nr == C64_NR && csc == 1) {
    float *cp = (float *)c;
    for (int i = 0; i < C64_MR; i++, cp += 2 * rsc) {
      if (acc) {
        r[i][0] += LOADU(v8f, cp);
        r[i][1] += LOADU(v8f, cp + 8);
      }
      STOREU(cp, r[i][0]);
      STOREU(cp + 8, r[i][1]);
    }
    return;
  }
  ma_c64 tile[C64_MR * C64_NR];
  memcpy(tile, r, sizeof(tile));
  STORE_TILE(ma_c64, tile, C64_NR);
}

/* 64-bit integers: 4 x 8, unsigned (wrapping) arithmetic. */
#define I64_MR 4
#define I64_NR 8
MA_INLINE void kern_i64_body(int64_t kc, const void *pa, const void *pb, void *c, int64_t rsc,
                             int64_t csc, int mr, int nr, int acc) {
  const uint64_t *a = (const uint64_t *)pa, *b = (const uint64_t *)pb;
  v4u c00 = {0}, c01 = {0}, c10 = {0}, c11 = {0}, c20 = {0}, c21 = {0}, c30 = {0}, c31 = {0};
  for (int64_t p = 0; p < kc; p++) {
    v4u b0 = *(const v4u *)b, b1 = *(const v4u *)(b + 4);
    v4u x;
    x = BCAST4(a[0]); c00 += x * b0; c01 += x * b1;
    x = BCAST4(a[1]); c10 += x * b0; c11 += x * b1;
    x = BCAST4(a[2]); c20 += x * b0; c21 += x * b1;
    x = BCAST4(a[3]); c30 += x * b0; c31 += x * b1;
    a += I64_MR;
    b += I64_NR;
  }
  v4u r[I64_MR][2] = {{c00, c01}, {c10, c11}, {c20, c21}, {c30, c31}};
  uint64_t tile[I64_MR * I64_NR];
  memcpy(tile, r, sizeof(tile));
  STORE_TILE(uint64_t, tile, I64_NR);
}

#ifdef MA_X86
#define AVX2_KERNEL(name)                                                                        \
  __attribute__((target("avx2,fma"))) static void name##_avx2(                                   \
      int64_t kc, const void *a, const void *b, void *c, int64_t rsc, int64_t csc, int mr,        \
      int nr, int acc) {                                                                         \
    name##_body(kc, a, b, c, rsc, csc, mr, nr, acc);                                             \
  }
AVX2_KERNEL(kern_f64)
AVX2_KERNEL(kern_f32)
AVX2_KERNEL(kern_c128)
AVX2_KERNEL(kern_c64)
AVX2_KERNEL(kern_i64)

/* The x86-64 baseline (no AVX) has sixteen 128-bit registers: a full tile's
 * accumulators spill on every step there (measured 40x slower than the
 * AVX2 kernels).  The portable x86 kernels compute each tile in two column
 * halves instead, with half the accumulators, over the same packed panels. */
static void kern_f64_plain(int64_t kc, const void *pa, const void *pb, void *c, int64_t rsc,
                           int64_t csc, int mr, int nr, int acc) {
  double tile[F64_MR * F64_NR];
  for (int h = 0; h < 2; h++) {
    const double *a = (const double *)pa, *b = (const double *)pb + 4 * h;
    v4d c0 = {0}, c1 = {0}, c2 = {0}, c3 = {0}, c4 = {0}, c5 = {0};
    for (int64_t p = 0; p < kc; p++, a += F64_MR, b += F64_NR) {
      v4d bv = *(const v4d *)b;
      c0 += BCAST4(a[0]) * bv; c1 += BCAST4(a[1]) * bv; c2 += BCAST4(a[2]) * bv;
      c3 += BCAST4(a[3]) * bv; c4 += BCAST4(a[4]) * bv; c5 += BCAST4(a[5]) * bv;
    }
    v4d r[F64_MR] = {c0, c1, c2, c3, c4, c5};
    for (int i = 0; i < F64_MR; i++) memcpy(tile + i * F64_NR + 4 * h, &r[i], sizeof(v4d));
  }
  STORE_TILE(double, tile, F64_NR);
}

static void kern_f32_plain(int64_t kc, const void *pa, const void *pb, void *c, int64_t rsc,
                           int64_t csc, int mr, int nr, int acc) {
  float tile[F32_MR * F32_NR];
  for (int h = 0; h < 2; h++) {
    const float *a = (const float *)pa, *b = (const float *)pb + 8 * h;
    v8f c0 = {0}, c1 = {0}, c2 = {0}, c3 = {0}, c4 = {0}, c5 = {0};
    for (int64_t p = 0; p < kc; p++, a += F32_MR, b += F32_NR) {
      v8f bv = *(const v8f *)b;
      c0 += BCAST8(a[0]) * bv; c1 += BCAST8(a[1]) * bv; c2 += BCAST8(a[2]) * bv;
      c3 += BCAST8(a[3]) * bv; c4 += BCAST8(a[4]) * bv; c5 += BCAST8(a[5]) * bv;
    }
    v8f r[F32_MR] = {c0, c1, c2, c3, c4, c5};
    for (int i = 0; i < F32_MR; i++) memcpy(tile + i * F32_NR + 8 * h, &r[i], sizeof(v8f));
  }
  STORE_TILE(float, tile, F32_NR);
}

static void kern_c128_plain(int64_t kc, const void *pa, const void *pb, void *c, int64_t rsc,
                            int64_t csc, int mr, int nr, int acc) {
  ma_c128 tile[C128_MR * C128_NR];
  const v4i swap = {1, 0, 3, 2};
  const v4d sign = {-1.0, 1.0, -1.0, 1.0};
  for (int h = 0; h < 2; h++) {
    const double *a = (const double *)pa, *b = (const double *)pb + 4 * h;
    v4d r0 = {0}, r1 = {0}, r2 = {0}, i0 = {0}, i1 = {0}, i2 = {0};
    for (int64_t p = 0; p < kc; p++, a += 2 * C128_MR, b += 2 * C128_NR) {
      v4d bv = *(const v4d *)b;
      r0 += BCAST4(a[0]) * bv; i0 += BCAST4(a[1]) * bv;
      r1 += BCAST4(a[2]) * bv; i1 += BCAST4(a[3]) * bv;
      r2 += BCAST4(a[4]) * bv; i2 += BCAST4(a[5]) * bv;
    }
    v4d r[C128_MR] = {r0 + sign * __builtin_shuffle(i0, swap), r1 + sign * __builtin_shuffle(i1, swap),
                      r2 + sign * __builtin_shuffle(i2, swap)};
    for (int i = 0; i < C128_MR; i++) memcpy(tile + i * C128_NR + 2 * h, &r[i], sizeof(v4d));
  }
  STORE_TILE(ma_c128, tile, C128_NR);
}

static void kern_c64_plain(int64_t kc, const void *pa, const void *pb, void *c, int64_t rsc,
                           int64_t csc, int mr, int nr, int acc) {
  ma_c64 tile[C64_MR * C64_NR];
  const v8i swap = {1, 0, 3, 2, 5, 4, 7, 6};
  const v8f sign = {-1.f, 1.f, -1.f, 1.f, -1.f, 1.f, -1.f, 1.f};
  for (int h = 0; h < 2; h++) {
    const float *a = (const float *)pa, *b = (const float *)pb + 8 * h;
    v8f r0 = {0}, r1 = {0}, r2 = {0}, i0 = {0}, i1 = {0}, i2 = {0};
    for (int64_t p = 0; p < kc; p++, a += 2 * C64_MR, b += 2 * C64_NR) {
      v8f bv = *(const v8f *)b;
      r0 += BCAST8(a[0]) * bv; i0 += BCAST8(a[1]) * bv;
      r1 += BCAST8(a[2]) * bv; i1 += BCAST8(a[3]) * bv;
      r2 += BCAST8(a[4]) * bv; i2 += BCAST8(a[5]) * bv;
    }
    v8f r[C64_MR] = {r0 + sign * __builtin_shuffle(i0, swap), r1 + sign * __builtin_shuffle(i1, swap),
                     r2 + sign * __builtin_shuffle(i2, swap)};
    for (int i = 0; i < C64_MR; i++) memcpy(tile + i * C64_NR + 4 * h, &r[i], sizeof(v8f));
  }
  STORE_TILE(ma_c64, tile, C64_NR);
}

static void kern_i64_plain(int64_t kc, const void *pa, const void *pb, void *c, int64_t rsc,
                           int64_t csc, int mr, int nr, int acc) {
  uint64_t tile[I64_MR * I64_NR];
  for (int h = 0; h < 2; h++) {
    const uint64_t *a = (const uint64_t *)pa, *b = (const uint64_t *)pb + 4 * h;
    v4u c0 = {0}, c1 = {0}, c2 = {0}, c3 = {0};
    for (int64_t p = 0; p < kc; p++, a += I64_MR, b += I64_NR) {
      v4u bv = *(const v4u *)b;
      c0 += BCAST4(a[0]) * bv; c1 += BCAST4(a[1]) * bv;
      c2 += BCAST4(a[2]) * bv; c3 += BCAST4(a[3]) * bv;
    }
    v4u r[I64_MR] = {c0, c1, c2, c3};
    for (int i = 0; i < I64_MR; i++) memcpy(tile + i * I64_NR + 4 * h, &r[i], sizeof(v4u));
  }
  STORE_TILE(uint64_t, tile, I64_NR);
}
#else
/* Elsewhere (arm64: 32 128-bit registers) the full tiles fit. */
#define PLAIN_KERNEL(name)                                                                  \
  static void name##_plain(int64_t kc, const void *a, const void *b, void *c, int64_t rsc,   \
                           int64_t csc, int mr, int nr, int acc) {                          \
    name##_body(kc, a, b, c, rsc, csc, mr, nr, acc);                                        \
  }
PLAIN_KERNEL(kern_f64)
PLAIN_KERNEL(kern_f32)
PLAIN_KERNEL(kern_c128)
PLAIN_KERNEL(kern_c64)
PLAIN_KERNEL(kern_i64)
#endif

/* ---- packing ------------------------------------------------------------
 *
 * pack(dst, src, sw, sk, n, kc, W, conj): n rows of a strided operand
 * (row step sw, k step sk, in elements) into ceil(n/W) panels, each kc x W
 * with the W entries of one k contiguous; rows past n are zero.  A is
 * packed with W = MR (its rows), B with W = NR (its columns: sw = B's column
 * stride).  `conj` negates imaginary parts (vecdot conjugates x1). */
#define DEFINE_PACK(name, T)                                                            \
  static void name(void *dstv, const void *srcv, int64_t sw, int64_t sk, int64_t n,      \
                   int64_t kc, int W, int conj) {                                       \
    T *restrict dst = (T *)dstv;                                                        \
    const T *src = (const T *)srcv;                                                     \
    (void)conj;                                                                         \
    for (int64_t i0 = 0; i0 < n; i0 += W) {                                             \
      int w = n - i0 < W ? (int)(n - i0) : W;                                           \
      const T *s = src + i0 * sw;                                                       \
      if (w == W && sw == 1) {                                                          \
        for (int64_t p = 0; p < kc; p++, dst += W) memcpy(dst, s + p * sk, W * sizeof(T)); \
      } else if (sk == 1) {                                                             \
        for (int i = 0; i < w; i++)                                                     \
          for (int64_t p = 0; p < kc; p++) dst[p * W + i] = s[i * sw + p];              \
        for (int i = w; i < W; i++)                                                     \
          for (int64_t p = 0; p < kc; p++) dst[p * W + i] = (T){0};                     \
        dst += kc * W;                                                                  \
      } else {                                                                          \
        for (int64_t p = 0; p < kc; p++, dst += W) {                                    \
          int i = 0;                                                                    \
          for (; i < w; i++) dst[i] = s[i * sw + p * sk];                               \
          for (; i < W; i++) dst[i] = (T){0};                                           \
        }                                                                               \
      }                                                                                 \
    }                                                                                   \
    PACK_CONJ(T)                                                                        \
  }

#define PACK_CONJ(T)
DEFINE_PACK(pack_f64, double)
DEFINE_PACK(pack_f32, float)
DEFINE_PACK(pack_i64, uint64_t)
#undef PACK_CONJ
/* Complex panels are conjugated after packing: one more pass over a block
 * that is in cache, only for vecdot. */
#define PACK_CONJ(T)                                                      \
  if (conj) {                                                             \
    T *d = (T *)dstv;                                                     \
    int64_t total = ((n + W - 1) / W) * W * kc;                           \
    for (int64_t q = 0; q < total; q++) d[q] = conj##T(d[q]);             \
  }
static inline ma_c128 conjma_c128(ma_c128 z) { return CMPLX(creal(z), -cimag(z)); }
static inline ma_c64 conjma_c64(ma_c64 z) { return CMPLXF(crealf(z), -cimagf(z)); }
DEFINE_PACK(pack_c128, ma_c128)
DEFINE_PACK(pack_c64, ma_c64)
#undef PACK_CONJ

typedef void (*packfn)(void *dst, const void *src, int64_t sw, int64_t sk, int64_t n, int64_t kc,
                       int W, int conj);

/* ---- the blocked driver -------------------------------------------------- */

typedef struct {
  int mr, nr;
  int64_t mc, kc, nc; /* cache blocks: MC x KC of A in L2, KC x NC of B in L3 */
  size_t esize;
  ukernel kern;
  packfn pack;
} gemm_impl;

/* Block sizes: KC x NR of B (L1) plus MC x KC of A (L2) -- measured on Zen 4
 * (32 KiB L1d, 1 MiB L2); see the commit message. */
static gemm_impl impls[G_NTYPES] = {
    [G_F64] = {F64_MR, F64_NR, 120, 256, 4096, 8, kern_f64_plain, pack_f64},
    [G_F32] = {F32_MR, F32_NR, 120, 256, 4096, 4, kern_f32_plain, pack_f32},
    [G_C128] = {C128_MR, C128_NR, 60, 256, 2048, 16, kern_c128_plain, pack_c128},
    [G_C64] = {C64_MR, C64_NR, 60, 256, 4096, 8, kern_c64_plain, pack_c64},
    [G_I64] = {I64_MR, I64_NR, 96, 256, 4096, 8, kern_i64_plain, pack_i64},
};

static pthread_once_t impls_once = PTHREAD_ONCE_INIT;

static void impls_init(void) {
#ifdef MA_X86
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) {
    impls[G_F64].kern = kern_f64_avx2;
    impls[G_F32].kern = kern_f32_avx2;
    impls[G_C128].kern = kern_c128_avx2;
    impls[G_C64].kern = kern_c64_avx2;
    impls[G_I64].kern = kern_i64_avx2;
  }
#endif
}

/* One strided matrix operand: element 0 and element strides. */
typedef struct {
  char *p;
  int64_t rs, cs;
} mat;

typedef struct {
  void *pa, *pb; /* pack buffers, 64-byte aligned */
} workspace;

/* C (m x n) = conj?(A) (m x k) . B (k x n), k > 0. */
static void gemm_blocked(const gemm_impl *g, int64_t m, int64_t n, int64_t k, mat A, mat B, mat C,
                         int conj, workspace *ws) {
  const size_t es = g->esize;
  /* Even blocks (k = 300 runs as 150 + 150, not 256 + 44: a thin block
   * pays the same C traffic for less work); never above the cache sizes
   * the pack buffers were sized for. */
  int64_t KC = (k + (k + g->kc - 1) / g->kc - 1) / ((k + g->kc - 1) / g->kc);
  int64_t nmb = (m + g->mc - 1) / g->mc;
  int64_t MC = ((m + nmb - 1) / nmb + g->mr - 1) / g->mr * g->mr;
  if (MC > g->mc) MC = g->mc;
  for (int64_t jc = 0; jc < n; jc += g->nc) {
    int64_t nc = n - jc < g->nc ? n - jc : g->nc;
    for (int64_t pc = 0; pc < k; pc += KC) {
      int64_t kc = k - pc < KC ? k - pc : KC;
      g->pack(ws->pb, B.p + (pc * B.rs + jc * B.cs) * es, B.cs, B.rs, nc, kc, g->nr, 0);
      for (int64_t ic = 0; ic < m; ic += MC) {
        int64_t mc = m - ic < MC ? m - ic : MC;
        g->pack(ws->pa, A.p + (ic * A.rs + pc * A.cs) * es, A.rs, A.cs, mc, kc, g->mr, conj);
        for (int64_t jr = 0; jr < nc; jr += g->nr) {
          int nr = nc - jr < g->nr ? (int)(nc - jr) : g->nr;
          const char *bp = (const char *)ws->pb + jr * kc * es;
          for (int64_t ir = 0; ir < mc; ir += g->mr) {
            int mr = mc - ir < g->mr ? (int)(mc - ir) : g->mr;
            char *cp = C.p + ((ic + ir) * C.rs + (jc + jr) * C.cs) * es;
            g->kern(kc, (const char *)ws->pa + ir * kc * es, bp, cp, C.rs, C.cs, mr, nr, pc > 0);
          }
        }
      }
    }
  }
}

/* ---- matrix-vector ------------------------------------------------------
 *
 * When one side is a vector the blocked path would waste most of each
 * micro-tile, so y = conj?(A) x runs as dot products (rows of A contiguous)
 * or as axpy updates down the columns (columns contiguous): either way one
 * streaming pass over A. */

#define DEFINE_GEMV_REAL(name, T, V, L, BC)                                                   \
  MA_INLINE void name##_body(int64_t m, int64_t k, mat A, const T *x, int64_t incx, T *y,       \
                             int64_t incy) {                                                  \
    if (A.rs != 1 || m == 1) { /* dot products along rows */                                  \
      for (int64_t i = 0; i < m; i++) {                                                       \
        const T *a = (const T *)A.p + i * A.rs;                                               \
        T sum = 0;                                                                            \
        int64_t p = 0;                                                                        \
        if (A.cs == 1 && incx == 1 && k >= 2 * L) { /* independent vector accumulators */     \
          V s0 = {0}, s1 = {0}, s2 = {0}, s3 = {0};                                           \
          for (; p + 4 * L <= k; p += 4 * L) {                                                \
            s0 += LOADU(V, a + p) * LOADU(V, x + p);                                          \
            s1 += LOADU(V, a + p + L) * LOADU(V, x + p + L);                                  \
            s2 += LOADU(V, a + p + 2 * L) * LOADU(V, x + p + 2 * L);                          \
            s3 += LOADU(V, a + p + 3 * L) * LOADU(V, x + p + 3 * L);                          \
          }                                                                                   \
          for (; p + 2 * L <= k; p += 2 * L) {                                                \
            s0 += LOADU(V, a + p) * LOADU(V, x + p);                                          \
            s1 += LOADU(V, a + p + L) * LOADU(V, x + p + L);                                  \
          }                                                                                   \
          s0 += s1 + (s2 + s3);                                                               \
          T lanes[L];                                                                         \
          memcpy(lanes, &s0, sizeof(lanes));                                                  \
          for (int q = 0; q < L; q++) sum += lanes[q];                                        \
        }                                                                                     \
        for (; p < k; p++) sum += a[p * A.cs] * x[p * incx];                                  \
        y[i * incy] = sum;                                                                    \
      }                                                                                       \
    } else { /* columns contiguous: y += A[:, p:p+4] . x[p:p+4], y in L1 */           \
      for (int64_t i = 0; i < m; i++) y[i * incy] = 0;                                        \
      int64_t p = 0;                                                                          \
      for (; p + 4 <= k; p += 4) {                                                            \
        const T *a0 = (const T *)A.p + p * A.cs, *a1 = a0 + A.cs, *a2 = a1 + A.cs,            \
                *a3 = a2 + A.cs;                                                              \
        const T x0 = x[p * incx], x1 = x[(p + 1) * incx], x2 = x[(p + 2) * incx],             \
                x3 = x[(p + 3) * incx];                                                       \
        int64_t i = 0;                                                                        \
        if (incy == 1) {                                                                      \
          const V v0 = BC(x0), v1 = BC(x1), v2 = BC(x2), v3 = BC(x3);                         \
          for (; i + L <= m; i += L)                                                          \
            STOREU(y + i, LOADU(V, y + i) + v0 * LOADU(V, a0 + i) + v1 * LOADU(V, a1 + i) +    \
                              v2 * LOADU(V, a2 + i) + v3 * LOADU(V, a3 + i));                 \
        }                                                                                     \
        for (; i < m; i++) y[i * incy] += x0 * a0[i] + x1 * a1[i] + x2 * a2[i] + x3 * a3[i];  \
      }                                                                                       \
      for (; p < k; p++) {                                                                    \
        const T *a = (const T *)A.p + p * A.cs;                                               \
        const T xp = x[p * incx];                                                             \
        for (int64_t i = 0; i < m; i++) y[i * incy] += xp * a[i];                             \
      }                                                                                       \
    }                                                                                         \
  }

DEFINE_GEMV_REAL(gemv_f64, double, v4d, 4, BCAST4)
DEFINE_GEMV_REAL(gemv_f32, float, v8f, 8, BCAST8)
DEFINE_GEMV_REAL(gemv_i64, uint64_t, v4u, 4, BCAST4)

/* Complex: explicit real arithmetic (C's complex `*` checks for NaN/inf
 * recovery after every product, which blocks vectorisation).  ca/cx
 * conjugate A or x. */
#define DEFINE_GEMV_CPLX(name, R)                                                             \
  MA_INLINE void name##_body(int64_t m, int64_t k, mat A, const R *x, int64_t incx, R *y,       \
                             int64_t incy, int ca, int cx) {                                  \
    R sa = ca ? -1 : 1, sx = cx ? -1 : 1;                                                     \
    if (A.rs != 1 || m == 1) {                                                                \
      for (int64_t i = 0; i < m; i++) {                                                       \
        const R *a = (const R *)A.p + 2 * i * A.rs;                                           \
        R rr0 = 0, ii0 = 0, ri0 = 0, ir0 = 0, rr1 = 0, ii1 = 0, ri1 = 0, ir1 = 0;             \
        int64_t p = 0;                                                                        \
        if (A.cs == 1 && incx == 1)                                                           \
          for (; p + 2 <= k; p += 2) {                                                        \
            rr0 += a[2 * p] * x[2 * p]; ii0 += a[2 * p + 1] * x[2 * p + 1];                   \
            ri0 += a[2 * p] * x[2 * p + 1]; ir0 += a[2 * p + 1] * x[2 * p];                   \
            rr1 += a[2 * p + 2] * x[2 * p + 2]; ii1 += a[2 * p + 3] * x[2 * p + 3];           \
            ri1 += a[2 * p + 2] * x[2 * p + 3]; ir1 += a[2 * p + 3] * x[2 * p + 2];           \
          }                                                                                   \
        for (; p < k; p++) {                                                                  \
          const R *ap = a + 2 * p * A.cs, *xp = x + 2 * p * incx;                             \
          rr0 += ap[0] * xp[0]; ii0 += ap[1] * xp[1];                                         \
          ri0 += ap[0] * xp[1]; ir0 += ap[1] * xp[0];                                         \
        }                                                                                     \
        R rr = rr0 + rr1, ii = ii0 + ii1, ri = ri0 + ri1, ir = ir0 + ir1;                     \
        /* (ar + i sa ai)(xr + i sx xi) */                                                    \
        y[2 * i * incy] = rr - sa * sx * ii;                                                  \
        y[2 * i * incy + 1] = sx * ri + sa * ir;                                              \
      }                                                                                       \
    } else {                                                                                  \
      for (int64_t i = 0; i < m; i++) y[2 * i * incy] = y[2 * i * incy + 1] = 0;              \
      for (int64_t p = 0; p < k; p++) {                                                       \
        const R *a = (const R *)A.p + 2 * p * A.cs;                                           \
        R xr = x[2 * p * incx], xi = sx * x[2 * p * incx + 1];                                \
        for (int64_t i = 0; i < m; i++) {                                                     \
          R ar = a[2 * i], ai = sa * a[2 * i + 1];                                            \
          y[2 * i * incy] += ar * xr - ai * xi;                                               \
          y[2 * i * incy + 1] += ar * xi + ai * xr;                                           \
        }                                                                                     \
      }                                                                                       \
    }                                                                                         \
  }

DEFINE_GEMV_CPLX(gemv_c128, double)
DEFINE_GEMV_CPLX(gemv_c64, float)

/* y (m) = conj_a?(A) (m x k) . conj_x?(x) (k); returns after m outputs. */

/* Compiled by GCC 12 at -O3 with its vectorisers, the complex kernels read
 * one element past the end of a strided A (a vector times every other
 * column of a matrix): a fault when A ends at a page boundary (the guard-
 * page test in tests/test_linear_algebra.py).  Without them the reads stay in
 * bounds; the arithmetic is written out by hand either way. */
#define NO_SLP __attribute__((optimize("no-tree-vectorize")))
typedef void (*gemvfn)(int64_t m, int64_t k, const mat *A, const void *x, int64_t incx, void *y,
                       int64_t incy, int ca, int cx);

#define GEMV_WRAP_REAL(name, T, attr)                                                           \
  attr static void name(int64_t m, int64_t k, const mat *A, const void *x, int64_t incx, void *y, \
                        int64_t incy, int ca, int cx) {                                         \
    (void)ca;                                                                                   \
    (void)cx;                                                                                   \
    name##_impl(m, k, *A, (const T *)x, incx, (T *)y, incy);                                    \
  }
#define GEMV_WRAP_CPLX(name, R, attr)                                                           \
  attr NO_SLP static void name(int64_t m, int64_t k, const mat *A, const void *x, int64_t incx, void *y, \
                        int64_t incy, int ca, int cx) {                                         \
    name##_impl(m, k, *A, (const R *)x, incx, (R *)y, incy, ca, cx);                            \
  }
#define gemv_f64_plain_impl gemv_f64_body
#define gemv_f32_plain_impl gemv_f32_body
#define gemv_i64_plain_impl gemv_i64_body
#define gemv_c128_plain_impl gemv_c128_body
#define gemv_c64_plain_impl gemv_c64_body
GEMV_WRAP_REAL(gemv_f64_plain, double, )
GEMV_WRAP_REAL(gemv_f32_plain, float, )
GEMV_WRAP_REAL(gemv_i64_plain, uint64_t, )
GEMV_WRAP_CPLX(gemv_c128_plain, double, )
GEMV_WRAP_CPLX(gemv_c64_plain, float, )
#ifdef MA_X86
#define AVX2 __attribute__((target("avx2,fma")))
#define gemv_f64_avx2_impl gemv_f64_body
#define gemv_f32_avx2_impl gemv_f32_body
#define gemv_i64_avx2_impl gemv_i64_body
#define gemv_c128_avx2_impl gemv_c128_body
#define gemv_c64_avx2_impl gemv_c64_body
GEMV_WRAP_REAL(gemv_f64_avx2, double, AVX2)
GEMV_WRAP_REAL(gemv_f32_avx2, float, AVX2)
GEMV_WRAP_REAL(gemv_i64_avx2, uint64_t, AVX2)
GEMV_WRAP_CPLX(gemv_c128_avx2, double, AVX2)
GEMV_WRAP_CPLX(gemv_c64_avx2, float, AVX2)
#endif

static gemvfn gemvs[G_NTYPES];

static void gemvs_init(void) {
  gemvs[G_F64] = gemv_f64_plain;
  gemvs[G_F32] = gemv_f32_plain;
  gemvs[G_C128] = gemv_c128_plain;
  gemvs[G_C64] = gemv_c64_plain;
  gemvs[G_I64] = gemv_i64_plain;
#ifdef MA_X86
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) {
    gemvs[G_F64] = gemv_f64_avx2;
    gemvs[G_F32] = gemv_f32_avx2;
    gemvs[G_C128] = gemv_c128_avx2;
    gemvs[G_C64] = gemv_c64_avx2;
    gemvs[G_I64] = gemv_i64_avx2;
  }
#endif
}


/* ---- small products --------------------------------------------------------
 *
 * Below a few thousand multiply-adds, packing and spilling ragged tiles cost
 * more than the product: each row of C is computed a few vectors at a time,
 * held in registers over all of k (B's rows contiguous), else as dot
 * products.  (Accumulating into C's memory instead -- c[j] += a * b[j] --
 * measured 4-60x slower: every step reloads and stores the row.) */

#define DEFINE_SMALL_REAL(name, T, V, L, BCAST)                                          \
  MA_INLINE void name##_body(int64_t m, int64_t n, int64_t k, mat A, mat B, mat C) {       \
    for (int64_t i = 0; i < m; i++) {                                                     \
      T *c = (T *)C.p + i * C.rs;                                                         \
      const T *a = (const T *)A.p + i * A.rs;                                             \
      int64_t j = 0;                                                                      \
      if (B.cs == 1 && C.cs == 1) { /* 2L, then L columns held in registers */            \
        for (; j + 2 * L <= n; j += 2 * L) {                                              \
          V s0 = {0}, s1 = {0};                                                           \
          const T *b = (const T *)B.p + j;                                                \
          for (int64_t p = 0; p < k; p++, b += B.rs) {                                    \
            V x = BCAST(a[p * A.cs]);                                                     \
            s0 += x * LOADU(V, b);                                                        \
            s1 += x * LOADU(V, b + L);                                                    \
          }                                                                               \
          STOREU(c + j, s0);                                                              \
          STOREU(c + j + L, s1);                                                          \
        }                                                                                 \
        for (; j + L <= n; j += L) {                                                      \
          V s0 = {0};                                                                     \
          const T *b = (const T *)B.p + j;                                                \
          for (int64_t p = 0; p < k; p++, b += B.rs) s0 += BCAST(a[p * A.cs]) * LOADU(V, b); \
          STOREU(c + j, s0);                                                              \
        }                                                                                 \
      }                                                                                   \
      for (; j < n; j++) { /* leftover columns, or any strides: dot products */           \
        T acc = 0;                                                                        \
        const T *b = (const T *)B.p + j * B.cs;                                           \
        for (int64_t p = 0; p < k; p++) acc += a[p * A.cs] * b[p * B.rs];                 \
        c[j * C.cs] = acc;                                                                \
      }                                                                                   \
    }                                                                                     \
  }

/* Complex, with explicit real arithmetic; `sa` = -1 conjugates A. */
#define DEFINE_SMALL_CPLX(name, R)                                                      \
  MA_INLINE void name##_body(int64_t m, int64_t n, int64_t k, mat A, mat B, mat C,        \
                             R sa) {                                                    \
    for (int64_t i = 0; i < m; i++) {                                                   \
      R *c = (R *)C.p + 2 * i * C.rs;                                                   \
      const R *a = (const R *)A.p + 2 * i * A.rs;                                       \
      for (int64_t j = 0; j < n; j++) c[2 * j * C.cs] = c[2 * j * C.cs + 1] = 0;        \
      for (int64_t p = 0; p < k; p++) {                                                 \
        const R ar = a[2 * p * A.cs], ai = sa * a[2 * p * A.cs + 1];                    \
        const R *b = (const R *)B.p + 2 * p * B.rs;                                     \
        for (int64_t j = 0; j < n; j++) {                                               \
          R br = b[2 * j * B.cs], bi = b[2 * j * B.cs + 1];                             \
          c[2 * j * C.cs] += ar * br - ai * bi;                                         \
          c[2 * j * C.cs + 1] += ar * bi + ai * br;                                     \
        }                                                                               \
      }                                                                                 \
    }                                                                                   \
  }

DEFINE_SMALL_REAL(small_f64, double, v4d, 4, BCAST4)
DEFINE_SMALL_REAL(small_f32, float, v8f, 8, BCAST8)
DEFINE_SMALL_REAL(small_i64, uint64_t, v4u, 4, BCAST4)
DEFINE_SMALL_CPLX(small_c128, double)
DEFINE_SMALL_CPLX(small_c64, float)

typedef void (*smallfn)(int64_t m, int64_t n, int64_t k, const mat *A, const mat *B, const mat *C,
                        int conj);

#define SMALL_FN(name, suffix, attr, ...)                                                  \
  attr static void name##_##suffix(int64_t m, int64_t n, int64_t k, const mat *A,          \
                                   const mat *B, const mat *C, int conj) {                 \
    (void)conj;                                                                           \
    name##_body(m, n, k, *A, *B, *C __VA_ARGS__);                                         \
  }
#define SMALL_FNS(suffix, attr)                                                           \
  SMALL_FN(small_f64, suffix, attr)                                                       \
  SMALL_FN(small_f32, suffix, attr)                                                       \
  SMALL_FN(small_i64, suffix, attr)                                                       \
  SMALL_FN(small_c128, suffix, attr, , conj ? -1.0 : 1.0)                                 \
  SMALL_FN(small_c64, suffix, attr, , conj ? -1.0f : 1.0f)
SMALL_FNS(plain, )
#ifdef MA_X86
SMALL_FNS(avx2, AVX2)
#endif

static smallfn smalls[G_NTYPES];

static void smalls_init(void) {
  smalls[G_F64] = small_f64_plain;
  smalls[G_F32] = small_f32_plain;
  smalls[G_C128] = small_c128_plain;
  smalls[G_C64] = small_c64_plain;
  smalls[G_I64] = small_i64_plain;
#ifdef MA_X86
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) {
    smalls[G_F64] = small_f64_avx2;
    smalls[G_F32] = small_f32_avx2;
    smalls[G_C128] = small_c128_avx2;
    smalls[G_C64] = small_c64_avx2;
    smalls[G_I64] = small_i64_avx2;
  }
#endif
}

static void init_once(void) {
  impls_init();
  gemvs_init();
  smalls_init();
}

/* Products of at most this many multiply-adds take the direct path
 * (measured on Zen 4: the blocked path wins from about 20 x 20 x 20 on). */
#define MA_GEMM_SMALL 8192

/* ---- one product, any shape ---------------------------------------------- */

static void zero_matrix(int64_t m, int64_t n, mat C, size_t es) {
  for (int64_t i = 0; i < m; i++)
    for (int64_t j = 0; j < n; j++) memset(C.p + (i * C.rs + j * C.cs) * (int64_t)es, 0, es);
}

/* C = conj?(A) . B for one matrix triple.  `ws` may be NULL when no blocked
 * call is needed (vector cases). */
static void product(int gt, int64_t m, int64_t n, int64_t k, mat A, mat B, mat C, int conj,
                    workspace *ws) {
  const gemm_impl *g = &impls[gt];
  if (m == 0 || n == 0) return;
  if (k == 0) {
    zero_matrix(m, n, C, g->esize);
    return;
  }
  if (n == 1) { /* y = A . b[:, 0] */
    gemvs[gt](m, k, &A, B.p, B.rs, C.p, C.rs, conj, 0);
    return;
  }
  if (m == 1) { /* y^T = B^T . a[0, :]^T, the conjugation moves to x */
    mat Bt = {B.p, B.cs, B.rs};
    gemvs[gt](n, k, &Bt, A.p, A.cs, C.p, C.cs, 0, conj);
    return;
  }
  if ((double)m * (double)n * (double)k <= MA_GEMM_SMALL || !ws->pa) {
    smalls[gt](m, n, k, &A, &B, &C, conj);
    return;
  }
  gemm_blocked(g, m, n, k, A, B, C, conj, ws);
}

/* ---- batches and threads ------------------------------------------------- */

typedef struct {
  int gt, conj, nbatch_dims;
  int64_t m, n, k;
  const int64_t *bshape;            /* batch shape */
  const int64_t *bsa, *bsb, *bsc;   /* batch strides in elements */
  mat A, B, C;                      /* batch element 0 */
  int64_t nbatch, parts;            /* tasks = nbatch * parts */
  int split_n;                      /* parts split columns (else rows) */
  int nthreads;
  int failed;                       /* a pack buffer could not be allocated */
} job;


static void *aligned_buffer(size_t bytes) {
  void *p = NULL;
  if (bytes == 0) bytes = MA_ALIGNMENT;
  if (posix_memalign(&p, MA_ALIGNMENT, (bytes + MA_ALIGNMENT - 1) & ~(size_t)(MA_ALIGNMENT - 1)))
    return NULL;
  return p;
}

static void run_tasks(job *j, int64_t t0, int64_t t1) {
  const gemm_impl *g = &impls[j->gt];
  workspace ws = {NULL, NULL};
  int64_t es = (int64_t)g->esize;
  int64_t step_m = j->m, step_n = j->n;
  if (j->parts > 1) {
    /* even parts, in whole micro-tiles */
    if (j->split_n) {
      int64_t tiles = (j->n + g->nr - 1) / g->nr;
      step_n = ((tiles + j->parts - 1) / j->parts) * g->nr;
    } else {
      int64_t tiles = (j->m + g->mr - 1) / g->mr;
      step_m = ((tiles + j->parts - 1) / j->parts) * g->mr;
    }
  }
  if (j->m > 1 && j->n > 1 && j->k > 0 && (double)j->m * (double)j->n * (double)j->k > MA_GEMM_SMALL) {
    int64_t nn = step_n < g->nc ? step_n : g->nc;
    nn = (nn + g->nr - 1) / g->nr * g->nr;
    int64_t kk = j->k < g->kc ? j->k : g->kc;
    int64_t mm = step_m < g->mc ? step_m : g->mc;
    mm = (mm + g->mr - 1) / g->mr * g->mr;
    ws.pa = aligned_buffer((size_t)(mm * kk * es));
    ws.pb = aligned_buffer((size_t)(kk * nn * es));
    if (!ws.pa || !ws.pb) {
      free(ws.pa);
      free(ws.pb);
      __atomic_store_n(&j->failed, 1, __ATOMIC_RELAXED);
      return;
    }
  }
  if (t0 >= t1) goto done;
  /* Batch index of task t0, then an odometer: no division per task (the
   * divisions dominated batches of tiny products). */
  int64_t idx[MA_MAXDIMS];
  int64_t part = t0 % j->parts, rem = t0 / j->parts;
  char *pa = j->A.p, *pb = j->B.p, *pc = j->C.p;
  for (int d = j->nbatch_dims - 1; d >= 0; d--) {
    idx[d] = rem % j->bshape[d];
    rem /= j->bshape[d];
    pa += idx[d] * j->bsa[d] * es;
    pb += idx[d] * j->bsb[d] * es;
    pc += idx[d] * j->bsc[d] * es;
  }
  for (int64_t t = t0; t < t1; t++) {
    mat A = {pa, j->A.rs, j->A.cs}, B = {pb, j->B.rs, j->B.cs}, C = {pc, j->C.rs, j->C.cs};
    int64_t m = j->m, n = j->n, skip = 0;
    if (j->parts > 1 && j->split_n) {
      int64_t j0 = part * step_n;
      skip = j0 >= n;
      n = n - j0 < step_n ? n - j0 : step_n;
      B.p += j0 * B.cs * es;
      C.p += j0 * C.cs * es;
    } else if (j->parts > 1) {
      int64_t i0 = part * step_m;
      skip = i0 >= m;
      m = m - i0 < step_m ? m - i0 : step_m;
      A.p += i0 * A.rs * es;
      C.p += i0 * C.rs * es;
    }
    if (!skip) product(j->gt, m, n, j->k, A, B, C, j->conj, &ws);
    if (++part < j->parts) continue;
    part = 0;
    for (int d = j->nbatch_dims - 1; d >= 0; d--) {
      pa += j->bsa[d] * es;
      pb += j->bsb[d] * es;
      pc += j->bsc[d] * es;
      if (++idx[d] < j->bshape[d]) break;
      pa -= j->bsa[d] * j->bshape[d] * es;
      pb -= j->bsb[d] * j->bshape[d] * es;
      pc -= j->bsc[d] * j->bshape[d] * es;
      idx[d] = 0;
    }
  }
done:
  free(ws.pa);
  free(ws.pb);
}

/* Chunk i of the pool job: an equal share of the tasks. */
static void run_chunk(void *ctx, int64_t i) {
  job *j = (job *)ctx;
  int64_t t0, t1;
  ma_chunk_range(j->nbatch * j->parts, j->nthreads, i, &t0, &t1);
  run_tasks(j, t0, t1);
}

/* Below this many multiply-adds per thread, handing work to the pool costs
 * more than it saves. */
#define MA_GEMM_MIN_WORK_PER_THREAD (1 << 20)

/* Multiply-adds from which one matrix-vector product goes to BLAS. */
#define MA_GEMV_BLAS_MIN 65536

/* Every product of the job through BLAS ?gemm, one after another on this
 * thread: OpenBLAS splits each over its own threads, whose count follows
 * ma.set_num_threads, so the two pools never run at once.  Returns 0, or
 * -1 (nothing written) when the job is not one for BLAS (see the top of
 * this file) or no library is loaded. */
static int run_blas(job *j) {
  static const int la_type[G_NTYPES] = {[G_F64] = MA_LA_F64, [G_F32] = MA_LA_F32,
                                        [G_C128] = MA_LA_C128, [G_C64] = MA_LA_C64,
                                        [G_I64] = -1};
  int t = la_type[j->gt];
  if (t < 0 || j->k < 1 || (j->m < 2 && j->n < 2) || !ma_blas_loaded()) return -1;
  /* Matrix-vector products (?gemv) only when each is large enough that a
   * call per product costs nothing; small ones stay on the own kernel. */
  if ((j->m < 2 || j->n < 2) && (double)j->m * (double)j->n * (double)j->k < MA_GEMV_BLAS_MIN) return -1;
  /* Stacks of small products: the own kernel, split over the batch. */
  if (j->nbatch > 1 && (double)j->m * (double)j->n * (double)j->k <= MA_GEMM_SMALL) return -1;
  int64_t es = (int64_t)impls[j->gt].esize;
  for (int64_t b = 0; b < j->nbatch; b++) {
    char *pa = j->A.p, *pb = j->B.p, *pc = j->C.p;
    int64_t rem = b;
    for (int d = j->nbatch_dims - 1; d >= 0; d--) {
      int64_t i = rem % j->bshape[d];
      rem /= j->bshape[d];
      pa += i * j->bsa[d] * es;
      pb += i * j->bsb[d] * es;
      pc += i * j->bsc[d] * es;
    }
    /* Every item has the same strides: only the first can be refused. */
    if (ma_blas_gemm(t, j->m, j->n, j->k, pa, j->A.rs, j->A.cs, pb, j->B.rs, j->B.cs, pc, j->C.rs,
                     j->C.cs, j->conj) != 0)
      return -1;
  }
  return 0;
}

/* Returns 0, or -2 when out of memory. */
static int run_job(job *j) {
  if (run_blas(j) == 0) return 0;
  double work = (double)j->nbatch * (double)j->m * (double)j->n * (double)(j->k ? j->k : 1);
  int64_t nt = ma_get_num_threads();
  if (work / MA_GEMM_MIN_WORK_PER_THREAD < (double)nt) nt = (int64_t)(work / MA_GEMM_MIN_WORK_PER_THREAD);
  if (nt < 1) nt = 1;
  /* Split each product only when the batch alone cannot feed the threads;
   * vector products are memory-bound and stay whole. */
  j->parts = 1;
  j->split_n = j->n >= j->m;
  if (j->nbatch < nt && j->m > 1 && j->n > 1) j->parts = (nt + j->nbatch - 1) / j->nbatch;
  int64_t tasks = j->nbatch * j->parts;
  if (nt > tasks) nt = tasks;
  j->nthreads = (int)nt;
  j->failed = 0;
  if (nt <= 1)
    run_tasks(j, 0, tasks);
  else
    ma_parallel_for(nt, run_chunk, j);
  return j->failed ? -2 : 0;
}

static int gemm_type(int tid) {
  switch (tid) {
    case MA_FLOAT64: return G_F64;
    case MA_FLOAT32: return G_F32;
    case MA_COMPLEX128: return G_C128;
    case MA_COMPLEX64: return G_C64;
    case MA_INT64:
    case MA_UINT64: return G_I64;
  }
  return -1;
}


int ma_matmul_type_ok(int tid) { return gemm_type(tid) >= 0; }

unsigned ma_matmul(const ma_array *a, const ma_array *b, ma_array *c, int conj, int *failed) {
  int nd = c->t.ndim, gt = gemm_type(ma_type_of(a->t.dtype));
  int64_t bsa[MA_MAXDIMS], bsb[MA_MAXDIMS], nbatch = 1;
  for (int d = 0; d < nd - 2; d++) {
    nbatch *= c->t.shape[d];
    bsa[d] = a->t.shape[d] == 1 ? 0 : a->t.strides[d];
    bsb[d] = b->t.shape[d] == 1 ? 0 : b->t.strides[d];
  }
  pthread_once(&impls_once, init_once);
  job j = {
      .gt = gt, .conj = conj && (gt == G_C128 || gt == G_C64), .nbatch_dims = nd - 2,
      .m = c->t.shape[nd - 2], .n = c->t.shape[nd - 1], .k = a->t.shape[nd - 1],
      .bshape = c->t.shape, .bsa = bsa, .bsb = bsb, .bsc = c->t.strides,
      .A = {(char *)a->t.data, a->t.strides[nd - 2], a->t.strides[nd - 1]},
      .B = {(char *)b->t.data, b->t.strides[nd - 2], b->t.strides[nd - 1]},
      .C = {(char *)c->t.data, c->t.strides[nd - 2], c->t.strides[nd - 1]},
      .nbatch = nbatch,
  };
  /* The flags as NumPy reads them around its BLAS call: this thread's, and
   * those of minarray's own kernel's pool threads (ma_parallel_for carries
   * them back); OpenBLAS's threads keep theirs, in NumPy as here. */
  ma_fpe_clear();
  *failed = run_job(&j) != 0;
  unsigned fpe = ma_fpe_read();
  /* integer products wrap without a flag; a float one's are NumPy's */
  return gt == G_I64 ? 0 : fpe;
}
