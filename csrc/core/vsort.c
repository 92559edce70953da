/*
 * The vectorised quicksort (see vsort.h).  Each level partitions its piece
 * out of place, from one buffer into the other (keys below the pivot to
 * the front, the others to the back), so a vector of keys is compared
 * once and its two groups stored packed, with no swaps; pieces of at most
 * one register file's worth of keys are sorted inside the registers by a
 * bitonic network and stored where the sorted keys belong.  The pivot is
 * the median of 15 samples; a pivot that is the smallest key of its piece
 * (many equal keys) moves the keys equal to it aside instead, which are
 * then sorted already, so equal keys never make a level in vain.  Past
 * 2 log2(n) levels (an adversarial input) a piece is heap-sorted, which
 * bounds the work by O(n log n).
 *
 * Large sorts use the thread pool: the top levels partition in parallel
 * (each chunk of the piece counts its keys below the pivot, then writes
 * them after those of the chunks before it), and the pieces they leave
 * are sorted side by side.  The result is the sorted keys whichever thread
 * did what.
 *
 * The instruction-set parts are the partition of a run of keys and the
 * network; the recursion above them is plain C, shared by both.
 */
#include "vsort.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "threads.h"

#if defined(__x86_64__) && defined(__GNUC__)
#define VSORT_X86 1
#include <immintrin.h>
#endif

#ifdef VSORT_X86

/* ---- what each instruction set provides ------------------------------------ */

/* le = 0: keys below the pivot go left; le = 1: keys not above it (the
 * pass that moves a smallest pivot's equals aside). */
typedef struct {
  /* how many of src[0..n) go left */
  int64_t (*count)(const uint64_t *src, int64_t n, uint64_t pivot, int le);
  /* src[0..n) split into dst: the left keys from dst[l] up; the others
   * from dst[r] up, or (down) ending at dst[r] (one pass, no count
   * first); returns where the left keys end */
  int64_t (*split)(const uint64_t *src, int64_t n, uint64_t pivot, int le, uint64_t *dst, int64_t l, int64_t r,
                   int down);
  /* from[0..n) sorted into to[0..n) (the same or another buffer), n <= leaf */
  void (*leaf_sort)(const uint64_t *from, uint64_t *to, int64_t n);
  int64_t leaf;
} vsort_isa;

/* The keys past the last whole vector, one at a time. */
static int64_t split_tail(const uint64_t *src, int64_t n, uint64_t pivot, int le, uint64_t *dst, int64_t l,
                          int64_t r, int down) {
  for (int64_t i = 0; i < n; i++) {
    uint64_t k = src[i];
    if (le ? k <= pivot : k < pivot) dst[l++] = k;
    else if (down) dst[--r] = k;
    else dst[r++] = k;
  }
  return l;
}

static int64_t count_tail(const uint64_t *src, int64_t n, uint64_t pivot, int le) {
  int64_t c = 0;
  for (int64_t i = 0; i < n; i++) c += le ? src[i] <= pivot : src[i] < pivot;
  return c;
}

/* The bitonic network over R registers of W lanes, each register sorted
 * first: runs of L registers are merged pairwise, the first step comparing
 * each key with its mirror image in the other run (so both runs stay
 * ascending, no direction masks), then half-cleaners over registers and
 * inside each.  SFX names the instruction set's primitives: min_, max_,
 * rev_ (lanes reversed), sortv_ (one register sorted) and cleanv_ (the
 * half-cleaners inside one register of a bitonic sequence); ISA its target. */
