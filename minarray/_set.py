"""Set functions (Array API "Set Functions"): the unique_* family.

One C pass (csrc/core/sort.c ``unique``) sorts the flattened elements stably and
groups them, giving every result at once.  Following the standard, each
NaN is distinct (NaN != NaN) and -0.0 equals 0.0; values come out sorted
with NaNs last, as NumPy's.  ``inverse_indices`` has the input's shape.
"""

from __future__ import annotations

import math
from typing import Any, NamedTuple

from minarray import _dtypes as _dt
from minarray import _subclass
from minarray._array_object import NDArray, c_strides
from minarray._coerce import as_operand, asarray, normalize_axis
from minarray._creation import arange, empty, ones, zeros
from minarray._elementwise import clip, equal, imag, isnan, logical_not, minimum, not_equal, real
from minarray._joining import concat
from minarray._joining import concat as _concat
from minarray._manipulation import moveaxis
from minarray._native import core
from minarray._searching import argmin, nonzero
from minarray._sorting import _searchsorted, complex_order, lexsort
from minarray._statistical import cumulative_sum
from minarray._statistical import sum as _sum
from minarray._utility import any as _any
from minarray._utility import diff as _diff

__all__ = [
    "unique_all", "unique_counts", "unique_inverse", "unique_values", "unique", "isin", "intersect1d",
    "union1d", "setdiff1d", "setxor1d",
]


class UniqueAllResult(NamedTuple):
    values: NDArray
    indices: NDArray
    inverse_indices: NDArray
    counts: NDArray


class UniqueCountsResult(NamedTuple):
    values: NDArray
    counts: NDArray


class UniqueInverseResult(NamedTuple):
    values: NDArray
    inverse_indices: NDArray


def _unique(x: Any) -> UniqueAllResult:
    x = as_operand(x)
    if x.dtype.kind == "c":
        return _unique_complex(x)
    kept, x = x.dtype, x._widened()
    n, hv, hf, hi, hc = core.unique(x._h)
    values = NDArray._new(hv, (n,), (1,), None)
    if values.dtype is not kept:
        values = values.astype(kept)
    first = NDArray._new(hf, (n,), (1,), None)
    counts = NDArray._new(hc, (n,), (1,), None)
    inverse = NDArray._new(hi, x.shape, c_strides(x.shape), None)
    return UniqueAllResult(values, first, inverse, counts)


def _unique_complex(x: NDArray) -> UniqueAllResult:
    """The unique_* results of a complex array (the standard allows complex
    input): values in NumPy's order (lexicographic, by real part then
    imaginary, values with a NaN part last), grouped by equality, so each
    NaN is distinct and -0.0 equals 0.0, as for real values."""
    flat = x.reshape((-1,))
    n = flat.shape[0]
    order = complex_order(flat, 0)  # stable: the first of a group is its first occurrence
    s = flat[order]
    new_group = concat((ones((min(n, 1),), dtype=_dt.bool), not_equal(s[1:], s[:-1])))
    starts = nonzero(new_group)[0]
    inverse = empty((n,), dtype=_dt.int64)
    inverse[order] = cumulative_sum(new_group.astype(_dt.int64)) - 1
    counts = concat((starts[1:], asarray([n]))) - starts
    return UniqueAllResult(s[starts], order[starts], inverse.reshape(x.shape), counts)


def unique_all(x: NDArray, /) -> UniqueAllResult:
    """The distinct values of ``x`` (sorted, NaNs last and each distinct),
    the flat index of each one's first occurrence, each element's position
    in ``values`` (shaped like ``x``) and each value's count."""
    return _unique(x)


def unique_counts(x: NDArray, /) -> UniqueCountsResult:
    """The distinct values of ``x`` and how often each occurs."""
    r = _unique(x)
    return UniqueCountsResult(r.values, r.counts)


def unique_inverse(x: NDArray, /) -> UniqueInverseResult:
    """The distinct values of ``x`` and, for each element, its position in
    them (``values[inverse_indices]`` rebuilds ``x``)."""
    r = _unique(x)
    return UniqueInverseResult(r.values, r.inverse_indices)


