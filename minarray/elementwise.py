"""The Array API elementwise functions (2024.12) and the NDArray operators.

Python computes nothing per element here.  A call resolves the loop and the
result dtype (cached per operation and operand dtypes), the result shape,
allocates nothing itself, and makes one call into the C engine
(``core.ewise``, csrc/py/elementwise.c), which broadcasts, casts mismatched
operands chunk by chunk, allocates the result when ``out`` is None and runs
the generated loop with the GIL released.

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

from typing import Any, Protocol

from minarray import dtypes as _dt
from minarray._native import core
from minarray.dtypes import DType
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


# ---- the C operation table -------------------------------------------------

_TYPES: tuple[DType, ...] = _dt.ALL  # index = the C ma_type id
_TID: dict[DType, int] = {d: i for i, d in enumerate(_TYPES)}
_OPID: dict[str, int] = {}
# op name -> {loop type id: result type id}
_LOOPS: dict[str, dict[int, int]] = {}
for _i, (_name, _nin, _sigs) in enumerate(core.ew_ops()):
    _OPID[_name] = _i
    _LOOPS[_name] = {s[0]: s[1] for s in _sigs}

_ewise = core.ewise
_ewfast = core.ewfast
_build = core.ndarray_wrap

# The order NumPy tries loops in when the operands' dtype has none of its own.
_ORDER = tuple(_TID[d] for d in (
    _dt.bool, _dt.int8, _dt.uint8, _dt.int16, _dt.uint16, _dt.int32, _dt.uint32, _dt.int64,
    _dt.uint64, _dt.float16, _dt.bfloat16, _dt.float32, _dt.float64, _dt.complex64, _dt.complex128))
# round() lists its float loops first in NumPy, so round(bool) is float16.
_ORDER_FLOATS_FIRST = _ORDER[9:] + _ORDER[:9]
# Operations NumPy refuses on bool instead of computing them in int8.
_NO_BOOL = {
    "subtract": "boolean subtract is not supported; use bitwise_xor or logical_xor instead",
    "negative": "boolean negative is not supported; use bitwise_invert or logical_not instead",
    "positive": "positive is not defined for booleans",
    "sign": "sign is not defined for booleans",
}
_LOGICAL = {"logical_and", "logical_or", "logical_xor", "logical_not"}
_COMPARISONS = {"equal", "not_equal", "less", "less_equal", "greater", "greater_equal"}
_WEAK: dict[type, Scalar] = {bool: True, int: 0, float: 0.0, complex: 0j}
_KIND_RANK = {"b": 0, "u": 1, "i": 2, "f": 3, "c": 4}
_MIXED_INT_U = len(_TYPES)  # the loop type of int64-vs-uint64 comparisons (gen_elementwise.py)

# c_strides per shape, so allocating a result does not loop in Python.
_CSTRIDES: dict[tuple[int, ...], tuple[int, ...]] = {(): ()}


def _cstrides(shape: tuple[int, ...]) -> tuple[int, ...]:
    s = _CSTRIDES.get(shape)
    if s is None:
        if len(_CSTRIDES) > 4096:
            _CSTRIDES.clear()
        s = _CSTRIDES[shape] = c_strides(shape)
    return s


def _wrap(h: Any, shape: tuple[int, ...]) -> NDArray:
    # results of 2+ dims may follow a transposed input's layout (ew_run):
    # their strides come from the handle (None)
    return _build(h, shape, _cstrides(shape) if len(shape) < 2 else None, None)


def _same_kind(src: DType, dst: DType) -> bool:
    """NumPy's casting="same_kind": safe casts, and casts within a kind or
    up the order bool < unsigned < signed < float < complex."""
    return src is dst or _dt.promote(src, dst) is dst or _KIND_RANK[src.kind] <= _KIND_RANK[dst.kind]


def _resolve(name: str, keys: tuple[Any, ...]) -> tuple[int, DType]:
    """(loop type id, result dtype) for operand dtypes/scalar types ``keys``."""
    dts = [k for k in keys if isinstance(k, DType)]
    if name == "where":
        dts = dts[1:] if isinstance(keys[0], DType) else dts
        vals = keys[1:]
    else:
        vals = keys
    if dts:
        common = dts[0]
        for d in dts[1:]:
            common = _dt.promote(common, d)
        weak = [_dt.scalar_dtype(_WEAK[k], common) for k in vals if not isinstance(k, DType)]
        for d in weak:
            common = _dt.promote(common, d)
        dts = dts + weak
    else:  # only scalars among the values (where): their default dtypes
        dts = [_dt.as_dtype(k) for k in vals]
        common = _dt.result_type(*dts)
    loops = _LOOPS[name]
    ct = _TID[common]
    if name in _COMPARISONS and len(keys) == 2 and {keys[0], keys[1]} == {_dt.int64, _dt.uint64}:
        # exact int64/uint64 comparison loops instead of float64 (NumPy 2)
        t = _MIXED_INT_U if keys[0] is _dt.int64 else _MIXED_INT_U + 1
        return t, _dt.bool
    if name in _LOGICAL:
        t = _TID[_dt.bool]
    elif name == "divide" and common.kind in "biu":
        t = _TID[_dt.float64]  # true division of integers is float64 (NumPy)
    elif ct in loops:
        t = ct
    elif common is _dt.bool and name in _NO_BOOL:
        raise TypeError(f"{name}: {_NO_BOOL[name]}")
    else:
        # NumPy's rule: the first loop every operand casts to safely (so
        # atan2(int8, uint8) is float16, though int8 and uint8 promote to int16)
        order = _ORDER_FLOATS_FIRST if name == "round" else _ORDER
        for t in order:
            if t in loops and all(_dt.promote(d, _TYPES[t]) is _TYPES[t] for d in dts):
                break
        else:
            shown = " and ".join(str(k) if isinstance(k, DType) else f"Python {k.__name__}" for k in keys)
            raise TypeError(f"{name} is not supported for {shown} (the operands promote to {common})")
    return t, _TYPES[loops[t]]


def _is_scalar(x: Any) -> bool:
    return type(x) in _WEAK or (isinstance(x, (int, float, complex)) and not hasattr(x, "dtype"))


def _as_operand(x: Any, dunder: bool) -> Any:
    """An NDArray for array-likes; None when a dunder should return
    NotImplemented."""
    if dunder and (x is None or isinstance(x, (str, bytes))):
        return None
    from minarray.creation import asarray

    try:
        return asarray(x)
    except (TypeError, ValueError):
        if dunder:
            return None
        raise TypeError(
            f"expected an array or a Python scalar, got {type(x).__name__}"
        ) from None


def _comparison_outside(name: str, keys: tuple[Any, ...], args: list[Any], arrays: list[NDArray],
                        out: NDArray | None) -> NDArray | None:
    """The result of comparing an integer array with a Python int outside its
    dtype's range (every element compares the same way), or None."""
    if len(args) != 2:
        return None
    for k, v in enumerate(args):
        if type(v) is int or (isinstance(v, int) and not isinstance(v, bool)):
            other = keys[1 - k]
            if not isinstance(other, DType) or other.kind not in "iu":
                return None
            bits = other.bits
            lo, hi = (0, 2**bits - 1) if other.kind == "u" else (-(2 ** (bits - 1)), 2 ** (bits - 1) - 1)
            if lo <= v <= hi:
                return None
            big = v > hi  # the scalar is above every element (else below)
            # scalar on the right: x OP v; on the left: v OP x
            lt = big if k == 1 else not big  # is the left operand the smaller?
            value = {"equal": False, "not_equal": True, "less": lt, "less_equal": lt,
                     "greater": not lt, "greater_equal": not lt}[name]
            shape = broadcast_shapes(*(a._shape for a in arrays))
            res = out if out is not None else NDArray._empty(shape, _dt.bool)
            core.fill(res._h, value)
            return res
    return None


