/*
 * The narrow floating-point formats DLPack 1.3 names (dlpack.h,
 * DLDataTypeCode kDLFloat8_* .. kDLFloat4_e2m1fn): eight formats of 8 bits,
 * two of 6 and one of 4, each described by one row of a table (exponent and
 * mantissa widths, bias, and how it spells infinity and NaN) so that a
 * single decoder and a single encoder serve them all.
 *
 * minarray stores one element per byte (the 6- and 4-bit formats in the low
 * bits of their byte, as ml_dtypes does and as DLPack's
 * IS_SUBBYTE_TYPE_PADDED flag describes).  Arithmetic never happens in these
 * formats: values load to float, are computed on, and round back.
 */
#ifndef MINARRAY_MINIFLOAT_H
#define MINARRAY_MINIFLOAT_H

#include <stdint.h>

/* How a format spells its special values. */
typedef enum {
  MA_MF_IEEE,  /* exponent all ones: infinity (mantissa 0) or NaN, as IEEE 754 */
  MA_MF_FN,    /* "finite, NaN": no infinity; exponent and mantissa all ones is NaN */
  MA_MF_FNUZ,  /* "finite, NaN, unsigned zero": the bits of -0 are the one NaN */
  MA_MF_NONE,  /* neither infinity nor NaN (the 6- and 4-bit formats) */
  MA_MF_E8M0   /* unsigned powers of two, no zero; all ones is NaN */
} ma_mf_special;

typedef struct {
  int ebits, mbits, bias;
  ma_mf_special special;
} ma_minifloat;

/* The formats, in the order of their ma_type enumerators (MA_FLOAT8_E3M4
 * first); index a row with tid - MA_FLOAT8_E3M4. */
enum { MA_MF_NFORMATS = 11 };
extern const ma_minifloat ma_mf_formats[MA_MF_NFORMATS];
/* Every bit pattern of every format decoded, filled by ma_minifloat_setup. */
extern float ma_mf_values[MA_MF_NFORMATS][256];

/* Fill ma_mf_values; call once before any cast (the module's init does). */
void ma_minifloat_setup(void);

/* The value of pattern `b` (bits above the format's width are ignored). */
static inline float ma_mf_load(int k, uint8_t b) { return ma_mf_values[k][b]; }

/* x rounded to format `k`, to nearest with ties to even (the E8M0 format,
 * which has no mantissa, rounds ties up); out of range gives infinity where
 * the format has one, NaN where it has NaN but no infinity, and the largest
 * finite value where it has neither, all as ml_dtypes does. */
uint8_t ma_mf_store(int k, float x);

#endif
