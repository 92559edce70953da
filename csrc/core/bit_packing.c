/* packbits and unpackbits: see bit_packing.h. */
#include "bit_packing.h"

#include <stdlib.h>
#include <string.h>

#include "iterate.h"

#if defined(__x86_64__) && defined(__SSE2__) && defined(__GNUC__)
#define BITS_X86 1
#include <immintrin.h>
#endif

/* Eight bytes read as one uint64 put element m at bits 8m to 8m + 7: the
 * gather below and the spread in unpack8 count on a little-endian host. */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "bit_packing.c reads eight bytes as a little-endian uint64"
#endif

/* Where element m of eight goes in its byte. */
static inline int shift_of(int m, int little) { return little ? m : 7 - m; }

/* ---- packing ---------------------------------------------------------------------- */

/* Eight bytes at p packed into one.  Each byte's bits are first folded
 * into its lowest one (a nonzero byte becomes 1; the shifts carry bits
 * only into higher places of the byte below, which the mask drops), then
 * one multiply gathers the eight low bits into the top byte: the
 * constant's byte k is 2^k (big) or 2^(7-k) (little), which sends element
 * m's bit to place 63 - m (big) or 56 + m (little) with no carries. */
static inline uint8_t pack8(const uint8_t *p, int little) {
  uint64_t w;
  memcpy(&w, p, 8);
  w |= w >> 4;
  w |= w >> 2;
  w |= w >> 1;
  w &= 0x0101010101010101ull;
  return (uint8_t)((w * (little ? 0x0102040810204080ull : 0x8040201008040201ull)) >> 56);
}

#ifdef BITS_X86
/* The bytes of each 8-byte half in reverse order: the first element of a
 * half then lands in movemask's highest bit of that half (big order). */
static inline __m128i reverse_halves(__m128i v) {
  v = _mm_shufflehi_epi16(_mm_shufflelo_epi16(v, 0x1B), 0x1B);
  return _mm_or_si128(_mm_slli_epi16(v, 8), _mm_srli_epi16(v, 8));
}
#endif

#ifdef BITS_X86
/* pack_flat's AVX2 loop: 32 elements a compare, and big order's reversal
 * of each eight one byte shuffle.  It returns how many bytes it wrote and
 * pack_flat does the rest: the return clears the AVX state, which a tail
 * call into SSE code would carry, at a cost of hundreds of cycles on some
 * CPUs. */
__attribute__((target("avx2"))) static int64_t pack_flat_avx2(const uint8_t *in, int64_t nout, uint8_t *out,
                                                           int little) {
  const __m256i zero = _mm256_setzero_si256();
  const __m256i rev = _mm256_set_epi8(8, 9, 10, 11, 12, 13, 14, 15, 0, 1, 2, 3, 4, 5, 6, 7,  //
                                      8, 9, 10, 11, 12, 13, 14, 15, 0, 1, 2, 3, 4, 5, 6, 7);
  int64_t j = 0;
  for (; j + 8 <= nout; j += 8) {
    __m256i v0 = _mm256_loadu_si256((const __m256i *)(in + 8 * j));
    __m256i v1 = _mm256_loadu_si256((const __m256i *)(in + 8 * j + 32));
    if (!little) {
      v0 = _mm256_shuffle_epi8(v0, rev);
      v1 = _mm256_shuffle_epi8(v1, rev);
    }
    uint64_t lo = (uint32_t)~_mm256_movemask_epi8(_mm256_cmpeq_epi8(v0, zero));
    uint64_t hi = (uint32_t)~_mm256_movemask_epi8(_mm256_cmpeq_epi8(v1, zero));
    uint64_t word = lo | hi << 32;
    memcpy(out + j, &word, 8);
  }
  return j;
}
#endif

/* nout bytes from 8 * nout contiguous elements. */
static void pack_flat(const uint8_t *in, int64_t nout, uint8_t *out, int little) {
  int64_t j = 0;
#ifdef BITS_X86
  if (__builtin_cpu_supports("avx2")) j = pack_flat_avx2(in, nout, out, little);
  /* SSE2 is x86-64's baseline: sixteen elements compared with zero, and
   * movemask gathers the sixteen results' top bits, element m at bit m */
  const __m128i zero = _mm_setzero_si128();
  for (; j + 8 <= nout; j += 8) {
    uint64_t word = 0;
    for (int h = 0; h < 4; h++) {
      __m128i v = _mm_loadu_si128((const __m128i *)(in + 8 * j + 16 * h));
      if (!little) v = reverse_halves(v);
      uint64_t m = (uint16_t)~_mm_movemask_epi8(_mm_cmpeq_epi8(v, zero));
      word |= m << (16 * h);
    }
    memcpy(out + j, &word, 8);
  }
#endif
  for (; j < nout; j++) out[j] = pack8(in + 8 * j, little);
}

