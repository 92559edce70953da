/*
 * The smallest and largest element of a contiguous float32/float64 run,
 * for the reductions' min and max (gen_reduce.py calls these for
 * contiguous runs).  NumPy's rule: a NaN anywhere makes the result NaN.
 */
#ifndef MINARRAY_EXTREMA_H
#define MINARRAY_EXTREMA_H

#include <stdint.h>

/* The extreme of `init` and a[0..n): each element x replaces the running
 * r when x > r (max) or x < r (min), as the reductions' strided loops do,
 * so which of two equal zeros is kept is the same whatever the layout;
 * NaN if `init` or any element is NaN. */
double ma_max_f64(const double *a, int64_t n, double init);
double ma_min_f64(const double *a, int64_t n, double init);
float ma_max_f32(const float *a, int64_t n, float init);
float ma_min_f32(const float *a, int64_t n, float init);

#endif
