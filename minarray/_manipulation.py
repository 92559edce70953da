"""Manipulation functions (Array API "Manipulation Functions") other than
joining (minarray/_joining.py): ``reshape``, ``permute_dims``,
``expand_dims``, ``squeeze``, ``flip``, ``moveaxis``, ``broadcast_to``,
``broadcast_arrays``, ``repeat``, ``roll``, ``tile``; and beside them
NumPy's ``ravel``, ``transpose``, ``swapaxes``, ``fliplr``/``flipud``,
``rot90``, ``diagonal`` and its editing routines (``pad``, ``append``,
``insert``, ``delete``, ``copyto``, ``resize``, ``trim_zeros``).

The view-returning ones build new shape and strides over the same buffer
(the common cases in C, csrc/py/views.c).  The others allocate their
result once and fill it by a few C copies into views of it; ``repeat``
with per-element counts has its own kernel (csrc/py/manipulation.c).
``broadcast_shapes`` is minarray/_coerce.py's, re-exported here.
"""

from __future__ import annotations

import itertools
import math
import operator
from collections.abc import Callable, Sequence
from typing import Any

from minarray import _dtypes as _dt
from minarray import _subclass
from minarray._array_object import NDArray, c_strides
from minarray._coerce import (
    along_axis,
    as_array,
    as_int,
    as_intp,
    as_ints,
    as_operand,
    asarray,
    broadcast_shapes,
    normalize_axes,
    normalize_axis,
)
from minarray._creation import arange, full
from minarray._elementwise import remainder
from minarray._elementwise import where as _where
from minarray._joining import concat
from minarray._native import core
from minarray._searching import nonzero
from minarray.exceptions import AxisError

__all__ = [
    "broadcast_shapes", "repeat", "roll", "tile", "pad", "append", "insert", "delete", "copyto", "resize",
    "trim_zeros", "broadcast_to", "broadcast_arrays", "expand_dims", "flip", "moveaxis", "permute_dims",
    "reshape", "squeeze", "swapaxes", "ravel", "transpose", "fliplr", "flipud", "rot90", "diagonal",
    "fill_diagonal", "rollaxis",
]


Shape = tuple[int, ...]


# ma_array's dimension limit (MA_MAXDIMS in csrc/core/array.h).
_MAXDIMS = 64


def repeat(x: NDArray, repeats: int | NDArray, /, axis: int | None = None) -> NDArray:
    """Repeat each element (``axis=None``: of the flattened array) or each
    slice along ``axis`` (Array API ``repeat``).

    ``repeats`` is a non-negative integer or a 1-d integer array with one
    count per slice (or a single count, which broadcasts).
    """
    if type(x) is not NDArray and _subclass.instance(x):
        return _subclass.through_method(repeat, x, repeats, axis)
    x, ax = along_axis(as_operand(x, "repeat"), axis)
    n = x.shape[ax]
    counts: NDArray | None = None
    if isinstance(repeats, NDArray) or isinstance(repeats, (list, tuple)) or hasattr(repeats, "__array_interface__"):
        counts = as_operand(repeats, "repeat")
        if counts.dtype.kind not in "iub":
            raise TypeError(f"repeat: repeats must have an integer dtype, got {counts.dtype}")
        if counts.ndim > 1:
            raise ValueError(f"repeat: repeats must be an integer or a 1-d array, got shape {counts.shape}")
        if counts.size == 1:
            repeats, counts = int(counts.reshape(()).item()), None
        elif counts.shape[0] != n:
            raise ValueError(
                f"repeat: {counts.shape[0]} repeats do not match the {n} elements along axis {ax}"
            )
    if counts is None:
        r = as_intp(repeats, "repeat: repeats")
        if r < 0:
            raise ValueError(f"repeat: repeats must be non-negative, got {r}")
        if x.ndim < _MAXDIMS:
            return _repeat_scalar(x, r, ax)
        # splitting an axis needs one more dimension than the limit allows
        counts = full((n,), r, dtype=_dt.int64)
    counts = counts.astype(_dt.int64, copy=False)
    src = x if x.flags.c_contiguous else x.copy()
    total, h = core.repeat(src._h, counts._h, ax)
    shape = (*x.shape[:ax], total, *x.shape[ax + 1:])
    return NDArray._new(h, shape, c_strides(shape), None)


def _repeat_scalar(x: NDArray, r: int, ax: int) -> NDArray:
    n = x.shape[ax]
    shape = (*x.shape[:ax], n * r, *x.shape[ax + 1:])
    out = NDArray._empty(shape, x.dtype)
    if out.size == 0:
        return out
    # Split the result's axis into (n, r) and copy x in with the r axis
    # broadcast: one C call.
    st = out._strides
    split = (*x.shape[:ax], n, r, *x.shape[ax + 1:])
    dst = out._view(0, split, (*st[:ax], r * st[ax], st[ax], *st[ax + 1:]))
    xst = x._strides
    src = x._view(0, (*x.shape[:ax], n, 1, *x.shape[ax + 1:]), (*xst[:ax], xst[ax], 0, *xst[ax + 1:]))
    core.copyto(dst._h, src._h)
    return out


def tile(x: NDArray, repetitions: Sequence[int] | int, /) -> NDArray:
    """Repeat the whole array ``repetitions[i]`` times along each axis (Array
    API ``tile``).  Shorter ``repetitions`` are padded with leading 1s;
    a shorter ``x`` is treated as if it had leading size-1 axes."""
    if type(x) is not NDArray and _subclass.instance(x):
        return _subclass.through_method(tile, x, repetitions, zero_d=True)
    x = as_operand(x, "tile")
    reps = tuple(as_intp(r, "tile: repetitions entry") for r in
                 (repetitions if isinstance(repetitions, (tuple, list)) else (repetitions,)))
    if any(r < 0 for r in reps):
        raise ValueError(f"tile: repetitions must be non-negative, got {reps}")
    nd = max(x.ndim, len(reps))
    reps = (1,) * (nd - len(reps)) + reps
    xs = (1,) * (nd - x.ndim) + x.shape
    xst = (0,) * (nd - x.ndim) + x._strides
    if nd > _MAXDIMS:
        raise ValueError(f"tile: the result would have {nd} dimensions; at most {_MAXDIMS} are supported")
    out = NDArray._empty(tuple(r * s for r, s in zip(reps, xs, strict=True)), x.dtype)
    if out.size:
        _tile_into(out, x, xs, xst, reps)
    return out


