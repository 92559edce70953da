/*
 * MT19937, the Mersenne Twister (Matsumoto & Nishimura, "Mersenne
 * Twister: a 623-dimensionally equidistributed uniform pseudorandom number
 * generator", ACM TOMACS 8(1), 1998), as NumPy's MT19937 bit generator
 * holds and draws it (numpy/random/src/mt19937): 624 words of state and a
 * position, tempered 32-bit outputs, 64-bit draws as two 32-bit ones
 * (the first the high half) and doubles from 27 + 26 bits of two draws.
 *
 * Two seedings, both NumPy's: `ma_mt19937_seed` (Knuth's recurrence from
 * one 32-bit word, what RandomState(seed) and np.random.seed(int) do) and
 * `ma_mt19937_init_by_array` (the reference init_by_array, for a seed
 * array).  MT19937(seed) seeds from SeedSequence words in Python.
 */
#ifndef MA_CORE_MT19937_H
#define MA_CORE_MT19937_H

#include <stdint.h>

#define MA_MT19937_N 624

/* cdef-begin: the build script hands the declarations between these markers
 * to cffi verbatim. */

/* The state: the key and the index of the next word to temper (624: the
 * key is used up and is regenerated before the next draw). */
typedef struct {
  uint32_t key[624];
  int32_t pos;
} ma_mt19937;

void ma_mt19937_seed(ma_mt19937 *s, uint32_t seed);
void ma_mt19937_init_by_array(ma_mt19937 *s, const uint32_t *init_key, int64_t key_length);
/* n raw draws, as NumPy's random_raw gives them: 32-bit outputs in 64-bit words. */
void ma_mt19937_raw(ma_mt19937 *s, int64_t n, uint64_t *out);

/* cdef-end */

/* Regenerate the key once its 624 words are used (the twist). */
void ma_mt19937_gen(ma_mt19937 *s);

static inline uint32_t ma_mt19937_temper(uint32_t y) {
  y ^= (y >> 11);
  y ^= (y << 7) & 0x9d2c5680U;
  y ^= (y << 15) & 0xefc60000U;
  y ^= (y >> 18);
  return y;
}

static inline uint32_t ma_mt19937_next32(ma_mt19937 *s) {
  if (s->pos >= MA_MT19937_N) ma_mt19937_gen(s);
  return ma_mt19937_temper(s->key[s->pos++]);
}

/* mt19937_next64: the first draw is the high half. */
static inline uint64_t ma_mt19937_next64(ma_mt19937 *s) {
  uint64_t hi = ma_mt19937_next32(s);
  return (hi << 32) | ma_mt19937_next32(s);
}

/* genrand_res53: 27 bits of one draw and 26 of the next, scaled by 2^-53. */
static inline double ma_mt19937_next_double(ma_mt19937 *s) {
  int32_t a = (int32_t)(ma_mt19937_next32(s) >> 5);
  int32_t b = (int32_t)(ma_mt19937_next32(s) >> 6);
  return (a * 67108864.0 + b) / 9007199254740992.0;
}

/* n doubles in stream order, a block of the key at a time. */
void ma_mt19937_fill_double(ma_mt19937 *s, int64_t n, double *out);

#endif
