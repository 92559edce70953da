"""NumPy's dispatch protocols for NDArray: ``__array_function__`` (NEP 18)
and ``__array_ufunc__`` (NEP 13).

With them, ``np.sum(x)``, ``np.concatenate([x, y])`` or ``np.exp(x)`` on
minarray arrays run minarray's own implementation and return minarray
arrays, as they do for CuPy or Dask arrays.  This is what lets minarray
arrays be the chunks of a ``dask.array``: Dask's reductions and
``map_blocks`` call NumPy functions on the chunks (see
:mod:`minarray.dask`).

Only functions whose minarray counterpart has NumPy's semantics are
dispatched (the reductions and manipulations below, and NumPy's routines
minarray has under the same name: ``np.median``, ``np.vstack``,
``np.einsum``...), and only when every array argument is a minarray array
and no unsupported option is used (``out=``, ``where=``, ``order=``...).
Everything else falls back to NumPy: minarray arguments are converted with
``np.asarray`` (zero-copy where the dtype allows) and NumPy computes, so
such calls behave exactly as they did before the protocol existed.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

from minarray._array_object import NDArray
from minarray._dtypes import as_dtype

__all__ = ["array_function", "array_method", "array_ufunc"]


class _Fallback(Exception):
    """Raised by an adapter for a call minarray does not implement."""


def _ma() -> Any:
    import minarray  # cycle: the package imports this module

    return minarray


def _require(ok: bool) -> None:
    if not ok:
        raise _Fallback


def _is_default(value: Any) -> bool:
    # NumPy marks "not given" with np._NoValue; compare by class name to
    # stay independent of where NumPy keeps it.
    return value is None or type(value).__name__ == "_NoValueType"


def _dtype(dtype: Any) -> Any:
    """A dtype argument as NumPy code writes it ("f8", np.float64, ...) in a
    form minarray reads."""
    if dtype is None:
        return None
    try:
        return as_dtype(dtype)
    except TypeError:
        import numpy as np  # optional: NumPy is not a dependency of minarray

        return as_dtype(np.dtype(dtype))


# ---- adapters: NumPy's signature in, minarray's call out --------------------

def _given(value: Any, default: Any) -> Any:
    """An argument as minarray reads it: NumPy's "not given" (np._NoValue,
    None) is minarray's default."""
    return default if _is_default(value) else value


def _reduction(name: str) -> Callable[..., Any]:
    def adapter(a: Any, axis: Any = None, dtype: Any = None, out: Any = None, keepdims: Any = False,
                initial: Any = None, where: Any = True) -> Any:
        return getattr(_ma(), name)(a, axis, _dtype(dtype), out, bool(_given(keepdims, False)),
                                    _given(initial, None), _given(where, True))

    return adapter


def _minmax(name: str) -> Callable[..., Any]:
    def adapter(a: Any, axis: Any = None, out: Any = None, keepdims: Any = False, initial: Any = None,
                where: Any = True) -> Any:
        return getattr(_ma(), name)(a, axis, out, bool(_given(keepdims, False)), _given(initial, None),
                                    _given(where, True))

    return adapter


def _boolean(name: str) -> Callable[..., Any]:
    def adapter(a: Any, axis: Any = None, out: Any = None, keepdims: Any = False, *, where: Any = True) -> Any:
        return getattr(_ma(), name)(a, axis, out, bool(_given(keepdims, False)), where=_given(where, True))

    return adapter


def _mean(a: Any, axis: Any = None, dtype: Any = None, out: Any = None, keepdims: Any = False, *,
          where: Any = True) -> Any:
    return _ma().mean(a, axis, _dtype(dtype), out, bool(_given(keepdims, False)), where=_given(where, True))


def _moment(name: str) -> Callable[..., Any]:
    def adapter(a: Any, axis: Any = None, dtype: Any = None, out: Any = None, ddof: Any = 0,
                keepdims: Any = False, *, where: Any = True, mean: Any = None, correction: Any = None) -> Any:
        return getattr(_ma(), name)(a, axis, _dtype(dtype), out, _given(ddof, None), bool(_given(keepdims, False)),
                                    where=_given(where, True), mean=_given(mean, None),
                                    correction=_given(correction, None))

    return adapter


def _arg(name: str) -> Callable[..., Any]:
    def adapter(a: Any, axis: Any = None, out: Any = None, *, keepdims: Any = False) -> Any:
        return getattr(_ma(), name)(a, axis, out, keepdims=bool(_given(keepdims, False)))

    return adapter