def _tile_into(out: NDArray, x: NDArray, xs: Shape, xst: Shape, reps: Shape) -> None:
    # Each repeated axis i of the result splits into (reps[i], xs[i]); x is
    # read with stride 0 along the reps part.  Axes with reps 1 stay whole.
    dshape: list[int] = []
    dstr: list[int] = []
    sshape: list[int] = []
    sstr: list[int] = []
    for r, s, xsd, ost in zip(reps, xs, xst, out._strides, strict=True):
        if r != 1:
            dshape += [r, s]
            dstr += [s * ost, ost]
            sshape += [1, s]
            sstr += [0, xsd]
        else:
            dshape.append(s)
            dstr.append(ost)
            sshape.append(s)
            sstr.append(xsd)
    if len(dshape) <= _MAXDIMS:
        core.copyto(out._view(0, tuple(dshape), tuple(dstr))._h, x._view(0, tuple(sshape), tuple(sstr))._h)
        return
    # Too many dimensions for one copy: fill the first tile, then copy it
    # along the leading repeated axis.
    i = next(k for k, r in enumerate(reps) if r != 1)
    first = list(out.shape)
    first[i] = xs[i]
    one = out._view(0, tuple(first), out._strides)
    _tile_into(one, x, xs, xst, (1,) * (i + 1) + reps[i + 1:])
    for k in range(1, reps[i]):
        core.copyto(out._view(k * xs[i] * out._strides[i], one.shape, out._strides)._h, one._h)


def roll(x: NDArray, /, shift: int | tuple[int, ...], axis: int | tuple[int, ...] | None = None) -> NDArray:
    """Shift elements along axes, wrapping around (Array API ``roll``).

    ``axis=None`` rolls the flattened array and restores the shape.  A
    tuple ``shift`` needs a tuple ``axis`` of the same length; a scalar on
    either side is broadcast to the other (NumPy); shifts of a repeated
    axis add up.
    """
    if type(x) is not NDArray and _subclass.instance(x):
        return _subclass.through_method(roll, x, shift, axis, zero_d=True)
    x = as_operand(x, "roll")
    shifts = as_ints(shift, "roll: shift")
    out = NDArray._empty(x.shape, x.dtype)
    if axis is None:
        flat = x if x.flags.c_contiguous else x.copy()
        src = flat._view(0, (x.size,), (1,))
        dst = out._view(0, (x.size,), (1,))
        _roll_into(dst, src, {0: sum(shifts)})
        return out
    axes = axis if isinstance(axis, (tuple, list)) else (axis,)
    if len(shifts) == 1 and len(axes) > 1:
        shifts = shifts * len(axes)
    elif len(axes) == 1 and len(shifts) > 1:
        axes = tuple(axes) * len(shifts)
    if len(shifts) != len(axes):
        raise ValueError(f"roll: shift {shift!r} and axis {axis!r} must have the same length")
    total: dict[int, int] = {}
    for s, a in zip(shifts, axes, strict=True):
        ax = normalize_axis(a, x.ndim)
        total[ax] = total.get(ax, 0) + s
    _roll_into(out, x, total)
    return out


def _roll_into(out: NDArray, x: NDArray, shifts: dict[int, int]) -> None:
    if out.size == 0:
        return
    # Per rolled axis: the two pieces (dst start, src start, length).  One
    # copy per combination of pieces, at most 2 ** (rolled axes).
    pieces: list[list[tuple[int, int, int, int]]] = []
    for ax, s in sorted(shifts.items()):
        n = x.shape[ax]
        k = s % n
        if k:
            pieces.append([(ax, k, 0, n - k), (ax, 0, n - k, k)])
    for combo in itertools.product(*pieces):
        shape = list(x.shape)
        doff = soff = 0
        for ax, dstart, sstart, length in combo:
            shape[ax] = length
            doff += dstart * out._strides[ax]
            soff += sstart * x._strides[ax]
        core.copyto(out._view(doff, tuple(shape), out._strides)._h, x._view(soff, tuple(shape), x._strides)._h)


def _pairs(value: Any, ndim: int, what: str) -> list[tuple[Any, Any]]:
    """NumPy's broadcasting of pad widths and constants to one (before,
    after) pair per axis: a scalar, a pair, or one pair per axis."""
    if isinstance(value, NDArray) or hasattr(value, "__array_interface__"):
        value = as_operand(value).tolist()
    if not isinstance(value, (tuple, list)):
        return [(value, value)] * ndim
    items = list(value)
    if len(items) == 1 and isinstance(items[0], (tuple, list)):
        items = list(items[0])
    if all(not isinstance(v, (tuple, list)) for v in items):
        if len(items) == 1:
            return [(items[0], items[0])] * ndim
        if len(items) == 2:
            return [(items[0], items[1])] * ndim
        raise ValueError(f"pad: {what} {value!r} does not broadcast to {ndim} (before, after) pairs")
    if len(items) != ndim or any(len(p) not in (1, 2) for p in items):
        raise ValueError(f"pad: {what} {value!r} does not broadcast to {ndim} (before, after) pairs")
    return [(p[0], p[-1]) for p in items]


def _pad_index(mode: str, n: int, before: int, after: int) -> list[int]:
    """The source position along an axis of each position of the padded
    axis, for the modes that copy elements of the array."""
    out = []
    for i in range(-before, n + after):
        if 0 <= i < n:
            out.append(i)
        elif mode == "edge":
            out.append(0 if i < 0 else n - 1)
        elif mode == "wrap":
            out.append(i % n)
        elif mode == "symmetric":
            j = i % (2 * n)
            out.append(j if j < n else 2 * n - 1 - j)
        else:  # reflect
            if n == 1:
                out.append(0)
                continue
            j = i % (2 * n - 2)
            out.append(j if j < n else 2 * n - 2 - j)
    return out


