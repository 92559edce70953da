"""Namespace inspection (Array API 2025.12): ``__array_namespace_info__``,
``finfo``, ``iinfo`` and the constants ``e``, ``inf``, ``nan``, ``newaxis``
and ``pi``.

finfo and iinfo report plain Python numbers, as the standard asks, so they
are usable without NumPy.  The float16 and bfloat16 figures follow IEEE
binary16 and bfloat16 (8 exponent bits, 7 stored mantissa bits).
"""

from __future__ import annotations

import functools
import itertools
import math
import struct
from dataclasses import dataclass
from typing import Any

from minarray import dtypes as _dt
from minarray.dtypes import DType

__all__ = ["__array_namespace_info__", "finfo", "iinfo", "e", "inf", "nan", "newaxis", "pi"]

e: float = math.e
inf: float = math.inf
nan: float = math.nan
pi: float = math.pi
newaxis: None = None

# The most dimensions an array may have (MA_MAXDIMS in csrc/core/array.h).
_MAX_DIMENSIONS = 64


def _device(device: Any) -> None:
    if device not in (None, "cpu"):
        raise ValueError(f"unsupported device {device!r}: minarray arrays live on 'cpu'")


class Info:
    """What ``__array_namespace_info__()`` returns: the capabilities, devices
    and data types of this namespace."""

    __slots__ = ()

    def capabilities(self) -> dict[str, bool | int]:
        """``boolean indexing`` and ``data-dependent shapes`` are supported
        (``x[mask]``, ``nonzero``, ``unique_*``); ``max dimensions`` is the
        C core's limit."""
        return {"boolean indexing": True, "data-dependent shapes": True, "max dimensions": _MAX_DIMENSIONS}

    def default_device(self) -> str:
        return "cpu"

    def devices(self) -> tuple[str, ...]:
        """A tuple (Array API 2025.12; a list before)."""
        return ("cpu",)

    def default_dtypes(self, *, device: Any = None) -> dict[str, DType]:
        _device(device)
        return {
            "real floating": _dt.default_float,
            "complex floating": _dt.default_complex,
            "integral": _dt.default_int,
            "indexing": _dt.int64,
        }

    def dtypes(self, *, device: Any = None, kind: str | tuple[str | DType, ...] | DType | None = None
               ) -> dict[str, DType]:
        """The supported Array API dtypes by name, optionally only those of
        ``kind`` (as in :func:`isdtype`).  minarray's float16 and bfloat16
        are not among them: the standard defines neither, and this
        function lists its data types only (as NumPy's does)."""
        _device(device)
        return {d.name: d for d in _dt.KERNEL if d not in _EXTRA and (kind is None or _dt.isdtype(d, kind))}

    def __repr__(self) -> str:
        return "minarray.__array_namespace_info__()"


_EXTRA = (_dt.float16, _dt.bfloat16)  # dtypes beyond the standard's
_INFO = Info()


def __array_namespace_info__() -> Info:
    """The Array API inspection object of the ``minarray`` namespace."""
    return _INFO


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
    from minarray.creation import asarray

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


builtin_type = type


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