def _cumulative(name: str) -> Callable[..., Any]:
    def adapter(a: Any, axis: Any = None, dtype: Any = None, out: Any = None) -> Any:
        return getattr(_ma(), name)(a, axis, _dtype(dtype), out)

    return adapter


def _concatenate(arrays: Any, axis: Any = 0, out: Any = None, *, dtype: Any = None,
                 casting: Any = "same_kind") -> Any:
    return _ma().concat(list(arrays), axis, out, dtype=_dtype(dtype), casting=casting)


def _stack(arrays: Any, axis: Any = 0, out: Any = None, *, dtype: Any = None, casting: Any = "same_kind") -> Any:
    return _ma().stack(list(arrays), axis, out, dtype=_dtype(dtype), casting=casting)


def _dot(a: Any, b: Any, out: Any = None) -> Any:
    # np.dot equals matmul for 1-d and 2-d operands only.
    _require(out is None and 1 <= a.ndim <= 2 and 1 <= b.ndim <= 2)
    return _ma().matmul(a, b)


def _transpose(a: Any, axes: Any = None) -> Any:
    if axes is None:
        axes = tuple(range(a.ndim - 1, -1, -1))
    return _ma().permute_dims(a, tuple(axes))


def _reshape(a: Any, shape: Any = None, order: Any = "C", *, newshape: Any = None, copy: Any = None) -> Any:
    _require(order == "C")
    return _ma().reshape(a, shape if shape is not None else newshape, copy=copy)


def _squeeze(a: Any, axis: Any = None) -> Any:
    return _ma().squeeze(a, axis=axis)


def _expand_dims(a: Any, axis: Any) -> Any:
    return _ma().expand_dims(a, axis=axis)


def _broadcast_to(array: Any, shape: Any, subok: Any = False) -> Any:
    return _ma().broadcast_to(array, tuple(shape) if isinstance(shape, (tuple, list)) else (shape,))


def _broadcast_arrays(*args: Any, subok: Any = False) -> Any:
    return tuple(_ma().broadcast_arrays(*args))


def _moveaxis(a: Any, source: Any, destination: Any) -> Any:
    return _ma().moveaxis(a, source, destination)


def _swapaxes(a: Any, axis1: Any, axis2: Any) -> Any:
    return _ma().swapaxes(a, axis1, axis2)


def _flip(m: Any, axis: Any = None) -> Any:
    return _ma().flip(m, axis=axis)


def _roll(a: Any, shift: Any, axis: Any = None) -> Any:
    return _ma().roll(a, shift, axis=axis)


def _repeat(a: Any, repeats: Any, axis: Any = None) -> Any:
    return _ma().repeat(a, repeats, axis=axis)


def _tile(a: Any, reps: Any) -> Any:
    return _ma().tile(a, reps)


def _take(a: Any, indices: Any, axis: Any = None, out: Any = None, mode: Any = "raise") -> Any:
    _require(out is None and mode == "raise")
    return _ma().take(a, indices, axis=axis)


def _take_along_axis(arr: Any, indices: Any, axis: Any = -1) -> Any:
    _require(axis is not None)
    return _ma().take_along_axis(arr, indices, axis=axis)


def _tensordot(a: Any, b: Any, axes: Any = 2) -> Any:
    return _ma().tensordot(a, b, axes=axes)


def _outer(a: Any, b: Any, out: Any = None) -> Any:
    _require(out is None)
    return _ma().outer(a.reshape(-1), b.reshape(-1))


def _where(condition: Any, x: Any = None, y: Any = None) -> Any:
    _require(x is not None and y is not None)  # the one-argument form is nonzero
    return _ma().where(condition, x, y)


def _clip(a: Any, a_min: Any = None, a_max: Any = None, out: Any = None, *, min: Any = None,
          max: Any = None, **kwargs: Any) -> Any:
    _require(out is None and not kwargs)
    lo = a_min if _is_default(min) else min
    hi = a_max if _is_default(max) else max
    return _ma().clip(a, None if _is_default(lo) else lo, None if _is_default(hi) else hi)


def _sort(name: str) -> Callable[..., Any]:
    def adapter(a: Any, axis: Any = -1, kind: Any = None, order: Any = None, *, stable: Any = None) -> Any:
        _require(order is None and axis is not None)
        return getattr(_ma(), name)(a, axis=axis, stable=True)

    return adapter


def _nonzero(a: Any) -> Any:
    return _ma().nonzero(a)


