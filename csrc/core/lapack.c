/*
 * The batched LAPACK drivers declared in lapack.h.
 *
 * Every driver has the same shape: check the library, ask LAPACK for its
 * optimal workspace once (LWORK = -1; all matrices of a stack have one
 * size), allocate, then for each matrix copy it into a Fortran-order
 * workspace, call the routine, and write the results out in C order.
 * The loop over the stack runs on the calling thread; OpenBLAS splits
 * each call over its own threads (see minarray/_threads.py).  Every call
 * into the library goes through MA_BLAS_CALL, so the thread count is never
 * changed under it (blas.h).
 */
#include "lapack.h"

#include <complex.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "blas.h"

typedef struct {
  const char *p;
  int64_t bs, rs, cs; /* strides in elements */
} view;

/* w (column-major, leading dimension ld) = matrix b of v, r x c. */
static void load(char *w, int64_t ld, view v, int64_t b, int64_t r, int64_t c, size_t es) {
  const char *base = v.p + (ptrdiff_t)(b * v.bs) * (ptrdiff_t)es;
  for (int64_t j = 0; j < c; j++)
    for (int64_t i = 0; i < r; i++)
      memcpy(w + (size_t)(i + j * ld) * es, base + (ptrdiff_t)(i * v.rs + j * v.cs) * (ptrdiff_t)es, es);
}

/* out (C order, r x c) = the column-major r x c matrix at w. */
static void store(char *out, const char *w, int64_t ld, int64_t r, int64_t c, size_t es) {
  for (int64_t i = 0; i < r; i++)
    for (int64_t j = 0; j < c; j++)
      memcpy(out + (size_t)(i * c + j) * es, w + (size_t)(i + j * ld) * es, es);
}

/* LAPACK's optimal LWORK from a workspace query: the real part of work[0]. */
static ma_int query(int t, const void *work) {
  double v = (t == MA_LA_F32 || t == MA_LA_C64) ? (double)*(const float *)work : *(const double *)work;
  return v < 1 ? 1 : (ma_int)v;
}

static size_t real_size(int t) { return (t == MA_LA_F32 || t == MA_LA_C64) ? 4 : 8; }

static void *alloc(size_t n, size_t es) { return malloc((n ? n : 1) * es); }

static int fail(int64_t *info, int64_t b, ma_int code) {
  info[0] = b;
  info[1] = code;
  return MA_LA_FAILED;
}

/* ---- determinants (?getrf) ---------------------------------------------- */

int ma_la_slogdet(int t, int64_t nb, int64_t n, const void *a, int64_t abst, int64_t ars,
                  int64_t acs, void *sign, void *logabs, void *det) {
  const ma_lapack_table *L = ma_lapack();
  if (!L) return MA_LA_NOLIB;
  size_t es = ma_la_esize(t);
  view v = {a, abst, ars, acs};
  char *w = alloc((size_t)(n * n), es);
  ma_int *ipiv = alloc((size_t)n, sizeof(ma_int));
  if (!w || !ipiv) {
    free(w);
    free(ipiv);
    return MA_LA_NOMEM;
  }
  ma_int N = n, info = 0;
  for (int64_t b = 0; b < nb; b++) {
    load(w, n, v, b, n, n, es);
    if (n > 0) MA_BLAS_CALL(L->getrf[t](&N, &N, w, &N, ipiv, &info));
    /* Accumulate in double (complex double): one rounding per factor. */
    double complex ph = 1.0;
    double la = 0.0;
    if (info > 0) { /* an exactly zero pivot: singular */
      ph = 0.0;
      la = -INFINITY;
    } else {
      for (int64_t i = 0; i < n; i++) {
        if (ipiv[i] != i + 1) ph = -ph; /* each row swap flips the sign */
        size_t at = (size_t)(i + i * n);
        double complex d;
        switch (t) {
          case MA_LA_F32: d = ((float *)w)[at]; break;
          case MA_LA_F64: d = ((double *)w)[at]; break;
          case MA_LA_C64: d = ((float complex *)w)[at]; break;
          default: d = ((double complex *)w)[at]; break;
        }
        double ad = cabs(d);
        /* NaN pivots make NaN results, as NumPy's */
        ph = (t == MA_LA_F32 || t == MA_LA_F64) ? (creal(d) < 0 ? -ph : ph) : ph * (d / ad);
        la += log(ad);
      }
    }
    double complex dt = ph * exp(la);
    switch (t) {
      case MA_LA_F32:
        ((float *)sign)[b] = (float)creal(ph);
        ((float *)logabs)[b] = (float)la;
        if (det) ((float *)det)[b] = (float)creal(dt);
        break;
      case MA_LA_F64:
        ((double *)sign)[b] = creal(ph);
        ((double *)logabs)[b] = la;
        if (det) ((double *)det)[b] = creal(dt);
        break;
      case MA_LA_C64:
        ((float complex *)sign)[b] = (float complex)ph;
        ((float *)logabs)[b] = (float)la;
        if (det) ((float complex *)det)[b] = (float complex)dt;
        break;
      default:
        ((double complex *)sign)[b] = ph;
        ((double *)logabs)[b] = la;
        if (det) ((double complex *)det)[b] = dt;
        break;
    }
  }
  free(w);
  free(ipiv);
  return MA_LA_OK;
}

