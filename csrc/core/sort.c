/*
 * The sort kernels (see sort.h): order-preserving keys, the stable radix
 * sort, the introselect, and the row, search and unique passes over them.
 * Plain C, run without the GIL by csrc/py/sort_entry.c.
 */
#include "sort.h"

#include <stdlib.h>
#include <string.h>

#include "buffer.h"
#include "copy.h"
#include "iterate.h"
#include "threads.h"
#include "vsort.h"

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

/* Both directions are written without branches on the value (the sign
 * of random floats defeats a branch predictor: a third of a sort's key
 * pass went to mispredictions); the selects compile to conditional moves
 * and vectorise. */
static inline uint64_t to_key(const keyspec *k, const char *p) {
  uint64_t u = raw_bits(k->nbytes, p), key;
  if (is_float(k->tid)) {
    uint64_t mag = u & ~k->sign, neg = (uint64_t)0 - ((u & k->sign) != 0);
    /* negatives: every bit flipped; the others: the sign bit set */
    key = u ^ ((neg & k->mask) | k->sign);
    if (k->zero_equal) key = mag == 0 ? k->sign : key; /* -0.0: 0.0's key */
    key = mag > inf_bits(k->tid) ? k->mask : key;      /* every NaN: the largest key */
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
    uint64_t nan;
    switch (k->tid) { /* a NaN: the quiet NaN of the type */
      case MA_FLOAT16: nan = 0x7e00u; break;
      case MA_BFLOAT16: nan = 0x7fc0u; break;
      case MA_FLOAT32: nan = 0x7fc00000u; break;
      default: nan = 0x7ff8000000000000ull;
    }
    uint64_t pos = (uint64_t)0 - ((key & k->sign) != 0);
    uint64_t u = key ^ (k->sign | (~pos & k->mask));
    return key == k->mask ? nan : u;
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
MA_HOT static int row_keys(const keyspec *k, const char *p, int64_t step, int64_t n, uint64_t *keys, int negzero) {
  int seen = 0;
  switch (k->tid) {
#define ROW_KEYS(TID)                                                          \
  case TID: {                                                                  \
    const keyspec kk = make_keyspec(TID, k->zero_equal, k->descending);        \
    for (int64_t i = 0; i < n; i++) {                                          \
      const char *e = p + i * step;                                            \
      if (negzero) seen |= raw_bits(kk.nbytes, e) == kk.sign;                  \
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
MA_HOT static void row_values(const keyspec *k, const uint64_t *keys, int64_t n, char *q, int64_t step) {
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
 * stable).  Below ~1000 keys this beats the radix splits, whose
 * 256-bucket counts cost more than the keys themselves. */
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

/* Sorts of more than MERGE_MAX keys go most significant digit first: one
 * stable pass scatters the keys by their top 8 differing bits into 256
 * buckets (fewer bits for short runs), and each bucket is split the same
 * way in turn, until it holds
 * at most SMALL_RUN keys (sorted by insertion) or keys all equal.  Past the
 * first split a bucket fits in cache, where the LSD passes over the whole
 * array each scattered every key to 256 places across memory, eight times
 * for 8-byte keys: those scattered writes were most of a sort's time.  The
 * first split's buckets are independent, so large sorts run them on the
 * thread pool; whichever thread sorts a bucket, the result is the same
 * (every step is stable). */
#define SMALL_RUN 16
#define LEAF_KEYS 2
#define MSD_PARALLEL 65536

typedef struct {
  uint64_t *keys, *tk;
  int64_t *idx, *ti;
  int64_t start[257];
} msd_job;

static void msd_sort(uint64_t *keys, int64_t *idx, int64_t n, uint64_t *tk, int64_t *ti, int parallel);

/* Bucket c of a split: sorted in the scratch (where the split put it),
 * then copied back while it is still in cache. */
static void msd_bucket(void *ctx, int64_t c) {
  msd_job *J = (msd_job *)ctx;
  int64_t lo = J->start[c], m = J->start[c + 1] - lo;
  if (m == 0) return;
  uint64_t *k = J->tk + lo, *s = J->keys + lo;
  int64_t *i = J->idx ? J->ti + lo : NULL, *si = J->idx ? J->idx + lo : NULL;
  msd_sort(k, i, m, s, si, 0);
  memcpy(s, k, (size_t)m * sizeof(uint64_t));
  if (si) memcpy(si, i, (size_t)m * sizeof(int64_t));
}

static void msd_sort(uint64_t *keys, int64_t *idx, int64_t n, uint64_t *tk, int64_t *ti, int parallel) {
  if (n <= SMALL_RUN) {
    insertion_sort(keys, idx, n);
    return;
  }
  uint64_t diff = 0, k0 = keys[0];
  for (int64_t i = 0; i < n; i++) diff |= keys[i] ^ k0;
  if (!diff) return; /* all equal: sorted, and stable as it stands */
  /* a digit of up to 8 bits, fewer for a short run (LEAF_KEYS keys a
   * bucket on average at least), so that near the leaves empty buckets do
   * not cost more than the keys */
  int bits = 63 - __builtin_clzll((uint64_t)n / LEAF_KEYS);
  bits = bits > 8 ? 8 : bits < 1 ? 1 : bits;
  int top = 63 - __builtin_clzll(diff), shift = top >= bits - 1 ? top - bits + 1 : 0;
  uint64_t dmask = ((uint64_t)1 << bits) - 1;
  int64_t nb = (int64_t)1 << bits;
  msd_job J = {.keys = keys, .tk = tk, .idx = idx, .ti = ti};
  int64_t count[256] = {0}, pos[256];
  for (int64_t i = 0; i < n; i++) count[(keys[i] >> shift) & dmask]++;
  int64_t at = 0;
  for (int64_t d = 0; d < nb; d++) {
    J.start[d] = pos[d] = at;
    at += count[d];
  }
  J.start[nb] = n;
  for (int64_t i = 0; i < n; i++) {
    uint64_t k = keys[i];
    int64_t to = pos[(k >> shift) & dmask]++;
    tk[to] = k;
    if (idx) ti[to] = idx[i];
  }
  if (parallel && n >= MSD_PARALLEL && ma_get_num_threads() > 1) ma_parallel_for(nb, msd_bucket, &J);
  else
    for (int64_t c = 0; c < nb; c++) msd_bucket(&J, c);
}

/* Sort keys[0..n) ascending, carrying idx (may be NULL) along; stable.
 * tk/ti: scratch of the same sizes. */
static void radix_sort(uint64_t *keys, int64_t *idx, int64_t n, uint64_t *tk, int64_t *ti) {
  /* without positions to carry, stability is invisible: the vector sort */
  if (!idx && n > SMALL_RUN && ma_vsort_keys(keys, tk, n)) return;
  if (n > MERGE_MAX) msd_sort(keys, idx, n, tk, ti, 1);
  else merge_sort(keys, idx, n, tk, ti);
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

static void select_kth(uint64_t *keys, int64_t *idx, int64_t lo, int64_t hi, int64_t kth, uint64_t *tk,
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
      radix_sort(keys + lo, idx ? idx + lo : NULL, hi - lo, tk, ti);
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
  w->negzero = 0;
  /* fresh pages, all written: first-touch faults were a tenth of a large
   * unique's time */
  if (w->keys) ma_advise_hugepages(w->keys, m * sizeof(uint64_t));
  if (w->tk) ma_advise_hugepages(w->tk, m * sizeof(uint64_t));
  if (w->idx) ma_advise_hugepages(w->idx, m * sizeof(int64_t));
  if (w->ti) ma_advise_hugepages(w->ti, m * sizeof(int64_t));
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
        select_kth(keys, carry ? w.idx : NULL, lo, hi, kth, w.tk, w.ti, &bounds);
        bound_add(&bounds, kth);
        bound_add(&bounds, kth + 1);
      }
    } else {
      radix_sort(w.keys, carry ? w.idx : NULL, n, w.tk, w.ti);
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
  radix_sort(w->keys, w->idx, n, w->tk, w->ti);
  for (int64_t i = 0; i < n; i++) groups += starts_group(&k, w->keys, i);
  return groups;
}

/* The distinct keys of a set without sorting all of it: each found once,
 * then only those sorted.  A key range narrower than BITMAP_PER_KEY bits
 * per element marks a bitmap (one bit per possible key; reading it back in
 * order yields the distinct keys sorted, no sort at all: integers of a
 * bounded range, whatever their count).  Otherwise an open-addressing hash
 * set collects them, given up as soon as more than one key in HASH_SHARE
 * turns out distinct (most keys distinct: a hash set only adds work to
 * the sort that follows).  NumPy's unique takes a hash set for integers
 * always; the bitmap and the early give-up are what keep many distinct
 * values from costing more than the sort they replace. */
#define BITMAP_PER_KEY 32
#define HASH_SHARE 32
#define HASH_MIN_SLOTS 1024

/* The distinct keys among keys[0..n) that `skip` does not name (NaN keys,
 * counted apart), min..max their range: written sorted to out (room for
 * n), their count returned; -1 when the bitmap could not be allocated. */
static int64_t distinct_by_bitmap(const uint64_t *keys, int64_t n, uint64_t lo, uint64_t hi, int skip,
                                  uint64_t skipped, uint64_t *out) {
  uint64_t words = ((hi - lo) >> 6) + 1;
  uint64_t *bits = calloc((size_t)words, sizeof(uint64_t));
  if (!bits) return -1;
  for (int64_t i = 0; i < n; i++) {
    uint64_t d = keys[i] - lo;
    if (skip && keys[i] == skipped) continue;
    bits[d >> 6] |= (uint64_t)1 << (d & 63);
  }
  int64_t g = 0;
  for (uint64_t wi = 0; wi < words; wi++)
    for (uint64_t b = bits[wi]; b; b &= b - 1) out[g++] = lo + (wi << 6) + (uint64_t)__builtin_ctzll(b);
  free(bits);
  return g;
}

/* The distinct keys, unsorted, into out through a hash set, or -1 when
 * more than n / HASH_SHARE of them are distinct (or memory ran out): the
 * caller sorts instead.  Key 0 marks an empty slot, so it is noted apart. */
static int64_t distinct_by_hash(const uint64_t *keys, int64_t n, int skip, uint64_t skipped, uint64_t *out) {
  int64_t limit = n / HASH_SHARE, g = 0;
  int bits = 10;
  uint64_t slots = (uint64_t)1 << bits;
  uint64_t *table = calloc((size_t)slots, sizeof(uint64_t));
  int zero = 0;
  if (!table) return -1;
  for (int64_t i = 0; i < n; i++) {
    uint64_t k = keys[i];
    if (skip && k == skipped) continue;
    if (k == 0) {
      zero = 1;
      continue;
    }
    uint64_t h = (k * 0x9E3779B97F4A7C15ull) >> (64 - bits);
    while (table[h] && table[h] != k) h = (h + 1) & (slots - 1);
    if (table[h]) continue;
    table[h] = k;
    if (++g * 2 <= (int64_t)slots) continue;
    /* half full: twice the slots, every key placed again, unless too many
     * keys are distinct for a set to pay */
    if (g > limit) {
      free(table);
      return -1;
    }
    uint64_t *old = table, oslots = slots;
    bits++;
    slots <<= 1;
    table = calloc((size_t)slots, sizeof(uint64_t));
    if (!table) {
      free(old);
      return -1;
    }
    for (uint64_t j = 0; j < oslots; j++) {
      uint64_t v = old[j];
      if (!v) continue;
      uint64_t p = (v * 0x9E3779B97F4A7C15ull) >> (64 - bits);
      while (table[p]) p = (p + 1) & (slots - 1);
      table[p] = v;
    }
    free(old);
  }
  g = 0;
  if (zero) out[g++] = 0;
  for (uint64_t j = 0; j < slots; j++)
    if (table[j]) out[g++] = table[j];
  free(table);
  return g;
}

/* Whether the first zero of x (C order) is -0.0: the value NumPy's stable
 * grouping keeps for the zeros' group (-0.0 and 0.0 are one value). */
static int first_zero_is_negative(const ma_array *x, const keyspec *k) {
  int nd = x->t.ndim;
  int64_t n = ma_array_size(x), isz = ma_type_size[k->tid], ix[MA_MAXDIMS] = {0};
  const char *p = (const char *)x->t.data;
  for (int64_t i = 0; i < n; i++) {
    uint64_t u = raw_bits(k->nbytes, p);
    if ((u & ~k->sign) == 0) return u != 0;
    for (int d = nd - 1; d >= 0; d--) {
      p += x->t.strides[d] * isz;
      if (++ix[d] < x->t.shape[d]) break;
      p -= x->t.strides[d] * x->t.shape[d] * isz;
      ix[d] = 0;
    }
  }
  return 0;
}

/* What unique's values ask of a run of keys besides the keys: whether the
 * elements hold a -0.0, how many are NaN (floats: the all-ones key, no
 * other value has it), and the range of the others. */
typedef struct {
  int negzero;
  int64_t nans;
  uint64_t lo, hi;
} key_summary;

static key_summary summarize_keys(const uint64_t *keys, int64_t n, int floating, uint64_t nan_key, int negzero) {
  key_summary s = {negzero, 0, ~(uint64_t)0, 0};
  for (int64_t i = 0; i < n; i++) {
    uint64_t key = keys[i];
    if (floating && key == nan_key) {
      s.nans++;
      continue;
    }
    s.lo = key < s.lo ? key : s.lo;
    s.hi = key > s.hi ? key : s.hi;
  }
  return s;
}

/* The keys of a contiguous array and their summary, in chunks over the
 * thread pool when it is large: each chunk's keys summarised while they
 * are still in cache, the summaries merged in chunk order. */
#define KEY_CHUNKS 64
typedef struct {
  const keyspec *k;
  const char *data;
  uint64_t *keys;
  int64_t n, chunks;
  key_summary part[KEY_CHUNKS];
} key_job;

static void key_chunk(void *ctx, int64_t c) {
  key_job *J = (key_job *)ctx;
  int64_t b, e, isz = J->k->nbytes;
  ma_chunk_range(J->n, J->chunks, c, &b, &e);
  int floating = is_float(J->k->tid);
  int negzero = row_keys(J->k, J->data + b * isz, isz, e - b, J->keys + b, floating);
  J->part[c] = summarize_keys(J->keys + b, e - b, floating, J->k->mask, negzero);
}

static key_summary contiguous_keys(const keyspec *k, const char *data, int64_t n, uint64_t *keys) {
  int64_t nt = ma_get_num_threads(), chunks = 1;
  if (nt > 1 && n >= ma_get_parallel_min()) chunks = MA_CHUNKS_PER_THREAD * nt;
  chunks = chunks > KEY_CHUNKS ? KEY_CHUNKS : chunks;
  key_job J = {.k = k, .data = data, .keys = keys, .n = n, .chunks = chunks};
  if (chunks > 1) ma_parallel_for(chunks, key_chunk, &J);
  else key_chunk(&J, 0);
  key_summary s = J.part[0];
  for (int64_t c = 1; c < chunks; c++) {
    key_summary t = J.part[c];
    s.negzero |= t.negzero;
    s.nans += t.nans;
    s.lo = t.lo < s.lo ? t.lo : s.lo;
    s.hi = t.hi > s.hi ? t.hi : s.hi;
  }
  return s;
}

int64_t ma_unique_keys(const ma_array *x, ma_sort_workspace *w) {
  int tid = ma_type_of(x->t.dtype), nd = x->t.ndim, floating = is_float(tid);
  int64_t n = ma_array_size(x), isz = ma_type_size[tid];
  keyspec k = make_keyspec(tid, 1, 0);
  w->negzero = 0;
  if (n == 0) return 0;
  uint64_t *keys = w->keys;
  key_summary s;
  if (ma_array_is_contiguous(x, 0)) {
    s = contiguous_keys(&k, (const char *)x->t.data, n, keys);
  } else {
    int negzero = 0;
    int64_t ix[MA_MAXDIMS] = {0};
    const char *p = (const char *)x->t.data;
    for (int64_t i = 0; i < n; i++) {
      if (floating && raw_bits(k.nbytes, p) == k.sign) negzero = 1;
      keys[i] = to_key(&k, p);
      for (int d = nd - 1; d >= 0; d--) {
        p += x->t.strides[d] * isz;
        if (++ix[d] < x->t.shape[d]) break;
        p -= x->t.strides[d] * x->t.shape[d] * isz;
        ix[d] = 0;
      }
    }
    s = summarize_keys(keys, n, floating, k.mask, negzero);
  }
  /* NaNs are set aside and come back last, each its own value, as in the
   * full pass */
  int64_t nans = s.nans;
  uint64_t lo = s.lo, hi = s.hi;
  int negzero = s.negzero;
  int64_t g = -1;
  if (nans == n) g = 0;
  else if (hi - lo < (uint64_t)n * BITMAP_PER_KEY)
    g = distinct_by_bitmap(keys, n, lo, hi, floating, k.mask, w->tk);
  else if ((g = distinct_by_hash(keys, n, floating, k.mask, w->tk)) >= 0)
    radix_sort(w->tk, NULL, g, keys, NULL);
  if (g >= 0) {
    memcpy(keys, w->tk, (size_t)g * sizeof(uint64_t));
  } else { /* most keys distinct: sort them all (NaNs, the largest, last) */
    radix_sort(keys, NULL, n, w->tk, NULL);
    int64_t m = n - nans;
    g = 1;
    for (int64_t i = 1; i < m; i++)
      if (keys[i] != keys[g - 1]) keys[g++] = keys[i];
  }
  for (int64_t i = 0; i < nans; i++) keys[g++] = k.mask;
  w->negzero = negzero && first_zero_is_negative(x, &k);
  return g;
}

void ma_unique_keys_fill(const ma_array *x, const ma_sort_workspace *w, ma_array *values) {
  keyspec k = make_keyspec(ma_type_of(x->t.dtype), 1, 0);
  int64_t g = values->t.shape[0], isz = ma_type_size[k.tid];
  char *q = (char *)values->t.data;
  row_values(&k, w->keys, g, q, isz);
  if (!w->negzero) return;
  /* the zeros' key reads back as 0.0; their first is -0.0 (the sign bit) */
  int64_t lo = 0, hi = g;
  while (lo < hi) {
    int64_t mid = lo + (hi - lo) / 2;
    if (w->keys[mid] < k.sign) lo = mid + 1;
    else hi = mid;
  }
  if (lo < g && w->keys[lo] == k.sign) store_bits(k.nbytes, q + lo * isz, k.sign);
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
