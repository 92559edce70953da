/*
 * The sampling algorithms NumPy's Generator and its legacy RandomState
 * share, written once for both bit generators: random.c (PCG64) and
 * random_legacy.c (MT19937) each include this file after defining
 *
 *   rng_t                          its generator's working state,
 *   uint32_t next32(rng_t *)       a 32-bit draw,
 *   uint64_t next64(rng_t *)       a 64-bit draw,
 *   double next_double(rng_t *)    a uniform double in [0, 1),
 *
 * so that every algorithm below compiles against the generator's own
 * inlined draws (no call through a pointer in the hot loops).  Bit-identical
 * streams need NumPy's order of operations, so the includer switches
 * floating-point contraction off, as random.c does.
 *
 * Sources: NumPy's numpy/random/src/distributions/distributions.c
 * (random_binomial_btpe, random_binomial_inversion, random_loggam,
 * random_poisson, random_interval, the buffered bounded draws) and the
 * choice/shuffle code of _generator.pyx and mtrand.pyx; each function names
 * its own.
 */
#ifndef MA_CORE_RANDOM_ALGOS_H
#define MA_CORE_RANDOM_ALGOS_H

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* ---- small helpers ----------------------------------------------------------------- */

/* floor(x) as an int64, INT64_MIN when out of range or NaN: what x86-64's
 * conversion gives NumPy there, without the undefined behaviour of a C
 * cast; every such value is rejected by the sampler that asks. */
static inline int64_t floor_to_i64(double x) {
  double f = floor(x);
  if (!(f >= -9223372036854775808.0 && f < 9223372036854775808.0)) return INT64_MIN;
  return (int64_t)f;
}

/* gen_mask: the smallest all-ones word >= rng (NumPy's name), the mask of
 * every masked-rejection draw and of choice's hash set. */
static inline uint64_t gen_mask(uint64_t rng) {
  rng |= rng >> 1;
  rng |= rng >> 2;
  rng |= rng >> 4;
  rng |= rng >> 8;
  rng |= rng >> 16;
  rng |= rng >> 32;
  return rng;
}

/* ---- buffered narrow draws --------------------------------------------------------- */

/* The 16- and 8-bit bounded draws take their bits from one 32-bit draw,
 * two or four values per draw, low bits first; bool takes one bit per
 * value. */
typedef struct {
  uint32_t buf;
  int count;
} bitbuf_t;

static inline uint16_t buffered16(rng_t *r, bitbuf_t *b) {
  if (!b->count) {
    b->buf = next32(r);
    b->count = 1;
  } else {
    b->buf >>= 16;
    b->count -= 1;
  }
  return (uint16_t)b->buf;
}

static inline uint8_t buffered8(rng_t *r, bitbuf_t *b) {
  if (!b->count) {
    b->buf = next32(r);
    b->count = 3;
  } else {
    b->buf >>= 8;
    b->count -= 1;
  }
  return (uint8_t)b->buf;
}

/* buffered_bounded_bool: one bit per value, 32 from each 32-bit draw. */
static inline uint8_t bounded_bool(rng_t *r, uint8_t off, uint8_t rng, bitbuf_t *b) {
  if (rng == 0) return off;
  if (!b->count) {
    b->buf = next32(r);
    b->count = 31;
  } else {
    b->buf >>= 1;
    b->count -= 1;
  }
  return (b->buf & 1u) != 0;
}

/* ---- binomial and Poisson ----------------------------------------------------------- */

/* The setup of both binomial samplers, cached while (n, p) repeat (NumPy's
 * binomial_t; recomputing it gives the same numbers, caching saves time). */
typedef struct {
  int valid;
  int64_t nsave;
  double psave;
  int64_t m;
  double r, q, fm, p1, xm, xl, xr, c, laml, lamr, p2, p3, p4;
} binom_t;

/* BTPE: Kachitvichyanukul & Schmeiser, "Binomial Random Variate
 * Generation", CACM 31(2), 1988, as NumPy writes it (random_binomial_btpe);
 * `legacy` (a constant at each call) keeps RandomState's frozen acceptance
 * test (legacy_random_binomial_btpe), see step 52. */