# NumPy's modes and the keywords each takes (any other keyword is its ValueError)
_PAD_KEYWORDS: dict[str, tuple[str, ...]] = {
    "constant": ("constant_values",), "empty": (), "edge": (), "wrap": (), "linear_ramp": ("end_values",),
    "maximum": ("stat_length",), "minimum": ("stat_length",), "mean": ("stat_length",),
    "median": ("stat_length",), "reflect": ("reflect_type",), "symmetric": ("reflect_type",),
}


def _pad_widths(pad_width: Any, ndim: int) -> list[tuple[int, int]]:
    """One (before, after) pair of non-negative ints per axis, from NumPy's
    spellings: a count, a pair, a pair per axis, or (NumPy 2.3) a dict
    {axis: count or pair} whose other axes are not padded."""
    if isinstance(pad_width, dict):
        pairs = [(0, 0)] * ndim
        for axis, width in pad_width.items():
            pairs[normalize_axis(axis, ndim)] = _pairs(width, 1, "pad_width")[0]
    else:
        pairs = _pairs(pad_width, ndim, "pad_width")
    widths = []
    for b, a in pairs:
        b, a = as_int(b, "pad: pad_width entry"), as_int(a, "pad: pad_width entry")
        if b < 0 or a < 0:
            raise ValueError("index can't contain negative values")
        widths.append((b, a))
    return widths


def pad(array: Any, pad_width: Any, mode: Any = "constant", **kwargs: Any) -> NDArray:
    """The array padded along each axis (NumPy's ``pad``): ``pad_width`` is
    a count, a (before, after) pair, one pair per axis, or a dict of axis to
    count or pair.  ``mode``: ``"constant"`` (``constant_values``, a
    scalar or pairs likewise), ``"empty"``, ``"edge"``, ``"wrap"``,
    ``"reflect"`` and ``"symmetric"`` (``reflect_type`` "even" or "odd"),
    ``"linear_ramp"`` (to ``end_values``), the statistics ``"maximum"``,
    ``"minimum"``, ``"mean"`` and ``"median"`` (of ``stat_length`` values
    next to each edge, all by default), or a function ``f(vector,
    pad_width, axis, kwargs)`` that writes the pads of each 1-d vector of
    a zero-padded array in place.  The axes are padded in order, each over
    the earlier axes' padded range, which fills the corners as NumPy's."""
    x = as_operand(array, "pad")
    widths = _pad_widths(pad_width, x.ndim)
    if callable(mode):
        return _pad_with_function(x, widths, mode, kwargs)
    if mode not in _PAD_KEYWORDS:
        raise ValueError(f"mode {mode!r} is not supported")
    unsupported = set(kwargs) - set(_PAD_KEYWORDS[mode])
    if unsupported:
        raise ValueError(f"unsupported keyword arguments for mode {mode!r}: {unsupported}")
    if mode in ("constant", "empty"):  # ("empty" leaves the pads unspecified: zeros here)
        return _pad_constant(x, widths, kwargs.get("constant_values", 0))
    for ax, (b, a) in enumerate(widths):
        if x.shape[ax] == 0 and (b or a):
            raise ValueError(f"can't extend empty axis {ax} using modes other than 'constant' or 'empty'")
    if x.size == 0:  # nothing to read, nothing to write: only the shape grows (no empty axis does)
        return _pad_constant(x, widths, 0)
    # (NumPy reads any reflect_type but "odd" as "even")
    odd = kwargs.get("reflect_type", "even") == "odd"
    if mode in ("edge", "wrap") or (mode in ("reflect", "symmetric") and not odd):
        return _pad_by_index(x, widths, mode)
    if mode in ("reflect", "symmetric"):
        return _pad_odd(x, widths, mode == "symmetric")
    if mode == "linear_ramp":
        return _pad_linear_ramp(x, widths, kwargs.get("end_values", 0))
    return _pad_statistic(x, widths, mode, _pairs(kwargs.get("stat_length"), x.ndim, "stat_length"))


def _pad_constant(x: NDArray, widths: list[tuple[int, int]], constant_values: Any) -> NDArray:
    shape = tuple(n + b + a for n, (b, a) in zip(x.shape, widths, strict=True))
    out = NDArray._empty(shape, x.dtype)
    if x.size:
        core.copyto(out._view(sum(b * s for (b, _), s in zip(widths, out._strides, strict=True)), x.shape,
                              out._strides)._h, x._h)
    values = _pairs(constant_values, x.ndim, "constant_values")
    # NumPy's order: axis by axis, each over the later axes' original
    # range only, so the later axes fill the corners.
    for ax, ((b, _a), (vb, va)) in enumerate(zip(widths, values, strict=True)):
        key: list[Any] = [slice(None)] * ax + [slice(wb, wb + n) for (wb, _), n in
                                                zip(widths[ax + 1:], x.shape[ax + 1:], strict=True)]
        for start, stop, v in ((0, b, vb), (b + x.shape[ax], shape[ax], va)):
            if stop > start:
                region = out[(*key[:ax], slice(start, stop), *key[ax:])]
                if region.size:
                    core.copyto(region._h, as_operand(v).astype(x.dtype)._h)
    return out


def _pad_by_index(x: NDArray, widths: list[tuple[int, int]], mode: str) -> NDArray:
    """The modes whose pads are elements of the array: one gather per axis."""
    from minarray._indexing import take  # cycle: _indexing imports this module

    out = x
    for ax, (b, a) in enumerate(widths):
        if b or a:
            out = take(out, asarray(_pad_index(mode, x.shape[ax], b, a), dtype=_dt.int64), axis=ax)
    return out if out is not x else x.copy()


