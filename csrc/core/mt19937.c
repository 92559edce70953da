/*
 * MT19937 in plain C: see mt19937.h.  The recurrences are the reference
 * implementation's (mt19937ar.c, 2002), as NumPy ships them.
 */
#include "mt19937.h"

#define MT_M 397
#define MATRIX_A 0x9908b0dfU
#define UPPER_MASK 0x80000000U
#define LOWER_MASK 0x7fffffffU

/* mt19937_seed: Knuth's multiplier (TAOCP vol. 2, 3rd ed., p. 106) from
 * one word; the key is then used up, so the first draw twists it. */
void ma_mt19937_seed(ma_mt19937 *s, uint32_t seed) {
  for (int pos = 0; pos < MA_MT19937_N; pos++) {
    s->key[pos] = seed;
    seed = 1812433253U * (seed ^ (seed >> 30)) + (uint32_t)pos + 1U;
  }
  s->pos = MA_MT19937_N;
}

/* init_by_array: init_genrand(19650218), then two non-linear passes that
 * fold the key in; the top bit of word 0 is set so the state is never all
 * zero.  The position is left as init_genrand leaves it (624). */
void ma_mt19937_init_by_array(ma_mt19937 *s, const uint32_t *init_key, int64_t key_length) {
  uint32_t *mt = s->key;
  mt[0] = 19650218U;
  for (int i = 1; i < MA_MT19937_N; i++) mt[i] = 1812433253U * (mt[i - 1] ^ (mt[i - 1] >> 30)) + (uint32_t)i;
  s->pos = MA_MT19937_N;
  int64_t i = 1, j = 0;
  int64_t k = MA_MT19937_N > key_length ? MA_MT19937_N : key_length;
  for (; k; k--) {
    mt[i] = (mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1664525U)) + init_key[j] + (uint32_t)j;
    i++;
    j++;
    if (i >= MA_MT19937_N) {
      mt[0] = mt[MA_MT19937_N - 1];
      i = 1;
    }
    if (j >= key_length) j = 0;
  }
  for (k = MA_MT19937_N - 1; k; k--) {
    mt[i] = (mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1566083941U)) - (uint32_t)i;
    i++;
    if (i >= MA_MT19937_N) {
      mt[0] = mt[MA_MT19937_N - 1];
      i = 1;
    }
  }
  mt[0] = 0x80000000U;
}

static inline uint32_t twist(uint32_t u, uint32_t v, uint32_t m) {
  uint32_t y = (u & UPPER_MASK) | (v & LOWER_MASK);
  return m ^ (y >> 1) ^ (-(y & 1U) & MATRIX_A);
}

void ma_mt19937_gen(ma_mt19937 *s) {
  uint32_t *k = s->key;
  int i;
  for (i = 0; i < MA_MT19937_N - MT_M; i++) k[i] = twist(k[i], k[i + 1], k[i + MT_M]);
  for (; i < MA_MT19937_N - 1; i++) k[i] = twist(k[i], k[i + 1], k[i + MT_M - MA_MT19937_N]);
  k[MA_MT19937_N - 1] = twist(k[MA_MT19937_N - 1], k[0], k[MT_M - 1]);
  s->pos = 0;
}

void ma_mt19937_raw(ma_mt19937 *s, int64_t n, uint64_t *out) {
  for (int64_t i = 0; i < n; i++) out[i] = ma_mt19937_next32(s);
}

void ma_mt19937_fill_double(ma_mt19937 *s, int64_t n, double *out) {
  int64_t i = 0;
  while (i < n) {
    if (s->pos >= MA_MT19937_N - 1) {
      /* a pair that straddles a twist (or none left): one at a time */
      out[i++] = ma_mt19937_next_double(s);
      continue;
    }
    int64_t pairs = (MA_MT19937_N - s->pos) / 2;
    if (pairs > n - i) pairs = n - i;
    const uint32_t *k = s->key + s->pos;
    for (int64_t p = 0; p < pairs; p++) {
      int32_t a = (int32_t)(ma_mt19937_temper(k[2 * p]) >> 5);
      int32_t b = (int32_t)(ma_mt19937_temper(k[2 * p + 1]) >> 6);
      out[i + p] = (a * 67108864.0 + b) / 9007199254740992.0;
    }
    s->pos += (int32_t)(2 * pairs);
    i += pairs;
  }
}