static inline int64_t binomial_btpe(rng_t *rg, int64_t n, double p, binom_t *B, const int legacy) {
  double r, q, fm, p1, xm, xl, xr, c, laml, lamr, p2, p3, p4;
  double a, u, v, s, F, rho, t, A, nrq, x1, x2, f1, f2, z, z2, w, w2, x;
  int64_t m, y, k, i;

  if (!B->valid || B->nsave != n || B->psave != p) {
    B->nsave = n;
    B->psave = p;
    B->valid = 1;
    B->r = r = fmin(p, 1.0 - p);
    B->q = q = 1.0 - r;
    B->fm = fm = n * r + r;
    B->m = m = (int64_t)floor(B->fm);
    B->p1 = p1 = floor(2.195 * sqrt(n * r * q) - 4.6 * q) + 0.5;
    B->xm = xm = m + 0.5;
    B->xl = xl = xm - p1;
    B->xr = xr = xm + p1;
    B->c = c = 0.134 + 20.5 / (15.3 + m);
    a = (fm - xl) / (fm - xl * r);
    B->laml = laml = a * (1.0 + a / 2.0);
    a = (xr - fm) / (xr * q);
    B->lamr = lamr = a * (1.0 + a / 2.0);
    B->p2 = p2 = p1 * (1.0 + 2.0 * c);
    B->p3 = p3 = p2 + c / laml;
    B->p4 = p4 = p3 + c / lamr;
  } else {
    r = B->r;
    q = B->q;
    fm = B->fm;
    m = B->m;
    p1 = B->p1;
    xm = B->xm;
    xl = B->xl;
    xr = B->xr;
    c = B->c;
    laml = B->laml;
    lamr = B->lamr;
    p2 = B->p2;
    p3 = B->p3;
    p4 = B->p4;
  }
  (void)fm;

  for (;;) {
    /* Step 10: the triangular centre region. */
    nrq = n * r * q;
    u = next_double(rg) * p4;
    v = next_double(rg);
    if (u <= p1) {
      y = floor_to_i64(xm - p1 * v + u);
      break;
    }
    if (u <= p2) {
      /* Step 20: the parallelograms. */
      x = xl + (u - p1) / c;
      v = v * c + 1.0 - fabs(m - x + 0.5) / p1;
      if (v > 1.0) continue;
      y = floor_to_i64(x);
    } else if (u <= p3) {
      /* Step 30: the left exponential tail (v == 0 rejected: the cast
       * above would be undefined). */
      y = floor_to_i64(xl + log(v) / laml);
      if ((y < 0) || (v == 0.0)) continue;
      v = v * (u - p2) * laml;
    } else {
      /* Step 40: the right exponential tail. */
      y = floor_to_i64(xr - log(v) / lamr);
      if ((y > n) || (v == 0.0)) continue;
      v = v * (u - p3) * lamr;
    }
    /* Step 50: accept or reject, explicitly when close to the mode. */
    k = llabs(y - m);
    if (!((k > 20) && (k < ((nrq) / 2.0 - 1)))) {
      s = r / q;
      a = s * (n + 1);
      F = 1.0;
      if (m < y) {
        for (i = m + 1; i <= y; i++) F *= (a / i - s);
      } else if (m > y) {
        for (i = y + 1; i <= m; i++) F /= (a / i - s);
      }
      if (v > F) continue;
      break;
    }
    /* Step 52: squeeze with the normal approximation, then Stirling. */
    rho = (k / (nrq)) * ((k * (k / 3.0 + 0.625) + 0.16666666666666666) / nrq + 0.5);
    t = -k * k / (2 * nrq);
    A = log(v);
    if (A < (t - rho)) break;
    if (A > (t + rho)) continue;
    x1 = (double)y + 1;
    f1 = (double)m + 1;
    z = (double)n + 1 - (double)m;
    w = (double)n - (double)y + 1;
    x2 = x1 * x1;
    f2 = f1 * f1;
    z2 = z * z;
    w2 = w * w;
    /* The Stirling corrections.  NumPy's Generator since 2.5 (numpy#31238):
     * the series' 13860 (1/12 = 13860/166320), and those of x1 and w
     * subtracted.  RandomState keeps NumPy's first code, bug for bug: 13680,
     * and all four added, as the 1988 paper (section 5.3) prints them. */
    const double c0 = legacy ? 13680. : 13860.;
    const double sx = legacy ? 1.0 : -1.0;
    if (A > (xm * log(f1 / x1) + (n - m + 0.5) * log(z / w) + (y - m) * log(w * r / (x1 * q)) +
             (c0 - (462. - (132. - (99. - 140. / f2) / f2) / f2) / f2) / f1 / 166320. +
             (c0 - (462. - (132. - (99. - 140. / z2) / z2) / z2) / z2) / z / 166320. +
             sx * ((c0 - (462. - (132. - (99. - 140. / x2) / x2) / x2) / x2) / x1 / 166320.) +
             sx * ((c0 - (462. - (132. - (99. - 140. / w2) / w2) / w2) / w2) / w / 166320.)))
      continue;
    break;
  }
  /* Step 60 */
  if (p > 0.5) y = n - y;
  return y;
}

