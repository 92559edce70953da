"""Statistical functions (Array API "Statistical Functions"): ``sum``,
``prod``, ``min``, ``max``, ``mean``, ``var``, ``std``,
``cumulative_sum``, ``cumulative_prod``; and beside them NumPy's
``cumsum``/``cumprod``, ``trace``, ``amax``/``amin``, its order statistics
(``median``, ``quantile``, ``percentile``, ``ptp``), ``average``, ``cov``,
``corrcoef`` and the NaN-ignoring reductions (``nansum``, ``nanmean``,
``nanmedian``...).

Every reduction goes through one C call (csrc/py/reduce_entry.c): Python moves the
reduced axes last as a view (no copy), allocates the output of the kept
shape in the kernel's accumulator dtype, and casts that to the result dtype
when they differ (float16 sums accumulate in float32, as NumPy's).

Dtype rules (Array API 2024.12, NumPy 2 where the standard is silent):

- ``sum``/``prod``/``cumulative_*``: integers widen to the default integer
  of their signedness (int64 / uint64), floats keep their dtype, unless
  ``dtype=`` is given.
- ``mean``/``var``/``std``: floating inputs keep their dtype; integer and
  boolean inputs give float64 (NumPy); ``var``/``std`` of complex inputs are
  not defined by the standard and raise TypeError.
- ``min``/``max`` keep the dtype and raise ValueError on an empty reduction,
  which has no identity; NaN propagates.

Order statistics stand on selection, not sorting: one C call
(``core.partition``, an introselect in csrc/core/sort.c) moves, in every
row along the reduced axis, the elements a quantile needs to their sorted
positions in O(n), the rows spread over the thread pool.  The largest
element is selected too, so a row holding a NaN (NaN sorts last) gives
NaN, as NumPy's ``median`` and ``quantile`` do.  The NaN-ignoring order
statistics need a different position in each row (each row has its own
count of NaNs), so they sort the rows instead (the same C sort as
:func:`minarray.sort`) and pick each row's positions with
``take_along_axis``.

The interpolation follows NumPy's formulas exactly (its virtual index
``(n - 1) * q`` and its two-sided linear interpolation), so float64
results match NumPy's bit for bit.  Integers interpolate in float64:
NumPy subtracts the two neighbours in the integer type first, which can
wrap around (int8 -93 and 65); minarray does not reproduce that.
"""

from __future__ import annotations

import builtins
import math
import operator
import warnings
from typing import Any

from minarray import _dtypes as _dt
from minarray import _elementwise as _ew
from minarray import _searching, _subclass, _utility
from minarray._array_object import NDArray
from minarray._coerce import as_int, as_operand, asarray, broadcast_shapes, normalize_axes, normalize_axis, write_out
from minarray._creation import full
from minarray._dtypes import DType
from minarray._elementwise import conj
from minarray._errstate import _user_stacklevel, errstate
from minarray._indexing import take, take_along_axis
from minarray._joining import atleast_2d, concat, stack
from minarray._manipulation import broadcast_to, diagonal, moveaxis, permute_dims
from minarray._native import core
from minarray._reduction import (
    _FSUM,
    _MAX,
    _MIN,
    _PROD,
    _SSD,
    _SUM,
    Axis,
    _axes,
    _finish,
    _int_acc,
    _reduce_axes,
    masked,
    where_mask,
    with_options,
)
from minarray._searching import argmax, argmin
from minarray._sorting import sort

__all__ = [
    "sum", "prod", "min", "max", "mean", "var", "std", "cumulative_sum", "cumulative_prod", "cumsum",
    "cumprod", "trace", "median", "quantile", "percentile", "ptp", "average", "nansum", "nanprod", "nanmean",
    "nanvar", "nanstd", "nanmin", "nanmax", "nanargmin", "nanargmax", "nancumsum", "nancumprod", "nanmedian",
    "nanquantile", "nanpercentile", "cov", "corrcoef", "amax", "amin",
]


def _count(x: NDArray, axes: tuple[int, ...] | None) -> int:
    if axes is None:
        return math.prod(x._shape)
    return math.prod(x._shape[a] for a in axes)


def _accumulation(x: NDArray, dtype: Any) -> tuple[NDArray, DType]:
    """The input as sums and products (and their cumulative forms) read it,
    and their result dtype: NumPy's default accumulator for ``dtype=None``,
    else ``dtype``.  Integer results from integer inputs come from the 64-bit
    wrapping kernel (equal modulo 2**bits); everything else is computed in
    the requested dtype, as NumPy does."""
    if dtype is None:
        return x, (_int_acc(x._dtype) if x._dtype.kind in "biu" else x._dtype)
    result = _dt.as_dtype(dtype)
    if result.kind == "b":
        x = x.astype(_dt.bool, copy=False)
    elif not (result.kind in "iu" and x._dtype.kind in "biu"):
        x = x.astype(result, copy=False)
    return x, result


def _sum_like(op: int, x: Any, axis: Axis, dtype: Any, keepdims: bool) -> NDArray:
    x = as_operand(x)
    axes = _axes(axis, x.ndim)
    x, result = _accumulation(x, dtype)
    out = _reduce_axes(op, x, axes)
    return _finish(out, result, x, axes, keepdims)


def sum(x: NDArray, /, axis: Axis = None, dtype: Any = None, out: NDArray | None = None, keepdims: bool = False,
        initial: Any = None, where: Any = True) -> NDArray:
    """Sum over ``axis`` (pairwise summation for floating point).  NumPy's
    positional order; ``initial`` is added, ``where=`` sums the selected
    elements only."""
    if type(x) is not NDArray:  # NumPy's np.sum(sub) calls sub.sum
        own = _subclass.call_own_method(x, "sum", {"axis": axis, "dtype": dtype, "out": out},
                                        keepdims=(keepdims, False), initial=(initial, None), where=(where, True))
        if own is not NotImplemented:
            return own  # type: ignore[no-any-return]
    if out is not None or initial is not None or where is not True:
        return with_options(lambda v: sum(v, axis, dtype, None, keepdims), x, 0, _ew.add, initial, where, out, "sum")
    # the plain call runs here, one Python frame less (sum of a small array
    # is mostly Python's overhead)
    x = as_operand(x)
    axes = _axes(axis, x.ndim)
    x, result = _accumulation(x, dtype)
    return _finish(_reduce_axes(_SUM, x, axes), result, x, axes, keepdims)


def prod(x: NDArray, /, axis: Axis = None, dtype: Any = None, out: NDArray | None = None, keepdims: bool = False,
         initial: Any = None, where: Any = True) -> NDArray:
    """Product over ``axis``; ``initial`` multiplies it, ``where=`` picks
    the elements."""
    if type(x) is not NDArray:  # NumPy's np.prod(sub) calls sub.prod
        own = _subclass.call_own_method(x, "prod", {"axis": axis, "dtype": dtype, "out": out},
                                        keepdims=(keepdims, False), initial=(initial, None), where=(where, True))
        if own is not NotImplemented:
            return own  # type: ignore[no-any-return]
    if out is None and initial is None and where is True:
        return _sum_like(_PROD, x, axis, dtype, keepdims)
    return with_options(lambda v: _sum_like(_PROD, v, axis, dtype, keepdims), x, 1, _ew.multiply, initial, where,
                        out, "prod")


