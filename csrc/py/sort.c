/*
 * Sorting, selection (partition), binary search and unique, for every real
 * dtype.
 *
 * Every element is first mapped to an unsigned integer key whose unsigned
 * order is the value order (integers: flip the sign bit; floats: flip all
 * bits of negatives and the sign bit of positives).  NaNs all get the
 * largest key, so they sort to the end as in NumPy, and -0.0 gets +0.0's
 * key so the two compare equal (a stable sort keeps their order).
 * Keys then go through a stable LSD radix sort (8-bit digits, passes whose
 * digit is the same for every key skipped; rows under 1024 keys take a
 * stable merge sort instead), so sort and argsort are always
 * stable; descending order sorts the complemented keys, which keeps equal
 * elements in their original order.
 */
#include <stdlib.h>
#include <string.h>

#include "copy.h"
#include "pyapi.h"
#include "scalar.h"
#include "threads.h"

/* ---- keys ---------------------------------------------------------------- */

/* Key width in bytes of a dtype (0: not sortable). */
static int key_bytes(int tid) {
  switch (tid) {
    case MA_BOOL: case MA_INT8: case MA_UINT8: return 1;
    case MA_INT16: case MA_UINT16: case MA_FLOAT16: case MA_BFLOAT16: return 2;
    case MA_INT32: case MA_UINT32: case MA_FLOAT32: return 4;
    case MA_INT64: case MA_UINT64: case MA_FLOAT64: return 8;
  }
  return 0;
}

/* The raw bits of element p as an unsigned integer of the dtype's width. */
static uint64_t raw_bits(int nbytes, const char *p) {
  switch (nbytes) {
    case 1: return *(const uint8_t *)p;
    case 2: { uint16_t v; memcpy(&v, p, 2); return v; }
    case 4: { uint32_t v; memcpy(&v, p, 4); return v; }
    default: { uint64_t v; memcpy(&v, p, 8); return v; }
  }
}

static void store_bits(int nbytes, char *p, uint64_t v) {
  switch (nbytes) {
    case 1: *(uint8_t *)p = (uint8_t)v; break;
    case 2: { uint16_t w = (uint16_t)v; memcpy(p, &w, 2); break; }
    case 4: { uint32_t w = (uint32_t)v; memcpy(p, &w, 4); break; }
    default: memcpy(p, &v, 8);
  }
}

static int is_float(int tid) { return tid >= MA_FLOAT16 && tid <= MA_FLOAT64; }
static int is_signed(int tid) { return tid >= MA_INT8 && tid <= MA_INT64; }

/* The exponent-all-ones threshold above which |bits| is a NaN. */
static uint64_t inf_bits(int tid) {
  switch (tid) {
    case MA_FLOAT16: return 0x7c00u;
    case MA_BFLOAT16: return 0x7f80u;
    case MA_FLOAT32: return 0x7f800000u;
    default: return 0x7ff0000000000000ull;
  }
}

typedef struct {
  int tid, nbytes;
  uint64_t sign, mask; /* sign bit and all-ones of the key width */
  int zero_equal;      /* map -0.0 to +0.0 */
  int descending;
} keyspec;

static keyspec make_keyspec(int tid, int zero_equal, int descending) {
  keyspec k;
  k.tid = tid;
  k.nbytes = key_bytes(tid);
  k.sign = (uint64_t)1 << (8 * k.nbytes - 1);
  k.mask = k.nbytes == 8 ? ~(uint64_t)0 : (((uint64_t)1 << (8 * k.nbytes)) - 1);
  k.zero_equal = zero_equal;
  k.descending = descending;
  return k;
}

static inline uint64_t to_key(const keyspec *k, const char *p) {
  uint64_t u = raw_bits(k->nbytes, p), key;
  if (is_float(k->tid)) {
    uint64_t mag = u & ~k->sign;
    if (mag > inf_bits(k->tid)) key = k->mask; /* every NaN: the largest key */
    else {
      if (k->zero_equal && mag == 0) u = 0;
      key = (u & k->sign) ? (~u & k->mask) : (u | k->sign);
    }
  } else if (is_signed(k->tid)) {
    key = u ^ k->sign;
  } else {
    key = u;
  }
  return k->descending ? (~key & k->mask) : key;
}