#define VSORT_NETWORK(SFX, VEC, ISA)                                                     \
  __attribute__((target(ISA))) static inline __attribute__((always_inline)) void net_##SFX(VEC *v, const int R) { \
    for (int i = 0; i < R; i++) v[i] = sortv_##SFX(v[i]);                              \
    for (int L = 1; L < R; L *= 2) {                                                   \
      for (int b = 0; b < R; b += 2 * L)                                               \
        for (int i = 0; i < L; i++) {                                                  \
          VEC t = rev_##SFX(v[b + 2 * L - 1 - i]);                                     \
          VEC lo = min_##SFX(v[b + i], t), hi = max_##SFX(v[b + i], t);                \
          v[b + i] = lo;                                                               \
          v[b + 2 * L - 1 - i] = rev_##SFX(hi);                                        \
        }                                                                              \
      for (int j = L / 2; j >= 1; j /= 2)                                              \
        for (int i = 0; i < R; i++)                                                    \
          if ((i & j) == 0) {                                                          \
            VEC lo = min_##SFX(v[i], v[i + j]), hi = max_##SFX(v[i], v[i + j]);        \
            v[i] = lo;                                                                 \
            v[i + j] = hi;                                                             \
          }                                                                            \
      for (int i = 0; i < R; i++) v[i] = cleanv_##SFX(v[i]);                           \
    }                                                                                  \
  }

/* ---- AVX-512: 8 keys a register, unsigned compares ------------------------- */

#define T512 __attribute__((target("avx512f"))) static inline __attribute__((always_inline))

T512 __m512i min_512(__m512i a, __m512i b) { return _mm512_min_epu64(a, b); }
T512 __m512i max_512(__m512i a, __m512i b) { return _mm512_max_epu64(a, b); }
T512 __m512i rev_512(__m512i a) { return _mm512_permutexvar_epi64(_mm512_set_epi64(0, 1, 2, 3, 4, 5, 6, 7), a); }

/* One compare-exchange step inside a register: lane i against lane
 * perm[i], the lanes in `hi` keeping the larger key. */
T512 __m512i step_512(__m512i v, __m512i perm, __mmask8 hi) {
  __m512i w = _mm512_permutexvar_epi64(perm, v);
  return _mm512_mask_blend_epi64(hi, _mm512_min_epu64(v, w), _mm512_max_epu64(v, w));
}
#define X1_512 _mm512_set_epi64(6, 7, 4, 5, 2, 3, 0, 1) /* lane i ^ 1 */
#define X2_512 _mm512_set_epi64(5, 4, 7, 6, 1, 0, 3, 2) /* lane i ^ 2 */
#define X3_512 _mm512_set_epi64(4, 5, 6, 7, 0, 1, 2, 3) /* lane i ^ 3 */
#define X4_512 _mm512_set_epi64(3, 2, 1, 0, 7, 6, 5, 4) /* lane i ^ 4 */
#define X7_512 _mm512_set_epi64(0, 1, 2, 3, 4, 5, 6, 7) /* lane i ^ 7 */

T512 __m512i cleanv_512(__m512i v) {
  v = step_512(v, X4_512, 0xF0);
  v = step_512(v, X2_512, 0xCC);
  return step_512(v, X1_512, 0xAA);
}
T512 __m512i sortv_512(__m512i v) {
  v = step_512(v, X1_512, 0xAA);
  v = step_512(v, X3_512, 0xCC);
  v = step_512(v, X1_512, 0xAA);
  v = step_512(v, X7_512, 0xF0);
  v = step_512(v, X2_512, 0xCC);
  return step_512(v, X1_512, 0xAA);
}

VSORT_NETWORK(512, __m512i, "avx512f")

#define LEAF_REGS_512 32