def _along(ax: int, ndim: int, index: Any) -> tuple[Any, ...]:
    return (slice(None),) * ax + (index,) + (slice(None),) * (ndim - ax - 1)


def _pad_odd(x: NDArray, widths: list[tuple[int, int]], symmetric: bool) -> NDArray:
    """reflect_type="odd": the mirror image of the values next to an edge,
    turned about the edge's value (2 * edge - value).  A pad longer than
    the array takes several rounds, each mirroring up to whole periods of
    what is filled so far (n values for "symmetric", n - 1 for "reflect"),
    the left side then the right: NumPy's rounds, so floats round as its
    do.  A length-1 axis is extended by its value, as NumPy's."""
    from minarray._elementwise import multiply, subtract  # cycle: _elementwise imports this module

    out = x
    nd = x.ndim
    first = 0 if symmetric else 1  # the edge itself is mirrored in "symmetric" only
    for ax, (left, right) in enumerate(widths):
        n = x.shape[ax]
        if n == 1:
            out = _pad_by_index(out, [(left, right) if i == ax else (0, 0) for i in range(nd)], "edge")
            continue
        period = n if symmetric else n - 1
        while left or right:
            size = out.shape[ax]
            whole = (size - first) // period * period  # this round's longest chunk
            for on_left in (True, False):
                todo = left if on_left else right
                if not todo:
                    continue
                size = out.shape[ax]
                take = min(whole, todo)
                if on_left:  # outermost first: positions first+take-1 ... first
                    edge = out[_along(ax, nd, slice(0, 1))]
                    near = out[_along(ax, nd, slice(first, first + take))]
                else:  # nearest first: positions size-1-first ... size-first-take
                    edge = out[_along(ax, nd, slice(size - 1, size))]
                    near = out[_along(ax, nd, slice(size - first - take, size - first))]
                turned = subtract(multiply(edge, 2), near[_along(ax, nd, slice(None, None, -1))]).astype(x.dtype)
                out = concat((turned, out) if on_left else (out, turned), axis=ax)
                if on_left:
                    left -= take
                else:
                    right -= take
    return out if out is not x else x.copy()


def _pad_linear_ramp(x: NDArray, widths: list[tuple[int, int]], end_values: Any) -> NDArray:
    """Each pad a straight line from its end value to the edge's value
    (the edge excluded), as NumPy's ``linspace(end, edge, width,
    endpoint=False)``: computed in the float type NumPy's linspace picks,
    floored for an integer array (NumPy 2's linspace rule)."""
    from minarray._elementwise import add, divide, equal, floor, multiply, subtract  # cycle: as above
    from minarray._utility import any as _any  # cycle: _utility imports this module

    out = x
    nd = x.ndim
    # NumPy hands linspace one or two end values as NumPy scalars, which
    # take part in the type (a float32 array's ramps are then computed in
    # float64 and rounded once), and a pair per axis as Python numbers,
    # which do not (NumPy's _as_pairs)
    given = as_operand(end_values)
    strong = given.size == 1 or (given.size == 2 and given.shape != (2, 1))
    calc = _dt.promote(x.dtype, given.dtype) if strong else x.dtype
    calc = calc if calc.kind in "fc" else _dt.float64
    ends = _pairs(end_values, x.ndim, "end_values")
    for ax, ((b, a), (vb, va)) in enumerate(zip(widths, ends, strict=True)):
        n = out.shape[ax]
        parts: list[NDArray | None] = []
        for width, end, edge_at, reverse in ((b, vb, 0, False), (a, va, n - 1, True)):
            if not width:
                parts.append(None)
                continue
            edge = out[_along(ax, nd, slice(edge_at, edge_at + 1))].astype(calc)
            start = as_operand(end).astype(calc)
            steps = arange(width, dtype=calc).reshape(tuple(width if i == ax else 1 for i in range(nd)))
            delta = subtract(edge, start)
            step = divide(delta, width)
            # NumPy's linspace: when any step underflows to 0 (a denormal
            # delta), every ramp is scaled as k / width * delta instead
            if bool(_any(equal(step, 0))):
                ramp = add(multiply(divide(steps, width), delta), start)
            else:
                ramp = add(multiply(steps, step), start)
            if x.dtype.kind in "iub":
                ramp = floor(ramp)
            ramp = ramp.astype(x.dtype)
            parts.append(ramp[_along(ax, nd, slice(None, None, -1))] if reverse else ramp)
        pieces = [p for p in (parts[0], out, parts[1]) if p is not None]
        out = concat(pieces, axis=ax) if len(pieces) > 1 else out
    return out if out is not x else x.copy()


def _pad_statistic(x: NDArray, widths: list[tuple[int, int]], mode: str,
                   lengths: list[tuple[Any, Any]]) -> NDArray:
    """Each pad filled with a statistic of the ``stat_length`` values next
    to its edge (all of the axis by default); rounded half to even for an
    integer array, as NumPy's."""
    from minarray import _statistical as _stat  # cycle: _statistical imports this module
    from minarray._elementwise import round as _round  # cycle: _elementwise imports this module

    stats: dict[str, Callable[..., NDArray]] = {"maximum": _stat.max, "minimum": _stat.min, "mean": _stat.mean,
                                                "median": _stat.median}
    func = stats[mode]
    out = x
    nd = x.ndim
    for ax, ((b, a), (lb, la)) in enumerate(zip(widths, lengths, strict=True)):
        n = out.shape[ax]
        parts = []
        for width, length, left in ((b, lb, True), (a, la, False)):
            k = n if length is None else min(as_int(length, "pad: stat_length"), n)
            if k < 0:
                raise ValueError("index can't contain negative values")
            if k == 0 and mode in ("maximum", "minimum"):  # (NumPy checks unpadded axes too)
                raise ValueError("stat_length of 0 yields no value for padding")
            if not (b or a):
                break
            region = out[_along(ax, nd, slice(0, k) if left else slice(n - k, n))]
            stat = func(region, axis=ax, keepdims=True)
            if x.dtype.kind in "iu" and stat.dtype.kind == "f":
                stat = _round(stat)
            stat = stat.astype(x.dtype)
            parts.append(broadcast_to(stat, tuple(width if i == ax else s for i, s in enumerate(out.shape))))
        if parts:
            out = concat((parts[0], out, parts[1]), axis=ax)
    return out if out is not x else x.copy()


