/*
 * NumPy's Generator stream in plain C: see random.h for the interface.
 *
 * Sources of the algorithms (each function names its own):
 *   - M. E. O'Neill, "PCG: A Family of Simple Fast Space-Efficient
 *     Statistically Good Algorithms for Random Number Generation", 2014,
 *     and the PCG64 / PCG64DXSM variants NumPy ships
 *     (numpy/random/src/pcg64/pcg64.h);
 *   - NumPy's SeedSequence (numpy/random/bit_generator.pyx), after
 *     M. E. O'Neill's seed_seq_fe;
 *   - NumPy's distributions (numpy/random/src/distributions/distributions.c)
 *     and the Generator methods that drive them
 *     (numpy/random/_generator.pyx, _bounded_integers.pyx.in).
 *
 * Bit-identical streams need the same arithmetic in the same order as
 * NumPy's C, so every expression below keeps NumPy's order of operations;
 * floating-point contraction into FMA is switched off for this file (an
 * FMA rounds once where NumPy's build rounds twice).
 */
#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#elif defined(__GNUC__)
#pragma GCC optimize("fp-contract=off")
#endif

#include "random.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "threads.h"
#include "ziggurat.h"

typedef __uint128_t u128;

/* ---- the bit generators ---------------------------------------------------- */

/* PCG's 128-bit LCG multiplier, and the 64-bit "cheap" multiplier of the
 * DXSM variant (pcg64.h: PCG_DEFAULT_MULTIPLIER_128,
 * PCG_CHEAP_MULTIPLIER_128). */
#define PCG_MULT_HI 2549297995355413924ULL
#define PCG_MULT_LO 4865540595714422341ULL
#define PCG_CHEAP_MULT 0xda942042e4dd58b5ULL

/* The working copy of a generator: loaded into locals at the start of a
 * fill and stored back at its end, so the hot loops keep the state in
 * registers. */
typedef struct {
  u128 state;
  u128 inc;
  int has32;
  uint32_t u32;
  int dxsm;
} rng_t;

static inline u128 mult128(void) { return ((u128)PCG_MULT_HI << 64) | PCG_MULT_LO; }

static inline rng_t load(const ma_pcg64 *g) {
  rng_t r;
  r.state = ((u128)g->state_hi << 64) | g->state_lo;
  r.inc = ((u128)g->inc_hi << 64) | g->inc_lo;
  r.has32 = g->has_uint32 != 0;
  r.u32 = g->uinteger;
  r.dxsm = g->dxsm != 0;
  return r;
}

static inline void store(ma_pcg64 *g, const rng_t *r) {
  g->state_hi = (uint64_t)(r->state >> 64);
  g->state_lo = (uint64_t)r->state;
  g->has_uint32 = r->has32;
  g->uinteger = r->u32;
}

/* PCG64's XSL-RR output: the xor of the state's halves, rotated right by
 * its top 6 bits. */
static inline uint64_t xslrr_of(u128 state) {
  uint64_t hi = (uint64_t)(state >> 64), lo = (uint64_t)state;
  unsigned rot = (unsigned)(hi >> 58);
  uint64_t x = hi ^ lo;
  return (x >> rot) | (x << ((-rot) & 63));
}

/* PCG64DXSM's output ("double xorshift multiply") of a state. */
static inline uint64_t next_dxsm_of(u128 state) {
  uint64_t hi = (uint64_t)(state >> 64), lo = (uint64_t)state | 1;
  hi ^= hi >> 32;
  hi *= PCG_CHEAP_MULT;
  hi ^= hi >> 48;
  hi *= lo;
  return hi;
}

/* PCG64: step the LCG, then output the new state. */
static inline uint64_t next_xslrr(rng_t *r) {
  r->state = r->state * mult128() + r->inc;
  return xslrr_of(r->state);
}

/* PCG64DXSM: output the current state, then step with the cheap 64-bit
 * multiplier. */
static inline uint64_t next_dxsm(rng_t *r) {
  uint64_t v = next_dxsm_of(r->state);
  r->state = r->state * PCG_CHEAP_MULT + r->inc;
  return v;
}

static inline uint64_t next64(rng_t *r) { return r->dxsm ? next_dxsm(r) : next_xslrr(r); }

/* A 32-bit draw: the low half of a 64-bit draw, its high half kept for the
 * next 32-bit draw (pcg64_next32). */
static inline uint32_t next32(rng_t *r) {
  if (r->has32) {
    r->has32 = 0;
    return r->u32;
  }
  uint64_t v = next64(r);
  r->has32 = 1;
  r->u32 = (uint32_t)(v >> 32);
  return (uint32_t)v;
}

/* The double of a draw: its top 53 bits scaled by 2^-53.  (The shifted
 * draw is below 2^53, so it converts exactly as a signed integer, which
 * x86-64 does in one instruction.) */
static inline double to_double(uint64_t v) { return (double)(int64_t)(v >> 11) * (1.0 / 9007199254740992.0); }

/* n draws, in stream order, at several times the speed of n calls of
 * next64: a single LCG is a chain of dependent 128-bit multiplies, so
 * four chains run side by side, chain j producing draws j, j + 4, ...
 * with the four-step recurrence s <- a^4 s + c (a^3 + a^2 + a + 1) (the
 * same arithmetic as pcg_advance_lcg_128 with delta 4).  The outputs and
 * the final state are exactly those of n single steps.  A chain holds the
 * state its next output is computed from: the stepped state for XSL-RR
 * (step, then output), the current one for DXSM (output, then step).
 * `as_double` (a constant once inlined) writes to_double of each draw
 * instead of the draw. */
static inline __attribute__((always_inline)) void chain_fill(rng_t *r, void *dst, int64_t n, const int as_double) {
  uint64_t *raw = dst;
  double *dbl = dst;
#define PUT(i, v)                     \
  do {                                \
    uint64_t v_ = (v);                \
    if (as_double)                    \
      dbl[i] = to_double(v_);         \
    else                              \
      raw[i] = v_;                    \
  } while (0)
  int64_t i = 0;
  if (n >= 16) {
    const u128 a = r->dxsm ? (u128)PCG_CHEAP_MULT : mult128();
    const u128 c = r->inc;
    const u128 a2 = a * a;
    const u128 a4 = a2 * a2;
    const u128 c4 = c * (1 + a + a2 + a2 * a);
    u128 t0, t1, t2, t3, s = r->state, last = 0;
    if (r->dxsm) {
      t0 = s;
      t1 = a * t0 + c;
      t2 = a * t1 + c;
      t3 = a * t2 + c;
      for (; i + 4 <= n; i += 4) {
        PUT(i, next_dxsm_of(t0));
        PUT(i + 1, next_dxsm_of(t1));
        PUT(i + 2, next_dxsm_of(t2));
        PUT(i + 3, next_dxsm_of(t3));
        t0 = a4 * t0 + c4;
        t1 = a4 * t1 + c4;
        t2 = a4 * t2 + c4;
        t3 = a4 * t3 + c4;
      }
      r->state = t0; /* the next output's state */
    } else {
      t0 = a * s + c;
      t1 = a * t0 + c;
      t2 = a * t1 + c;
      t3 = a * t2 + c;
      for (; i + 4 <= n; i += 4) {
        PUT(i, xslrr_of(t0));
        PUT(i + 1, xslrr_of(t1));
        PUT(i + 2, xslrr_of(t2));
        PUT(i + 3, xslrr_of(t3));
        last = t3;
        t0 = a4 * t0 + c4;
        t1 = a4 * t1 + c4;
        t2 = a4 * t2 + c4;
        t3 = a4 * t3 + c4;
      }
      r->state = last; /* the state the last output came from */
    }
  }
  for (; i < n; i++) PUT(i, next64(r));
#undef PUT
}