/* Inverse of to_key (exact except for -0.0 under zero_equal and NaN
 * payloads). */
static inline uint64_t from_key(const keyspec *k, uint64_t key) {
  if (k->descending) key = ~key & k->mask;
  if (is_float(k->tid)) {
    if (key == k->mask) { /* a NaN: the quiet NaN of the type */
      switch (k->tid) {
        case MA_FLOAT16: return 0x7e00u;
        case MA_BFLOAT16: return 0x7fc0u;
        case MA_FLOAT32: return 0x7fc00000u;
        default: return 0x7ff8000000000000ull;
      }
    }
    return (key & k->sign) ? (key ^ k->sign) : (~key & k->mask);
  }
  if (is_signed(k->tid)) return key ^ k->sign;
  return key;
}

/* ---- stable radix sort ----------------------------------------------------- */

/* Sort keys[0..n) ascending, carrying idx (may be NULL) along; stable.
 * tk/ti: scratch of the same sizes.  Returns 0, or -1 when out of memory. */
static void insertion_sort(uint64_t *keys, int64_t *idx, int64_t n) {
  for (int64_t i = 1; i < n; i++) {
    uint64_t k = keys[i];
    int64_t v = idx ? idx[i] : 0;
    int64_t j = i - 1;
    while (j >= 0 && keys[j] > k) {
      keys[j + 1] = keys[j];
      if (idx) idx[j + 1] = idx[j];
      j--;
    }
    keys[j + 1] = k;
    if (idx) idx[j + 1] = v;
  }
}

/* After passes that ping-pong between (keys, idx) and the scratch: the
 * sorted run back in (keys, idx) when the last pass left it in the scratch. */
static void copy_back(uint64_t *keys, int64_t *idx, const uint64_t *src, const int64_t *isrc, int64_t n) {
  if (src == keys) return;
  memcpy(keys, src, (size_t)n * sizeof(uint64_t));
  if (idx) memcpy(idx, isrc, (size_t)n * sizeof(int64_t));
}

/* Bottom-up merge sort for short rows: runs of 32 sorted by insertion,
 * then merged pairwise through the scratch (ties take the left run first:
 * stable).  Below ~1000 keys this beats the radix passes, whose eight
 * 256-bucket histograms cost more than the keys themselves. */
#define MERGE_MAX 1024
#define MERGE_RUN 32
static void merge_sort(uint64_t *keys, int64_t *idx, int64_t n, uint64_t *tk, int64_t *ti) {
  for (int64_t lo = 0; lo < n; lo += MERGE_RUN)
    insertion_sort(keys + lo, idx ? idx + lo : NULL, n - lo < MERGE_RUN ? n - lo : MERGE_RUN);
  uint64_t *src = keys, *dst = tk;
  int64_t *isrc = idx, *idst = ti;
  for (int64_t width = MERGE_RUN; width < n; width *= 2) {
    for (int64_t lo = 0; lo < n; lo += 2 * width) {
      int64_t mid = lo + width < n ? lo + width : n, hi = lo + 2 * width < n ? lo + 2 * width : n;
      int64_t i = lo, j = mid, o = lo;
      while (i < mid && j < hi) {
        int64_t from = src[j] < src[i] ? j++ : i++;
        dst[o] = src[from];
        if (idx) idst[o] = isrc[from];
        o++;
      }
      for (; i < mid; i++, o++) {
        dst[o] = src[i];
        if (idx) idst[o] = isrc[i];
      }
      for (; j < hi; j++, o++) {
        dst[o] = src[j];
        if (idx) idst[o] = isrc[j];
      }
    }
    uint64_t *t = src; src = dst; dst = t;
    int64_t *u = isrc; isrc = idst; idst = u;
  }
  copy_back(keys, idx, src, isrc, n);
}