/* ---- linear systems (?gesv) --------------------------------------------- */

int ma_la_solve(int t, int64_t nb, int64_t n, int64_t nrhs, const void *a, int64_t abst,
                int64_t ars, int64_t acs, const void *b, int64_t bbst, int64_t brs, int64_t bcs,
                void *x, int64_t *info) {
  const ma_lapack_table *L = ma_lapack();
  if (!L) return MA_LA_NOLIB;
  size_t es = ma_la_esize(t);
  view va = {a, abst, ars, acs}, vb = {b, bbst, brs, bcs};
  char *w = alloc((size_t)(n * n), es), *wb = alloc((size_t)(n * nrhs), es);
  ma_int *ipiv = alloc((size_t)n, sizeof(ma_int));
  int rc = MA_LA_OK;
  if (!w || !wb || !ipiv) {
    rc = MA_LA_NOMEM;
    goto out;
  }
  ma_int N = n, R = nrhs, ld = n > 1 ? n : 1, st = 0;
  for (int64_t k = 0; k < nb; k++) {
    load(w, ld, va, k, n, n, es);
    if (b) {
      load(wb, ld, vb, k, n, nrhs, es);
    } else { /* the identity: solving for it gives the inverse */
      memset(wb, 0, (size_t)(n * n) * es);
      for (int64_t i = 0; i < n; i++) {
        char *one = wb + (size_t)(i + i * n) * es;
        if (real_size(t) == 4) *(float *)one = 1.0f; else *(double *)one = 1.0;
      }
    }
    if (n > 0 && nrhs > 0) MA_BLAS_CALL(L->gesv[t](&N, &R, w, &ld, ipiv, wb, &ld, &st));
    else if (n > 0) MA_BLAS_CALL(L->getrf[t](&N, &N, w, &ld, ipiv, &st)); /* still reject singular a */
    if (st != 0) {
      rc = fail(info, k, st);
      goto out;
    }
    store((char *)x + (size_t)(k * n * nrhs) * es, wb, ld, n, nrhs, es);
  }
out:
  free(w);
  free(wb);
  free(ipiv);
  return rc;
}

/* ---- Cholesky (?potrf) ---------------------------------------------------- */

int ma_la_cholesky(int t, int64_t nb, int64_t n, const void *a, int64_t abst, int64_t ars,
                   int64_t acs, int upper, void *out, int64_t *info) {
  const ma_lapack_table *L = ma_lapack();
  if (!L) return MA_LA_NOLIB;
  size_t es = ma_la_esize(t);
  view v = {a, abst, ars, acs};
  char *w = alloc((size_t)(n * n), es);
  if (!w) return MA_LA_NOMEM;
  ma_int N = n, ld = n > 1 ? n : 1, st = 0;
  char uplo = upper ? 'U' : 'L';
  for (int64_t k = 0; k < nb; k++) {
    load(w, ld, v, k, n, n, es);
    if (n > 0) MA_BLAS_CALL(L->potrf[t](&uplo, &N, w, &ld, &st, 1));
    if (st != 0) {
      free(w);
      return fail(info, k, st);
    }
    /* potrf leaves the other triangle as it was: clear it. */
    for (int64_t j = 0; j < n; j++)
      for (int64_t i = 0; i < n; i++)
        if (upper ? i > j : i < j) memset(w + (size_t)(i + j * n) * es, 0, es);
    store((char *)out + (size_t)(k * n * n) * es, w, ld, n, n, es);
  }
  free(w);
  return MA_LA_OK;
}

/* ---- Hermitian eigenproblems (?syevd / ?heevd) ---------------------------- */