static void raw_fill(rng_t *r, uint64_t *out, int64_t n) { chain_fill(r, out, n, 0); }
static void double_fill(rng_t *r, double *out, int64_t n) { chain_fill(r, out, n, 1); }

/* Uniform [0, 1): the top 53 (24) bits scaled by 2^-53 (2^-24). */
static inline double next_double(rng_t *r) { return to_double(next64(r)); }
static inline float next_float(rng_t *r) { return (float)(next32(r) >> 8) * (1.0f / 16777216.0f); }

/* The algorithms the legacy RandomState shares, over the draws above. */
#include "random_algos.h"

/* Run the statements with the generator loaded into `r`, specialised on the output
 * function so the hot loop has no branch on it, and store it back. */
#define WITH_RNG(g, ...)         \
  do {                           \
    rng_t r_ = load(g);          \
    if (r_.dxsm) {               \
      r_.dxsm = 1;               \
      rng_t *r = &r_;            \
      __VA_ARGS__;               \
    } else {                     \
      r_.dxsm = 0;               \
      rng_t *r = &r_;            \
      __VA_ARGS__;               \
    }                            \
    store(g, &r_);               \
  } while (0)

/* pcg_setseq_128_srandom_r: zero state, increment 2*seq+1, step, add the
 * initial state, step.  NumPy seeds both variants this way, with the full
 * multiplier. */
void ma_pcg64_seed(ma_pcg64 *g, const uint64_t *words) {
  u128 initstate = ((u128)words[0] << 64) | words[1];
  u128 initseq = ((u128)words[2] << 64) | words[3];
  u128 inc = (initseq << 1) | 1;
  u128 s = 0;
  s = s * mult128() + inc;
  s += initstate;
  s = s * mult128() + inc;
  g->state_hi = (uint64_t)(s >> 64);
  g->state_lo = (uint64_t)s;
  g->inc_hi = (uint64_t)(inc >> 64);
  g->inc_lo = (uint64_t)inc;
  g->has_uint32 = 0;
  g->uinteger = 0;
}

/* Jump ahead by delta steps in O(log delta): Brown, "Random Number
 * Generation with Arbitrary Stride", Trans. Am. Nucl. Soc., 1994
 * (pcg_advance_lcg_128).  The DXSM variant's LCG uses the cheap
 * multiplier.  Advancing drops the buffered 32-bit half, as NumPy does. */
static u128 lcg_advance(u128 state, u128 delta, int dxsm, u128 inc) {
  u128 cur_mult = dxsm ? (u128)PCG_CHEAP_MULT : mult128();
  u128 cur_plus = inc;
  u128 acc_mult = 1, acc_plus = 0;
  while (delta > 0) {
    if (delta & 1) {
      acc_mult *= cur_mult;
      acc_plus = acc_plus * cur_mult + cur_plus;
    }
    cur_plus = (cur_mult + 1) * cur_plus;
    cur_mult *= cur_mult;
    delta >>= 1;
  }
  return acc_mult * state + acc_plus;
}

void ma_pcg64_advance(ma_pcg64 *g, uint64_t delta_hi, uint64_t delta_lo) {
  u128 s = ((u128)g->state_hi << 64) | g->state_lo;
  s = lcg_advance(s, ((u128)delta_hi << 64) | delta_lo, g->dxsm != 0, ((u128)g->inc_hi << 64) | g->inc_lo);
  g->state_hi = (uint64_t)(s >> 64);
  g->state_lo = (uint64_t)s;
  g->has_uint32 = 0;
  g->uinteger = 0;
}

/* ---- SeedSequence --------------------------------------------------------------- */

/* The hash constants of NumPy's SeedSequence (bit_generator.pyx). */
#define SS_INIT_A 0x43b0d7e5u
#define SS_MULT_A 0x931e8875u
#define SS_INIT_B 0x8b51f9ddu
#define SS_MULT_B 0x58f38dedu
#define SS_MIX_MULT_L 0xca01f9ddu
#define SS_MIX_MULT_R 0x4973f715u
#define SS_XSHIFT 16

static inline uint32_t hashmix(uint32_t value, uint32_t *hash_const) {
  value ^= *hash_const;
  *hash_const *= SS_MULT_A;
  value *= *hash_const;
  value ^= value >> SS_XSHIFT;
  return value;
}

static inline uint32_t mix(uint32_t x, uint32_t y) {
  uint32_t result = SS_MIX_MULT_L * x - SS_MIX_MULT_R * y;
  result ^= result >> SS_XSHIFT;
  return result;
}

/* SeedSequence.mix_entropy: hash the entropy into the pool (zeros past its
 * end), mix every pool word into every other, then fold in the entropy
 * words beyond the pool's size. */
void ma_seedseq_mix(const uint32_t *entropy, int64_t n_entropy, uint32_t *pool, int64_t pool_size) {
  uint32_t hash_const = SS_INIT_A;
  for (int64_t i = 0; i < pool_size; i++)
    pool[i] = hashmix(i < n_entropy ? entropy[i] : 0, &hash_const);
  for (int64_t src = 0; src < pool_size; src++)
    for (int64_t dst = 0; dst < pool_size; dst++)
      if (src != dst) pool[dst] = mix(pool[dst], hashmix(pool[src], &hash_const));
  for (int64_t src = pool_size; src < n_entropy; src++)
    for (int64_t dst = 0; dst < pool_size; dst++) pool[dst] = mix(pool[dst], hashmix(entropy[src], &hash_const));
}

/* SeedSequence.generate_state: cycle through the pool, hashing each word
 * with a running multiplier. */
void ma_seedseq_generate(const uint32_t *pool, int64_t pool_size, uint32_t *out, int64_t n_words) {
  uint32_t hash_const = SS_INIT_B;
  for (int64_t i = 0; i < n_words; i++) {
    uint32_t v = pool[i % pool_size];
    v ^= hash_const;
    hash_const *= SS_MULT_B;
    v *= hash_const;
    v ^= v >> SS_XSHIFT;
    out[i] = v;
  }
}

/* ---- uniform ------------------------------------------------------------------------ */

/* Raw draws a block at a time through a small buffer that stays in cache,
 * converted as next_float would. */
#define RAW_BLOCK 512

/* Fills where every value takes exactly one 64-bit draw split over the
 * thread pool: chunk [b, e) starts from the state advanced by b draws
 * (lcg_advance), so each value is the one the serial loop would write,
 * whatever the number of threads; the generator ends advanced by n. */
#define PARALLEL_MIN 65536

typedef struct {
  rng_t start;
  int64_t n, nchunks;
  uint64_t *raw;
  double *dbl;
} split_t;

static void split_chunk(void *vctx, int64_t chunk) {
  split_t *ctx = vctx;
  int64_t b, e;
  ma_chunk_range(ctx->n, ctx->nchunks, chunk, &b, &e);
  rng_t r = ctx->start;
  r.state = lcg_advance(r.state, (u128)b, r.dxsm, r.inc);
  if (ctx->raw)
    raw_fill(&r, ctx->raw + b, e - b);
  else
    double_fill(&r, ctx->dbl + b, e - b);
}

static void split_fill(ma_pcg64 *g, int64_t n, uint64_t *raw, double *dbl) {
  rng_t r = load(g);
  int threads = ma_get_num_threads();
  if (n < PARALLEL_MIN || threads < 2) {
    if (raw)
      raw_fill(&r, raw, n);
    else
      double_fill(&r, dbl, n);
  } else {
    split_t ctx = {r, n, threads, raw, dbl};
    ma_parallel_for(threads, split_chunk, &ctx);
    /* XSL-RR outputs the stepped state: after n draws the state is s_n;
     * DXSM outputs before stepping: the same s_n.  Either way, advance by n. */
    r.state = lcg_advance(r.state, (u128)n, r.dxsm, r.inc);
  }
  store(g, &r);
}

