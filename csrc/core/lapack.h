/*
 * Batched LAPACK drivers: one call computes a factorisation (or solve, or
 * decomposition) of every matrix in a stack.
 *
 * Each input is a view: element pointer, batch stride, row stride and column
 * stride, all in elements, so transposed and sliced stacks are read where
 * they lie.  Each matrix is copied into a column-major (Fortran-order)
 * workspace, LAPACK works there, and results are written C-contiguous
 * ((batch, rows, cols) in row-major order) into outputs the caller
 * allocated.  The input is never written.
 *
 * Return value: 0; MA_LA_NOMEM when a workspace could not be allocated;
 * MA_LA_FAILED when LAPACK reported a numerical failure (singular matrix,
 * not positive definite, no convergence): then info[0] is the batch index
 * and info[1] LAPACK's INFO for it, and the remaining outputs are
 * unspecified.  MA_LA_NOLIB when no library is loaded.
 *
 * Types are MA_LA_F32/F64/C64/C128 (blas.h).  "real" outputs (eigenvalues
 * of eigh, singular values, log|det|) have the real type of that precision.
 */
#ifndef MINARRAY_CORE_LAPACK_H
#define MINARRAY_CORE_LAPACK_H

#include <stdint.h>

/* cdef-begin: declarations handed to cffi verbatim. */

enum { MA_LA_OK = 0, MA_LA_NOMEM = -1, MA_LA_FAILED = -2, MA_LA_NOLIB = -3 };

/* sign and log|det| of each n x n matrix (LU: ?getrf); det (may be NULL)
 * gets sign * exp(log|det|).  Never fails numerically: a singular matrix
 * has sign 0 and log|det| -inf. */
int ma_la_slogdet(int t, int64_t nb, int64_t n, const void *a, int64_t abst, int64_t ars,
                  int64_t acs, void *sign, void *logabs, void *det);

/* x = a^-1 b for n x n a and n x nrhs b (?gesv); b NULL means the identity
 * (nrhs = n): the inverse. */
int ma_la_solve(int t, int64_t nb, int64_t n, int64_t nrhs, const void *a, int64_t abst,
                int64_t ars, int64_t acs, const void *b, int64_t bbst, int64_t brs, int64_t bcs,
                void *x, int64_t *info);

/* The Cholesky factor (?potrf): lower L with a = L L^H, or upper U = L^H;
 * the other triangle is zero. */
int ma_la_cholesky(int t, int64_t nb, int64_t n, const void *a, int64_t abst, int64_t ars,
                   int64_t acs, int upper, void *out, int64_t *info);

/* Eigenvalues w (ascending, real) and, when v is not NULL, orthonormal
 * eigenvectors as columns of v, of Hermitian matrices given by their lower
 * triangle (?syevd / ?heevd). */
int ma_la_eigh(int t, int64_t nb, int64_t n, const void *a, int64_t abst, int64_t ars,
               int64_t acs, void *w, void *v, int64_t *info);

/* Eigenvalues w and, when v is not NULL, right eigenvectors (columns of v,
 * unit 2-norm) of general matrices (?geev).  w and v are complex of the
 * input's precision, also for real input. */
int ma_la_eig(int t, int64_t nb, int64_t n, const void *a, int64_t abst, int64_t ars,
              int64_t acs, void *w, void *v, int64_t *info);

/* Singular values s (descending, real) of m x n matrices and, when u is
 * not NULL, the singular vectors (?gesdd): u m x m and vt n x n when full,
 * else m x k and k x n with k = min(m, n). */
int ma_la_svd(int t, int64_t nb, int64_t m, int64_t n, const void *a, int64_t abst, int64_t ars,
              int64_t acs, int full, void *s, void *u, void *vt, int64_t *info);

/* QR (?geqrf, then ?orgqr / ?ungqr): q m x m and r m x n when complete,
 * else q m x k and r k x n with k = min(m, n). */
int ma_la_qr(int t, int64_t nb, int64_t m, int64_t n, const void *a, int64_t abst, int64_t ars,
             int64_t acs, int complete, void *q, void *r, int64_t *info);

/* Least squares for one m x n a and m x nrhs b (?gelsd): x n x nrhs, the
 * singular values s (min(m, n)), the rank, and resid (nrhs, real): the sums
 * of squared residuals, filled only when rank == n < m. */
int ma_la_lstsq(int t, int64_t m, int64_t n, int64_t nrhs, const void *a, int64_t ars,
                int64_t acs, const void *b, int64_t brs, int64_t bcs, double rcond, void *x,
                void *resid, void *s, int64_t *rank, int64_t *info);

/* cdef-end */

#endif