int ma_la_eigh(int t, int64_t nb, int64_t n, const void *a, int64_t abst, int64_t ars,
               int64_t acs, void *w, void *v, int64_t *info) {
  const ma_lapack_table *L = ma_lapack();
  if (!L) return MA_LA_NOLIB;
  size_t es = ma_la_esize(t), rs = real_size(t);
  int cplx = ma_la_complex(t);
  view va = {a, abst, ars, acs};
  char jobz = v ? 'V' : 'N', uplo = 'L';
  ma_int N = n, ld = n > 1 ? n : 1, st = 0, lwork = -1, lrwork = -1, liwork = -1, iq = 0;
  double wq[2] = {0, 0}, rq = 0;
  char *m = alloc((size_t)(n * n), es);
  void *work = NULL, *rwork = NULL;
  ma_int *iwork = NULL;
  int rc = MA_LA_OK;
  if (!m) return MA_LA_NOMEM;
  if (n == 0) goto out;
  if (cplx)
    MA_BLAS_CALL(L->heevd[t](&jobz, &uplo, &N, m, &ld, w, wq, &lwork, &rq, &lrwork, &iq, &liwork, &st, 1, 1));
  else
    MA_BLAS_CALL(L->syevd[t](&jobz, &uplo, &N, m, &ld, w, wq, &lwork, &iq, &liwork, &st, 1, 1));
  lwork = query(t, wq);
  lrwork = cplx ? query(t == MA_LA_C64 ? MA_LA_F32 : MA_LA_F64, &rq) : 1;
  liwork = iq < 1 ? 1 : iq;
  work = alloc((size_t)lwork, es);
  rwork = alloc((size_t)lrwork, rs);
  iwork = alloc((size_t)liwork, sizeof(ma_int));
  if (!work || !rwork || !iwork) {
    rc = MA_LA_NOMEM;
    goto out;
  }
  for (int64_t k = 0; k < nb; k++) {
    load(m, ld, va, k, n, n, es);
    char *wk = (char *)w + (size_t)(k * n) * rs;
    if (cplx)
      MA_BLAS_CALL(L->heevd[t](&jobz, &uplo, &N, m, &ld, wk, work, &lwork, rwork, &lrwork, iwork, &liwork,
                               &st, 1, 1));
    else
      MA_BLAS_CALL(L->syevd[t](&jobz, &uplo, &N, m, &ld, wk, work, &lwork, iwork, &liwork, &st, 1, 1));
    if (st != 0) {
      rc = fail(info, k, st);
      goto out;
    }
    if (v) store((char *)v + (size_t)(k * n * n) * es, m, ld, n, n, es);
  }
out:
  free(m);
  free(work);
  free(rwork);
  free(iwork);
  return rc;
}

/* ---- general eigenproblems (?geev) ----------------------------------------- */