void ma_random_raw(ma_pcg64 *g, int64_t n, uint64_t *out) { split_fill(g, n, out, NULL); }

void ma_random_double(ma_pcg64 *g, int64_t n, double *out) { split_fill(g, n, NULL, out); }

/* 32-bit draws come two per 64-bit draw, the low half first; a spare high
 * half waits in the generator (has_uint32) for the next 32-bit draw. */
void ma_random_float(ma_pcg64 *g, int64_t n, float *out) {
  uint64_t buf[RAW_BLOCK];
  rng_t r = load(g);
  int64_t i = 0;
  if (n > 0 && r.has32) out[i++] = next_float(&r);
  int64_t pairs = (n - i) / 2;
  for (int64_t p = 0; p < pairs; p += RAW_BLOCK) {
    int64_t k = pairs - p < RAW_BLOCK ? pairs - p : RAW_BLOCK;
    raw_fill(&r, buf, k);
    for (int64_t j = 0; j < k; j++) {
      out[i++] = (float)((uint32_t)buf[j] >> 8) * (1.0f / 16777216.0f);
      out[i++] = (float)((uint32_t)(buf[j] >> 32) >> 8) * (1.0f / 16777216.0f);
    }
    /* next32 leaves the last high half in the generator, marked used:
     * NumPy's state dict shows it, so keep it too. */
    r.has32 = 0;
    r.u32 = (uint32_t)(buf[k - 1] >> 32);
  }
  if (i < n) out[i] = next_float(&r);
  store(g, &r);
}

/* random_uniform: low + range * U. */
void ma_random_uniform(ma_pcg64 *g, int64_t n, const double *low, int64_t low_step, const double *range,
                       int64_t range_step, double *out) {
  WITH_RNG(g, for (int64_t i = 0; i < n; i++) out[i] = low[i * low_step] + range[i * range_step] * next_double(r));
}

/* ---- bounded integers ------------------------------------------------------------ */

/* Lemire, "Fast Random Integer Generation in an Interval", ACM TOMACS 29(1),
 * 2019 (arXiv:1805.10941): multiply a w-bit draw by the range size, keep
 * the high half, reject the few draws whose low half falls below
 * 2^w mod size.  NumPy's variants per width (distributions.c,
 * bounded_lemire_uint64 and buffered_bounded_lemire_uint32/16/8); the 16-
 * and 8-bit ones take their draws from a 32-bit buffer, two or four per
 * 32-bit draw, low bits first. */

static inline uint64_t lemire64(rng_t *r, uint64_t rng) {
  const uint64_t excl = rng + 1;
  u128 m = (u128)next64(r) * excl;
  uint64_t leftover = (uint64_t)m;
  if (leftover < excl) {
    const uint64_t threshold = (UINT64_MAX - rng) % excl;
    while (leftover < threshold) {
      m = (u128)next64(r) * excl;
      leftover = (uint64_t)m;
    }
  }
  return (uint64_t)(m >> 64);
}

static inline uint32_t lemire32(rng_t *r, uint32_t rng) {
  const uint32_t excl = rng + 1;
  uint64_t m = (uint64_t)next32(r) * excl;
  uint32_t leftover = (uint32_t)m;
  if (leftover < excl) {
    const uint32_t threshold = (UINT32_MAX - rng) % excl;
    while (leftover < threshold) {
      m = (uint64_t)next32(r) * excl;
      leftover = (uint32_t)m;
    }
  }
  return (uint32_t)(m >> 32);
}

static inline uint16_t lemire16(rng_t *r, uint16_t rng, bitbuf_t *b) {
  const uint16_t excl = (uint16_t)(rng + 1);
  uint32_t m = (uint32_t)buffered16(r, b) * excl;
  uint16_t leftover = (uint16_t)m;
  if (leftover < excl) {
    const uint16_t threshold = (uint16_t)((UINT16_MAX - rng) % excl);
    while (leftover < threshold) {
      m = (uint32_t)buffered16(r, b) * excl;
      leftover = (uint16_t)m;
    }
  }
  return (uint16_t)(m >> 16);
}

static inline uint8_t lemire8(rng_t *r, uint8_t rng, bitbuf_t *b) {
  const uint8_t excl = (uint8_t)(rng + 1);
  uint16_t m = (uint16_t)(buffered8(r, b) * excl);
  uint8_t leftover = (uint8_t)m;
  if (leftover < excl) {
    const uint8_t threshold = (uint8_t)((UINT8_MAX - rng) % excl);
    while (leftover < threshold) {
      m = (uint16_t)(buffered8(r, b) * excl);
      leftover = (uint8_t)m;
    }
  }
  return (uint8_t)(m >> 8);
}

/* random_bounded_uint64: one draw in [off, off + rng], a 32-bit draw when
 * the range fits in 32 bits. */
static inline uint64_t bounded64(rng_t *r, uint64_t off, uint64_t rng) {
  if (rng == 0) return off;
  if (rng <= 0xFFFFFFFFULL) {
    if (rng == 0xFFFFFFFFULL) return off + next32(r);
    return off + lemire32(r, (uint32_t)rng);
  }
  if (rng == UINT64_MAX) return off + next64(r);
  return off + lemire64(r, rng);
}

/* random_bounded_uint64_fill and friends: a fill with scalar bounds.  A
 * full range takes raw draws (Lemire's method needs rng + 1 > 0). */
void ma_random_bounded_u64(ma_pcg64 *g, uint64_t off, uint64_t rng, int64_t n, uint64_t *out) {
  if (rng == 0) {
    for (int64_t i = 0; i < n; i++) out[i] = off;
    return;
  }
  WITH_RNG(g, {
    if (rng == 0xFFFFFFFFULL) {
      for (int64_t i = 0; i < n; i++) out[i] = off + next32(r);
    } else if (rng < 0xFFFFFFFFULL) {
      for (int64_t i = 0; i < n; i++) out[i] = off + lemire32(r, (uint32_t)rng);
    } else if (rng == UINT64_MAX) {
      for (int64_t i = 0; i < n; i++) out[i] = off + next64(r);
    } else {
      for (int64_t i = 0; i < n; i++) out[i] = off + lemire64(r, rng);
    }
  });
}

void ma_random_bounded_u32(ma_pcg64 *g, uint32_t off, uint32_t rng, int64_t n, uint32_t *out) {
  if (rng == 0) {
    for (int64_t i = 0; i < n; i++) out[i] = off;
    return;
  }
  WITH_RNG(g, {
    if (rng == 0xFFFFFFFFU) {
      for (int64_t i = 0; i < n; i++) out[i] = off + next32(r);
    } else {
      for (int64_t i = 0; i < n; i++) out[i] = off + lemire32(r, rng);
    }
  });
}

void ma_random_bounded_u16(ma_pcg64 *g, uint16_t off, uint16_t rng, int64_t n, uint16_t *out) {
  if (rng == 0) {
    for (int64_t i = 0; i < n; i++) out[i] = off;
    return;
  }
  bitbuf_t b = {0, 0};
  WITH_RNG(g, {
    if (rng == 0xFFFFU) {
      for (int64_t i = 0; i < n; i++) out[i] = (uint16_t)(off + buffered16(r, &b));
    } else {
      for (int64_t i = 0; i < n; i++) out[i] = (uint16_t)(off + lemire16(r, rng, &b));
    }
  });
}

void ma_random_bounded_u8(ma_pcg64 *g, uint8_t off, uint8_t rng, int64_t n, uint8_t *out) {
  if (rng == 0) {
    for (int64_t i = 0; i < n; i++) out[i] = off;
    return;
  }
  bitbuf_t b = {0, 0};
  WITH_RNG(g, {
    if (rng == 0xFFU) {
      for (int64_t i = 0; i < n; i++) out[i] = (uint8_t)(off + buffered8(r, &b));
    } else {
      for (int64_t i = 0; i < n; i++) out[i] = (uint8_t)(off + lemire8(r, rng, &b));
    }
  });
}