def _count_nonzero(a: Any, axis: Any = None, *, keepdims: Any = False) -> Any:
    return _ma().count_nonzero(a, axis=axis, keepdims=bool(keepdims))


def _like(name: str) -> Callable[..., Any]:
    def adapter(a: Any, *args: Any, dtype: Any = None, order: Any = "K", subok: Any = True,
                shape: Any = None, device: Any = None) -> Any:
        ma = _ma()
        dt = _dtype(dtype) if dtype is not None else a.dtype
        target = a.shape if shape is None else shape
        if name == "full_like":
            _require(len(args) == 1)
            return ma.full(target, args[0], dtype=dt)
        _require(not args)
        return getattr(ma, name.removesuffix("_like"))(target, dtype=dt)

    return adapter


def _copy(a: Any, order: Any = "K", subok: Any = False) -> Any:
    return a.copy()


def _around(a: Any, decimals: Any = 0, out: Any = None) -> Any:
    _require(out is None and decimals == 0)
    return _ma().round(a)


def _astype(x: Any, dtype: Any, /, *, copy: Any = True, device: Any = None) -> Any:
    return x.astype(_dtype(dtype), copy=copy, device=device)


def _atleast(n: int) -> Callable[..., Any]:
    def adapter(*arys: Any) -> Any:
        out = []
        for a in arys:
            if a.ndim < n:
                shape = {0: {1: (1,), 2: (1, 1), 3: (1, 1, 1)}, 1: {2: (1, *a.shape), 3: (1, *a.shape, 1)},
                         2: {3: (*a.shape, 1)}}[a.ndim][n]
                a = a.reshape(shape)
            out.append(a)
        return out[0] if len(out) == 1 else tuple(out)

    return adapter


# NumPy's routines that minarray has under the same name with NumPy's
# semantics (minarray/_statistical.py, _joining.py, _utility.py...): np.median(x)
# runs ma.median.  The call is bound to NumPy's signature; arguments left at
# NumPy's defaults are dropped and the rest passed by name, so an option
# minarray's function does not take (out=, overwrite_input=, kind=...) falls
# back to NumPy instead of landing on another parameter.
_SAME_NAME = (
    "vstack", "hstack", "dstack", "column_stack", "block", "split", "array_split", "hsplit", "vsplit", "dsplit",
    "ravel", "fliplr", "flipud", "rot90", "pad", "append", "insert", "delete", "resize", "trim_zeros",
    "median", "quantile", "percentile", "nanmedian", "nanquantile", "nanpercentile", "average", "ptp",
    "nansum", "nanprod", "nanmean", "nanvar", "nanstd", "nanmin", "nanmax", "nanargmin", "nanargmax",
    "nancumsum", "nancumprod", "cov", "corrcoef", "vdot", "inner", "kron", "cross", "trace", "diagonal", "einsum",
    "convolve", "isclose", "allclose", "array_equal", "array_equiv", "isneginf", "isposinf", "iscomplex",
    "isreal", "unique", "isin", "intersect1d", "union1d", "setdiff1d", "setxor1d", "argwhere", "flatnonzero",
    "extract", "partition", "argpartition", "lexsort", "diag", "diagflat", "histogram", "histogram_bin_edges",
    "bincount", "digitize", "select", "choose", "compress", "unravel_index", "ravel_multi_index", "gradient",
    "trapezoid", "interp", "unwrap", "ediff1d", "nan_to_num", "sinc", "angle", "fix", "put", "place",
    "put_along_axis", "copyto", "shape", "ndim", "size", "iscomplexobj", "isrealobj", "vander",
)


def _unchanged(value: Any, default: Any) -> bool:
    """Is ``value`` NumPy's default for its parameter (so minarray's own
    default applies)?"""
    if value is default or (_is_default(value) and _is_default(default)):
        return True
    plain = (bool, int, float, str, type(None))
    return type(value) in plain and type(default) in plain and type(value) is type(default) and value == default


