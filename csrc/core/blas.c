/*
 * Loading BLAS/LAPACK at run time (see blas.h), OpenBLAS's thread count,
 * and the one gemm call every matrix product above the small sizes makes.
 */
#include "blas.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "threads.h"

static ma_lapack_table table;
static const ma_lapack_table *loaded; /* &table once complete */
static void *handle;
static char error[512];

static void (*set_threads)(int n);
static int (*get_threads)(void);
static char *(*get_config)(void);
static char *(*get_corename)(void);

/* ---- calls in flight versus the thread count (blas.h) -------------------- */

static struct {
  pthread_mutex_t mu;    /* guards the two counts */
  pthread_cond_t idle;   /* signalled when `calls` drops to 0 */
  pthread_cond_t open;   /* broadcast when `setters` drops to 0 */
  int calls;             /* BLAS/LAPACK calls in flight */
  int setters;           /* ma_blas_sync_threads calls waiting or applying */
} gate = {
    .mu = PTHREAD_MUTEX_INITIALIZER,
    .idle = PTHREAD_COND_INITIALIZER,
    .open = PTHREAD_COND_INITIALIZER,
};

void ma_blas_enter(void) {
  pthread_mutex_lock(&gate.mu);
  while (gate.setters > 0) pthread_cond_wait(&gate.open, &gate.mu);
  gate.calls++;
  pthread_mutex_unlock(&gate.mu);
}

void ma_blas_leave(void) {
  pthread_mutex_lock(&gate.mu);
  if (--gate.calls == 0 && gate.setters > 0) pthread_cond_broadcast(&gate.idle);
  pthread_mutex_unlock(&gate.mu);
}

/* Wait until no call is in flight, holding back calls that start meanwhile;
 * returns with the mutex held.  open_gate() lets them through again. */
static void close_gate(void) {
  pthread_mutex_lock(&gate.mu);
  gate.setters++;
  while (gate.calls > 0) pthread_cond_wait(&gate.idle, &gate.mu);
}

static void open_gate(void) {
  if (--gate.setters == 0) pthread_cond_broadcast(&gate.open);
  pthread_mutex_unlock(&gate.mu);
}

void ma_blas_sync_threads(void) {
  if (!ma_lapack()) return;
  close_gate();
  /* The count is read here, not by the caller: of two threads setting it
   * at once, the one applying last applies the newest value, so OpenBLAS
   * ends with what ma_get_num_threads() says.  Applied with the mutex held:
   * calls wait for it anyway, and setters take turns. */
  set_threads(ma_get_num_threads());
  open_gate();
}

/* fork() copies only the calling thread.  `prepare` closes the gate, so
 * OpenBLAS is copied idle (its own fork handler, registered before this
 * one, runs after it) and the counts are not copied half-changed; the
 * calls it waits for need no GIL, which the forking thread holds.  The
 * child has no other thread: nothing in flight, nobody waiting. */
static void atfork_prepare(void) { close_gate(); }
static void atfork_parent(void) { open_gate(); }

static void atfork_child(void) {
  gate.calls = 0;
  gate.setters = 0;
  pthread_cond_init(&gate.idle, NULL);
  pthread_cond_init(&gate.open, NULL);
  pthread_mutex_unlock(&gate.mu);
}

/* Resolve prefix+name+suffix; on failure record the name and return NULL. */
static void *sym(const char *prefix, const char *name, const char *suffix) {
  char full[128];
  snprintf(full, sizeof full, "%s%s%s", prefix, name, suffix);
  void *p = dlsym(handle, full);
  if (!p && !error[0]) snprintf(error, sizeof error, "symbol %s not found", full);
  return p;
}

int ma_blas_load(const char *path, const char *prefix, const char *suffix) {
  if (loaded) return 0;
  error[0] = 0;
  /* RTLD_LOCAL: its symbols must not satisfy other libraries' lookups (NumPy
   * and PyTorch bring their own BLAS). */
  handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    snprintf(error, sizeof error, "%s", dlerror());
    return -1;
  }
  static const char pfx[4] = {'s', 'd', 'c', 'z'};
  char name[32];
#define ALL4(field, base)                                            \
  for (int t = 0; t < 4; t++) {                                      \
    snprintf(name, sizeof name, "%c%s_", pfx[t], base);               \
    *(void **)&table.field[t] = sym(prefix, name, suffix);           \
  }
#define REAL2(field, base)                                           \
  for (int t = 0; t < 2; t++) {                                      \
    snprintf(name, sizeof name, "%c%s_", pfx[t], base);               \
    *(void **)&table.field[t] = sym(prefix, name, suffix);           \
  }
#define CPLX2(field, base)                                           \
  for (int t = 2; t < 4; t++) {                                      \
    snprintf(name, sizeof name, "%c%s_", pfx[t], base);               \
    *(void **)&table.field[t] = sym(prefix, name, suffix);           \
  }
  ALL4(gemm, "gemm")
  ALL4(gemv, "gemv")
  ALL4(getrf, "getrf")
  ALL4(gesv, "gesv")
  ALL4(potrf, "potrf")
  REAL2(syevd, "syevd")
  CPLX2(heevd, "heevd")
  REAL2(geev_r, "geev")
  CPLX2(geev_c, "geev")
  REAL2(gesdd_r, "gesdd")
  CPLX2(gesdd_c, "gesdd")
  ALL4(geqrf, "geqrf")
  REAL2(orgqr, "orgqr")
  CPLX2(orgqr, "ungqr")
  REAL2(gelsd_r, "gelsd")
  CPLX2(gelsd_c, "gelsd")
