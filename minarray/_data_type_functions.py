"""Data type functions (Array API "Data Type Functions"): ``astype``,
``can_cast``, ``finfo``, ``iinfo``, ``isdtype`` and ``result_type``; beside
them NumPy's ``promote_types`` and its questions about types
(``iscomplexobj``, ``isrealobj``, ``isscalar``).

The promotion rules themselves live with the dtypes (minarray/_dtypes.py);
these functions apply them.  finfo and iinfo report plain Python numbers,
as the standard asks, so they are usable without NumPy.  The float16 and
bfloat16 figures follow IEEE binary16 and bfloat16 (8 exponent bits, 7
stored mantissa bits).
"""

from __future__ import annotations

import functools
import itertools
import math
import numbers
import struct
import sys
from dataclasses import dataclass
from typing import Any

from minarray import _dtypes as _dt
from minarray._array_object import NDArray
from minarray._coerce import as_array, as_operand, asarray

# The promotion rules live with the dtypes (the build reads them there too);
# this chapter names the functions that apply them.
from minarray._dtypes import DType, can_cast, isdtype, result_type
from minarray._float_format import scalar_text

__all__ = [
    "astype", "result_type", "can_cast", "isdtype", "finfo", "iinfo", "promote_types", "iscomplexobj",
    "isrealobj", "isscalar", "issubdtype", "iterable", "real_if_close", "common_type", "min_scalar_type",
    "mintypecode", "typename", "typecodes", "sctypeDict", "ScalarType", "little_endian", "True_", "False_",
]


class dtype_float(float):
    """A limit of a float dtype: a Python ``float`` (as the standard asks),
    printed as NumPy prints the dtype's scalar, with the shortest digits
    that identify it in that dtype (``finfo(float32).max`` prints
    ``3.4028235e+38``, not ``3.4028234663852886e+38``)."""

    __slots__ = ("ftype",)
    ftype: str

    def __new__(cls, value: float, ftype: str) -> dtype_float:
        self = super().__new__(cls, value)
        self.ftype = ftype
        return self

    def __str__(self) -> str:
        if self.ftype in _LIMIT_FORMAT:
            return scalar_text(float(self), self.ftype)
        # bfloat16 and the narrow floats print as ml_dtypes' scalars: "%g"
        return f"{float(self):g}"

    def __repr__(self) -> str:
        """NumPy's repr of the dtype's scalar (``np.float32(1.1920929e-07)``;
        the value alone under ``legacy`` printing or without a NumPy type)."""
        if self.ftype not in _LIMIT_FORMAT:
            return str(self)
        from minarray._printing import scalar_repr  # cycle: printing needs the array object's chapter modules

        return scalar_repr(_dt.as_dtype(self.ftype)(float(self)))

    def __reduce__(self) -> tuple[Any, ...]:
        return (dtype_float, (float(self), self.ftype))


# how NumPy's finfo repr writes min and max, per dtype (numpy/_core/getlimits.py)
_LIMIT_FORMAT = {"float16": "%12.5e", "float32": "%15.7e", "float64": "%24.16e"}


@dataclass(frozen=True, repr=False)
class finfo_object:
    """Machine limits of a floating-point dtype (the standard's ``finfo``
    attributes, plus NumPy's ``tiny``, ``resolution`` and ``precision``)."""

    bits: int
    eps: float
    max: float
    min: float
    smallest_normal: float
    dtype: DType
    precision: int
    resolution: float

    @property
    def tiny(self) -> float:
        """NumPy's name for ``smallest_normal``."""
        return self.smallest_normal

    def __repr__(self) -> str:
        fmt = _LIMIT_FORMAT.get(self.dtype.name)
        lo, hi = ((fmt % self.min).strip(), (fmt % self.max).strip()) if fmt else (str(self.min), str(self.max))
        return f"finfo(resolution={self.resolution}, min={lo}, max={hi}, dtype={self.dtype.name})"

    def __str__(self) -> str:
        """NumPy's table of the machine parameters, the exponents read off
        ``eps`` and ``smallest_normal``."""
        name = self.dtype.name
        mant = -math.frexp(self.eps)[1] + 1  # eps = 2**-mant
        emin = math.frexp(self.smallest_normal)[1] - 1  # smallest_normal = 2**emin
        rule = "-" * 63
        low = "-max" if -self.min == self.max else str(self.min)
        return (f"Machine parameters for {name}\n{rule}\n"
                f"precision = {self.precision}   resolution = {self.resolution}\n"
                f"machep = {-mant}   eps =        {self.eps}\n"
                f"negep =  {-mant - 1}   epsneg =     {dtype_float(math.ldexp(1.0, -mant - 1), name)}\n"
                f"minexp = {emin}   tiny =       {self.smallest_normal}\n"
                f"maxexp = {2 - emin}   max =        {self.max}\n"
                f"nexp =   {self.bits - mant - 1}   min =        {low}\n"
                f"smallest_normal = {self.smallest_normal}   "
                f"smallest_subnormal = {dtype_float(math.ldexp(self.smallest_normal, -mant), name)}\n{rule}\n")


