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

#include "iterate.h"

/* For i in [0, n) in order: the element at base + off[i] (byte offsets)
 * becomes loop(that element, b + i * bstride), written in place; b NULL
 * for a unary loop.  The loop's operands and result all have the
 * element's type (the caller picks such a loop).  Offsets are trusted:
 * the caller checked each one against the array's span. */
void ma_ew_at(ma_loop loop, const void *aux, char *base, const int64_t *off, int64_t n, const char *b,
              int64_t bstride);

#endif