def _values_only(x: Any, equal_nan: bool) -> NDArray | None:
    """The sorted distinct values alone (no positions to sort along: the
    C pass that skips them) for real arrays, NaNs last: each its own value,
    or with ``equal_nan`` one; None for complex arrays."""
    x = as_operand(x)
    if x.dtype.kind not in "biuf":
        return None
    kept, x = x.dtype, x._widened()
    n, h = core.unique_values(x._h)
    values = NDArray._new(h, (n,), (1,), None)
    if equal_nan and n > 1 and x.dtype.kind == "f" and bool(isnan(values[n - 2])):
        # the NaNs are sorted last: keep the first of them
        values = values[: int(_searchsorted(values, values[n - 1:], "left", None)[0]) + 1]
    return values if values.dtype is kept else values.astype(kept)


def unique_values(x: NDArray, /) -> NDArray:
    """The distinct values of ``x``, sorted, each NaN kept."""
    if type(x) is not NDArray and _subclass.instance(x):
        return _subclass.through_method(unique_values, x)
    v = _values_only(x, False)
    return v if v is not None else _unique(x).values


def _collapse_nans(r: UniqueAllResult, first_seen: bool = False) -> UniqueAllResult:
    """NumPy's ``equal_nan=True``: the NaNs (sorted last, each its own
    group) merged into one group, shown by the first of them in the sorted
    order; for complex values every one with a NaN part is such a NaN, as
    in NumPy.  ``first_seen``: shown by the first in the input instead, as
    NumPy's values-only unique of complex numbers (a hash set) keeps it."""
    v = r.values
    n = v.shape[0]
    if v.dtype.kind not in "fc" or n < 2 or not bool(isnan(v[n - 2])):
        return r
    k = int(_sum(isnan(v)).item())
    first_nan = n - k
    shown = first_nan + (int(argmin(r.indices[first_nan:])) if first_seen else 0)
    values = concat((v[:first_nan], v[shown:shown + 1]))
    counts = r.counts[:first_nan + 1].copy()
    counts[first_nan] = _sum(r.counts[first_nan:])
    inverse = minimum(r.inverse_indices, first_nan)
    return UniqueAllResult(values, r.indices[:first_nan + 1], inverse, counts)


def unique(ar: Any, return_index: bool = False, return_inverse: bool = False, return_counts: bool = False,
           axis: int | None = None, *, equal_nan: bool = True) -> Any:
    """NumPy's ``unique``: the sorted distinct values of the flattened
    array, and on request the index of each one's first occurrence, each
    element's position among them (shaped like ``ar``) and the counts, in
    that order.  NaNs count as one value unless ``equal_nan=False`` (the
    standard's ``unique_values`` keeps each NaN).  With ``axis``, the
    distinct slices along that axis (rows for ``axis=0``), in
    lexicographic order, NaNs never equal."""
    if type(ar) is not NDArray and _subclass.instance(ar):
        # NumPy's keeps the subclass on the values only, not on the positions
        r = unique(_subclass.plain(ar), return_index, return_inverse, return_counts, axis, equal_nan=equal_nan)
        return (_subclass.kept(r[0], ar), *r[1:]) if isinstance(r, tuple) else _subclass.kept(r, ar)
    if axis is not None:
        return _unique_slices(as_operand(ar, "unique"), axis, return_index, return_inverse, return_counts)
    if not (return_index or return_inverse or return_counts):
        v = _values_only(ar, equal_nan)
        if v is not None:
            return v
    r = _unique(ar)
    if equal_nan:
        r = _collapse_nans(r, first_seen=not (return_index or return_inverse or return_counts))
    extra = [x for want, x in ((return_index, r.indices), (return_inverse, r.inverse_indices),
                               (return_counts, r.counts)) if want]
    return (r.values, *extra) if extra else r.values


def _unique_slices(a: NDArray, axis: Any, return_index: bool, return_inverse: bool,
                   return_counts: bool) -> Any:
    """unique(axis=...): each slice along ``axis`` flattened to a row, the
    rows sorted lexicographically (a stable lexsort, the first column most
    significant, as NumPy orders them), and a row kept where it differs
    from the one before."""
    ax = normalize_axis(axis, a.ndim)
    moved = moveaxis(a, ax, 0)
    n = moved.shape[0]
    rows = moved.reshape((n, -1)) if n else moved.reshape((0, math.prod(moved.shape[1:])))
    # lexsort's last key is its first criterion; a complex column sorts by
    # its real part, then its imaginary part (NumPy's order of complex values)
    columns = [rows[:, j] for j in range(rows.shape[1])]
    if a.dtype.kind == "c":
        columns = [part for c in columns for part in (real(c), imag(c))]
    order = lexsort(tuple(reversed(columns))) if columns and n else arange(n, dtype=_dt.int64)
    ordered = rows[order]
    first = ones((n,), dtype=_dt.bool)
    if n > 1:
        first[1:] = _any(not_equal(ordered[1:], ordered[:-1]), axis=1)
    starts = nonzero(first)[0]
    values = moveaxis(moved[order[starts]], 0, ax)
    extra = []
    if return_index:
        extra.append(order[starts])
    if return_inverse:
        inverse = empty((n,), dtype=_dt.int64)
        inverse[order] = cumulative_sum(first.astype(_dt.int64)) - 1
        extra.append(inverse)
    if return_counts:
        extra.append(_diff(_concat((starts, asarray([n], dtype=_dt.int64)))))
    return (values, *extra) if extra else values


