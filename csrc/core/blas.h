/*
 * BLAS and LAPACK from a shared library loaded at run time.
 *
 * minarray does not link against a BLAS when it is built: the library comes
 * from the scipy-openblas64 wheel (OpenBLAS with 64-bit LAPACK integers, the
 * same build NumPy ships), which Python locates and hands to ma_blas_load().
 * Loading by path keeps the build free of link flags and rpaths, and lets an
 * editable checkout and an installed wheel find the library the same way.
 *
 * Symbols are renamed by the wheel: `prefix + name + suffix`, e.g.
 * "scipy_" "dgemm_" "64_" for the Fortran routine dgemm_ and "scipy_"
 * "openblas_set_num_threads" "64_" for OpenBLAS's C function.  Integers are 64-bit (ILP64), so
 * no dimension is limited to 2^31.  Character arguments carry gfortran's
 * hidden length arguments at the end of each call.
 *
 * Plain C, as all of csrc/core: csrc/core/gemm.c and csrc/core/lapack.c call it.
 */
#ifndef MINARRAY_CORE_BLAS_H
#define MINARRAY_CORE_BLAS_H

#include <stddef.h>
#include <stdint.h>

/* cdef-begin: declarations handed to cffi verbatim. */

/* The four LAPACK element types, in LAPACK's prefix order s, d, c, z. */
enum { MA_LA_F32 = 0, MA_LA_F64 = 1, MA_LA_C64 = 2, MA_LA_C128 = 3 };

/* Open the library at `path` and resolve every routine minarray calls.
 * Returns 0, or -1 (and nothing loaded) when the library cannot be opened
 * or lacks a symbol; ma_blas_error() then says which. */
int ma_blas_load(const char *path, const char *prefix, const char *suffix);
int ma_blas_loaded(void);
const char *ma_blas_error(void);
/* Give OpenBLAS minarray's thread count (ma_get_num_threads(), read here):
 * waits until no BLAS/LAPACK call is in flight in any thread, and calls
 * that start meanwhile wait for it (see ma_blas_enter).  OpenBLAS caps the
 * count at its build's MAX_THREADS.  No-op when not loaded.  Never call it
 * inside an in-flight call: it would wait for itself. */
void ma_blas_sync_threads(void);
/* OpenBLAS's own thread count (openblas_get_num_threads); 0 when not loaded. */
int ma_blas_get_num_threads(void);
/* OpenBLAS's build description and the kernel family chosen for this CPU. */
const char *ma_blas_config(void);
const char *ma_blas_corename(void);

/* cdef-end */

typedef int64_t ma_int; /* the LAPACK integer of an ILP64 build */

/* Fortran-ABI pointer types.  Element arrays are void *: one pointer type
 * serves s, d, c and z. */
typedef void (*ma_gemm_fn)(const char *ta, const char *tb, const ma_int *m, const ma_int *n,
                           const ma_int *k, const void *alpha, const void *a, const ma_int *lda,
                           const void *b, const ma_int *ldb, const void *beta, void *c,
                           const ma_int *ldc, size_t, size_t);
typedef void (*ma_gemv_fn)(const char *trans, const ma_int *m, const ma_int *n, const void *alpha,
                           const void *a, const ma_int *lda, const void *x, const ma_int *incx,
                           const void *beta, void *y, const ma_int *incy, size_t);
typedef void (*ma_getrf_fn)(const ma_int *m, const ma_int *n, void *a, const ma_int *lda,
                            ma_int *ipiv, ma_int *info);
typedef void (*ma_gesv_fn)(const ma_int *n, const ma_int *nrhs, void *a, const ma_int *lda,
                           ma_int *ipiv, void *b, const ma_int *ldb, ma_int *info);
typedef void (*ma_potrf_fn)(const char *uplo, const ma_int *n, void *a, const ma_int *lda,
                            ma_int *info, size_t);
typedef void (*ma_syevd_fn)(const char *jobz, const char *uplo, const ma_int *n, void *a,
                            const ma_int *lda, void *w, void *work, const ma_int *lwork,
                            ma_int *iwork, const ma_int *liwork, ma_int *info, size_t, size_t);
typedef void (*ma_heevd_fn)(const char *jobz, const char *uplo, const ma_int *n, void *a,
                            const ma_int *lda, void *w, void *work, const ma_int *lwork,
                            void *rwork, const ma_int *lrwork, ma_int *iwork,
                            const ma_int *liwork, ma_int *info, size_t, size_t);
typedef void (*ma_geev_real_fn)(const char *jobvl, const char *jobvr, const ma_int *n, void *a,
                                const ma_int *lda, void *wr, void *wi, void *vl,
                                const ma_int *ldvl, void *vr, const ma_int *ldvr, void *work,
                                const ma_int *lwork, ma_int *info, size_t, size_t);
typedef void (*ma_geev_cplx_fn)(const char *jobvl, const char *jobvr, const ma_int *n, void *a,
                                const ma_int *lda, void *w, void *vl, const ma_int *ldvl,
                                void *vr, const ma_int *ldvr, void *work, const ma_int *lwork,
                                void *rwork, ma_int *info, size_t, size_t);