void ma_random_bounded_bool(ma_pcg64 *g, uint8_t off, uint8_t rng, int64_t n, uint8_t *out) {
  bitbuf_t b = {0, 0};
  WITH_RNG(g, for (int64_t i = 0; i < n; i++) out[i] = bounded_bool(r, off, rng, &b));
}

/* _rand_<type>_broadcast: per-element bounds, one draw each with the
 * single-value functions (random_buffered_bounded_<type>), sharing one
 * 32-bit buffer across the whole fill for the 16-, 8- and 1-bit types. */
void ma_random_bounded_array(ma_pcg64 *g, int bits, int closed, int64_t n, const uint64_t *low, int64_t low_step,
                             const uint64_t *high, int64_t high_step, void *out) {
  bitbuf_t b = {0, 0};
  const uint64_t open = closed ? 0 : 1;
  WITH_RNG(g, {
    for (int64_t i = 0; i < n; i++) {
      uint64_t lo = low[i * low_step], hi = high[i * high_step];
      uint64_t rng = (hi - open) - lo;
      switch (bits) {
        case 64:
          ((uint64_t *)out)[i] = bounded64(r, lo, rng);
          break;
        case 32: {
          uint32_t rg = (uint32_t)rng, of = (uint32_t)lo;
          ((uint32_t *)out)[i] = rg == 0 ? of : rg == 0xFFFFFFFFU ? of + next32(r) : of + lemire32(r, rg);
          break;
        }
        case 16: {
          uint16_t rg = (uint16_t)rng, of = (uint16_t)lo;
          ((uint16_t *)out)[i] = (uint16_t)(rg == 0            ? of
                                            : rg == 0xFFFFU ? of + buffered16(r, &b)
                                                            : of + lemire16(r, rg, &b));
          break;
        }
        case 8: {
          uint8_t rg = (uint8_t)rng, of = (uint8_t)lo;
          ((uint8_t *)out)[i] = (uint8_t)(rg == 0 ? of : rg == 0xFFU ? of + buffered8(r, &b) : of + lemire8(r, rg, &b));
          break;
        }
        default:
          ((uint8_t *)out)[i] = bounded_bool(r, (uint8_t)lo, (uint8_t)rng, &b);
          break;
      }
    }
  });
}

/* ---- the ziggurat: normal and exponential ----------------------------------------- */

/* Marsaglia & Tsang's ziggurat (J. Stat. Softw. 5(8), 2000) in NumPy's
 * 256-layer form (random_standard_normal): one 64-bit draw gives the
 * layer (8 bits), the sign (1 bit) and a 52-bit magnitude; the tail
 * beyond r samples Marsaglia's exponential method with 1 - U so the log
 * never sees 0. */
static inline double std_normal(rng_t *r) {
  for (;;) {
    uint64_t v = next64(r);
    int idx = (int)(v & 0xff);
    v >>= 8;
    int sign = (int)(v & 1);
    uint64_t rabs = (v >> 1) & 0x000fffffffffffffULL;
    double x = (double)rabs * zig_nor_w[idx];
    if (sign) x = -x;
    if (rabs < zig_nor_k[idx]) return x;
    if (idx == 0) {
      for (;;) {
        double xx = -zig_nor_inv_r * log1p(-next_double(r));
        double yy = -log1p(-next_double(r));
        if (yy + yy > xx * xx) return ((rabs >> 8) & 1) ? -(zig_nor_r + xx) : zig_nor_r + xx;
      }
    } else {
      if ((zig_nor_f[idx - 1] - zig_nor_f[idx]) * next_double(r) + zig_nor_f[idx] < exp(-0.5 * x * x)) return x;
    }
  }
}

/* random_standard_normal_f: the same from a 32-bit draw (23-bit magnitude),
 * the wedge test in double as NumPy writes it. */
static inline float std_normal_f(rng_t *r) {
  for (;;) {
    uint32_t v = next32(r);
    int idx = (int)(v & 0xff);
    int sign = (int)((v >> 8) & 1);
    uint32_t rabs = (v >> 9) & 0x0007fffffu;
    float x = (float)rabs * zig_nor_w_f[idx];
    if (sign) x = -x;
    if (rabs < zig_nor_k_f[idx]) return x;
    if (idx == 0) {
      for (;;) {
        float xx = -zig_nor_inv_r_f * log1pf(-next_float(r));
        float yy = -log1pf(-next_float(r));
        if (yy + yy > xx * xx) return ((rabs >> 8) & 1) ? -(zig_nor_r_f + xx) : zig_nor_r_f + xx;
      }
    } else {
      if (((zig_nor_f_f[idx - 1] - zig_nor_f_f[idx]) * next_float(r) + zig_nor_f_f[idx]) < exp(-0.5 * x * x))
        return x;
    }
  }
}

/* random_standard_exponential: 3 bits dropped, 8 for the layer, 53 for the
 * magnitude; the tail is r plus a fresh exponential (memorylessness).
 * NumPy retries a rejected wedge point by recursion; the loop here is the
 * same sequence of draws. */
static inline double std_exp(rng_t *r) {
  for (;;) {
    uint64_t v = next64(r) >> 3;
    int idx = (int)(v & 0xff);
    v >>= 8;
    double x = (double)v * zig_exp_w[idx];
    if (v < zig_exp_k[idx]) return x;
    if (idx == 0) return zig_exp_r - log1p(-next_double(r));
    if ((zig_exp_f[idx - 1] - zig_exp_f[idx]) * next_double(r) + zig_exp_f[idx] < exp(-x)) return x;
  }
}

static inline float std_exp_f(rng_t *r) {
  for (;;) {
    uint32_t v = next32(r) >> 1;
    int idx = (int)(v & 0xff);
    v >>= 8;
    float x = (float)v * zig_exp_w_f[idx];
    if (v < zig_exp_k_f[idx]) return x;
    if (idx == 0) return zig_exp_r_f - log1pf(-next_float(r));
    if ((zig_exp_f_f[idx - 1] - zig_exp_f_f[idx]) * next_float(r) + zig_exp_f_f[idx] < expf(-x)) return x;
  }
}

void ma_random_standard_normal(ma_pcg64 *g, int64_t n, double *out) {
  WITH_RNG(g, for (int64_t i = 0; i < n; i++) out[i] = std_normal(r));
}

void ma_random_standard_normal_f(ma_pcg64 *g, int64_t n, float *out) {
  WITH_RNG(g, for (int64_t i = 0; i < n; i++) out[i] = std_normal_f(r));
}

/* random_normal: loc + scale * Z. */
void ma_random_normal(ma_pcg64 *g, int64_t n, const double *loc, int64_t loc_step, const double *scale,
                      int64_t scale_step, double *out) {
  WITH_RNG(g, for (int64_t i = 0; i < n; i++) out[i] = loc[i * loc_step] + scale[i * scale_step] * std_normal(r));
}

/* random_lognormal: exp(loc + scale * Z). */
void ma_random_lognormal(ma_pcg64 *g, int64_t n, const double *mean, int64_t mean_step, const double *sigma,
                         int64_t sigma_step, double *out) {
  WITH_RNG(g, for (int64_t i = 0; i < n; i++)
                  out[i] = exp(mean[i * mean_step] + sigma[i * sigma_step] * std_normal(r)));
}

/* `inverse`: NumPy's method="inv", -log(1 - U). */
void ma_random_standard_exponential(ma_pcg64 *g, int64_t n, int inverse, double *out) {
  if (inverse)
    WITH_RNG(g, for (int64_t i = 0; i < n; i++) out[i] = -log1p(-next_double(r)));
  else
    WITH_RNG(g, for (int64_t i = 0; i < n; i++) out[i] = std_exp(r));
}

