"""NumPy's array constructors beyond the Array API's: ``array``, ``copy``,
``asanyarray``, ``ascontiguousarray``, ``identity``, ``diag``,
``diagflat``, ``tri``, ``vander``, ``logspace``, ``geomspace``,
``indices``, ``fromfunction``, ``fromiter`` and the ``mgrid``/``ogrid``
grids.  (``frombuffer`` lives with the other byte-level routines in
:mod:`minarray.bufferio`.)

Each is a thin layer over :mod:`minarray.creation` (one allocation, C
fills and copies): ``diag`` writes through a strided view of a zeroed
matrix, ``logspace`` raises ``base`` to :func:`minarray.linspace`'s values
as NumPy does.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

from minarray import dtypes as _dt
from minarray._args import as_int, as_intp, as_ints
from minarray._native import core
from minarray.creation import as_operand, asarray, eye, linspace, ones, tril, zeros
from minarray.elementwise import add as _add
from minarray.elementwise import multiply as _mul
from minarray.elementwise import pow as _pow
from minarray.ndarray import NDArray
from minarray.views import broadcast_to

__all__ = [
    "array", "copy", "asanyarray", "ascontiguousarray", "identity", "diag", "diagflat", "tri",
    "logspace", "geomspace", "indices", "fromfunction", "mgrid", "ogrid", "vander", "fromiter",
]


def array(object: Any, dtype: Any = None, *, copy: bool | None = True, ndmin: int = 0) -> NDArray:
    """NumPy's ``array``: a new array from ``object`` (nested sequences,
    scalars, buffers, NDArrays or other arrays).  Unlike :func:`asarray`
    it copies by default; ``copy=None`` copies only when needed and
    ``copy=False`` never (ValueError when it would have to).  ``ndmin``
    prepends length-1 axes up to that many dimensions."""
    out = asarray(object, dtype=dtype, copy=copy)
    nd = as_int(ndmin, "array: ndmin")
    if out.ndim < nd:
        out = out.reshape((1,) * (nd - out.ndim) + out.shape)
    return out


def copy(a: Any, order: str = "K") -> NDArray:
    """A copy of ``a`` that owns its memory (NumPy's ``copy``: the axes keep
    their memory order with the default ``order="K"``)."""
    return as_operand(a, "copy").copy(order)


def asanyarray(a: Any, dtype: Any = None) -> NDArray:
    """NumPy's ``asanyarray``: :func:`asarray` (minarray has no array
    subclasses to pass through)."""
    return asarray(a, dtype=dtype)


def ascontiguousarray(a: Any, dtype: Any = None) -> NDArray:
    """``a`` as a C-contiguous array of at least one dimension: itself when
    it already is one (and of ``dtype``), else a copy."""
    out = asarray(a, dtype=dtype)
    if out.ndim == 0:
        out = out.reshape((1,))
    return out if out.flags.c_contiguous else out.copy()


def identity(n: int, dtype: Any = None) -> NDArray:
    """The ``n`` x ``n`` identity matrix (float64 unless ``dtype``)."""
    return eye(as_int(n, "identity: n"), dtype=dtype)


def diag(v: Any, k: int = 0) -> NDArray:
    """For a 1-d ``v``, a 2-d array with ``v`` on diagonal ``k``; for a 2-d
    ``v``, its diagonal ``k`` (a read-only view, as NumPy's)."""
    x = as_operand(v, "diag")
    k = as_int(k, "diag: k")
    if x.ndim == 1:
        n = x.shape[0] + abs(k)
        out = zeros((n, n), dtype=x.dtype)
        if x.shape[0]:
            start = k if k >= 0 else -k * n
            core.copyto(out._view(start, x.shape, (n + 1,))._h, x._h)
        return out
    if x.ndim == 2:
        from minarray.linalg._matrix import diagonal

        return diagonal(x, offset=k)
    raise ValueError(f"Input must be 1- or 2-d (diag got shape {x.shape}).")


def diagflat(v: Any, k: int = 0) -> NDArray:
    """A 2-d array with the flattened ``v`` on diagonal ``k``."""
    return diag(as_operand(v, "diagflat").reshape((-1,)), k)


def tri(N: int, M: int | None = None, k: int = 0, dtype: Any = None) -> NDArray:
    """An ``N`` x ``M`` array with ones at and below diagonal ``k`` and
    zeros above (float64 unless ``dtype``)."""
    n = as_int(N, "tri: N")
    m = n if M is None else as_int(M, "tri: M")
    return tril(ones((n, m), dtype=dtype), k=as_int(k, "tri: k"))


def _bound(v: Any, what: str) -> float:
    if isinstance(v, NDArray):
        if v.ndim:
            raise TypeError(f"{what} must be a scalar here (array bounds are not supported), got shape {v.shape}")
        v = v.item()
    if isinstance(v, complex):
        raise TypeError(f"complex {what} is not supported")
    return float(v)


def logspace(start: Any, stop: Any, num: int = 50, endpoint: bool = True, base: float = 10.0,
             dtype: Any = None) -> NDArray:
    """``num`` numbers spaced evenly on a log scale: ``base ** linspace(start,
    stop, num)``, computed in float64 as NumPy does, then cast to ``dtype``."""
    y = linspace(_bound(start, "start"), _bound(stop, "stop"), num, endpoint=endpoint)
    out = _pow(float(base), y)
    return out if dtype is None else out.astype(dtype)


def geomspace(start: Any, stop: Any, num: int = 50, endpoint: bool = True, dtype: Any = None) -> NDArray:
    """``num`` numbers from ``start`` to ``stop`` in a geometric progression
    (both of one sign, neither zero); the ends are exactly ``start`` and
    ``stop``."""
    a, b = _bound(start, "start"), _bound(stop, "stop")
    if a == 0 or b == 0:
        raise ValueError("Geometric sequence cannot include zero")
    sign = 1.0
    if a < 0 and b < 0:
        a, b, sign = -a, -b, -1.0
    elif a < 0 or b < 0:
        raise ValueError("geomspace: start and stop of opposite signs need complex numbers, "
                         "which minarray's geomspace does not support")
    out = logspace(math.log10(a), math.log10(b), num, endpoint=endpoint)
    n = out.shape[0]
    if n:
        out[0] = a
        if endpoint and n > 1:
            out[-1] = b
    if sign < 0:
        out = -out
    return out if dtype is None else out.astype(dtype)


def indices(dimensions: Sequence[int], dtype: Any = None) -> NDArray:
    """An array of shape ``(len(dimensions), *dimensions)`` whose ``i``-th
    entry holds each element's index along axis ``i`` (int64 unless
    ``dtype``)."""
    dims = as_ints(dimensions, "indices: dimensions entry")
    dt = _dt.int64 if dtype is None else _dt.as_dtype(dtype)
    out = NDArray._empty((len(dims), *dims), dt)
    from minarray.creation import arange

    for i, n in enumerate(dims):
        axis = arange(n, dtype=dt).reshape(tuple(n if j == i else 1 for j in range(len(dims))))
        if out[i].size:
            core.copyto(out[i]._h, broadcast_to(axis, dims)._h)
    return out


def fromfunction(function: Callable[..., Any], shape: Sequence[int], *, dtype: Any = None,
                 **kwargs: Any) -> Any:
    """``function`` called once with one coordinate array per axis (each of
    ``shape``, float64 unless ``dtype``), as NumPy's ``fromfunction``."""
    dt = _dt.float64 if dtype is None else _dt.as_dtype(dtype)
    return function(*indices(shape, dtype=dt), **kwargs)


class _Grid:
    """``mgrid[0:5, 0:3]`` and ``ogrid[...]``: coordinate grids from slices
    (NumPy's ``nd_grid``).  A step ``Nj`` (imaginary) means N points from
    start to stop inclusive; otherwise the step is arange's.  Integer
    slices give int64, any float float64.  ``mgrid`` stacks dense grids
    in one array; ``ogrid`` gives open (broadcastable) ones."""

    def __init__(self, sparse: bool) -> None:
        self.sparse = sparse

    def __getitem__(self, key: Any) -> Any:
        from minarray.creation import arange

        if isinstance(key, slice):
            start = 0 if key.start is None else key.start
            if isinstance(key.step, complex):
                n = int(abs(key.step))
                step = (key.stop - start) / float(n - 1) if n != 1 else 1
                # NumPy: the type of start, stop and the float |step|
                return _add(_mul(arange(0, n, 1, dtype=_dt.float64), step), start)
            return arange(start, key.stop, 1 if key.step is None else key.step)
        keys = tuple(key)
        sizes, steps, starts = [], [], []
        floating = False
        for k in keys:
            if not isinstance(k, slice):
                raise TypeError(f"grid indices must be slices, got {k!r}")
            start = 0 if k.start is None else k.start
            step = 1 if k.step is None else k.step
            if isinstance(step, complex):
                n = int(abs(step))
                sizes.append(n)
                steps.append((k.stop - start) / float(n - 1) if n != 1 else 1)
                floating = True
            else:
                sizes.append(max(math.ceil((k.stop - start) / (step * 1.0)), 0))
                steps.append(step)
                floating = floating or any(isinstance(v, float) for v in (start, k.stop, step))
            starts.append(start)
        dt = _dt.float64 if floating else _dt.int64
        if self.sparse:
            out = []
            for i, (n, st, s0) in enumerate(zip(sizes, steps, starts, strict=True)):
                g = _add(_mul(arange(n, dtype=dt), st), s0).astype(dt, copy=False)
                out.append(g.reshape(tuple(n if j == i else 1 for j in range(len(sizes)))))
            return tuple(out)
        grid = indices(sizes, dtype=dt)
        parts = [_add(_mul(grid[i], st), s0).astype(dt, copy=False)
                 for i, (st, s0) in enumerate(zip(steps, starts, strict=True))]
        from minarray.manipulation import stack

        return stack(parts) if parts else grid


mgrid = _Grid(sparse=False)
ogrid = _Grid(sparse=True)


def vander(x: Any, N: int | None = None, increasing: bool = False) -> NDArray:
    """The Vandermonde matrix of the 1-d ``x``: columns ``x**(N-1), ...,
    x, 1`` (the other way round with ``increasing``), built by a
    cumulative product as NumPy's."""
    from minarray.reductions import cumulative_prod

    a = as_operand(x, "vander")
    if a.ndim != 1:
        raise ValueError("x must be a one-dimensional array or sequence.")
    n = a.shape[0] if N is None else as_int(N, "vander: N")
    dt = _dt.promote(a.dtype, _dt.int64) if a.dtype.kind in "biu" else a.dtype
    out = ones((a.shape[0], n), dtype=dt)
    if n > 1:
        cols = broadcast_to(a.astype(dt).reshape((-1, 1)), (a.shape[0], n - 1))
        out[:, 1:] = cumulative_prod(cols, axis=1)
    return out if increasing else out[:, ::-1]


def fromiter(iter: Any, dtype: Any, count: int = -1) -> NDArray:
    """A 1-d array of ``dtype`` from an iterable (its first ``count``
    items when ``count`` is not -1)."""
    import itertools

    count = as_intp(count, "fromiter: count")
    items = list(iter if count < 0 else itertools.islice(iter, count))
    if count >= 0 and len(items) < count:
        raise ValueError(f"iterator too short: Expected {count} but iterator had only {len(items)} items.")
    return asarray(items, dtype=dtype) if items else zeros((0,), dtype=dtype)