def _flat(x: Any, fname: str) -> NDArray:
    return as_operand(x, fname).reshape((-1,))


def isin(element: Any, test_elements: Any, assume_unique: bool = False, invert: bool = False) -> NDArray:
    """Elementwise: is each element of ``element`` among ``test_elements``
    (flattened)?  A boolean array of ``element``'s shape; NaN is never
    found (NaN != NaN).  ``invert`` gives the opposite."""
    if type(element) is not NDArray or type(test_elements) is not NDArray:  # NumPy's gives a plain array
        element, test_elements = _subclass.plain(element), _subclass.plain(test_elements)
    e = as_operand(element, "isin")
    if isinstance(test_elements, (set, frozenset)):
        # NumPy reads a set as one object (a 0-d object array), which no
        # number equals: nothing is found (its docstring shows it; convert
        # with list(s) to test the members)
        found = zeros(e.shape, dtype=_dt.bool)
        return logical_not(found) if invert else found
    t = _flat(test_elements, "isin")
    common = _dt.promote(e.dtype, t.dtype)
    if common.kind == "c":
        # complex values have no order to search in: number the distinct
        # values of both together (NaNs stay distinct, so never found), then
        # look the elements' numbers up among the test elements'
        both = _concat((t.astype(common), e.reshape((-1,)).astype(common)))
        ids = unique_inverse(both).inverse_indices
        found = isin(ids[t.shape[0]:], ids[: t.shape[0]]).reshape(e.shape)
        return logical_not(found) if invert else found
    if t.shape[0] == 0:
        found = zeros(e.shape, dtype=_dt.bool)
    else:
        u = unique_values(t.astype(common, copy=False))
        ec = e.astype(common, copy=False)
        pos = clip(_searchsorted(u, ec, "left", None), 0, u.shape[0] - 1)
        found = equal(u[pos], ec)
    return logical_not(found) if invert else found


def intersect1d(ar1: Any, ar2: Any, assume_unique: bool = False, return_indices: bool = False) -> Any:
    """The sorted values found in both arrays (flattened); with
    ``return_indices``, also the index of each one's first occurrence in
    each flattened input."""
    a, b = _flat(ar1, "intersect1d"), _flat(ar2, "intersect1d")
    common = _dt.promote(a.dtype, b.dtype)
    ua = _collapse_nans(_unique(a.astype(common, copy=False)))
    ub = _collapse_nans(_unique(b.astype(common, copy=False)))
    mask = isin(ua.values, ub.values)
    values = ua.values[mask]
    if not return_indices:
        return values
    mb = isin(ub.values, ua.values)
    return values, ua.indices[mask], ub.indices[mb]


def union1d(ar1: Any, ar2: Any) -> NDArray:
    """The sorted values found in either array (flattened)."""
    return unique(concat([_flat(ar1, "union1d"), _flat(ar2, "union1d")]))  # type: ignore[no-any-return]


def setdiff1d(ar1: Any, ar2: Any, assume_unique: bool = False) -> NDArray:
    """The sorted distinct values of ``ar1`` not in ``ar2`` (the values of
    ``ar1`` in their order, when ``assume_unique``)."""
    if type(ar1) is not NDArray and _subclass.instance(ar1):
        return _subclass.through_method(setdiff1d, ar1, ar2, assume_unique)
    a = _flat(ar1, "setdiff1d")
    if not assume_unique:
        a = unique(a)
    return a[isin(a, ar2, invert=True)]


def setxor1d(ar1: Any, ar2: Any, assume_unique: bool = False) -> NDArray:
    """The sorted values found in exactly one of the arrays."""
    a, b = _flat(ar1, "setxor1d"), _flat(ar2, "setxor1d")
    both = concat([a if assume_unique else unique(a), b if assume_unique else unique(b)])
    r = _unique(both)  # each NaN its own value here, as NumPy's sorted comparison finds them
    return r.values[equal(r.counts, 1)]