/* Inversion by sequential search from 0, restarted past a bound (NumPy's
 * random_binomial_inversion). */
static inline int64_t binomial_inversion(rng_t *rg, int64_t n, double p, binom_t *B, const int legacy) {
  double q, qn, np, px, U;
  int64_t X, bound;
  if (!B->valid || B->nsave != n || B->psave != p) {
    B->nsave = n;
    B->psave = p;
    B->valid = 1;
    B->q = q = 1.0 - p;
    /* q^n: RandomState's as exp(n log q), the Generator's with log1p */
    B->r = qn = legacy ? exp(n * log(q)) : exp(n * log1p(-p));
    B->c = np = n * p;
    B->m = bound = (int64_t)fmin((double)n, np + 10.0 * sqrt(np * q + 1));
  } else {
    q = B->q;
    qn = B->r;
    np = B->c;
    bound = B->m;
  }
  (void)np;
  X = 0;
  px = qn;
  U = next_double(rg);
  while (U > px) {
    X++;
    if (X > bound) {
      X = 0;
      px = qn;
      U = next_double(rg);
    } else {
      U -= px;
      px = ((n - X + 1) * p * px) / (X * q);
    }
  }
  return X;
}

/* Inversion when the mean of the smaller tail is at most 30, else BTPE;
 * p > 1/2 samples the complement (legacy_random_binomial_original; the
 * Generator's random_binomial returns 0 before it for n == 0 or p == 0). */
static inline int64_t binomial_original(rng_t *rg, int64_t n, double p, binom_t *B, const int legacy) {
  if (p <= 0.5) {
    if (p * n <= 30.0) return binomial_inversion(rg, n, p, B, legacy);
    return binomial_btpe(rg, n, p, B, legacy);
  }
  double q = 1.0 - p;
  if (q * n <= 30.0) return n - binomial_inversion(rg, n, q, B, legacy);
  return n - binomial_btpe(rg, n, q, B, legacy);
}

/* One binomial draw: the Generator's random_binomial returns 0 for n == 0
 * or p == 0 without a draw; RandomState's legacy_random_binomial draws
 * there too (`legacy`, a constant at each call, picks). */
static inline int64_t binomial1(rng_t *rg, int64_t n, double p, binom_t *B, const int legacy) {
  if (!legacy && ((n == 0) || (p == 0.0f))) return 0;
  return binomial_original(rg, n, p, B, legacy);
}

/* One multinomial draw of n trials over the d probabilities p into out[0,
 * d) (random_multinomial, and NumPy 2.5's legacy_random_multinomial with
 * the legacy binomial): a binomial per category but the last, on the
 * trials the earlier ones left and p[j] over the probability they left,
 * stopping once no trial is left; the last category takes the rest.
 * Every entry is written (those after the stop are 0). */
static inline void multinomial1(rng_t *rg, int64_t n, const double *p, int64_t d, int64_t *out, binom_t *B,
                                const int legacy) {
  double remaining_p = 1.0;
  int64_t dn = n;
  memset(out, 0, (size_t)d * sizeof *out);
  for (int64_t j = 0; j < d - 1; j++) {
    out[j] = binomial1(rg, dn, p[j] / remaining_p, B, legacy);
    dn = dn - out[j];
    if (dn <= 0) break;
    remaining_p -= p[j];
  }
  if (dn > 0) out[d - 1] = dn;
}

/* log Gamma(x) (random_loggam), from Zhang & Jin, "Computation of Special
 * Functions", Wiley 1996: Stirling's series at x + n >= 7, then the
 * recurrence down to x. */
static double loggam(double x) {
  static const double a[10] = {8.333333333333333e-02, -2.777777777777778e-03, 7.936507936507937e-04,
                               -5.952380952380952e-04, 8.417508417508418e-04, -1.917526917526918e-03,
                               6.410256410256410e-03, -2.955065359477124e-02, 1.796443723688307e-01,
                               -1.39243221690590e+00};
  int64_t k, n;
  if ((x == 1.0) || (x == 2.0)) return 0.0;
  n = x < 7.0 ? (int64_t)(7 - x) : 0;
  double x0 = x + n;
  double x2 = (1.0 / x0) * (1.0 / x0);
  const double lg2pi = 1.8378770664093453e+00; /* log(2 pi) */
  double gl0 = a[9];
  for (k = 8; k >= 0; k--) {
    gl0 *= x2;
    gl0 += a[k];
  }
  double gl = gl0 / x0 + 0.5 * lg2pi + (x0 - 0.5) * log(x0) - x0;
  if (x < 7.0) {
    for (k = 1; k <= n; k++) {
      gl -= log(x0 - 1.0);
      x0 -= 1.0;
    }
  }
  return gl;
}

