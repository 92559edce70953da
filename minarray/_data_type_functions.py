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
    "isrealobj", "isscalar", "issubdtype",
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