static void radix_sort(uint64_t *keys, int64_t *idx, int64_t n, int nbytes, uint64_t *tk, int64_t *ti) {
  if (n < MERGE_MAX) {
    merge_sort(keys, idx, n, tk, ti);
    return;
  }
  int64_t(*hist)[256] = calloc((size_t)nbytes, sizeof(*hist));
  if (!hist) { /* fall back to the (stable) quadratic sort rather than fail */
    insertion_sort(keys, idx, n);
    return;
  }
  for (int64_t i = 0; i < n; i++) {
    uint64_t k = keys[i];
    for (int b = 0; b < nbytes; b++) hist[b][(k >> (8 * b)) & 255]++;
  }
  uint64_t *src = keys, *dst = tk;
  int64_t *isrc = idx, *idst = ti;
  for (int b = 0; b < nbytes; b++) {
    int64_t *h = hist[b];
    int trivial = 0;
    for (int d = 0; d < 256; d++)
      if (h[d] == n) { trivial = 1; break; }
    if (trivial) continue;
    int64_t pos = 0;
    for (int d = 0; d < 256; d++) {
      int64_t c = h[d];
      h[d] = pos;
      pos += c;
    }
    int shift = 8 * b;
    for (int64_t i = 0; i < n; i++) {
      uint64_t k = src[i];
      int64_t at = h[(k >> shift) & 255]++;
      dst[at] = k;
      if (idx) idst[at] = isrc[i];
    }
    uint64_t *t = src; src = dst; dst = t;
    int64_t *u = isrc; isrc = idst; idst = u;
  }
  copy_back(keys, idx, src, isrc, n);
  free(hist);
}

/* ---- selection (partition) ------------------------------------------------ */

/* Introselect on keys[lo..hi): afterwards keys[kth] holds the key a full
 * sort would put there, the keys before it are not above it and the keys
 * after it not below it (idx, when not NULL, moves along).  Quickselect
 * with a median-of-three pivot and Hoare's partition (runs of equal keys
 * split in the middle); after 2*log2(n) rounds without converging (an
 * adversarial input), the remaining range is sorted instead, which bounds
 * the work by O(n log n).  This is what quantile and median stand on:
 * O(n) per selected position, no full sort. */
static inline void swap_at(uint64_t *keys, int64_t *idx, int64_t i, int64_t j) {
  uint64_t t = keys[i];
  keys[i] = keys[j];
  keys[j] = t;
  if (idx) {
    int64_t u = idx[i];
    idx[i] = idx[j];
    idx[j] = u;
  }
}

static void select_kth(uint64_t *keys, int64_t *idx, int64_t lo, int64_t hi, int64_t kth, int nbytes, uint64_t *tk,
                       int64_t *ti) {
  int limit = 2;
  for (int64_t m = hi - lo; m > 1; m >>= 1) limit += 2;
  while (hi - lo > 16) {
    if (limit-- == 0) {
      radix_sort(keys + lo, idx ? idx + lo : NULL, hi - lo, nbytes, tk, ti);
      return;
    }
    int64_t mid = lo + (hi - lo) / 2;
    if (keys[mid] < keys[lo]) swap_at(keys, idx, lo, mid);
    if (keys[hi - 1] < keys[lo]) swap_at(keys, idx, lo, hi - 1);
    if (keys[hi - 1] < keys[mid]) swap_at(keys, idx, mid, hi - 1);
    uint64_t pivot = keys[mid];
    int64_t i = lo - 1, j = hi;
    for (;;) { /* keys[lo] <= pivot <= keys[hi - 1] keep both scans in range */
      do i++; while (keys[i] < pivot);
      do j--; while (keys[j] > pivot);
      if (i >= j) break;
      swap_at(keys, idx, i, j);
    }
    /* [lo, j] <= pivot <= [j + 1, hi), both parts non-empty */
    if (kth <= j) hi = j + 1;
    else lo = j + 1;
  }
  insertion_sort(keys + lo, idx ? idx + lo : NULL, hi - lo);
}

/* ---- sort / argsort ------------------------------------------------------- */

typedef struct {
  uint64_t *keys, *tk;
  int64_t *idx, *ti;
} workspace;

static int workspace_alloc(workspace *w, int64_t n, int with_idx) {
  size_t m = (size_t)(n > 0 ? n : 1);
  w->keys = malloc(m * sizeof(uint64_t));
  w->tk = malloc(m * sizeof(uint64_t));
  w->idx = with_idx ? malloc(m * sizeof(int64_t)) : NULL;
  w->ti = with_idx ? malloc(m * sizeof(int64_t)) : NULL;
  return w->keys && w->tk && (!with_idx || (w->idx && w->ti)) ? 0 : -1;
}