def _call(name: str, op: int, cache: dict[tuple[Any, ...], tuple[int, DType]], xs: tuple[Any, ...],
          out: Any, dunder: bool) -> Any:
    """The general path of every operation: operand normalisation, dtype
    resolution, shape checks, ``out=`` checks, then the one C call."""
    args: list[Any] = []
    keys: list[Any] = []
    arrays: list[NDArray] = []
    for x in xs:
        if isinstance(x, NDArray):
            args.append(x._h)
            keys.append(x._dtype)
            arrays.append(x)
        elif _is_scalar(x):
            t = type(x)
            if t not in _WEAK:  # a subclass of a Python number
                t = bool if isinstance(x, bool) else int if isinstance(x, int) else float \
                    if isinstance(x, float) else complex
                x = t(x)
            args.append(x)
            keys.append(t)
        else:
            a = _as_operand(x, dunder)
            if a is None:
                return NotImplemented
            args.append(a._h)
            keys.append(a._dtype)
            arrays.append(a)
    if not arrays:
        raise TypeError(f"{name} needs at least one array operand, got only Python scalars")
    key = tuple(keys)
    r = cache.get(key)
    if r is None:
        r = cache[key] = _resolve(name, key)
        _teach(op, key, r[0])
    shape = broadcast_shapes(*(a._shape for a in arrays)) if len(arrays) > 1 else arrays[0]._shape
    if out is not None:
        if not isinstance(out, NDArray):
            raise TypeError(f"out must be a minarray NDArray, got {type(out).__name__}")
        if len(arrays) > 0 and broadcast_shapes(shape, out._shape) != out._shape:
            raise ValueError(
                f"{name}: output of shape {out._shape} cannot hold the result of shape {shape}"
            )
        if not _same_kind(r[1], out._dtype):
            raise TypeError(
                f"Cannot cast {name} output from {r[1]} to {out._dtype} with casting rule 'same_kind'"
            )
    try:
        h = _ewise(op, r[0], None if out is None else out._h, *args)
    except OverflowError:
        if name in _COMPARISONS:
            res = _comparison_outside(name, key, args, arrays, out)
            if res is not None:
                return res
        raise
    if out is not None:
        return out
    return _wrap(h, shape)


