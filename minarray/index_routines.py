"""NumPy's indexing routines: index arrays (``unravel_index``,
``ravel_multi_index``, ``tril_indices``, ``triu_indices`` and their
``_from`` forms, ``diag_indices``, ``ix_``) and gathers and scatters by
position or mask (``extract``, ``compress``, ``put``, ``place``,
``put_along_axis``).

Gathers go through :func:`minarray.take` and scatters through indexed
assignment (the C gather/scatter kernels of csrc/core/gather.c); index
arithmetic is elementwise.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any, SupportsIndex

from minarray import dtypes as _dt
from minarray import elementwise as _ew
from minarray._args import as_int, as_ints
from minarray.creation import arange, as_operand, asarray
from minarray.indexing import nonzero
from minarray.manipulation import take
from minarray.ndarray import NDArray
from minarray.reductions import any as _any
from minarray.reductions import count_nonzero
from minarray.views import broadcast_to, normalize_axis

_INT64_MAX = 2**63 - 1

__all__ = [
    "unravel_index", "ravel_multi_index", "tril_indices", "triu_indices", "tril_indices_from",
    "triu_indices_from", "diag_indices", "ix_", "extract", "compress", "put", "place", "put_along_axis",
    "select", "choose",
]


def _ints(x: Any, fname: str) -> NDArray:
    a = as_operand(x, fname)
    if a.dtype.kind not in "iu":
        raise TypeError(f"{fname}: only int indices permitted, got {a.dtype}")
    return a.astype(_dt.int64, copy=False)


def _flat_dims(dims: Any, fname: str) -> tuple[tuple[int, ...], int]:
    """``dims`` as a shape and its size, when flat indices into it fit in
    int64 (the dtype they are computed in): ValueError, as NumPy's, for a
    shape no array could have, rather than indices that wrap.  As for an
    allocation, zero dims are left out of the product: (2**40, 2**40, 0)
    is refused too."""
    shape = as_ints(dims, f"{fname}: dims entry")
    if any(n < 0 for n in shape):
        raise ValueError(f"{fname}: negative dimensions are not allowed, got dims {shape}")
    if math.prod(n for n in shape if n) > _INT64_MAX:
        raise ValueError(f"{fname}: invalid dims {shape}: the array size they define is larger than the maximum "
                         f"possible size (2**63 - 1 elements)")
    return shape, math.prod(shape)


def unravel_index(indices: Any, shape: Sequence[int] | SupportsIndex) -> tuple[NDArray, ...]:
    """The coordinates, one int64 array per axis of ``shape``, of flat
    (C-order) ``indices``; ValueError for an index outside the array."""
    dims, size = _flat_dims(shape, "unravel_index")
    idx = _ints(indices, "unravel_index")
    if idx.size and bool(_any(_ew.logical_or(_ew.less(idx, 0), _ew.greater_equal(idx, size)))):
        bad = next(i for i in idx.reshape((-1,)).tolist() if not 0 <= i < size)
        raise ValueError(f"index {bad} is out of bounds for array with size {size}")
    out = []
    rest = idx
    for d in reversed(dims):
        out.append(_ew.remainder(rest, d) if d else rest)
        rest = _ew.floor_divide(rest, d) if d else rest
    return tuple(reversed(out))


def ravel_multi_index(multi_index: Sequence[Any], dims: Sequence[int], mode: str = "raise") -> NDArray:
    """The flat (C-order) indices of coordinate arrays ``multi_index`` in
    an array of shape ``dims``; ``mode`` "raise", "wrap" or "clip" for
    coordinates out of range."""
    shape, _ = _flat_dims(dims, "ravel_multi_index")
    if len(multi_index) != len(shape):
        raise ValueError(f"parameter multi_index must be a sequence of length {len(shape)}")
    if mode not in ("raise", "wrap", "clip"):
        raise ValueError(f"clipmode must be one of 'clip', 'raise', or 'wrap', not {mode!r}")
    flat: NDArray | None = None
    for coord, n in zip(multi_index, shape, strict=True):
        c = _ints(coord, "ravel_multi_index")
        if n == 0 and c.size:  # no coordinate is valid, and wrap or clip has none to map to
            raise ValueError(f"ravel_multi_index: cannot ravel coordinates into dims {shape}: it has zero entries")
        if mode == "wrap":
            c = _ew.remainder(c, n)
        elif mode == "clip":
            c = _ew.clip(c, 0, n - 1)
        elif c.size and bool(_any(_ew.logical_or(_ew.less(c, 0), _ew.greater_equal(c, n)))):
            raise ValueError("invalid entry in coordinates array")
        flat = c if flat is None else _ew.add(_ew.multiply(flat, n), c)
    assert flat is not None
    return flat


def tril_indices(n: int, k: int = 0, m: int | None = None) -> tuple[NDArray, NDArray]:
    """The (row, column) indices of the lower triangle of an ``n`` x ``m``
    array (at and below diagonal ``k``), in row-major order."""
    from minarray.constructors import tri

    r, c = nonzero(tri(n, m, k, dtype=_dt.bool))
    return r, c


def triu_indices(n: int, k: int = 0, m: int | None = None) -> tuple[NDArray, NDArray]:
    """The (row, column) indices of the upper triangle (at and above
    diagonal ``k``), in row-major order."""
    from minarray.constructors import tri

    r, c = nonzero(_ew.logical_not(tri(n, m, as_int(k, "triu_indices: k") - 1, dtype=_dt.bool)))
    return r, c


def _matrix_shape(arr: Any, fname: str) -> tuple[int, int]:
    a = as_operand(arr, fname)
    if a.ndim != 2:
        raise ValueError("input array must be 2-d")
    return a.shape[0], a.shape[1]


def tril_indices_from(arr: Any, k: int = 0) -> tuple[NDArray, NDArray]:
    """:func:`tril_indices` for the shape of the 2-d ``arr``."""
    n, m = _matrix_shape(arr, "tril_indices_from")
    return tril_indices(n, k, m)


def triu_indices_from(arr: Any, k: int = 0) -> tuple[NDArray, NDArray]:
    """:func:`triu_indices` for the shape of the 2-d ``arr``."""
    n, m = _matrix_shape(arr, "triu_indices_from")
    return triu_indices(n, k, m)


def diag_indices(n: int, ndim: int = 2) -> tuple[NDArray, ...]:
    """The indices of the main diagonal of an ``n`` x ... x ``n`` array:
    ``ndim`` copies of ``arange(n)``."""
    idx = arange(as_int(n, "diag_indices: n"))
    return (idx,) * as_int(ndim, "diag_indices: ndim")


def ix_(*args: Any) -> tuple[NDArray, ...]:
    """An open mesh: each 1-d sequence reshaped to broadcast along its own
    axis, so ``x[ix_(rows, cols)]`` picks the cross product (boolean
    sequences become the indices of their True entries)."""
    out = []
    n = len(args)
    for k, seq in enumerate(args):
        a = as_operand(seq, "ix_") if not (isinstance(seq, (list, tuple)) and len(seq) == 0) \
            else asarray([], dtype=_dt.int64)
        if a.ndim != 1:
            raise ValueError("Cross index must be 1 dimensional")
        if a.dtype.kind == "b":
            a = nonzero(a)[0]
        out.append(a.reshape((1,) * k + (a.shape[0],) + (1,) * (n - k - 1)))
    return tuple(out)


def extract(condition: Any, arr: Any) -> NDArray:
    """The elements of the flattened ``arr`` where the flattened
    ``condition`` is non-zero (1-d)."""
    flat = as_operand(arr, "extract").reshape((-1,))
    return take(flat, nonzero(as_operand(condition, "extract").reshape((-1,)))[0])


def compress(condition: Any, a: Any, axis: int | None = None) -> NDArray:
    """The slices of ``a`` along ``axis`` (the flattened array when None)
    where the 1-d ``condition`` is true."""
    c = as_operand(condition, "compress")
    if c.ndim != 1:
        raise ValueError("condition must be a 1-d array")
    x = as_operand(a, "compress")
    if axis is None:
        x, axis = x.reshape((-1,)), 0
    n = x.shape[normalize_axis(axis, x.ndim)]
    idx = nonzero(c)[0]
    if idx.shape[0] and int(idx[-1]) >= n:
        raise IndexError(f"index {int(idx[-1])} is out of bounds for axis {axis} with size {n}")
    return take(x, idx, axis=axis)


def _cycled(values: Any, n: int, dtype: _dt.DType, fname: str) -> NDArray:
    """``values`` flattened and repeated to ``n`` elements (NumPy's put and
    place), in ``dtype``."""
    v = as_operand(values, fname).reshape((-1,)).astype(dtype, copy=False)
    if v.shape[0] == n:
        return v
    if v.shape[0] == 0:
        raise ValueError(f"{fname}: cannot fill {n} positions from an empty values array")
    return take(v, _ew.remainder(arange(n), v.shape[0]))


def put(a: NDArray, ind: Any, v: Any, mode: str = "raise") -> None:
    """Write ``v`` (repeated as needed) at the flat indices ``ind`` of
    ``a``, in place; ``mode`` "raise", "wrap" or "clip" for indices out of
    range.  Where an index repeats, the last value wins."""
    if not isinstance(a, NDArray):
        raise TypeError(f"put: argument a must be a minarray NDArray, got {type(a).__name__}")
    idx = _ints(ind, "put").reshape((-1,))
    n = a.size
    if n == 0 and idx.size:  # wrap and clip would divide or clip by the size 0
        raise IndexError("put: cannot replace elements of an empty array")
    if mode == "wrap":
        idx = _ew.remainder(idx, n)
    elif mode == "clip":
        idx = _ew.clip(idx, 0, n - 1)
    elif mode != "raise":
        raise ValueError(f"clipmode must be one of 'clip', 'raise', or 'wrap', not {mode!r}")
    elif idx.size and bool(_any(_ew.logical_or(_ew.less(idx, -n), _ew.greater_equal(idx, n)))):
        bad = next(i for i in idx.tolist() if not -n <= i < n)
        raise IndexError(f"index {bad} is out of bounds for axis 0 with size {n}")
    if idx.size == 0:
        return
    vals = _cycled(v, idx.shape[0], a.dtype, "put")
    if a.ndim == 0:
        a[()] = vals[-1]
        return
    a[unravel_index(_ew.remainder(idx, n), a.shape)] = vals


def place(arr: NDArray, mask: Any, vals: Any) -> None:
    """Write ``vals`` (repeated as needed) where ``mask`` is true, in place,
    in C order."""
    if not isinstance(arr, NDArray):
        raise TypeError(f"place: argument arr must be a minarray NDArray, got {type(arr).__name__}")
    m = as_operand(mask, "place").astype(_dt.bool, copy=False)
    if m.shape != arr.shape:
        m = broadcast_to(m, arr.shape)
    count = int(count_nonzero(m))
    if count:
        arr[m] = _cycled(vals, count, arr.dtype, "place")


def put_along_axis(arr: NDArray, indices: Any, values: Any, axis: int | None) -> None:
    """Write ``values`` at ``indices`` along ``axis`` of ``arr``, in place:
    the scatter matching :func:`minarray.take_along_axis`."""
    if not isinstance(arr, NDArray):
        raise TypeError(f"put_along_axis: argument arr must be a minarray NDArray, got {type(arr).__name__}")
    idx = _ints(indices, "put_along_axis")
    if axis is None:
        if idx.ndim != 1:
            raise ValueError("when axis=None, `indices` must have a single dimension.")
        put(arr, idx, values)  # flat indices, written in place
        return
    ax = normalize_axis(axis, arr.ndim)
    if idx.ndim != arr.ndim:
        raise ValueError("`indices` and `arr` must have the same number of dimensions")
    from minarray.views import broadcast_shapes

    shape = broadcast_shapes(tuple(1 if d == ax else s for d, s in enumerate(arr.shape)), idx.shape)
    idx = broadcast_to(idx, shape)
    key = []
    for d in range(arr.ndim):
        if d == ax:
            key.append(idx)
        else:
            key.append(broadcast_to(arange(shape[d]).reshape(tuple(-1 if e == d else 1 for e in range(arr.ndim))),
                                    shape))
    v = as_operand(values, "put_along_axis").astype(arr.dtype, copy=False)
    arr[tuple(key)] = broadcast_to(v, shape)


def select(condlist: Sequence[Any], choicelist: Sequence[Any], default: Any = 0) -> NDArray:
    """Per element, the entry of the first choice whose condition holds,
    else ``default`` (all broadcast; the choices' dtypes promote)."""
    if len(condlist) != len(choicelist):
        raise ValueError("list of cases must be same length as list of conditions")
    if len(choicelist) == 0:
        raise ValueError("select with an empty condition list is not possible")
    choices = [c if isinstance(c, (bool, int, float, complex)) else as_operand(c, "select") for c in choicelist]
    conds = []
    for i, c in enumerate(condlist):
        ca = as_operand(c, "select")
        if ca.dtype.kind != "b":
            raise TypeError(f"invalid entry {i} in condlist: should be boolean ndarray")
        conds.append(ca)
    dt = _dt.result_type(*choices, default)
    out: Any = default
    for cond, choice in zip(reversed(conds), reversed(choices), strict=True):
        out = _ew.where(cond, choice, out)
    res = as_operand(out)
    return res if res.dtype is dt else res.astype(dt)


def choose(a: Any, choices: Sequence[Any], mode: str = "raise") -> NDArray:
    """Per element, ``choices[a[i]][i]`` (all broadcast together); ``mode``
    "raise", "wrap" or "clip" for indices outside ``range(len(choices))``."""
    from minarray.manipulation import stack, take_along_axis
    from minarray.views import broadcast_arrays

    idx = _ints(a, "choose")
    n = len(choices)
    if n == 0:
        raise ValueError("choose: choices must not be empty")
    if mode == "wrap":
        idx = _ew.remainder(idx, n)
    elif mode == "clip":
        idx = _ew.clip(idx, 0, n - 1)
    elif mode != "raise":
        raise ValueError(f"clipmode must be one of 'clip', 'raise', or 'wrap', not {mode!r}")
    elif idx.size and bool(_any(_ew.logical_or(_ew.less(idx, 0), _ew.greater_equal(idx, n)))):
        raise ValueError("invalid entry in choice array")
    arrs = broadcast_arrays(idx, *[as_operand(c, "choose") for c in choices])
    stacked = stack(list(arrs[1:]), axis=0)
    return take_along_axis(stacked, arrs[0][None], axis=0)[0]
