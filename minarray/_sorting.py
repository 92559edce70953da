"""Sorting (Array API "Sorting Functions"): sort and argsort, plus the
binary search behind ``searchsorted``.

All sorts are stable (csrc/core/sort.c: an LSD radix sort on order-preserving
integer keys), whatever ``stable`` says: the standard allows a stable sort
where an unstable one is permitted.  NaNs sort to the end (to the front
when ``descending``: a NaN counts as the largest value, as in NumPy), and
``descending=True`` keeps equal elements in their original order.
"""

from __future__ import annotations

from typing import Any

from minarray import _dtypes as _dt
from minarray import _subclass
from minarray._array_object import NDArray
from minarray._coerce import as_int, as_operand, asarray, normalize_axis
from minarray._native import core

__all__ = [
    "argsort", "sort", "partition", "argpartition", "lexsort", "sort_complex",
]


def _check_sortable(x: NDArray, name: str) -> None:
    if x.dtype.kind == "c":
        raise TypeError(f"{name} is not defined for complex dtypes ({x.dtype}): complex numbers are unordered")


def _complex_order(x: NDArray, axis: int) -> NDArray:
    """The indices that sort complex ``x`` along ``axis`` in NumPy's order:
    by real part, then imaginary part, with the values holding a NaN after
    all others, as R + nanj, then nan + Rj, then nan + nanj."""
    from minarray._elementwise import imag, isnan, real  # cycle: _elementwise imports this module
    from minarray._searching import where  # cycle: _searching imports this module (through _elementwise)

    re, im = real(x), imag(x)
    group = where(isnan(re), 2, where(isnan(im), 1, 0))
    return lexsort((im, re, group), axis=axis)


def _sort(x: Any, axis: int, descending: bool, arg: bool, name: str) -> NDArray:
    x = as_operand(x)
    if x.dtype.kind != "c" or descending:  # NumPy orders complex values ascending only
        _check_sortable(x, name)
    if x.ndim == 0:
        raise ValueError(f"{name} needs an array of at least one dimension, not a 0-d array")
    ax = normalize_axis(axis, x.ndim)
    if x.dtype.kind == "c":
        from minarray._indexing import take_along_axis  # cycle: _indexing imports this module

        indices = _complex_order(x, ax)
        return indices if arg else take_along_axis(x, indices, axis=ax)
    kept, x = x.dtype, x._widened()
    out = NDArray._empty(x.shape, _dt.int64 if arg else x.dtype)
    nd = x.ndim
    if ax != nd - 1:
        order = (*[d for d in range(nd) if d != ax], ax)
        xv = x._view(0, tuple(x.shape[d] for d in order), tuple(x._strides[d] for d in order))
        ov = out._view(0, tuple(out.shape[d] for d in order), tuple(out._strides[d] for d in order))
    else:
        xv, ov = x, out
    core.sort(xv._h, ov._h, bool(descending), arg)
    return out if arg or kept is out.dtype else out.astype(kept)


_KINDS = (None, "quicksort", "mergesort", "heapsort", "stable")


def _numpy_args(x: Any, axis: int | None, kind: str | None, order: Any, name: str) -> tuple[Any, int]:
    """NumPy's spelling: ``axis=None`` sorts the flattened array; ``kind``
    names an algorithm, and every one gives the same (stable) result here;
    ``order`` is for structured arrays, which minarray does not have."""
    if kind not in _KINDS:
        raise ValueError(f"{name}: kind must be one of {', '.join(map(str, _KINDS[1:]))} or None, got {kind!r}")
    if order is not None:
        raise ValueError(f"{name}: order= sorts structured arrays by field, and minarray has none")
    if axis is None:
        return as_operand(x).reshape(-1), 0
    return x, axis