int ma_la_eig(int t, int64_t nb, int64_t n, const void *a, int64_t abst, int64_t ars,
              int64_t acs, void *w, void *v, int64_t *info) {
  const ma_lapack_table *L = ma_lapack();
  if (!L) return MA_LA_NOLIB;
  size_t es = ma_la_esize(t);
  int cplx = ma_la_complex(t), single = t == MA_LA_F32 || t == MA_LA_C64;
  view va = {a, abst, ars, acs};
  char jobvl = 'N', jobvr = v ? 'V' : 'N';
  ma_int N = n, ld = n > 1 ? n : 1, st = 0, lwork = -1, one = 1;
  ma_int ldvr = v ? ld : 1;
  double wq[2] = {0, 0};
  char *m = alloc((size_t)(n * n), es), *vr = alloc(v ? (size_t)(n * n) : 1, es);
  /* real input: wr and wi; complex input: w, and rwork of 2n reals */
  char *w1 = alloc((size_t)n, es), *w2 = alloc(2 * (size_t)n, es);
  void *work = NULL;
  int rc = MA_LA_OK;
  if (!m || !vr || !w1 || !w2) {
    rc = MA_LA_NOMEM;
    goto out;
  }
  if (n == 0) goto out;
  if (cplx)
    MA_BLAS_CALL(L->geev_c[t](&jobvl, &jobvr, &N, m, &ld, w1, NULL, &one, vr, &ldvr, wq, &lwork, w2, &st,
                              1, 1));
  else
    MA_BLAS_CALL(L->geev_r[t](&jobvl, &jobvr, &N, m, &ld, w1, w2, NULL, &one, vr, &ldvr, wq, &lwork, &st,
                              1, 1));
  lwork = query(t, wq);
  work = alloc((size_t)lwork, es);
  if (!work) {
    rc = MA_LA_NOMEM;
    goto out;
  }
  size_t ces = single ? 8 : 16; /* the complex output's element size */
  for (int64_t k = 0; k < nb; k++) {
    load(m, ld, va, k, n, n, es);
    if (cplx)
      MA_BLAS_CALL(L->geev_c[t](&jobvl, &jobvr, &N, m, &ld, w1, NULL, &one, vr, &ldvr, work, &lwork, w2,
                                &st, 1, 1));
    else
      MA_BLAS_CALL(L->geev_r[t](&jobvl, &jobvr, &N, m, &ld, w1, w2, NULL, &one, vr, &ldvr, work, &lwork,
                                &st, 1, 1));
    if (st != 0) {
      rc = fail(info, k, st);
      goto out;
    }
    char *wk = (char *)w + (size_t)(k * n) * ces, *vk = v ? (char *)v + (size_t)(k * n * n) * ces : NULL;
    if (cplx) {
      memcpy(wk, w1, (size_t)n * es);
      if (vk) store(vk, vr, ld, n, n, es);
      continue;
    }
    /* Real ?geev returns a conjugate pair (wr[j] +- i wi[j], wi[j] > 0
     * first) with the eigenvector of the first as VR[:, j] + i VR[:, j+1]. */
    for (int64_t j = 0; j < n; j++) {
      double re = single ? ((float *)w1)[j] : ((double *)w1)[j];
      double im = single ? ((float *)w2)[j] : ((double *)w2)[j];
      if (single) {
        ((float *)wk)[2 * j] = (float)re;
        ((float *)wk)[2 * j + 1] = (float)im;
      } else {
        ((double *)wk)[2 * j] = re;
        ((double *)wk)[2 * j + 1] = im;
      }
    }
    if (!vk) continue;
    for (int64_t j = 0; j < n; j++) {
      double im = single ? ((float *)w2)[j] : ((double *)w2)[j];
      int pair = im != 0 && j + 1 < n;
      for (int64_t i = 0; i < n; i++) {
        double re0 = single ? ((float *)vr)[i + j * n] : ((double *)vr)[i + j * n];
        double im0 = 0;
        if (pair) im0 = single ? ((float *)vr)[i + (j + 1) * n] : ((double *)vr)[i + (j + 1) * n];
        size_t o0 = (size_t)(i * n + j), o1 = o0 + 1;
        if (single) {
          float *f = (float *)vk;
          f[2 * o0] = (float)re0;
          f[2 * o0 + 1] = (float)im0;
          if (pair) {
            f[2 * o1] = (float)re0;
            f[2 * o1 + 1] = (float)-im0;
          }
        } else {
          double *d = (double *)vk;
          d[2 * o0] = re0;
          d[2 * o0 + 1] = im0;
          if (pair) {
            d[2 * o1] = re0;
            d[2 * o1 + 1] = -im0;
          }
        }
      }
      if (pair) j++;
    }
  }
out:
  free(m);
  free(vr);
  free(w1);
  free(w2);
  free(work);
  return rc;
}

/* ---- singular value decomposition (?gesdd) --------------------------------- */

