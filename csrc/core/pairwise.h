/*
 * Contiguous float32/float64 sums in NumPy's pairwise order (see
 * pairwise.c), with SIMD kernels for the leaves of the summation tree.
 * The generated reduction kernels (gen_reduce.py) call these for the
 * contiguous runs of sum and mean; the result has the bits of the generic
 * pairwise code, whichever instruction set runs.
 */
#ifndef MINARRAY_PAIRWISE_H
#define MINARRAY_PAIRWISE_H

#include <stdint.h>

/* a[0] + ... + a[n-1] in NumPy's pairwise order, n >= 0 (0 for n == 0). */
double ma_pairwise_sum_f64(const double *a, int64_t n);
float ma_pairwise_sum_f32(const float *a, int64_t n);

#endif