__attribute__((target("avx512f"))) static void leaf_sort_512(const uint64_t *from, uint64_t *to, int64_t n) {
  __m512i v[LEAF_REGS_512];
  int64_t regs = (n + 7) / 8;
  int R = regs <= 1 ? 1 : regs <= 2 ? 2 : regs <= 4 ? 4 : regs <= 8 ? 8 : regs <= 16 ? 16 : 32;
  /* the lanes past n hold the largest key: they sort last and are not stored */
  for (int i = 0; i < R; i++) {
    int64_t m = n - 8 * i;
    v[i] = m <= 0 ? _mm512_set1_epi64(-1)
                  : _mm512_mask_loadu_epi64(_mm512_set1_epi64(-1), (__mmask8)(m >= 8 ? 0xFF : (1u << m) - 1),
                                            from + 8 * i);
  }
  switch (R) {
    case 1: net_512(v, 1); break;
    case 2: net_512(v, 2); break;
    case 4: net_512(v, 4); break;
    case 8: net_512(v, 8); break;
    case 16: net_512(v, 16); break;
    default: net_512(v, 32); break;
  }
  for (int i = 0; i < R; i++) {
    int64_t m = n - 8 * i;
    if (m <= 0) break;
    _mm512_mask_storeu_epi64(to + 8 * i, (__mmask8)(m >= 8 ? 0xFF : (1u << m) - 1), v[i]);
  }
}

/* The keys of `go` (a lane mask) packed to the front and stored at p. */
T512 int store_packed_512(uint64_t *p, __mmask8 go, __m512i v) {
  int c = __builtin_popcount(go);
  /* compress into a register, then a masked store: a compressing store to
   * memory is microcoded and slow on some CPUs (AMD Zen 4) */
  _mm512_mask_storeu_epi64(p, (__mmask8)((1u << c) - 1), _mm512_maskz_compress_epi64(go, v));
  return c;
}

T512 __mmask8 right_512(__m512i v, __m512i p, int le) {
  return le ? _mm512_cmpgt_epu64_mask(v, p) : _mm512_cmpge_epu64_mask(v, p);
}

T512 int64_t split_512_as(const uint64_t *src, int64_t n, uint64_t pivot, const int le, uint64_t *dst, int64_t l,
                          int64_t r, const int down) {
  __m512i p = _mm512_set1_epi64((long long)pivot);
  int64_t i = 0;
  if (down) {
    /* while 16 keys or more are left, the gap between the two ends is at
     * least 16: whole-register stores there (the right keys rotated to the
     * top lanes and stored first) only overwrite the gap, never a key put
     * down before */
    __m512i iota = _mm512_set_epi64(7, 6, 5, 4, 3, 2, 1, 0), seven = _mm512_set1_epi64(7);
    for (; i + 16 <= n; i += 8) {
      __m512i v = _mm512_loadu_si512(src + i);
      __mmask8 right = right_512(v, p, le);
      int cr = __builtin_popcount(right);
      __m512i rv = _mm512_maskz_compress_epi64(right, v);
      rv = _mm512_permutexvar_epi64(_mm512_and_si512(_mm512_add_epi64(iota, _mm512_set1_epi64(cr)), seven), rv);
      _mm512_storeu_si512(dst + r - 8, rv);
      r -= cr;
      _mm512_storeu_si512(dst + l, _mm512_maskz_compress_epi64((__mmask8)~right, v));
      l += 8 - cr;
    }
  }
  for (; i + 8 <= n; i += 8) {
    __m512i v = _mm512_loadu_si512(src + i);
    __mmask8 right = right_512(v, p, le);
    l += store_packed_512(dst + l, (__mmask8)~right, v);
    if (down) {
      r -= __builtin_popcount(right);
      store_packed_512(dst + r, right, v);
    } else {
      r += store_packed_512(dst + r, right, v);
    }
  }
  return split_tail(src + i, n - i, pivot, le, dst, l, r, down);
}

/* each combination of the flags its own loop, the flags constants there */
__attribute__((target("avx512f"))) static int64_t split_512(const uint64_t *src, int64_t n, uint64_t pivot, int le,
                                                           uint64_t *dst, int64_t l, int64_t r, int down) {
  if (down) return le ? split_512_as(src, n, pivot, 1, dst, l, r, 1) : split_512_as(src, n, pivot, 0, dst, l, r, 1);
  return le ? split_512_as(src, n, pivot, 1, dst, l, r, 0) : split_512_as(src, n, pivot, 0, dst, l, r, 0);
}

