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

/* The first of pos[0..n) outside [-size, size) for an array of `size`
 * elements, as *bad; 0 when all are inside, 1 when one is not. */
int ma_ew_at_check(const int64_t *pos, int64_t n, int64_t size, int64_t *bad);

/* For i in [0, n) in order: a's element at C-order position pos[i]
 * (negative ones count from the end) becomes op(that element, b[i]),
 * written in place; b (C-contiguous, n elements) NULL for a unary op.
 * `fast` (an MA_AT_*) picks a typed loop for the integer and float types
 * of a C-contiguous a, else `loop` (operands and result all of a's type)
 * runs per element.  Each position is checked again where it is used (a
 * caller checked them all first with ma_ew_at_check; one another thread
 * changed since is skipped, never followed outside a).  b must share no
 * memory with a. */
void ma_ew_at(int fast, ma_array *a, ma_loop loop, const void *aux, const int64_t *pos, int64_t n, const char *b);

#endif
