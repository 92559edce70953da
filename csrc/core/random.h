/*
 * Random numbers: NumPy's Generator stream, bit for bit, in plain C.
 *
 * The pieces: SeedSequence's entropy pooling and state generation, the
 * PCG64 and PCG64DXSM bit generators (state, seeding, advance), and one
 * fill function per distribution that writes n draws into a buffer the
 * caller owns, in plain C.  The Python layer (minarray/random) holds
 * a lock around every call that advances a generator, and cffi releases
 * the GIL for the call, so a large fill runs while other threads work.
 *
 * The raw and float64 uniform fills split large arrays over minarray's
 * thread pool (csrc/core/threads.h): each chunk starts from the state advanced
 * to its first value, so the numbers never depend on the thread count.
 *
 * Every function that takes parameter arrays reads element i of a
 * parameter at `param[i * step]`: a step of 0 repeats one value (a
 * scalar), a step of 1 walks a contiguous array broadcast to the output.
 */
#ifndef MA_CORE_RANDOM_H
#define MA_CORE_RANDOM_H

#include <stdint.h>

/* cdef-begin: the build script hands the declarations between these markers
 * to cffi verbatim. */

/* A PCG64 or PCG64DXSM generator: a 128-bit LCG state and odd increment,
 * split in 64-bit halves so that the layout is the same for every
 * compiler, and the spare upper half of a 64-bit draw that the next 32-bit
 * draw returns (NumPy's has_uint32 / uinteger). */
typedef struct {
  uint64_t state_hi;
  uint64_t state_lo;
  uint64_t inc_hi;
  uint64_t inc_lo;
  int32_t has_uint32;
  uint32_t uinteger;
  int32_t dxsm; /* 0: PCG64 (XSL-RR output), 1: PCG64DXSM (DXSM output, cheap multiplier) */
} ma_pcg64;

/* SeedSequence: mix `n_entropy` words into a pool of `pool_size` words, and
 * draw `n_words` words of state from a pool. */
void ma_seedseq_mix(const uint32_t *entropy, int64_t n_entropy, uint32_t *pool, int64_t pool_size);
void ma_seedseq_generate(const uint32_t *pool, int64_t pool_size, uint32_t *out, int64_t n_words);

/* Seeding from four 64-bit words (initial state high, low, sequence high,
 * low), and advancing by a 128-bit number of steps. */
void ma_pcg64_seed(ma_pcg64 *g, const uint64_t *words);
void ma_pcg64_advance(ma_pcg64 *g, uint64_t delta_hi, uint64_t delta_lo);

/* Raw draws and the uniform distributions. */
void ma_random_raw(ma_pcg64 *g, int64_t n, uint64_t *out);
void ma_random_double(ma_pcg64 *g, int64_t n, double *out);
void ma_random_float(ma_pcg64 *g, int64_t n, float *out);
void ma_random_uniform(ma_pcg64 *g, int64_t n, const double *low, int64_t low_step,
                       const double *range, int64_t range_step, double *out);

/* Bounded integers in [off, off + rng] (NumPy's Lemire method with its
 * buffering of 32-bit draws): one fill per width, scalar bounds. */
void ma_random_bounded_u64(ma_pcg64 *g, uint64_t off, uint64_t rng, int64_t n, uint64_t *out);
void ma_random_bounded_u32(ma_pcg64 *g, uint32_t off, uint32_t rng, int64_t n, uint32_t *out);
void ma_random_bounded_u16(ma_pcg64 *g, uint16_t off, uint16_t rng, int64_t n, uint16_t *out);
void ma_random_bounded_u8(ma_pcg64 *g, uint8_t off, uint8_t rng, int64_t n, uint8_t *out);
void ma_random_bounded_bool(ma_pcg64 *g, uint8_t off, uint8_t rng, int64_t n, uint8_t *out);
/* The same with per-element bounds: low[i * low_step] and high[i *
 * high_step] as 64-bit integers (two's complement for the signed dtypes),
 * high exclusive unless `closed`; `bits` is 64, 32, 16, 8 or 1 (bool). */