/* The float "inv" method computes in double (NumPy calls npy_log1p on a
 * float), then rounds to float. */
void ma_random_standard_exponential_f(ma_pcg64 *g, int64_t n, int inverse, float *out) {
  if (inverse)
    WITH_RNG(g, for (int64_t i = 0; i < n; i++) out[i] = (float)-log1p(-(double)next_float(r)));
  else
    WITH_RNG(g, for (int64_t i = 0; i < n; i++) out[i] = std_exp_f(r));
}

void ma_random_exponential(ma_pcg64 *g, int64_t n, const double *scale, int64_t scale_step, double *out) {
  WITH_RNG(g, for (int64_t i = 0; i < n; i++) out[i] = scale[i * scale_step] * std_exp(r));
}

/* ---- gamma and beta -------------------------------------------------------------------- */

/* random_standard_gamma: shape 1 is an exponential; shape < 1 uses
 * Johnk-type rejection on U^(1/shape) against an exponential (Ahrens &
 * Dieter's GS, as NumPy writes it); shape > 1 uses Marsaglia & Tsang,
 * "A Simple Method for Generating Gamma Variables", ACM TOMS 26(3), 2000. */
static double std_gamma(rng_t *r, double shape) {
  if (shape == 1.0) return std_exp(r);
  if (shape == 0.0) return 0.0;
  if (shape < 1.0) {
    for (;;) {
      double U = next_double(r);
      double V = std_exp(r);
      if (U <= 1.0 - shape) {
        double X = pow(U, 1. / shape);
        if (X <= V) return X;
      } else {
        double Y = -log((1 - U) / shape);
        double X = pow(1.0 - shape + shape * Y, 1. / shape);
        if (X <= (V + Y)) return X;
      }
    }
  }
  double b = shape - 1. / 3.;
  double c = 1. / sqrt(9 * b);
  for (;;) {
    double X, V;
    do {
      X = std_normal(r);
      V = 1.0 + c * X;
    } while (V <= 0.0);
    V = V * V * V;
    double U = next_double(r);
    if (U < 1.0 - 0.0331 * (X * X) * (X * X)) return (b * V);
    if (log(U) < 0.5 * X * X + b * (1. - V + log(V))) return (b * V);
  }
}

static float std_gamma_f(rng_t *r, float shape) {
  if (shape == 1.0f) return std_exp_f(r);
  if (shape == 0.0f) return 0.0f;
  if (shape < 1.0f) {
    for (;;) {
      float U = next_float(r);
      float V = std_exp_f(r);
      if (U <= 1.0f - shape) {
        float X = powf(U, 1.0f / shape);
        if (X <= V) return X;
      } else {
        float Y = -logf((1.0f - U) / shape);
        float X = powf(1.0f - shape + shape * Y, 1.0f / shape);
        if (X <= (V + Y)) return X;
      }
    }
  }
  float b = shape - 1.0f / 3.0f;
  float c = 1.0f / sqrtf(9.0f * b);
  for (;;) {
    float X, V;
    do {
      X = std_normal_f(r);
      V = 1.0f + c * X;
    } while (V <= 0.0f);
    V = V * V * V;
    float U = next_float(r);
    if (U < 1.0f - 0.0331f * (X * X) * (X * X)) return (b * V);
    if (logf(U) < 0.5f * X * X + b * (1.0f - V + logf(V))) return (b * V);
  }
}

void ma_random_standard_gamma_f(ma_pcg64 *g, int64_t n, const float *shape, int64_t shape_step, float *out) {
  WITH_RNG(g, for (int64_t i = 0; i < n; i++) out[i] = std_gamma_f(r, shape[i * shape_step]));
}

/* random_gamma: scale * standard gamma (scale 1 gives standard_gamma
 * exactly). */
void ma_random_gamma(ma_pcg64 *g, int64_t n, const double *shape, int64_t shape_step, const double *scale,
                     int64_t scale_step, double *out) {
  WITH_RNG(g, for (int64_t i = 0; i < n; i++) out[i] = scale[i * scale_step] * std_gamma(r, shape[i * shape_step]));
}

/* random_beta: Johnk's algorithm when both parameters are at most 1 (with
 * NumPy's guards for tiny parameters and underflow), else a ratio of
 * gammas. */
static double beta1(rng_t *r, double a, double b) {
  if ((a <= 1.0) && (b <= 1.0)) {
    if (a < 3e-103 && b < 3e-103) {
      /* Below this the draw is 0 or 1 but for a chance of ~1e-100: pick
       * by the proportion a / (a + b). */
      double U = next_double(r);
      return (a + b) * U < a;
    }
    for (;;) {
      double U = next_double(r);
      double V = next_double(r);
      double X = pow(U, 1.0 / a);
      double Y = pow(V, 1.0 / b);
      double XpY = X + Y;
      if ((XpY <= 1.0) && (U + V > 0.0)) {
        if ((X > 0) && (Y > 0)) return X / XpY;
        /* X or Y underflowed: X / (X + Y) from the logarithms. */
        double logX = log(U) / a;
        double logY = log(V) / b;
        double delta = logX - logY;
        if (delta > 0) return exp(-log1p(exp(-delta)));
        return exp(delta - log1p(exp(delta)));
      }
    }
  }
  double Ga = std_gamma(r, a);
  double Gb = std_gamma(r, b);
  return Ga / (Ga + Gb);
}

void ma_random_beta(ma_pcg64 *g, int64_t n, const double *a, int64_t a_step, const double *b, int64_t b_step,
                    double *out) {
  WITH_RNG(g, for (int64_t i = 0; i < n; i++) out[i] = beta1(r, a[i * a_step], b[i * b_step]));
}

/* ---- binomial and Poisson --------------------------------------------------------------- */

void ma_random_binomial(ma_pcg64 *g, int64_t n, const int64_t *trials, int64_t trials_step, const double *p,
                        int64_t p_step, int64_t *out) {
  binom_t B;
  memset(&B, 0, sizeof B);
  WITH_RNG(g, for (int64_t i = 0; i < n; i++) out[i] = binomial1(r, trials[i * trials_step], p[i * p_step], &B, 0));
}

void ma_random_multinomial(ma_pcg64 *g, int64_t rows, const int64_t *trials, int64_t trials_step,
                           const int64_t *row, int64_t row_step, const double *p, int64_t d, int64_t *out) {
  binom_t B;
  memset(&B, 0, sizeof B);
  WITH_RNG(g, for (int64_t i = 0; i < rows; i++)
                  multinomial1(r, trials[i * trials_step], p + row[i * row_step] * d, d, out + i * d, &B, 0));
}

void ma_random_poisson(ma_pcg64 *g, int64_t n, const double *lam, int64_t lam_step, int64_t *out) {
  WITH_RNG(g, for (int64_t i = 0; i < n; i++) out[i] = poisson1(r, lam[i * lam_step]));
}

/* ---- the other distributions (distributions.c's random_*) ------------------------------ */

static inline double chisquare1(rng_t *r, double df) { return 2.0 * std_gamma(r, df / 2.0); }

static inline double standard_cauchy1(rng_t *r) {
  double num = std_normal(r);
  return num / std_normal(r);
}

static inline double standard_t1(rng_t *r, double df) {
  double num = std_normal(r);
  double denom = std_gamma(r, df / 2);
  return sqrt(df / 2) * num / sqrt(denom);
}

static inline double f1(rng_t *r, double dfnum, double dfden) {
  double num = chisquare1(r, dfnum) * dfden;
  return num / (chisquare1(r, dfden) * dfnum);
}