def sort(x: NDArray, /, axis: int | None = -1, kind: str | None = None, order: Any = None, *,
         descending: bool = False, stable: bool = True) -> NDArray:
    """A sorted copy of ``x`` along ``axis`` (``None``: of the flattened
    array, as NumPy).  The sort is stable whatever ``kind`` says."""
    if type(x) is not NDArray and _subclass.instance(x):
        return _subclass.through_method(sort, x, axis, kind, order, descending=descending, stable=stable)
    x, axis = _numpy_args(x, axis, kind, order, "sort")
    return _sort(x, axis, descending, False, "sort")


def argsort(x: NDArray, /, axis: int | None = -1, kind: str | None = None, order: Any = None, *,
            descending: bool = False, stable: bool = True) -> NDArray:
    """The int64 indices that sort ``x`` along ``axis`` (``None``: the
    flattened array).  Stable: equal elements keep their order, ascending
    or descending, whatever ``kind`` says."""
    if type(x) is not NDArray and _subclass.instance(x):
        return _subclass.through_method(argsort, x, axis, kind, order, descending=descending, stable=stable)
    x, axis = _numpy_args(x, axis, kind, order, "argsort")
    return _sort(x, axis, descending, True, "argsort")


def _searchsorted(x1: Any, x2: Any, side: str, sorter: Any) -> NDArray:
    x1 = as_operand(x1)
    if x1.ndim != 1:
        raise ValueError(f"searchsorted needs a 1-d sorted array x1, got {x1.ndim}-d")
    if side not in ("left", "right"):
        raise ValueError(f"side must be 'left' or 'right', not {side!r}")
    if isinstance(x2, (bool, int, float)):
        x2 = asarray(x2, dtype=_dt.scalar_dtype(x2, x1.dtype))
    else:
        x2 = as_operand(x2)
    _check_sortable(x1, "searchsorted")
    _check_sortable(x2, "searchsorted")
    if sorter is not None:
        s = as_operand(sorter)
        if s.ndim != 1 or s.shape[0] != x1.shape[0] or s.dtype.kind not in "iu":
            raise ValueError(f"sorter must be a 1-d integer array of x1's length {x1.shape[0]}")
        x1 = x1[s]
    common = _dt.promote(x1.dtype, x2.dtype)
    x1 = x1.astype(common, copy=False)._widened()
    x2 = x2.astype(common, copy=False)._widened()
    out = NDArray._empty(x2.shape, _dt.int64)
    core.searchsorted(x1._h, x2._h, out._h, side == "right")
    return out


def _kth(kth: Any, n: int) -> list[int]:
    ks = [kth] if not isinstance(kth, (list, tuple)) and not hasattr(kth, "__len__") else list(kth)
    if isinstance(kth, NDArray):
        ks = kth.reshape((-1,)).tolist()
    out = []
    for k in ks:
        i = as_int(k, "kth entry")
        if not -n <= i < n:
            raise ValueError(f"kth(={i}) out of bounds ({n})")
        out.append(i % n)
    return sorted(set(out))


def _partition(a: Any, kth: Any, axis: int | None, kind: str, order: Any, arg: bool, name: str) -> NDArray:
    if kind != "introselect":  # NumPy's one selection algorithm
        raise ValueError(f"select kind must be 'introselect' (got {kind!r})")
    if order is not None:
        raise ValueError(f"{name}: order= sorts structured arrays by field, and minarray has none")
    x = as_operand(a, name)
    _check_sortable(x, name)
    if axis is None:
        x, axis = x.reshape((-1,)), -1
    if x.ndim == 0:
        raise ValueError(f"{name} needs an array of at least one dimension, not a 0-d array")
    ax = normalize_axis(axis, x.ndim)
    ks = _kth(kth, x.shape[ax]) or [0]  # no position: any order is a partition
    kept, x = x.dtype, x._widened()
    out = NDArray._empty(x.shape, _dt.int64 if arg else x.dtype)
    nd = x.ndim
    order = (*[d for d in range(nd) if d != ax], ax)
    xv = x._view(0, tuple(x.shape[d] for d in order), tuple(x._strides[d] for d in order))
    ov = out._view(0, tuple(out.shape[d] for d in order), tuple(out._strides[d] for d in order))
    if x.size:
        core.partition(xv._h, ov._h, asarray(ks, dtype=_dt.int64)._h, arg)
    return out if arg or kept is out.dtype else out.astype(kept)


