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

__all__ = [
    "astype", "result_type", "can_cast", "isdtype", "finfo", "iinfo", "promote_types", "iscomplexobj",
    "isrealobj", "isscalar",
]


@dataclass(frozen=True)
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


@dataclass(frozen=True)
class iinfo_object:
    """Machine limits of an integer dtype."""

    bits: int
    max: int
    min: int
    dtype: DType


builtin_type = type


def _round_to(value: float, fmt: str) -> float:
    """``value`` rounded to a narrower IEEE format ('e': binary16, 'f':
    binary32), as NumPy stores finfo's figures in the type itself."""
    return float(struct.unpack(fmt, struct.pack(fmt, value))[0])


def _float_info(dtype: DType, mant: int, emax: int, precision: int, fmt: str = "d") -> finfo_object:
    # mant: stored mantissa bits; emax: the largest unbiased exponent.
    biggest = math.ldexp(2.0 - math.ldexp(1.0, -mant), emax)
    return finfo_object(
        bits=dtype.bits,
        eps=math.ldexp(1.0, -mant),
        max=biggest,
        min=-biggest,
        smallest_normal=math.ldexp(1.0, 1 - emax),
        dtype=dtype,
        precision=precision,
        resolution=_round_to(10.0 ** -precision, fmt),
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
    return finfo_object(bits=dtype.bits, eps=eps, max=pos[-1], min=-pos[-1] if signed else pos[0],
                        smallest_normal=normal, dtype=dtype, precision=precision,
                        resolution=10.0 ** -precision)


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
