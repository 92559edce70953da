/*
 * A vectorised quicksort of 64-bit unsigned keys, for the sorts that carry
 * no positions along (unique's values, sort of values without a -0.0):
 * their order among equal keys cannot be seen, so the sort need not be
 * stable, and a quicksort whose partitions and leaves run in SIMD
 * registers beats the radix passes there.  Sorts that carry positions
 * stay on the stable radix sort of sort.c.
 *
 * Chosen at run time: AVX-512 (AVX-512F) where the CPU has it and
 * MINARRAY_NO_AVX512 is not set, else AVX2; on other CPUs (and other
 * architectures) the caller keeps its own sort.  No -march flag is needed.
 */
#ifndef MINARRAY_VSORT_H
#define MINARRAY_VSORT_H

#include <stdint.h>

/* Sort keys[0..n) ascending with tmp (room for n keys) as scratch, large
 * inputs split over the thread pool: 1 when done, 0 when this CPU has
 * neither instruction set (nothing touched). */
int ma_vsort_keys(uint64_t *keys, uint64_t *tmp, int64_t n);

#endif
