"""Elementwise functions (Array API "Element-wise Functions") and the
NDArray operators; beside them NumPy's mathematical functions the
standard does not have (``deg2rad``, ``fmax``, ``nan_to_num``, ``interp``,
``gcd``, ``unwrap``...), its elementwise predicates (``isclose``,
``isposinf``, ``isneginf``, ``iscomplex``, ``isreal``) and its names for
the standard's functions (``absolute``, ``arccos``, ``power``...): the
same objects under a second name (``ma.absolute is ma.abs``), so the two
spellings can never drift apart.  NumPy's functions compose the C
elementwise dispatch (each call one pass over the data) instead of adding
kernels of their own.

Python computes nothing per element here.  Each function is one call into
the C engine (``core.ew_call``, csrc/py/elementwise_dispatch.c), which picks the
loop and result dtype from tables generated at build time from the
promotion rules, broadcasts, casts mismatched operands chunk by chunk,
allocates the result when ``out`` is None and runs the generated loop with
the GIL released.  NDArray's operators are C methods over the same dispatch.

Type rules:

* Array operands promote by ``minarray._dtypes.promote`` (the Array API table,
  NumPy 2 where the standard leaves a case open).
* Python scalars are weak (NEP 50 / the standard's "mixing arrays with Python
  scalars"): ``int8_array + 1`` is int8, ``int8_array + 1.5`` float64, and a
  Python int that does not fit the array's integer dtype raises
  OverflowError, except in comparisons, whose answer is then known without
  looking at the data (``uint8_array == -1`` is all False), as in NumPy 2.
* An operation runs the first loop the promoted dtype casts to safely, in
  NumPy's order (``sqrt(int8)`` is float16, ``floor_divide(bool)`` int8);
  none raises TypeError (e.g. bitwise operations on floats).
* ``out=`` takes the result under NumPy's "same_kind" casting rule (so
  ``int8_array += 1.5`` raises TypeError, ``float32 += float64`` is fine), and
  its shape must be the broadcast shape (inputs broadcast to it).
"""

from __future__ import annotations

import builtins
import cmath
import inspect
import math
import operator
from collections.abc import Callable
from typing import Any, Protocol, overload

from minarray import _dtypes as _dt
from minarray import _subclass
from minarray._array_object import NDArray
from minarray._coerce import as_operand, asarray, broadcast_shapes, normalize_axis, operator_operand, write_out
from minarray._creation import zeros, zeros_like
from minarray._data_type_functions import finfo
from minarray._errstate import errstate
from minarray._joining import concat
from minarray._native import core
from minarray._sorting import _searchsorted, argsort

__all__ = [
    "abs", "acos", "acosh", "add", "asin", "asinh", "atan", "atan2", "atanh", "bitwise_and",
    "bitwise_left_shift", "bitwise_invert", "bitwise_or", "bitwise_right_shift", "bitwise_xor", "ceil",
    "clip", "conj", "copysign", "cos", "cosh", "divide", "equal", "exp", "expm1", "floor", "floor_divide",
    "greater", "greater_equal", "hypot", "imag", "isfinite", "isinf", "isnan", "less", "less_equal", "log",
    "log1p", "log2", "log10", "logaddexp", "logical_and", "logical_not", "logical_or", "logical_xor",
    "maximum", "minimum", "multiply", "negative", "nextafter", "not_equal", "positive", "pow", "real",
    "reciprocal", "remainder", "round", "sign", "signbit", "sin", "sinh", "spacing", "square", "sqrt", "subtract",
    "tan", "tanh", "trunc", "deg2rad", "rad2deg", "degrees", "radians", "exp2", "fabs", "fmax", "fmin", "fmod",
    "divmod", "float_power", "angle", "heaviside", "sinc", "fix", "rint", "nan_to_num", "interp", "cbrt",
    "logaddexp2", "gcd", "lcm", "bitwise_count", "ldexp", "frexp", "modf", "unwrap", "isclose", "isposinf",
    "isneginf", "iscomplex",
    "isreal", "absolute", "arccos", "arccosh", "arcsin", "arcsinh", "arctan", "arctan2", "arctanh", "invert",
    "bitwise_not", "left_shift", "right_shift", "power", "conjugate", "true_divide", "mod", "around",
]


Scalar = bool | int | float | complex


Operand = NDArray | Scalar


class UfuncMethods(Protocol):
    """What every elementwise function has besides its call: NumPy's ufunc
    methods and attributes (the type is ``minarray.ufunc``, csrc/py/ufunc.c;
    the methods' bodies are minarray/_ufunc.py's)."""

    __name__: str
    nin: int
    nout: int
    nargs: int
    identity: Any
    types: list[str]
    reduce: Callable[..., Any]
    accumulate: Callable[..., Any]
    outer: Callable[..., Any]
    at: Callable[..., Any]
    reduceat: Callable[..., Any]


class UnaryFunction(UfuncMethods, Protocol):
    def __call__(self, x: Operand, /, out: NDArray | None = None, **kwargs: Any) -> NDArray: ...


class BinaryFunction(UfuncMethods, Protocol):
    def __call__(self, x1: Operand, x2: Operand, /, out: NDArray | None = None, **kwargs: Any) -> NDArray: ...


class TwoOutputFunction(UfuncMethods, Protocol):
    def __call__(self, *xs: Any, **kwargs: Any) -> tuple[NDArray, NDArray]: ...


_OPID: dict[str, int] = {name: i for i, (name, _nin) in enumerate(core.ew_ops())}


_NAMES: dict[int, str] = {i: name for name, i in _OPID.items()}


_ew = core.ew_call


