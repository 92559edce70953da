"""NumPy's mathematical functions that the Array API does not have, built
from minarray's elementwise functions with NumPy's formulas: angle
conversions (``deg2rad``, ``rad2deg``, ``degrees``, ``radians``), ``exp2``,
``fabs``, ``fmax``, ``fmin``, ``fmod``, ``divmod``, ``float_power``,
``angle``, ``heaviside``, ``sinc``, ``fix``, ``rint``, ``nan_to_num`` and
``interp``.

They compose the C elementwise dispatch (each call one pass over the
data) instead of adding kernels of their own.
"""

from __future__ import annotations

import math
from typing import Any

from minarray import dtypes as _dt
from minarray import elementwise as _ew
from minarray._args import as_int
from minarray.creation import as_operand, zeros_like
from minarray.errstate import errstate
from minarray.ndarray import NDArray

__all__ = [
    "deg2rad", "rad2deg", "degrees", "radians", "exp2", "fabs", "fmax", "fmin", "fmod", "divmod",
    "float_power", "angle", "heaviside", "sinc", "fix", "rint", "nan_to_num", "interp", "euler_gamma",
    "cbrt", "logaddexp2", "gradient", "trapezoid", "ediff1d", "gcd", "lcm", "ldexp", "modf", "unwrap",
]

# The constant NumPy has beyond the standard's e, pi, inf and nan.
euler_gamma: float = 0.5772156649015329

Operand = Any


def _inexact(x: Any, fname: str) -> NDArray:
    """``x`` as an array of a floating or complex dtype: integers and
    booleans become the smallest float holding them (int8 float16, int16
    float32, wider float64), the type NumPy's float ufuncs pick."""
    a = as_operand(x, fname)
    return a if a.dtype.kind in "fc" else a.astype(_dt.promote(a.dtype, _dt.float16))


def deg2rad(x: Operand) -> NDArray:
    """Degrees to radians: ``x * pi / 180``."""
    return _ew.multiply(_inexact(x, "deg2rad"), math.pi / 180)


def rad2deg(x: Operand) -> NDArray:
    """Radians to degrees: ``x * 180 / pi``."""
    return _ew.multiply(_inexact(x, "rad2deg"), 180 / math.pi)


def radians(x: Operand) -> NDArray:
    """NumPy's other name of :func:`deg2rad`."""
    return deg2rad(x)


def degrees(x: Operand) -> NDArray:
    """NumPy's other name of :func:`rad2deg`."""
    return rad2deg(x)


def exp2(x: Operand) -> NDArray:
    """``2 ** x`` elementwise (floating result)."""
    return _ew.pow(2.0, _inexact(x, "exp2"))


def fabs(x: Operand) -> NDArray:
    """The absolute value as a floating array (complex is not accepted)."""
    a = _inexact(x, "fabs")
    if a.dtype.kind == "c":
        raise TypeError("ufunc 'fabs' not supported for complex input")
    return _ew.abs(a)


def fmax(x1: Operand, x2: Operand) -> NDArray:
    """The larger of ``x1`` and ``x2``, ignoring a NaN when the other is a
    number (``maximum`` propagates NaNs)."""
    a, b = as_operand(x1, "fmax"), as_operand(x2, "fmax")
    m = _ew.maximum(a, b)
    if m.dtype.kind not in "fc":
        return m
    return _ew.where(_ew.isnan(a), b, _ew.where(_ew.isnan(b), a, m)).astype(m.dtype, copy=False)


def fmin(x1: Operand, x2: Operand) -> NDArray:
    """The smaller of ``x1`` and ``x2``, ignoring a NaN when the other is a
    number."""
    a, b = as_operand(x1, "fmin"), as_operand(x2, "fmin")
    m = _ew.minimum(a, b)
    if m.dtype.kind not in "fc":
        return m
    return _ew.where(_ew.isnan(a), b, _ew.where(_ew.isnan(b), a, m)).astype(m.dtype, copy=False)