def _pad_with_function(x: NDArray, widths: list[tuple[int, int]], function: Any,
                       kwargs: dict[str, Any]) -> NDArray:
    """NumPy's pad with a function: the array zero-padded, then for each
    axis ``function(vector, pad_width, axis, kwargs)`` called on every 1-d
    view along it, which writes the pads in place."""
    out = _pad_constant(x, widths, 0)
    for ax in range(out.ndim):
        lines = moveaxis(out, ax, -1)
        for ind in itertools.product(*(range(n) for n in lines.shape[:-1])):
            function(lines[(*ind, Ellipsis)], widths[ax], ax, kwargs)
    return out


def append(arr: Any, values: Any, axis: int | None = None) -> NDArray:
    """``values`` joined after ``arr``: both flattened when ``axis`` is
    None, else :func:`concat` along ``axis`` (the shapes must agree)."""
    a, v = as_operand(arr, "append"), as_operand(values, "append")
    if axis is None:
        return concat([a.reshape((-1,)), v.reshape((-1,))], axis=0)
    return concat([a, v], axis=axis)


def _positions(obj: Any, n: int, fname: str) -> list[int] | int:
    """An index, slice, index sequence or boolean mask along an axis of
    length ``n`` as an int or a list of ints, negative ones wrapped."""
    if isinstance(obj, slice):
        return list(range(*obj.indices(n)))
    if isinstance(obj, (bool, int)) or (hasattr(obj, "__index__") and getattr(obj, "ndim", 0) == 0
                                        and not isinstance(obj, NDArray)):
        return operator.index(obj)
    idx = as_operand(obj, fname)
    if idx.dtype.kind == "b":
        if idx.ndim != 1 or idx.shape[0] != n:
            raise ValueError(f"{fname}: a boolean mask must be 1-d of length {n}, got shape {idx.shape}")
        return [i for i, keep in enumerate(idx.tolist()) if keep]
    if idx.size and idx.dtype.kind not in "iu":
        raise IndexError("arrays used as indices must be of integer (or boolean) type")
    if idx.ndim == 0:
        return int(idx.item())
    return [int(i) for i in idx.reshape((-1,)).tolist()]


def delete(arr: Any, obj: Any, axis: int | None = None) -> NDArray:
    """A copy of ``arr`` without the entries ``obj`` (an index, slice,
    index sequence or boolean mask of those to drop) along ``axis``
    (the flattened array when None)."""
    if type(arr) is not NDArray and _subclass.instance(arr):
        return _subclass.through_method(delete, arr, obj, axis, zero_d=True)
    from minarray._indexing import take  # cycle: _indexing imports this module

    x = as_operand(arr, "delete")
    if axis is None:
        x, ax = x.reshape((-1,)), 0
    else:
        ax = normalize_axis(axis, x.ndim)
    n = x.shape[ax]
    pos = _positions(obj, n, "delete")
    drop = [pos] if isinstance(pos, int) else pos
    for p in drop:
        if not -n <= p < n:
            raise IndexError(f"index {p} is out of bounds for axis {ax} with size {n}")
    gone = {p % n for p in drop}
    keep = asarray([i for i in range(n) if i not in gone], dtype=_dt.int64)
    return take(x, keep, axis=ax)


def insert(arr: Any, obj: Any, values: Any, axis: int | None = None) -> NDArray:
    """A copy of ``arr`` with ``values`` inserted before the index or
    indices ``obj`` along ``axis`` (the flattened array when None), as
    NumPy's ``insert``: one index inserts the whole block ``values``,
    a sequence one slice per index."""
    if type(arr) is not NDArray and _subclass.instance(arr):
        return _subclass.through_method(insert, arr, obj, values, axis, zero_d=True)
    from minarray._indexing import take  # cycle: _indexing imports this module

    x = as_operand(arr, "insert")
    if axis is None:
        x, ax = x.reshape((-1,)), 0
    else:
        ax = normalize_axis(axis, x.ndim)
    n = x.shape[ax]
    pos = _positions(obj, n, "insert") if not isinstance(obj, slice) else list(range(*obj.indices(n)))
    v = as_operand(values, "insert").astype(x.dtype, copy=False)
    if v.ndim < x.ndim:
        v = v.reshape((1,) * (x.ndim - v.ndim) + v.shape)
    if isinstance(pos, int):
        if not -n <= pos <= n:
            raise IndexError(f"index {pos} is out of bounds for axis {ax} with size {n}")
        at = pos + n if pos < 0 else pos
        v = moveaxis(v, 0, ax)
        shape = (*x.shape[:ax], v.shape[ax], *x.shape[ax + 1:])
        block = broadcast_to(v, shape)
        key: tuple[Any, ...] = (slice(None),) * ax
        return concat([x[(*key, slice(0, at))], block, x[(*key, slice(at, None))]], axis=ax)
    for p in pos:
        if not -n <= p <= n:
            raise IndexError(f"index {p} is out of bounds for axis {ax} with size {n}")
    at_list = [p + n if p < 0 else p for p in pos]
    m = len(at_list)
    shape = (*x.shape[:ax], m, *x.shape[ax + 1:])
    block = broadcast_to(v, shape)
    # NumPy's placement: the k-th inserted slice (in index order, stable)
    # lands at its index plus the number inserted before it.
    order = sorted(range(m), key=lambda k: at_list[k])
    final = [0] * m
    for rank, k in enumerate(order):
        final[k] = at_list[k] + rank
    src = [-1] * (n + m)
    for k, f in enumerate(final):
        src[f] = n + k
    it = iter(range(n))
    src = [next(it) if s < 0 else s for s in src]
    both = concat([x, block], axis=ax)
    return take(both, asarray(src, dtype=_dt.int64), axis=ax)


