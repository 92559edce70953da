/*
 * NumPy's legacy RandomState streams, bit for bit, in plain C: the
 * distributions of numpy/random/mtrand.pyx over an MT19937 (mt19937.h).
 *
 * The legacy samplers are NumPy's first ones, kept unchanged so that old
 * seeds give old numbers: the polar (Marsaglia) normal with its cached
 * second value, -log(1 - U) exponentials, gammas and betas built on those,
 * and bounded integers by masked rejection.  Binomial, Poisson, shuffle's
 * draws and choice with p are the algorithms the Generator uses too
 * (random_algos.h), here over MT19937's draws.
 *
 * The calling conventions are random.h's: n draws into memory the caller
 * owns, element i of a parameter read at `param[i * step]` (step 0: one
 * value for all).  The Python layer holds the RandomState's lock around
 * every call.
 */
#ifndef MA_CORE_RANDOM_LEGACY_H
#define MA_CORE_RANDOM_LEGACY_H

#include <stdint.h>

#include "mt19937.h"

/* cdef-begin: the build script hands the declarations between these markers
 * to cffi verbatim. */

/* A RandomState's C side: its bit generator's state (owned by the MT19937
 * object) and the polar method's spare normal (NumPy's aug_bitgen_t). */
typedef struct {
  ma_mt19937 *mt;
  int32_t has_gauss;
  double gauss;
} ma_legacy;

/* random_sample and uniform: U and low + range * U. */
void ma_legacy_random_sample(ma_legacy *s, int64_t n, double *out);
void ma_legacy_uniform(ma_legacy *s, int64_t n, const double *low, int64_t low_step, const double *range,
                       int64_t range_step, double *out);

/* The polar normal (standard_normal, and loc + scale * Z), -log(1 - U)
 * exponentials, gamma (standard_gamma is scale 1), beta. */
void ma_legacy_gauss(ma_legacy *s, int64_t n, double *out);
void ma_legacy_normal(ma_legacy *s, int64_t n, const double *loc, int64_t loc_step, const double *scale,
                      int64_t scale_step, double *out);
void ma_legacy_standard_exponential(ma_legacy *s, int64_t n, double *out);
void ma_legacy_exponential(ma_legacy *s, int64_t n, const double *scale, int64_t scale_step, double *out);
void ma_legacy_gamma(ma_legacy *s, int64_t n, const double *shape, int64_t shape_step, const double *scale,
                     int64_t scale_step, double *out);
void ma_legacy_beta(ma_legacy *s, int64_t n, const double *a, int64_t a_step, const double *b, int64_t b_step,
                    double *out);
void ma_legacy_binomial(ma_legacy *s, int64_t n, const int64_t *trials, int64_t trials_step, const double *p,
                        int64_t p_step, int64_t *out);
void ma_legacy_poisson(ma_legacy *s, int64_t n, const double *lam, int64_t lam_step, int64_t *out);
/* lognormal: exp(mean + sigma * Z) with the polar normal. */
void ma_legacy_lognormal(ma_legacy *s, int64_t n, const double *mean, int64_t mean_step, const double *sigma,
                         int64_t sigma_step, double *out);
/* multinomial: `rows` draws of d counts from `trials` trials over p[0, d),
 * each category's count by the legacy binomial (as NumPy 2.5's
 * legacy_random_multinomial; NumPy 2.4 used the Generator's binomial,
 * which skips the draw for no trials or a zero probability). */
void ma_legacy_multinomial(ma_legacy *s, int64_t rows, int64_t trials, const double *p, int64_t d, int64_t *out);

/* The other distributions of mtrand.pyx, each NumPy's legacy algorithm
 * (laplace, logistic, gumbel, triangular and the geometric search shared
 * with the Generator, random_algos.h): parameters as above, doubles. */
void ma_legacy_standard_cauchy(ma_legacy *s, int64_t n, double *out);
void ma_legacy_standard_t(ma_legacy *s, int64_t n, const double *a, int64_t as, double *out);
void ma_legacy_chisquare(ma_legacy *s, int64_t n, const double *a, int64_t as, double *out);
void ma_legacy_rayleigh(ma_legacy *s, int64_t n, const double *a, int64_t as, double *out);
void ma_legacy_pareto(ma_legacy *s, int64_t n, const double *a, int64_t as, double *out);
void ma_legacy_power(ma_legacy *s, int64_t n, const double *a, int64_t as, double *out);
void ma_legacy_weibull(ma_legacy *s, int64_t n, const double *a, int64_t as, double *out);
void ma_legacy_f(ma_legacy *s, int64_t n, const double *a, int64_t as, const double *b, int64_t bs, double *out);
void ma_legacy_laplace(ma_legacy *s, int64_t n, const double *a, int64_t as, const double *b, int64_t bs,
                       double *out);