def fmod(x1: Operand, x2: Operand) -> NDArray:
    """The C remainder: ``x1 - trunc(x1 / x2) * x2``, with the sign of
    ``x1`` (``remainder`` takes ``x2``'s).  Integer division by zero gives
    0, float division NaN."""
    a, b = as_operand(x1, "fmod"), as_operand(x2, "fmod")
    # |x1| mod |x2| is exact and already the C remainder's magnitude
    r = _ew.remainder(_ew.abs(a), _ew.abs(b))
    if r.dtype.kind == "f":
        return _ew.copysign(r, a if a.dtype is r.dtype else a.astype(r.dtype))
    return _ew.where(_ew.less(a, 0), _ew.negative(r), r).astype(r.dtype, copy=False)


def divmod(x1: Operand, x2: Operand) -> tuple[NDArray, NDArray]:
    """``(floor_divide(x1, x2), remainder(x1, x2))``: the ``//`` and ``%``
    of these arrays, as ``divmod(x1, x2)`` gives them (so ``inf // 2`` is
    the standard's ``inf``, where NumPy's gives NaN)."""
    return _ew.floor_divide(x1, x2), _ew.remainder(x1, x2)


def float_power(x1: Operand, x2: Operand) -> NDArray:
    """``x1 ** x2`` computed in float64 (complex128 for complex inputs)."""
    a, b = as_operand(x1, "float_power"), as_operand(x2, "float_power")
    dt = _dt.complex128 if a.dtype.kind == "c" or b.dtype.kind == "c" else _dt.float64
    return _ew.pow(a.astype(dt, copy=False), b.astype(dt, copy=False))


def angle(z: Operand, deg: bool = False) -> NDArray:
    """The argument of each complex number (radians, or degrees with
    ``deg``): ``atan2(imag, real)``; 0 or pi for real numbers."""
    a = _inexact(z, "angle")
    if a.dtype.kind == "c":
        out = _ew.atan2(_ew.imag(a), _ew.real(a))
    else:
        out = _ew.atan2(zeros_like(a), a)  # +0: pi for negative numbers, -0.0 included
    return _ew.multiply(out, 180 / math.pi) if deg else out


def heaviside(x1: Operand, x2: Operand) -> NDArray:
    """The Heaviside step: 0 where ``x1 < 0``, ``x2`` where ``x1 == 0``, 1
    where ``x1 > 0`` (NaN stays NaN)."""
    a, b = as_operand(x1, "heaviside"), as_operand(x2, "heaviside")
    dt = _dt.promote(a.dtype, b.dtype)
    if dt.kind not in "f":  # NumPy's float ufunc type for integers
        dt = _dt.promote(dt, _dt.float16)
    out = _ew.where(_ew.less(a, 0), 0.0, _ew.where(_ew.greater(a, 0), 1.0, b.astype(dt, copy=False)))
    if a.dtype.kind == "f":
        out = _ew.where(_ew.isnan(a), a.astype(dt, copy=False), out)
    return out.astype(dt, copy=False)


def sinc(x: Operand) -> NDArray:
    """The normalised sinc, ``sin(pi x) / (pi x)`` (1 at 0)."""
    a = as_operand(x, "sinc")
    if a.dtype.kind not in "fc":  # NumPy's where() with a Python float: float64
        a = a.astype(_dt.float64)
    y = _ew.multiply(math.pi, _ew.where(_ew.equal(a, 0), 1.0e-20, a))
    return _ew.divide(_ew.sin(y), y)


def fix(x: Operand) -> NDArray:
    """Round towards zero (floating inputs; integers are returned as they
    are, in their dtype)."""
    return _ew.trunc(as_operand(x, "fix"))


def rint(x: Operand) -> NDArray:
    """Round to the nearest integer, halves to even, as a floating array
    (:func:`minarray.round` keeps integer dtypes)."""
    return _ew.round(_inexact(x, "rint"))