def _same_name(name: str, signature: Any) -> Callable[..., Any]:
    def adapter(*args: Any, **kwargs: Any) -> Any:
        try:
            bound = signature.bind(*args, **kwargs)
        except TypeError:
            raise _Fallback from None
        pos: list[Any] = []
        kw: dict[str, Any] = {}
        for i, (pname, value) in enumerate(bound.arguments.items()):
            param = signature.parameters[pname]
            if param.kind is inspect.Parameter.VAR_POSITIONAL:
                pos.extend(value)
            elif param.kind is inspect.Parameter.VAR_KEYWORD:
                kw.update(value)
            elif i == 0 or param.kind is inspect.Parameter.POSITIONAL_ONLY:
                pos.append(value)
            elif not _unchanged(value, param.default):
                kw[pname] = value
        func = getattr(_ma(), name)
        try:
            inspect.signature(func).bind(*pos, **kw)
        except TypeError:  # an option minarray's function does not have
            raise _Fallback from None
        return func(*pos, **kw)

    return adapter


# NDArray's NumPy-style methods (x.sum(axis=0), x.mean()...): the same
# adapters, which need no NumPy.
_METHODS: dict[str, Callable[..., Any]] = {
    "sum": _reduction("sum"), "prod": _reduction("prod"),
    "max": _minmax("max"), "min": _minmax("min"), "any": _boolean("any"), "all": _boolean("all"),
    "mean": _mean, "var": _moment("var"), "std": _moment("std"),
    "argmax": _arg("argmax"), "argmin": _arg("argmin"),
    "cumsum": _cumulative("cumsum"), "cumprod": _cumulative("cumprod"),
}


def array_method(name: str, x: NDArray, **kwargs: Any) -> Any:
    """``x.<name>(**kwargs)`` with NumPy's method signature (every
    argument of which minarray's function takes)."""
    return _METHODS[name](x, **kwargs)


_TABLE: dict[Any, Callable[..., Any]] | None = None


def _table() -> dict[Any, Callable[..., Any]]:
    global _TABLE
    if _TABLE is None:
        import numpy as np  # optional: NumPy is not a dependency of minarray

        table: dict[Any, Callable[..., Any]] = {
            np.sum: _reduction("sum"),
            np.prod: _reduction("prod"),
            np.max: _minmax("max"), np.amax: _minmax("max"),
            np.min: _minmax("min"), np.amin: _minmax("min"),
            np.any: _boolean("any"), np.all: _boolean("all"),
            np.mean: _mean,
            np.var: _moment("var"), np.std: _moment("std"),
            np.argmax: _arg("argmax"), np.argmin: _arg("argmin"),
            np.cumsum: _cumulative("cumsum"), np.cumprod: _cumulative("cumprod"),
            np.concatenate: _concatenate, np.stack: _stack,
            np.dot: _dot, np.tensordot: _tensordot, np.outer: _outer,
            np.transpose: _transpose, np.reshape: _reshape, np.squeeze: _squeeze,
            np.expand_dims: _expand_dims, np.broadcast_to: _broadcast_to,
            np.broadcast_arrays: _broadcast_arrays, np.moveaxis: _moveaxis, np.swapaxes: _swapaxes,
            np.flip: _flip, np.roll: _roll, np.repeat: _repeat, np.tile: _tile,
            np.take: _take, np.take_along_axis: _take_along_axis,
            np.where: _where, np.clip: _clip,
            np.sort: _sort("sort"), np.argsort: _sort("argsort"),
            np.nonzero: _nonzero, np.count_nonzero: _count_nonzero,
            np.empty_like: _like("empty_like"), np.zeros_like: _like("zeros_like"),
            np.ones_like: _like("ones_like"), np.full_like: _like("full_like"),
            np.copy: _copy, np.round: _around, np.around: _around,
            np.atleast_1d: _atleast(1), np.atleast_2d: _atleast(2), np.atleast_3d: _atleast(3),
        }
        if hasattr(np, "astype"):
            table[np.astype] = _astype
        if hasattr(np, "concat"):
            table[np.concat] = _concatenate
        for name in _SAME_NAME:
            func = getattr(np, name, None)
            if func is None or func in table:
                continue
            try:
                table[func] = _same_name(name, inspect.signature(func))
            except (TypeError, ValueError):  # no signature to bind to: NumPy computes
                continue
        _TABLE = table
    return _TABLE


# ---- the protocols -------------------------------------------------------------

def _to_numpy(obj: Any) -> Any:
    """NDArrays (also inside lists and tuples) as NumPy arrays."""
    if isinstance(obj, NDArray):
        import numpy as np  # optional: NumPy is not a dependency of minarray

        return np.asarray(obj)
    if isinstance(obj, (list, tuple)):
        return type(obj)(_to_numpy(o) for o in obj)
    return obj