def _minmax(op: int, name: str, x: Any, axis: Axis, keepdims: bool, out: NDArray | None = None,
            initial: Any = None, where: Any = True) -> NDArray:
    if out is not None or where is not True:
        if where is not True and initial is None:
            # NumPy's rule: min and max have no identity to put where the mask is False
            raise ValueError(f"reduction operation '{'minimum' if op == _MIN else 'maximum'}' does not have an "
                             f"identity, so to use a where mask one has to specify 'initial'")
        return with_options(lambda v: _minmax(op, name, v, axis, keepdims, None, initial), x, initial, None, None,
                            where, out, name)
    x = as_operand(x)
    axes = _axes(axis, x.ndim)
    if x.dtype.kind == "c" and _count(x, axes) > 0:
        return _complex_extreme(op, x, axes, keepdims, initial)
    if _count(x, axes) == 0:
        if initial is None:
            raise ValueError(f"zero-size array to reduction operation {name}, which has no identity "
                             f"(shape {x.shape}, axis {axis})")
        # an empty reduction from initial= is initial itself (NumPy)
        kept = tuple(1 if axes is None or d in axes else n for d, n in enumerate(x.shape)) if keepdims else \
            tuple(n for d, n in enumerate(x.shape) if axes is not None and d not in axes)
        empty: NDArray = full(kept, initial, dtype=x.dtype)
        return empty if kept else core.scalar_result(empty)  # a 0-d result is NumPy's scalar
    r = _finish(_reduce_axes(op, x, axes), x.dtype, x, axes, keepdims)
    if initial is not None:  # NumPy starts from it: the same as joining it at the end
        r = (_ew.minimum if op == _MIN else _ew.maximum)(r, asarray(initial, dtype=r.dtype))
    return r


def min(x: NDArray, /, axis: Axis = None, out: NDArray | None = None, keepdims: bool = False, initial: Any = None,
        where: Any = True) -> NDArray:
    """Minimum over ``axis``; NaN propagates.  ``initial`` joins the
    minimum (and is the result of an empty one); ``where=`` needs it."""
    if type(x) is not NDArray:  # NumPy's np.min(sub) calls sub.min
        own = _subclass.call_own_method(x, "min", {"axis": axis, "out": out}, keepdims=(keepdims, False),
                                        initial=(initial, None), where=(where, True))
        if own is not NotImplemented:
            return own  # type: ignore[no-any-return]
    return _minmax(_MIN, "min", x, axis, keepdims, out, initial, where)


def _complex_extreme(op: int, x: NDArray, axes: tuple[int, ...] | None, keepdims: bool, initial: Any) -> NDArray:
    """max or min of complex numbers in NumPy's order (by real part, then
    imaginary part; the first value with a NaN part wins): the reduced
    axes made one, the element its arg-reduction picks (and ``initial``
    joins the values compared)."""
    red = tuple(range(x.ndim)) if axes is None else axes
    kept = [d for d in range(x.ndim) if d not in red]
    kshape = tuple(x.shape[d] for d in kept)
    v = permute_dims(x, (*kept, *red)).reshape((*kshape, math.prod(x.shape[d] for d in red)))
    if initial is not None:
        v = concat((full((*kshape, 1), initial, dtype=x.dtype), v), axis=-1)
    at = NDArray._empty(kshape, _dt.int64)
    _searching.complex_arg_last(1 if op == _MAX else 0, v, at)
    r = take_along_axis(v, at[..., None], axis=-1)[..., 0]
    if keepdims:
        r = r.reshape(tuple(1 if d in red else n for d, n in enumerate(x.shape)))
    made: NDArray = core.scalar_result(r) if r.ndim == 0 else r
    return made


def max(x: NDArray, /, axis: Axis = None, out: NDArray | None = None, keepdims: bool = False, initial: Any = None,
        where: Any = True) -> NDArray:
    """Maximum over ``axis``; NaN propagates.  ``initial`` joins the
    maximum (and is the result of an empty one); ``where=`` needs it."""
    if type(x) is not NDArray:  # NumPy's np.max(sub) calls sub.max
        own = _subclass.call_own_method(x, "max", {"axis": axis, "out": out}, keepdims=(keepdims, False),
                                        initial=(initial, None), where=(where, True))
        if own is not NotImplemented:
            return own  # type: ignore[no-any-return]
    return _minmax(_MAX, "max", x, axis, keepdims, out, initial, where)


def _float_result(x: NDArray) -> DType:
    """The dtype of a mean: the input's, float64 for integers and booleans."""
    return _dt.float64 if x.dtype.kind in "biu" else x.dtype


def _moment_result(x: NDArray) -> DType:
    """The dtype of a variance: the mean's, made real (NumPy's var of
    complex numbers is the mean squared magnitude of the deviations)."""
    f = _float_result(x)
    return _dt._real_of(f) if f.kind == "c" else f


def _in_dtype(x: Any, dtype: Any) -> NDArray:
    """The input of mean, var and std with NumPy's ``dtype=``: a floating
    ``dtype`` is the one they compute in; any other only the result's
    (applied by ``_as_dtype``)."""
    arr = as_operand(x)
    if dtype is not None and _dt.as_dtype(dtype).kind in "fc":
        arr = arr.astype(_dt.as_dtype(dtype), copy=False)
    return arr


def _as_dtype(r: NDArray, dtype: Any) -> NDArray:
    return r if dtype is None else r.astype(_dt.as_dtype(dtype), copy=False)


def _masked_count(x: NDArray, axis: Axis, keepdims: bool, where: Any) -> NDArray:
    """How many elements ``where=`` selects in each reduction, as float64."""
    return _sum_like(_SUM, where_mask(where, x.shape), axis, _dt.float64, keepdims)


def mean(x: NDArray, /, axis: Axis = None, dtype: Any = None, out: NDArray | None = None, keepdims: bool = False,
         *, where: Any = True) -> NDArray:
    """Arithmetic mean over ``axis``; NaN for an empty reduction.  Integer
    inputs give float64 (NumPy); a floating ``dtype`` is computed in."""
    if type(x) is not NDArray:  # NumPy's np.mean(sub) calls sub.mean
        own = _subclass.call_own_method(x, "mean", {"axis": axis, "dtype": dtype, "out": out},
                                        keepdims=(keepdims, False), where=(where, True))
        if own is not NotImplemented:
            return own  # type: ignore[no-any-return]
    if dtype is None and out is None and where is True:
        x = as_operand(x)
        result = _float_result(x)
        axes = _axes(axis, x.ndim)
        n = _count(x, axes)
        if n == 0:
            _warn("Mean of empty slice")
            return _over_nothing(sum(x, axis, result, None, keepdims), result)
        return _finish(_reduce_axes(_FSUM, x, axes, divisor=float(n)), result, x, axes, keepdims)
    x = _in_dtype(x, dtype)
    if where is True:
        r = mean(x, axis, None, None, keepdims)
    else:
        # NumPy's formula: the sum of the selected elements over their count
        result = _float_result(x)
        total = sum(masked(x, where, 0), axis, result, None, keepdims)
        r = _ew.divide(total, _masked_count(x, axis, keepdims, where)).astype(result, copy=False)
    r = _as_dtype(r, dtype)
    return write_out(out, r, "mean")


def _over_nothing(total: NDArray, result: DType) -> NDArray:
    """A sum over no degrees of freedom divided as NumPy's mean and var
    divide it: by an intp zero, so that a float64 scalar reports "... in
    scalar divide" and other results "... in divide", under the errstate
    in force (the kernels' own division would report "reduce")."""
    r: NDArray = (total / _dt.int64(0)).astype(result, copy=False)
    return r if r.ndim or type(total) is not _dt.scalar_class else core.scalar_result(r)


def _var(x: Any, axis: Axis, correction: int | float, keepdims: bool, take_sqrt: bool) -> NDArray:
    x = as_operand(x)
    if x.dtype.kind == "c":  # the kernel squares real numbers only
        return _masked_var(x, axis, correction, keepdims, True, take_sqrt)
    axes = _axes(axis, x.ndim)
    n = _count(x, axes)
    if n - _real_correction(correction) <= 0:
        _warn("Degrees of freedom <= 0 for slice")
        result = _moment_result(x)
        if n == 0:  # NumPy's mean of nothing first, with its report; the squared deviations sum to 0
            _ew.divide(sum(x, axis, result, None, True), _dt.int64(0))
            ssd = sum(x, axis, result, None, keepdims)
        else:
            m = _reduce_axes(_FSUM, x, axes, divisor=float(n))
            ssd = _finish(_reduce_axes(_SSD, x, axes, extra=m, divisor=1.0), result, x, axes, keepdims)
        r = _over_nothing(ssd, result)
        return _ew.sqrt(r) if take_sqrt else r
    # Two passes: the mean, then the sum of squared deviations from it, each
    # pairwise; NumPy does the same.
    m = _reduce_axes(_FSUM, x, axes, divisor=float(_count(x, axes)))
    return _deviations(x, axes, m, correction, keepdims, take_sqrt)