def _widened(op: int, out: NDArray | None, *xs: Any) -> NDArray:
    """``op`` where a storage type (float8, int4, complex32...) is among the
    array operands or is ``out``'s dtype.  Those types have no loops: each
    such operand is widened to its ``DType.wide`` (exact: every value fits),
    the op runs there, and a result of the wide common type rounds back to
    the operands' promoted type, as ml_dtypes computes (``float8 + float8``
    is float8; a comparison stays bool; ``int4 / int4`` stays float64).  The
    operands are all read before ``out`` is written."""
    wide = [x.astype(x.dtype.wide) if isinstance(x, NDArray) and x.dtype.wide is not None else x
            for x in xs]
    r: NDArray = _ew(op, None, *wide)
    arrays = [x for x in xs if isinstance(x, NDArray)]
    if arrays:  # (out alone may be the storage type: ma.add(x, y, out=f8))
        values = xs[1:] if len(xs) == 3 else xs  # where(cond, x1, x2): the values decide
        target = _dt.result_type(*values)
        if r.dtype is _dt.result_type(*(w for w in (wide[1:] if len(xs) == 3 else wide))) \
                and target is not r.dtype:
            if target.kind in "iu":
                # NEP 50, as for every integer dtype: a Python int the result
                # type cannot hold raises (int4 + 100), rather than wrapping
                lo, hi = (-(1 << (target.bits - 1)), (1 << (target.bits - 1)) - 1) if target.kind == "i" \
                    else (0, (1 << target.bits) - 1)
                for v in values:
                    if type(v) is int and not lo <= v <= hi:
                        raise OverflowError(f"Python integer {v} out of bounds for {target}")
            r = r.astype(target)
    if out is None:
        return r
    if not _dt.same_kind(r.dtype, out.dtype):
        raise _dt.ufunc_cast_error(_NAMES[op], "output", r.dtype, out.dtype, "same_kind")
    out[...] = r
    return out


# ---- the ufunc objects ------------------------------------------------------
#
# Each function is a minarray.ufunc (csrc/py/ufunc.c) bound to its op number:
# a call with the operands alone or with out= reaches the C engine with no
# Python frame in between, which is a sixth of a small array's call.  The
# NumPy functions that have no C op are ufuncs over their Python body.

# NumPy's ufunc.identity (what reducing an empty axis gives; None: none).
_IDENTITY: dict[str, Any] = {
    "add": 0, "multiply": 1, "bitwise_and": -1, "bitwise_or": 0, "bitwise_xor": 0, "logical_and": True,
    "logical_or": False, "logical_xor": False, "hypot": 0, "logaddexp": -math.inf, "logaddexp2": -math.inf,
    "gcd": 0,
}


def _signature(nin: int, nout: int) -> inspect.Signature:
    """NumPy's signature of a ufunc's call."""
    p = inspect.Parameter
    names = ["x"] if nin == 1 else [f"x{i + 1}" for i in range(nin)]
    return inspect.Signature([
        *(p(n, p.POSITIONAL_ONLY) for n in names),
        p("out", p.POSITIONAL_OR_KEYWORD, default=None if nout == 1 else (None,) * nout),
        *(p(k, p.KEYWORD_ONLY, default=v) for k, v in (
            ("where", True), ("casting", "same_kind"), ("order", "K"), ("dtype", None), ("subok", True),
            ("signature", None))),
    ])


def _char(d: _dt.DType) -> str:
    """NumPy's one-letter code of d ("" for a type NumPy has not: bfloat16)."""
    return _dt._numpy_char(d.format) if d.format else ""


def _loop_types(op: int) -> tuple[str, ...]:
    """The op's loops as NumPy writes them ('dd->d'), from the engine's
    table; those over a type NumPy has not are left out."""
    loops = []
    for sig in core.ew_sigs(op):
        codes = [_char(_dt.ALL[t]) for t in sig]
        if all(codes):
            loops.append("".join(codes[:-1]) + "->" + codes[-1])
    return tuple(loops)


def _kinds_types(kinds: str, nin: int, nout: int = 1) -> tuple[str, ...]:
    """Loops that keep their type, for the kernel types of ``kinds``: the
    types of a ufunc with a Python body."""
    return tuple(_char(d) * nin + "->" + _char(d) * nout for d in _dt.KERNEL if d.kind in kinds and _char(d))


def _make(name: str, op: int, nin: int, nout: int, impl: Callable[..., Any] | None, doc: str,
          types: tuple[str, ...]) -> Any:
    sig = _signature(nin, nout)
    return core.ufunc_new(name, op, nin, nout, _IDENTITY.get(name), impl, f"{name}{sig}\n\n{doc}", types, sig)


def _unary(name: str, doc: str) -> UnaryFunction:
    f: UnaryFunction = _make(name, _OPID[name], 1, 1, None, doc, _loop_types(_OPID[name]))
    return f


def _binary(name: str, doc: str) -> BinaryFunction:
    f: BinaryFunction = _make(name, _OPID[name], 2, 1, None, doc, _loop_types(_OPID[name]))
    return f


def _py_ufunc(nin: int, kinds: str, nout: int = 1,
              types: tuple[str, ...] | None = None) -> Callable[[Callable[..., Any]], Any]:
    """A ufunc over a Python body (NumPy's functions minarray composes from
    the engine's ops), named and documented by it; its loops keep their
    type unless ``types`` names them."""
    def make(impl: Callable[..., Any]) -> Any:
        return _make(impl.__name__, -1, nin, nout, impl, impl.__doc__ or "",
                     types or _kinds_types(kinds, nin, nout))
    return make


def _d(summary: str) -> str:
    return summary + "\n\nArray API elementwise function; ``out=`` (NumPy style) writes into an existing array."


abs = _unary("abs", _d("Absolute value; complex inputs give their real-valued modulus."))


acos = _unary("acos", _d("Inverse cosine (principal value; complex branch cuts as C99)."))


acosh = _unary("acosh", _d("Inverse hyperbolic cosine."))


asin = _unary("asin", _d("Inverse sine."))


asinh = _unary("asinh", _d("Inverse hyperbolic sine."))


atan = _unary("atan", _d("Inverse tangent."))


atanh = _unary("atanh", _d("Inverse hyperbolic tangent."))