@dataclass(frozen=True, repr=False)
class iinfo_object:
    """Machine limits of an integer dtype."""

    bits: int
    max: int
    min: int
    dtype: DType

    def __repr__(self) -> str:
        return f"iinfo(min={self.min}, max={self.max}, dtype={self.dtype.name})"

    def __str__(self) -> str:
        rule = "-" * 63
        return f"Machine parameters for {self.dtype.name}\n{rule}\nmin = {self.min}\nmax = {self.max}\n{rule}\n"


builtin_type = type


def _round_to(value: float, fmt: str) -> float:
    """``value`` rounded to a narrower IEEE format ('e': binary16, 'f':
    binary32), as NumPy stores finfo's figures in the type itself."""
    return float(struct.unpack(fmt, struct.pack(fmt, value))[0])


def _float_info(dtype: DType, mant: int, emax: int, precision: int, fmt: str = "d") -> finfo_object:
    # mant: stored mantissa bits; emax: the largest unbiased exponent.
    biggest = math.ldexp(2.0 - math.ldexp(1.0, -mant), emax)
    name = dtype.name
    return finfo_object(
        bits=dtype.bits,
        eps=dtype_float(math.ldexp(1.0, -mant), name),
        max=dtype_float(biggest, name),
        min=dtype_float(-biggest, name),
        smallest_normal=dtype_float(math.ldexp(1.0, 1 - emax), name),
        dtype=dtype,
        precision=precision,
        resolution=dtype_float(_round_to(10.0 ** -precision, fmt), name),
    )


_FINFO: dict[DType, finfo_object] = {
    _dt.float16: _float_info(_dt.float16, 10, 15, 3, "e"),
    _dt.bfloat16: _float_info(_dt.bfloat16, 7, 127, 2),
    _dt.float32: _float_info(_dt.float32, 23, 127, 6, "f"),
    _dt.float64: _float_info(_dt.float64, 52, 1023, 15),
}


@functools.cache
def _narrow_finfo(dtype: DType) -> finfo_object:
    """The limits of a narrow float (float8, float6, float4), read off its
    decoded bit patterns rather than restated from the format table (which
    lives in the C core, csrc/core/minifloat.c)."""
    every = asarray(list(range(2 ** dtype.bits)), dtype=_dt.uint8).view(dtype).astype(_dt.float64).tolist()
    pos = sorted({v for v in every if math.isfinite(v) and v > 0})
    eps = min(v for v in pos if v > 1.0) - 1.0
    # the first normal value: from it on, the spacing grows with the value
    normal = next(p for p, q in itertools.pairwise(pos) if q - p == p * eps)
    signed = any(v < 0 for v in every)
    precision = int(-math.log10(eps)) if eps < 1 else 0
    name = dtype.name
    return finfo_object(bits=dtype.bits, eps=dtype_float(eps, name), max=dtype_float(pos[-1], name),
                        min=dtype_float(-pos[-1] if signed else pos[0], name),
                        smallest_normal=dtype_float(normal, name), dtype=dtype, precision=precision,
                        resolution=dtype_float(10.0 ** -precision, name))


def _dtype_of(type: Any, fname: str) -> DType:
    if isinstance(type, DType):
        return type
    if hasattr(type, "dtype") and not isinstance(type, builtin_type):
        return _dt.as_dtype(type.dtype)
    try:
        return _dt.as_dtype(type)
    except TypeError:
        raise TypeError(f"{fname} expects a dtype or an array, got {type!r}") from None


def finfo(type: Any, /) -> finfo_object:
    """Limits of a floating-point dtype (or of an array's dtype).  For a
    complex dtype, those of its real component type."""
    dt = _dtype_of(type, "finfo")
    if dt.kind == "c":
        dt = _dt.float16 if dt is _dt.complex32 else _dt.float32 if dt is _dt.complex64 else _dt.float64
    info = _FINFO.get(dt)
    if info is None and dt.wide is not None and dt.kind == "f":
        info = _narrow_finfo(dt)
    if info is None:
        raise ValueError(f"finfo: {dt} is not a floating-point dtype (use iinfo for integers)")
    return info


