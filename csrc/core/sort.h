/*
 * Sorting, selection (partition), binary search and unique, for every real
 * dtype: the kernels behind sort, argsort, partition (median, quantile),
 * searchsorted and the unique_* functions.
 *
 * Every element is first mapped to an unsigned integer key whose unsigned
 * order is the value order (integers: flip the sign bit; floats: flip all
 * bits of negatives and the sign bit of positives).  NaNs all get the
 * largest key, so they sort to the end as in NumPy, and -0.0 gets +0.0's
 * key so the two compare equal (a stable sort keeps their order).
 * Keys then go through a stable MSD radix sort (8-bit digits taken from
 * the top bit where the keys differ, each bucket split again until short,
 * large sorts' buckets spread over the thread pool; rows under 1024 keys
 * take a stable merge sort instead), so sort and argsort are always
 * stable; descending order sorts the complemented keys, which keeps equal
 * elements in their original order.
 *
 * Plain C, called without the GIL by csrc/py/sort_entry.c, which checks
 * the arguments and builds the results.  Every kernel converts what it
 * orders into a private key buffer first, so another thread writing the
 * input meanwhile changes values, never a position (docs/reliability.md).
 */
#ifndef MINARRAY_SORT_H
#define MINARRAY_SORT_H

#include <stdint.h>

#include "array.h"

/* Key width in bytes of a kernel type (0: not sortable, complex). */
int ma_sort_key_bytes(int tid);

/* Each run along x's last axis (ndim >= 1) sorted into the matching run of
 * out (x's shape; x's dtype, or int64 indices when arg).  Rows are
 * independent: large jobs spread them over the thread pool, and each row's
 * result is the same whichever thread sorts it.  0, or -1 when a row's
 * buffers could not be allocated. */
int ma_sort(const ma_array *x, ma_array *out, int descending, int arg);

/* Each run along x's last axis selected into the matching run of out so
 * that the positions kth[0..nkth) (strictly increasing, in [0, n)) hold
 * what a sort would put there, smaller-or-equal elements before each and
 * larger-or-equal after: an introselect over the same keys, O(n) per
 * position.  NaNs count as the largest values; -0.0 orders before 0.0
 * here (the order among equal elements is unspecified), so every value is
 * written back exactly.  0, or -1 as ma_sort. */
int ma_partition(const ma_array *x, ma_array *out, const int64_t *kth, int64_t nkth, int arg);

/* out[j] (C order over v) = the insertion point of v's j-th element in the
 * sorted 1-d a, of the same dtype: the first (right: past the last) of
 * equal elements.  0, or -1 when out of memory (nothing written). */
int ma_searchsorted(const ma_array *a, const ma_array *v, int64_t *out, int right);

/* The keys and original positions unique sorts, and their scratch;
 * negzero: unique's values alone found the zeros' first to be -0.0. */
typedef struct {
  uint64_t *keys, *tk;
  int64_t *idx, *ti;
  int negzero;
} ma_sort_workspace;

/* Room for n keys (and n indices when with_idx): 0, or -1 when out of
 * memory; ma_sort_workspace_free either way. */
int ma_sort_workspace_alloc(ma_sort_workspace *w, int64_t n, int with_idx);
void ma_sort_workspace_free(ma_sort_workspace *w);

/* unique, in two passes around the caller's allocation of its results.
 * ma_unique_sort sorts x's elements (C order; w from
 * ma_sort_workspace_alloc(w, size, 1)) stably by key and returns the number
 * of groups: distinct values, each NaN its own group, -0.0 equal to 0.0.
 * ma_unique_fill then writes, from those keys: values (x's dtype, one per
 * group, sorted), first (int64, the C index of each group's first
 * occurrence), inverse (int64 of x's shape, C-contiguous: each element's
 * group) and counts (int64, each group's size). */
int64_t ma_unique_sort(const ma_array *x, ma_sort_workspace *w);
void ma_unique_fill(const ma_array *x, const ma_sort_workspace *w, ma_array *values, ma_array *first,
                    ma_array *inverse, ma_array *counts);

/* unique's values alone, for every real dtype: what np.unique(x) and
 * unique_values ask for, without the stable sort of positions the other
 * three results need.  ma_unique_keys finds the distinct keys of x's
 * elements (w from ma_sort_workspace_alloc(w, size, 0)) by a bitmap over a
 * narrow key range, a hash set when few are distinct, else a radix sort;
 * leaves them first in w->keys, sorted, and returns how many.  As the full
 * pass: -0.0 equals 0.0 (the group's value is the sign of its first
 * occurrence), and each NaN is its own value, last (the type's quiet NaN:
 * NumPy's sort of float32/float64 writes that NaN too).
 * ma_unique_keys_fill writes them to values (x's dtype, 1-d, that many). */
int64_t ma_unique_keys(const ma_array *x, ma_sort_workspace *w);
void ma_unique_keys_fill(const ma_array *x, const ma_sort_workspace *w, ma_array *values);

#endif