static void workspace_free(workspace *w) {
  free(w->keys);
  free(w->tk);
  free(w->idx);
  free(w->ti);
}

/* Rows [r0, r1) of a sort: each row's keys sorted into its output row. */
typedef struct {
  const ma_array *x;
  ma_array *out;
  keyspec k;
  int arg, floating;
  const int64_t *kth; /* partition: the sorted positions to select (NULL: sort) */
  int64_t nkth;
  int64_t rows, chunk;
  int failed; /* out of memory in some chunk (atomic store) */
} sort_job;

static void sort_rows(sort_job *J, int64_t r0, int64_t r1) {
  const ma_array *x = J->x;
  ma_array *out = J->out;
  int nd = x->t.ndim, arg = J->arg, floating = J->floating;
  const keyspec *k = &J->k;
  int64_t n = x->t.shape[nd - 1], s = x->t.strides[nd - 1], os = out->t.strides[nd - 1];
  int64_t isz = ma_type_size[k->tid], osz = arg ? 8 : isz;
  /* Floats need the indices even for a values-only sort when a row holds
   * -0.0: it ties with 0.0 (stable order, as NumPy), so its sign cannot be
   * recovered from the key. */
  workspace w;
  if (workspace_alloc(&w, n, arg || floating) < 0) {
    workspace_free(&w);
    __atomic_store_n(&J->failed, 1, __ATOMIC_RELAXED);
    return;
  }
  /* Position of row r0 (rows in C order over x's leading dims). */
  int64_t ix[MA_MAXDIMS] = {0}, rem = r0;
  const char *p = (const char *)x->t.data;
  char *q = (char *)out->t.data;
  for (int d = nd - 2; d >= 0; d--) {
    ix[d] = rem % x->t.shape[d];
    rem /= x->t.shape[d];
    p += ix[d] * x->t.strides[d] * isz;
    q += ix[d] * out->t.strides[d] * osz;
  }
  for (int64_t r = r0; r < r1; r++) {
    int negzero = 0;
    for (int64_t i = 0; i < n; i++) {
      const char *e = p + i * s * isz;
      if (floating && raw_bits(k->nbytes, e) == k->sign) negzero = 1;
      w.keys[i] = to_key(k, e);
    }
    int carry = arg || negzero;
    if (carry)
      for (int64_t i = 0; i < n; i++) w.idx[i] = i;
    if (J->kth) {
      int64_t lo = 0; /* what lies past a selected position is not below it */
      for (int64_t j = 0; j < J->nkth; j++) {
        select_kth(w.keys, carry ? w.idx : NULL, lo, n, J->kth[j], k->nbytes, w.tk, w.ti);
        lo = J->kth[j] + 1;
      }
    } else {
      radix_sort(w.keys, carry ? w.idx : NULL, n, k->nbytes, w.tk, w.ti);
    }
    if (arg)
      for (int64_t i = 0; i < n; i++) *(int64_t *)(q + i * os * 8) = w.idx[i];
    else if (carry)
      for (int64_t i = 0; i < n; i++) memcpy(q + i * os * isz, p + w.idx[i] * s * isz, (size_t)isz);
    else
      for (int64_t i = 0; i < n; i++) store_bits(k->nbytes, q + i * os * isz, from_key(k, w.keys[i]));
    for (int d = nd - 2; d >= 0; d--) {
      p += x->t.strides[d] * isz;
      q += out->t.strides[d] * osz;
      if (++ix[d] < x->t.shape[d]) break;
      p -= x->t.strides[d] * x->t.shape[d] * isz;
      q -= out->t.strides[d] * x->t.shape[d] * osz;
      ix[d] = 0;
    }
  }
  workspace_free(&w);
}

static void sort_chunk(void *ctx, int64_t c) {
  sort_job *J = (sort_job *)ctx;
  int64_t r0 = c * J->chunk, r1 = r0 + J->chunk;
  sort_rows(J, r0, r1 < J->rows ? r1 : J->rows);
}


/* Run a job's rows, split over the thread pool when they are many and
 * long enough, without the GIL; None, or MemoryError when a row's buffer
 * could not be allocated. */
