/*
 * NumPy's legacy RandomState streams in plain C: see random_legacy.h.
 *
 * Sources: numpy/random/src/legacy/legacy-distributions.c (legacy_gauss,
 * legacy_standard_exponential, legacy_standard_gamma, legacy_beta,
 * legacy_lognormal, legacy_random_binomial, legacy_random_multinomial),
 * numpy/random/src/distributions/distributions.c (the masked bounded
 * draws, random_poisson, random_interval) and
 * numpy/random/mtrand.pyx, which drives them.  Every expression keeps
 * NumPy's order of operations, and floating-point contraction is off (an
 * FMA rounds once where NumPy's build rounds twice).
 */
#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#elif defined(__GNUC__)
#pragma GCC optimize("fp-contract=off")
#endif

#include "random_legacy.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The draws random_algos.h samples from: MT19937's own. */
typedef ma_mt19937 rng_t;
static inline uint32_t next32(rng_t *r) { return ma_mt19937_next32(r); }
static inline uint64_t next64(rng_t *r) { return ma_mt19937_next64(r); }
static inline double next_double(rng_t *r) { return ma_mt19937_next_double(r); }

#include "random_algos.h"

/* ---- uniform ---------------------------------------------------------------------- */

void ma_legacy_random_sample(ma_legacy *s, int64_t n, double *out) { ma_mt19937_fill_double(s->mt, n, out); }

void ma_legacy_uniform(ma_legacy *s, int64_t n, const double *low, int64_t low_step, const double *range,
                       int64_t range_step, double *out) {
  rng_t *r = s->mt;
  for (int64_t i = 0; i < n; i++) out[i] = low[i * low_step] + range[i * range_step] * next_double(r);
}

/* ---- normal, exponential, gamma, beta ---------------------------------------------- */

/* legacy_gauss: Marsaglia's polar method.  A point uniform in the unit
 * disc (0 excluded) gives two independent normals; the second is kept
 * for the next call, and get_state/set_state carry it. */
static inline double gauss(ma_legacy *s) {
  if (s->has_gauss) {
    const double tmp = s->gauss;
    s->has_gauss = 0;
    s->gauss = 0.0;
    return tmp;
  }
  rng_t *r = s->mt;
  double f, x1, x2, r2;
  do {
    x1 = 2.0 * next_double(r) - 1.0;
    x2 = 2.0 * next_double(r) - 1.0;
    r2 = x1 * x1 + x2 * x2;
  } while (r2 >= 1.0 || r2 == 0.0);
  f = sqrt(-2.0 * log(r2) / r2);
  s->gauss = f * x1;
  s->has_gauss = 1;
  return f * x2;
}

/* legacy_standard_exponential: -log(1 - U), U in [0, 1) so the log never sees 0. */
static inline double std_exp(ma_legacy *s) { return -log(1.0 - next_double(s->mt)); }

/* legacy_standard_gamma: Marsaglia & Tsang ("A simple method for
 * generating gamma variables", ACM TOMS 26(3), 2000) above shape 1, with
 * the polar normal; below 1, Johnk's rejection with an exponential. */
static double std_gamma(ma_legacy *s, double shape) {
  double b, c, U, V, X, Y;
  if (shape == 1.0) return std_exp(s);
  if (shape == 0.0) return 0.0;
  if (shape < 1.0) {
    for (;;) {
      U = next_double(s->mt);
      V = std_exp(s);
      if (U <= 1.0 - shape) {
        X = pow(U, 1. / shape);
        if (X <= V) return X;
      } else {
        Y = -log((1 - U) / shape);
        X = pow(1.0 - shape + shape * Y, 1. / shape);
        if (X <= (V + Y)) return X;
      }
    }
  }
  b = shape - 1. / 3.;
  c = 1. / sqrt(9 * b);
  for (;;) {
    do {
      X = gauss(s);
      V = 1.0 + c * X;
    } while (V <= 0.0);
    V = V * V * V;
    U = next_double(s->mt);
    if (U < 1.0 - 0.0331 * (X * X) * (X * X)) return (b * V);
    if (log(U) < 0.5 * X * X + b * (1. - V + log(V))) return (b * V);
  }
}