static inline double rayleigh1(rng_t *r, double mode) { return mode * sqrt(2.0 * std_exp(r)); }
static inline double pareto1(rng_t *r, double a) { return expm1(std_exp(r) / a); }
static inline double power1(rng_t *r, double a) { return pow(-expm1(-std_exp(r)), 1. / a); }
static inline double weibull1(rng_t *r, double a) { return a == 0.0 ? 0.0 : pow(std_exp(r), 1. / a); }

/* random_noncentral_chisquare: NaN for a NaN nonc before any draw; above
 * one degree of freedom a chi-square of df - 1 plus a shifted normal
 * squared, else a Poisson mixture of chi-squares. */
static double noncentral_chisquare1(rng_t *r, double df, double nonc) {
  if (isnan(nonc)) return NAN;
  if (nonc == 0) return chisquare1(r, df);
  if (1 < df) {
    const double chi2 = chisquare1(r, df - 1);
    const double n = std_normal(r) + sqrt(nonc);
    return chi2 + n * n;
  }
  const int64_t i = poisson1(r, nonc / 2.0);
  return chisquare1(r, df + 2 * (double)i);
}

static inline double noncentral_f1(rng_t *r, double dfnum, double dfden, double nonc) {
  double t = noncentral_chisquare1(r, dfnum, nonc) * dfden;
  return t / (chisquare1(r, dfden) * dfnum);
}

/* random_wald: Michael, Schucany & Haas, in the form that keeps precision
 * for a small Y. */
static inline double wald1(rng_t *r, double mean, double scale) {
  double Y = std_normal(r);
  Y = mean * Y * Y;
  double d = 1 + sqrt(1 + 4 * scale / Y);
  double X = mean * (1 - 2 / d);
  double U = next_double(r);
  if (U <= mean / (mean + X)) return X;
  return mean * mean / X;
}

/* random_vonmises: as the legacy one, but a wrapped normal above kappa = 1e6. */
static double vonmises1(rng_t *r, double mu, double kappa) {
  const double pi = 3.14159265358979323846;
  if (isnan(kappa)) return NAN;
  if (kappa < 1e-8) return pi * (2 * next_double(r) - 1);
  if (kappa > 1e6) {
    double result = mu + sqrt(1. / kappa) * std_normal(r);
    if (result < -pi) result += 2 * pi;
    if (result > pi) result -= 2 * pi;
    return result;
  }
  return vonmises_bf(r, mu, kappa);
}

/* random_geometric: the search above 1/3, else inversion of an exponential
 * (capped at INT64_MAX). */
static inline int64_t geometric1(rng_t *r, double p) {
  if (p >= 0.333333333333333333333333) return geometric_search(r, p);
  double z = ceil(-std_exp(r) / log1p(-p));
  if (z >= 9.223372036854776e+18) return INT64_MAX;
  return (int64_t)z;
}

static inline int64_t negative_binomial1(rng_t *r, double n, double p) {
  double Y = (1 - p) / p * std_gamma(r, n);
  return poisson1(r, Y);
}

/* random_zipf: rejection from a Pareto whose uniform avoids the values
 * that could only be rejected; 1 for a >= 1025, where b overflows. */
static int64_t zipf1(rng_t *r, double a) {
  if (a >= 1025) return 1;
  double am1 = a - 1.0;
  double b = pow(2.0, am1);
  double Umin = pow(9223372036854775807.0, -am1);
  for (;;) {
    double U01 = next_double(r);
    double U = U01 * Umin + (1 - U01);
    double V = next_double(r);
    double X = floor(pow(U, -1.0 / am1));
    if (X > 9223372036854775807.0 || X < 1.0) continue;
    double T = pow(1.0 + 1.0 / X, am1);
    if (V * X * (T - 1.0) / (b - 1.0) <= T / b) return (int64_t)X;
  }
}

/* random_logseries: Kemp's second algorithm with log1p and expm1. */
static int64_t logseries1(rng_t *r, double p) {
  double rr = log1p(-p);
  for (;;) {
    double V = next_double(r);
    if (V >= p) return 1;
    double U = next_double(r);
    double q = -expm1(rr * U);
    if (V <= q * q) {
      int64_t result = floor_to_i64(1 + log(V) / log(q));
      if ((result < 1) || (V == 0.0)) continue;
      return result;
    }
    if (V >= q) return 1;
    return 2;
  }
}

/* log(k!) for k < 126, correctly rounded (computed to 60 digits as a sum
 * of logarithms); the Stirling series beyond, as NumPy's logfactorial. */
static const double logfact_table[126] = {
    0.0, 0.0, 0.6931471805599453, 1.791759469228055, 3.1780538303479458, 4.787491742782046, 6.579251212010101,
    8.525161361065415, 10.60460290274525, 12.801827480081469, 15.104412573075516, 17.502307845873887,
    19.987214495661885, 22.552163853123425, 25.19122118273868, 27.89927138384089, 30.671860106080672,
    33.50507345013689, 36.39544520803305, 39.339884187199495, 42.335616460753485, 45.38013889847691,
    48.47118135183523, 51.60667556776438, 54.78472939811232, 58.00360522298052, 61.261701761002, 64.55753862700634,
    67.88974313718154, 71.25703896716801, 74.65823634883016, 78.0922235533153, 81.55795945611504, 85.05446701758152,
    88.58082754219768, 92.1361756036871, 95.7196945421432, 99.33061245478743, 102.96819861451381,
    106.63176026064346, 110.32063971475739, 114.0342117814617, 117.77188139974507, 121.53308151543864,
    125.3172711493569, 129.12393363912722, 132.95257503561632, 136.80272263732635, 140.67392364823425,
    144.5657439463449, 148.47776695177302, 152.40959258449735, 156.3608363030788, 160.3311282166309,
    164.32011226319517, 168.32744544842765, 172.3527971391628, 176.39584840699735, 180.45629141754378,
    184.53382886144948, 188.6281734236716, 192.7390472878449, 196.86618167289, 201.00931639928152,
    205.1681994826412, 209.34258675253685, 213.53224149456327, 217.73693411395422, 221.95644181913033,
    226.1905483237276, 230.43904356577696, 234.70172344281826, 238.97838956183432, 243.2688490029827,
    247.57291409618688, 251.8904022097232, 256.22113555000954, 260.5649409718632, 264.9216497985528,
    269.2910976510198, 273.6731242856937, 278.0675734403661, 282.4742926876304, 286.893133295427, 291.3239500942703,
    295.76660135076065, 300.22094864701415, 304.6868567656687, 309.1641935801469, 313.65282994987905,
    318.1526396202093, 322.66349912672615, 327.1852877037752, 331.7178871969285, 336.26118197919845,
    340.815058870799, 345.37940706226686, 349.95411804077025, 354.5390855194408, 359.1342053695754,
    363.73937555556347, 368.35449607240474, 372.979468885689, 377.61419787391867, 382.25858877306,
    386.91254912321756, 391.5759882173296, 396.24881705179155, 400.93094827891576, 405.6222961611449,
    410.32277652693733, 415.03230672824964, 419.7508055995447, 424.4781934182571, 429.21439186665157,
    433.9593239950148, 438.71291418612117, 443.47508812091894, 448.2457727453846, 453.0248962384961,
    457.81238798127816, 462.6081785268749, 467.4121995716082, 472.2243839269806, 477.04466549258564,
    481.87297922988796
};

static double logfactorial(int64_t k) {
  const double halfln2pi = 0.9189385332046728;
  if (k < 126) return logfact_table[k];
  return ((double)k + 0.5) * log((double)k) - (double)k +
         (halfln2pi + (1.0 / (double)k) * (1 / 12.0 - 1 / (360.0 * (double)k * (double)k)));
}

/* hypergeometric_sample: draw the smaller of the sample and its
 * complement one item at a time (random_interval over what is left),
 * stopping once only good items remain. */
