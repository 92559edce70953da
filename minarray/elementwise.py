"""The Array API elementwise functions (2024.12) and the NDArray operators.

Python computes nothing per element here.  Each function is one call into
the C engine (``core.ew_call``, csrc/py/elementwise_dispatch.c), which picks the
loop and result dtype from tables generated at build time from the
promotion rules, broadcasts, casts mismatched operands chunk by chunk,
allocates the result when ``out`` is None and runs the generated loop with
the GIL released.  NDArray's operators are C methods over the same dispatch.

Type rules:

* Array operands promote by ``minarray.dtypes.promote`` (the Array API table,
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

import operator
from typing import Any, Protocol, overload

from minarray import dtypes as _dt
from minarray._native import core
from minarray.ndarray import NDArray, c_strides
from minarray.views import broadcast_shapes

__all__ = [
    "abs", "acos", "acosh", "add", "asin", "asinh", "atan", "atan2", "atanh",
    "bitwise_and", "bitwise_left_shift", "bitwise_invert", "bitwise_or",
    "bitwise_right_shift", "bitwise_xor", "ceil", "clip", "conj", "copysign", "cos",
    "cosh", "divide", "equal", "exp", "expm1", "floor", "floor_divide", "greater",
    "greater_equal", "hypot", "imag", "isfinite", "isinf", "isnan", "less",
    "less_equal", "log", "log1p", "log2", "log10", "logaddexp", "logical_and",
    "logical_not", "logical_or", "logical_xor", "maximum", "minimum", "multiply",
    "negative", "nextafter", "not_equal", "positive", "pow", "real", "reciprocal",
    "remainder", "round", "sign", "signbit", "sin", "sinh", "square", "sqrt",
    "subtract", "tan", "tanh", "trunc", "where",
]


Scalar = bool | int | float | complex
Operand = NDArray | Scalar


class UnaryFunction(Protocol):
    __name__: str

    def __call__(self, x: NDArray, /, *, out: NDArray | None = None) -> NDArray: ...


class BinaryFunction(Protocol):
    __name__: str

    def __call__(self, x1: Operand, x2: Operand, /, *, out: NDArray | None = None) -> NDArray: ...


# ---- the C engine ----------------------------------------------------------------
# Everything below is one call, core.ew_call(op, out, *operands): the C engine
# (csrc/py/elementwise_dispatch.c) picks the loop from tables generated at build time
# from the promotion rules (csrc/core/gen/gen_elementwise.py), checks out=,
# broadcasts and runs.  NDArray's operators are C methods over the same
# dispatch, installed by ew_setup below.

_OPID: dict[str, int] = {name: i for i, (name, _nin) in enumerate(core.ew_ops())}
_NAMES: dict[int, str] = {i: name for name, i in _OPID.items()}
_ew = core.ew_call


def _operand(x: Any) -> Any:
    """An operand the C engine does not read directly (array-likes, Python
    number subclasses) as an NDArray or an exact Python scalar; None when
    it is neither (an operator then returns NotImplemented)."""
    if isinstance(x, NDArray):
        return x
    if isinstance(x, (int, float, complex)) and not hasattr(x, "dtype"):
        # a subclass of a Python number: the value, as the plain type
        return bool(x) if isinstance(x, bool) else int(x) if isinstance(x, int) else \
            float(x) if isinstance(x, float) else complex(x)
    if x is None or isinstance(x, (str, bytes)):
        return None
    from minarray.creation import asarray

    try:
        return asarray(x)
    except (TypeError, ValueError):
        return None


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
        raise TypeError(f"Cannot cast {_NAMES[op]} output from {r.dtype} to {out.dtype} with casting rule "
                        f"'same_kind'")
    out[...] = r
    return out


# Each function is a builtin bound to its op number (core.ew_function): a
# call reaches the C engine with no Python frame in between, which is a
# sixth of a small array's call.  The docstring's first lines are the text
# signature inspect.signature reads.
def _unary(name: str, doc: str) -> UnaryFunction:
    f: UnaryFunction = core.ew_function(_OPID[name], f"{name}(x, /, *, out=None)\n--\n\n{doc}")
    return f


def _binary(name: str, doc: str) -> BinaryFunction:
    f: BinaryFunction = core.ew_function(_OPID[name], f"{name}(x1, x2, /, *, out=None)\n--\n\n{doc}")
    return f


# ---- the functions ------------------------------------------------------------

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
    if decimals == 0:
        return _round(x, out=out)
    d = operator.index(decimals)
    if not isinstance(x, NDArray):
        from minarray.creation import asarray

        x = asarray(x)
    if x.dtype.kind == "c":
        # each part rounds as a real array (NumPy's rule: a complex division
        # by 10**decimals would not be correctly rounded)
        res = NDArray._empty(x.shape, x.dtype)
        part = _dt.float32 if x.dtype is _dt.complex64 else _dt.float64
        strides = tuple(2 * s for s in c_strides(x.shape))
        for k, p in enumerate((real(x), imag(x))):
            core.copyto(core.view(res._h, k, x.shape, strides, part.code, part.bits, False),
                        round(p, d)._h)
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

    The result has ``x``'s dtype.  NaN in ``x``, ``min`` or ``max`` propagates.
    A Python int bound outside an integer dtype's range is clamped to that
    range (it bounds nothing)."""
    if not isinstance(x, NDArray):
        raise TypeError(f"clip expects an NDArray, got {type(x).__name__}")
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
    if res._dtype is not dt:
        return res.astype(dt)
    return res


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
        from minarray.creation import asarray
        from minarray.indexing import nonzero

        return nonzero(condition if isinstance(condition, NDArray) else asarray(condition))
    if x1 is _NOVALUE or x2 is _NOVALUE:
        raise ValueError("where takes the condition alone or with both x1 and x2, not with one of them")
    r: NDArray = _ew(_WHERE, out, condition, x1, x2)
    return r


_WHERE = _OPID["where"]


# ---- the NDArray operators ------------------------------------------------------
# NDArray's arithmetic, comparison, bitwise and unary operators (and the
# reflected and in-place forms) are C methods over the same dispatch.

core.ew_setup(_operand, _widened)