def copyto(dst: NDArray, src: Any, casting: str = "same_kind", where: Any = True) -> None:
    """Copy ``src`` (broadcast) into ``dst`` in place, where ``where`` is
    true; the cast must be allowed by ``casting`` ("same_kind", the
    default, "safe", "unsafe" or "no"/"equiv")."""
    dst = as_array(dst, "copyto", "1")
    if isinstance(src, (bool, int, float, complex)):
        s = asarray(src, dtype=_dt.scalar_dtype(src, dst.dtype))
    else:
        s = as_operand(src, "copyto")
    if casting not in _dt.CASTING:
        raise ValueError(f"casting must be one of 'no', 'equiv', 'safe', 'same_kind', or 'unsafe', not {casting!r}")
    if not _dt.casting_allows(s.dtype, dst.dtype, casting):
        raise TypeError(f"Cannot cast array data from {s.dtype} to {dst.dtype} according to the rule {casting!r}")
    try:
        s = broadcast_to(s, dst.shape)
    except ValueError:
        raise ValueError(f"could not broadcast input array from shape {s.shape} into shape {dst.shape}") from None
    if where is True:
        core.copyto(dst._h, s._h)
        return
    core.copyto(dst._h, _where(where, s, dst)._h)


def resize(a: Any, new_shape: int | Sequence[int]) -> NDArray:
    """A new array of ``new_shape`` filled with ``a``'s elements in C order,
    repeated as often as needed (NumPy's ``resize`` function)."""
    if type(a) is not NDArray:  # NumPy's gives a plain array
        a = _subclass.plain(a)
    from minarray._indexing import take  # cycle: _indexing imports this module

    x = as_operand(a, "resize").reshape((-1,))
    shape = as_ints(new_shape if isinstance(new_shape, Sequence) else (new_shape,), "resize: new_shape entry")
    if any(n < 0 for n in shape):
        raise ValueError("all elements of `new_shape` must be non-negative")
    size = math.prod(shape)
    if size >= 2**63:  # NumPy's OverflowError: the element count must fit in an npy_intp
        raise OverflowError(f"resize: new_shape {shape} has {size} elements, more than a 64-bit integer holds")
    if x.size == 0 or size == 0:
        return NDArray._empty(shape, x.dtype, zero=True)
    return take(x, remainder(arange(size), x.size)).reshape(shape)


def trim_zeros(filt: Any, trim: str = "fb", axis: Any = None) -> Any:
    """``filt`` without its leading (``"f"``) and/or trailing (``"b"``)
    zeros along each axis of ``axis`` (all by default; NumPy 2.2): the
    smallest box holding every non-zero element, a view.  As NumPy's, it
    slices ``filt`` itself, so a list gives a list."""
    x = as_operand(filt, "trim_zeros")
    t = trim.lower()
    if t not in ("fb", "bf", "f", "b"):
        raise ValueError(f"unexpected character(s) in `trim`: {trim!r}")
    axes = tuple(range(x.ndim)) if axis is None else normalize_axes(axis, x.ndim)
    if not axes:
        return filt
    where_nonzero = nonzero(x)
    empty = where_nonzero[0].shape[0] == 0 if where_nonzero else not bool(x)
    key = []
    for ax in range(x.ndim):
        if ax not in axes:
            key.append(slice(None))
        elif empty:
            key.append(slice(0, 0))
        else:
            found = where_nonzero[ax]
            key.append(slice(int(found.min()) if "f" in t else None, int(found.max()) + 1 if "b" in t else None))
    if len(key) == 1 and not isinstance(filt, NDArray) and isinstance(filt, (list, tuple)):
        return filt[key[0]]
    return x[tuple(key)]


def broadcast_to(x: NDArray, /, shape: Sequence[int], subok: bool = False) -> NDArray:
    """A read-only view of ``x`` with ``shape`` (size-1 dims get stride 0);
    a plain array unless ``subok`` (NumPy's keyword) keeps x's subclass."""
    if type(x) is not NDArray and not subok:
        x = _subclass.plain(x)
    x = as_operand(x, "broadcast_to")
    shape = as_ints(shape, "broadcast_to: shape entry")
    if any(n < 0 for n in shape):
        raise ValueError(f"negative dimensions are not allowed in shape {shape}")
    tail = shape[len(shape) - x.ndim:]
    if len(shape) < x.ndim or any(n != xn and xn != 1 for n, xn in zip(tail, x.shape, strict=True)):
        raise ValueError(f"cannot broadcast an array of shape {x.shape} to shape {shape}")
    pad = len(shape) - x.ndim
    strides = [0] * pad
    for xn, s in zip(x.shape, x._strides, strict=True):
        # a size-1 axis gets stride 0 even when it stays size 1, as in NumPy
        strides.append(s if xn != 1 else 0)
    return x._view(0, shape, tuple(strides), readonly=True)


def broadcast_arrays(*arrays: NDArray, subok: bool = False) -> tuple[NDArray, ...]:
    """The arrays broadcast against each other: read-only views of one
    common shape, as a tuple (Array API 2025.12, and NumPy 2); plain
    arrays unless ``subok`` (NumPy's keyword) keeps their subclasses."""
    arrays = tuple(as_operand(a if subok else _subclass.plain(a), "broadcast_arrays") for a in arrays)
    shape = broadcast_shapes(*(a.shape for a in arrays))
    return tuple(a if a.shape == shape else broadcast_to(a, shape, subok) for a in arrays)


def permute_dims(x: NDArray, /, axes: tuple[int, ...]) -> NDArray:
    """A view of ``x`` with its axes reordered as ``axes`` (a permutation of ``range(x.ndim)``)."""
    x = as_operand(x, "permute_dims")
    out: NDArray = core.ndarray_permute(x, axes)  # C alone, errors included (csrc/py/views.c)
    return out