static PyObject *run_rows(sort_job *J, int64_t n) {
  int64_t rows = J->rows, nt = ma_get_num_threads();
  Py_BEGIN_ALLOW_THREADS
  if (nt > 1 && rows >= 2 && rows * n >= ma_get_parallel_min()) {
    J->chunk = (rows + MA_CHUNKS_PER_THREAD * nt - 1) / (MA_CHUNKS_PER_THREAD * nt);
    ma_parallel_for((rows + J->chunk - 1) / J->chunk, sort_chunk, J);
  } else {
    J->chunk = rows;
    sort_rows(J, 0, rows);
  }
  Py_END_ALLOW_THREADS
  if (J->failed) return PyErr_NoMemory();
  Py_RETURN_NONE;
}

/* sort(x, out, descending, arg): sort each run along x's last axis into the
 * matching run of out (x's dtype, or int64 indices when arg).  Rows are
 * independent, so large jobs spread them over the thread pool; each row's
 * result is the same whichever thread sorts it. */
static PyObject *py_sort(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
  (void)self;
  MA_NARGS(4, "sort");
  ma_array *x = ma_handle_get(args[0]), *out = x ? ma_handle_get(args[1]) : NULL;
  if (!out) return NULL;
  int descending = PyObject_IsTrue(args[2]), arg = PyObject_IsTrue(args[3]);
  if (descending < 0 || arg < 0) return NULL;
  int tid = ma_kernel_type(x, "sort");
  if (tid < 0) return NULL;
  int nd = x->t.ndim;
  if (tid < 0 || !key_bytes(tid))
    return PyErr_Format(PyExc_TypeError, "sort: unsupported dtype (complex values have no order)");
  if (nd < 1 || out->t.ndim != nd || ma_type_of(out->t.dtype) != (arg ? MA_INT64 : tid) ||
      (out->flags & MA_READONLY))
    return PyErr_Format(PyExc_ValueError, "sort: output does not match");
  for (int d = 0; d < nd; d++)
    if (out->t.shape[d] != x->t.shape[d]) return PyErr_Format(PyExc_ValueError, "sort: output shape differs");
  int64_t n = x->t.shape[nd - 1];
  int64_t rows = 1;
  for (int d = 0; d < nd - 1; d++) rows *= x->t.shape[d];
  if (rows == 0 || n == 0) Py_RETURN_NONE;
  sort_job J = {.x = x, .out = out, .k = make_keyspec(tid, 1, descending), .arg = arg,
                .floating = is_float(tid), .rows = rows};
  return run_rows(&J, n);
}

/* partition(x, out, kth, arg): each run along x's last axis selected into
 * the matching run of out (x's dtype, or int64 indices when arg) so that
 * the positions in kth (int64, 1-d, strictly increasing, in [0, n)) hold
 * what a sort would put there, smaller-or-equal elements before each and
 * larger-or-equal after (NumPy's partition/argpartition).  NaNs count as
 * the largest values; -0.0 orders before 0.0 here (the order among equal
 * elements is unspecified), so every value is written back exactly. */
static PyObject *py_partition(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
  (void)self;
  MA_NARGS(4, "partition");
  ma_array *x = ma_handle_get(args[0]), *out = x ? ma_handle_get(args[1]) : NULL,
           *kt = out ? ma_handle_get(args[2]) : NULL;
  if (!kt) return NULL;
  int arg = PyObject_IsTrue(args[3]);
  if (arg < 0) return NULL;
  int tid = ma_kernel_type(x, "partition");
  if (tid < 0) return NULL;
  int nd = x->t.ndim;
  if (tid < 0 || !key_bytes(tid))
    return PyErr_Format(PyExc_TypeError, "partition: unsupported dtype (complex values have no order)");
  if (nd < 1 || out->t.ndim != nd || ma_type_of(out->t.dtype) != (arg ? MA_INT64 : tid) ||
      (out->flags & MA_READONLY))
    return PyErr_Format(PyExc_ValueError, "partition: output does not match");
  for (int d = 0; d < nd; d++)
    if (out->t.shape[d] != x->t.shape[d]) return PyErr_Format(PyExc_ValueError, "partition: output shape differs");
  int64_t n = x->t.shape[nd - 1];
  if (kt->t.ndim != 1 || ma_type_of(kt->t.dtype) != MA_INT64 || !ma_array_is_contiguous(kt, 0))
    return PyErr_Format(PyExc_ValueError, "partition: kth must be a contiguous 1-d int64 array");
  const int64_t *kth = (const int64_t *)kt->t.data;
  int64_t nkth = kt->t.shape[0];
  for (int64_t j = 0; j < nkth; j++)
    if (kth[j] < 0 || kth[j] >= n || (j && kth[j] <= kth[j - 1]))
      return PyErr_Format(PyExc_ValueError, "partition: kth must increase strictly within [0, %lld)", (long long)n);
  int64_t rows = 1;
  for (int d = 0; d < nd - 1; d++) rows *= x->t.shape[d];
  if (rows == 0 || n == 0) Py_RETURN_NONE;
  /* floating stays 0: keys keep -0.0 apart, so the values come back from them exactly */
  sort_job J = {.x = x, .out = out, .k = make_keyspec(tid, 0, 0), .arg = arg, .kth = kth, .nkth = nkth,
                .rows = rows};
  return run_rows(&J, n);
}

