/*
 * NumPy's packbits and unpackbits (minarray/_bit_packing.py): the truth
 * of single-byte elements (any nonzero byte is a 1, as NumPy reads them)
 * packed eight to a byte along one axis, and bytes spread back to one 0/1
 * byte per bit.  `little` picks the bit order: 0 ('big') puts the axis's
 * first element in a byte's most significant bit, 1 ('little') in its
 * least.  Both walk any strides through the iterator's N-d walk
 * (ma_nest_walk), the result's smallest stride innermost; a run that is
 * contiguous along the axis takes a vectorised path (SSE2, x86-64's
 * baseline, or AVX2 where the CPU has it, chosen at run time; eight
 * bytes in one multiply on other CPUs).
 */
#ifndef MINARRAY_BIT_PACKING_H
#define MINARRAY_BIT_PACKING_H

#include <stdint.h>

#include "array.h"

/* dst (uint8, C-contiguous) gets src's shape with ceil(n / 8) along
 * `axis`, n being src's length there: byte j packs src's elements 8j to
 * 8j + 7 along the axis, the last one padded with zero bits.  src has
 * elements of one byte, any strides; dst shares no memory with it.
 * -1 (nothing written) when the shapes do not agree. */
int ma_packbits(const ma_array *src, ma_array *dst, int axis, int little);

/* dst (uint8, C-contiguous) gets src's shape with `count` along `axis`:
 * its element i there is bit i % 8 of src's byte i / 8 (in the bit order),
 * zero past src's last bit.  src is uint8, any strides; dst shares no
 * memory with it.  -1 (nothing written) when the shapes do not agree. */
int ma_unpackbits(const ma_array *src, ma_array *dst, int axis, int little);

#endif
