/*
 * Integer overflow of one operation on one pair of values: the check NumPy
 * makes for its scalars (np.int16(32000) * np.int16(3) warns "overflow
 * encountered in scalar multiply"), never for arrays, whose loops wrap
 * silently.  The value itself still comes from the elementwise kernel;
 * this only says whether the exact result fits the type.
 */
#ifndef MINARRAY_INT_OVERFLOW_H
#define MINARRAY_INT_OVERFLOW_H

#include <stdint.h>
#include <string.h>

#include "array.h"

/* The operations NumPy checks: x + y, x - y, x * y, -x and abs(x).  (Its
 * scalar power wraps unchecked; division's overflow, MIN // -1, and its
 * division by zero are raised as flags by the kernels themselves.) */
typedef enum { MA_OV_ADD, MA_OV_SUBTRACT, MA_OV_MULTIPLY, MA_OV_NEGATIVE, MA_OV_ABSOLUTE, MA_OV_NONE } ma_ov_op;

/* Does `op` on x (and y, for the binary ones) of integer type `tid`
 * overflow?  0 for every other type. */
static inline int ma_int_overflows(ma_ov_op op, int tid, const void *x, const void *y) {
  switch (tid) {
#define MA_OV_CASE(TID, T, SIGNED)                                                       \
  case TID: {                                                                            \
    T a, b = 0, r;                                                                       \
    memcpy(&a, x, sizeof a);                                                             \
    if (y) memcpy(&b, y, sizeof b);                                                      \
    switch (op) {                                                                        \
      case MA_OV_ADD: return __builtin_add_overflow(a, b, &r);                           \
      case MA_OV_SUBTRACT: return __builtin_sub_overflow(a, b, &r);                      \
      case MA_OV_MULTIPLY: return __builtin_mul_overflow(a, b, &r);                      \
      /* unsigned: every value but 0; signed: the most negative one */                    \
      case MA_OV_NEGATIVE: return __builtin_sub_overflow((T)0, a, &r);                   \
      case MA_OV_ABSOLUTE: return SIGNED && __builtin_sub_overflow((T)0, a, &r);          \
      default: return 0;                                                                 \
    }                                                                                    \
  }
    MA_OV_CASE(MA_INT8, int8_t, 1)
    MA_OV_CASE(MA_INT16, int16_t, 1)
    MA_OV_CASE(MA_INT32, int32_t, 1)
    MA_OV_CASE(MA_INT64, int64_t, 1)
    MA_OV_CASE(MA_UINT8, uint8_t, 0)
    MA_OV_CASE(MA_UINT16, uint16_t, 0)
    MA_OV_CASE(MA_UINT32, uint32_t, 0)
    MA_OV_CASE(MA_UINT64, uint64_t, 0)
#undef MA_OV_CASE
    default: return 0;
  }
}

#endif