bitwise_invert = _unary("bitwise_invert", _d("Bitwise NOT (logical NOT for bool)."))


ceil = _unary("ceil", _d("Smallest integer-valued number not less than x (integers unchanged)."))


conj = _unary("conj", _d("Complex conjugate (real inputs unchanged)."))


cos = _unary("cos", _d("Cosine."))


cosh = _unary("cosh", _d("Hyperbolic cosine."))


exp = _unary("exp", _d("Exponential."))


expm1 = _unary("expm1", _d("exp(x) - 1, accurate for small x."))


floor = _unary("floor", _d("Largest integer-valued number not greater than x (integers unchanged)."))


imag = _unary("imag", _d("Imaginary part (zeros for real inputs)."))


isfinite = _unary("isfinite", _d("True where x is finite (neither infinite nor NaN)."))


isinf = _unary("isinf", _d("True where x (either part, for complex) is infinite."))


isnan = _unary("isnan", _d("True where x (either part, for complex) is NaN."))


log = _unary("log", _d("Natural logarithm."))


log1p = _unary("log1p", _d("log(1 + x), accurate for small x."))


log2 = _unary("log2", _d("Base-2 logarithm."))


log10 = _unary("log10", _d("Base-10 logarithm."))


logical_not = _unary("logical_not", _d("Logical NOT (any dtype: nonzero is True)."))


negative = _unary("negative", _d("Numerical negative (integers wrap around)."))


positive = _unary("positive", _d("Numerical positive (a copy of x)."))


real = _unary("real", _d("Real part (x itself, copied, for real inputs)."))


reciprocal = _unary("reciprocal", _d("1 / x (integers: truncated, and 1 / 0 gives 0)."))


_round = _unary("round", _d("Round to the nearest integer-valued number, halves to even."))


def round(x: NDArray, /, decimals: int = 0, *, out: NDArray | None = None) -> NDArray:
    """Round to the nearest integer-valued number, halves to even (the Array
    API's ``round``); with ``decimals``, to that many decimal places (NumPy's:
    ``rint(x * 10**decimals) / 10**decimals``, or the reverse for negative
    ``decimals``; integers are unchanged for ``decimals >= 0``)."""
    if decimals and type(x) is not NDArray:  # NumPy's gives a plain array then
        x = _subclass.plain(x)
    if decimals == 0:
        return _round(x, out=out)
    d = operator.index(decimals)
    if not isinstance(x, NDArray):
        x = asarray(x)
    if x.dtype.kind == "c":
        # each part rounds as a real array (NumPy's rule: a complex division
        # by 10**decimals would not be correctly rounded)
        res = NDArray._empty(x.shape, x.dtype)
        for k, p in enumerate((real(x), imag(x))):
            core.copyto(res._part(k)._h, round(p, d)._h)
    elif x.dtype.kind in "biu":
        if d >= 0:
            res = x.copy() if x.dtype.kind != "b" else _round(x)
        else:
            f = 10 ** -d
            res = multiply(_round(divide(x, f)), f).astype(x.dtype)
    elif d > 0:
        f = 10.0 ** d
        res = divide(_round(multiply(x, f)), f)
    else:
        f = 10.0 ** -d
        res = multiply(_round(divide(x, f)), f)
    if out is None:
        return res
    if not isinstance(out, NDArray):
        raise TypeError(f"out must be a minarray NDArray, got {type(out).__name__}")
    core.copyto(out._h, res._h)
    return out


sign = _unary("sign", _d("Sign of x: -1, 0 or 1 (x / abs(x) for complex, NaN for NaN)."))


signbit = _unary("signbit", _d("True where the sign bit of x is set (including -0.0 and -NaN)."))
spacing = _unary("spacing", _d("The distance from x to the next value away from zero (negative for negative "
                              "x, NaN for infinities): NumPy's ``spacing``, one ULP of x."))


sin = _unary("sin", _d("Sine."))


sinh = _unary("sinh", _d("Hyperbolic sine."))


square = _unary("square", _d("x * x."))


sqrt = _unary("sqrt", _d("Principal square root."))


tan = _unary("tan", _d("Tangent."))


tanh = _unary("tanh", _d("Hyperbolic tangent."))


trunc = _unary("trunc", _d("Round toward zero (integers unchanged)."))


add = _binary("add", _d("x1 + x2 (integers wrap around)."))


atan2 = _binary("atan2", _d("Angle of the point (x2, x1), quadrant-aware."))


bitwise_and = _binary("bitwise_and", _d("x1 & x2 (bool and integers)."))


bitwise_left_shift = _binary("bitwise_left_shift", _d("x1 << x2; shifts past the width give 0."))


bitwise_or = _binary("bitwise_or", _d("x1 | x2 (bool and integers)."))


bitwise_right_shift = _binary("bitwise_right_shift", _d("x1 >> x2 (arithmetic for signed integers)."))


bitwise_xor = _binary("bitwise_xor", _d("x1 ^ x2 (bool and integers)."))


copysign = _binary("copysign", _d("The magnitude of x1 with the sign of x2."))


divide = _binary("divide", _d("True division x1 / x2 (integers divide in float64)."))


equal = _binary("equal", _d("x1 == x2."))


floor_divide = _binary("floor_divide", _d("x1 // x2, rounding toward -inf (integer // 0 gives 0)."))


greater = _binary("greater", _d("x1 > x2."))


greater_equal = _binary("greater_equal", _d("x1 >= x2."))


hypot = _binary("hypot", _d("sqrt(x1**2 + x2**2) without undue overflow."))


less = _binary("less", _d("x1 < x2."))


less_equal = _binary("less_equal", _d("x1 <= x2."))


logaddexp = _binary("logaddexp", _d("log(exp(x1) + exp(x2)) without overflow."))


logical_and = _binary("logical_and", _d("Logical AND (any dtype: nonzero is True)."))


logical_or = _binary("logical_or", _d("Logical OR (any dtype: nonzero is True)."))


