/*
 * The sort kernels (see sort.h): order-preserving keys, the stable radix
 * sort, the introselect, and the row, search and unique passes over them.
 * Plain C, run without the GIL by csrc/py/sort_entry.c.
 */
#include "sort.h"

#include <stdlib.h>
#include <string.h>

#include "copy.h"
#include "iterate.h"
#include "threads.h"

/* ---- keys ---------------------------------------------------------------- */

/* Key width in bytes of a dtype (0: not sortable). */
int ma_sort_key_bytes(int tid) {
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

static inline keyspec make_keyspec(int tid, int zero_equal, int descending) {
  keyspec k;
  k.tid = tid;
  k.nbytes = ma_sort_key_bytes(tid);
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

/* A row's keys and back, with the dtype switch taken once per row: each
 * case is the same inline to_key / from_key with the key's width and type
 * known to the compiler, where the generic loop paid three switches per
 * element (a third of a median's time).  Every case computes exactly what
 * to_key / from_key compute. */
#define MA_SORT_TYPES(X)                                                                      \
  X(MA_BOOL) X(MA_INT8) X(MA_UINT8) X(MA_INT16) X(MA_UINT16) X(MA_FLOAT16) X(MA_BFLOAT16)   \
  X(MA_INT32) X(MA_UINT32) X(MA_FLOAT32) X(MA_INT64) X(MA_UINT64) X(MA_FLOAT64)

/* keys[i] = the key of element i of the row at p (stride `step` bytes);
 * returns whether it holds a -0.0 (only looked for when `negzero` asks). */
static int row_keys(const keyspec *k, const char *p, int64_t step, int64_t n, uint64_t *keys, int negzero) {
  int seen = 0;
  switch (k->tid) {
#define ROW_KEYS(TID)                                                          \
  case TID: {                                                                  \
    const keyspec kk = make_keyspec(TID, k->zero_equal, k->descending);        \
    for (int64_t i = 0; i < n; i++) {                                          \
      const char *e = p + i * step;                                            \
      if (negzero && raw_bits(kk.nbytes, e) == kk.sign) seen = 1;              \
      keys[i] = to_key(&kk, e);                                                \
    }                                                                          \
    break;                                                                     \
  }
    MA_SORT_TYPES(ROW_KEYS)
#undef ROW_KEYS
  }
  return seen;
}

/* Element i of the row at q (stride `step` bytes) = the value of keys[i]. */
static void row_values(const keyspec *k, const uint64_t *keys, int64_t n, char *q, int64_t step) {
  switch (k->tid) {
#define ROW_VALUES(TID)                                                        \
  case TID: {                                                                  \
    const keyspec kk = make_keyspec(TID, k->zero_equal, k->descending);        \
    for (int64_t i = 0; i < n; i++) store_bits(kk.nbytes, q + i * step, from_key(&kk, keys[i])); \
    break;                                                                     \
  }
    MA_SORT_TYPES(ROW_VALUES)
#undef ROW_VALUES
  }
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

/* Boundaries a selection leaves behind: positions b of a row where every
 * key before b is not above any key from b on.  Each split of a quickselect
 * round is one (its two parts lie inside a range that was already
 * bracketed), and so are a selected position and the one after it.  The
 * next selection of the same row starts from the narrowest pair around its
 * position instead of the whole row: selecting the median's two middle
 * positions and the last one (what median and quantile ask for, as NumPy's
 * introselect does with its pivot stack) then costs one full quickselect,
 * not three. */
#define SEL_BOUNDS 128
typedef struct {
  int64_t at[SEL_BOUNDS];
  int n;
} sel_bounds;

static void bound_add(sel_bounds *b, int64_t at) {
  if (b->n < SEL_BOUNDS) b->at[b->n++] = at; /* (a full list only narrows less) */
}

/* The narrowest recorded bracket [*lo, *hi) around kth, within [lo, hi). */
static void bound_narrow(const sel_bounds *b, int64_t kth, int64_t *lo, int64_t *hi) {
  for (int i = 0; i < b->n; i++) {
    int64_t at = b->at[i];
    if (at <= kth && at > *lo) *lo = at;
    if (at > kth && at < *hi) *hi = at;
  }
}

static void select_kth(uint64_t *keys, int64_t *idx, int64_t lo, int64_t hi, int64_t kth, int nbytes, uint64_t *tk,
                       int64_t *ti, sel_bounds *bounds) {
  int limit = 2;
  for (int64_t m = hi - lo; m > 1; m >>= 1) limit += 2;
  while (hi - lo > 16) {
    if (kth == hi - 1 || kth == lo) {
      /* the largest (smallest) key of the range: one pass, not a
       * quickselect (NaN, the largest key, is what median looks for at
       * the end of a row) */
      int64_t best = lo;
      if (kth == lo) {
        for (int64_t i = lo + 1; i < hi; i++)
          if (keys[i] < keys[best]) best = i;
      } else {
        for (int64_t i = lo + 1; i < hi; i++)
          if (keys[i] >= keys[best]) best = i;
      }
      swap_at(keys, idx, kth, best);
      return;
    }
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
    bound_add(bounds, j + 1);
    if (kth <= j) hi = j + 1;
    else lo = j + 1;
  }
  insertion_sort(keys + lo, idx ? idx + lo : NULL, hi - lo);
}

/* ---- sort / argsort ------------------------------------------------------- */

int ma_sort_workspace_alloc(ma_sort_workspace *w, int64_t n, int with_idx) {
  size_t m = (size_t)(n > 0 ? n : 1);
  w->keys = malloc(m * sizeof(uint64_t));
  w->tk = malloc(m * sizeof(uint64_t));
  w->idx = with_idx ? malloc(m * sizeof(int64_t)) : NULL;
  w->ti = with_idx ? malloc(m * sizeof(int64_t)) : NULL;
  return w->keys && w->tk && (!with_idx || (w->idx && w->ti)) ? 0 : -1;
}

void ma_sort_workspace_free(ma_sort_workspace *w) {
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
  ma_sort_workspace w;
  if (ma_sort_workspace_alloc(&w, n, arg || floating) < 0) {
    ma_sort_workspace_free(&w);
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
  /* A partition of 8-byte values into rows of its own, contiguous, selects
   * in the output row itself (a key is as wide as a value): no 8-byte
   * workspace per element to fault in and read back, and the row is
   * converted back where it lies.  Only when the output shares no memory
   * with the input, or walks exactly its bytes (each element is read just
   * before its key takes its place); otherwise the input row is read whole
   * into the workspace first. */
  int inplace = J->kth && !arg && !floating && isz == 8 && os == 1 && !ma_must_snapshot(out, x);
  for (int64_t r = r0; r < r1; r++) {
    uint64_t *keys = inplace ? (uint64_t *)q : w.keys;
    int negzero = row_keys(k, p, s * isz, n, keys, floating);
    int carry = arg || negzero;
    if (carry)
      for (int64_t i = 0; i < n; i++) w.idx[i] = i;
    if (J->kth) {
      sel_bounds bounds;
      bounds.n = 0;
      for (int64_t j = 0; j < J->nkth; j++) {
        int64_t kth = J->kth[j], lo = 0, hi = n;
        bound_narrow(&bounds, kth, &lo, &hi);
        select_kth(keys, carry ? w.idx : NULL, lo, hi, kth, k->nbytes, w.tk, w.ti, &bounds);
        bound_add(&bounds, kth);
        bound_add(&bounds, kth + 1);
      }
    } else {
      radix_sort(w.keys, carry ? w.idx : NULL, n, k->nbytes, w.tk, w.ti);
    }
    if (arg)
      for (int64_t i = 0; i < n; i++) *(int64_t *)(q + i * os * 8) = w.idx[i];
    else if (carry)
      for (int64_t i = 0; i < n; i++) memcpy(q + i * os * isz, p + w.idx[i] * s * isz, (size_t)isz);
    else
      row_values(k, keys, n, q, os * isz);
    for (int d = nd - 2; d >= 0; d--) {
      p += x->t.strides[d] * isz;
      q += out->t.strides[d] * osz;
      if (++ix[d] < x->t.shape[d]) break;
      p -= x->t.strides[d] * x->t.shape[d] * isz;
      q -= out->t.strides[d] * x->t.shape[d] * osz;
      ix[d] = 0;
    }
  }
  ma_sort_workspace_free(&w);
}

static void sort_chunk(void *ctx, int64_t c) {
  sort_job *J = (sort_job *)ctx;
  int64_t r0 = c * J->chunk, r1 = r0 + J->chunk;
  sort_rows(J, r0, r1 < J->rows ? r1 : J->rows);
}

/* Rows of x's last axis: how many (x's leading dims), 0 when x is empty. */
static int64_t row_count(const ma_array *x) {
  int64_t rows = 1;
  for (int d = 0; d < x->t.ndim - 1; d++) rows *= x->t.shape[d];
  return x->t.shape[x->t.ndim - 1] ? rows : 0;
}

/* Run a job's rows, split over the thread pool when they are many and
 * long enough; 0, or -1 when a row's buffer could not be allocated. */
static int run_rows(sort_job *J) {
  int64_t rows = J->rows, n = J->x->t.shape[J->x->t.ndim - 1], nt = ma_get_num_threads();
  if (rows == 0) return 0;
  if (nt > 1 && rows >= 2 && rows * n >= ma_get_parallel_min()) {
    J->chunk = (rows + MA_CHUNKS_PER_THREAD * nt - 1) / (MA_CHUNKS_PER_THREAD * nt);
    ma_parallel_for((rows + J->chunk - 1) / J->chunk, sort_chunk, J);
  } else {
    J->chunk = rows;
    sort_rows(J, 0, rows);
  }
  return J->failed ? -1 : 0;
}

int ma_sort(const ma_array *x, ma_array *out, int descending, int arg) {
  int tid = ma_type_of(x->t.dtype);
  sort_job J = {.x = x, .out = out, .k = make_keyspec(tid, 1, descending), .arg = arg,
                .floating = is_float(tid), .rows = row_count(x)};
  return run_rows(&J);
}

int ma_partition(const ma_array *x, ma_array *out, const int64_t *kth, int64_t nkth, int arg) {
  /* floating stays 0: keys keep -0.0 apart, so the values come back from them exactly */
  sort_job J = {.x = x, .out = out, .k = make_keyspec(ma_type_of(x->t.dtype), 0, 0), .arg = arg, .kth = kth,
                .nkth = nkth, .rows = row_count(x)};
  return run_rows(&J);
}

/* ---- searchsorted ---------------------------------------------------------- */

int ma_searchsorted(const ma_array *a, const ma_array *v, int64_t *out, int right) {
  int tid = ma_type_of(a->t.dtype);
  int64_t n = a->t.shape[0], sa = a->t.strides[0], isz = ma_type_size[tid];
  int64_t m = ma_array_size(v);
  uint64_t *keys = malloc((size_t)(n > 0 ? n : 1) * sizeof(uint64_t));
  if (!keys) return -1;
  keyspec k = make_keyspec(tid, 1, 0);
  for (int64_t i = 0; i < n; i++) keys[i] = to_key(&k, (const char *)a->t.data + i * sa * isz);
  int64_t ix[MA_MAXDIMS] = {0};
  const char *p = (const char *)v->t.data;
  int vd = v->t.ndim;
  for (int64_t j = 0; j < m; j++) {
    uint64_t key = to_key(&k, p);
    int64_t lo = 0, hi = n;
    while (lo < hi) {
      int64_t mid = lo + (hi - lo) / 2;
      if (right ? keys[mid] <= key : keys[mid] < key) lo = mid + 1;
      else hi = mid;
    }
    out[j] = lo;
    for (int d = vd - 1; d >= 0; d--) {
      p += v->t.strides[d] * isz;
      if (++ix[d] < v->t.shape[d]) break;
      p -= v->t.strides[d] * v->t.shape[d] * isz;
      ix[d] = 0;
    }
  }
  free(keys);
  return 0;
}

/* ---- unique ------------------------------------------------------------------ */

/* Whether sorted key i starts a group: the key changes there, or it is a
 * NaN (NaN keys are the all-ones key, and only a NaN has it for floats). */
static inline int starts_group(const keyspec *k, const uint64_t *keys, int64_t i) {
  return i == 0 || keys[i] != keys[i - 1] || (is_float(k->tid) && keys[i] == k->mask);
}

int64_t ma_unique_sort(const ma_array *x, ma_sort_workspace *w) {
  int tid = ma_type_of(x->t.dtype), nd = x->t.ndim;
  int64_t n = ma_array_size(x), isz = ma_type_size[tid], groups = 0;
  keyspec k = make_keyspec(tid, 1, 0);
  int64_t ix[MA_MAXDIMS] = {0};
  const char *p = (const char *)x->t.data;
  for (int64_t i = 0; i < n; i++) {
    w->keys[i] = to_key(&k, p);
    w->idx[i] = i;
    for (int d = nd - 1; d >= 0; d--) {
      p += x->t.strides[d] * isz;
      if (++ix[d] < x->t.shape[d]) break;
      p -= x->t.strides[d] * x->t.shape[d] * isz;
      ix[d] = 0;
    }
  }
  radix_sort(w->keys, w->idx, n, k.nbytes, w->tk, w->ti);
  for (int64_t i = 0; i < n; i++) groups += starts_group(&k, w->keys, i);
  return groups;
}

int64_t ma_unique_keys(const ma_array *x, ma_sort_workspace *w) {
  int tid = ma_type_of(x->t.dtype), nd = x->t.ndim;
  int64_t n = ma_array_size(x), isz = ma_type_size[tid];
  keyspec k = make_keyspec(tid, 1, 0);
  if (n == 0) return 0;
  if (ma_array_is_contiguous(x, 0)) {
    row_keys(&k, (const char *)x->t.data, isz, n, w->keys, 0);
  } else {
    int64_t ix[MA_MAXDIMS] = {0};
    const char *p = (const char *)x->t.data;
    for (int64_t i = 0; i < n; i++) {
      w->keys[i] = to_key(&k, p);
      for (int d = nd - 1; d >= 0; d--) {
        p += x->t.strides[d] * isz;
        if (++ix[d] < x->t.shape[d]) break;
        p -= x->t.strides[d] * x->t.shape[d] * isz;
        ix[d] = 0;
      }
    }
  }
  radix_sort(w->keys, NULL, n, k.nbytes, w->tk, NULL);
  int64_t g = 1;
  for (int64_t i = 1; i < n; i++)
    if (w->keys[i] != w->keys[g - 1]) w->keys[g++] = w->keys[i];
  return g;
}

void ma_unique_keys_fill(const ma_array *x, const ma_sort_workspace *w, ma_array *values) {
  keyspec k = make_keyspec(ma_type_of(x->t.dtype), 1, 0);
  row_values(&k, w->keys, values->t.shape[0], (char *)values->t.data, ma_type_size[k.tid]);
}

void ma_unique_fill(const ma_array *x, const ma_sort_workspace *w, ma_array *values, ma_array *first,
                    ma_array *inverse, ma_array *counts) {
  int tid = ma_type_of(x->t.dtype), nd = x->t.ndim;
  int64_t n = ma_array_size(x), isz = ma_type_size[tid];
  keyspec k = make_keyspec(tid, 1, 0);
  int64_t g = -1;
  int64_t *fo = (int64_t *)first->t.data, *co = (int64_t *)counts->t.data, *io = (int64_t *)inverse->t.data;
  char *vo = (char *)values->t.data;
  for (int64_t i = 0; i < n; i++) {
    if (starts_group(&k, w->keys, i)) {
      g++;
      /* the element at flat C index f lives at this element offset */
      int64_t f = w->idx[i], off = 0;
      for (int d = nd - 1; d >= 0; d--) {
        off += (f % x->t.shape[d]) * x->t.strides[d];
        f /= x->t.shape[d];
      }
      memcpy(vo + g * isz, (const char *)x->t.data + off * isz, (size_t)isz);
      fo[g] = w->idx[i];
      co[g] = 0;
    }
    co[g]++;
    io[w->idx[i]] = g;
  }
}