/* random_poisson: multiplication of uniforms below lam = 10; above, PTRS,
 * Hoermann, "The transformed rejection method for generating Poisson
 * random variables", Insurance: Math. Econ. 12, 1993. */
static int64_t poisson1(rng_t *rg, double lam) {
  if (lam >= 10) {
    double slam = sqrt(lam);
    double loglam = log(lam);
    double b = 0.931 + 2.53 * slam;
    double a = -0.059 + 0.02483 * b;
    double invalpha = 1.1239 + 1.1328 / (b - 3.4);
    double vr = 0.9277 - 3.6224 / (b - 2);
    for (;;) {
      double U = next_double(rg) - 0.5;
      double V = next_double(rg);
      double us = 0.5 - fabs(U);
      int64_t k = floor_to_i64((2 * a / us + b) * U + lam + 0.43);
      if ((us >= 0.07) && (V <= vr)) return k;
      if ((k < 0) || ((us < 0.013) && (V > us))) continue;
      if ((log(V) + log(invalpha) - log(a / (us * us) + b)) <= (-lam + (double)k * loglam - loggam((double)k + 1)))
        return k;
    }
  }
  if (lam == 0) return 0;
  double enlam = exp(-lam);
  int64_t X = 0;
  double prod = 1.0;
  for (;;) {
    prod *= next_double(rg);
    if (prod > enlam)
      X += 1;
    else
      return X;
  }
}

/* ---- one-uniform distributions ---------------------------------------------------- */

/* random_laplace, random_gumbel, random_logistic: one uniform each by
 * inversion, the single value the inversion cannot take (0, or 1 - U ==
 * 1) redrawn. */
static inline double laplace1(rng_t *r, double loc, double scale) {
  for (;;) {
    double U = next_double(r);
    if (U >= 0.5) return loc - scale * log(2.0 - U - U);
    if (U > 0.0) return loc + scale * log(U + U);
  }
}

static inline double gumbel1(rng_t *r, double loc, double scale) {
  for (;;) {
    double U = 1.0 - next_double(r);
    if (U < 1.0) return loc - scale * log(-log(U));
  }
}

static inline double logistic1(rng_t *r, double loc, double scale) {
  for (;;) {
    double U = next_double(r);
    if (U > 0.0) return loc + scale * log(U / (1.0 - U));
  }
}

/* random_triangular: inversion of the triangle's two pieces. */
static inline double triangular1(rng_t *r, double left, double mode, double right) {
  double base = right - left;
  double leftbase = mode - left;
  double ratio = leftbase / base;
  double leftprod = leftbase * base;
  double rightprod = (right - mode) * base;
  double U = next_double(r);
  if (U <= ratio) return left + sqrt(U * leftprod);
  return right - sqrt((1.0 - U) * rightprod);
}

/* random_geometric_search: the first k whose cumulative probability
 * passes one uniform (both APIs use it for p >= 1/3). */
static inline int64_t geometric_search(rng_t *r, double p) {
  int64_t X = 1;
  double sum = p, prod = p, q = 1.0 - p;
  double U = next_double(r);
  while (U > sum) {
    prod *= q;
    sum += prod;
    X++;
  }
  return X;
}

/* random_vonmises / legacy_vonmises for 1e-8 <= kappa: Best & Fisher's
 * rejection (s from the Taylor expansion below kappa = 1e-5, where rho
 * is 0 in doubles), the result folded into [-pi, pi]. */
static inline double vonmises_bf(rng_t *r, double mu, double kappa) {
  const double pi = 3.14159265358979323846;
  double s, U, V, W, Y, Z;
  if (kappa < 1e-5) {
    s = (1. / kappa + kappa);
  } else {
    double rr = 1 + sqrt(1 + 4 * kappa * kappa);
    double rho = (rr - sqrt(2 * rr)) / (2 * kappa);
    s = (1 + rho * rho) / (2 * rho);
  }
  for (;;) {
    U = next_double(r);
    Z = cos(pi * U);
    W = (1 + s * Z) / (s + Z);
    Y = kappa * (s - W);
    V = next_double(r);
    /* V == 0 is fine: Y >= 0 accepts and Y < 0 rejects before the log */
    if ((Y * (2 - Y) - V >= 0) || (log(Y / V) + 1 - Y >= 0)) break;
  }
  U = next_double(r);
  double result = acos(W);
  if (U < 0.5) result = -result;
  result += mu;
  int neg = (result < 0);
  double mod = fabs(result);
  mod = (fmod(mod + pi, 2 * pi) - pi);
  if (neg) mod *= -1;
  return mod;
}