def array_function(func: Any, types: Any, args: Any, kwargs: Any) -> Any:
    """``NDArray.__array_function__``: minarray's implementation when there
    is one and every array argument is a minarray array, else NumPy's on
    converted arguments."""
    impl = _table().get(func)
    if impl is not None and all(issubclass(t, NDArray) for t in types):
        try:
            return impl(*args, **kwargs)
        except _Fallback:
            pass
    return func(*_to_numpy(args), **{k: _to_numpy(v) for k, v in kwargs.items()})


# NumPy ufunc name -> minarray function, where the semantics agree.
_UFUNCS: dict[str, str] = {
    "add": "add", "subtract": "subtract", "multiply": "multiply", "divide": "divide",
    "true_divide": "divide", "floor_divide": "floor_divide", "remainder": "remainder",
    "power": "pow", "negative": "negative", "positive": "positive", "absolute": "abs",
    "sqrt": "sqrt", "square": "square", "exp": "exp", "expm1": "expm1", "log": "log",
    "log1p": "log1p", "log2": "log2", "log10": "log10", "logaddexp": "logaddexp",
    "sin": "sin", "cos": "cos", "tan": "tan", "arcsin": "asin", "arccos": "acos", "arctan": "atan",
    "arctan2": "atan2", "sinh": "sinh", "cosh": "cosh", "tanh": "tanh", "arcsinh": "asinh",
    "arccosh": "acosh", "arctanh": "atanh", "hypot": "hypot", "maximum": "maximum", "minimum": "minimum",
    "equal": "equal", "not_equal": "not_equal", "less": "less", "less_equal": "less_equal",
    "greater": "greater", "greater_equal": "greater_equal", "logical_and": "logical_and",
    "logical_or": "logical_or", "logical_xor": "logical_xor", "logical_not": "logical_not",
    "bitwise_and": "bitwise_and", "bitwise_or": "bitwise_or", "bitwise_xor": "bitwise_xor",
    "invert": "bitwise_invert", "left_shift": "bitwise_left_shift", "right_shift": "bitwise_right_shift",
    "isnan": "isnan", "isinf": "isinf", "isfinite": "isfinite", "sign": "sign", "signbit": "signbit",
    "copysign": "copysign", "nextafter": "nextafter", "spacing": "spacing", "floor": "floor", "ceil": "ceil",
    "trunc": "trunc",
    "rint": "round", "conjugate": "conj", "reciprocal": "reciprocal", "matmul": "matmul",
}


# minarray function -> the NumPy ufunc name that says what it does, for
# messages NumPy words with its ufunc's name ("overflow encountered in
# power"); the first NumPy name above wins ("divide", not "true_divide").
# ``round`` is not NumPy's ufunc ``rint``: np.round reports the steps it
# computes with, so it keeps its own name.
NUMPY_UFUNC_NAME: dict[str, str] = {mine: theirs for theirs, mine in reversed(_UFUNCS.items()) if theirs != "rint"}


# Ufunc keyword arguments that change nothing at these values.
_UFUNC_NOOPS: dict[str, Any] = {"casting": "same_kind", "order": "K", "subok": True, "where": True}


def _is_noop(key: str, value: Any) -> bool:
    if key == "where":
        return value is True
    return key in _UFUNC_NOOPS and isinstance(value, (str, bool)) and value == _UFUNC_NOOPS[key]


def array_ufunc(ufunc: Any, method: str, inputs: Any, kwargs: Any) -> Any:
    """``NDArray.__array_ufunc__``: plain calls of the ufuncs minarray has,
    on minarray arrays and Python scalars, run minarray's function (with
    ``dtype=``, the inputs are cast to it first, as NumPy computes in it);
    everything else (reduce/accumulate/outer methods, ``out=``, ``where=``,
    NumPy array operands) runs NumPy's ufunc on converted arguments."""
    name = _UFUNCS.get(ufunc.__name__)
    out = kwargs.get("out")
    plain = (out is None or (isinstance(out, tuple) and all(o is None for o in out))) and all(
        k in ("out", "dtype") or _is_noop(k, v) for k, v in kwargs.items())
    if (name is not None and method == "__call__" and plain
            and all(isinstance(x, (NDArray, bool, int, float, complex)) for x in inputs)):
        dtype = _dtype(kwargs.get("dtype"))
        if dtype is not None:
            inputs = tuple(x.astype(dtype) if isinstance(x, NDArray) else x for x in inputs)
        return getattr(_ma(), name)(*inputs)
    return getattr(ufunc, method)(*_to_numpy(inputs), **{k: _to_numpy(v) for k, v in kwargs.items()})