__attribute__((target("avx512f"))) static int64_t count_512(const uint64_t *src, int64_t n, uint64_t pivot, int le) {
  __m512i p = _mm512_set1_epi64((long long)pivot);
  int64_t i = 0, c = 0;
  for (; i + 8 <= n; i += 8) c += 8 - __builtin_popcount(right_512(_mm512_loadu_si512(src + i), p, le));
  return c + count_tail(src + i, n - i, pivot, le);
}

static const vsort_isa isa_512 = {count_512, split_512, leaf_sort_512, 8 * LEAF_REGS_512};

/* ---- AVX2: 4 keys a register, signed compares of sign-flipped keys -------- */

/* AVX2 compares 64-bit lanes as signed only: keys are compared, and held
 * inside the network, with their top bit flipped, which turns unsigned
 * order into signed order. */
#define T256 __attribute__((target("avx2"))) static inline __attribute__((always_inline))
#define FLIP_256 _mm256_set1_epi64x((long long)0x8000000000000000ull)

T256 __m256i min_256(__m256i a, __m256i b) { return _mm256_blendv_epi8(a, b, _mm256_cmpgt_epi64(a, b)); }
T256 __m256i max_256(__m256i a, __m256i b) { return _mm256_blendv_epi8(b, a, _mm256_cmpgt_epi64(a, b)); }
T256 __m256i rev_256(__m256i a) { return _mm256_permute4x64_epi64(a, 0x1B); }

/* lane i against lane i ^ j (IMM the permutation), the lanes of the
 * 32-bit blend mask HI keeping the larger key */
#define STEP_256(v, IMM, HI)                                                   \
  do {                                                                         \
    __m256i w_ = _mm256_permute4x64_epi64(v, IMM);                             \
    v = _mm256_blend_epi32(min_256(v, w_), max_256(v, w_), HI);                \
  } while (0)

T256 __m256i cleanv_256(__m256i v) {
  STEP_256(v, 0x4E, 0xF0); /* lane i ^ 2 */
  STEP_256(v, 0xB1, 0xCC); /* lane i ^ 1 */
  return v;
}
T256 __m256i sortv_256(__m256i v) {
  STEP_256(v, 0xB1, 0xCC);
  STEP_256(v, 0x1B, 0xF0); /* lane i ^ 3 */
  STEP_256(v, 0xB1, 0xCC);
  return v;
}

VSORT_NETWORK(256, __m256i, "avx2")

#define LEAF_REGS_256 8

/* lanes [0, m) of a register as a mask (m clamped to 0..4) */
T256 __m256i lanes_256(int64_t m) {
  m = m < 0 ? 0 : m > 4 ? 4 : m;
  return _mm256_cmpgt_epi64(_mm256_set1_epi64x(m), _mm256_set_epi64x(3, 2, 1, 0));
}

__attribute__((target("avx2"))) static void leaf_sort_256(const uint64_t *from, uint64_t *to, int64_t n) {
  __m256i v[LEAF_REGS_256];
  int64_t regs = (n + 3) / 4;
  int R = regs <= 1 ? 1 : regs <= 2 ? 2 : regs <= 4 ? 4 : 8;
  for (int i = 0; i < R; i++) {
    int64_t m = n - 4 * i;
    __m256i in = lanes_256(m);
    /* the lanes past n hold the largest key (all ones, flipped) */
    __m256i k = m <= 0 ? _mm256_setzero_si256() : _mm256_maskload_epi64((const long long *)(from + 4 * i), in);
    v[i] = _mm256_xor_si256(_mm256_or_si256(k, _mm256_andnot_si256(in, _mm256_set1_epi64x(-1))), FLIP_256);
  }
  switch (R) {
    case 1: net_256(v, 1); break;
    case 2: net_256(v, 2); break;
    case 4: net_256(v, 4); break;
    default: net_256(v, 8); break;
  }
  for (int i = 0; i < R; i++) {
    int64_t m = n - 4 * i;
    if (m <= 0) break;
    _mm256_maskstore_epi64((long long *)(to + 4 * i), lanes_256(m), _mm256_xor_si256(v[i], FLIP_256));
  }
}