/* legacy_beta: Johnk's algorithm when both parameters are at most 1 (in
 * logs when both powers underflow), else a ratio of gammas. */
static double beta1(ma_legacy *s, double a, double b) {
  if ((a <= 1.0) && (b <= 1.0)) {
    for (;;) {
      double U = next_double(s->mt);
      double V = next_double(s->mt);
      double X = pow(U, 1.0 / a);
      double Y = pow(V, 1.0 / b);
      if ((X + Y) <= 1.0) {
        if (X + Y > 0) return X / (X + Y);
        double logX = log(U) / a;
        double logY = log(V) / b;
        double logM = logX > logY ? logX : logY;
        logX -= logM;
        logY -= logM;
        return exp(logX - log(exp(logX) + exp(logY)));
      }
    }
  }
  double Ga = std_gamma(s, a);
  double Gb = std_gamma(s, b);
  return Ga / (Ga + Gb);
}

void ma_legacy_gauss(ma_legacy *s, int64_t n, double *out) {
  for (int64_t i = 0; i < n; i++) out[i] = gauss(s);
}

void ma_legacy_normal(ma_legacy *s, int64_t n, const double *loc, int64_t loc_step, const double *scale,
                      int64_t scale_step, double *out) {
  for (int64_t i = 0; i < n; i++) out[i] = loc[i * loc_step] + scale[i * scale_step] * gauss(s);
}

void ma_legacy_standard_exponential(ma_legacy *s, int64_t n, double *out) {
  for (int64_t i = 0; i < n; i++) out[i] = std_exp(s);
}

void ma_legacy_exponential(ma_legacy *s, int64_t n, const double *scale, int64_t scale_step, double *out) {
  for (int64_t i = 0; i < n; i++) out[i] = scale[i * scale_step] * std_exp(s);
}

void ma_legacy_gamma(ma_legacy *s, int64_t n, const double *shape, int64_t shape_step, const double *scale,
                     int64_t scale_step, double *out) {
  for (int64_t i = 0; i < n; i++) out[i] = scale[i * scale_step] * std_gamma(s, shape[i * shape_step]);
}

void ma_legacy_beta(ma_legacy *s, int64_t n, const double *a, int64_t a_step, const double *b, int64_t b_step,
                    double *out) {
  for (int64_t i = 0; i < n; i++) out[i] = beta1(s, a[i * a_step], b[i * b_step]);
}

/* legacy_random_binomial: binomial_original, without the Generator's
 * early return (n == 0 or p == 0 still draws once). */
void ma_legacy_binomial(ma_legacy *s, int64_t n, const int64_t *trials, int64_t trials_step, const double *p,
                        int64_t p_step, int64_t *out) {
  binom_t B;
  memset(&B, 0, sizeof B);
  for (int64_t i = 0; i < n; i++) out[i] = binomial_original(s->mt, trials[i * trials_step], p[i * p_step], &B, 1);
}

void ma_legacy_poisson(ma_legacy *s, int64_t n, const double *lam, int64_t lam_step, int64_t *out) {
  for (int64_t i = 0; i < n; i++) out[i] = poisson1(s->mt, lam[i * lam_step]);
}

/* legacy_lognormal: exp of legacy_normal. */
void ma_legacy_lognormal(ma_legacy *s, int64_t n, const double *mean, int64_t mean_step, const double *sigma,
                         int64_t sigma_step, double *out) {
  for (int64_t i = 0; i < n; i++) out[i] = exp(mean[i * mean_step] + sigma[i * sigma_step] * gauss(s));
}

void ma_legacy_multinomial(ma_legacy *s, int64_t rows, int64_t trials, const double *p, int64_t d, int64_t *out) {
  binom_t B;
  memset(&B, 0, sizeof B);
  for (int64_t i = 0; i < rows; i++) multinomial1(s->mt, trials, p, d, out + i * d, &B, 1);
}