void ma_legacy_logistic(ma_legacy *s, int64_t n, const double *a, int64_t as, const double *b, int64_t bs,
                        double *out);
void ma_legacy_gumbel(ma_legacy *s, int64_t n, const double *a, int64_t as, const double *b, int64_t bs,
                      double *out);
void ma_legacy_noncentral_chisquare(ma_legacy *s, int64_t n, const double *a, int64_t as, const double *b,
                                    int64_t bs, double *out);
void ma_legacy_vonmises(ma_legacy *s, int64_t n, const double *a, int64_t as, const double *b, int64_t bs,
                        double *out);
void ma_legacy_wald(ma_legacy *s, int64_t n, const double *a, int64_t as, const double *b, int64_t bs,
                    double *out);
void ma_legacy_noncentral_f(ma_legacy *s, int64_t n, const double *a, int64_t as, const double *b, int64_t bs,
                            const double *c, int64_t cs, double *out);
void ma_legacy_triangular(ma_legacy *s, int64_t n, const double *a, int64_t as, const double *b, int64_t bs,
                          const double *c, int64_t cs, double *out);
/* The discrete ones: int64 draws from double parameters. */
void ma_legacy_geometric(ma_legacy *s, int64_t n, const double *a, int64_t as, int64_t *out);
void ma_legacy_zipf(ma_legacy *s, int64_t n, const double *a, int64_t as, int64_t *out);
void ma_legacy_logseries(ma_legacy *s, int64_t n, const double *a, int64_t as, int64_t *out);
void ma_legacy_negative_binomial(ma_legacy *s, int64_t n, const double *a, int64_t as, const double *b,
                                 int64_t bs, int64_t *out);

/* hypergeometric: int64 counts of good, bad and samples (checked by the caller). */
void ma_legacy_hypergeometric(ma_legacy *s, int64_t n, const int64_t *good, int64_t good_step, const int64_t *bad,
                              int64_t bad_step, const int64_t *sample, int64_t sample_step, int64_t *out);

/* randint: integers in [off, off + rng] by masked rejection (the smallest
 * all-ones mask over rng, draws above rng rejected), one fill per width,
 * the 16-, 8- and 1-bit ones taking their bits from buffered 32-bit draws;
 * and the same with per-element bounds (see random.h's
 * ma_random_bounded_array for the layout). */
void ma_legacy_bounded_u64(ma_legacy *s, uint64_t off, uint64_t rng, int64_t n, uint64_t *out);
void ma_legacy_bounded_u32(ma_legacy *s, uint32_t off, uint32_t rng, int64_t n, uint32_t *out);
void ma_legacy_bounded_u16(ma_legacy *s, uint16_t off, uint16_t rng, int64_t n, uint16_t *out);
void ma_legacy_bounded_u8(ma_legacy *s, uint8_t off, uint8_t rng, int64_t n, uint8_t *out);
void ma_legacy_bounded_bool(ma_legacy *s, uint8_t off, uint8_t rng, int64_t n, uint8_t *out);
void ma_legacy_bounded_array(ma_legacy *s, int bits, int closed, int64_t n, const uint64_t *low, int64_t low_step,
                             const uint64_t *high, int64_t high_step, void *out);

/* The draws csrc/py/random_draw.c makes with scalar parameters: the fills
 * ma_legacy_draws runs (below), then the integer fills. */
enum {
  MA_LEGACY_RANDOM_SAMPLE, MA_LEGACY_GAUSS, MA_LEGACY_STANDARD_EXPONENTIAL, MA_LEGACY_UNIFORM,
  MA_LEGACY_NORMAL, MA_LEGACY_EXPONENTIAL, MA_LEGACY_GAMMA, MA_LEGACY_BETA, MA_LEGACY_LOGNORMAL,
  MA_LEGACY_BINOMIAL, MA_LEGACY_POISSON, MA_LEGACY_BOUNDED
};

/* shuffle: Fisher-Yates from the last of n items down to the second, j
 * drawn by masked rejection in [0, i]; permutation shuffles an arange. */
void ma_legacy_shuffle(ma_legacy *s, int64_t n, int64_t itemsize, int64_t stride, char *data);
/* choice with probabilities p (0, or -1 when memory ran out). */
int ma_legacy_choice_p(ma_legacy *s, int64_t pop_size, const double *p, int64_t size, int replace, int64_t *out);

/* cdef-end */

/* n draws of the fill `which` (MA_LEGACY_RANDOM_SAMPLE to MA_LEGACY_LOGNORMAL)
 * with scalar parameters, the fill's a and b in its order (uniform: low,
 * range; gamma: shape, scale; lognormal: mean, sigma; unused ones ignored), every step 0.
 * csrc/py/random_draw.c calls it for size=None and for arrays drawn with
 * scalar parameters, the GIL held for short runs. */
void ma_legacy_draws(ma_legacy *s, int which, double a, double b, int64_t n, double *out);

#endif