def nan_to_num(x: Operand, copy: bool = True, nan: float = 0.0, posinf: float | None = None,
               neginf: float | None = None) -> NDArray:
    """``x`` with NaN replaced by ``nan`` (0.0) and infinities by
    ``posinf``/``neginf`` (the largest finite values of the dtype by
    default); complex parts are replaced separately."""
    a = as_operand(x, "nan_to_num")
    if a.dtype.kind not in "fc":
        return a.copy() if copy else a
    from minarray.info import finfo

    real_dt = _dt.float64 if a.dtype is _dt.complex128 else _dt.float32 if a.dtype is _dt.complex64 else a.dtype
    fi = finfo(real_dt)
    hi = float(fi.max) if posinf is None else posinf
    lo = float(fi.min) if neginf is None else neginf

    def fix_part(p: NDArray) -> NDArray:
        p = _ew.where(_ew.isnan(p), nan, p)
        return _ew.where(_ew.isinf(p), _ew.where(_ew.greater(p, 0), hi, lo), p).astype(p.dtype, copy=False)

    if a.dtype.kind == "c":
        out = _ew.add(fix_part(_ew.real(a)), _ew.multiply(fix_part(_ew.imag(a)), 1j)).astype(a.dtype)
    else:
        out = fix_part(a)
    if not copy:
        a[...] = out
        return a
    return out


def interp(x: Operand, xp: Operand, fp: Operand, left: float | None = None, right: float | None = None) -> NDArray:
    """Piecewise-linear interpolation of the points (``xp``, ``fp``) at
    ``x`` (``xp`` increasing); ``left``/``right`` (default ``fp[0]`` and
    ``fp[-1]``) outside ``xp``'s range.  NumPy's formula: ``slope * (x -
    xp[j]) + fp[j]``, exactly ``fp[j]`` at a sample point."""
    xs = as_operand(x, "interp").astype(_dt.float64, copy=False)
    xpa = as_operand(xp, "interp").astype(_dt.float64, copy=False)
    fpa = as_operand(fp, "interp")
    if fpa.dtype.kind == "c":
        raise TypeError("interp: complex fp is not supported")
    fpa = fpa.astype(_dt.float64, copy=False)
    if xpa.ndim != 1 or fpa.ndim != 1:
        raise ValueError("data must be 1 dimensional")
    n = xpa.shape[0]
    if n != fpa.shape[0]:
        raise ValueError("fp and xp are not of the same length.")
    if n == 0:
        raise ValueError("array of sample points is empty")
    lval = float(fpa[0]) if left is None else float(left)
    rval = float(fpa[-1]) if right is None else float(right)
    if n == 1:
        out = _ew.where(_ew.less(xs, xpa[0]), lval, _ew.where(_ew.greater(xs, xpa[0]), rval, fpa[0]))
        return out.astype(_dt.float64, copy=False)
    with errstate(all="ignore"):  # NumPy's interp (C, no error checks) never warns
        return _interp(xs, xpa, fpa, lval, rval, n)


def _interp(xs: NDArray, xpa: NDArray, fpa: NDArray, lval: float, rval: float, n: int) -> NDArray:
    from minarray.manipulation import take
    from minarray.sorting import _searchsorted

    j = _ew.clip(_ew.subtract(_searchsorted(xpa, xs, "right", None), 1), 0, n - 2)
    x0, x1 = take(xpa, j), take(xpa, _ew.add(j, 1))
    y0, y1 = take(fpa, j), take(fpa, _ew.add(j, 1))
    slope = _ew.divide(_ew.subtract(y1, y0), _ew.subtract(x1, x0))
    val = _ew.add(_ew.multiply(slope, _ew.subtract(xs, x0)), y0)
    # NumPy: a NaN from one side is retried from the other, then the flat value
    other = _ew.add(_ew.multiply(slope, _ew.subtract(xs, x1)), y1)
    val = _ew.where(_ew.isnan(val), _ew.where(_ew.logical_and(_ew.isnan(other), _ew.equal(y0, y1)), y0, other), val)
    val = _ew.where(_ew.equal(xs, x0), y0, val)
    val = _ew.where(_ew.equal(xs, xpa[-1]), fpa[-1], val)
    val = _ew.where(_ew.less(xs, xpa[0]), lval, _ew.where(_ew.greater(xs, xpa[-1]), rval, val))
    return val.astype(_dt.float64, copy=False)