void ma_legacy_draws(ma_legacy *s, int which, double a, double b, int64_t n, double *out) {
  switch (which) {
    case MA_LEGACY_RANDOM_SAMPLE: ma_legacy_random_sample(s, n, out); break;
    case MA_LEGACY_GAUSS: ma_legacy_gauss(s, n, out); break;
    case MA_LEGACY_STANDARD_EXPONENTIAL: ma_legacy_standard_exponential(s, n, out); break;
    case MA_LEGACY_UNIFORM: ma_legacy_uniform(s, n, &a, 0, &b, 0, out); break;
    case MA_LEGACY_NORMAL: ma_legacy_normal(s, n, &a, 0, &b, 0, out); break;
    case MA_LEGACY_EXPONENTIAL: ma_legacy_exponential(s, n, &a, 0, out); break;
    case MA_LEGACY_GAMMA: ma_legacy_gamma(s, n, &a, 0, &b, 0, out); break;
    case MA_LEGACY_BETA: ma_legacy_beta(s, n, &a, 0, &b, 0, out); break;
    case MA_LEGACY_LOGNORMAL: ma_legacy_lognormal(s, n, &a, 0, &b, 0, out); break;
  }
}

/* ---- bounded integers by masked rejection ------------------------------------------ */

static inline uint64_t masked64(rng_t *r, uint64_t rng, uint64_t mask) {
  uint64_t v;
  while ((v = (next64(r) & mask)) > rng) {
  }
  return v;
}

static inline uint32_t masked32(rng_t *r, uint32_t rng, uint32_t mask) {
  uint32_t v;
  while ((v = (next32(r) & mask)) > rng) {
  }
  return v;
}

static inline uint16_t masked16(rng_t *r, uint16_t rng, uint16_t mask, bitbuf_t *b) {
  uint16_t v;
  do {
    v = (uint16_t)(buffered16(r, b) & mask);
  } while (v > rng);
  return v;
}

static inline uint8_t masked8(rng_t *r, uint8_t rng, uint8_t mask, bitbuf_t *b) {
  uint8_t v;
  do {
    v = (uint8_t)(buffered8(r, b) & mask);
  } while (v > rng);
  return v;
}

/* random_bounded_uint64: the 32-bit draws when the range fits in them. */
static inline uint64_t bounded64(rng_t *r, uint64_t off, uint64_t rng, uint64_t mask) {
  if (rng == 0) return off;
  if (rng <= 0xFFFFFFFFULL) {
    if (rng == 0xFFFFFFFFULL) return off + next32(r);
    return off + masked32(r, (uint32_t)rng, (uint32_t)mask);
  }
  if (rng == UINT64_MAX) return off + next64(r);
  return off + masked64(r, rng, mask);
}

void ma_legacy_bounded_u64(ma_legacy *s, uint64_t off, uint64_t rng, int64_t n, uint64_t *out) {
  rng_t *r = s->mt;
  const uint64_t mask = gen_mask(rng);
  for (int64_t i = 0; i < n; i++) out[i] = bounded64(r, off, rng, mask);
}

static inline uint32_t bounded32(rng_t *r, uint32_t off, uint32_t rng, uint32_t mask) {
  if (rng == 0) return off;
  if (rng == 0xFFFFFFFFU) return off + next32(r);
  return off + masked32(r, rng, mask);
}

void ma_legacy_bounded_u32(ma_legacy *s, uint32_t off, uint32_t rng, int64_t n, uint32_t *out) {
  rng_t *r = s->mt;
  const uint32_t mask = (uint32_t)gen_mask(rng);
  for (int64_t i = 0; i < n; i++) out[i] = bounded32(r, off, rng, mask);
}

static inline uint16_t bounded16(rng_t *r, uint16_t off, uint16_t rng, uint16_t mask, bitbuf_t *b) {
  if (rng == 0) return off;
  if (rng == 0xFFFFU) return (uint16_t)(off + buffered16(r, b));
  return (uint16_t)(off + masked16(r, rng, mask, b));
}