def _deviations(x: NDArray, axes: tuple[int, ...] | None, m: NDArray, correction: Any, keepdims: bool,
                take_sqrt: bool) -> NDArray:
    """The second pass: the sum of squared deviations from ``m`` (of the
    kept shape) over N - correction; below zero that acts as zero (NumPy),
    so the result is inf or NaN there."""
    result = _moment_result(x)
    n = _count(x, axes)
    divisor = float(builtins.max(n - _real_correction(correction), 0))
    out = _reduce_axes(_SSD, x, axes, extra=m, divisor=divisor, take_sqrt=take_sqrt)
    return _finish(out, result, x, axes, keepdims)


# The dtypes in which the squared-deviation kernel subtracts the mean as
# NumPy's ``x - mean`` does: the input's own for these, float64 for integers
# and booleans (NumPy's mean of them).  float16 and the narrower storage
# types widen in the kernel, where NumPy's subtraction does not.
_MEAN_IN_KERNEL = (_dt.float32, _dt.float64)


def _given_mean(x: NDArray, axes: tuple[int, ...] | None, mu: NDArray) -> NDArray | None:
    """NumPy's ``mean=`` as the kernel's operand (of the kept shape,
    contiguous), or None where the kernel would not compute NumPy's
    ``x - mean``: a mean that varies along a reduced axis, or of a dtype
    other than the one the subtraction runs in."""
    kind = x.dtype if x.dtype in _MEAN_IN_KERNEL else (_dt.float64 if _dt.isdtype(x.dtype, ("integral", "bool"))
                                                       else None)
    if kind is None or mu.dtype != kind or mu.ndim > x.ndim:
        return None
    reduced = set(range(x.ndim)) if axes is None else set(axes)
    kd = tuple(1 if d in reduced else n for d, n in enumerate(x.shape))
    try:
        if broadcast_shapes(mu.shape, kd) != kd:
            return None
    except ValueError:
        return None
    kept = broadcast_to(mu, kd)[tuple(0 if d in reduced else slice(None) for d in range(x.ndim))]
    return kept if kept.flags.c_contiguous else kept.copy()


def _real_correction(correction: Any) -> int | float:
    if isinstance(correction, bool) or not isinstance(correction, (int, float)):
        try:
            return operator.index(correction)
        except TypeError:
            raise TypeError(f"correction must be a real number, got {type(correction).__name__}") from None
    return correction


def _masked_var(x: NDArray, axis: Axis, correction: Any, keepdims: bool, where: Any, take_sqrt: bool,
                mu: Any = None) -> NDArray:
    """var (or std) of the elements ``where=`` selects: NumPy's two passes,
    the masked mean (unless given: NumPy's ``mean=``, of keepdims shape),
    then the masked sum of squared deviations over the count less the
    correction (below zero: zero)."""
    correction = _real_correction(correction)
    if mu is None:
        mu = mean(x, axis, None, None, True, where=where)
    dev = _ew.subtract(x, mu)
    result = _moment_result(dev)  # a given mean of a wider dtype widens it (NumPy's x - mean)
    ssd = sum(masked(_squared(dev), where, 0), axis, result, None, keepdims)
    n = _masked_count(x, axis, keepdims, where)
    # divided in float64 and rounded to the result, then the root taken in
    # the result's dtype: NumPy's order (true_divide into ``out=ret``)
    r = _ew.divide(ssd, _ew.maximum(_ew.subtract(n, correction), 0.0)).astype(result, copy=False)
    return _ew.sqrt(r) if take_sqrt else r


def _squared(dev: NDArray) -> NDArray:
    """The squared deviations; of complex ones their squared magnitude
    re*re + im*im, real, as NumPy's var and nanvar take them."""
    if dev.dtype.kind != "c":
        return _ew.multiply(dev, dev)
    re, im = dev.real, dev.imag
    return _ew.add(_ew.multiply(re, re), _ew.multiply(im, im))


def _correction(correction: Any, ddof: Any) -> Any:
    """The divisor's correction from the standard's ``correction`` or
    NumPy's ``ddof`` (the same number under two names; 0 when neither)."""
    if correction is not None:
        if ddof is not None and ddof != 0:  # NumPy's rule: ddof=0 is its default
            raise ValueError("ddof and correction can't be provided simultaneously.")
        return correction
    return 0.0 if ddof is None else ddof


def _moment(x: Any, axis: Axis, dtype: Any, out: NDArray | None, ddof: Any, keepdims: bool, where: Any, mu: Any,
            correction: Any, take_sqrt: bool) -> NDArray:
    c = _correction(correction, ddof)
    x = _in_dtype(x, dtype)
    mu = None if mu is None else as_operand(mu)
    if where is True and mu is None:
        r = _var(x, axis, c, keepdims, take_sqrt)
    elif where is True and (given := _given_mean(x, _axes(axis, x.ndim), mu)) is not None:
        # NumPy's mean= (already computed: ``mean(x, axis, keepdims=True)``)
        # skips the first pass; the second is the kernel's, as without it
        r = _deviations(x, _axes(axis, x.ndim), given, c, keepdims, take_sqrt)
    else:
        r = _masked_var(x, axis, c, keepdims, where, take_sqrt, mu)
    r = _as_dtype(r, dtype)
    return write_out(out, r, "std" if take_sqrt else "var")


def var(x: NDArray, /, axis: Axis = None, dtype: Any = None, out: NDArray | None = None,
        ddof: int | float | None = None, keepdims: bool = False, *, where: Any = True, mean: Any = None,
        correction: int | float | None = None) -> NDArray:
    """Variance over ``axis``: sum((x - mean)**2) / (N - correction).
    ``ddof`` is NumPy's name for ``correction``; either may be given.
    NumPy's positional order, ``dtype=``, ``where=`` and ``mean=`` (the
    mean, already computed, of keepdims shape)."""
    if type(x) is not NDArray:  # NumPy's np.var(sub) calls sub.var
        own = _subclass.call_own_method(x, "var", {"axis": axis, "dtype": dtype, "out": out}, ddof=(ddof, None),
                                        keepdims=(keepdims, False), where=(where, True), mean=(mean, None),
                                        correction=(correction, None))
        if own is not NotImplemented:
            return own  # type: ignore[no-any-return]
    if dtype is None and out is None and where is True and mean is None:
        return _var(x, axis, _correction(correction, ddof), keepdims, False)
    return _moment(x, axis, dtype, out, ddof, keepdims, where, mean, correction, False)


def std(x: NDArray, /, axis: Axis = None, dtype: Any = None, out: NDArray | None = None,
        ddof: int | float | None = None, keepdims: bool = False, *, where: Any = True, mean: Any = None,
        correction: int | float | None = None) -> NDArray:
    """Standard deviation over ``axis``: sqrt(var).  ``ddof`` is NumPy's
    name for ``correction``; either may be given."""
    if type(x) is not NDArray:  # NumPy's np.std(sub) calls sub.std
        own = _subclass.call_own_method(x, "std", {"axis": axis, "dtype": dtype, "out": out}, ddof=(ddof, None),
                                        keepdims=(keepdims, False), where=(where, True), mean=(mean, None),
                                        correction=(correction, None))
        if own is not NotImplemented:
            return own  # type: ignore[no-any-return]
    if dtype is None and out is None and where is True and mean is None:
        return _var(x, axis, _correction(correction, ddof), keepdims, True)
    return _moment(x, axis, dtype, out, ddof, keepdims, where, mean, correction, True)