logical_xor = _binary("logical_xor", _d("Logical XOR (any dtype: nonzero is True)."))


maximum = _binary("maximum", _d("The larger of x1 and x2; NaN if either is NaN."))


minimum = _binary("minimum", _d("The smaller of x1 and x2; NaN if either is NaN."))


multiply = _binary("multiply", _d("x1 * x2 (integers wrap around)."))


nextafter = _binary("nextafter", _d("The next representable value after x1 toward x2."))


not_equal = _binary("not_equal", _d("x1 != x2."))


pow = _binary("pow", _d("x1 ** x2 (integers wrap; a negative integer exponent raises ValueError)."))


remainder = _binary("remainder", _d("x1 % x2 with the sign of x2 (integer % 0 gives 0)."))


subtract = _binary("subtract", _d("x1 - x2 (integers wrap around)."))


def clip(x: NDArray, /, min: Operand | None = None, max: Operand | None = None, *,
         out: NDArray | None = None) -> NDArray:
    """Clamp each element of ``x`` to ``[min, max]`` (Array API ``clip``).

    The result has ``x``'s dtype, unless a bound of another kind promotes
    it (an integer ``x`` with float bounds: float, as NumPy's; the standard
    leaves that case open).  NaN in ``x``, ``min`` or ``max`` propagates.
    A Python int bound outside an integer dtype's range is clamped to that
    range (it bounds nothing)."""
    x = as_operand(x, "clip")
    dt = x._dtype
    lo, hi = min, max
    if dt.kind in "iu":
        bits = dt.bits
        tmin, tmax = (0, 2**bits - 1) if dt.kind == "u" else (-(2 ** (bits - 1)), 2 ** (bits - 1) - 1)
        if type(lo) is int:
            lo = tmin if lo < tmin else tmax if lo > tmax else lo
        if type(hi) is int:
            hi = tmin if hi < tmin else tmax if hi > tmax else hi
    res: NDArray = x
    if lo is not None:
        res = maximum(res, lo)
    if hi is not None:
        res = minimum(res, hi)
    if out is not None:
        if not isinstance(out, NDArray):
            raise TypeError(f"out must be a minarray NDArray, got {type(out).__name__}")
        if broadcast_shapes(x._shape, out._shape) != out._shape:
            raise ValueError(f"clip: output of shape {out._shape} cannot hold the result of shape {x._shape}")
        core.copyto(out._h, res._h)
        return out
    if res is x:
        return x.copy()
    if res._dtype is not dt and res._dtype.kind == dt.kind:
        return res.astype(dt)
    return res


core.ew_setup(operator_operand, _widened)


ArrayLike = Any


def _inexact(x: Any, fname: str) -> NDArray:
    """``x`` as an array of a floating or complex dtype: integers and
    booleans become the smallest float holding them (int8 float16, int16
    float32, wider float64), the type NumPy's float ufuncs pick."""
    a = as_operand(x, fname)
    return a if a.dtype.kind in "fc" else a.astype(_dt.promote(a.dtype, _dt.float16))


@_py_ufunc(1, "f")
def deg2rad(x: ArrayLike) -> NDArray:
    """Degrees to radians: ``x * pi / 180``."""
    return multiply(_inexact(x, "deg2rad"), math.pi / 180)


@_py_ufunc(1, "f")
def rad2deg(x: ArrayLike) -> NDArray:
    """Radians to degrees: ``x * 180 / pi``."""
    return multiply(_inexact(x, "rad2deg"), 180 / math.pi)


@_py_ufunc(1, "f")
def radians(x: ArrayLike) -> NDArray:
    """NumPy's other name of :func:`deg2rad`."""
    r: NDArray = deg2rad(x)
    return r


@_py_ufunc(1, "f")
def degrees(x: ArrayLike) -> NDArray:
    """NumPy's other name of :func:`rad2deg`."""
    r: NDArray = rad2deg(x)
    return r


@_py_ufunc(1, "cf")
def exp2(x: ArrayLike) -> NDArray:
    """``2 ** x`` elementwise (floating result)."""
    return pow(2.0, _inexact(x, "exp2"))


@_py_ufunc(1, "f")
def fabs(x: ArrayLike) -> NDArray:
    """The absolute value as a floating array (complex is not accepted)."""
    a = _inexact(x, "fabs")
    if a.dtype.kind == "c":
        raise TypeError("ufunc 'fabs' not supported for complex input")
    return abs(a)


@_py_ufunc(2, "bcfiu")
def fmax(x1: ArrayLike, x2: ArrayLike) -> NDArray:
    """The larger of ``x1`` and ``x2``, ignoring a NaN when the other is a
    number (``maximum`` propagates NaNs)."""
    a, b = as_operand(x1, "fmax"), as_operand(x2, "fmax")
    m = maximum(a, b)
    if m.dtype.kind not in "fc":
        return m
    return where(isnan(a), b, where(isnan(b), a, m)).astype(m.dtype, copy=False)


@_py_ufunc(2, "bcfiu")
def fmin(x1: ArrayLike, x2: ArrayLike) -> NDArray:
    """The smaller of ``x1`` and ``x2``, ignoring a NaN when the other is a
    number."""
    a, b = as_operand(x1, "fmin"), as_operand(x2, "fmin")
    m = minimum(a, b)
    if m.dtype.kind not in "fc":
        return m
    return where(isnan(a), b, where(isnan(b), a, m)).astype(m.dtype, copy=False)


@_py_ufunc(2, "bfiu")
def fmod(x1: ArrayLike, x2: ArrayLike) -> NDArray:
    """The C remainder: ``x1 - trunc(x1 / x2) * x2``, with the sign of
    ``x1`` (``remainder`` takes ``x2``'s).  Integer division by zero gives
    0, float division NaN."""
    a, b = as_operand(x1, "fmod"), as_operand(x2, "fmod")
    # |x1| mod |x2| is exact and already the C remainder's magnitude
    r = remainder(abs(a), abs(b))
    if r.dtype.kind == "f":
        return copysign(r, a if a.dtype is r.dtype else a.astype(r.dtype))
    return where(less(a, 0), negative(r), r).astype(r.dtype, copy=False)


