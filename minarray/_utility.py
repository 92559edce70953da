"""Utility functions (Array API "Utility Functions"): ``all``, ``any`` and
``diff``; and beside them NumPy's whole-array comparisons (``allclose``,
``array_equal``, ``array_equiv``) and the relatives of ``diff``
(``ediff1d``, ``gradient``, ``trapezoid``).

``all`` and ``any`` are reductions over the shared driver
(minarray/_reduction.py); the rest compose the elementwise functions with
NumPy's formulas, so they agree with NumPy element for element.
"""

from __future__ import annotations

import builtins
from typing import Any

from minarray import _dtypes as _dt
from minarray import _elementwise as _ew
from minarray import _subclass
from minarray._array_object import NDArray
from minarray._coerce import as_int, as_operand, broadcast_shapes, normalize_axes, normalize_axis
from minarray._dtypes import DType
from minarray._elementwise import ArrayLike, isclose
from minarray._joining import concat
from minarray._manipulation import broadcast_to
from minarray._native import core
from minarray._reduction import _ALL, _ANY, Axis, _axes, _finish, _reduce_axes, with_options

__all__ = [
    "all", "any", "diff", "allclose", "array_equal", "array_equiv", "gradient", "trapezoid", "ediff1d",
]


def all(x: NDArray, /, axis: Axis = None, out: NDArray | None = None, keepdims: bool = False, *,
        where: Any = True) -> NDArray:
    """Logical AND over ``axis`` (True for an empty reduction); NumPy's
    positional order, ``where=`` tests the selected elements only."""
    if type(x) is not NDArray:  # NumPy's np.all(sub) calls sub.all
        own = _subclass.call_own_method(x, "all", {"axis": axis, "out": out}, keepdims=(keepdims, False),
                                        where=(where, True))
        if own is not NotImplemented:
            return own  # type: ignore[no-any-return]
    if out is not None or where is not True:
        return with_options(lambda v: all(v, axis, None, keepdims), x, True, None, None, where, out, "all")
    x = as_operand(x)
    axes = _axes(axis, x.ndim)
    return _finish(_reduce_axes(_ALL, x, axes), _dt.bool, x, axes, keepdims)


def any(x: NDArray, /, axis: Axis = None, out: NDArray | None = None, keepdims: bool = False, *,
        where: Any = True) -> NDArray:
    """Logical OR over ``axis`` (False for an empty reduction); NumPy's
    positional order, ``where=`` tests the selected elements only."""
    if type(x) is not NDArray:  # NumPy's np.any(sub) calls sub.any
        own = _subclass.call_own_method(x, "any", {"axis": axis, "out": out}, keepdims=(keepdims, False),
                                        where=(where, True))
        if own is not NotImplemented:
            return own  # type: ignore[no-any-return]
    if out is not None or where is not True:
        return with_options(lambda v: any(v, axis, None, keepdims), x, False, None, None, where, out, "any")
    x = as_operand(x)
    axes = _axes(axis, x.ndim)
    return _finish(_reduce_axes(_ANY, x, axes), _dt.bool, x, axes, keepdims)


def _along(x: NDArray, ax: int, start: int, stop: int) -> NDArray:
    """The view x[..., start:stop, ...] with the slice on axis ``ax``."""
    shape = list(x.shape)
    shape[ax] = stop - start
    return x._view(start * x._strides[ax], tuple(shape), x._strides)


def _concat_along(parts: list[NDArray], ax: int, dtype: DType) -> NDArray:
    shape = list(parts[0].shape)
    shape[ax] = builtins.sum(p.shape[ax] for p in parts)
    out = NDArray._empty(tuple(shape), dtype)
    pos = 0
    for p in parts:
        n = p.shape[ax]
        core.copyto(_along(out, ax, pos, pos + n)._h, p._h)
        pos += n
    return out


def _edge(value: Any, x: NDArray, ax: int, name: str) -> NDArray:
    """prepend/append as an array shaped like x except along ``ax``; a 0-d
    value broadcasts with length 1 there (NumPy)."""
    v = as_operand(value)
    if v.ndim == 0:
        shape = list(x.shape)
        shape[ax] = 1
        return broadcast_to(v, tuple(shape))
    if v.ndim != x.ndim or builtins.any(v.shape[d] != x.shape[d] for d in range(x.ndim) if d != ax):
        raise ValueError(f"diff: {name} of shape {v.shape} does not match x of shape {x.shape} "
                         f"except along axis {ax}")
    return v