void ma_random_bounded_array(ma_pcg64 *g, int bits, int closed, int64_t n, const uint64_t *low,
                             int64_t low_step, const uint64_t *high, int64_t high_step, void *out);

/* The ziggurat distributions and the ones built on them (lognormal: exp of the normal). */
void ma_random_standard_normal(ma_pcg64 *g, int64_t n, double *out);
void ma_random_standard_normal_f(ma_pcg64 *g, int64_t n, float *out);
void ma_random_normal(ma_pcg64 *g, int64_t n, const double *loc, int64_t loc_step,
                      const double *scale, int64_t scale_step, double *out);
void ma_random_lognormal(ma_pcg64 *g, int64_t n, const double *mean, int64_t mean_step,
                         const double *sigma, int64_t sigma_step, double *out);
void ma_random_standard_exponential(ma_pcg64 *g, int64_t n, int inverse, double *out);
void ma_random_standard_exponential_f(ma_pcg64 *g, int64_t n, int inverse, float *out);
void ma_random_exponential(ma_pcg64 *g, int64_t n, const double *scale, int64_t scale_step, double *out);
void ma_random_standard_gamma_f(ma_pcg64 *g, int64_t n, const float *shape, int64_t shape_step, float *out);
void ma_random_gamma(ma_pcg64 *g, int64_t n, const double *shape, int64_t shape_step,
                     const double *scale, int64_t scale_step, double *out);
void ma_random_beta(ma_pcg64 *g, int64_t n, const double *a, int64_t a_step,
                    const double *b, int64_t b_step, double *out);
void ma_random_binomial(ma_pcg64 *g, int64_t n, const int64_t *trials, int64_t trials_step,
                        const double *p, int64_t p_step, int64_t *out);
void ma_random_poisson(ma_pcg64 *g, int64_t n, const double *lam, int64_t lam_step, int64_t *out);
/* multinomial: `rows` draws of d counts, row i of out from trials[i *
 * trials_step] trials over the probabilities p[row[i * row_step] * d, + d). */
void ma_random_multinomial(ma_pcg64 *g, int64_t rows, const int64_t *trials, int64_t trials_step,
                           const int64_t *row, int64_t row_step, const double *p, int64_t d, int64_t *out);

/* The other distributions of _generator.pyx, each NumPy's Generator
 * algorithm (the ziggurat normal and exponential where it draws them):
 * parameters as above, doubles; the last four give int64 draws. */
void ma_random_standard_cauchy(ma_pcg64 *g, int64_t n, double *out);
void ma_random_standard_t(ma_pcg64 *g, int64_t n, const double *a, int64_t as, double *out);
void ma_random_chisquare(ma_pcg64 *g, int64_t n, const double *a, int64_t as, double *out);
void ma_random_rayleigh(ma_pcg64 *g, int64_t n, const double *a, int64_t as, double *out);
void ma_random_pareto(ma_pcg64 *g, int64_t n, const double *a, int64_t as, double *out);
void ma_random_power(ma_pcg64 *g, int64_t n, const double *a, int64_t as, double *out);
void ma_random_weibull(ma_pcg64 *g, int64_t n, const double *a, int64_t as, double *out);
void ma_random_f(ma_pcg64 *g, int64_t n, const double *a, int64_t as, const double *b, int64_t bs, double *out);
void ma_random_laplace(ma_pcg64 *g, int64_t n, const double *a, int64_t as, const double *b, int64_t bs,
                       double *out);
void ma_random_logistic(ma_pcg64 *g, int64_t n, const double *a, int64_t as, const double *b, int64_t bs,
                        double *out);
void ma_random_gumbel(ma_pcg64 *g, int64_t n, const double *a, int64_t as, const double *b, int64_t bs,
                      double *out);