def iinfo(type: Any, /) -> iinfo_object:
    """Limits of an integer dtype (or of an array's dtype)."""
    dt = _dtype_of(type, "iinfo")
    if dt.kind == "i":
        return iinfo_object(bits=dt.bits, max=2 ** (dt.bits - 1) - 1, min=-(2 ** (dt.bits - 1)), dtype=dt)
    if dt.kind == "u":
        return iinfo_object(bits=dt.bits, max=2 ** dt.bits - 1, min=0, dtype=dt)
    raise ValueError(f"iinfo: {dt} is not an integer dtype (use finfo for floating-point types)")


def _scalar_type(arg: Any) -> Any:
    """``arg`` as issubdtype reads it: an abstract scalar type class
    (minarray's or NumPy's of the same name), else the dtype it spells."""
    found = _dt.scalar_type_class(arg)
    return found if found is not None else _dt.DType(arg)


def issubdtype(arg1: Any, arg2: Any) -> bool:
    """NumPy's ``issubdtype``: is ``arg1`` (a dtype spelling or a scalar
    type class) ``arg2`` or below it in the scalar type tree?
    ``issubdtype(x.dtype, ma.floating)``, ``issubdtype("f4", ma.number)``,
    ``issubdtype(ma.int32, ma.int64)`` (False: a concrete second argument
    asks for that type)."""
    a, b = _scalar_type(arg1), _scalar_type(arg2)
    if isinstance(b, DType):
        return a is b
    return issubclass(a, b)


def promote_types(type1: Any, type2: Any) -> _dt.DType:
    """The smallest dtype both ``type1`` and ``type2`` cast to safely:
    NumPy 2's promotion table (the Array API's, extended to mixed kinds as
    NumPy does), symmetric and independent of values."""
    return _dt.promote(_dt.as_dtype(type1), _dt.as_dtype(type2))


def iscomplexobj(x: Any) -> bool:
    """Is ``x``'s dtype complex (whatever the values)?"""
    dt = getattr(x, "dtype", None)
    if isinstance(dt, _dt.DType):
        return dt.kind == "c"
    return as_operand(x).dtype.kind == "c"


def isrealobj(x: Any) -> bool:
    """Is ``x``'s dtype not complex?"""
    return not iscomplexobj(x)


def isscalar(element: Any) -> bool:
    """Is ``element`` a scalar: a Python or NumPy number, string or bytes
    (an array, even 0-d, is not)."""
    if isinstance(element, (numbers.Number, str, bytes)):
        return True
    np = sys.modules.get("numpy")  # NumPy's scalars, if NumPy is in use at all
    return np is not None and isinstance(element, np.generic)


def astype(x: NDArray, dtype: Any, /, *, copy: bool = True, device: Any = None) -> NDArray:
    """Array API ``astype``."""
    return as_array(x, "astype", "x").astype(dtype, copy=copy, device=device)


def iterable(y: Any) -> bool:
    """Can ``y`` be iterated over (``iter(y)`` works)?  A 0-d array cannot."""
    try:
        iter(y)
    except TypeError:
        return False
    return True


def real_if_close(a: Any, tol: float = 100) -> NDArray:
    """The real part of the complex ``a`` when every imaginary part is
    below ``tol`` (in machine epsilons of ``a``'s dtype when ``tol > 1``,
    an absolute bound otherwise); ``a`` itself otherwise."""
    from minarray._creation import asanyarray  # cycle: _creation imports this module through _elementwise

    x = asanyarray(a)
    if x.dtype.kind != "c":
        return x
    if tol > 1:
        tol = finfo(x.dtype).eps * tol
    if bool((abs(x.imag) < tol).all()):
        x = x.real
    return x


# The precision rank of each float and complex dtype in NumPy's
# common_type (half, single, double), and the dtype of each rank.
_PRECISION: dict[str, int] = {"float16": 0, "float32": 1, "float64": 2, "complex64": 1, "complex128": 2}
_FLOAT_OF_RANK = (_dt.float16, _dt.float32, _dt.float64)
_COMPLEX_OF_RANK = (None, _dt.complex64, _dt.complex128)


def common_type(*arrays: Any) -> DType:
    """NumPy's ``common_type``: the float dtype (complex if any array is)
    that the arrays' values all fit in, integers counting as float64: one
    of float16, float32, float64, complex64 and complex128 (float16 for no
    arrays).  minarray's narrower storage floats count as float32."""
    is_complex, rank = False, 0
    for a in arrays:
        dt = a.dtype
        if dt.kind in "iu":
            p = 2
        elif dt.kind in "fc":
            p = _PRECISION.get(dt.name, 1)
        else:
            raise TypeError("can't get common type for non-numeric array")
        is_complex = is_complex or dt.kind == "c"
        rank = max(rank, p)
    found = _COMPLEX_OF_RANK[max(rank, 1)] if is_complex else _FLOAT_OF_RANK[rank]
    assert found is not None
    return found