typedef struct {
  int64_t along; /* byte stride of the packed axis in src (pack) or dst (unpack) */
  int bits;      /* elements per byte in this walk: 8, or fewer for the last byte */
  int little;
} bits_ctx;

/* A run of packed bytes: p[0] the output, p[1] the first of its elements. */
static void pack_run(char **p, const int64_t *st, int64_t n, const void *vc) {
  const bits_ctx *c = (const bits_ctx *)vc;
  uint8_t *out = (uint8_t *)p[0];
  const uint8_t *in = (const uint8_t *)p[1];
  int64_t os = st[0], is = st[1], g = c->along;
  if (c->bits == 8 && g == 1 && is == 8 && os == 1) {
    pack_flat(in, n, out, c->little);
  } else if (c->bits == 8 && os == 1 && is == 1) {
    /* the axis is not the run's: eight rows g apart, read side by side (a
     * loop the compiler vectorises over j) */
    uint8_t w[8];
    for (int m = 0; m < 8; m++) w[m] = (uint8_t)(1u << shift_of(m, c->little));
    for (int64_t j = 0; j < n; j++) {
      uint8_t r = 0;
      for (int m = 0; m < 8; m++) r |= in[j + m * g] ? w[m] : 0;
      out[j] = r;
    }
  } else if (c->bits == 8 && g == 1) { /* eight contiguous elements a byte */
    for (int64_t j = 0; j < n; j++) out[j * os] = pack8(in + j * is, c->little);
  } else {
    for (int64_t j = 0; j < n; j++, out += os, in += is) {
      unsigned r = 0;
      for (int m = 0; m < c->bits; m++) r |= (unsigned)(in[m * g] != 0) << shift_of(m, c->little);
      *out = (uint8_t)r;
    }
  }
}

/* ---- unpacking -------------------------------------------------------------------- */

/* One byte spread to eight 0/1 bytes: copied to all eight, each keeps its
 * own bit (byte m the bit of place m, little, or 7 - m, big), and adding
 * 0x7f carries a kept bit into the byte's top bit without crossing into
 * the next byte. */
static inline void unpack8(uint8_t b, uint8_t *out, int little) {
  uint64_t w = b * 0x0101010101010101ull;
  w &= little ? 0x8040201008040201ull : 0x0102040810204080ull;
  w = ((w + 0x7f7f7f7f7f7f7f7full) >> 7) & 0x0101010101010101ull;
  memcpy(out, &w, 8);
}

#ifdef BITS_X86
/* unpack_flat's AVX2 loop: four bytes at a time, widened by one shuffle;
 * how many bytes it read (see pack_flat_avx2). */
__attribute__((target("avx2"))) static int64_t unpack_flat_avx2(const uint8_t *in, int64_t nin, uint8_t *out,
                                                             int little) {
  const __m256i one = _mm256_set1_epi8(1);
  const __m256i bit = little ? _mm256_set1_epi64x((long long)0x8040201008040201ull)
                             : _mm256_set1_epi64x((long long)0x0102040810204080ull);
  /* byte k of the four to the eight lanes of 32-bit lane pair k */
  const __m256i spread = _mm256_set_epi8(3, 3, 3, 3, 3, 3, 3, 3, 2, 2, 2, 2, 2, 2, 2, 2,  //
                                         1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0);
  int64_t j = 0;
  for (; j + 4 <= nin; j += 4) {
    uint32_t four;
    memcpy(&four, in + j, 4);
    /* shuffle_epi8 works within each 128-bit half: both halves hold the four bytes */
    __m256i v = _mm256_shuffle_epi8(_mm256_set1_epi32((int)four), spread);
    v = _mm256_and_si256(_mm256_cmpeq_epi8(_mm256_and_si256(v, bit), bit), one);
    _mm256_storeu_si256((__m256i *)(out + 8 * j), v);
  }
  return j;
}
#endif