void ma_legacy_bounded_u16(ma_legacy *s, uint16_t off, uint16_t rng, int64_t n, uint16_t *out) {
  bitbuf_t b = {0, 0};
  const uint16_t mask = (uint16_t)gen_mask(rng);
  for (int64_t i = 0; i < n; i++) out[i] = bounded16(s->mt, off, rng, mask, &b);
}

static inline uint8_t bounded8(rng_t *r, uint8_t off, uint8_t rng, uint8_t mask, bitbuf_t *b) {
  if (rng == 0) return off;
  if (rng == 0xFFU) return (uint8_t)(off + buffered8(r, b));
  return (uint8_t)(off + masked8(r, rng, mask, b));
}

void ma_legacy_bounded_u8(ma_legacy *s, uint8_t off, uint8_t rng, int64_t n, uint8_t *out) {
  bitbuf_t b = {0, 0};
  const uint8_t mask = (uint8_t)gen_mask(rng);
  for (int64_t i = 0; i < n; i++) out[i] = bounded8(s->mt, off, rng, mask, &b);
}

void ma_legacy_bounded_bool(ma_legacy *s, uint8_t off, uint8_t rng, int64_t n, uint8_t *out) {
  bitbuf_t b = {0, 0};
  for (int64_t i = 0; i < n; i++) out[i] = bounded_bool(s->mt, off, rng, &b);
}

/* _rand_<type>_broadcast with masked draws: one value per element, the
 * 16-, 8- and 1-bit types sharing one 32-bit buffer across the fill. */
void ma_legacy_bounded_array(ma_legacy *s, int bits, int closed, int64_t n, const uint64_t *low, int64_t low_step,
                             const uint64_t *high, int64_t high_step, void *out) {
  rng_t *r = s->mt;
  bitbuf_t b = {0, 0};
  const uint64_t open = closed ? 0 : 1;
  for (int64_t i = 0; i < n; i++) {
    uint64_t lo = low[i * low_step], hi = high[i * high_step];
    uint64_t rng = (hi - open) - lo;
    switch (bits) {
      case 64:
        ((uint64_t *)out)[i] = bounded64(r, lo, rng, gen_mask(rng));
        break;
      case 32:
        ((uint32_t *)out)[i] = bounded32(r, (uint32_t)lo, (uint32_t)rng, (uint32_t)gen_mask((uint32_t)rng));
        break;
      case 16:
        ((uint16_t *)out)[i] =
            bounded16(r, (uint16_t)lo, (uint16_t)rng, (uint16_t)gen_mask((uint16_t)rng), &b);
        break;
      case 8:
        ((uint8_t *)out)[i] = bounded8(r, (uint8_t)lo, (uint8_t)rng, (uint8_t)gen_mask((uint8_t)rng), &b);
        break;
      default:
        ((uint8_t *)out)[i] = bounded_bool(r, (uint8_t)lo, (uint8_t)rng, &b);
        break;
    }
  }
}

/* ---- permutations and choice -------------------------------------------------------- */

void ma_legacy_shuffle(ma_legacy *s, int64_t n, int64_t itemsize, int64_t stride, char *data) {
  rng_t *r = s->mt;
  if (itemsize == 8 && stride == 8) {
    /* The common case (an index array): whole 8-byte words. */
    uint64_t *d = (uint64_t *)data;
    for (int64_t i = n - 1; i >= 1; i--) {
      int64_t j = (int64_t)interval(r, (uint64_t)i);
      uint64_t t = d[j];
      d[j] = d[i];
      d[i] = t;
    }
    return;
  }
  shuffle_raw(r, n, 1, itemsize, stride, data);
}

static void legacy_uniforms(void *s, int64_t n, double *out) { ma_legacy_random_sample((ma_legacy *)s, n, out); }

int ma_legacy_choice_p(ma_legacy *s, int64_t pop_size, const double *p, int64_t size, int replace, int64_t *out) {
  return choice_p(s, legacy_uniforms, pop_size, p, size, replace, out);
}