@_py_ufunc(2, "bfiu", nout=2)
def divmod(x1: ArrayLike, x2: ArrayLike) -> tuple[NDArray, NDArray]:
    """``(floor_divide(x1, x2), remainder(x1, x2))``: the ``//`` and ``%``
    of these arrays, as ``divmod(x1, x2)`` gives them (so ``inf // 2`` is
    the standard's ``inf``, where NumPy's gives NaN)."""
    return floor_divide(x1, x2), remainder(x1, x2)


@_py_ufunc(2, "cf")
def float_power(x1: ArrayLike, x2: ArrayLike) -> NDArray:
    """``x1 ** x2`` computed in float64 (complex128 for complex inputs)."""
    a, b = as_operand(x1, "float_power"), as_operand(x2, "float_power")
    dt = _dt.complex128 if a.dtype.kind == "c" or b.dtype.kind == "c" else _dt.float64
    return pow(a.astype(dt, copy=False), b.astype(dt, copy=False))


def angle(z: ArrayLike, deg: bool = False) -> NDArray:
    """The argument of each complex number (radians, or degrees with
    ``deg``): ``atan2(imag, real)``; 0 or pi for real numbers."""
    a = _inexact(z, "angle")
    if a.dtype.kind == "c":
        out = atan2(imag(a), real(a))
    else:
        out = atan2(zeros_like(a), a)  # +0: pi for negative numbers, -0.0 included
    return multiply(out, 180 / math.pi) if deg else out


@_py_ufunc(2, "f")
def heaviside(x1: ArrayLike, x2: ArrayLike) -> NDArray:
    """The Heaviside step: 0 where ``x1 < 0``, ``x2`` where ``x1 == 0``, 1
    where ``x1 > 0`` (NaN stays NaN)."""
    a, b = as_operand(x1, "heaviside"), as_operand(x2, "heaviside")
    dt = _dt.promote(a.dtype, b.dtype)
    if dt.kind not in "f":  # NumPy's float ufunc type for integers
        dt = _dt.promote(dt, _dt.float16)
    out = where(less(a, 0), 0.0, where(greater(a, 0), 1.0, b.astype(dt, copy=False)))
    if a.dtype.kind == "f":
        out = where(isnan(a), a.astype(dt, copy=False), out)
    return out.astype(dt, copy=False)


def sinc(x: ArrayLike) -> NDArray:
    """The normalised sinc, ``sin(pi x) / (pi x)`` (1 at 0)."""
    a = as_operand(x, "sinc")
    if a.dtype.kind not in "fc":  # NumPy's where() with a Python float: float64
        a = a.astype(_dt.float64)
    y = multiply(math.pi, where(equal(a, 0), 1.0e-20, a))
    return divide(sin(y), y)


def fix(x: ArrayLike) -> NDArray:
    """Round towards zero (floating inputs; integers are returned as they
    are, in their dtype)."""
    return trunc(as_operand(x, "fix"))


@_py_ufunc(1, "cf")
def rint(x: ArrayLike) -> NDArray:
    """Round to the nearest integer, halves to even, as a floating array
    (:func:`minarray.round` keeps integer dtypes)."""
    return round(_inexact(x, "rint"))


def nan_to_num(x: ArrayLike, copy: bool = True, nan: float = 0.0, posinf: float | None = None,
               neginf: float | None = None) -> NDArray:
    """``x`` with NaN replaced by ``nan`` (0.0) and infinities by
    ``posinf``/``neginf`` (the largest finite values of the dtype by
    default); complex parts are replaced separately."""
    if copy and type(x) is not NDArray and _subclass.instance(x):
        return _subclass.through_method(nan_to_num, x, copy, nan, posinf, neginf, zero_d=True)
    a = as_operand(x, "nan_to_num")
    if a.dtype.kind not in "fc":
        return a.copy() if copy else a
    real_dt = _dt.float64 if a.dtype is _dt.complex128 else _dt.float32 if a.dtype is _dt.complex64 else a.dtype
    fi = finfo(real_dt)
    hi = float(fi.max) if posinf is None else posinf
    lo = float(fi.min) if neginf is None else neginf

    def fix_part(p: NDArray) -> NDArray:
        p = where(isnan(p), nan, p)
        return where(isinf(p), where(greater(p, 0), hi, lo), p).astype(p.dtype, copy=False)

    if a.dtype.kind == "c":
        out = add(fix_part(real(a)), multiply(fix_part(imag(a)), 1j)).astype(a.dtype)
    else:
        out = fix_part(a)
    if not copy:
        a[...] = out
        return a
    return out


