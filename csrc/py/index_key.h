/*
 * An index key, parsed once (csrc/py/views.c, parse_key): what x[key] and
 * x[key] = value read, whichever route then builds the result.  Each
 * entry of the key (a tuple's items, or the key itself) is one of the
 * kinds below, with the object it stands for; list, tuple and array-like
 * entries are arrays by then (converted as asarray converts them), a
 * Python bool is a 0-d mask, and a 0-d integer array is an int, as in
 * NumPy.  The advanced routes (csrc/py/index.c, and
 * minarray/_indexing.py for the keys C does not gather itself) take this
 * description and never look at the key again.
 */
#ifndef MA_INDEX_KEY_H
#define MA_INDEX_KEY_H

#include "pyapi.h"

enum { KE_INT, KE_SLICE, KE_NEW, KE_ELLIPSIS, KE_ARRAY, KE_MASK };

typedef struct {
  int kind;
  int owned;     /* obj is a reference of the entry's own (else the key's item, borrowed) */
  PyObject *obj; /* KE_INT an exact int; KE_SLICE the slice; KE_ARRAY an integer
                    NDArray; KE_MASK a bool NDArray; else NULL */
  ma_array *arr; /* KE_ARRAY, KE_MASK: obj's array */
} key_entry;

/* At most ndim axes are indexed and ndim + new axes <= MA_MAXDIMS, so a
 * valid key has at most this many entries (one more: the ellipsis). */
#define MA_MAXKEY (2 * MA_MAXDIMS + 1)

typedef struct {
  int n;        /* entries */
  int consumed; /* axes of x they index (a mask: its ndim) */
  int nnew;     /* axes they add (None, and a 0-d mask) */
  int narrays;  /* KE_ARRAY and KE_MASK entries */
  int ellipsis; /* the entry that is `...`, or -1 */
  key_entry e[MA_MAXKEY];
} index_key;

void ma_key_free(index_key *K);

/* The advanced keys C gathers and scatters itself (csrc/py/index.c): a
 * mask of x's whole shape, integer arrays of one length over the leading
 * axes (or one n-d integer array), a mask over the leading axes.
 * getitem: a new NDArray; setitem (value a Python scalar, or `s` the
 * value's array): True once written.  Both: None (a new reference,
 * nothing written) when the key is not one of those or the value does not
 * broadcast, or NULL with the error set. */
PyObject *ma_getitem_advanced(ma_array *a, const index_key *K);
PyObject *ma_setitem_advanced(ma_array *a, const index_key *K, PyObject *value, ma_array *s);
/* The same gather for entries e[0..n) over a's leading axes, as a new
 * C-contiguous array of shape (count, a.shape[k:]) (an n-d key's shape for
 * count), for csrc/py/views.c to place: NULL with *failed 0 when the
 * entries are not one of those keys (nothing set), NULL with *failed 1 and
 * the error set (an IndexError names axes counted from `axis0`). */
ma_array *ma_gather_first(ma_array *a, const key_entry *e, int n, int axis0, int *failed);

#endif