typedef void (*ma_gesdd_real_fn)(const char *jobz, const ma_int *m, const ma_int *n, void *a,
                                 const ma_int *lda, void *s, void *u, const ma_int *ldu,
                                 void *vt, const ma_int *ldvt, void *work, const ma_int *lwork,
                                 ma_int *iwork, ma_int *info, size_t);
typedef void (*ma_gesdd_cplx_fn)(const char *jobz, const ma_int *m, const ma_int *n, void *a,
                                 const ma_int *lda, void *s, void *u, const ma_int *ldu,
                                 void *vt, const ma_int *ldvt, void *work, const ma_int *lwork,
                                 void *rwork, ma_int *iwork, ma_int *info, size_t);
typedef void (*ma_geqrf_fn)(const ma_int *m, const ma_int *n, void *a, const ma_int *lda,
                            void *tau, void *work, const ma_int *lwork, ma_int *info);
typedef void (*ma_orgqr_fn)(const ma_int *m, const ma_int *n, const ma_int *k, void *a,
                            const ma_int *lda, const void *tau, void *work, const ma_int *lwork,
                            ma_int *info);
typedef void (*ma_gelsd_real_fn)(const ma_int *m, const ma_int *n, const ma_int *nrhs, void *a,
                                 const ma_int *lda, void *b, const ma_int *ldb, void *s,
                                 const void *rcond, ma_int *rank, void *work,
                                 const ma_int *lwork, ma_int *iwork, ma_int *info);
typedef void (*ma_gelsd_cplx_fn)(const ma_int *m, const ma_int *n, const ma_int *nrhs, void *a,
                                 const ma_int *lda, void *b, const ma_int *ldb, void *s,
                                 const void *rcond, ma_int *rank, void *work,
                                 const ma_int *lwork, void *rwork, ma_int *iwork, ma_int *info);

/* The resolved routines, indexed by MA_LA_* type.  Real-only and
 * complex-only families fill the two entries that exist. */
typedef struct {
  ma_gemm_fn gemm[4];
  ma_gemv_fn gemv[4];
  ma_getrf_fn getrf[4];
  ma_gesv_fn gesv[4];
  ma_potrf_fn potrf[4];
  ma_syevd_fn syevd[2];       /* s, d */
  ma_heevd_fn heevd[4];       /* c, z at [2], [3] */
  ma_geev_real_fn geev_r[2];
  ma_geev_cplx_fn geev_c[4];
  ma_gesdd_real_fn gesdd_r[2];
  ma_gesdd_cplx_fn gesdd_c[4];
  ma_geqrf_fn geqrf[4];
  ma_orgqr_fn orgqr[4];       /* orgqr for s, d; ungqr for c, z */
  ma_gelsd_real_fn gelsd_r[2];
  ma_gelsd_cplx_fn gelsd_c[4];
} ma_lapack_table;

/* NULL until ma_blas_load() succeeded; then never changes. */
const ma_lapack_table *ma_lapack(void);

/* Every call into the library is bracketed by ma_blas_enter() and
 * ma_blas_leave() (MA_BLAS_CALL does both): openblas_set_num_threads must
 * not run while a BLAS call is running in another thread -- it rebuilds the
 * state OpenBLAS's threaded level-3 driver is using, and the process
 * deadlocks.  The bracket is a reader/writer lock with the writer
 * preferred: any number of calls run at once; ma_blas_sync_threads waits
 * until none is in flight, and calls that start meanwhile wait for it, so
 * a stream of products cannot keep it out.  Two uncontended mutex
 * operations per call, against the microseconds a call takes at the
 * smallest sizes minarray sends to BLAS.  Brackets never nest, and the
 * thread inside one never needs the GIL. */
void ma_blas_enter(void);
void ma_blas_leave(void);
#define MA_BLAS_CALL(...) \
  do {                    \
    ma_blas_enter();      \
    __VA_ARGS__;          \
    ma_blas_leave();      \
  } while (0)

/* Element size of a MA_LA_* type, and whether it is complex. */
static inline size_t ma_la_esize(int t) {
  return t == MA_LA_F32 ? 4 : t == MA_LA_C128 ? 16 : 8;
}
static inline int ma_la_complex(int t) { return t >= MA_LA_C64; }

/* C = op(A) . B with BLAS ?gemm (?gemv when m or n is 1), A m x k, B k x n,
 * C m x n, strides in elements; conj_a conjugates A.  Returns 0 when done, -1 (nothing
 * written) when BLAS is not loaded or a layout is not one gemm can read
 * (each matrix needs one unit stride and a leading dimension that does not
 * overlap rows): the caller then uses its own kernel. */
int ma_blas_gemm(int type, int64_t m, int64_t n, int64_t k, const void *a, int64_t rsa,
                 int64_t csa, const void *b, int64_t rsb, int64_t csb, void *c, int64_t rsc,
                 int64_t csc, int conj_a);

#endif