def partition(a: Any, kth: Any, axis: int | None = -1, kind: str = "introselect", order: Any = None) -> NDArray:
    """A copy of ``a`` with, along ``axis``, the element at each position
    ``kth`` where a sort would put it, the smaller-or-equal ones before and
    the larger-or-equal after, in no particular order (NumPy's
    ``partition``: an introselect in C, O(n) per position).  NaNs count as
    the largest values."""
    if type(a) is not NDArray and _subclass.instance(a):
        return _subclass.through_method(partition, a, kth, axis, kind, order)
    return _partition(a, kth, axis, kind, order, False, "partition")


def argpartition(a: Any, kth: Any, axis: int | None = -1, kind: str = "introselect",
                 order: Any = None) -> NDArray:
    """The int64 indices that would partition ``a`` (see :func:`partition`)."""
    if type(a) is not NDArray and _subclass.instance(a):
        return _subclass.through_method(argpartition, a, kth, axis, kind, order)
    return _partition(a, kth, axis, kind, order, True, "argpartition")


def lexsort(keys: Any, axis: int = -1) -> NDArray:
    """The indices that sort by several keys, the last key first (NumPy's
    ``lexsort``): stable argsorts from the least significant key up."""
    ks = list(keys) if not isinstance(keys, NDArray) else [keys[i] for i in range(keys.shape[0])]
    if not ks:
        raise TypeError("need sequence of keys with len > 0 in lexsort")
    arrs = [as_operand(_text_ranks(k), "lexsort") for k in ks]
    shape = arrs[0].shape
    if any(k.shape != shape for k in arrs):
        raise ValueError("all keys need to be the same shape")
    if not shape:
        return asarray(0)
    from minarray._indexing import take_along_axis  # cycle: _indexing imports this module (through _elementwise)

    ax = normalize_axis(axis, len(shape))
    idx: NDArray | None = None
    for k in arrs:
        if idx is None:
            idx = argsort(k, axis=ax)
        else:
            idx = take_along_axis(idx, argsort(take_along_axis(k, idx, axis=ax), axis=ax), axis=ax)
    assert idx is not None
    return idx


def _text_ranks(key: Any) -> Any:
    """A 1-d sequence of strings (or of bytes) as the ranks of its values in
    their sorted order: what lexsort needs of a key of text, which minarray
    cannot hold as an array.  Python orders str by code point and bytes by
    byte, as NumPy orders its str_ and bytes_ arrays."""
    if (not isinstance(key, (list, tuple)) or not key
            or not (all(isinstance(v, str) for v in key) or all(isinstance(v, bytes) for v in key))):
        return key
    rank = {v: i for i, v in enumerate(sorted(set(key)))}
    return [rank[v] for v in key]


def sort_complex(a: Any) -> NDArray:
    """A complex copy of ``a`` sorted along its last axis, by real part,
    then imaginary part (NaNs last, as NumPy orders complex values).
    Real input becomes complex as NumPy's ``sort_complex`` makes it: int8,
    uint8, int16 and uint16 complex64, every other real type complex128."""
    if type(a) is not NDArray:  # NumPy's gives a plain array
        a = _subclass.plain(a)
    x = as_operand(a, "sort_complex")
    if x.dtype.kind != "c":
        small = x.dtype in (_dt.int8, _dt.uint8, _dt.int16, _dt.uint16)
        return sort(x, axis=-1).astype(_dt.complex64 if small else _dt.complex128)
    return sort(x, axis=-1)