/* 8 * nin contiguous 0/1 bytes from nin bytes. */
static void unpack_flat(const uint8_t *in, int64_t nin, uint8_t *out, int little) {
  int64_t j = 0;
#ifdef BITS_X86
  if (__builtin_cpu_supports("avx2")) j = unpack_flat_avx2(in, nin, out, little);
  /* two bytes at a time: each widened to eight copies, each copy tested
   * against its bit */
  const __m128i one = _mm_set1_epi8(1);
  const __m128i bit = little ? _mm_set1_epi64x((long long)0x8040201008040201ull)
                             : _mm_set1_epi64x((long long)0x0102040810204080ull);
  for (; j + 2 <= nin; j += 2) {
    __m128i v = _mm_cvtsi32_si128(in[j] | in[j + 1] << 8);
    v = _mm_unpacklo_epi8(v, v);
    v = _mm_unpacklo_epi16(v, v);
    v = _mm_unpacklo_epi32(v, v);
    v = _mm_and_si128(_mm_cmpeq_epi8(_mm_and_si128(v, bit), bit), one);
    _mm_storeu_si128((__m128i *)(out + 8 * j), v);
  }
#endif
  for (; j < nin; j++) unpack8(in[j], out + 8 * j, little);
}

/* Bytes [j0, j0 + len) of a run of stride `is` as contiguous bytes: the
 * run itself where it is contiguous, else copied into `block`. */
static inline const uint8_t *contiguous(const uint8_t *in, int64_t is, int64_t j0, int64_t len, uint8_t *block) {
  if (is == 1) return in + j0;
  for (int64_t j = 0; j < len; j++) block[j] = in[(j0 + j) * is];
  return block;
}

#define BLOCK 512

/* A run of packed bytes: p[0] the first of a byte's outputs, p[1] the byte.
 * Where the outputs are contiguous (a byte's eight, or a row of the
 * output along the run), the bytes are read a block at a time. */
static void unpack_run(char **p, const int64_t *st, int64_t n, const void *vc) {
  const bits_ctx *c = (const bits_ctx *)vc;
  uint8_t *out = (uint8_t *)p[0];
  const uint8_t *in = (const uint8_t *)p[1];
  int64_t os = st[0], is = st[1], g = c->along;
  uint8_t block[BLOCK];
  if (c->bits == 8 && g == 1 && os == 8) {
    for (int64_t j0 = 0; j0 < n; j0 += BLOCK) {
      int64_t len = n - j0 < BLOCK ? n - j0 : BLOCK;
      unpack_flat(contiguous(in, is, j0, len, block), len, out + 8 * j0, c->little);
    }
  } else if (c->bits == 8 && os == 1) {
    /* the axis is not the run's: eight output rows g apart, written a
     * row at a time (loops the compiler vectorises) */
    for (int64_t j0 = 0; j0 < n; j0 += BLOCK) {
      int64_t len = n - j0 < BLOCK ? n - j0 : BLOCK;
      const uint8_t *b = contiguous(in, is, j0, len, block);
      for (int m = 0; m < 8; m++) {
        int s = shift_of(m, c->little);
        uint8_t *row = out + m * g + j0;
        for (int64_t j = 0; j < len; j++) row[j] = (b[j] >> s) & 1;
      }
    }
  } else if (c->bits == 8 && g == 1) { /* eight contiguous outputs a byte */
    for (int64_t j = 0; j < n; j++) unpack8(in[j * is], out + j * os, c->little);
  } else {
    for (int64_t j = 0; j < n; j++, out += os, in += is)
      for (int m = 0; m < c->bits; m++) out[m * g] = (*in >> shift_of(m, c->little)) & 1;
  }
}

/* Zeros: p[0] runs of dst past the last bit. */
static void zero_run(char **p, const int64_t *st, int64_t n, const void *vc) {
  (void)vc;
  if (st[0] == 1) {
    memset(p[0], 0, (size_t)n);
    return;
  }
  for (int64_t j = 0; j < n; j++) p[0][j * st[0]] = 0;
}

/* ---- the walks -------------------------------------------------------------------- */

/* The walk over `shape` with `len` along `axis`, for dst at d and src at s
 * with byte strides ds and ss, the axis's multiplied by dstep and sstep
 * (a packed byte steps eight elements); dims of length 1 are left out.
 * A NULL s walks dst alone.  The number of positions. */