def cbrt(x: Operand) -> NDArray:
    """The real cube root (negative for negative numbers): ``|x| ** (1/3)``
    with its sign, refined by one Newton step, so exact cubes give exact
    roots."""
    a = _inexact(x, "cbrt")
    if a.dtype.kind == "c":
        raise TypeError("ufunc 'cbrt' not supported for complex input")
    w = a.astype(_dt.float64, copy=False)
    with errstate(all="ignore"):  # the step is discarded where it is not finite; NumPy's cbrt never warns
        y = _ew.copysign(_ew.pow(_ew.abs(w), 1.0 / 3.0), w)
        y2 = _ew.multiply(y, y)
        step = _ew.divide(_ew.subtract(_ew.multiply(y2, y), w), _ew.multiply(3.0, y2))
        ok = _ew.logical_and(_ew.isfinite(step), _ew.not_equal(y, 0))
        y = _ew.where(ok, _ew.subtract(y, step), y)
    return y if a.dtype is _dt.float64 else y.astype(a.dtype)


def logaddexp2(x1: Operand, x2: Operand) -> NDArray:
    """``log2(2**x1 + 2**x2)`` without overflow."""
    a, b = _inexact(x1, "logaddexp2"), _inexact(x2, "logaddexp2")
    m = _ew.maximum(a, b)
    with errstate(invalid="ignore"):  # equal infinities, replaced below (NumPy does not warn)
        d = _ew.abs(_ew.subtract(a, b))
        out = _ew.add(m, _ew.divide(_ew.log1p(_ew.pow(2.0, _ew.negative(d))), math.log(2.0)))
    # equal infinities: the difference is NaN, the answer that infinity
    return _ew.where(_ew.equal(a, b), _ew.add(a, 1.0), out).astype(m.dtype, copy=False)


def gradient(f: Operand, *varargs: float, axis: int | tuple[int, ...] | None = None,
             edge_order: int = 1) -> Any:
    """The gradient of ``f`` by central differences inside and one-sided
    differences (first or second order, ``edge_order``) at the edges, with
    scalar spacings ``varargs`` (one for all axes, or one per axis; 1 by
    default).  One array per axis, a tuple when there are several."""
    from minarray.views import normalize_axes

    a = as_operand(f, "gradient")
    axes = tuple(range(a.ndim)) if axis is None else normalize_axes(axis, a.ndim)
    if not varargs:
        dxs = [1.0] * len(axes)
    elif len(varargs) == 1:
        dxs = [float(varargs[0])] * len(axes)
    elif len(varargs) == len(axes):
        dxs = [float(v) for v in varargs]
    else:
        raise TypeError("invalid number of arguments (minarray's gradient takes scalar spacings)")
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

        inner = _ew.divide(_ew.subtract(sl(2, None), sl(None, -2)), 2.0 * dx)
        if edge_order == 1:
            first = _ew.divide(_ew.subtract(sl(1, 2), sl(0, 1)), dx)
            last = _ew.divide(_ew.subtract(sl(-1, None), sl(-2, -1)), dx)
        else:
            first = _ew.add(_ew.add(_ew.multiply(-1.5 / dx, sl(0, 1)), _ew.multiply(2.0 / dx, sl(1, 2))),
                            _ew.multiply(-0.5 / dx, sl(2, 3)))
            last = _ew.add(_ew.add(_ew.multiply(0.5 / dx, sl(-3, -2)), _ew.multiply(-2.0 / dx, sl(-2, -1))),
                           _ew.multiply(1.5 / dx, sl(-1, None)))
        from minarray.manipulation import concat

        outs.append(concat([first, inner, last], axis=ax).astype(w.dtype, copy=False))
    return outs[0] if len(outs) == 1 else tuple(outs)


def trapezoid(y: Operand, x: Operand | None = None, dx: float = 1.0, axis: int = -1) -> NDArray:
    """The integral of ``y`` along ``axis`` by the trapezoidal rule, over
    the sample points ``x`` (1-d, or shaped like ``y``) or a spacing
    ``dx``."""
    from minarray.reductions import diff
    from minarray.reductions import sum as _sum
    from minarray.views import normalize_axis

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


def ediff1d(ary: Operand, to_end: Operand | None = None, to_begin: Operand | None = None) -> NDArray:
    """The differences of the flattened array, with ``to_begin`` and
    ``to_end`` (flattened) joined before and after, in the input's dtype."""
    from minarray.manipulation import concat
    from minarray.reductions import diff

    a = as_operand(ary, "ediff1d").reshape((-1,))
    parts = [diff(a)]
    if to_begin is not None:
        parts.insert(0, as_operand(to_begin).reshape((-1,)).astype(a.dtype))
    if to_end is not None:
        parts.append(as_operand(to_end).reshape((-1,)).astype(a.dtype))
    return concat(parts) if len(parts) > 1 else parts[0]


