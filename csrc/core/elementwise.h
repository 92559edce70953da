/*
 * The elementwise engine: generated inner loops (csrc/core/gen/gen_elementwise.py)
 * described by signature tables, run through ma_iterate by csrc/py/elementwise_dispatch.c.
 */
#ifndef MINARRAY_ELEMENTWISE_H
#define MINARRAY_ELEMENTWISE_H

#include "fpe.h"
#include "iterate.h"

/* One inner loop of an operation: inputs of types in[0..nin) (the loop
 * type, or bool for where's condition) and an output of type `out`.  The
 * loop's `aux` is an int* error flag that a loop sets to report a domain
 * error (integer power with a negative exponent). */
typedef struct {
  ma_loop loop;
  int type; /* the loop type: an ma_type, or MA_NTYPES + k for special
              * mixed loops (int64 vs uint64 comparisons: k = 0 for
              * (int64, uint64), 1 for (uint64, int64)) */
  int out;
  int in[3];
} ma_ew_sig;

/* Operand keys of the dispatch tables: an array's ma_type, or the kind of
 * a Python scalar (weak: NEP 50, and the standard's "mixing arrays with
 * Python scalars"). */
enum { MA_EW_KEY_BOOL = MA_NTYPES, MA_EW_KEY_INT, MA_EW_KEY_FLOAT, MA_EW_KEY_COMPLEX, MA_EW_NKEYS };
/* Entries of a resolve table that are not signature indices. */
enum { MA_EW_NO_LOOP = -1, MA_EW_NO_BOOL = -2 };
/* Comparison operations (ma_ew_op.compare). */
enum { MA_EW_EQ = 1, MA_EW_NE, MA_EW_LT, MA_EW_LE, MA_EW_GT, MA_EW_GE };

typedef struct {
  const char *name;
  int nin;
  int nsigs;
  const ma_ew_sig *sigs;
  int heavy; /* costs ~1 ns or more per element (exp, sin, pow...): worth
                threads from fewer elements (see ew_parallel_min) */
  /* Which loop runs, resolved at build time from the promotion rules
   * (gen_elementwise.py): the index into `sigs` for operand keys k1 (unary:
   * resolve[k1]) or k1, k2 (binary, and where's two values:
   * resolve[k1 * MA_EW_NKEYS + k2]), or MA_EW_NO_LOOP / MA_EW_NO_BOOL. */
  const int8_t *resolve;
  const char *no_bool; /* NumPy's words refusing bool operands, or NULL */
  int compare;         /* MA_EW_EQ... for comparisons, else 0 */
  unsigned fpe;        /* the floating-point flags (fpe.h) it reports */
} ma_ew_op;

/* The flags loop `sig` of `op` reports: the op's own, and for an ordered
 * comparison of complex values the invalid flag too.  A NaN raises that
 * flag in any ordered comparison (hardware's rule); NumPy warns of it for
 * complex values ("invalid value encountered in less"), never for real
 * ones. */
static inline unsigned ma_ew_fpe(const ma_ew_op *op, const ma_ew_sig *sig) {
  int complex_order = op->compare >= MA_EW_LT && sig->type < MA_NTYPES && ma_type_kind[sig->type] == 'c';
  return op->fpe | (complex_order ? (unsigned)MA_FPE_INVALID : 0u);
}

extern const ma_ew_op ma_ew_ops[];
extern const int ma_ew_nops;
/* The dtype two operand keys promote to (-1 for two Python scalars), for
 * error messages. */
extern const int8_t ma_ew_common[MA_EW_NKEYS][MA_EW_NKEYS];
/* NumPy's casting="same_kind" from one ma_type to another: what out= and
 * the in-place operators accept. */
extern const uint8_t ma_same_kind[MA_NTYPES][MA_NTYPES];

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

int ma_vecmath_float32(int fn, float *d, const float *s, int64_t n, int exact);
int ma_vecmath_float64(int fn, double *d, const double *s, int64_t n, int exact);

/* Binary functions: d[i] = f(a[i * sa], b[i * sb]) with sa, sb 1 (contiguous)
 * or 0 (a broadcast scalar). */
#define MA_VM2_LIST(X) X(POW, pow) X(ATAN2, atan2) X(HYPOT, hypot)
#define MA_VM2_ENUM(E, n) MA_VM2_##E,
enum { MA_VM2_LIST(MA_VM2_ENUM) MA_VM2_COUNT };
#undef MA_VM2_ENUM

int ma_vecmath2_float32(int fn, float *d, const float *a, int64_t sa, const float *b, int64_t sb,
                        int64_t n, int exact);
int ma_vecmath2_float64(int fn, double *d, const double *a, int64_t sa, const double *b, int64_t sb,
                        int64_t n, int exact);

/* What an elementwise loop's `aux` points to (csrc/py/elementwise_dispatch.c
 * passes one per call, NULL is allowed):
 *   err    set by a loop that meets a domain error (ma_set_error);
 *   exact  whether the floating-point flags must come out exact (fpe.h).
 * libmvec raises flags the function does not (see vecmath.c); with
 * `exact` the vector functions re-derive them, which costs two reads of
 * the flags per call.  A caller that can run the loop again (its inputs
 * untouched by the output) passes exact = 0, and when it then finds any
 * flag set, runs the loop again with exact = 1. */
typedef struct {
  int err;
  int exact;
} ma_ew_aux;
#define MA_EW_EXACT(aux) (!(aux) || ((const ma_ew_aux *)(aux))->exact)

#endif