def _scan(op: int, name: str, x: Any, axis: int | None, dtype: Any, include_initial: bool) -> NDArray:
    x = as_operand(x)
    if x.ndim == 0:
        x = x._view(0, (1,), (0,))  # NumPy treats a 0-d input as 1-d
    if axis is None:
        if x.ndim != 1:
            raise ValueError(f"{name} needs an axis for a {x.ndim}-d array (axis=None is only allowed in 1-d)")
        ax = 0
    else:
        ax = normalize_axis(axis, x.ndim)
    x, result = _accumulation(x, dtype)
    x = x._widened()
    kernel_out = _int_acc(x.dtype) if x.dtype.kind in "biu" else x.dtype
    shape = list(x.shape)
    shape[ax] += int(bool(include_initial))
    out = NDArray._empty(tuple(shape), kernel_out)
    nd = x.ndim
    if ax != nd - 1:
        order = (*tuple(d for d in range(nd) if d != ax), ax)
        xv = x._view(0, tuple(x.shape[d] for d in order), tuple(x._strides[d] for d in order))
        ov = out._view(0, tuple(out.shape[d] for d in order), tuple(out._strides[d] for d in order))
    else:
        xv, ov = x, out
    core.scan(op, xv._h, ov._h, bool(include_initial))
    return out if out.dtype is result else out.astype(result)


def cumulative_sum(x: NDArray, /, *, axis: int | None = None, dtype: Any = None, out: NDArray | None = None,
                   include_initial: bool = False) -> NDArray:
    """Cumulative sum along ``axis`` (optional only for 1-d input); with
    ``include_initial`` the result starts with the identity 0.  NumPy's
    ``out=`` receives it."""
    if type(x) is not NDArray and _subclass.instance(x):
        return _subclass.through_method(cumulative_sum, x, axis=axis, dtype=dtype, out=out,
                                        include_initial=include_initial)
    return write_out(out, _scan(0, "cumulative_sum", x, axis, dtype, include_initial), "cumulative_sum")


def cumulative_prod(x: NDArray, /, *, axis: int | None = None, dtype: Any = None, out: NDArray | None = None,
                    include_initial: bool = False) -> NDArray:
    """Cumulative product along ``axis``; with ``include_initial`` the
    result starts with the identity 1."""
    if type(x) is not NDArray and _subclass.instance(x):
        return _subclass.through_method(cumulative_prod, x, axis=axis, dtype=dtype, out=out,
                                        include_initial=include_initial)
    return write_out(out, _scan(1, "cumulative_prod", x, axis, dtype, include_initial), "cumulative_prod")


def _numpy_scan(op: int, name: str, x: Any, axis: int | None, dtype: Any) -> NDArray:
    x = as_operand(x, name)
    if axis is None:  # NumPy: the flattened array
        x = x.reshape((-1,))
        axis = 0
    return _scan(op, name, x, axis, dtype, False)


def cumsum(a: NDArray, axis: int | None = None, dtype: Any = None, out: NDArray | None = None) -> NDArray:
    """NumPy's ``cumsum``: :func:`cumulative_sum` of the flattened array
    when ``axis`` is None (the standard's spelling requires an axis for
    arrays of 2 or more dimensions) and never with an initial zero."""
    if type(a) is not NDArray and _subclass.instance(a):
        return _subclass.through_method(cumsum, a, axis, dtype, out=out)
    return write_out(out, _numpy_scan(0, "cumsum", a, axis, dtype), "cumsum")


def cumprod(a: NDArray, axis: int | None = None, dtype: Any = None, out: NDArray | None = None) -> NDArray:
    """NumPy's ``cumprod``: :func:`cumulative_prod` of the flattened array
    when ``axis`` is None."""
    if type(a) is not NDArray and _subclass.instance(a):
        return _subclass.through_method(cumprod, a, axis, dtype, out=out)
    return write_out(out, _numpy_scan(1, "cumprod", a, axis, dtype), "cumprod")


def trace(a: Any, offset: int = 0, axis1: int = 0, axis2: int = 1, dtype: Any = None,
          out: NDArray | None = None) -> NDArray:
    """NumPy's ``trace``: the sum along the diagonal ``offset`` of the 2-d
    subarrays over ``axis1`` and ``axis2`` (``sum``'s dtype rules;
    ``ma.linalg.trace`` is the standard's, over the last two axes)."""
    # (asarray: a subclass's trace is a plain result, as NumPy's)
    return sum(diagonal(asarray(a), offset, axis1, axis2), axis=-1, dtype=dtype, out=out)


_METHODS = ("linear", "lower", "higher", "nearest", "midpoint")


def _rows(x: NDArray, axis: Axis) -> tuple[NDArray, tuple[int, ...] | None]:
    """``x`` with the reduced axes merged into one last axis (a view when
    the strides allow), and the normalized axes (None: all)."""
    if axis is None:
        return x.reshape((x.size,)), None
    axes = normalize_axes(axis, x.ndim)
    keep = [d for d in range(x.ndim) if d not in axes]
    moved = x.transpose(tuple(keep + list(axes)))
    return moved.reshape((*moved.shape[:len(keep)], math.prod(x.shape[d] for d in axes))), axes


def _keep(out: NDArray, ndim: int, axes: tuple[int, ...] | None, lead: int = 0) -> NDArray:
    """``out`` (``lead`` leading axes, then the kept ones) with the reduced
    axes back as length 1 (``keepdims=True``)."""
    shape = list(out.shape[lead:])
    for a in (range(ndim) if axes is None else axes):
        shape.insert(a, 1)
    return out.reshape((*out.shape[:lead], *shape))


def _partitioned(rows: NDArray, kth: list[int], overwrite: bool = False) -> NDArray:
    """A copy of ``rows`` (reduced axis last) with, in every row, the
    elements at positions ``kth`` where a sort would put them.  With
    ``overwrite`` (NumPy's ``overwrite_input=True``, which lets the input
    end partially sorted) the copy is written back over a writable
    ``rows``: the input itself where ``rows`` is a view of it."""
    out = NDArray._empty(rows.shape, rows.dtype)
    ks = sorted(set(kth))
    core.partition(rows._h, out._h, asarray(ks, dtype=_dt.int64)._h, False)
    if overwrite and rows.flags.writeable:
        core.copyto(rows._h, out._h)
    return out


def _check_real(x: NDArray, name: str) -> None:
    if x.dtype.kind == "c":
        raise TypeError(f"{name} of complex numbers ({x.dtype}) is not supported by minarray: sort, argsort, max, "
                        "min, argmax and argmin order them as NumPy does; partition, searchsorted, median and "
                        "the quantiles do not")


def _result_dtype(x: NDArray, q_dtype: DType | None, method: str = "linear") -> DType:
    """NumPy's result dtype: the input's for the methods that pick an
    element; else the input's promoted with ``q``'s (None: a Python number,
    weak), at least float64 for integers."""
    if method in ("lower", "higher", "nearest"):
        return x.dtype
    d = x.dtype if q_dtype is None else _dt.promote(x.dtype, q_dtype)
    return _dt.float64 if d.kind in "biu" else d


def _q_array(q: Any, scale: float, name: str) -> tuple[NDArray, DType | None]:
    """``q`` as a float64 array in [0, 1], and its dtype (None for a Python number)."""
    weak = isinstance(q, (int, float)) and not isinstance(q, bool)
    qa = asarray(float(q)) if weak else as_operand(q)
    q_dtype = None if weak else (qa.dtype if qa.dtype.kind == "f" else _dt.float64)
    qa = qa.astype(_dt.float64, copy=False)
    if scale != 1.0:
        qa = _ew.divide(qa, scale)
    if qa.size and not (bool(_utility.all(_ew.greater_equal(qa, 0.0))) and bool(_utility.all(_ew.less_equal(qa, 1.0)))):
        raise ValueError(f"{name} must be in the range [0, {100 if scale != 1.0 else 1}]")
    return qa, q_dtype


def _virtual(n: int, q: NDArray, method: str) -> tuple[list[int], list[int], list[float]]:
    """NumPy's positions below and above each quantile and the weight of the
    upper one, for ``n`` values (its ``_QuantileMethods`` formulas)."""
    below, above, gamma = [], [], []
    for p in (float(v) for v in q.reshape((-1,)).tolist()):
        v = (n - 1) * p
        if method in ("lower", "higher", "nearest"):
            i = math.floor(v) if method == "lower" else math.ceil(v) if method == "higher" else round(v)
            below.append(i)
            above.append(i)
            gamma.append(0.0)
            continue
        if method == "midpoint":
            v = 0.5 * (math.floor(v) + math.ceil(v))
        lo = math.floor(v)
        g = v - lo
        if method == "midpoint":
            g = 0.0 if v % 1 == 0 else 0.5
        if v >= n - 1:
            lo = hi = n - 1
        elif v < 0:
            lo = hi = 0
        else:
            hi = lo + 1
        below.append(int(lo))
        above.append(int(hi))
        gamma.append(g)
    return below, above, gamma