def interp(x: ArrayLike, xp: ArrayLike, fp: ArrayLike, left: Any = None, right: Any = None,
           period: float | None = None) -> NDArray:
    """Piecewise-linear interpolation of the points (``xp``, ``fp``) at
    ``x`` (``xp`` increasing); ``left``/``right`` (default ``fp[0]`` and
    ``fp[-1]``) outside ``xp``'s range.  NumPy's formula: ``slope * (x -
    xp[j]) + fp[j]``, exactly ``fp[j]`` at a sample point.  Complex ``fp``
    interpolates its real and imaginary parts alike; with ``period``, the
    coordinates are angles (taken modulo ``period``, ``xp`` in any order)."""
    xs = as_operand(x, "interp").astype(_dt.float64, copy=False)
    xpa = as_operand(xp, "interp").astype(_dt.float64, copy=False)
    fpa = as_operand(fp, "interp")
    kind = fpa.dtype.kind
    fpa = fpa.astype(_dt.complex128 if kind == "c" else _dt.float64, copy=False)
    if xpa.ndim != 1 or fpa.ndim != 1:
        raise ValueError("data must be 1 dimensional" if period is None else "Data points must be 1-D sequences")
    n = xpa.shape[0]
    if n != fpa.shape[0]:
        raise ValueError("fp and xp are not of the same length.")
    if n == 0:
        raise ValueError("array of sample points is empty")
    if period is not None:
        # NumPy's periodic rule: everything modulo |period|, the samples
        # sorted and extended by one period's wrap at each end
        if period == 0:
            raise ValueError("period must be a non-zero value")
        p = abs(float(period))
        left = right = None
        xs, xpa = remainder(xs, p), remainder(xpa, p)
        order = argsort(xpa)
        xpa, fpa = xpa[order], fpa[order]
        xpa = concat((subtract(xpa[-1:], p), xpa, add(xpa[:1], p)))
        fpa = concat((fpa[-1:], fpa, fpa[:1]))
        n += 2
    if kind == "c":
        lc = complex(fpa[0] if left is None else left)
        rc = complex(fpa[-1] if right is None else right)
        parts = [_interp_real(xs, xpa, part, lv, rv, n) for part, lv, rv in
                 ((real(fpa), lc.real, rc.real), (imag(fpa), lc.imag, rc.imag))]
        return add(parts[0], multiply(parts[1], 1j)).astype(_dt.complex128, copy=False)
    lval = float(fpa[0]) if left is None else float(left)
    rval = float(fpa[-1]) if right is None else float(right)
    return _interp_real(xs, xpa, fpa, lval, rval, n)


def _interp_real(xs: NDArray, xpa: NDArray, fpa: NDArray, lval: float, rval: float, n: int) -> NDArray:
    if n == 1:
        out = where(less(xs, xpa[0]), lval, where(greater(xs, xpa[0]), rval, fpa[0]))
        return out.astype(_dt.float64, copy=False)
    with errstate(all="ignore"):  # NumPy's interp (C, no error checks) never warns
        return _interp(xs, xpa, fpa, lval, rval, n)


def _interp(xs: NDArray, xpa: NDArray, fpa: NDArray, lval: float, rval: float, n: int) -> NDArray:
    from minarray._indexing import take  # cycle: _indexing imports this module

    j = clip(subtract(_searchsorted(xpa, xs, "right", None), 1), 0, n - 2)
    x0, x1 = take(xpa, j), take(xpa, add(j, 1))
    y0, y1 = take(fpa, j), take(fpa, add(j, 1))
    slope = divide(subtract(y1, y0), subtract(x1, x0))
    val = add(multiply(slope, subtract(xs, x0)), y0)
    # NumPy: a NaN from one side is retried from the other, then the flat value
    other = add(multiply(slope, subtract(xs, x1)), y1)
    val = where(isnan(val), where(logical_and(isnan(other), equal(y0, y1)), y0, other), val)
    val = where(equal(xs, x0), y0, val)
    val = where(equal(xs, xpa[-1]), fpa[-1], val)
    val = where(less(xs, xpa[0]), lval, where(greater(xs, xpa[-1]), rval, val))
    return val.astype(_dt.float64, copy=False)


@_py_ufunc(1, "f")
def cbrt(x: ArrayLike) -> NDArray:
    """The real cube root (negative for negative numbers): ``|x| ** (1/3)``
    with its sign, refined by one Newton step, so exact cubes give exact
    roots."""
    a = _inexact(x, "cbrt")
    if a.dtype.kind == "c":
        raise TypeError("ufunc 'cbrt' not supported for complex input")
    w = a.astype(_dt.float64, copy=False)
    with errstate(all="ignore"):  # the step is discarded where it is not finite; NumPy's cbrt never warns
        y = copysign(pow(abs(w), 1.0 / 3.0), w)
        y2 = multiply(y, y)
        step = divide(subtract(multiply(y2, y), w), multiply(3.0, y2))
        ok = logical_and(isfinite(step), not_equal(y, 0))
        y = where(ok, subtract(y, step), y)
    return y if a.dtype is _dt.float64 else y.astype(a.dtype)


@_py_ufunc(2, "f")
def logaddexp2(x1: ArrayLike, x2: ArrayLike) -> NDArray:
    """``log2(2**x1 + 2**x2)`` without overflow."""
    a, b = _inexact(x1, "logaddexp2"), _inexact(x2, "logaddexp2")
    m = maximum(a, b)
    with errstate(invalid="ignore"):  # equal infinities, replaced below (NumPy does not warn)
        d = abs(subtract(a, b))
        out = add(m, divide(log1p(pow(2.0, negative(d))), math.log(2.0)))
    # equal infinities: the difference is NaN, the answer that infinity
    return where(equal(a, b), add(a, 1.0), out).astype(m.dtype, copy=False)


@_py_ufunc(2, "biu")
def gcd(x1: ArrayLike, x2: ArrayLike) -> NDArray:
    """The greatest common divisor of integers, non-negative (Euclid's
    algorithm, each step one elementwise remainder over the whole array)."""
    a, b = as_operand(x1, "gcd"), as_operand(x2, "gcd")
    dt = _dt.promote(a.dtype, b.dtype)
    if dt.kind not in "iub":
        raise TypeError(f"ufunc 'gcd' not supported for {dt}: integers only")
    from minarray._manipulation import broadcast_arrays  # cycle: _manipulation imports this module
    from minarray._utility import any as _any  # cycle: _utility imports this module

    a, b = broadcast_arrays(abs(a.astype(dt)), abs(b.astype(dt)))
    while bool(_any(not_equal(b, 0))):
        nz = not_equal(b, 0)
        a, b = where(nz, b, a), where(nz, remainder(a, where(nz, b, 1)), 0)
    return a.astype(dt, copy=False)


