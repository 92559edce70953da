/*
 * The unbuffered in-place elementwise update behind ufunc.at
 * (minarray/_ufunc.py): a[i] = op(a[i], b[i]) at listed positions, one
 * element at a time, so a position listed twice sees its first update
 * before its second (np.add.at(a, [0, 0], 1) adds 2, where a[[0, 0]] += 1
 * adds 1).
 */
#ifndef MINARRAY_EW_AT_H
#define MINARRAY_EW_AT_H

#include <stdint.h>

#include "array.h"
#include "iterate.h"

/* The ops with a loop of their own here (the common histogram-style
 * updates); every other op runs its generated elementwise loop once per
 * element. */
enum { MA_AT_GENERIC, MA_AT_ADD, MA_AT_SUBTRACT, MA_AT_MULTIPLY };

/* For i in [0, n) in order: a's element at C-order position pos[i]
 * (negative ones count from the end) becomes op(that element, b[i]),
 * written in place; b (C-contiguous, n elements) NULL for a unary op.
 * `fast` (an MA_AT_*) picks a typed loop for the integer and float types
 * of a C-contiguous a, else `loop` (operands and result all of a's type)
 * runs per element.  Returns 0 once done, or 1 when a position is outside
 * [-size, size) of a: the first such as *bad, and a left as it was
 * (NumPy's rule: a bad index changes nothing).  Each position is checked
 * where it is used, so another thread changing them meanwhile can never
 * send a write outside a.  b must share no memory with a. */
int ma_ew_at(int fast, ma_array *a, ma_loop loop, const void *aux, const int64_t *pos, int64_t n, const char *b,
             int64_t *bad);

#endif