/* ---- searchsorted ---------------------------------------------------------- */

/* searchsorted(x1, x2, out, right): x1 1-d sorted, x2 any shape of the same
 * dtype, out int64 C-contiguous of x2's shape. */
static PyObject *py_searchsorted(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
  (void)self;
  MA_NARGS(4, "searchsorted");
  ma_array *a = ma_handle_get(args[0]), *v = a ? ma_handle_get(args[1]) : NULL,
           *out = v ? ma_handle_get(args[2]) : NULL;
  if (!out) return NULL;
  int right = PyObject_IsTrue(args[3]);
  if (right < 0) return NULL;
  int tid = ma_kernel_type(a, "searchsorted");
  if (tid < 0) return NULL;
  if (!key_bytes(tid) || ma_type_of(v->t.dtype) != tid)
    return PyErr_Format(PyExc_TypeError, "searchsorted: both arrays need one real dtype");
  if (a->t.ndim != 1 || out->t.ndim != v->t.ndim || ma_type_of(out->t.dtype) != MA_INT64)
    return PyErr_Format(PyExc_ValueError, "searchsorted: bad shapes");
  int64_t n = a->t.shape[0], sa = a->t.strides[0], isz = ma_type_size[tid];
  int64_t m = ma_array_size(v);
  uint64_t *keys = malloc((size_t)(n > 0 ? n : 1) * sizeof(uint64_t));
  if (!keys) return PyErr_NoMemory();
  keyspec k = make_keyspec(tid, 1, 0);
  Py_BEGIN_ALLOW_THREADS
  for (int64_t i = 0; i < n; i++) keys[i] = to_key(&k, (const char *)a->t.data + i * sa * isz);
  int64_t ix[MA_MAXDIMS] = {0};
  const char *p = (const char *)v->t.data;
  int64_t *o = (int64_t *)out->t.data;
  int vd = v->t.ndim;
  for (int64_t j = 0; j < m; j++) {
    uint64_t key = to_key(&k, p);
    int64_t lo = 0, hi = n;
    while (lo < hi) {
      int64_t mid = lo + (hi - lo) / 2;
      if (right ? keys[mid] <= key : keys[mid] < key) lo = mid + 1;
      else hi = mid;
    }
    o[j] = lo;
    for (int d = vd - 1; d >= 0; d--) {
      p += v->t.strides[d] * isz;
      if (++ix[d] < v->t.shape[d]) break;
      p -= v->t.strides[d] * v->t.shape[d] * isz;
      ix[d] = 0;
    }
  }
  Py_END_ALLOW_THREADS
  free(keys);
  Py_RETURN_NONE;
}

/* ---- unique ------------------------------------------------------------------ */

static ma_array *new_1d(DLDataType dt, int64_t n) {
  int err = 0;
  return ma_array_empty(dt, 1, &n, 0, &err);
}

/* unique(x) -> (n, values, indices, inverse, counts), handles over the
 * C-ordered elements of x: sorted distinct values (each NaN distinct, -0.0
 * equal to 0.0), the index of each value's first occurrence, each
 * element's position in values (x's shape), and how often each occurs. */