int ma_la_svd(int t, int64_t nb, int64_t m, int64_t n, const void *a, int64_t abst, int64_t ars,
              int64_t acs, int full, void *s, void *u, void *vt, int64_t *info) {
  const ma_lapack_table *L = ma_lapack();
  if (!L) return MA_LA_NOLIB;
  size_t es = ma_la_esize(t), rs = real_size(t);
  int cplx = ma_la_complex(t);
  int64_t k = m < n ? m : n, mx = m > n ? m : n;
  view va = {a, abst, ars, acs};
  char jobz = !u ? 'N' : full ? 'A' : 'S';
  int64_t ucols = full ? m : k, vrows = full ? n : k;
  ma_int M = m, N = n, lda = m > 1 ? m : 1, ldu = u && m > 1 ? m : 1, ldvt = u && vrows > 1 ? vrows : 1;
  ma_int st = 0, lwork = -1;
  double wq[2] = {0, 0};
  char *w = alloc((size_t)(m * n), es);
  char *wu = alloc(u ? (size_t)(m * ucols) : 1, es), *wv = alloc(u ? (size_t)(vrows * n) : 1, es);
  ma_int *iwork = alloc(8 * (size_t)k, sizeof(ma_int));
  /* ?gesdd's RWORK (complex only), LAPACK >= 3.7 sizes */
  size_t lrwork = !cplx ? 1 : jobz == 'N' ? 7 * (size_t)k
                            : (size_t)k * (size_t)(5 * k + 7 > 2 * mx + 2 * k + 1 ? 5 * k + 7 : 2 * mx + 2 * k + 1);
  void *rwork = alloc(lrwork, rs), *work = NULL;
  int rc = MA_LA_OK;
  if (!w || !wu || !wv || !iwork || !rwork) {
    rc = MA_LA_NOMEM;
    goto out;
  }
  if (k == 0) goto out;
  if (cplx)
    MA_BLAS_CALL(L->gesdd_c[t](&jobz, &M, &N, w, &lda, s, wu, &ldu, wv, &ldvt, wq, &lwork, rwork, iwork,
                               &st, 1));
  else
    MA_BLAS_CALL(L->gesdd_r[t](&jobz, &M, &N, w, &lda, s, wu, &ldu, wv, &ldvt, wq, &lwork, iwork, &st, 1));
  lwork = query(t, wq);
  work = alloc((size_t)lwork, es);
  if (!work) {
    rc = MA_LA_NOMEM;
    goto out;
  }
  for (int64_t b = 0; b < nb; b++) {
    load(w, lda, va, b, m, n, es);
    char *sb = (char *)s + (size_t)(b * k) * rs;
    if (cplx)
      MA_BLAS_CALL(L->gesdd_c[t](&jobz, &M, &N, w, &lda, sb, wu, &ldu, wv, &ldvt, work, &lwork, rwork,
                                 iwork, &st, 1));
    else
      MA_BLAS_CALL(L->gesdd_r[t](&jobz, &M, &N, w, &lda, sb, wu, &ldu, wv, &ldvt, work, &lwork, iwork,
                                 &st, 1));
    if (st != 0) {
      rc = fail(info, b, st);
      goto out;
    }
    if (!u) continue;
    store((char *)u + (size_t)(b * m * ucols) * es, wu, ldu, m, ucols, es);
    store((char *)vt + (size_t)(b * vrows * n) * es, wv, ldvt, vrows, n, es);
  }
out:
  free(w);
  free(wu);
  free(wv);
  free(iwork);
  free(rwork);
  free(work);
  return rc;
}

/* ---- QR (?geqrf, ?orgqr / ?ungqr) ----------------------------------------- */

int ma_la_qr(int t, int64_t nb, int64_t m, int64_t n, const void *a, int64_t abst, int64_t ars,
             int64_t acs, int complete, void *q, void *r, int64_t *info) {
  const ma_lapack_table *L = ma_lapack();
  if (!L) return MA_LA_NOLIB;
  size_t es = ma_la_esize(t);
  int64_t k = m < n ? m : n, qcols = complete ? m : k, rrows = complete ? m : k;
  int64_t wcols = n > qcols ? n : qcols;
  view va = {a, abst, ars, acs};
  ma_int M = m, N = n, K = k, QC = qcols, ld = m > 1 ? m : 1, st = 0, lwork = -1, l2 = -1;
  double wq[2] = {0, 0};
  char *w = alloc((size_t)(m * wcols), es), *tau = alloc((size_t)k, es);
  void *work = NULL;
  int rc = MA_LA_OK;
  if (!w || !tau) {
    rc = MA_LA_NOMEM;
    goto out;
  }
  if (k == 0) goto out;
  MA_BLAS_CALL(L->geqrf[t](&M, &N, w, &ld, tau, wq, &lwork, &st));
  lwork = query(t, wq);
  MA_BLAS_CALL(L->orgqr[t](&M, &QC, &K, w, &ld, tau, wq, &l2, &st));
  l2 = query(t, wq);
  if (l2 > lwork) lwork = l2;
  work = alloc((size_t)lwork, es);
  if (!work) {
    rc = MA_LA_NOMEM;
    goto out;
  }
  for (int64_t b = 0; b < nb; b++) {
    load(w, ld, va, b, m, n, es);
    MA_BLAS_CALL(L->geqrf[t](&M, &N, w, &ld, tau, work, &lwork, &st));
    if (st != 0) {
      rc = fail(info, b, st);
      goto out;
    }
    /* R: the upper triangle (trapezoid) that ?geqrf left in w. */
    char *rb = (char *)r + (size_t)(b * rrows * n) * es;
    for (int64_t i = 0; i < rrows; i++)
      for (int64_t j = 0; j < n; j++) {
        char *d = rb + (size_t)(i * n + j) * es;
        if (i <= j && i < m) memcpy(d, w + (size_t)(i + j * m) * es, es);
        else memset(d, 0, es);
      }
    MA_BLAS_CALL(L->orgqr[t](&M, &QC, &K, w, &ld, tau, work, &lwork, &st));
    if (st != 0) {
      rc = fail(info, b, st);
      goto out;
    }
    store((char *)q + (size_t)(b * m * qcols) * es, w, ld, m, qcols, es);
  }
out:
  free(w);
  free(tau);
  free(work);
  return rc;
}

