#include "minifloat.h"

#include <math.h>
#include <string.h>

/* The rows follow the formats' definitions as ml_dtypes implements them
 * (OCP 8-bit floating point, 2023; OCP microscaling formats, 2023; the
 * "fnuz" variants of Graphcore and AMD): bias = 2^(ebits-1) - 1 except where
 * the name says otherwise (b11: 11; fnuz: one more than IEEE's). */
const ma_minifloat ma_mf_formats[MA_MF_NFORMATS] = {
    {3, 4, 3, MA_MF_IEEE},  /* float8_e3m4 */
    {4, 3, 7, MA_MF_IEEE},  /* float8_e4m3 */
    {4, 3, 11, MA_MF_FNUZ}, /* float8_e4m3b11fnuz */
    {4, 3, 7, MA_MF_FN},    /* float8_e4m3fn */
    {4, 3, 8, MA_MF_FNUZ},  /* float8_e4m3fnuz */
    {5, 2, 15, MA_MF_IEEE}, /* float8_e5m2 */
    {5, 2, 16, MA_MF_FNUZ}, /* float8_e5m2fnuz */
    {8, 0, 127, MA_MF_E8M0}, /* float8_e8m0fnu */
    {2, 3, 1, MA_MF_NONE},  /* float6_e2m3fn */
    {3, 2, 3, MA_MF_NONE},  /* float6_e3m2fn */
    {2, 1, 1, MA_MF_NONE},  /* float4_e2m1fn */
};

float ma_mf_values[MA_MF_NFORMATS][256];

static float decode(const ma_minifloat *f, unsigned b) {
  if (f->special == MA_MF_E8M0) return b == 0xffu ? NAN : ldexpf(1.0f, (int)b - f->bias);
  const int width = f->ebits + f->mbits; /* the sign sits above the magnitude */
  const unsigned emask = (1u << f->ebits) - 1, mmask = (1u << f->mbits) - 1;
  b &= (2u << width) - 1;
  const int neg = (int)(b >> width) & 1;
  const unsigned e = (b >> f->mbits) & emask, m = b & mmask;
  if (f->special == MA_MF_FNUZ && b == 1u << width) return -NAN; /* the bits of -0: ml_dtypes' NaN is negative */
  if ((f->special == MA_MF_FN && e == emask && m == mmask) || (f->special == MA_MF_IEEE && e == emask && m))
    return copysignf(NAN, neg ? -1.0f : 1.0f);
  float v;
  if (f->special == MA_MF_IEEE && e == emask)
    v = INFINITY;
  else if (e) /* normal: 1.m * 2^(e - bias) */
    v = ldexpf((float)(m | (1u << f->mbits)), (int)e - f->bias - f->mbits);
  else /* subnormal: 0.m * 2^(1 - bias) */
    v = ldexpf((float)m, 1 - f->bias - f->mbits);
  return neg ? -v : v;
}

void ma_minifloat_setup(void) {
  for (int k = 0; k < MA_MF_NFORMATS; k++)
    for (unsigned b = 0; b < 256; b++) ma_mf_values[k][b] = decode(&ma_mf_formats[k], b);
}

/* E8M0 holds 2^(field - 127): float's own exponent field, rounded up when
 * the mantissa is at least one half (ties up, as ml_dtypes).  Below 2^-126
 * float is subnormal: ml_dtypes keeps 2^-127 (field 0) up to 2^-127
 * itself and gives 2^-126 above it; so does this. */
static uint8_t store_e8m0(uint32_t u) {
  const uint32_t a = u & 0x7fffffffu;
  if (a == 0 || a >= 0x7f800000u || (u >> 31)) return 0xff; /* no zero, sign, infinity: NaN */
  uint32_t field = a >> 23;
  if (!field) return (a & 0x7fffffu) > 0x400000u;
  if ((a & 0x7fffffu) >= 0x400000u) field++;
  return field > 254 ? 0xff : (uint8_t)field;
}

uint8_t ma_mf_store(int k, float x) {
  const ma_minifloat *f = &ma_mf_formats[k];
  uint32_t u;
  memcpy(&u, &x, sizeof u);
  if (f->special == MA_MF_E8M0) return store_e8m0(u);
  const int width = f->ebits + f->mbits, mb = f->mbits;
  const unsigned emask = (1u << f->ebits) - 1, mmask = (1u << mb) - 1;
  const int neg = (int)(u >> 31);
  const unsigned sign = (unsigned)neg << width;
  const uint32_t a = u & 0x7fffffffu;
  /* the largest finite pattern, and what an out-of-range value becomes */
  unsigned maxfield = emask, maxmant = mmask, over;
  switch (f->special) {
    case MA_MF_IEEE: maxfield = emask - 1; over = sign | emask << mb; break;
    case MA_MF_FN: maxmant = mmask - 1; over = sign | emask << mb | mmask; break;
    case MA_MF_FNUZ: over = 1u << width; break;
    default: over = sign | emask << mb | mmask; break; /* saturate */
  }
  if (a > 0x7f800000u) { /* NaN */
    switch (f->special) {
      case MA_MF_IEEE: return (uint8_t)(sign | emask << mb | 1u << (mb - 1)); /* quiet */
      case MA_MF_FN: return (uint8_t)(sign | emask << mb | mmask);
      case MA_MF_FNUZ: return (uint8_t)(1u << width);
      default: return (uint8_t)(neg ? 0 : 1u << width); /* no NaN: a zero, ml_dtypes' choice */
    }
  }
  if (a == 0x7f800000u) return (uint8_t)over;
  if (a == 0) return (uint8_t)(f->special == MA_MF_FNUZ ? 0 : sign);
  /* a = s * 2^(k - 23) with s the 24-bit significand */
  int fe = (int)(a >> 23);
  uint32_t s = a & 0x7fffffu;
  if (fe)
    s |= 0x800000u;
  else
    fe = 1;
  const int exp = fe - 127, kmin = 1 - f->bias;
  /* keep the bits worth at least the format's quantum at this exponent */
  int qe = (exp > kmin ? exp : kmin) - mb;
  const int drop = qe - (fe - 127 - 23);
  uint32_t n;
  if (drop > 25) {
    n = 0; /* less than half the smallest subnormal */
  } else {
    const uint32_t rem = s & ((1u << drop) - 1), half = 1u << (drop - 1);
    n = s >> drop;
    if (rem > half || (rem == half && (n & 1))) n++;
  }
  if (n == 2u << mb) { /* rounding carried into the next binade */
    n >>= 1;
    qe++;
  }
  unsigned field, mant;
  if (n >> mb) {
    field = (unsigned)(qe + mb + f->bias);
    mant = n & mmask;
  } else {
    field = 0; /* subnormal, or zero */
    mant = n;
  }
  if (field > maxfield || (field == maxfield && mant > maxmant)) return (uint8_t)over;
  if (!field && !mant && f->special == MA_MF_FNUZ) return 0; /* no -0 */
  return (uint8_t)(sign | field << mb | mant);
}
