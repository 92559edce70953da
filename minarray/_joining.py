"""Joining and splitting arrays (Array API "Manipulation Functions"):
``concat`` (NumPy's ``concatenate``), ``stack`` and ``unstack``; and beside
them NumPy's ``atleast_1d``/``2d``/``3d``, ``vstack``, ``hstack``,
``dstack``, ``column_stack``, ``block``, ``split``, ``array_split`` and
``hsplit``, ``vsplit``, ``dsplit``.

Each join allocates its result once, C-contiguous, and fills it by a few C
copies into views of it (``core.copyto`` broadcasts and casts), after the
views that give the inputs the dimensions NumPy's rule asks for; each
split returns views of the input (no copy), as NumPy's do.
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from typing import Any

from minarray import _dtypes as _dt
from minarray._array_object import NDArray, c_strides
from minarray._coerce import as_int, as_ints, as_operand, asarray, drop_axis, normalize_axis, write_out
from minarray._native import core

__all__ = [
    "concat", "concatenate", "stack", "unstack", "atleast_1d", "atleast_2d", "atleast_3d", "vstack", "hstack",
    "dstack", "column_stack", "split", "array_split", "hsplit", "vsplit", "dsplit", "block", "row_stack",
]


def _arrays(arrays: Any, fname: str) -> list[NDArray]:
    if isinstance(arrays, NDArray) or not isinstance(arrays, (tuple, list)):
        raise TypeError(f"{fname} expects a tuple or list of arrays, got {type(arrays).__name__}")
    if not arrays:
        raise ValueError(f"{fname} needs at least one array")
    return [as_operand(a, fname) for a in arrays]


def _result_dtype(arrs: list[NDArray]) -> _dt.DType:
    out = arrs[0].dtype
    for a in arrs[1:]:
        out = _dt.promote(out, a.dtype)
    return out


def concat(arrays: Sequence[NDArray] | tuple[NDArray, ...], /, axis: int | None = 0, out: NDArray | None = None, *,
           dtype: Any = None, casting: str = "same_kind") -> NDArray:
    """Join arrays along an existing axis (Array API ``concat``; NumPy's
    ``concatenate`` is the same object, so ``axis`` may be positional).

    All arrays need the same ndim (at least 1) and equal sizes except along
    ``axis``; the result dtype follows the promotion rules, or is NumPy's
    ``dtype=`` (each array cast to it under ``casting``).  ``axis=None``
    joins the flattened arrays.  ``out=`` receives the result.
    """
    if out is not None or dtype is not None:
        return _concat_options(arrays, axis, out, dtype, casting)
    if type(axis) is int and axis == 0 and type(arrays) in (list, tuple) and arrays:
        # The common case, NDArrays of one dtype joined along axis 0, without
        # the general route's promotion, validation and NDArray views (~5x
        # its cost for small arrays); anything else falls through to it.
        first = arrays[0]
        if type(first) is NDArray and first._shape:
            dt, rest, total = first._dtype, first._shape[1:], 0
            for a in arrays:
                if type(a) is not NDArray or a._dtype is not dt or not a._shape or a._shape[1:] != rest:
                    break
                total += a._shape[0]
            else:
                made: NDArray = core.ndarray_empty((total, *rest), dt, False)
                if total and 0 not in rest:
                    strides, step, off = made._strides, made._strides[0], 0
                    for a in arrays:
                        n = a._shape[0]
                        if n:  # a's rows of the result, seen with a's shape
                            core.copyto(core.view(made._h, off * step, a._shape, strides, dt.code, dt.bits, False),
                                        a._h)
                        off += n
                return made
    arrs = _arrays(arrays, "concat")
    return _concat(arrs, axis, _result_dtype(arrs))


def _concat_options(arrays: Any, axis: int | None, out: NDArray | None, dtype: Any, casting: str) -> NDArray:
    """concat with NumPy's ``out=``, ``dtype=`` and ``casting=``: the
    arrays cast to ``dtype`` (or out's dtype) under ``casting``, the result
    computed first, then written to ``out``."""
    if out is not None and dtype is not None:
        raise TypeError("concatenate() only takes `out` or `dtype` as an argument, but both were provided.")
    if casting not in _dt.CASTING:
        raise ValueError(f"casting must be one of 'no', 'equiv', 'safe', 'same_kind', or 'unsafe', not {casting!r}")
    arrs = _arrays(arrays, "concat")
    dt = _dt.as_dtype(dtype) if dtype is not None else _result_dtype(arrs)
    target = dt if out is None else asarray(out).dtype
    for a in arrs:
        if not _dt.casting_allows(a.dtype, target, casting):
            raise TypeError(f"Cannot cast array data from dtype('{a.dtype}') to dtype('{target}') according to "
                            f"the rule {casting!r}")
    return write_out(out, _concat(arrs, axis, dt), "concatenate", "unsafe")


def _concat(arrs: list[NDArray], axis: int | None, dt: _dt.DType) -> NDArray:
    if axis is None:
        out = NDArray._empty((sum(a.size for a in arrs),), dt)
        off = 0
        for a in arrs:
            if a.size:
                # a C-contiguous stretch of the result seen with a's shape
                core.copyto(out._view(off, a.shape, c_strides(a.shape))._h, a._h)
            off += a.size
        return out
    first = arrs[0]
    nd = first.ndim
    if nd == 0:
        raise ValueError("concat: zero-dimensional arrays cannot be concatenated (use stack)")
    for i, a in enumerate(arrs):
        if a.ndim != nd:
            raise ValueError(  # NumPy's words
                f"all the input arrays must have same number of dimensions, but the array at index 0 has {nd} "
                f"dimension(s) and the array at index {i} has {a.ndim} dimension(s)"
            )
    ax = normalize_axis(axis, nd)
    for i, a in enumerate(arrs):
        if drop_axis(a.shape, ax) != drop_axis(first.shape, ax):
            d = next(d for d in range(nd) if d != ax and a.shape[d] != first.shape[d])
            raise ValueError(  # NumPy's words
                f"all the input array dimensions except for the concatenation axis must match exactly, but along "
                f"dimension {d}, the array at index 0 has size {first.shape[d]} and the array at index {i} has "
                f"size {a.shape[d]}"
            )
    shape = (*first.shape[:ax], sum(a.shape[ax] for a in arrs), *first.shape[ax + 1:])
    out = NDArray._empty(shape, dt)
    step = out._strides[ax]
    off = 0
    for a in arrs:
        n = a.shape[ax]
        if n and a.size:
            core.copyto(out._view(off * step, a.shape, out._strides)._h, a._h)
        off += n
    return out


concatenate = concat  # NumPy's spelling: the same object


def stack(arrays: Sequence[NDArray] | tuple[NDArray, ...], /, axis: int = 0, out: NDArray | None = None, *,
          dtype: Any = None, casting: str = "same_kind") -> NDArray:
    """Join arrays of one shape along a new axis (Array API ``stack``).
    ``axis`` indexes the result, so it lies in [-(ndim + 1), ndim].
    NumPy's ``out=``, ``dtype=`` and ``casting=`` as :func:`concat`'s."""
    if out is not None or dtype is not None:
        arrs = _arrays(arrays, "stack")
        if len({a.shape for a in arrs}) > 1:
            raise ValueError("all input arrays must have the same shape")
        ax = normalize_axis(axis, arrs[0].ndim + 1)
        # each array with a length-1 axis at ax, joined along it
        return _concat_options([a.reshape((*a.shape[:ax], 1, *a.shape[ax:])) for a in arrs], ax, out, dtype,
                               casting)
    arrs = _arrays(arrays, "stack")
    shape = arrs[0].shape
    for i, a in enumerate(arrs):
        if a.shape != shape:
            raise ValueError(
                f"stack: all arrays need the same shape, but array 0 has shape {shape} "
                f"and array {i} has shape {a.shape}"
            )
    ax = normalize_axis(axis, len(shape) + 1)
    out = NDArray._empty((*shape[:ax], len(arrs), *shape[ax:]), _result_dtype(arrs))
    step = out._strides[ax]
    strides = drop_axis(out._strides, ax)
    if out.size:
        for i, a in enumerate(arrs):
            core.copyto(out._view(i * step, shape, strides)._h, a._h)
    return out


def unstack(x: NDArray, /, *, axis: int = 0) -> tuple[NDArray, ...]:
    """Split ``x`` along ``axis`` into a tuple of views (Array API
    ``unstack``), the inverse of :func:`stack`."""
    x = as_operand(x, "unstack")
    if x.ndim == 0:
        raise ValueError("unstack: a 0-dimensional array has no axis to split along")
    ax = normalize_axis(axis, x.ndim)
    shape, strides, step = drop_axis(x.shape, ax), drop_axis(x._strides, ax), x._strides[ax]
    return tuple(x._view(i * step, shape, strides) for i in range(x.shape[ax]))


def _at_least(x: Any, n: int) -> NDArray:
    a = as_operand(x)
    if a.ndim >= n:
        return a
    if n == 1 or a.ndim == 0:
        shape: tuple[int, ...] = (1,) * (n - a.ndim) + a.shape
    elif n == 2 or a.ndim == 2:  # (N,) -> (1, N); (M, N) -> (M, N, 1)
        shape = (1, *a.shape) if n == 2 else (*a.shape, 1)
    else:  # (N,) -> (1, N, 1)
        shape = (1, *a.shape, 1)
    return a.reshape(shape)


def _atleast(arys: tuple[Any, ...], n: int) -> Any:
    out = tuple(_at_least(a, n) for a in arys)
    return out[0] if len(out) == 1 else out


def atleast_1d(*arys: Any) -> Any:
    """Each input as an array of at least one dimension (a 0-d array
    becomes shape (1,)); one array for one input, else a tuple."""
    return _atleast(arys, 1)


def atleast_2d(*arys: Any) -> Any:
    """Each input with at least two dimensions: (N,) becomes (1, N)."""
    return _atleast(arys, 2)


def atleast_3d(*arys: Any) -> Any:
    """Each input with at least three dimensions: (N,) becomes (1, N, 1)
    and (M, N) becomes (M, N, 1), as NumPy's."""
    return _atleast(arys, 3)


def _seq(tup: Any, fname: str) -> list[Any]:
    if isinstance(tup, NDArray) or not isinstance(tup, (tuple, list)):
        raise TypeError(f"{fname} expects a sequence of arrays (a list or tuple), got {type(tup).__name__}")
    if not tup:
        raise ValueError("need at least one array to concatenate")
    return list(tup)


def vstack(tup: Sequence[Any], *, dtype: Any = None, casting: str = "same_kind") -> NDArray:
    """Stack arrays row-wise: :func:`concat` along axis 0 after
    :func:`atleast_2d` (1-d arrays become rows); ``dtype`` and ``casting``
    are concat's."""
    return concat([_at_least(a, 2) for a in _seq(tup, "vstack")], 0, dtype=dtype, casting=casting)


def row_stack(tup: Sequence[Any], *, dtype: Any = None, casting: str = "same_kind") -> NDArray:
    """NumPy's old name of :func:`vstack`, deprecated since NumPy 2.0: it
    warns (DeprecationWarning) as NumPy's does, then stacks."""
    warnings.warn("`row_stack` alias is deprecated. Use `vstack` directly.", DeprecationWarning, stacklevel=2)
    return vstack(tup, dtype=dtype, casting=casting)


def hstack(tup: Sequence[Any], *, dtype: Any = None, casting: str = "same_kind") -> NDArray:
    """Stack arrays column-wise: along axis 1, or axis 0 for 1-d arrays."""
    arrs = [_at_least(a, 1) for a in _seq(tup, "hstack")]
    return concat(arrs, 0 if arrs[0].ndim == 1 else 1, dtype=dtype, casting=casting)


def dstack(tup: Sequence[Any]) -> NDArray:
    """Stack arrays depth-wise: along axis 2 after :func:`atleast_3d`."""
    return concat([_at_least(a, 3) for a in _seq(tup, "dstack")], axis=2)


def column_stack(tup: Sequence[Any]) -> NDArray:
    """1-d arrays as the columns of a 2-d array (2-d arrays join as they
    are), along axis 1."""
    arrs = []
    for a in _seq(tup, "column_stack"):
        x = as_operand(a)
        arrs.append(x.reshape((x.shape[0], 1)) if x.ndim == 1 else _at_least(x, 2))
    return concat(arrs, axis=1)


def _along(x: NDArray, ax: int, start: int, stop: int) -> NDArray:
    return x[(slice(None),) * ax + (slice(start, stop),)]


def array_split(ary: Any, indices_or_sections: Any, axis: int = 0) -> list[NDArray]:
    """Split ``ary`` along ``axis`` into views: an integer N gives N parts,
    the first ``len % N`` one element longer; a sequence of indices gives
    the parts between them (as slices: indices past the end give empty
    parts)."""
    x = as_operand(ary, "array_split")
    if x.ndim == 0:
        raise ValueError("array_split: a 0-d array cannot be split (it has no axis)")
    ax = normalize_axis(axis, x.ndim)
    n = x.shape[ax]
    if isinstance(indices_or_sections, (tuple, list, NDArray)) or hasattr(indices_or_sections, "__len__"):
        idx = indices_or_sections
        if isinstance(idx, NDArray) or hasattr(idx, "__array_interface__"):
            idx = as_operand(idx).tolist()
        bounds = [0, *as_ints(list(idx), "indices_or_sections entry"), n]
    else:
        sections = as_int(indices_or_sections, "indices_or_sections")
        if sections <= 0:
            raise ValueError("number sections must be larger than 0.")
        each, extra = divmod(n, sections)
        bounds = [0]
        for i in range(sections):
            bounds.append(bounds[-1] + each + (1 if i < extra else 0))
    return [_along(x, ax, bounds[i], bounds[i + 1]) for i in range(len(bounds) - 1)]


def split(ary: Any, indices_or_sections: Any, axis: int = 0) -> list[NDArray]:
    """:func:`array_split` where an integer N must divide the axis length
    evenly (ValueError otherwise, as NumPy's)."""
    x = as_operand(ary, "split")
    if not (isinstance(indices_or_sections, (tuple, list, NDArray)) or hasattr(indices_or_sections, "__len__")):
        sections = as_int(indices_or_sections, "indices_or_sections")
        if x.ndim and sections > 0 and x.shape[normalize_axis(axis, x.ndim)] % sections:
            raise ValueError("array split does not result in an equal division")
    return array_split(x, indices_or_sections, axis)


def hsplit(ary: Any, indices_or_sections: Any) -> list[NDArray]:
    """:func:`split` along axis 1 (axis 0 for 1-d arrays)."""
    x = as_operand(ary, "hsplit")
    if x.ndim == 0:
        raise ValueError("hsplit only works on arrays of 1 or more dimensions")
    return split(x, indices_or_sections, 1 if x.ndim > 1 else 0)


def vsplit(ary: Any, indices_or_sections: Any) -> list[NDArray]:
    """:func:`split` along axis 0 (arrays of 2 or more dimensions)."""
    x = as_operand(ary, "vsplit")
    if x.ndim < 2:
        raise ValueError("vsplit only works on arrays of 2 or more dimensions")
    return split(x, indices_or_sections, 0)


def dsplit(ary: Any, indices_or_sections: Any) -> list[NDArray]:
    """:func:`split` along axis 2 (arrays of 3 or more dimensions)."""
    x = as_operand(ary, "dsplit")
    if x.ndim < 3:
        raise ValueError("dsplit only works on arrays of 3 or more dimensions")
    return split(x, indices_or_sections, 2)


def _depth(x: Any, fname: str) -> int:
    if isinstance(x, tuple):
        raise TypeError(f"{fname} does not take tuples: nest lists of arrays")
    if isinstance(x, list):
        if not x:
            raise ValueError("List at arrays cannot be empty")
        depths = {_depth(p, fname) for p in x}
        if len(depths) != 1:
            raise ValueError("List depths are mismatched: every list of a level must hold lists, or arrays")
        return 1 + depths.pop()
    return 0


def block(arrays: Any) -> NDArray:
    """An array assembled from nested lists of blocks (NumPy's ``block``):
    the innermost lists join along the last axis, the next ones along the
    second-to-last, and so on; blocks get leading length-1 axes up to the
    result's dimensions."""
    depth = _depth(arrays, "block")

    def leaves(x: Any) -> list[NDArray]:
        return [a for p in x for a in leaves(p)] if isinstance(x, list) else [as_operand(x, "block")]

    ndim = max(depth, max(a.ndim for a in leaves(arrays)))

    def build(x: Any, level: int) -> NDArray:
        if not isinstance(x, list):
            a = as_operand(x, "block")
            return a.reshape((1,) * (ndim - a.ndim) + a.shape)
        return concat([build(p, level + 1) for p in x], axis=-(depth - level))

    return build(arrays, 0)