# NumPy's bounds for a value to count as fitting float16 and float32
# (open intervals, a little inside each type's largest finite value).
_FLOAT_BOUND = ((_dt.float16, 65000.0), (_dt.float32, 3.4e38))


def min_scalar_type(a: Any, /) -> DType:
    """The smallest dtype that holds the value ``a`` (a scalar or 0-d
    array; an array of more dimensions gives its own dtype): a
    non-negative integer the smallest unsigned one, a negative one the
    smallest signed one, a float the smallest float whose range holds it
    (precision may be lost; an infinity or NaN float16), a complex number
    complex64 when both parts lie within float32's range, else complex128."""
    x = a if isinstance(a, NDArray) else asarray(a)
    if x.ndim != 0:
        return x.dtype
    kind = x.dtype.kind
    if kind == "b":
        return _dt.bool
    v = x.item()
    if kind in "iu":
        table = (_dt.uint8, _dt.uint16, _dt.uint32, _dt.uint64) if v >= 0 else (_dt.int8, _dt.int16, _dt.int32,
                                                                                  _dt.int64)
        return next(t for t in table if iinfo(t).min <= v <= iinfo(t).max)
    if kind == "f":
        if not math.isfinite(v):
            return _dt.float16
        return next((t for t, bound in _FLOAT_BOUND if -bound < v < bound), _dt.float64)
    bound = _FLOAT_BOUND[1][1]
    return _dt.complex64 if all(-bound < p < bound for p in (v.real, v.imag)) else _dt.complex128


# NumPy's type characters from the largest element to the smallest.
_TYPECODES_BY_SIZE = "GDFgdfQqLlIiHhBb?"


def mintypecode(typechars: Any, typeset: str = "GDFgdf", default: str = "d") -> str:
    """NumPy's ``mintypecode``: the character of the smallest type in
    ``typeset`` that the types of ``typechars`` (characters or arrays) can
    be cast to safely, or ``default`` when none of them is in ``typeset``."""
    chars = (t if isinstance(t, str) and t else asarray(t).dtype.char for t in typechars)
    found = {c for c in chars if c in typeset}
    if not found:
        return default
    if "F" in found and "d" in found:
        return "D"
    return min(found, key=_TYPECODES_BY_SIZE.index)


# NumPy's description of each type character.
_TYPE_NAMES = {
    "S1": "character", "?": "bool", "b": "signed char", "B": "unsigned char", "h": "short",
    "H": "unsigned short", "i": "integer", "I": "unsigned integer", "l": "long integer",
    "L": "unsigned long integer", "q": "long long integer", "Q": "unsigned long long integer",
    "f": "single precision", "d": "double precision", "g": "long precision", "F": "complex single precision",
    "D": "complex double precision", "G": "complex long double precision", "S": "string", "U": "unicode",
    "V": "void", "O": "object",
}


def typename(char: str) -> str:
    """NumPy's description of the type character ``char`` ("d": "double
    precision"); KeyError for a character NumPy does not describe."""
    return _TYPE_NAMES[char]


#: NumPy's groups of type characters, with the characters of the types
#: minarray holds (no long double, strings, objects or dates), so that
#: ``a.dtype.char in ma.typecodes["AllFloat"]`` reads as in NumPy.
typecodes: dict[str, str] = {
    "Character": "", "Integer": "bhilqnp", "UnsignedInteger": "BHILQNP", "Float": "efd", "Complex": "FD",
    "AllInteger": "bBhHiIlLqQnNpP", "AllFloat": "efdFD", "Datetime": "", "All": "?bhilqnpBHILQNPefdFD",
}


#: NumPy's sctypeDict over minarray's types: each dtype by its name, and
#: NumPy's other names of them (its C names, Python's int, float, complex).
sctypeDict: dict[str, DType] = {**{d.name: d for d in _dt.ALL}, **_dt._ALIASES}

#: The types NumPy counts as scalars: Python's, then each of minarray's
#: numeric types (``isinstance(v, ma.ScalarType)`` holds for its scalars).
ScalarType: tuple[Any, ...] = (int, float, complex, bool, bytes, str, memoryview, _dt.bool, _dt.complex64,
                               _dt.complex128, _dt.float16, _dt.float32, _dt.float64, _dt.int8, _dt.int16,
                               _dt.int32, _dt.int64, _dt.uint8, _dt.uint16, _dt.uint32, _dt.uint64)

#: Whether the machine stores numbers little-endian, as NumPy's ``little_endian``.
little_endian: bool = sys.byteorder == "little"

#: NumPy's ``True_``: minarray's read-only bool scalar True (not a
#: singleton, as NumPy's is: compare it with ``==``, not ``is``).
True_: NDArray = _dt.bool(True)
#: NumPy's ``False_``: minarray's read-only bool scalar False (compare with ``==``).
False_: NDArray = _dt.bool(False)