@_py_ufunc(1, "iu", types=tuple(_char(d) + "->B" for d in _dt.KERNEL if d.kind in "iu" and _char(d)))
def bitwise_count(x: ArrayLike) -> NDArray:
    """The number of 1-bits in the absolute value of integers, uint8
    (NumPy 2's ``bitwise_count``; booleans count as int8).  Counted 64
    bits at a time, in parallel within the word: pairs, then nibbles, then
    bytes, summed by one multiplication."""
    a = as_operand(x, "bitwise_count")
    if a.dtype is _dt.bool:
        a = a.astype(_dt.int8)
    if a.dtype.kind not in "iu":
        raise TypeError(f"ufunc 'bitwise_count' not supported for {a.dtype}: integers only")
    if a.dtype.kind == "i":
        # |x| wraps at the smallest value, whose bits as unsigned are right
        a = abs(a).view(_dt.as_dtype(f"uint{8 * a.dtype.itemsize}"))
    v = a.astype(_dt.uint64)
    v = subtract(v, bitwise_and(bitwise_right_shift(v, 1), 0x5555555555555555))
    v = add(bitwise_and(v, 0x3333333333333333), bitwise_and(bitwise_right_shift(v, 2), 0x3333333333333333))
    v = bitwise_and(add(v, bitwise_right_shift(v, 4)), 0x0F0F0F0F0F0F0F0F)
    return bitwise_right_shift(multiply(v, 0x0101010101010101), 56).astype(_dt.uint8)


@_py_ufunc(2, "biu")
def lcm(x1: ArrayLike, x2: ArrayLike) -> NDArray:
    """The least common multiple of integers, non-negative (0 when either
    is 0)."""
    a, b = as_operand(x1, "lcm"), as_operand(x2, "lcm")
    g = gcd(a, b)
    q = floor_divide(abs(a), where(equal(g, 0), 1, g))
    return abs(multiply(q, b)).astype(g.dtype, copy=False)


@_py_ufunc(2, "f")
def ldexp(x1: ArrayLike, x2: ArrayLike) -> NDArray:
    """``x1 * 2**x2`` for integer exponents ``x2``, exact while the result
    is a normal number (the scaling happens in two halves, so no partial
    power overflows first)."""
    e = as_operand(x2, "ldexp")
    if isinstance(x1, (bool, int)) and not isinstance(x2, (bool, int, float)):
        # NumPy's loop search: a Python integer is weak, so the first loop
        # (float16's, 'el->e') takes it beside an integer array; two Python
        # scalars are both read as arrays and meet in float64
        a = as_operand(x1, "ldexp").astype(_dt.float16)
    else:
        a = _inexact(x1, "ldexp")
    if e.dtype.kind not in "iu":
        raise TypeError("ufunc 'ldexp' needs integer exponents")
    half = floor_divide(e, 2)

    def power_of_two(v: NDArray) -> NDArray:
        return pow(2.0, v.astype(_dt.float64)).astype(a.dtype)

    return multiply(multiply(a, power_of_two(half)), power_of_two(subtract(e, half)))


@_py_ufunc(1, "f", nout=2, types=("e->ei", "f->fi", "d->di"))
def frexp(x: ArrayLike) -> tuple[NDArray, NDArray]:
    """Mantissa and exponent, ``x == m * 2**e`` with ``0.5 <= |m| < 1``
    (int32 exponents, as NumPy's); zeros, infinities and NaN give
    themselves and exponent 0, as C's ``frexp``."""
    a = _inexact(x, "frexp")
    if a.dtype.kind == "c":
        raise TypeError("ufunc 'frexp' not supported for the input types, and the inputs could not be "
                        "safely coerced to any supported types according to the casting rule ''safe''")
    # float64 holds every float16 and float32 value as a normal number, and
    # scaling by a power of two is exact, so one computation serves all
    w = a.astype(_dt.float64)
    regular = logical_and(isfinite(w), not_equal(w, 0))
    v = where(regular, w, 1.0)
    e = add(floor(log2(abs(v))), 1).astype(_dt.int64)
    m = ldexp(v, negative(e))
    # log2 rounds near powers of two: one step either way makes 0.5 <= |m| < 1
    up = greater_equal(abs(m), 1.0)
    m, e = where(up, multiply(m, 0.5), m), where(up, add(e, 1), e)
    down = less(abs(m), 0.5)
    m, e = where(down, multiply(m, 2.0), m), where(down, subtract(e, 1), e)
    mantissa = where(regular, m, w).astype(a.dtype)
    return mantissa, where(regular, e, 0).astype(_dt.int32)


@_py_ufunc(1, "f", nout=2)
def modf(x: ArrayLike) -> tuple[NDArray, NDArray]:
    """The fractional and integral parts, both with ``x``'s sign:
    ``(x - trunc(x), trunc(x))`` (infinities give a zero fraction)."""
    a = _inexact(x, "modf")
    whole = trunc(a)
    with errstate(invalid="ignore"):  # inf - inf, replaced by the zero fraction
        frac = where(isinf(a), copysign(zeros_like(a), a), copysign(subtract(a, whole), a))
    return frac.astype(a.dtype, copy=False), whole


def unwrap(p: ArrayLike, discont: float | None = None, axis: int = -1, *, period: float = 2 * math.pi) -> NDArray:
    """Phases unwrapped along ``axis``: jumps larger than ``discont``
    (``period / 2`` by default) become their complement modulo
    ``period`` (NumPy's ``unwrap``)."""
    from minarray._statistical import cumsum  # cycle: _statistical imports this module
    from minarray._utility import diff  # cycle: _utility imports this module

    a = as_operand(p, "unwrap")
    if a.dtype.kind == "c":
        raise TypeError("unwrap: complex phases are not supported")
    # NumPy's two cases: integer phases with an integer period stay integers
    # (the jump at exactly half an even period is the ambiguous one); any
    # other is computed in floats, float64 for integer input
    integral = a.dtype.kind in "iu" and isinstance(period, int) and not isinstance(period, bool)
    if not integral and a.dtype.kind != "f":
        a = a.astype(_dt.float64)
    ax = normalize_axis(axis, a.ndim)
    if discont is None:
        discont = period / 2
    dd = diff(a, axis=ax)
    if integral:
        half, rem = divmod(period, 2)
        ambiguous = rem == 0
    else:
        half, ambiguous = period / 2, True
    ddmod = subtract(remainder(add(dd, half), period), half)
    if ambiguous:
        ddmod = where(logical_and(equal(ddmod, -half), greater(dd, 0)), half, ddmod)
    correct = subtract(ddmod, dd)
    correct = where(less(abs(dd), discont), 0, correct).astype(ddmod.dtype, copy=False)
    out = a.astype(_dt.result_type(dd, period))
    rest = (slice(None),) * ax + (slice(1, None),)
    if out[rest].size:
        out[rest] = add(a[rest], cumsum(correct, axis=ax))
    return out