/* pack[m]: the 32-bit lane order that packs the 64-bit lanes of the 4-bit
 * mask m to the front (in order) */
static int32_t pack_256[16][8];
static void pack_init(void) {
  for (int m = 0; m < 16; m++) {
    int o = 0;
    for (int j = 0; j < 4; j++)
      if (m >> j & 1) {
        pack_256[m][2 * o] = 2 * j;
        pack_256[m][2 * o + 1] = 2 * j + 1;
        o++;
      }
    for (; o < 4; o++) pack_256[m][2 * o] = pack_256[m][2 * o + 1] = 0;
  }
}

T256 int store_packed_256(uint64_t *p, int go, __m256i v) {
  int c = __builtin_popcount((unsigned)go);
  __m256i idx = _mm256_loadu_si256((const __m256i *)pack_256[go]);
  _mm256_maskstore_epi64((long long *)p, lanes_256(c), _mm256_permutevar8x32_epi32(v, idx));
  return c;
}

T256 int right_256(__m256i v, __m256i pf, int le) {
  __m256i vf = _mm256_xor_si256(v, FLIP_256);
  __m256i gt = _mm256_cmpgt_epi64(vf, pf);
  /* ge: not (pivot > v) */
  __m256i right = le ? gt : _mm256_xor_si256(_mm256_cmpgt_epi64(pf, vf), _mm256_set1_epi64x(-1));
  return _mm256_movemask_pd(_mm256_castsi256_pd(right));
}

__attribute__((target("avx2"))) static int64_t split_256(const uint64_t *src, int64_t n, uint64_t pivot, int le,
                                                        uint64_t *dst, int64_t l, int64_t r, int down) {
  __m256i pf = _mm256_set1_epi64x((long long)(pivot ^ 0x8000000000000000ull));
  int64_t i = 0;
  for (; i + 4 <= n; i += 4) {
    __m256i v = _mm256_loadu_si256((const __m256i *)(src + i));
    int right = right_256(v, pf, le);
    l += store_packed_256(dst + l, ~right & 15, v);
    if (down) {
      r -= __builtin_popcount((unsigned)right);
      store_packed_256(dst + r, right, v);
    } else {
      r += store_packed_256(dst + r, right, v);
    }
  }
  return split_tail(src + i, n - i, pivot, le, dst, l, r, down);
}

__attribute__((target("avx2"))) static int64_t count_256(const uint64_t *src, int64_t n, uint64_t pivot, int le) {
  __m256i pf = _mm256_set1_epi64x((long long)(pivot ^ 0x8000000000000000ull));
  int64_t i = 0, c = 0;
  for (; i + 4 <= n; i += 4)
    c += 4 - __builtin_popcount((unsigned)right_256(_mm256_loadu_si256((const __m256i *)(src + i)), pf, le));
  return c + count_tail(src + i, n - i, pivot, le);
}

static const vsort_isa isa_256 = {count_256, split_256, leaf_sort_256, 4 * LEAF_REGS_256};

/* ---- the choice, once ------------------------------------------------------- */

static const vsort_isa *chosen;
static pthread_once_t chosen_once = PTHREAD_ONCE_INIT;

static void choose(void) {
  __builtin_cpu_init();
  /* MINARRAY_NO_AVX512=1 keeps the AVX2 kernels on an AVX-512 machine: to
   * measure (and test) the path AVX2-only CPUs take */
  const char *no512 = getenv("MINARRAY_NO_AVX512");
  if (__builtin_cpu_supports("avx512f") && !(no512 && *no512 && strcmp(no512, "0") != 0)) chosen = &isa_512;
  else if (__builtin_cpu_supports("avx2")) chosen = &isa_256;
  pack_init();
}