void ma_random_noncentral_chisquare(ma_pcg64 *g, int64_t n, const double *a, int64_t as, const double *b,
                                    int64_t bs, double *out);
void ma_random_vonmises(ma_pcg64 *g, int64_t n, const double *a, int64_t as, const double *b, int64_t bs,
                        double *out);
void ma_random_wald(ma_pcg64 *g, int64_t n, const double *a, int64_t as, const double *b, int64_t bs,
                    double *out);
void ma_random_noncentral_f(ma_pcg64 *g, int64_t n, const double *a, int64_t as, const double *b, int64_t bs,
                            const double *c, int64_t cs, double *out);
void ma_random_triangular(ma_pcg64 *g, int64_t n, const double *a, int64_t as, const double *b, int64_t bs,
                          const double *c, int64_t cs, double *out);
void ma_random_geometric(ma_pcg64 *g, int64_t n, const double *a, int64_t as, int64_t *out);
void ma_random_zipf(ma_pcg64 *g, int64_t n, const double *a, int64_t as, int64_t *out);
void ma_random_logseries(ma_pcg64 *g, int64_t n, const double *a, int64_t as, int64_t *out);
void ma_random_negative_binomial(ma_pcg64 *g, int64_t n, const double *a, int64_t as, const double *b,
                                 int64_t bs, int64_t *out);

/* hypergeometric: int64 counts of good, bad and samples (checked by the
 * caller: each count below 1e9, the sample at most good + bad). */
void ma_random_hypergeometric(ma_pcg64 *g, int64_t n, const int64_t *good, int64_t good_step, const int64_t *bad,
                              int64_t bad_step, const int64_t *sample, int64_t sample_step, int64_t *out);

/* multivariate_hypergeometric: `rows` draws of d counts into out (zeroed),
 * nsample items from colors[0, d) (total items); method_count 1 for
 * 'count' (0, or -1 when memory ran out), 0 for 'marginals'. */
int ma_random_mv_hypergeometric(ma_pcg64 *g, int method_count, int64_t total, int64_t d, const int64_t *colors,
                                int64_t nsample, int64_t rows, int64_t *out);

/* Permutations.  ma_random_shuffle: Fisher-Yates over n items of
 * `itemsize` bytes, `stride` bytes apart, from the last down to `first`
 * (NumPy's shuffle, masked draws).  ma_random_shuffle_lanes: the same over
 * every lane of a C-contiguous (outer, axlen, inner) block along its
 * middle axis (permuted with an axis).  ma_random_choice_*: the sampling
 * of Generator.choice; they return 0, or -1 when memory ran out. */
void ma_random_shuffle(ma_pcg64 *g, int64_t n, int64_t first, int64_t itemsize, int64_t stride, char *data);
void ma_random_shuffle_lanes(ma_pcg64 *g, int64_t outer, int64_t axlen, int64_t inner, int64_t itemsize,
                             char *data);
int ma_random_choice_tail_shuffle(ma_pcg64 *g, int64_t pop_size, int64_t size, int64_t *out);
int ma_random_choice_floyd(ma_pcg64 *g, int64_t pop_size, int64_t size, int shuffle, int64_t *out);
int ma_random_choice_p(ma_pcg64 *g, int64_t pop_size, const double *p, int64_t size, int replace,
                       int64_t *out);
double ma_random_kahan_sum(const double *x, int64_t n);

/* multivariate_normal with a Cholesky factor: factor cov (n x n, row
 * major) into its lower triangle in place (returns the first column whose
 * pivot is not positive, or -1); then out[r, :] = mean + x[r, :] @ L^T. */
int64_t ma_cholesky(int64_t n, double *a);
void ma_mvn_transform(int64_t rows, int64_t n, const double *x, const double *lower, const double *mean,
                      double *out);

/* cdef-end */

#endif