_PY_NUMBERS = (bool, int, float, complex)


def _value(v: Any) -> Any:
    """A Python number as it is (weak in promotion), anything else as an array."""
    return v if isinstance(v, _PY_NUMBERS) else as_operand(v)


def _abs(v: Any) -> Any:
    return builtins.abs(v) if isinstance(v, _PY_NUMBERS) else abs(v)


def _isfinite(v: Any) -> Any:
    return cmath.isfinite(v) if isinstance(v, _PY_NUMBERS) else isfinite(v)


def _isnan(v: Any) -> Any:
    return cmath.isnan(v) if isinstance(v, _PY_NUMBERS) else isnan(v)


def isclose(a: Any, b: Any, rtol: float = 1e-05, atol: float = 1e-08, equal_nan: bool = False) -> NDArray:
    """Elementwise ``|a - b| <= atol + rtol * |b|`` (NumPy's test: not
    symmetric in ``a`` and ``b``); infinities are close only to themselves,
    NaN to nothing unless ``equal_nan``.  Python numbers stay weak, as in
    NumPy: ``isclose(float32_array, 0.1)`` compares in float32."""
    x, y = _value(a), _value(b)
    if isinstance(y, NDArray):
        if y.dtype.kind in "biu":
            y = y.astype(_dt.result_type(y, 1.0))
    elif isinstance(y, (bool, int)):
        y = float(y)
    if isinstance(x, NDArray) and x.dtype.kind == "b":
        x = x.astype(_dt.float64)
    if not isinstance(x, NDArray) and not isinstance(y, NDArray):
        x = as_operand(x)  # two Python numbers: a 0-d result
    with errstate(invalid="ignore"):  # inf - inf: NumPy's isclose does not warn either
        tol = atol + rtol * _abs(y)  # Python arithmetic when y is a Python number
        close = less_equal(_abs(subtract(x, y)), tol)
    result = logical_or(logical_and(close, _isfinite(y)), equal(x, y))
    if equal_nan:
        result = logical_or(result, logical_and(_isnan(x), _isnan(y)))
    return result


def isposinf(x: Any, out: NDArray | None = None) -> NDArray:
    """Elementwise: is the value +inf?  (``out=`` receives it, as NumPy's.)"""
    a = as_operand(x, "isposinf")
    if a.dtype.kind == "c":
        raise TypeError("This operation is not supported for complex values because it would be ambiguous.")
    r = logical_and(isinf(a), logical_not(signbit(a))) if a.dtype.kind == "f" else zeros(a.shape, dtype=_dt.bool)
    return write_out(out, r, "isposinf", broadcast=True)


def isneginf(x: Any, out: NDArray | None = None) -> NDArray:
    """Elementwise: is the value -inf?  (``out=`` receives it, as NumPy's.)"""
    a = as_operand(x, "isneginf")
    if a.dtype.kind == "c":
        raise TypeError("This operation is not supported for complex values because it would be ambiguous.")
    r = logical_and(isinf(a), signbit(a)) if a.dtype.kind == "f" else zeros(a.shape, dtype=_dt.bool)
    return write_out(out, r, "isneginf", broadcast=True)


def iscomplex(x: Any) -> NDArray:
    """Elementwise: does the value have a non-zero imaginary part?"""
    a = as_operand(x, "iscomplex")
    if a.dtype.kind != "c":
        return zeros(a.shape, dtype=_dt.bool)
    return not_equal(imag(a), 0)


def isreal(x: Any) -> NDArray:
    """Elementwise: is the imaginary part zero (always, for real dtypes)?"""
    return logical_not(iscomplex(x))


# NumPy's names of the functions above: the same objects under a second name
# (ma.absolute is ma.abs), so the two spellings can never drift apart.
absolute = abs
arccos = acos
arccosh = acosh
arcsin = asin
arcsinh = asinh
arctan = atan
arctan2 = atan2
arctanh = atanh
invert = bitwise_invert
bitwise_not = bitwise_invert
left_shift = bitwise_left_shift
right_shift = bitwise_right_shift
power = pow
conjugate = conj
true_divide = divide
mod = remainder
around = round


_NOVALUE: Any = object()


@overload
def where(condition: Operand, /) -> tuple[NDArray, ...]: ...


@overload
def where(condition: Operand, x1: Operand, x2: Operand, /, *, out: NDArray | None = None) -> NDArray: ...


def where(condition: Operand, x1: Operand = _NOVALUE, x2: Operand = _NOVALUE, /, *,
          out: NDArray | None = None) -> Any:
    """Elements of ``x1`` where ``condition`` is true, else of ``x2`` (all
    three broadcast; the values promote like a binary operation).  With
    ``condition`` alone, NumPy's ``where(condition)``: ``nonzero(condition)``."""
    if x1 is _NOVALUE and x2 is _NOVALUE:
        from minarray._searching import nonzero  # cycle: _searching imports this module

        return nonzero(condition if isinstance(condition, NDArray) else asarray(condition))
    if x1 is _NOVALUE or x2 is _NOVALUE:
        raise ValueError("where takes the condition alone or with both x1 and x2, not with one of them")
    r: NDArray = _ew(_WHERE, out, condition, x1, x2)
    return r


_WHERE = _OPID["where"]