static int64_t hypergeometric_sample(rng_t *r, int64_t good, int64_t bad, int64_t sample) {
  int64_t total = good + bad;
  int64_t computed_sample = sample > total / 2 ? total - sample : sample;
  int64_t remaining_total = total, remaining_good = good;
  while ((computed_sample > 0) && (remaining_good > 0) && (remaining_total > remaining_good)) {
    --remaining_total; /* interval's bound is inclusive */
    if ((int64_t)interval(r, (uint64_t)remaining_total) < remaining_good) --remaining_good;
    --computed_sample;
  }
  if (remaining_total == remaining_good) remaining_good -= computed_sample;
  return sample > total / 2 ? remaining_good : good - remaining_good;
}

/* hypergeometric_hrua: Stadlober's ratio of uniforms (HRUA, 1989 thesis),
 * with his variable names, on the smaller of the sample and its complement. */
static int64_t hypergeometric_hrua(rng_t *r, int64_t good, int64_t bad, int64_t sample) {
  const double D1 = 1.7155277699214135; /* 2 sqrt(2 / e) */
  const double D2 = 0.8989161620588988; /* 3 - 2 sqrt(3 / e) */
  int64_t popsize = good + bad;
  int64_t computed_sample = sample < popsize - sample ? sample : popsize - sample;
  int64_t mingoodbad = good < bad ? good : bad;
  int64_t maxgoodbad = good > bad ? good : bad;
  double p = ((double)mingoodbad) / (double)popsize;
  double q = ((double)maxgoodbad) / (double)popsize;
  double mu = (double)computed_sample * p;
  double a = mu + 0.5;
  double var = ((double)(popsize - computed_sample) * (double)computed_sample * p * q / (double)(popsize - 1));
  double c = sqrt(var + 0.5);
  double h = D1 * c + D2;
  int64_t m = (int64_t)floor((double)(computed_sample + 1) * (double)(mingoodbad + 1) / (double)(popsize + 2));
  double g = (logfactorial(m) + logfactorial(mingoodbad - m) + logfactorial(computed_sample - m) +
              logfactorial(maxgoodbad - computed_sample + m));
  double lim = (double)((computed_sample < mingoodbad ? computed_sample : mingoodbad) + 1);
  double fl = floor(a + 16 * c);
  double b = lim < fl ? lim : fl;
  int64_t K;
  for (;;) {
    double U = next_double(r);
    double V = next_double(r);
    double X = a + h * (V - 0.5) / U;
    if ((X < 0.0) || (X >= b)) continue; /* fast rejection */
    K = (int64_t)floor(X);
    double gp = (logfactorial(K) + logfactorial(mingoodbad - K) + logfactorial(computed_sample - K) +
                 logfactorial(maxgoodbad - computed_sample + K));
    double T = g - gp;
    if ((U * (4.0 - U) - 3.0) <= T) break; /* fast acceptance */
    if (U * (U - T) >= 1) continue;        /* fast rejection */
    if (2.0 * log(U) <= T) break;
  }
  if (good > bad) K = computed_sample - K;
  if (computed_sample < sample) K = good - K;
  return K;
}

/* random_hypergeometric: HRUA when the sample is 10 or more from both ends. */
static inline int64_t hypergeometric1(rng_t *r, int64_t good, int64_t bad, int64_t sample) {
  if (sample >= 10 && sample <= good + bad - 10) return hypergeometric_hrua(r, good, bad, sample);
  return hypergeometric_sample(r, good, bad, sample);
}

void ma_random_hypergeometric(ma_pcg64 *g, int64_t n, const int64_t *good, int64_t good_step, const int64_t *bad,
                              int64_t bad_step, const int64_t *sample, int64_t sample_step, int64_t *out) {
  WITH_RNG(g, for (int64_t i = 0; i < n; i++) {
    int64_t gd = good[i * good_step], bd = bad[i * bad_step], k = sample[i * sample_step];
    out[i] = hypergeometric1(r, gd, bd, k);
  });
}

/* multivariate_hypergeometric: `rows` draws of d counts (out zeroed by
 * the caller) of nsample items without replacement from colors[0, d),
 * `total` in all, drawing the smaller of the sample and its complement.
 * method_count: a partial Fisher-Yates shuffle over one entry per item
 * (random_multivariate_hypergeometric_count; -1 when its memory cannot be
 * had); else one hypergeometric per color but the last, of the items left
 * (random_multivariate_hypergeometric_marginals). */
int ma_random_mv_hypergeometric(ma_pcg64 *g, int method_count, int64_t total, int64_t d, const int64_t *colors,
                                int64_t nsample, int64_t rows, int64_t *out) {
  if (total == 0 || nsample == 0 || rows == 0) return 0;
  int64_t *choices = NULL;
  if (method_count) {
    choices = malloc((size_t)total * sizeof *choices);
    if (choices == NULL) return -1;
    for (int64_t i = 0, k = 0; i < d; ++i)
      for (int64_t j = 0; j < colors[i]; ++j) choices[k++] = i;
  }
  const int more_than_half = nsample > total / 2;
  if (more_than_half) nsample = total - nsample;
  WITH_RNG(g, for (int64_t i = 0; i < rows * d; i += d) {
    if (method_count) {
      for (int64_t j = 0; j < nsample; ++j) {
        int64_t k = j + (int64_t)interval(r, (uint64_t)(total - j - 1));
        int64_t tmp = choices[k];
        choices[k] = choices[j];
        choices[j] = tmp;
      }
      for (int64_t j = 0; j < nsample; ++j) out[i + choices[j]] += 1;
    } else {
      int64_t left = nsample, remaining = total;
      for (int64_t j = 0; left > 0 && j + 1 < d; ++j) {
        remaining -= colors[j];
        int64_t got = hypergeometric1(r, colors[j], remaining, left);
        out[i + j] = got;
        left -= got;
      }
      if (left > 0) out[i + d - 1] = left;
    }
    if (more_than_half)
      for (int64_t k = 0; k < d; ++k) out[i + k] = colors[k] - out[i + k];
  });
  free(choices);
  return 0;
}

/* The fills: element i of each parameter at p[i * step]. */
#define GEN_FILL0(name, T, draw)                                           \
  void ma_random_##name(ma_pcg64 *g, int64_t n, T *out) {                  \
    WITH_RNG(g, for (int64_t i = 0; i < n; i++) out[i] = draw(r));         \
  }
#define GEN_FILL1(name, T, draw)                                                        \
  void ma_random_##name(ma_pcg64 *g, int64_t n, const double *a, int64_t as, T *out) { \
    WITH_RNG(g, for (int64_t i = 0; i < n; i++) out[i] = draw(r, a[i * as]));           \
  }
#define GEN_FILL2(name, T, draw)                                                                         \
  void ma_random_##name(ma_pcg64 *g, int64_t n, const double *a, int64_t as, const double *b, int64_t bs, \
                        T *out) {                                                                        \
    WITH_RNG(g, for (int64_t i = 0; i < n; i++) out[i] = draw(r, a[i * as], b[i * bs]));                 \
  }
#define GEN_FILL3(name, T, draw)                                                                         \
  void ma_random_##name(ma_pcg64 *g, int64_t n, const double *a, int64_t as, const double *b, int64_t bs, \
                        const double *c, int64_t cs, T *out) {                                           \
    WITH_RNG(g, for (int64_t i = 0; i < n; i++) out[i] = draw(r, a[i * as], b[i * bs], c[i * cs]));      \
  }