/* ---- the recursion, plain C ------------------------------------------------- */

static void heap_sort(uint64_t *a, int64_t n) {
  for (int64_t start = n / 2, end = n; end > 1;) {
    int64_t root;
    uint64_t k;
    if (start > 0) {
      root = --start;
      k = a[root];
    } else {
      k = a[--end];
      a[end] = a[0];
      root = 0;
    }
    for (int64_t child; (child = 2 * root + 1) < end; root = child) {
      if (child + 1 < end && a[child + 1] > a[child]) child++;
      if (a[child] <= k) break;
      a[root] = a[child];
    }
    a[root] = k;
  }
}

/* The median of 15 keys spread over the piece.  The positions are
 * (2i + 1) n / 30 computed in 64 bits where that cannot overflow: a
 * 128-bit division is a library call, and fifteen of them per piece took
 * a tenth of a sort of 10^6 keys (most pieces are a few hundred keys). */
static uint64_t pick_pivot(const uint64_t *a, int64_t n) {
  uint64_t s[15];
  int wide = (uint64_t)n > UINT64_MAX / 30;
  for (int i = 0; i < 15; i++) {
    uint64_t at = wide ? (uint64_t)((2 * i + 1) * (unsigned __int128)n / 30) : (2 * (uint64_t)i + 1) * (uint64_t)n / 30;
    uint64_t k = a[at];
    int j = i;
    for (; j > 0 && s[j - 1] > k; j--) s[j] = s[j - 1];
    s[j] = k;
  }
  return s[7];
}

/* A piece: its keys in `from`, the other buffer `other` (the same range of
 * it), sorted into `to` (either of the two). */
typedef struct {
  uint64_t *from, *to, *other;
  int64_t n;
  int depth;
} vpiece;

static void sort_piece(const vsort_isa *isa, vpiece P) {
  for (;;) {
    if (P.n <= isa->leaf) {
      isa->leaf_sort(P.from, P.to, P.n);
      return;
    }
    if (P.depth-- == 0) {
      if (P.to != P.from) memcpy(P.to, P.from, (size_t)P.n * sizeof(uint64_t));
      heap_sort(P.to, P.n);
      return;
    }
    uint64_t pivot = pick_pivot(P.from, P.n);
    int64_t nl = isa->split(P.from, P.n, pivot, 0, P.other, 0, P.n, 1);
    if (nl == 0) {
      /* the pivot is the smallest key: its equals go left, sorted as they are */
      nl = isa->split(P.from, P.n, pivot, 1, P.other, 0, P.n, 1);
      if (P.to != P.other) memcpy(P.to, P.other, (size_t)nl * sizeof(uint64_t));
    } else {
      sort_piece(isa, (vpiece){P.other, P.to, P.from, nl, P.depth});
    }
    P = (vpiece){P.other + nl, P.to + nl, P.from + nl, P.n - nl, P.depth};
  }
}

/* ---- the parallel top levels ------------------------------------------------ */

#define PAR_MIN 131072    /* fewer keys: one thread sorts them */
#define CHUNK_MIN 16384   /* keys per chunk of a parallel partition, at least */
#define MAX_CHUNKS 64
#define MAX_PIECES 256

typedef struct {
  const vsort_isa *isa;
  const uint64_t *src;
  uint64_t *dst;
  int64_t n, chunks;
  uint64_t pivot;
  int le;
  int64_t left[MAX_CHUNKS + 1], right[MAX_CHUNKS + 1];
} par_split;

static void par_count(void *ctx, int64_t c) {
  par_split *J = (par_split *)ctx;
  int64_t b, e;
  ma_chunk_range(J->n, J->chunks, c, &b, &e);
  J->left[c] = J->isa->count(J->src + b, e - b, J->pivot, J->le);
}