def swapaxes(x: NDArray, axis1: int, axis2: int) -> NDArray:
    """A view of ``x`` with ``axis1`` and ``axis2`` exchanged."""
    x = as_operand(x, "swapaxes")
    order = list(range(x.ndim))
    a, b = normalize_axis(axis1, x.ndim), normalize_axis(axis2, x.ndim)
    order[a], order[b] = order[b], order[a]
    return permute_dims(x, tuple(order))


def moveaxis(x: NDArray, source: int | tuple[int, ...], destination: int | tuple[int, ...], /) -> NDArray:
    """A view of ``x`` with the axes ``source`` moved to positions ``destination``."""
    x = as_operand(x, "moveaxis")
    src = (source,) if not isinstance(source, (tuple, list)) else tuple(source)
    dst = (destination,) if not isinstance(destination, (tuple, list)) else tuple(destination)
    if len(src) != len(dst):
        raise ValueError("source and destination must have the same number of axes")
    s = [normalize_axis(a, x.ndim, "source") for a in src]
    d = [normalize_axis(a, x.ndim, "destination") for a in dst]
    if len(set(s)) != len(s) or len(set(d)) != len(d):
        raise ValueError("repeated axis in moveaxis")
    order = [n for n in range(x.ndim) if n not in s]
    for dest, srcax in sorted(zip(d, s, strict=True)):
        order.insert(dest, srcax)
    return permute_dims(x, tuple(order))


def expand_dims(x: NDArray, /, axis: int | tuple[int, ...] = 0) -> NDArray:
    """A view of ``x`` with a new axis of length 1 at each position in ``axis``."""
    x = as_operand(x, "expand_dims")
    axes = (axis,) if not isinstance(axis, (tuple, list)) else tuple(axis)
    nd = x.ndim + len(axes)
    norm = sorted(normalize_axis(a, nd) for a in axes)
    if len(set(norm)) != len(norm):
        raise ValueError(f"repeated axis in {axes}")
    shape = list(x.shape)
    for a in norm:
        shape.insert(a, 1)
    # as NumPy: a reshape, which inserting size-1 axes never makes a copy
    # (and which gives the new axes NumPy's strides)
    return reshape(x, tuple(shape), copy=False)


def squeeze(x: NDArray, /, axis: int | tuple[int, ...] | None = None) -> NDArray:
    """A view of ``x`` without the length-1 axes in ``axis`` (all of them when None); ValueError
    for an axis whose length is not 1."""
    x = as_operand(x, "squeeze")
    axes: tuple[int, ...] = ()
    if axis is not None:
        axes = normalize_axes(axis, x.ndim)
        for a in axes:
            if x._shape[a] != 1:
                raise ValueError("cannot select an axis to squeeze out which has size not equal to one")  # NumPy's
    # one plain loop (a comprehension costs a frame: three took 0.7 us)
    shape: list[int] = []
    strides: list[int] = []
    for i, (n, st) in enumerate(zip(x._shape, x._strides, strict=True)):
        if not (n == 1 if axis is None else i in axes):
            shape.append(n)
            strides.append(st)
    return x._view(0, tuple(shape), tuple(strides))


def flip(x: NDArray, /, axis: int | tuple[int, ...] | None = None) -> NDArray:
    """A view of ``x`` with the order of elements reversed along ``axis`` (all axes when None):
    negative strides, no copy."""
    x = as_operand(x, "flip")
    axes = normalize_axes(axis, x.ndim)
    offset = 0
    strides = list(x._strides)
    for a in axes:
        if x.shape[a] > 0:
            offset += (x.shape[a] - 1) * strides[a]
        strides[a] = -strides[a]
    return x._view(offset, x.shape, tuple(strides))


def reshape(x: NDArray, /, shape: Sequence[Any], order: str = "C", *, copy: bool | None = None) -> NDArray:
    """A view when the strides allow one, else a copy (``copy=False``
    raises ValueError instead; ``copy=True`` always copies).  ``order="F"``
    reads and places the elements in Fortran order (first index fastest),
    ``"A"`` in Fortran order when ``x`` is Fortran-contiguous and not
    C-contiguous, as NumPy's.

    Views and copies, and the strides of the views, are NumPy's
    (``PyArray_Newshape``): the same shape as given gives a plain view, a
    C-contiguous array takes C strides, anything else NumPy's no-copy rule
    (``_attempt_nocopy_reshape``); all of it in csrc/py/views.c.
    """
    x = as_operand(x, "reshape")
    if order != "C":
        return reshape_fortran(x, shape, order, copy)
    out: NDArray = core.ndarray_reshape(x, (shape,), copy)  # C does it all (csrc/py/views.c)
    return out


def reshape_fortran(x: NDArray, shape: Any, order: str, copy: bool | None) -> NDArray:
    """reshape in Fortran order: the C-order reshape of the reversed axes,
    with its axes reversed back (a view whenever that one is)."""
    if order not in ("C", "F", "A"):
        raise ValueError(f"order must be 'C', 'F' or 'A', got {order!r}")
    dims = tuple(shape) if isinstance(shape, (tuple, list)) else (shape,)
    if order == "A" and not (x.flags.f_contiguous and not x.flags.c_contiguous):
        order = "C"
    if order == "C":
        c: NDArray = core.ndarray_reshape(x, (dims,), copy)
        return c
    out: NDArray = core.ndarray_reshape(x.T, (dims[::-1],), copy)
    return out.T


def ravel(a: Any, order: str = "C") -> NDArray:
    """The elements as a 1-d array in ``order`` ("C", "F", "A" or "K", as
    :meth:`NDArray.ravel`): a view when the memory allows, else a copy."""
    return as_operand(a).ravel(order)