#undef ALL4
#undef REAL2
#undef CPLX2
  *(void **)&set_threads = sym(prefix, "openblas_set_num_threads", suffix);
  *(void **)&get_threads = sym(prefix, "openblas_get_num_threads", suffix);
  *(void **)&get_config = sym(prefix, "openblas_get_config", suffix);
  *(void **)&get_corename = sym(prefix, "openblas_get_corename", suffix);
  if (error[0]) {
    dlclose(handle);
    handle = NULL;
    return -1;
  }
  pthread_atfork(atfork_prepare, atfork_parent, atfork_child);
  __atomic_store_n(&loaded, &table, __ATOMIC_RELEASE);
  return 0;
}

/* ---- queries ------------------------------------------------------------ */

int ma_blas_loaded(void) { return ma_lapack() != NULL; }
const char *ma_blas_error(void) { return error; }
const ma_lapack_table *ma_lapack(void) { return __atomic_load_n(&loaded, __ATOMIC_ACQUIRE); }

int ma_blas_get_num_threads(void) { return ma_lapack() ? get_threads() : 0; }
const char *ma_blas_config(void) { return ma_lapack() ? get_config() : ""; }
const char *ma_blas_corename(void) { return ma_lapack() ? get_corename() : ""; }

/* Describe an r x c matrix with strides (rs, cs) to column-major BLAS: 'N'
 * when it is column-major itself, 'T' when its transpose is.  A stride over
 * a dimension of one element is free, so it is chosen to fit. */
static int colmajor(int64_t r, int64_t c, int64_t rs, int64_t cs, char *op, ma_int *ld) {
  int64_t rmin = r > 1 ? r : 1, cmin = c > 1 ? c : 1;
  if (r == 1) rs = 1;
  if (c == 1) cs = rs == 1 ? rmin : 1;
  if (rs == 1 && cs >= rmin) {
    *op = 'N';
    *ld = cs;
    return 1;
  }
  if (cs == 1 && rs >= cmin) {
    *op = 'T';
    *ld = rs;
    return 1;
  }
  return 0;
}

static const double one[2] = {1.0, 0.0}, zero[2] = {0.0, 0.0};
static const float onef[2] = {1.0f, 0.0f}, zerof[2] = {0.0f, 0.0f};

/* y = op(X) . x with ?gemv for an r x k matrix X (strides rs, cs) and
 * vectors of positive strides (BLAS reads a negative increment from the
 * other end, a zero one not at all). */
static int gemv(const ma_lapack_table *L, int type, int64_t r, int64_t k, const void *a, int64_t rs,
                int64_t cs, int conj, const void *x, int64_t incx, void *y, int64_t incy) {
  char op;
  if (k == 1) incx = 1; /* a stride over one element is free */
  ma_int ld, R, K, ix = incx, iy = incy;
  if (incx < 1 || incy < 1 || !colmajor(r, k, rs, cs, &op, &ld)) return -1;
  if (op == 'N') {
    if (conj) return -1;
    R = r; /* X is stored column-major, r x k */
    K = k;
  } else {
    R = k; /* X^T is stored column-major, k x r: y = (X^T)^T x */
    K = r;
    if (conj) op = 'C';
  }
  int single = type == MA_LA_F32 || type == MA_LA_C64;
  MA_BLAS_CALL(L->gemv[type](&op, &R, &K, single ? (const void *)onef : (const void *)one, a,
                             &ld, x, &ix, single ? (const void *)zerof : (const void *)zero, y,
                             &iy, 1));
  return 0;
}

int ma_blas_gemm(int type, int64_t m, int64_t n, int64_t k, const void *a, int64_t rsa,
                 int64_t csa, const void *b, int64_t rsb, int64_t csb, void *c, int64_t rsc,
                 int64_t csc, int conj_a) {
  const ma_lapack_table *L = ma_lapack();
  if (!L) return -1;
  /* Matrix times vector: ?gemv.  C[:, 0] = A . B[:, 0], or, for a row
   * vector times a matrix, C[0, :] = B^T . A[0, :] (a conjugated A is then
   * the vector, which gemv cannot conjugate). */
  if (n == 1 && m > 1) return gemv(L, type, m, k, a, rsa, csa, conj_a, b, rsb, c, rsc);
  if (m == 1 && n > 1) return conj_a ? -1 : gemv(L, type, n, k, b, csb, rsb, 0, a, csa, c, csc);
  char opc, opa, opb;
  ma_int ldc, lda, ldb, M = m, N = n, K = k;
  const void *x = a, *y = b;
  int conj_x = conj_a, conj_y = 0;
  if (!colmajor(m, n, rsc, csc, &opc, &ldc)) return -1;
  if (opc == 'T') {
    /* C is row-major: compute C^T = B^T . A^T, which column-major BLAS
     * writes straight into C's memory. */
    int64_t t;
    t = rsa; rsa = csb; csb = t; /* x = B^T (n x k), y = A^T (k x m) */
    t = csa; csa = rsb; rsb = t;
    x = b; y = a;
    M = n; N = m;
    conj_x = 0; conj_y = conj_a;
  }
  /* x is M x K with strides (rsa, csa), y is K x N with (rsb, csb). */
  if (!colmajor(M, K, rsa, csa, &opa, &lda) || !colmajor(K, N, rsb, csb, &opb, &ldb)) return -1;
  /* Conjugation only exists together with transposition ('C'). */
  if ((conj_x && opa == 'N') || (conj_y && opb == 'N')) return -1;
  if (conj_x) opa = 'C';
  if (conj_y) opb = 'C';
  int single = type == MA_LA_F32 || type == MA_LA_C64;
  MA_BLAS_CALL(L->gemm[type](&opa, &opb, &M, &N, &K, single ? (const void *)onef : (const void *)one,
                             x, &lda, y, &ldb, single ? (const void *)zerof : (const void *)zero,
                             c, &ldc, 1, 1));
  return 0;
}