static void par_write(void *ctx, int64_t c) {
  par_split *J = (par_split *)ctx;
  int64_t b, e;
  ma_chunk_range(J->n, J->chunks, c, &b, &e);
  J->isa->split(J->src + b, e - b, J->pivot, J->le, J->dst, J->left[c], J->right[c], 0);
}

/* src[0..n) split into dst over the pool; returns the left count */
static int64_t split_parallel(par_split *J, int le) {
  J->le = le;
  ma_parallel_for(J->chunks, par_count, J);
  int64_t nl = 0;
  for (int64_t c = 0; c < J->chunks; c++) {
    int64_t b, e, m = J->left[c];
    ma_chunk_range(J->n, J->chunks, c, &b, &e);
    J->left[c] = nl;
    J->right[c] = e - b - m; /* this chunk's right count, for now */
    nl += m;
  }
  for (int64_t c = 0, at = nl; c < J->chunks; c++) {
    int64_t m = J->right[c];
    J->right[c] = at;
    at += m;
  }
  ma_parallel_for(J->chunks, par_write, J);
  return nl;
}

typedef struct {
  const vsort_isa *isa;
  vpiece piece[MAX_PIECES];
  int count;
} piece_list;

static void sort_listed(void *ctx, int64_t i) {
  piece_list *L = (piece_list *)ctx;
  sort_piece(L->isa, L->piece[i]);
}

/* Split P over the pool until its pieces are at most `small`, listing
 * them (a full list sorts a piece at once instead). */
static void split_pieces(piece_list *L, vpiece P, int64_t small, int64_t nt) {
  while (P.n > small && P.depth > 0 && L->count < MAX_PIECES) {
    P.depth--;
    par_split J = {.isa = L->isa, .src = P.from, .dst = P.other, .n = P.n};
    J.chunks = P.n / CHUNK_MIN;
    J.chunks = J.chunks > MA_CHUNKS_PER_THREAD * nt ? MA_CHUNKS_PER_THREAD * nt : J.chunks;
    J.chunks = J.chunks > MAX_CHUNKS ? MAX_CHUNKS : J.chunks < 1 ? 1 : J.chunks;
    J.pivot = pick_pivot(P.from, P.n);
    int64_t nl = split_parallel(&J, 0);
    if (nl == 0) {
      nl = split_parallel(&J, 1);
      if (P.to != P.other) memcpy(P.to, P.other, (size_t)nl * sizeof(uint64_t));
    } else {
      split_pieces(L, (vpiece){P.other, P.to, P.from, nl, P.depth}, small, nt);
    }
    P = (vpiece){P.other + nl, P.to + nl, P.from + nl, P.n - nl, P.depth};
  }
  if (L->count < MAX_PIECES) L->piece[L->count++] = P;
  else sort_piece(L->isa, P);
}

int ma_vsort_keys(uint64_t *keys, uint64_t *tmp, int64_t n) {
  pthread_once(&chosen_once, choose);
  const vsort_isa *isa = chosen;
  if (!isa) return 0;
  int depth = 4;
  for (int64_t m = n; m > 1; m >>= 1) depth += 2;
  vpiece P = {keys, keys, tmp, n, depth};
  int64_t nt = ma_get_num_threads();
  if (nt < 2 || n < PAR_MIN) {
    sort_piece(isa, P);
    return 1;
  }
  piece_list *L = malloc(sizeof(piece_list));
  if (!L) {
    sort_piece(isa, P);
    return 1;
  }
  L->isa = isa;
  L->count = 0;
  /* pieces small enough that a few per thread balance the load */
  int64_t small = n / (MA_CHUNKS_PER_THREAD * nt);
  split_pieces(L, P, small > PAR_MIN / 2 ? small : PAR_MIN / 2, nt);
  ma_parallel_for(L->count, sort_listed, L);
  free(L);
  return 1;
}

#else

int ma_vsort_keys(uint64_t *keys, uint64_t *tmp, int64_t n) {
  (void)keys, (void)tmp, (void)n;
  return 0;
}

#endif