def _lerp(a: NDArray, b: NDArray, t: NDArray | float, weak: bool = False) -> NDArray:
    """NumPy's two-sided linear interpolation: from ``a`` for t < 0.5, from
    ``b`` otherwise (exact at both ends, monotonic).  ``weak``: ``t`` stands
    for per-row Python numbers, so ``t`` and ``1 - t`` are each computed in
    float64 and rounded to a's dtype, as NumPy's weak scalars are."""
    d = _ew.subtract(b, a)
    if isinstance(t, float):  # one weak Python number: the arithmetic stays in a's dtype
        return _ew.subtract(b, _ew.multiply(d, 1.0 - t)) if t >= 0.5 else _ew.add(a, _ew.multiply(d, t))
    one_minus = _ew.subtract(1.0, t)
    if weak:
        t, one_minus = t.astype(a.dtype), one_minus.astype(a.dtype)
    return _ew.where(_ew.greater_equal(t, 0.5), _ew.subtract(b, _ew.multiply(d, one_minus)),
                     _ew.add(a, _ew.multiply(d, t)))


def _quantile(name: str, a: Any, q: Any, axis: Axis, method: str, keepdims: bool, scale: float,
              skip_nan: bool, overwrite: bool = False) -> NDArray:
    x = as_operand(a, name)
    _check_real(x, name)
    if method not in _METHODS:
        raise ValueError(f"'{method}' is not a valid method. Use one of: {', '.join(_METHODS)}")
    qa, q_dtype = _q_array(q, scale, "Percentiles" if scale != 1.0 else "Quantiles")
    rows, axes = _rows(x, axis)
    res_dt = _result_dtype(x, q_dtype, method)
    n = rows.shape[-1]
    if n == 0:
        raise IndexError(f"{name}: cannot take a quantile of an empty array (axis of length 0)")
    discrete = method in ("lower", "higher", "nearest")
    work = rows if rows.dtype.kind == "f" or discrete else rows.astype(_dt.float64)
    if skip_nan and work.dtype.kind == "f":
        out = _nan_quantile_rows(work, qa, method, q_dtype is None)
    else:
        below, above, gamma = _virtual(n, qa, method)
        part = _partitioned(work, [*below, *above, n - 1], overwrite)
        if overwrite and work is not rows:  # the input's own dtype, partitioned in place
            _partitioned(rows, [*below, *above, n - 1], True)
        lo = take(part, asarray(below, dtype=_dt.int64), axis=-1)
        if discrete:
            out = lo
        else:
            hi = take(part, asarray(above, dtype=_dt.int64), axis=-1)
            out = _lerp(lo, hi, gamma[0] if q_dtype is None else asarray(gamma, dtype=_dt.float64))
        if work.dtype.kind == "f":  # a NaN anywhere in a row (it sorts last) makes that row's results NaN
            last = part[..., n - 1:n]
            out = _ew.where(_ew.isnan(last), last, out)
    out = moveaxis(out, -1, 0).reshape((*qa.shape, *out.shape[:-1]))
    if out.dtype is not res_dt:
        out = out.astype(res_dt)
    if keepdims:
        out = _keep(out, x.ndim, axes, qa.ndim)
    return core.scalar_result(out)  # one quantile of everything is NumPy's scalar


def _row_positions(counts: NDArray, p: float, method: str) -> tuple[NDArray, NDArray, NDArray]:
    """:func:`_virtual` for one quantile ``p`` and every row at once: each
    row's positions below and above and the weight of the upper one, from
    its own count of numbers (float64 arithmetic, as the scalar path's)."""
    c = counts.astype(_dt.float64)
    last = _ew.maximum(_ew.subtract(c, 1.0), 0.0)
    v = _ew.multiply(_ew.subtract(c, 1.0), p)
    if method in ("lower", "higher", "nearest"):
        i = (_ew.floor(v) if method == "lower" else _ew.ceil(v) if method == "higher" else _ew.round(v))
        i = _ew.clip(i, 0.0, last)
        return i.astype(_dt.int64), i.astype(_dt.int64), _ew.multiply(v, 0.0)
    if method == "midpoint":
        v = _ew.multiply(0.5, _ew.add(_ew.floor(v), _ew.ceil(v)))
    lo = _ew.floor(v)
    g = _ew.subtract(v, lo)
    if method == "midpoint":
        g = _ew.where(_ew.equal(g, 0.0), 0.0, 0.5)
    at_end = _ew.greater_equal(v, last)
    lo = _ew.where(at_end, last, _ew.maximum(lo, 0.0))
    hi = _ew.where(at_end, last, _ew.minimum(_ew.add(lo, 1.0), last))
    return lo.astype(_dt.int64), hi.astype(_dt.int64), g


def _nan_quantile_rows(work: NDArray, qa: NDArray, method: str, weak: bool) -> NDArray:
    """Quantiles of each row ignoring NaNs: the rows sorted (NaNs last),
    each row's positions from its own count of numbers, gathered with
    take_along_axis; rows of NaNs only give NaN."""
    srt = sort(work, axis=-1)
    counts = _searching.count_nonzero(_ew.logical_not(_ew.isnan(work)), axis=-1, keepdims=True)
    if bool(_utility.any(_ew.equal(counts, 0))):
        _warn("All-NaN slice encountered")
    cols = []
    for p in (float(v) for v in qa.reshape((-1,)).tolist()):
        lo_i, hi_i, g = _row_positions(counts, p, method)
        lo = take_along_axis(srt, lo_i, axis=-1)
        if method in ("lower", "higher", "nearest"):
            col = lo
        else:
            hi = take_along_axis(srt, hi_i, axis=-1)
            col = _lerp(lo, hi, g, weak)
        cols.append(_ew.where(_ew.equal(counts, 0), float("nan"), col).astype(col.dtype, copy=False))
    return stack([c[..., 0] for c in cols], axis=-1)


def quantile(a: Any, q: Any, axis: Axis = None, out: NDArray | None = None, overwrite_input: bool = False,
             method: str = "linear", keepdims: bool = False) -> NDArray:
    """The ``q``-th quantiles (``q`` in [0, 1], a number or an array of
    them) along ``axis`` (the flattened array when None).  ``method``:
    NumPy's default ``"linear"``, or ``"lower"``, ``"higher"``,
    ``"nearest"``, ``"midpoint"``.  An array ``q`` puts its axes first in
    the result.  Rows holding a NaN give NaN.  Integer inputs give
    float64; floating inputs keep their dtype when ``q`` is a Python
    number (NumPy's weak scalars).  ``overwrite_input=True`` leaves the
    input partially sorted, as NumPy may."""
    if type(a) is not NDArray and _subclass.instance(a):
        return _subclass.through_method(quantile, a, q, axis, out=out, overwrite_input=overwrite_input,
                                        method=method, keepdims=keepdims)
    r = _quantile("quantile", a, q, axis, method, keepdims, 1.0, False, overwrite_input)
    return write_out(out, r, "quantile")


def percentile(a: Any, q: Any, axis: Axis = None, out: NDArray | None = None, overwrite_input: bool = False,
               method: str = "linear", keepdims: bool = False) -> NDArray:
    """:func:`quantile` with ``q`` in percent ([0, 100])."""
    if type(a) is not NDArray and _subclass.instance(a):
        return _subclass.through_method(percentile, a, q, axis, out=out, overwrite_input=overwrite_input,
                                        method=method, keepdims=keepdims)
    r = _quantile("percentile", a, q, axis, method, keepdims, 100.0, False, overwrite_input)
    return write_out(out, r, "percentile")