def gcd(x1: Operand, x2: Operand) -> NDArray:
    """The greatest common divisor of integers, non-negative (Euclid's
    algorithm, each step one elementwise remainder over the whole array)."""
    a, b = as_operand(x1, "gcd"), as_operand(x2, "gcd")
    dt = _dt.promote(a.dtype, b.dtype)
    if dt.kind not in "iub":
        raise TypeError(f"ufunc 'gcd' not supported for {dt}: integers only")
    from minarray.reductions import any as _any
    from minarray.views import broadcast_arrays

    a, b = broadcast_arrays(_ew.abs(a.astype(dt)), _ew.abs(b.astype(dt)))
    while bool(_any(_ew.not_equal(b, 0))):
        nz = _ew.not_equal(b, 0)
        a, b = _ew.where(nz, b, a), _ew.where(nz, _ew.remainder(a, _ew.where(nz, b, 1)), 0)
    return a.astype(dt, copy=False)


def lcm(x1: Operand, x2: Operand) -> NDArray:
    """The least common multiple of integers, non-negative (0 when either
    is 0)."""
    a, b = as_operand(x1, "lcm"), as_operand(x2, "lcm")
    g = gcd(a, b)
    q = _ew.floor_divide(_ew.abs(a), _ew.where(_ew.equal(g, 0), 1, g))
    return _ew.abs(_ew.multiply(q, b)).astype(g.dtype, copy=False)


def ldexp(x1: Operand, x2: Operand) -> NDArray:
    """``x1 * 2**x2`` for integer exponents ``x2``, exact while the result
    is a normal number (the scaling happens in two halves, so no partial
    power overflows first)."""
    a = _inexact(x1, "ldexp")
    e = as_operand(x2, "ldexp")
    if e.dtype.kind not in "iu":
        raise TypeError("ufunc 'ldexp' needs integer exponents")
    half = _ew.floor_divide(e, 2)

    def power_of_two(v: NDArray) -> NDArray:
        return _ew.pow(2.0, v.astype(_dt.float64)).astype(a.dtype)

    return _ew.multiply(_ew.multiply(a, power_of_two(half)), power_of_two(_ew.subtract(e, half)))


def modf(x: Operand) -> tuple[NDArray, NDArray]:
    """The fractional and integral parts, both with ``x``'s sign:
    ``(x - trunc(x), trunc(x))`` (infinities give a zero fraction)."""
    a = _inexact(x, "modf")
    whole = _ew.trunc(a)
    with errstate(invalid="ignore"):  # inf - inf, replaced by the zero fraction
        frac = _ew.where(_ew.isinf(a), _ew.copysign(zeros_like(a), a), _ew.copysign(_ew.subtract(a, whole), a))
    return frac.astype(a.dtype, copy=False), whole


def unwrap(p: Operand, discont: float | None = None, axis: int = -1, *, period: float = 2 * math.pi) -> NDArray:
    """Phases unwrapped along ``axis``: jumps larger than ``discont``
    (``period / 2`` by default) become their complement modulo
    ``period`` (NumPy's ``unwrap``)."""
    from minarray.reductions import cumsum, diff
    from minarray.views import normalize_axis

    a = _inexact(p, "unwrap")
    if a.dtype.kind == "c":
        raise TypeError("unwrap: complex phases are not supported")
    ax = normalize_axis(axis, a.ndim)
    if discont is None:
        discont = period / 2
    dd = diff(a, axis=ax)
    half = period / 2
    ddmod = _ew.subtract(_ew.remainder(_ew.add(dd, half), period), half)
    ddmod = _ew.where(_ew.logical_and(_ew.equal(ddmod, -half), _ew.greater(dd, 0)), half, ddmod)
    correct = _ew.subtract(ddmod, dd)
    correct = _ew.where(_ew.less(_ew.abs(dd), discont), 0.0, correct).astype(dd.dtype, copy=False)
    out = a.copy()
    rest = (slice(None),) * ax + (slice(1, None),)
    if out[rest].size:
        out[rest] = _ew.add(a[rest], cumsum(correct, axis=ax))
    return out