static PyObject *py_unique(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
  (void)self;
  MA_NARGS(1, "unique");
  ma_array *x = ma_handle_get(args[0]);
  if (!x) return NULL;
  int tid = ma_kernel_type(x, "unique");
  if (tid < 0) return NULL;
  if (tid < 0 || !key_bytes(tid))
    return PyErr_Format(PyExc_TypeError, "unique: unsupported dtype (complex values have no order)");
  int64_t n = ma_array_size(x), isz = ma_type_size[tid];
  workspace w;
  if (workspace_alloc(&w, n, 1) < 0) {
    workspace_free(&w);
    return PyErr_NoMemory();
  }
  keyspec k = make_keyspec(tid, 1, 0);
  int64_t groups = 0;
  int nd = x->t.ndim;
  Py_BEGIN_ALLOW_THREADS
  int64_t ix[MA_MAXDIMS] = {0};
  const char *p = (const char *)x->t.data;
  for (int64_t i = 0; i < n; i++) {
    w.keys[i] = to_key(&k, p);
    w.idx[i] = i;
    for (int d = nd - 1; d >= 0; d--) {
      p += x->t.strides[d] * isz;
      if (++ix[d] < x->t.shape[d]) break;
      p -= x->t.strides[d] * x->t.shape[d] * isz;
      ix[d] = 0;
    }
  }
  radix_sort(w.keys, w.idx, n, k.nbytes, w.tk, w.ti);
  /* A new group starts where the key changes, and at every NaN (NaN keys
   * are the all-ones key, and only a NaN has it for floats). */
  for (int64_t i = 0; i < n; i++)
    if (i == 0 || w.keys[i] != w.keys[i - 1] || (is_float(tid) && w.keys[i] == k.mask)) groups++;
  Py_END_ALLOW_THREADS
  DLDataType i64 = {kDLInt, 64, 1};
  int err = 0;
  ma_array *values = new_1d(x->t.dtype, groups), *first = new_1d(i64, groups),
           *counts = new_1d(i64, groups), *inverse = ma_array_empty(i64, nd, x->t.shape, 0, &err);
  if (!values || !first || !counts || !inverse) {
    ma_array_free(values);
    ma_array_free(first);
    ma_array_free(counts);
    ma_array_free(inverse);
    workspace_free(&w);
    return PyErr_NoMemory();
  }
  Py_BEGIN_ALLOW_THREADS
  /* The element at flat C index f lives at this byte offset. */
  int64_t g = -1;
  int64_t *fo = (int64_t *)first->t.data, *co = (int64_t *)counts->t.data, *io = (int64_t *)inverse->t.data;
  char *vo = (char *)values->t.data;
  for (int64_t i = 0; i < n; i++) {
    if (i == 0 || w.keys[i] != w.keys[i - 1] || (is_float(tid) && w.keys[i] == k.mask)) {
      g++;
      int64_t f = w.idx[i], off = 0;
      for (int d = nd - 1; d >= 0; d--) {
        off += (f % x->t.shape[d]) * x->t.strides[d];
        f /= x->t.shape[d];
      }
      memcpy(vo + g * isz, (const char *)x->t.data + off * isz, (size_t)isz);
      fo[g] = w.idx[i];
      co[g] = 0;
    }
    co[g]++;
    io[w.idx[i]] = g;
  }
  Py_END_ALLOW_THREADS
  workspace_free(&w);
  PyObject *hv = ma_handle_new(values), *hf = ma_handle_new(first), *hi = ma_handle_new(inverse),
           *hc = ma_handle_new(counts);
  if (!hv || !hf || !hi || !hc) {
    Py_XDECREF(hv);
    Py_XDECREF(hf);
    Py_XDECREF(hi);
    Py_XDECREF(hc);
    return NULL;
  }
  return Py_BuildValue("(LNNNN)", (long long)groups, hv, hf, hi, hc);
}

#define FC(name, fn, doc) {name, (PyCFunction)(void (*)(void))fn, METH_FASTCALL, doc}
PyMethodDef ma_sort_methods[] = {
    FC("sort", py_sort, "sort(x, out, descending, arg)"),
    FC("partition", py_partition, "partition(x, out, kth, arg)"),
    FC("searchsorted", py_searchsorted, "searchsorted(x1, x2, out, right)"),
    FC("unique", py_unique, "unique(x) -> (n, values, indices, inverse, counts)"),
    {NULL, NULL, 0, NULL}};