def nanquantile(a: Any, q: Any, axis: Axis = None, out: NDArray | None = None, overwrite_input: bool = False,
                method: str = "linear", keepdims: bool = False) -> NDArray:
    """:func:`quantile` ignoring NaNs (NaN for a row of NaNs only)."""
    if type(a) is not NDArray and _subclass.instance(a):
        return _subclass.through_method(nanquantile, a, q, axis, out=out, overwrite_input=overwrite_input,
                                        method=method, keepdims=keepdims)
    return write_out(out, _quantile("nanquantile", a, q, axis, method, keepdims, 1.0, True), "nanquantile")


def nanpercentile(a: Any, q: Any, axis: Axis = None, out: NDArray | None = None, overwrite_input: bool = False,
                  method: str = "linear", keepdims: bool = False) -> NDArray:
    """:func:`percentile` ignoring NaNs."""
    if type(a) is not NDArray and _subclass.instance(a):
        return _subclass.through_method(nanpercentile, a, q, axis, out=out, overwrite_input=overwrite_input,
                                        method=method, keepdims=keepdims)
    return write_out(out, _quantile("nanpercentile", a, q, axis, method, keepdims, 100.0, True), "nanpercentile")


def median(a: Any, axis: Axis = None, out: NDArray | None = None, overwrite_input: bool = False,
           keepdims: bool = False) -> NDArray:
    """The median along ``axis`` (the flattened array when None): the
    middle element, or the mean of the two middle ones, found by selection
    (no sort).  NaN where a row holds a NaN; integers give float64.
    ``overwrite_input=True`` leaves the input partially sorted, as NumPy
    may."""
    if type(a) is not NDArray and _subclass.instance(a):
        return _subclass.through_method(median, a, axis, out=out, overwrite_input=overwrite_input,
                                        keepdims=keepdims, zero_d=True)
    return write_out(out, _median(a, axis, keepdims, overwrite_input), "median")


def _median(a: Any, axis: Axis, keepdims: bool, overwrite: bool = False) -> NDArray:
    x = as_operand(a, "median")
    _check_real(x, "median")
    rows, axes = _rows(x, axis)
    n = rows.shape[-1]
    res_dt = _result_dtype(x, None)
    if n == 0:  # NumPy's mean of nothing: NaN, with its warnings
        out = mean(rows, axis=-1).astype(res_dt, copy=False)
    else:
        half = n // 2
        mid = [half - 1, half] if n % 2 == 0 else [half]
        part = _partitioned(rows, [*mid, n - 1], overwrite)
        out = mean(part[..., mid[0]:mid[-1] + 1], axis=-1)
        if x.dtype.kind == "f":
            last = part[..., n - 1]
            out = _ew.where(_ew.isnan(last), last, out)
        if out.dtype is not res_dt:
            out = out.astype(res_dt)
    return _keep(out, x.ndim, axes) if keepdims else out


def nanmedian(a: Any, axis: Axis = None, out: NDArray | None = None, overwrite_input: bool = False,
              keepdims: bool = False) -> NDArray:
    """:func:`median` ignoring NaNs (NaN for a row of NaNs only)."""
    if type(a) is not NDArray and _subclass.instance(a):
        return _subclass.through_method(nanmedian, a, axis, out=out, overwrite_input=overwrite_input,
                                        keepdims=keepdims, zero_d=True)
    x = as_operand(a, "nanmedian")
    if x.dtype.kind != "f":
        return median(x, axis, out, keepdims=keepdims)
    return write_out(out, _nanmedian(x, axis, keepdims), "nanmedian")


def _nanmedian(x: NDArray, axis: Axis, keepdims: bool) -> NDArray:
    rows, axes = _rows(x, axis)
    if rows.shape[-1] == 0:
        out = full(rows.shape[:-1], float("nan"), dtype=x.dtype)
        return _keep(out, x.ndim, axes) if keepdims else out
    srt = sort(rows, axis=-1)  # NaNs last: each row's numbers come first
    counts = _searching.count_nonzero(_ew.logical_not(_ew.isnan(rows)), axis=-1, keepdims=True)
    if bool(_utility.any(_ew.equal(counts, 0))):
        _warn("All-NaN slice encountered")
    lo = _ew.maximum(_ew.floor_divide(_ew.subtract(counts, 1), 2), 0)
    hi = _ew.floor_divide(counts, 2)
    hi = _ew.where(_ew.equal(counts, 0), 0, hi)
    pair = take_along_axis(srt, _concat_last(lo, hi), axis=-1)
    out = mean(pair, axis=-1)
    out = _ew.where(_ew.equal(counts[..., 0], 0), float("nan"), out)
    if out.dtype is not x.dtype:
        out = out.astype(x.dtype)
    return _keep(out, x.ndim, axes) if keepdims else out


def _concat_last(*parts: NDArray) -> NDArray:
    return concat(list(parts), axis=-1)


def ptp(a: Any, axis: Axis = None, out: NDArray | None = None, keepdims: bool = False) -> NDArray:
    """Peak to peak: ``max - min`` along ``axis`` (in the input's dtype, so
    integers wrap as NumPy's do)."""
    if type(a) is not NDArray and _subclass.instance(a):
        return _subclass.through_method(ptp, a, axis, out=out, keepdims=keepdims, zero_d=True)
    x = as_operand(a, "ptp")
    return write_out(out, _ew.subtract(max(x, axis=axis, keepdims=keepdims), min(x, axis=axis, keepdims=keepdims)),
                     "ptp")


def average(a: Any, axis: Axis = None, weights: Any = None, returned: bool = False, *,
            keepdims: bool = False) -> Any:
    """The (weighted) mean along ``axis``: ``sum(a * weights) /
    sum(weights)``.  ``weights`` has ``a``'s shape, or a's lengths along
    ``axis`` (a tuple of axes in that order).  With ``returned``, also the sum of the weights (the count
    without weights), broadcast to the result's shape.  ZeroDivisionError
    when the weights sum to zero."""
    if type(a) is not NDArray and _subclass.instance(a):
        return _subclass.through_method(average, a, axis, weights, returned, keepdims=keepdims, zero_d=True)
    x = as_operand(a, "average")
    if weights is None:
        avg = mean(x, axis=axis, keepdims=keepdims)
        if not returned:
            return avg
        n = x.size if axis is None else math.prod(x.shape[d] for d in normalize_axes(axis, x.ndim))
        return avg, full(avg.shape, float(n), dtype=avg.dtype)
    w = as_operand(weights, "average")
    if x.dtype.kind in "biu":
        res_dt = _dt.promote(_dt.promote(x.dtype, w.dtype), _dt.float64)
    else:
        res_dt = _dt.promote(x.dtype, w.dtype)
    if w.shape != x.shape:
        if axis is None:
            raise TypeError("Axis must be specified when shapes of a and weights differ.")
        # NumPy 2's rule: the weights have a's lengths along the axes, in
        # the order given; they broadcast along the others
        axes = [normalize_axis(ax, x.ndim) for ax in (axis if isinstance(axis, tuple) else (axis,))]
        if len(set(axes)) != len(axes):
            raise ValueError("repeated axis")
        if w.shape != tuple(x.shape[ax] for ax in axes):
            raise ValueError("Shape of weights must be consistent with shape of a along specified axis.")
        w = permute_dims(w, tuple(sorted(range(len(axes)), key=lambda i: axes[i])))
        w = broadcast_to(w.reshape(tuple(n if d in axes else 1 for d, n in enumerate(x.shape))), x.shape)
    wt = w.astype(res_dt, copy=False)
    scl = sum(wt, axis=axis, dtype=res_dt, keepdims=keepdims)
    if bool(_utility.any(_ew.equal(scl, 0))):
        raise ZeroDivisionError("Weights sum to zero, can't be normalized")
    tot = sum(_ew.multiply(x.astype(res_dt, copy=False), wt), axis=axis, dtype=res_dt, keepdims=keepdims)
    avg = _ew.divide(tot, scl)
    if returned:
        return avg, broadcast_to(scl, avg.shape) if scl.shape != avg.shape else scl
    return avg