def rollaxis(a: Any, axis: int, start: int = 0) -> NDArray:
    """NumPy's ``rollaxis``, kept for old code (:func:`moveaxis` says it
    more plainly): a view of ``a`` with ``axis`` moved to stand before the
    axis now at ``start``."""
    x = as_operand(a, "rollaxis")
    n = x.ndim
    ax = normalize_axis(axis, n)
    s = operator.index(start)
    if s < 0:
        s += n
    if not 0 <= s < n + 1:
        raise AxisError(start, n, "start")  # NumPy's: 'start' arg requires -n <= start < n + 1
    if ax < s:
        s -= 1
    if ax == s:
        return x[...]
    axes = [i for i in range(n) if i != ax]
    axes.insert(s, ax)
    return x.transpose(tuple(axes))


def transpose(a: Any, axes: Sequence[int] | None = None) -> NDArray:
    """NumPy's ``transpose``: a view with the axes reversed, or permuted as
    ``axes`` says (the standard's :func:`permute_dims` requires them)."""
    x = as_operand(a)
    return x.transpose() if axes is None else x.transpose(tuple(axes))


def fliplr(m: Any) -> NDArray:
    """A view with the columns (axis 1) in reverse order."""
    x = as_operand(m)
    if x.ndim < 2:
        raise ValueError(f"Input must be >= 2-d (fliplr got shape {x.shape}).")
    return flip(x, axis=1)


def flipud(m: Any) -> NDArray:
    """A view with the rows (axis 0) in reverse order."""
    x = as_operand(m)
    if x.ndim < 1:
        raise ValueError("Input must be >= 1-d (flipud got a 0-d array).")
    return flip(x, axis=0)


def rot90(m: Any, k: int = 1, axes: Sequence[int] = (0, 1)) -> NDArray:
    """A view rotated by 90 degrees ``k`` times in the plane of ``axes``,
    from the first axis towards the second (NumPy's ``rot90``)."""
    x = as_operand(m)
    ax = tuple(axes)
    if len(ax) != 2:
        raise ValueError("len(axes) must be 2.")
    a0, a1 = as_int(ax[0], "rot90: axes entry"), as_int(ax[1], "rot90: axes entry")
    if a0 == a1 or abs(a0 - a1) == x.ndim:
        raise ValueError("Axes must be different.")
    if not (-x.ndim <= a0 < x.ndim and -x.ndim <= a1 < x.ndim):
        raise ValueError(f"Axes={ax} out of range for array of ndim={x.ndim}.")
    k = as_int(k, "rot90: k") % 4
    if k == 0:
        return x[...]
    if k == 2:
        return flip(flip(x, axis=a0), axis=a1)
    perm = list(range(x.ndim))
    perm[a0], perm[a1] = perm[a1], perm[a0]
    if k == 1:
        return permute_dims(flip(x, axis=a1), tuple(perm))
    return flip(permute_dims(x, tuple(perm)), axis=a1)


def diagonal(a: Any, offset: int = 0, axis1: int = 0, axis2: int = 1) -> NDArray:
    """NumPy's ``diagonal``: the diagonal ``offset`` of the 2-d subarrays
    over ``axis1`` and ``axis2``, as a read-only view with the diagonal
    last (``ma.linalg.diagonal`` is the standard's, over the last two
    axes)."""
    x = as_operand(a)
    if x.ndim < 2:
        raise ValueError("diag requires an array of at least two dimensions")
    a1, a2 = normalize_axis(axis1, x.ndim, "axis1"), normalize_axis(axis2, x.ndim, "axis2")
    if a1 == a2:
        raise ValueError("axis1 and axis2 cannot be the same")
    k = as_intp(offset, "diagonal: offset")
    n1, n2 = x.shape[a1], x.shape[a2]
    s1, s2 = x._strides[a1], x._strides[a2]
    if k >= 0:
        length, start = max(0, min(n1, n2 - k)), k * s2
    else:
        length, start = max(0, min(n1 + k, n2)), -k * s1
    if length == 0:
        start = 0
    rest = [d for d in range(x.ndim) if d not in (a1, a2)]
    return x._view(start, (*(x.shape[d] for d in rest), length), (*(x._strides[d] for d in rest), s1 + s2),
                   readonly=True)


def fill_diagonal(a: Any, val: Any, wrap: bool = False) -> None:
    """Writes ``val`` on the main diagonal of ``a``, in place (NumPy's
    ``fill_diagonal``): ``a[i, i, ..., i]``, every axis of the same length
    when ``a`` has more than two.  ``val``'s elements are used in order and
    repeated as needed, as NumPy's ``a.flat[::step] = val`` repeats them.
    ``wrap`` (2-d only): a matrix taller than wide gets its diagonal again
    every ``ncols + 1`` rows, NumPy's flat stepping past the last column.
    The diagonal is a strided view of ``a``; the values are read in full
    before it is written, so ``val`` may be a view of ``a``."""
    x = as_operand(a, "fill_diagonal")
    if x.ndim < 2:
        raise ValueError("array must be at least 2-d")
    if x.ndim > 2 and any(n != x.shape[0] for n in x.shape):
        raise ValueError("All dimensions of input must be of equal length")
    nrows, ncols = x.shape[0], x.shape[-1]
    step = sum(x._strides)  # one element further along every axis
    readonly = not x.flags.writeable
    # NumPy's flat stride ncols + 1 wraps in blocks of ncols + 1 rows, each
    # holding a diagonal of ncols elements
    blocks = nrows // (ncols + 1) if wrap and x.ndim == 2 and nrows > ncols else 0
    rest = min(nrows - blocks * (ncols + 1), ncols)
    count = blocks * ncols + rest
    if count == 0:
        return
    v = as_operand(val, "fill_diagonal").reshape((-1,))
    if v.shape[0] == 0:
        return  # NumPy's flat assignment of no values writes nothing
    values = tile(v, (-(-count // v.shape[0]),))[:count].copy()  # a copy: val may alias a
    if blocks:
        head = x._view(0, (blocks, ncols), ((ncols + 1) * x._strides[0], step), readonly=readonly)
        head[...] = values[:blocks * ncols].reshape((blocks, ncols))
    tail = x._view(blocks * (ncols + 1) * x._strides[0], (rest,), (step,), readonly=readonly)
    tail[...] = values[blocks * ncols:]