static int64_t nest_over(ma_nest *w, int ndim, const int64_t *shape, int axis, int64_t len, char *d,
                         const int64_t *ds, int64_t dstep, char *s, const int64_t *ss, int64_t sstep) {
  memset(w, 0, sizeof *w);
  w->nops = s ? 2 : 1;
  w->base[0] = d;
  w->base[1] = s;
  int64_t total = 1;
  for (int k = 0; k < ndim; k++) {
    int64_t size = k == axis ? len : shape[k];
    total *= size;
    if (size == 1) continue;
    w->shape[w->ndim] = size;
    w->st[w->ndim][0] = ds[k] * (k == axis ? dstep : 1);
    w->st[w->ndim][1] = ss ? ss[k] * (k == axis ? sstep : 1) : 0;
    w->ndim++;
  }
  if (w->ndim == 0) {
    w->ndim = 1;
    w->shape[0] = 1;
  }
  /* dst's smallest stride innermost (a stable insertion sort of a few
   * dims), so a Fortran-ordered result is written as it lies in memory */
  for (int k = 1; k < w->ndim; k++) {
    for (int j = k; j > 0 && llabs(w->st[j][0]) > llabs(w->st[j - 1][0]); j--) {
      int64_t size = w->shape[j], st0 = w->st[j][0], st1 = w->st[j][1];
      w->shape[j] = w->shape[j - 1];
      w->st[j][0] = w->st[j - 1][0];
      w->st[j][1] = w->st[j - 1][1];
      w->shape[j - 1] = size;
      w->st[j - 1][0] = st0;
      w->st[j - 1][1] = st1;
    }
  }
  return total;
}

/* Whether dst has src's shape but `len` along axis. */
static int shapes_agree(const ma_array *src, const ma_array *dst, int axis, int64_t len) {
  if (src->t.ndim != dst->t.ndim || axis < 0 || axis >= src->t.ndim || dst->t.shape[axis] != len ||
      ma_elsize(src->t.dtype) != 1 || ma_elsize(dst->t.dtype) != 1)
    return 0;
  for (int k = 0; k < src->t.ndim; k++)
    if (k != axis && src->t.shape[k] != dst->t.shape[k]) return 0;
  return 1;
}

int ma_packbits(const ma_array *src, ma_array *dst, int axis, int little) {
  int64_t n = axis >= 0 && axis < src->t.ndim ? src->t.shape[axis] : 0;
  if (!shapes_agree(src, dst, axis, (n + 7) / 8)) return -1;
  char *d = (char *)dst->t.data, *s = (char *)src->t.data;
  const int64_t *ds = dst->t.strides, *ss = src->t.strides;
  int64_t full = n / 8;
  ma_nest w;
  bits_ctx c = {ss[axis], 8, little};
  int64_t t = nest_over(&w, src->t.ndim, src->t.shape, axis, full, d, ds, 1, s, ss, 8);
  ma_nest_walk(&w, 0, t, pack_run, &c);
  if (n % 8) { /* the last byte of each row, from the n % 8 elements left */
    c.bits = (int)(n % 8);
    t = nest_over(&w, src->t.ndim, src->t.shape, axis, 1, d + full * ds[axis], ds, 1, s + 8 * full * ss[axis], ss, 8);
    ma_nest_walk(&w, 0, t, pack_run, &c);
  }
  return 0;
}

int ma_unpackbits(const ma_array *src, ma_array *dst, int axis, int little) {
  if (axis < 0 || axis >= src->t.ndim || !shapes_agree(src, dst, axis, dst->t.shape[axis])) return -1;
  int64_t n = src->t.shape[axis], count = dst->t.shape[axis], have = 8 * n < count ? 8 * n : count;
  char *d = (char *)dst->t.data, *s = (char *)src->t.data;
  const int64_t *ds = dst->t.strides, *ss = src->t.strides;
  int64_t full = have / 8;
  ma_nest w;
  bits_ctx c = {ds[axis], 8, little};
  int64_t t = nest_over(&w, src->t.ndim, src->t.shape, axis, full, d, ds, 8, s, ss, 1);
  ma_nest_walk(&w, 0, t, unpack_run, &c);
  if (have % 8) { /* the bits of the first bytes kept in part */
    c.bits = (int)(have % 8);
    t = nest_over(&w, src->t.ndim, src->t.shape, axis, 1, d + 8 * full * ds[axis], ds, 8, s + full * ss[axis], ss, 1);
    ma_nest_walk(&w, 0, t, unpack_run, &c);
  }
  if (count > have) { /* NumPy pads a count past the last bit with zeros */
    t = nest_over(&w, src->t.ndim, src->t.shape, axis, count - have, d + have * ds[axis], ds, 1, NULL, NULL, 0);
    ma_nest_walk(&w, 0, t, zero_run, NULL);
  }
  return 0;
}