def _warn(message: str) -> None:
    """NumPy's RuntimeWarning for a slice with nothing to reduce."""
    warnings.warn(message, RuntimeWarning, stacklevel=_user_stacklevel())


def _floating(x: NDArray) -> bool:
    return x.dtype.kind in "fc"


def _replaced(x: NDArray, value: float) -> NDArray:
    """``x`` with its NaNs replaced by ``value`` (``x`` itself when it has
    no NaN to replace: not a floating dtype)."""
    return _ew.where(_ew.isnan(x), value, x) if _floating(x) else x


def nansum(a: Any, axis: Axis = None, dtype: Any = None, out: NDArray | None = None, keepdims: bool = False,
           initial: Any = None, where: Any = True) -> NDArray:
    """:func:`minarray.sum` treating NaNs as zero."""
    if type(a) is not NDArray and _subclass.instance(a):
        return _subclass.through_method(nansum, a, axis, dtype, out=out, keepdims=keepdims, initial=initial,
                                        where=where, zero_d=True)
    x = as_operand(a, "nansum")
    return sum(_replaced(x, 0.0), axis, dtype, out, keepdims, initial, where)


def nanprod(a: Any, axis: Axis = None, dtype: Any = None, out: NDArray | None = None, keepdims: bool = False,
            initial: Any = None, where: Any = True) -> NDArray:
    """:func:`minarray.prod` treating NaNs as one."""
    if type(a) is not NDArray and _subclass.instance(a):
        return _subclass.through_method(nanprod, a, axis, dtype, out=out, keepdims=keepdims, initial=initial,
                                        where=where, zero_d=True)
    x = as_operand(a, "nanprod")
    return prod(_replaced(x, 1.0), axis, dtype, out, keepdims, initial, where)


def nancumsum(a: Any, axis: int | None = None, dtype: Any = None, out: NDArray | None = None) -> NDArray:
    """:func:`minarray.cumsum` treating NaNs as zero."""
    if type(a) is not NDArray and _subclass.instance(a):
        return _subclass.through_method(nancumsum, a, axis, dtype, out=out, zero_d=True)
    return cumsum(_replaced(as_operand(a, "nancumsum"), 0.0), axis, dtype, out)


def nancumprod(a: Any, axis: int | None = None, dtype: Any = None, out: NDArray | None = None) -> NDArray:
    """:func:`minarray.cumprod` treating NaNs as one."""
    if type(a) is not NDArray and _subclass.instance(a):
        return _subclass.through_method(nancumprod, a, axis, dtype, out=out, zero_d=True)
    return cumprod(_replaced(as_operand(a, "nancumprod"), 1.0), axis, dtype, out)


def _count_numbers(x: NDArray, axis: Axis, keepdims: bool, where: Any = True) -> NDArray:
    """How many of the elements (those ``where=`` selects) are not NaN."""
    if where is True:
        return _searching.count_nonzero(_ew.logical_not(_ew.isnan(x)), axis=axis, keepdims=keepdims)
    return sum(_ew.logical_not(_ew.isnan(x)), axis, _dt.int64, None, keepdims, where=where)


def nanmean(a: Any, axis: Axis = None, dtype: Any = None, out: NDArray | None = None,
            keepdims: bool = False, *, where: Any = True) -> NDArray:
    """The mean of the numbers, NaNs ignored (NaN for a slice of NaNs only);
    ``where=`` picks the elements too."""
    if type(a) is not NDArray and _subclass.instance(a):
        return _subclass.through_method(nanmean, a, axis, dtype, out=out, keepdims=keepdims, where=where, zero_d=True)
    return write_out(out, _nanmean(a, axis, dtype, keepdims, where), "nanmean")


def _nanmean(a: Any, axis: Axis, dtype: Any, keepdims: bool, where: Any) -> NDArray:
    x = as_operand(a, "nanmean")
    if dtype is not None:
        x = x.astype(dtype)
    if not _floating(x):
        return mean(x, axis, None, None, keepdims, where=where)
    tot = sum(_replaced(x, 0.0), axis, None, None, keepdims, where=where)
    cnt = _count_numbers(x, axis, keepdims, where)
    if bool(_utility.any(_ew.equal(cnt, 0))):
        _warn("Mean of empty slice")
    with errstate(invalid="ignore", divide="ignore"):
        return _ew.divide(tot, cnt.astype(_dt.float64)).astype(x.dtype, copy=False)


def _nanvar(name: str, a: Any, axis: Axis, dtype: Any, ddof: Any, keepdims: bool, correction: Any,
            take_sqrt: bool, where: Any = True, mu: Any = None) -> NDArray:
    x = as_operand(a, name)
    if dtype is not None:
        x = x.astype(dtype)
    corr = _correction(correction, ddof)
    if not _floating(x):
        fn = std if take_sqrt else var
        return fn(x, axis=axis, correction=corr, keepdims=keepdims, where=where, mean=mu)
    nan = _ew.isnan(x)
    if where is not True:  # an element where= leaves out counts as a NaN
        nan = _ew.logical_or(nan, _ew.logical_not(where_mask(where, x.shape)))
    x0 = _ew.where(nan, 0.0, x)
    numbers = _ew.logical_not(nan)
    cnt = _searching.count_nonzero(numbers, axis=axis, keepdims=True)
    dof = _ew.subtract(_searching.count_nonzero(numbers, axis=axis, keepdims=keepdims).astype(_dt.float64),
                       float(corr))
    if bool(_utility.any(_ew.less_equal(dof, 0))):
        _warn("Degrees of freedom <= 0 for slice.")
    with errstate(invalid="ignore", divide="ignore"):
        avg = (as_operand(mu) if mu is not None else
               _ew.divide(sum(x0, axis=axis, keepdims=True), cnt.astype(_dt.float64)).astype(x.dtype, copy=False))
        dev = _ew.where(nan, 0.0, _ew.subtract(x0, avg))
        ssd = sum(_squared(dev), axis=axis, keepdims=keepdims)
        # rounded to the result before the root, as NumPy's nanstd takes it
        out = _ew.divide(ssd, _ew.maximum(dof, 0.0)).astype(_moment_result(x), copy=False)
    return _ew.sqrt(out) if take_sqrt else out


def nanvar(a: Any, axis: Axis = None, dtype: Any = None, out: NDArray | None = None, ddof: Any = None,
           keepdims: bool = False, *, where: Any = True, mean: Any = None, correction: Any = None) -> NDArray:
    """The variance of the numbers, NaNs ignored; ``ddof`` or ``correction``,
    ``where=`` and ``mean=`` as in :func:`minarray.var`."""
    if type(a) is not NDArray and _subclass.instance(a):
        return _subclass.through_method(nanvar, a, axis, dtype, out=out, ddof=ddof, keepdims=keepdims,
                                        where=where, mean=mean, correction=correction, zero_d=True)
    r = _nanvar("nanvar", a, axis, dtype, ddof, keepdims, correction, False, where, mean)
    return write_out(out, r, "nanvar")


def nanstd(a: Any, axis: Axis = None, dtype: Any = None, out: NDArray | None = None, ddof: Any = None,
           keepdims: bool = False, *, where: Any = True, mean: Any = None, correction: Any = None) -> NDArray:
    """The standard deviation of the numbers, NaNs ignored."""
    if type(a) is not NDArray and _subclass.instance(a):
        return _subclass.through_method(nanstd, a, axis, dtype, out=out, ddof=ddof, keepdims=keepdims,
                                        where=where, mean=mean, correction=correction, zero_d=True)
    r = _nanvar("nanstd", a, axis, dtype, ddof, keepdims, correction, True, where, mean)
    return write_out(out, r, "nanstd")


def _nanminmax(name: str, a: Any, axis: Axis, keepdims: bool, initial: Any, where: Any, big: float) -> NDArray:
    x = as_operand(a, name)
    fn = min if big > 0 else max
    if x.dtype.kind != "f":
        return fn(x, axis, None, keepdims, initial, where)
    out = fn(_ew.where(_ew.isnan(x), big, x), axis, None, keepdims, initial, where)
    if initial is not None:  # NumPy's fmin/fmax from initial: a slice of NaNs gives initial
        return out
    all_nan = _utility.all(_ew.isnan(x), axis, None, keepdims, where=where)
    if bool(_utility.any(all_nan)):
        _warn("All-NaN slice encountered")
    return _ew.where(all_nan, float("nan"), out).astype(x.dtype, copy=False)


