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

/* ---- the distributions built on those (mtrand.pyx's legacy_* and random_*) ------- */

/* ceil(x) as an int64, INT64_MIN when out of range or NaN:
 * x86-64's conversion, as floor_to_i64, for the legacy geometric. */
static inline int64_t ceil_to_i64(double x) {
  double c = ceil(x);
  if (!(c >= -9223372036854775808.0 && c < 9223372036854775808.0)) return INT64_MIN;
  return (int64_t)c;
}

static inline double chisquare1(ma_legacy *s, double df) { return 2.0 * std_gamma(s, df / 2.0); }

static inline double standard_cauchy1(ma_legacy *s) {
  double num = gauss(s);
  return num / gauss(s);
}

static inline double standard_t1(ma_legacy *s, double df) {
  double num = gauss(s);
  double denom = std_gamma(s, df / 2);
  return sqrt(df / 2) * num / sqrt(denom);
}

static inline double f1(ma_legacy *s, double dfnum, double dfden) {
  double num = chisquare1(s, dfnum) * dfden;
  return num / (chisquare1(s, dfden) * dfnum);
}

static inline double rayleigh1(ma_legacy *s, double mode) { return mode * sqrt(-2.0 * log1p(-next_double(s->mt))); }
static inline double pareto1(ma_legacy *s, double a) { return exp(std_exp(s) / a) - 1; }
static inline double power1(ma_legacy *s, double a) { return pow(1 - exp(-std_exp(s)), 1. / a); }
static inline double weibull1(ma_legacy *s, double a) { return a == 0.0 ? 0.0 : pow(std_exp(s), 1. / a); }

/* legacy_noncentral_chisquare: above one degree of freedom a chi-square
 * of df - 1 plus a shifted normal squared; else a Poisson mixture of
 * chi-squares (a NaN nonc still draws, then gives NaN). */
static double noncentral_chisquare1(ma_legacy *s, double df, double nonc) {
  if (nonc == 0) return chisquare1(s, df);
  if (1 < df) {
    const double chi2 = chisquare1(s, df - 1);
    const double n = gauss(s) + sqrt(nonc);
    return chi2 + n * n;
  }
  const int64_t i = poisson1(s->mt, nonc / 2.0);
  double out = chisquare1(s, df + 2 * (double)i);
  return isnan(nonc) ? NAN : out;
}

static inline double noncentral_f1(ma_legacy *s, double dfnum, double dfden, double nonc) {
  double t = noncentral_chisquare1(s, dfnum, nonc) * dfden;
  return t / (chisquare1(s, dfden) * dfnum);
}

/* legacy_wald: Michael, Schucany & Haas's transformation of a normal. */
static inline double wald1(ma_legacy *s, double mean, double scale) {
  double mu_2l = mean / (2 * scale);
  double Y = gauss(s);
  Y = mean * Y * Y;
  double X = mean + mu_2l * (Y - sqrt(4 * scale * Y + Y * Y));
  double U = next_double(s->mt);
  if (U <= mean / (mean + X)) return X;
  return mean * mean / X;
}

/* legacy_vonmises: uniform on the circle for a tiny kappa, else Best &
 * Fisher's rejection (random_algos.h), whatever the kappa. */
static double vonmises1(ma_legacy *s, double mu, double kappa) {
  if (isnan(kappa)) return NAN;
  if (kappa < 1e-8) return 3.14159265358979323846 * (2 * next_double(s->mt) - 1);
  return vonmises_bf(s->mt, mu, kappa);
}

/* legacy_random_geometric: the search above 1/3, else inversion of one uniform. */
static inline int64_t geometric1(ma_legacy *s, double p) {
  if (p >= 0.333333333333333333333333) return geometric_search(s->mt, p);
  return ceil_to_i64(log1p(-next_double(s->mt)) / log(1 - p));
}

/* legacy_negative_binomial: a Poisson of a legacy gamma. */
static inline int64_t negative_binomial1(ma_legacy *s, double n, double p) {
  double Y = (1 - p) / p * std_gamma(s, n);
  return poisson1(s->mt, Y);
}