def diff(x: NDArray, /, n: int = 1, axis: int = -1, prepend: Any = None, append: Any = None) -> NDArray:
    """The n-th discrete difference along ``axis``: out[i] = x[i+1] - x[i],
    applied ``n`` times, after concatenating ``prepend`` and ``append``.
    Booleans give x[i+1] != x[i] (NumPy)."""
    if type(x) is not NDArray and _subclass.instance(x):
        return _subclass.through_method(diff, x, n, axis, prepend, append, zero_d=True)
    x = as_operand(x)
    if x.ndim == 0:
        raise ValueError("diff requires an array of at least one dimension, not a 0-d array")
    n = as_int(n, "diff: n")
    if n < 0:
        raise ValueError(f"diff: n must be non-negative, got {n}")
    ax = normalize_axis(axis, x.ndim)
    if prepend is not None or append is not None:
        parts = []
        if prepend is not None:
            parts.append(_edge(prepend, x, ax, "prepend"))
        parts.append(x)
        if append is not None:
            parts.append(_edge(append, x, ax, "append"))
        dtype = _dt.result_type(*parts)
        x = _concat_along(parts, ax, dtype)
    if n == 0:
        return x
    for _ in range(n):
        length = x.shape[ax]
        m = length - 1 if length > 0 else 0
        shape = list(x.shape)
        shape[ax] = m
        out = NDArray._empty(tuple(shape), x.dtype)
        if m > 0:
            core.subtract(out._h, _along(x, ax, 1, length)._h, _along(x, ax, 0, m)._h)
        x = out
    return x


def allclose(a: Any, b: Any, rtol: float = 1e-05, atol: float = 1e-08, equal_nan: bool = False) -> bool:
    """True when every element of ``a`` is :func:`isclose` to ``b``'s."""
    return bool(all(isclose(a, b, rtol=rtol, atol=atol, equal_nan=equal_nan)))


def array_equal(a1: Any, a2: Any, equal_nan: bool = False) -> bool:
    """True when both have the same shape and equal elements (NaNs equal
    each other when ``equal_nan``)."""
    try:
        x, y = as_operand(a1), as_operand(a2)
    except (TypeError, ValueError):
        return False
    if x.shape != y.shape:
        return False
    if not equal_nan or (x.dtype.kind not in "fc" and y.dtype.kind not in "fc"):
        return bool(all(_ew.equal(x, y)))
    nx, ny = _ew.isnan(x), _ew.isnan(y)
    if not bool(all(_ew.equal(nx, ny))):
        return False
    return bool(all(_ew.logical_or(_ew.equal(x, y), nx)))


def array_equiv(a1: Any, a2: Any) -> bool:
    """True when the shapes broadcast and the broadcast elements are equal."""
    try:
        x, y = as_operand(a1), as_operand(a2)
    except (TypeError, ValueError):
        return False
    try:
        broadcast_shapes(x.shape, y.shape)
    except ValueError:
        return False
    return bool(all(_ew.equal(x, y)))


def _spacing(v: Any, n: int) -> float | NDArray:
    """One axis's spacing: a scalar, or the differences of 1-d coordinates
    (reduced to a scalar when they are all equal, as NumPy does)."""
    d = as_operand(v, "gradient")
    if d.ndim == 0:
        return float(d)
    if d.ndim != 1:
        raise ValueError("distances must be either scalars or 1d")
    if d.shape[0] != n:
        raise ValueError("when 1d, distances must match the length of the corresponding dimension")
    steps = diff(d.astype(_dt.float64) if d.dtype.kind in "iub" else d)
    if steps.shape[0] and bool(all(_ew.equal(steps, steps[0]))):
        return float(steps[0])
    return steps


def gradient(f: ArrayLike, *varargs: Any, axis: int | tuple[int, ...] | None = None,
             edge_order: int = 1) -> Any:
    """The gradient of ``f`` by central differences inside and one-sided
    differences (first or second order, ``edge_order``) at the edges.  The
    spacing ``varargs``: none (1), one scalar for all axes, or one per
    axis, each a scalar or the axis's 1-d coordinates (then the
    differences are NumPy's second-order ones for uneven steps).  One
    array per axis, a tuple when there are several."""
    if type(f) is not NDArray and _subclass.instance(f):
        return _subclass.through_method(gradient, f, *varargs, axis=axis, edge_order=edge_order, zero_d=True)
    a = as_operand(f, "gradient")
    axes = tuple(range(a.ndim)) if axis is None else normalize_axes(axis, a.ndim)
    if not varargs:
        dxs: list[float | NDArray] = [1.0] * len(axes)
    elif len(varargs) == 1 and as_operand(varargs[0], "gradient").ndim == 0:
        dxs = [float(varargs[0])] * len(axes)
    elif len(varargs) == len(axes):
        dxs = [_spacing(v, a.shape[ax]) for v, ax in zip(varargs, axes, strict=True)]
    else:
        raise TypeError("invalid number of arguments")
    if as_int(edge_order, "gradient: edge_order") not in (1, 2):
        raise ValueError("'edge_order' greater than 2 not supported")
    w = a if a.dtype.kind in "fc" else a.astype(_dt.float64)
    outs = []
    for ax, dx in zip(axes, dxs, strict=True):
        n = w.shape[ax]
        if n < edge_order + 1:
            raise ValueError("Shape of array too small to calculate a numerical gradient, "
                             "at least (edge_order + 1) elements are required.")

        def sl(start: int | None, stop: int | None, _ax: int = ax) -> NDArray:
            return w[(slice(None),) * _ax + (slice(start, stop),)]

        if isinstance(dx, NDArray):
            first, inner, last = _uneven_differences(sl, dx, ax, w.ndim, edge_order)
        else:
            inner = _ew.divide(_ew.subtract(sl(2, None), sl(None, -2)), 2.0 * dx)
            if edge_order == 1:
                first = _ew.divide(_ew.subtract(sl(1, 2), sl(0, 1)), dx)
                last = _ew.divide(_ew.subtract(sl(-1, None), sl(-2, -1)), dx)
            else:
                first = _ew.add(_ew.add(_ew.multiply(-1.5 / dx, sl(0, 1)), _ew.multiply(2.0 / dx, sl(1, 2))),
                                _ew.multiply(-0.5 / dx, sl(2, 3)))
                last = _ew.add(_ew.add(_ew.multiply(0.5 / dx, sl(-3, -2)), _ew.multiply(-2.0 / dx, sl(-2, -1))),
                               _ew.multiply(1.5 / dx, sl(-1, None)))
        outs.append(concat([first, inner, last], axis=ax).astype(w.dtype, copy=False))
    return outs[0] if len(outs) == 1 else tuple(outs)