/* ---- least squares (?gelsd) ------------------------------------------------ */

int ma_la_lstsq(int t, int64_t m, int64_t n, int64_t nrhs, const void *a, int64_t ars,
                int64_t acs, const void *b, int64_t brs, int64_t bcs, double rcond, void *x,
                void *resid, void *s, int64_t *rank, int64_t *info) {
  const ma_lapack_table *L = ma_lapack();
  if (!L) return MA_LA_NOLIB;
  size_t es = ma_la_esize(t), rs = real_size(t);
  int cplx = ma_la_complex(t), single = rs == 4;
  int64_t mx = m > n ? m : n;
  view va = {a, 0, ars, acs}, vb = {b, 0, brs, bcs};
  ma_int M = m, N = n, R = nrhs, lda = m > 1 ? m : 1, ldb = mx > 1 ? mx : 1, st = 0, lwork = -1;
  ma_int rk = 0, iq = 0;
  double wq[2] = {0, 0}, rq = 0;
  float rcf = (float)rcond;
  const void *rc_ = single ? (const void *)&rcf : (const void *)&rcond;
  char *w = alloc((size_t)(m * n), es), *wb = alloc((size_t)(ldb * nrhs), es);
  void *work = NULL, *rwork = NULL;
  ma_int *iwork = NULL;
  int rc = MA_LA_OK;
  if (!w || !wb) {
    rc = MA_LA_NOMEM;
    goto out;
  }
  *rank = 0;
  memset(wb, 0, (size_t)(ldb * nrhs) * es);
  load(wb, ldb, vb, 0, m, nrhs, es);
  if (m == 0 || n == 0 || nrhs == 0) { /* nothing to solve: x = 0, the minimum-norm solution */
    memset(x, 0, (size_t)(n * nrhs) * es);
  } else {
    load(w, lda, va, 0, m, n, es);
    if (cplx)
      MA_BLAS_CALL(L->gelsd_c[t](&M, &N, &R, w, &lda, wb, &ldb, s, rc_, &rk, wq, &lwork, &rq, &iq, &st));
    else
      MA_BLAS_CALL(L->gelsd_r[t](&M, &N, &R, w, &lda, wb, &ldb, s, rc_, &rk, wq, &lwork, &iq, &st));
    lwork = query(t, wq);
    work = alloc((size_t)lwork, es);
    rwork = alloc(cplx ? (size_t)query(single ? MA_LA_F32 : MA_LA_F64, &rq) : 1, rs);
    iwork = alloc((size_t)(iq < 1 ? 1 : iq), sizeof(ma_int));
    if (!work || !rwork || !iwork) {
      rc = MA_LA_NOMEM;
      goto out;
    }
    if (cplx)
      MA_BLAS_CALL(L->gelsd_c[t](&M, &N, &R, w, &lda, wb, &ldb, s, rc_, &rk, work, &lwork, rwork, iwork,
                                 &st));
    else
      MA_BLAS_CALL(L->gelsd_r[t](&M, &N, &R, w, &lda, wb, &ldb, s, rc_, &rk, work, &lwork, iwork, &st));
    if (st != 0) {
      rc = fail(info, 0, st);
      goto out;
    }
    *rank = rk;
    store(x, wb, ldb, n, nrhs, es);
  }
  /* With full column rank and more equations than unknowns, rows n..m-1 of
   * the transformed b hold the residual's components. */
  if (rk == n && m > n) {
    for (int64_t j = 0; j < nrhs; j++) {
      double acc = 0;
      for (int64_t i = n; i < m; i++) {
        const char *e = wb + (size_t)(i + j * ldb) * es;
        double re = single ? ((const float *)e)[0] : ((const double *)e)[0];
        double im = !cplx ? 0 : single ? ((const float *)e)[1] : ((const double *)e)[1];
        acc += re * re + im * im;
      }
      if (single) ((float *)resid)[j] = (float)acc; else ((double *)resid)[j] = acc;
    }
  }
out:
  free(w);
  free(wb);
  free(work);
  free(rwork);
  free(iwork);
  return rc;
}