def nanmin(a: Any, axis: Axis = None, out: NDArray | None = None, keepdims: bool = False, initial: Any = None,
           where: Any = True) -> NDArray:
    """The minimum ignoring NaNs (NaN for a slice of NaNs only)."""
    if type(a) is not NDArray and _subclass.instance(a):
        return _subclass.through_method(nanmin, a, axis, out=out, keepdims=keepdims, initial=initial,
                                        where=where, zero_d=True)
    return write_out(out, _nanminmax("nanmin", a, axis, keepdims, initial, where, math.inf), "nanmin")


def nanmax(a: Any, axis: Axis = None, out: NDArray | None = None, keepdims: bool = False, initial: Any = None,
           where: Any = True) -> NDArray:
    """The maximum ignoring NaNs (NaN for a slice of NaNs only)."""
    if type(a) is not NDArray and _subclass.instance(a):
        return _subclass.through_method(nanmax, a, axis, out=out, keepdims=keepdims, initial=initial,
                                        where=where, zero_d=True)
    return write_out(out, _nanminmax("nanmax", a, axis, keepdims, initial, where, -math.inf), "nanmax")


def _nanarg(name: str, a: Any, axis: int | None, keepdims: bool, big: float) -> NDArray:
    x = as_operand(a, name)
    fn = argmin if big > 0 else argmax
    if x.dtype.kind != "f":
        return fn(x, axis=axis, keepdims=keepdims)
    nan = _ew.isnan(x)
    if bool(_utility.any(_utility.all(nan, axis=axis))):
        raise ValueError("All-NaN slice encountered")
    return fn(_ew.where(nan, big, x), axis=axis, keepdims=keepdims)


def nanargmin(a: Any, axis: int | None = None, out: NDArray | None = None, *, keepdims: bool = False) -> NDArray:
    """The index of the minimum ignoring NaNs; ValueError for a slice of NaNs only."""
    if type(a) is not NDArray and _subclass.instance(a):
        return _subclass.through_method(nanargmin, a, axis, out=out, keepdims=keepdims)
    return write_out(out, _nanarg("nanargmin", a, None if axis is None else as_int(axis, "axis"), keepdims,
                                  math.inf), "nanargmin")


def nanargmax(a: Any, axis: int | None = None, out: NDArray | None = None, *, keepdims: bool = False) -> NDArray:
    """The index of the maximum ignoring NaNs; ValueError for a slice of NaNs only."""
    if type(a) is not NDArray and _subclass.instance(a):
        return _subclass.through_method(nanargmax, a, axis, out=out, keepdims=keepdims)
    return write_out(out, _nanarg("nanargmax", a, None if axis is None else as_int(axis, "axis"), keepdims,
                                  -math.inf), "nanargmax")


def _cov_weights(weights: Any, n: int, what: str) -> NDArray | None:
    """NumPy's checks of cov's ``fweights`` or ``aweights``, as float64."""
    if weights is None:
        return None
    w = as_operand(weights, "cov").astype(_dt.float64)
    if what == "fweights" and not bool(_utility.all(_ew.equal(w, _ew.round(w)))):
        raise TypeError("fweights must be integer")
    if w.ndim > 1:
        raise RuntimeError(f"cannot handle multidimensional {what}")
    if w.shape[0] != n:
        raise RuntimeError(f"incompatible numbers of samples and {what}")
    if bool(_utility.any(_ew.less(w, 0))):
        raise ValueError(f"{what} cannot be negative")
    return w


def cov(m: Any, y: Any = None, rowvar: bool = True, bias: bool = False, ddof: int | None = None,
        fweights: Any = None, aweights: Any = None, *, dtype: Any = None) -> NDArray:
    """The covariance matrix of the variables in the rows of ``m`` (columns
    with ``rowvar=False``), ``y``'s variables appended: NumPy's ``cov``,
    normalised by N - 1 (N with ``bias``, N - ``ddof`` when given); one
    variable gives a 0-d array.  ``fweights`` (whole repeat counts) and
    ``aweights`` (relative importances) weight the observations, with
    NumPy's normalisation."""
    if type(m) is not NDArray or type(y) is not NDArray:  # NumPy's gives a plain array
        m, y = _subclass.plain(m), _subclass.plain(y)
    from minarray._linear_algebra import matmul  # cycle: _linear_algebra imports this module

    x = atleast_2d(as_operand(m, "cov"))
    if x.ndim > 2:
        raise ValueError("m has more than 2 dimensions")
    res_dt = _dt.as_dtype(dtype) if dtype is not None else _dt.promote(x.dtype, _dt.float64)
    if not rowvar and x.shape[0] != 1:
        x = x.T
    if y is not None:
        yy = atleast_2d(as_operand(y, "cov"))
        if yy.ndim > 2:
            raise ValueError("y has more than 2 dimensions")
        if not rowvar and yy.shape[0] != 1:
            yy = yy.T
        res_dt = _dt.promote(res_dt, yy.dtype) if dtype is None else res_dt
        x = concat([x, yy], axis=0)
    x = x.astype(res_dt)
    if ddof is not None and ddof != int(ddof):  # NumPy takes a whole float (2.0), not 2.5
        raise ValueError(f"cov: ddof must be an integer, got {ddof!r}")
    if ddof is None:
        ddof = 0 if bias else 1
    n = x.shape[1]
    fw, aw = _cov_weights(fweights, n, "fweights"), _cov_weights(aweights, n, "aweights")
    w = aw if fw is None else (fw if aw is None else _ew.multiply(fw, aw))
    if w is None:
        avg = mean(x, axis=1, keepdims=True)
        fact: float = builtins.max(n - ddof, 0)
    else:
        # NumPy's normalisation of weighted observations
        avgs, sums = average(x, axis=1, weights=broadcast_to(w, x.shape), returned=True)
        avg, w_sum = avgs[:, None], float(sums[0])
        if ddof == 0:
            fact = w_sum
        elif aw is None:
            fact = w_sum - ddof
        else:
            fact = w_sum - ddof * float(sum(_ew.multiply(w, aw))) / w_sum
        fact = builtins.max(fact, 0.0)
    xc = _ew.subtract(x, avg)
    if fact == 0:
        _warn("Degrees of freedom <= 0 for slice")
    # As NumPy: c *= 1 / fact, whose 1 / 0 reports "divide by zero" and
    # whose 0 * inf then "invalid value", under the errstate in force.
    c = matmul(xc, conj(xc if w is None else _ew.multiply(xc, w)).T)
    _ew.multiply(c, _ew.divide(asarray(1.0), float(fact)), out=c)
    return c.reshape(()) if c.shape == (1, 1) else c


def corrcoef(x: Any, y: Any = None, rowvar: bool = True, *, dtype: Any = None) -> NDArray:
    """Pearson correlation coefficients: :func:`cov` divided by the
    standard deviations, the real parts clipped to [-1, 1] (NumPy's
    ``corrcoef``)."""
    if type(x) is not NDArray or type(y) is not NDArray:  # NumPy's gives a plain array
        x, y = _subclass.plain(x), _subclass.plain(y)
    c = cov(x, y, rowvar, dtype=dtype)
    if c.ndim == 0:
        return _ew.divide(c, c)
    sd = _ew.sqrt(_ew.real(diagonal(c)))
    c = _ew.divide(_ew.divide(c, sd.reshape((-1, 1))), sd.reshape((1, -1)))
    if c.dtype.kind == "c":
        return _ew.add(_ew.clip(_ew.real(c), -1.0, 1.0), _ew.multiply(_ew.imag(c), 1j)).astype(c.dtype)
    return _ew.clip(c, -1.0, 1.0)


# NumPy's names of max and min: the same objects.
amax = max
amin = min
