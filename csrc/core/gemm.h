/*
 * Matrix multiplication over broadcast batches: the one place that chooses
 * how a product is computed (BLAS ?gemm/?gemv, or the own packed,
 * cache-blocked kernel with AVX2+FMA micro-kernels chosen at run time),
 * behind matmul, @, tensordot, vecdot and outer.  gemm.c's comment says
 * which path takes which product.  Plain C, called without the GIL by
 * csrc/py/linalg.c, which checks the operands first.
 */
#ifndef MINARRAY_GEMM_H
#define MINARRAY_GEMM_H

#include "array.h"

/* Whether the kernels take operands of this kernel type: float64, float32,
 * complex128, complex64, int64 or uint64 (minarray/_linear_algebra.py casts the
 * others to these). */
int ma_matmul_type_ok(int tid);

/* c[..., m, n] = conj?(a)[..., m, k] . b[..., k, n] (conj only changes
 * complex operands).  The caller has checked what memory safety needs: one
 * dtype the kernels take, one ndim >= 2, matching core dimensions, a's and
 * b's batch dimensions equal to c's or 1 (broadcast), c writeable.  Returns
 * the floating-point flags (fpe.h) the product raised, as NumPy reads them
 * around its BLAS call (0 for integer products, which wrap); *failed is set
 * when a pack buffer could not be allocated. */
unsigned ma_matmul(const ma_array *a, const ma_array *b, ma_array *c, int conj, int *failed);

#endif
