/*
 * The elementwise engine: generated inner loops (csrc/core/gen/gen_elementwise.py)
 * described by signature tables, run through ma_iterate by csrc/py/elementwise.c.
 */
#ifndef MINARRAY_ELEMENTWISE_H
#define MINARRAY_ELEMENTWISE_H

#include "iterate.h"

/* One inner loop of an operation: inputs of types in[0..nin) (the loop
 * type, or bool for where's condition) and an output of type `out`.  The
 * loop's `aux` is an int* error flag that a loop sets to report a domain
 * error (integer power with a negative exponent). */
typedef struct {
  ma_loop loop;
  int type; /* the loop type the Python layer selects it by: an ma_type, or
              * MA_NTYPES + k for special mixed loops (int64 vs uint64
              * comparisons: k = 0 for (int64, uint64), 1 for (uint64, int64)) */
  int out;
  int in[3];
} ma_ew_sig;

typedef struct {
  const char *name;
  int nin;
  int nsigs;
  const ma_ew_sig *sigs;
  int heavy; /* costs ~1 ns or more per element (exp, sin, pow...): worth
                threads from fewer elements (see ew_parallel_min) */
} ma_ew_op;

extern const ma_ew_op ma_ew_ops[];
extern const int ma_ew_nops;

/* Vectorised libm (glibc's libmvec, looked up at run time) for contiguous
 * float32/float64 data.  Each returns 1 when it wrote d[0..n), 0 when the
 * caller must use its scalar loop (no libmvec, or no AVX2 on this CPU). */
#define MA_VM_LIST(X)                                                          \
  X(EXP, exp) X(EXPM1, expm1) X(LOG, log) X(LOG1P, log1p) X(LOG2, log2)        \
  X(LOG10, log10) X(SIN, sin) X(COS, cos) X(TAN, tan) X(ASIN, asin)            \
  X(ACOS, acos) X(ATAN, atan) X(SINH, sinh) X(COSH, cosh) X(TANH, tanh)        \
  X(ASINH, asinh) X(ACOSH, acosh) X(ATANH, atanh)
#define MA_VM_ENUM(E, n) MA_VM_##E,
enum { MA_VM_LIST(MA_VM_ENUM) MA_VM_COUNT };
#undef MA_VM_ENUM

int ma_vecmath_float32(int fn, float *d, const float *s, int64_t n);
int ma_vecmath_float64(int fn, double *d, const double *s, int64_t n);

/* Binary functions: d[i] = f(a[i * sa], b[i * sb]) with sa, sb 1 (contiguous)
 * or 0 (a broadcast scalar). */
#define MA_VM2_LIST(X) X(POW, pow) X(ATAN2, atan2) X(HYPOT, hypot)
#define MA_VM2_ENUM(E, n) MA_VM2_##E,
enum { MA_VM2_LIST(MA_VM2_ENUM) MA_VM2_COUNT };
#undef MA_VM2_ENUM

int ma_vecmath2_float32(int fn, float *d, const float *a, int64_t sa, const float *b, int64_t sb,
                        int64_t n);
int ma_vecmath2_float64(int fn, double *d, const double *a, int64_t sa, const double *b, int64_t sb,
                        int64_t n);

#endif