GEN_FILL0(standard_cauchy, double, standard_cauchy1)
GEN_FILL1(standard_t, double, standard_t1)
GEN_FILL1(chisquare, double, chisquare1)
GEN_FILL2(f, double, f1)
GEN_FILL2(laplace, double, laplace1)
GEN_FILL2(logistic, double, logistic1)
GEN_FILL2(gumbel, double, gumbel1)
GEN_FILL1(rayleigh, double, rayleigh1)
GEN_FILL1(pareto, double, pareto1)
GEN_FILL1(power, double, power1)
GEN_FILL1(weibull, double, weibull1)
GEN_FILL2(noncentral_chisquare, double, noncentral_chisquare1)
GEN_FILL3(noncentral_f, double, noncentral_f1)
GEN_FILL3(triangular, double, triangular1)
GEN_FILL2(vonmises, double, vonmises1)
GEN_FILL2(wald, double, wald1)
GEN_FILL1(geometric, int64_t, geometric1)
GEN_FILL2(negative_binomial, int64_t, negative_binomial1)
GEN_FILL1(zipf, int64_t, zipf1)
GEN_FILL1(logseries, int64_t, logseries1)

/* ---- permutations and choice ----------------------------------------------------------- */

void ma_random_shuffle(ma_pcg64 *g, int64_t n, int64_t first, int64_t itemsize, int64_t stride, char *data) {
  if (itemsize == 8 && stride == 8) {
    /* The common case: whole 8-byte words. */
    uint64_t *d = (uint64_t *)data;
    WITH_RNG(g, for (int64_t i = n - 1; i >= first; i--) {
      int64_t j = (int64_t)interval(r, (uint64_t)i);
      uint64_t t = d[j];
      d[j] = d[i];
      d[i] = t;
    });
    return;
  }
  WITH_RNG(g, shuffle_raw(r, n, first, itemsize, stride, data));
}

void ma_random_shuffle_lanes(ma_pcg64 *g, int64_t outer, int64_t axlen, int64_t inner, int64_t itemsize,
                             char *data) {
  WITH_RNG(g, for (int64_t o = 0; o < outer; o++) for (int64_t k = 0; k < inner; k++)
                  shuffle_raw(r, axlen, 0, itemsize, inner * itemsize, data + (o * axlen * inner + k) * itemsize));
}

/* _shuffle_int: Fisher-Yates with Lemire draws (random_bounded_uint64),
 * what choice uses. */
static void shuffle_int(rng_t *r, int64_t n, int64_t first, int64_t *data) {
  for (int64_t i = n - 1; i >= first; i--) {
    int64_t j = (int64_t)bounded64(r, 0, (uint64_t)i);
    int64_t t = data[j];
    data[j] = data[i];
    data[i] = t;
  }
}

/* choice without replacement from a large population taking a large
 * share: shuffle the tail of 0..pop_size-1 and keep its last `size`. */
int ma_random_choice_tail_shuffle(ma_pcg64 *g, int64_t pop_size, int64_t size, int64_t *out) {
  int64_t *idx = malloc((size_t)(pop_size > 0 ? pop_size : 1) * sizeof(int64_t));
  if (idx == NULL) return -1;
  for (int64_t i = 0; i < pop_size; i++) idx[i] = i;
  int64_t first = pop_size - size > 1 ? pop_size - size : 1;
  WITH_RNG(g, shuffle_int(r, pop_size, first, idx));
  memcpy(out, idx + (pop_size - size), (size_t)size * sizeof(int64_t));
  free(idx);
  return 0;
}

/* Floyd's sampling algorithm (Bentley & Floyd, "A sample of brilliance",
 * CACM 30(9), 1987) with an open-addressing set of about 1.2 * size
 * slots, then (with `shuffle`) a Fisher-Yates pass so the order is random
 * too. */
int ma_random_choice_floyd(ma_pcg64 *g, int64_t pop_size, int64_t size, int shuffle, int64_t *out) {
  uint64_t mask = gen_mask((uint64_t)(1.2 * (double)size));
  const uint64_t empty = UINT64_MAX;
  uint64_t *set = malloc((size_t)(mask + 1) * sizeof(uint64_t));
  if (set == NULL) return -1;
  for (uint64_t i = 0; i <= mask; i++) set[i] = empty;
  WITH_RNG(g, {
    for (int64_t j = pop_size - size; j < pop_size; j++) {
      uint64_t val = bounded64(r, 0, (uint64_t)j);
      uint64_t loc = val & mask;
      while (set[loc] != empty && set[loc] != val) loc = (loc + 1) & mask;
      if (set[loc] == empty) {
        set[loc] = val;
        out[j - pop_size + size] = (int64_t)val;
      } else {
        loc = (uint64_t)j & mask;
        while (set[loc] != empty) loc = (loc + 1) & mask;
        set[loc] = (uint64_t)j;
        out[j - pop_size + size] = j;
      }
    }
    if (shuffle) shuffle_int(r, size, 1, out);
  });
  free(set);
  return 0;
}

/* Kahan's compensated sum, as NumPy's choice checks that p sums to 1. */
double ma_random_kahan_sum(const double *x, int64_t n) {
  if (n <= 0) return 0.0;
  double sum = x[0], c = 0.0;
  for (int64_t i = 1; i < n; i++) {
    double y = x[i] - c;
    double t = sum + y;
    c = (t - sum) - y;
    sum = t;
  }
  return sum;
}

/* choice with probabilities p: the sampling is random_algos.h's, with
 * this generator's uniforms. */
static void pcg_uniforms(void *g, int64_t n, double *out) { ma_random_double((ma_pcg64 *)g, n, out); }

int ma_random_choice_p(ma_pcg64 *g, int64_t pop_size, const double *p, int64_t size, int replace, int64_t *out) {
  return choice_p(g, pcg_uniforms, pop_size, p, size, replace, out);
}

/* ---- multivariate normal ------------------------------------------------------------------- */

/* The lower Cholesky factor, column by column (Cholesky-Crout), in place:
 * the lower triangle becomes L with L L^T = A, the upper is zeroed.  The
 * order of operations is LAPACK's unblocked potf2 as OpenBLAS runs it for
 * NumPy: each dot product accumulated with fused multiply-adds from the
 * left, the column scaled by the reciprocal of its pivot.  For matrices
 * up to 4 x 4 this gives numpy.linalg.cholesky's factor bit for bit
 * (OpenBLAS's blocked kernels reorder longer sums, so larger factors
 * can differ from NumPy's in the last bits). */
int64_t ma_cholesky(int64_t n, double *a) {
  for (int64_t j = 0; j < n; j++) {
    double dot = 0.0;
    for (int64_t k = 0; k < j; k++) dot = fma(a[j * n + k], a[j * n + k], dot);
    double ajj = a[j * n + j] - dot;
    if (!(ajj > 0.0)) return j;
    ajj = sqrt(ajj);
    a[j * n + j] = ajj;
    const double inv = 1.0 / ajj;
    for (int64_t i = j + 1; i < n; i++) {
      double s = 0.0;
      for (int64_t k = 0; k < j; k++) s = fma(a[i * n + k], a[j * n + k], s);
      a[i * n + j] = (a[i * n + j] - s) * inv;
    }
  }
  for (int64_t i = 0; i < n; i++)
    for (int64_t j = i + 1; j < n; j++) a[i * n + j] = 0.0;
  return -1;
}

/* mean + x @ L^T, row by row: out[r, i] = mean[i] + sum_k x[r, k] L[i, k],
 * the sum accumulated with fused multiply-adds from k = 0, as OpenBLAS's
 * dgemm does for NumPy's matmul (the zeros above L's diagonal included:
 * they leave the sum as it is). */
void ma_mvn_transform(int64_t rows, int64_t n, const double *x, const double *lower, const double *mean,
                      double *out) {
  for (int64_t r = 0; r < rows; r++) {
    const double *xr = x + r * n;
    for (int64_t i = 0; i < n; i++) {
      double s = 0.0;
      for (int64_t k = 0; k < n; k++) s = fma(xr[k], lower[i * n + k], s);
      out[r * n + i] = mean[i] + s;
    }
  }
}