def _uneven_differences(sl: Any, dx: NDArray, ax: int, ndim: int,
                        edge_order: int) -> tuple[NDArray, NDArray, NDArray]:
    """Differences over uneven steps ``dx`` (n - 1 of them): inside, the
    second-order weights of the two neighbours' distances; at the edges
    one-sided ones of ``edge_order`` (NumPy's formulas, from the Taylor
    expansions of f at the three points)."""
    def along(v: NDArray) -> NDArray:  # coefficients laid along the axis
        return v.reshape(tuple(-1 if i == ax else 1 for i in range(ndim)))

    d1, d2 = dx[:-1], dx[1:]
    ca = along(_ew.divide(_ew.negative(d2), _ew.multiply(d1, _ew.add(d1, d2))))
    cb = along(_ew.divide(_ew.subtract(d2, d1), _ew.multiply(d1, d2)))
    cc = along(_ew.divide(d1, _ew.multiply(d2, _ew.add(d1, d2))))
    inner = _ew.add(_ew.add(_ew.multiply(ca, sl(None, -2)), _ew.multiply(cb, sl(1, -1))),
                    _ew.multiply(cc, sl(2, None)))
    if edge_order == 1:
        first = _ew.divide(_ew.subtract(sl(1, 2), sl(0, 1)), dx[0])
        last = _ew.divide(_ew.subtract(sl(-1, None), sl(-2, -1)), dx[-1])
        return first, inner, last
    e1, e2 = float(dx[0]), float(dx[1])
    first = _ew.add(_ew.add(_ew.multiply(-(2.0 * e1 + e2) / (e1 * (e1 + e2)), sl(0, 1)),
                            _ew.multiply((e1 + e2) / (e1 * e2), sl(1, 2))),
                    _ew.multiply(-e1 / (e2 * (e1 + e2)), sl(2, 3)))
    e1, e2 = float(dx[-2]), float(dx[-1])
    last = _ew.add(_ew.add(_ew.multiply(e2 / (e1 * (e1 + e2)), sl(-3, -2)),
                           _ew.multiply(-(e2 + e1) / (e1 * e2), sl(-2, -1))),
                   _ew.multiply((2.0 * e2 + e1) / (e2 * (e1 + e2)), sl(-1, None)))
    return first, inner, last


def trapezoid(y: ArrayLike, x: ArrayLike | None = None, dx: float = 1.0, axis: int = -1) -> NDArray:
    """The integral of ``y`` along ``axis`` by the trapezoidal rule, over
    the sample points ``x`` (1-d, or shaped like ``y``) or a spacing
    ``dx``."""
    from minarray._statistical import sum as _sum  # cycle: _statistical imports this module

    a = as_operand(y, "trapezoid")
    ax = normalize_axis(axis, a.ndim)
    n = a.shape[ax]
    d: Any = dx
    if x is not None:
        xa = as_operand(x, "trapezoid")
        d = diff(xa, axis=-1 if xa.ndim == 1 else ax)
        if xa.ndim == 1:
            d = d.reshape(tuple(-1 if i == ax else 1 for i in range(a.ndim)))
    lo = a[(slice(None),) * ax + (slice(None, n - 1 if n else 0),)]
    hi = a[(slice(None),) * ax + (slice(1, None),)]
    return _sum(_ew.divide(_ew.multiply(d, _ew.add(hi, lo)), 2.0), axis=ax)


def ediff1d(ary: ArrayLike, to_end: ArrayLike | None = None, to_begin: ArrayLike | None = None) -> NDArray:
    """The differences of the flattened array, with ``to_begin`` and
    ``to_end`` (flattened) joined before and after, in the input's dtype."""
    if type(ary) is not NDArray and _subclass.instance(ary):
        return _subclass.through_method(ediff1d, ary, to_end, to_begin, zero_d=True)
    a = as_operand(ary, "ediff1d").reshape((-1,))
    parts = [diff(a)]
    if to_begin is not None:
        parts.insert(0, as_operand(to_begin).reshape((-1,)).astype(a.dtype))
    if to_end is not None:
        parts.append(as_operand(to_end).reshape((-1,)).astype(a.dtype))
    return concat(parts) if len(parts) > 1 else parts[0]