_SCALAR_KIND = {bool: 0, int: 1, float: 2, complex: 3}


def _teach(op: int, key: tuple[Any, ...], loop: int) -> None:
    """Record a resolved loop in the C fast path's table (csrc/py/elementwise.c)
    for the operand combinations it handles: one array, two arrays, or an
    array and a Python scalar on either side."""
    if len(key) == 3 and isinstance(key[0], DType):  # where: the values decide
        key = key[1:]
    if len(key) == 1 and isinstance(key[0], DType):
        core.ew_learn(op, _TID[key[0]], 0, loop)
    elif len(key) == 2:
        a, b = key
        if isinstance(a, DType) and isinstance(b, DType):
            core.ew_learn(op, _TID[a], _TID[b], loop)
        elif isinstance(a, DType) or isinstance(b, DType):
            arr, sc = (a, b) if isinstance(a, DType) else (b, a)
            core.ew_learn(op, _TID[arr], len(_TYPES) + _SCALAR_KIND[sc], loop)


def _unary(name: str, doc: str) -> UnaryFunction:
    op = _OPID[name]
    cache = _CACHES.setdefault(name, {})

    def f(x: NDArray, /, *, out: NDArray | None = None) -> NDArray:
        r: NDArray | None = _ewfast(op, out, x)
        if r is not None:
            return r
        res: NDArray = _call(name, op, cache, (x,), out, False)
        return res

    f.__name__ = f.__qualname__ = name
    f.__doc__ = doc
    return f


def _binary(name: str, doc: str) -> BinaryFunction:
    op = _OPID[name]
    cache = _CACHES.setdefault(name, {})

    def f(x1: Operand, x2: Operand, /, *, out: NDArray | None = None) -> NDArray:
        r: NDArray | None = _ewfast(op, out, x1, x2)
        if r is not None:
            return r
        res: NDArray = _call(name, op, cache, (x1, x2), out, False)
        return res

    f.__name__ = f.__qualname__ = name
    f.__doc__ = doc
    return f


_CACHES: dict[str, dict[tuple[Any, ...], tuple[int, DType]]] = {}


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
round = _unary("round", _d("Round to the nearest integer-valued number, halves to even."))
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


def where(condition: Operand, x1: Operand, x2: Operand, /, *, out: NDArray | None = None) -> NDArray:
    """Elements of ``x1`` where ``condition`` is true, else of ``x2`` (all
    three broadcast; the values promote like a binary operation)."""
    r: NDArray | None = _ewfast(_WHERE, out, condition, x1, x2)
    if r is not None:
        return r
    res: NDArray = _call("where", _WHERE, _WHERE_CACHE, (condition, x1, x2), out, False)
    return res


_WHERE = _OPID["where"]
_WHERE_CACHE: dict[tuple[Any, ...], tuple[int, DType]] = {}


# ---- the NDArray operators ------------------------------------------------------
# NDArray's arithmetic, comparison, bitwise and unary operators (and the
# reflected and in-place forms) are C methods (csrc/py/elementwise.c) that run
# the learned fast path and otherwise call _operator_slow.

_OPNAMES = {i: name for name, i in _OPID.items()}


def _operator_slow(op: int, x1: Any, x2: Any, mode: int) -> Any:
    """The general path of an operator method: ``mode`` 1 for ``x1 OP x2``
    (NotImplemented for operands it does not know, so Python can try the
    other one), 3 for ``x1 OP= x2`` (the result must cast to x1's dtype under
    "same_kind", as in NumPy)."""
    name = _OPNAMES[op]
    cache = _CACHES.setdefault(name, {})
    xs = (x1,) if x2 is None and _LOOPS_NIN[name] == 1 else (x1, x2)
    return _call(name, op, cache, xs, x1 if mode == 3 else None, True)


_LOOPS_NIN = {name: nin for name, nin, _ in core.ew_ops()}
core.ew_setup(_operator_slow)

del _i, _name, _nin, _sigs