/* legacy_random_zipf: rejection from a Pareto, values past int64 rejected. */
static int64_t zipf1(ma_legacy *s, double a) {
  rng_t *r = s->mt;
  double am1 = a - 1.0;
  double b = pow(2.0, am1);
  for (;;) {
    double U = 1.0 - next_double(r);
    double V = next_double(r);
    double X = floor(pow(U, -1.0 / am1));
    if (X > 9223372036854775807.0 || X < 1.0) continue;
    double T = pow(1.0 + 1.0 / X, am1);
    if (V * X * (T - 1.0) / (b - 1.0) <= T / b) return (int64_t)X;
  }
}

/* legacy_logseries: Kemp's second algorithm. */
static int64_t logseries1(ma_legacy *s, double p) {
  rng_t *r = s->mt;
  double rr = log(1.0 - p);
  for (;;) {
    double V = next_double(r);
    if (V >= p) return 1;
    double U = next_double(r);
    double q = 1.0 - exp(rr * U);
    if (V <= q * q) {
      int64_t result = floor_to_i64(1 + log(V) / log(q));
      if ((result < 1) || (V == 0.0)) continue;
      return result;
    }
    if (V >= q) return 1;
    return 2;
  }
}

/* legacy_random_hypergeometric: NumPy's original pair of algorithms, by
 * sequential draws up to 10 samples, else Stadlober's HRUA ratio of
 * uniforms (with rv.py's corrections for good > bad and for samples past
 * half the population).  The Generator has newer ones. */
static int64_t hypergeometric_hyp(rng_t *r, int64_t good, int64_t bad, int64_t sample) {
  int64_t d1 = bad + good - sample;
  double d2 = (double)(bad < good ? bad : good);
  double y = d2;
  int64_t k = sample;
  while (y > 0.0) {
    double u = next_double(r);
    y -= (double)(int64_t)floor(u + y / (double)(d1 + k));
    k--;
    if (k == 0) break;
  }
  int64_t z = (int64_t)(d2 - y);
  if (good > bad) z = sample - z;
  return z;
}

static int64_t hypergeometric_hrua(rng_t *r, int64_t good, int64_t bad, int64_t sample) {
  const double D1 = 1.7155277699214135; /* 2 sqrt(2 / e) */
  const double D2 = 0.8989161620588988; /* 3 - 2 sqrt(3 / e) */
  int64_t mingoodbad = good < bad ? good : bad;
  int64_t popsize = good + bad;
  int64_t maxgoodbad = good > bad ? good : bad;
  int64_t m = sample < popsize - sample ? sample : popsize - sample;
  double d4 = ((double)mingoodbad) / (double)popsize;
  double d5 = 1.0 - d4;
  double d6 = (double)m * d4 + 0.5;
  double d7 = sqrt((double)(popsize - m) * (double)sample * d4 * d5 / (double)(popsize - 1) + 0.5);
  double d8 = D1 * d7 + D2;
  int64_t d9 = (int64_t)floor((double)(m + 1) * (double)(mingoodbad + 1) / (double)(popsize + 2));
  double d10 = (loggam((double)(d9 + 1)) + loggam((double)(mingoodbad - d9 + 1)) + loggam((double)(m - d9 + 1)) +
                loggam((double)(maxgoodbad - m + d9 + 1)));
  double lim = (double)(m < mingoodbad ? m : mingoodbad) + 1.0;
  double fl = floor(d6 + 16 * d7);
  double d11 = lim < fl ? lim : fl;
  int64_t Z;
  for (;;) {
    double X = next_double(r);
    double Y = next_double(r);
    double W = d6 + d8 * (Y - 0.5) / X;
    if ((W < 0.0) || (W >= d11)) continue; /* fast rejection */
    Z = (int64_t)floor(W);
    double T = d10 - (loggam((double)(Z + 1)) + loggam((double)(mingoodbad - Z + 1)) + loggam((double)(m - Z + 1)) +
                      loggam((double)(maxgoodbad - m + Z + 1)));
    if ((X * (4.0 - X) - 3.0) <= T) break; /* fast acceptance */
    if (X * (X - T) >= 1) continue;        /* fast rejection */
    if (2.0 * log(X) <= T) break;          /* log(0) is fine: it accepts */
  }
  if (good > bad) Z = m - Z;
  if (m < sample) Z = good - Z;
  return Z;
}