/* ---- permutations and choice -------------------------------------------------------- */

/* random_interval: a draw in [0, max] by masked rejection, 32-bit draws
 * when max fits in 32 bits (what NumPy's shuffle uses). */
static inline uint64_t interval(rng_t *r, uint64_t max) {
  if (max == 0) return 0;
  uint64_t mask = gen_mask(max);
  uint64_t value;
  if (max <= 0xffffffffULL) {
    while ((value = (next32(r) & mask)) > max) {
    }
  } else {
    while ((value = (next64(r) & mask)) > max) {
    }
  }
  return value;
}

static inline void swap_items(char *a, char *b, int64_t itemsize) {
  char tmp[16];
  while (itemsize > 0) {
    size_t k = itemsize > 16 ? 16 : (size_t)itemsize;
    memcpy(tmp, a, k);
    memcpy(a, b, k);
    memcpy(b, tmp, k);
    a += k;
    b += k;
    itemsize -= (int64_t)k;
  }
}

/* _shuffle_raw: Fisher-Yates from the last item down to `first`. */
static void shuffle_raw(rng_t *r, int64_t n, int64_t first, int64_t itemsize, int64_t stride, char *data) {
  for (int64_t i = n - 1; i >= first; i--) {
    int64_t j = (int64_t)interval(r, (uint64_t)i);
    if (j != i) swap_items(data + j * stride, data + i * stride, itemsize);
  }
}

/* The cumulative sum of p (sequential, as np.cumsum), divided by its last
 * entry. */
static void normalised_cdf(const double *p, int64_t n, double *cdf) {
  double acc = 0.0;
  for (int64_t i = 0; i < n; i++) {
    acc = i == 0 ? p[0] : acc + p[i];
    cdf[i] = acc;
  }
  double last = cdf[n - 1];
  for (int64_t i = 0; i < n; i++) cdf[i] /= last;
}

/* searchsorted(cdf, u, side="right"): the number of entries <= u. */
static inline int64_t search_right(const double *cdf, int64_t n, double u) {
  int64_t lo = 0, hi = n;
  while (lo < hi) {
    int64_t mid = lo + (hi - lo) / 2;
    if (cdf[mid] <= u)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

/* choice with probabilities p.  With replacement: inverse-CDF lookup of
 * `size` uniforms.  Without: rounds of inverse-CDF lookups, each round
 * zeroing the probabilities of what was found and keeping the first
 * occurrence of each new index, until `size` distinct ones are found (the
 * caller checked that p has at least `size` positive entries). */
static int choice_p(void *g, void (*uniforms)(void *, int64_t, double *), int64_t pop_size, const double *p, int64_t size, int replace, int64_t *out) {
  double *cdf = malloc((size_t)pop_size * sizeof(double));
  double *u = malloc((size_t)(size > 0 ? size : 1) * sizeof(double));
  double *q = replace ? NULL : malloc((size_t)pop_size * sizeof(double));
  unsigned char *seen = replace ? NULL : calloc((size_t)pop_size, 1);
  if (cdf == NULL || u == NULL || (!replace && (q == NULL || seen == NULL))) {
    free(cdf);
    free(u);
    free(q);
    free(seen);
    return -1;
  }
  if (replace) {
    normalised_cdf(p, pop_size, cdf);
    uniforms(g, size, u);
    for (int64_t i = 0; i < size; i++) out[i] = search_right(cdf, pop_size, u[i]);
  } else {
    memcpy(q, p, (size_t)pop_size * sizeof(double));
    int64_t found = 0;
    while (found < size) {
      int64_t k = size - found;
      uniforms(g, k, u);
      for (int64_t j = 0; j < found; j++) q[out[j]] = 0.0;
      normalised_cdf(q, pop_size, cdf);
      int64_t before = found;
      for (int64_t i = 0; i < k; i++) {
        int64_t idx = search_right(cdf, pop_size, u[i]);
        if (idx < pop_size && !seen[idx]) {
          seen[idx] = 1;
          out[found++] = idx;
        }
      }
      if (found == before) break; /* cannot happen with valid p; never loop forever */
    }
  }
  free(cdf);
  free(u);
  free(q);
  free(seen);
  return 0;
}

#endif