void ma_legacy_hypergeometric(ma_legacy *s, int64_t n, const int64_t *good, int64_t good_step, const int64_t *bad,
                              int64_t bad_step, const int64_t *sample, int64_t sample_step, int64_t *out) {
  for (int64_t i = 0; i < n; i++) {
    int64_t g = good[i * good_step], b = bad[i * bad_step], k = sample[i * sample_step];
    out[i] = k > 10 ? hypergeometric_hrua(s->mt, g, b, k) : k > 0 ? hypergeometric_hyp(s->mt, g, b, k) : 0;
  }
}

/* The fills: element i of each parameter at p[i * step]. */
#define LEGACY_FILL0(name, T, draw)                               \
  void ma_legacy_##name(ma_legacy *s, int64_t n, T *out) {        \
    for (int64_t i = 0; i < n; i++) out[i] = draw(s);             \
  }
#define LEGACY_FILL1(name, T, draw)                                                          \
  void ma_legacy_##name(ma_legacy *s, int64_t n, const double *a, int64_t as, T *out) {     \
    for (int64_t i = 0; i < n; i++) out[i] = draw(s, a[i * as]);                             \
  }
#define LEGACY_FILL2(name, T, draw)                                                                           \
  void ma_legacy_##name(ma_legacy *s, int64_t n, const double *a, int64_t as, const double *b, int64_t bs,   \
                        T *out) {                                                                             \
    for (int64_t i = 0; i < n; i++) out[i] = draw(s, a[i * as], b[i * bs]);                                   \
  }
#define LEGACY_FILL3(name, T, draw)                                                                           \
  void ma_legacy_##name(ma_legacy *s, int64_t n, const double *a, int64_t as, const double *b, int64_t bs,   \
                        const double *c, int64_t cs, T *out) {                                                \
    for (int64_t i = 0; i < n; i++) out[i] = draw(s, a[i * as], b[i * bs], c[i * cs]);                        \
  }

static inline double laplace_l(ma_legacy *s, double loc, double scale) { return laplace1(s->mt, loc, scale); }
static inline double gumbel_l(ma_legacy *s, double loc, double scale) { return gumbel1(s->mt, loc, scale); }
static inline double logistic_l(ma_legacy *s, double loc, double scale) { return logistic1(s->mt, loc, scale); }
static inline double triangular_l(ma_legacy *s, double l, double m, double r) { return triangular1(s->mt, l, m, r); }

LEGACY_FILL0(standard_cauchy, double, standard_cauchy1)
LEGACY_FILL1(standard_t, double, standard_t1)
LEGACY_FILL1(chisquare, double, chisquare1)
LEGACY_FILL2(f, double, f1)
LEGACY_FILL2(laplace, double, laplace_l)
LEGACY_FILL2(logistic, double, logistic_l)
LEGACY_FILL2(gumbel, double, gumbel_l)
LEGACY_FILL1(rayleigh, double, rayleigh1)
LEGACY_FILL1(pareto, double, pareto1)
LEGACY_FILL1(power, double, power1)
LEGACY_FILL1(weibull, double, weibull1)
LEGACY_FILL2(noncentral_chisquare, double, noncentral_chisquare1)
LEGACY_FILL3(noncentral_f, double, noncentral_f1)
LEGACY_FILL3(triangular, double, triangular_l)
LEGACY_FILL2(vonmises, double, vonmises1)
LEGACY_FILL2(wald, double, wald1)
LEGACY_FILL1(geometric, int64_t, geometric1)
LEGACY_FILL2(negative_binomial, int64_t, negative_binomial1)
LEGACY_FILL1(zipf, int64_t, zipf1)
LEGACY_FILL1(logseries, int64_t, logseries1)

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
