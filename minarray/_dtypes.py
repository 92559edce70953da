"""Data types: the dtype singletons, the one table mapping them to DLPack
type codes, and the type promotion rules.

Promotion follows the Array API standard (2024.12, "Type Promotion Rules");
where it leaves mixed kinds open (integer with float, signed with unsigned
64-bit) it follows NumPy 2.  bfloat16 promotes as in JAX/ml_dtypes.

Beyond those fifteen, minarray holds the *storage types* DLPack 1.3 can
describe and ml_dtypes gives NumPy: the float8 family, float6, float4,
complex32 and the 1-, 2- and 4-bit integers.  Arrays of them can be made,
viewed, sliced, copied, cast and exchanged; arithmetic on them runs in a
wider type (``DType.wide``: float32, complex64, int8 or uint8) and rounds
back, as ml_dtypes does.
"""

from __future__ import annotations

import enum
import struct as _struct
import sys
from functools import cache, lru_cache
from typing import Any, Final

from minarray._native import core

__all__ = [
    "DType", "DLDataTypeCode", "bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32",
    "uint64", "float16", "bfloat16", "float32", "float64", "complex64", "complex128", "float8_e3m4",
    "float8_e4m3", "float8_e4m3b11fnuz", "float8_e4m3fn", "float8_e4m3fnuz", "float8_e5m2", "float8_e5m2fnuz",
    "float8_e8m0fnu", "float6_e2m3fn", "float6_e3m2fn", "float4_e2m1fn", "complex32", "int1", "int2", "int4",
    "uint1", "uint2", "uint4", "as_dtype", "from_dlpack_code", "bool_", "byte", "ubyte", "short", "ushort",
    "intc", "uintc", "int_", "intp", "uintp", "longlong", "ulonglong", "half", "single", "double", "csingle",
    "cdouble",
]


_builtin_bool = bool


class DLDataTypeCode(enum.IntEnum):
    """``DLDataTypeCode`` of the DLPack 1.3 header (dlpack.h)."""

    INT = 0
    UINT = 1
    FLOAT = 2
    OPAQUE_HANDLE = 3
    BFLOAT = 4
    COMPLEX = 5
    BOOL = 6
    FLOAT8_E3M4 = 7
    FLOAT8_E4M3 = 8
    FLOAT8_E4M3B11FNUZ = 9
    FLOAT8_E4M3FN = 10
    FLOAT8_E4M3FNUZ = 11
    FLOAT8_E5M2 = 12
    FLOAT8_E5M2FNUZ = 13
    FLOAT8_E8M0FNU = 14
    FLOAT6_E2M3FN = 15
    FLOAT6_E3M2FN = 16
    FLOAT4_E2M1FN = 17


class DType:
    """An element type.  One instance per type: compare with ``==`` or ``is``."""

    __slots__ = ("_np", "bits", "code", "format", "itemsize", "kind", "lanes", "name", "typestr", "wide")

    name: str
    itemsize: int
    kind: str  # "b", "i", "u", "f" or "c"
    code: DLDataTypeCode
    bits: int
    lanes: int
    typestr: str  # the array interface's typestr (little-endian), "" if none
    format: str  # the buffer protocol's format string (PEP 3118, NumPy's choice), "" if none
    wide: DType | None  # a storage type's arithmetic type; None for the others

    def __init__(self, name: str, kind: str, code: DLDataTypeCode, bits: int, itemsize: int, typestr: str,
                 format: str) -> None:
        self.name = name
        self.kind = kind
        self.code = code
        self.bits = bits
        self.lanes = 1
        # bytes per element in minarray's memory: sub-byte types take one
        # (DLPack's IS_SUBBYTE_TYPE_PADDED layout, as in ml_dtypes)
        self.itemsize = itemsize
        self.wide = None
        self.typestr = typestr
        self.format = format
        self._np: Any = None

    def __call__(self, value: Any = 0, /) -> Any:
        """A 0-d array of this dtype (``ma.float32(3.0)``), as NumPy's scalar
        types are called; a sequence gives an array of its shape."""
        from minarray._coerce import asarray  # cycle: _coerce imports this module

        return asarray(value, dtype=self)

    @property
    def dlpack(self) -> tuple[int, int, int]:
        """The DLPack ``(code, bits, lanes)`` triple."""
        return (int(self.code), self.bits, self.lanes)

    @property
    def numpy(self) -> Any:
        """The equal NumPy dtype (needs NumPy; bfloat16 and the storage types
        need ml_dtypes)."""
        if self._np is None:
            import numpy as np  # optional: NumPy is not a dependency of minarray

            if self.name == "bfloat16" or self.wide is not None:
                try:
                    import ml_dtypes  # optional: ml_dtypes is not a dependency of minarray
                except ImportError as exc:
                    raise TypeError(f"NumPy has no {self.name}; install ml_dtypes for one") from exc
                self._np = np.dtype(getattr(ml_dtypes, self.name))
            else:
                self._np = np.dtype(self.name)
        return self._np

    @property
    def dtype(self) -> Any:
        """The equal NumPy dtype, so that ``np.dtype(ma.float32)`` works (NumPy
        reads a ``dtype`` attribute; Dask relies on it).  AttributeError when
        NumPy (or, for bfloat16, ml_dtypes) is missing."""
        try:
            return self.numpy
        except (ImportError, TypeError) as exc:
            raise AttributeError(f"{self.name} has no NumPy dtype here: {exc}") from None

    @property
    def type(self) -> Any:
        """NumPy's scalar type (``np.float32``...), as ``np.dtype.type``;
        code written for NumPy dtypes (Dask) reads it."""
        return self.dtype.type

    def __repr__(self) -> str:
        return f"minarray.{self.name}"

    def __str__(self) -> str:
        return self.name

    def __eq__(self, other: object) -> _builtin_bool:
        if isinstance(other, DType):
            return self is other
        if isinstance(other, str):
            return other == self.name
        if _numpy_like(other):
            try:
                return as_dtype(other) is self
            except TypeError:
                return False
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self.name)

    def __reduce__(self) -> str:
        return self.name


def _numpy_like(obj: Any) -> _builtin_bool:
    """A NumPy dtype or scalar type (ml_dtypes' too)?"""
    if isinstance(obj, type):
        return obj.__module__.startswith(("numpy", "ml_dtypes"))
    return type(obj).__module__.startswith("numpy")


# NumPy exports 64-bit integers as C's long where long has 64 bits (and as
# long long elsewhere): the same codes, so consumers see the same formats.
# The table writes long long ("q", "Q"); this is the one place the platform
# rule is applied.
_LONG_IS_64: Final = _struct.calcsize("l") == 8


def _platform_format(fmt: str) -> str:
    return {"q": "l", "Q": "L"}.get(fmt, fmt) if _LONG_IS_64 else fmt


# The one table: a DType per row of csrc/core/dtypes.def, in type-id order,
# as the compiled core reports it (so the Python layer and the kernels
# cannot disagree).  Every map below is derived from these objects.
_ROWS: Final = core.dtype_table()


ALL: Final[tuple[DType, ...]] = tuple(
    DType(name, kind, DLDataTypeCode(code), bits, itemsize, typestr, _platform_format(fmt))
    for name, kind, code, bits, itemsize, typestr, fmt, _kernel in _ROWS
)


# The types the kernels compute in, in the order of the C core's ma_type
# enum, which the generated tables follow.
KERNEL: Final[tuple[DType, ...]] = tuple(d for d, row in zip(ALL, _ROWS, strict=True) if row[7])


# The storage types, in the enum's order after KERNEL: arrays of them can
# be made, viewed, cast and exchanged; arithmetic runs in ``wide``.  The
# narrow floats are named as in dlpack.h and ml_dtypes: e<exponent
# bits>m<mantissa bits>, then "fn" (finite: no infinity), "uz" (unsigned
# zero: the bits of -0 are NaN), "b11" (bias 11).
STORAGE: Final[tuple[DType, ...]] = ALL[len(KERNEL):]


_BY_NAME: Final[dict[str, DType]] = {d.name: d for d in ALL}


bool: Final[DType] = _BY_NAME["bool"]
int8: Final[DType] = _BY_NAME["int8"]
int16: Final[DType] = _BY_NAME["int16"]
int32: Final[DType] = _BY_NAME["int32"]
int64: Final[DType] = _BY_NAME["int64"]
uint8: Final[DType] = _BY_NAME["uint8"]
uint16: Final[DType] = _BY_NAME["uint16"]
uint32: Final[DType] = _BY_NAME["uint32"]
uint64: Final[DType] = _BY_NAME["uint64"]
float16: Final[DType] = _BY_NAME["float16"]
bfloat16: Final[DType] = _BY_NAME["bfloat16"]
float32: Final[DType] = _BY_NAME["float32"]
float64: Final[DType] = _BY_NAME["float64"]
complex64: Final[DType] = _BY_NAME["complex64"]
complex128: Final[DType] = _BY_NAME["complex128"]
float8_e3m4: Final[DType] = _BY_NAME["float8_e3m4"]
float8_e4m3: Final[DType] = _BY_NAME["float8_e4m3"]
float8_e4m3b11fnuz: Final[DType] = _BY_NAME["float8_e4m3b11fnuz"]
float8_e4m3fn: Final[DType] = _BY_NAME["float8_e4m3fn"]
float8_e4m3fnuz: Final[DType] = _BY_NAME["float8_e4m3fnuz"]
float8_e5m2: Final[DType] = _BY_NAME["float8_e5m2"]
float8_e5m2fnuz: Final[DType] = _BY_NAME["float8_e5m2fnuz"]
float8_e8m0fnu: Final[DType] = _BY_NAME["float8_e8m0fnu"]
float6_e2m3fn: Final[DType] = _BY_NAME["float6_e2m3fn"]
float6_e3m2fn: Final[DType] = _BY_NAME["float6_e3m2fn"]
float4_e2m1fn: Final[DType] = _BY_NAME["float4_e2m1fn"]
complex32: Final[DType] = _BY_NAME["complex32"]
int1: Final[DType] = _BY_NAME["int1"]
int2: Final[DType] = _BY_NAME["int2"]
int4: Final[DType] = _BY_NAME["int4"]
uint1: Final[DType] = _BY_NAME["uint1"]
uint2: Final[DType] = _BY_NAME["uint2"]
uint4: Final[DType] = _BY_NAME["uint4"]


for _d in STORAGE:
    _d.wide = {"f": float32, "c": complex64, "i": int8, "u": uint8}[_d.kind]


_BY_CODE: Final[dict[tuple[int, int], DType]] = {(int(d.code), d.bits): d for d in ALL}


_BY_TYPESTR: Final[dict[str, DType]] = {d.typestr[1:]: d for d in ALL if d.typestr}


# Spellings users type that are not the canonical names.
_ALIASES: Final[dict[str, DType]] = {"float": float64, "int": int64, "complex": complex128,
                                     "half": float16, "double": float64, "single": float32}


default_int: Final = int64


default_float: Final = float64


default_complex: Final = complex128


def from_dlpack_code(code: int, bits: int, lanes: int = 1) -> DType | None:
    """The dtype of a DLPack ``(code, bits, lanes)``, or None if minarray has none."""
    if lanes != 1:
        return None
    return _BY_CODE.get((code, bits))


@lru_cache(maxsize=256)
def _from_numpy_dtype(np_dtype: Any) -> DType:
    if np_dtype.byteorder == ">" or (np_dtype.byteorder == "=" and not _native_little()):
        raise TypeError(f"non-native byte order {np_dtype.str!r} is not supported")
    if np_dtype.name == "bfloat16":
        return bfloat16
    found = _BY_NAME.get(np_dtype.name)  # ml_dtypes' types by their names
    if found is None:
        raise TypeError(f"unsupported dtype {np_dtype!s}: minarray supports {', '.join(_BY_NAME)}")
    return found


def _native_little() -> _builtin_bool:
    return sys.byteorder == "little"


def _numpy_char(fmt: str) -> str:
    """NumPy's one-character code of a buffer format: the format itself,
    or for complex ("Zf") its part's letter in upper case ("F")."""
    return fmt[1].upper() if fmt.startswith("Z") else fmt


# NumPy's one-character codes (``np.dtype('d')``), for the types minarray
# has, from the buffer formats; the 64-bit integers answer to long long too.
_CHARS: Final[dict[str, DType]] = {
    **{_numpy_char(d.format): d for d in ALL if d.format}, "q": int64, "Q": uint64,
}


def _from_string(s: str) -> DType | None:
    """A type string ('f4', '<i8', '|b1', '=u2') or a character code ('d');
    big-endian ('>f4') only where one byte makes order moot."""
    if s in _CHARS:
        return _CHARS[s]
    order, body = (s[0], s[1:]) if s and s[0] in "<>|=" else ("", s)
    found = _BY_TYPESTR.get(body)
    if found is None:
        return None
    if order == ">" and found.itemsize > 1:
        raise TypeError(f"dtype {s!r} is big-endian: minarray arrays are little-endian "
                        f"(convert with NumPy's .astype({('<' + body)!r}) first)")
    return found


def as_dtype(obj: Any) -> DType:
    """Accept a DType, a dtype name, a type string or character code ('f4',
    '<i8', 'd'), a NumPy dtype (or type) or a Python type."""
    if isinstance(obj, DType):
        return obj
    if isinstance(obj, str):
        found = _BY_NAME.get(obj) or _ALIASES.get(obj) or _from_string(obj)
        if found is None:
            raise TypeError(f"unknown dtype {obj!r}: expected one of {', '.join(_BY_NAME)}, a type "
                            f"string such as 'f4' or '<i8', or a character code such as 'd'")
        return found
    if obj is _builtin_bool:
        return bool
    if obj is int:
        return default_int
    if obj is float:
        return default_float
    if obj is complex:
        return default_complex
    if _numpy_like(obj):
        import numpy as np  # optional: NumPy is not a dependency of minarray

        return _from_numpy_dtype(np.dtype(obj))
    mod = type(obj).__module__
    if mod.startswith("torch"):
        name = str(obj).removeprefix("torch.")
        if name in _BY_NAME:
            return _BY_NAME[name]
    raise TypeError(f"cannot interpret {obj!r} as a minarray dtype")


_INTS_SIGNED: Final = {8: int8, 16: int16, 32: int32, 64: int64}


_INTS_UNSIGNED: Final = {8: uint8, 16: uint16, 32: uint32, 64: uint64}


_FLOATS: Final = (float16, float32, float64)


# The widest integer each float represents exactly (mantissa bits).
_FLOAT_HOLDS: Final = {float16: 8, bfloat16: 8, float32: 16, float64: 64}


def _float_for(int_bits: int, at_least: DType) -> DType:
    if at_least is bfloat16:
        return bfloat16 if int_bits <= 8 else (float32 if int_bits <= 16 else float64)
    for f in _FLOATS:
        if f.bits >= at_least.bits and _FLOAT_HOLDS[f] >= int_bits:
            return f
    return float64


def _complex_of(f: DType) -> DType:
    return complex64 if f in (float16, bfloat16, float32) or f.wide is not None else complex128


def _real_of(c: DType) -> DType:
    return float32 if c is complex64 else float64


@cache
def promote(a: DType, b: DType) -> DType:
    """The result type of two dtypes."""
    if a is b:
        return a
    if a.kind == "b":
        return b
    if b.kind == "b":
        return a
    if a.wide is not None or b.wide is not None:
        return _promote_storage(a, b)
    ka, kb = a.kind, b.kind
    if ka in "iu" and kb in "iu":
        if ka == kb:
            return a if a.bits >= b.bits else b
        s, u = (a, b) if ka == "i" else (b, a)
        if s.bits > u.bits:
            return s
        if u.bits == 64:
            return float64  # NumPy 2: no integer holds both
        return _INTS_SIGNED[u.bits * 2]
    if ka in "iu" or kb in "iu":
        i, x = (a, b) if ka in "iu" else (b, a)
        int_bits = i.bits
        if x.kind == "f":
            return _float_for(int_bits, x)
        return _complex_of(_float_for(int_bits, _real_of(x)))
    # both inexact
    fa = a if ka == "f" else _real_of(a)
    fb = b if kb == "f" else _real_of(b)
    if {fa, fb} == {float16, bfloat16}:
        f = float32
    elif fa is fb:
        f = fa
    else:
        f = fa if fa.bits > fb.bits else fb
    if ka == "c" or kb == "c":
        return _complex_of(f)
    return f


def _promote_storage(a: DType, b: DType) -> DType:
    """Promotion where a storage type takes part (neither is bool, a is not
    b).  As ml_dtypes: a narrow float absorbs integers; two sub-byte integers
    of one signedness give the wider.  Anything else meets in the wide types
    (float8 with float16 is float32, int4 with int16 is int16), so no value
    of either side is lost."""
    for f, other in ((a, b), (b, a)):
        if f.kind == "f" and f.wide is not None and other.kind in "iu":
            return f
    if a.wide is not None and b.wide is not None and a.kind == b.kind and a.kind in "iu":
        return a if a.bits > b.bits else b
    return promote(a.wide or a, b.wide or b)


def scalar_dtype(value: Any, other: DType) -> DType:
    """The dtype a Python scalar takes next to an array of dtype ``other``:
    scalars are weak, so the array's dtype wins within its kind (NumPy 2)."""
    if isinstance(value, _builtin_bool):
        return other
    if isinstance(value, int):
        return other if other.kind in "iufc" else default_int
    if isinstance(value, float):
        return other if other.kind in "fc" else default_float
    if isinstance(value, complex):
        if other.kind == "c":
            return other
        if other.kind == "f":
            return _complex_of(other)
        return default_complex
    raise TypeError(f"unsupported scalar type {type(value).__name__}")


_KIND_RANK: Final = {"b": 0, "u": 1, "i": 2, "f": 3, "c": 4}


def same_kind(src: DType, dst: DType) -> _builtin_bool:
    """NumPy's ``casting="same_kind"``: safe casts, and casts within a kind or
    up the order bool < unsigned < signed < float < complex (the rule for
    ``out=`` and the in-place operators)."""
    return src is dst or promote(src, dst) is dst or _KIND_RANK[src.kind] <= _KIND_RANK[dst.kind]


# NumPy's casting rules, loosest last.
CASTING: Final = ("no", "equiv", "safe", "same_kind", "unsafe")


def casting_allows(src: DType, dst: DType, casting: str) -> _builtin_bool:
    """May ``src`` be cast to ``dst`` under NumPy's ``casting`` rule (one of
    CASTING)?  minarray has native byte order only, so "no" and "equiv" both
    mean the same dtype."""
    if casting == "unsafe":
        return True
    if casting == "same_kind":
        return same_kind(src, dst)
    if casting == "safe":
        return can_cast(src, dst)
    return src is dst


# dtypes: the same singletons (ma.double is ma.float64)
bool_ = bool
byte = int8
ubyte = uint8
short = int16
ushort = uint16
intc = int32
uintc = uint32
int_ = int64
intp = int64
uintp = uint64
longlong = int64
ulonglong = uint64
half = float16
single = float32
double = float64
csingle = complex64
cdouble = complex128


def isdtype(dtype: DType, kind: DType | str | tuple[DType | str, ...]) -> _builtin_bool:
    """Array API ``isdtype``: is ``dtype`` of the given kind(s)?"""
    if isinstance(kind, tuple):
        return any(isdtype(dtype, k) for k in kind)
    if not isinstance(dtype, DType):
        raise TypeError(f"isdtype expects a minarray dtype, got {dtype!r}")
    if isinstance(kind, DType):
        return dtype is kind
    kinds = {
        "bool": "b", "signed integer": "i", "unsigned integer": "u",
        "integral": "iu", "real floating": "f", "complex floating": "c",
        "numeric": "iufc",
    }
    if kind not in kinds:
        raise ValueError(f"unknown dtype kind {kind!r}: expected one of {', '.join(kinds)}")
    return dtype.kind in kinds[kind]


def result_type(*arrays_and_dtypes: Any) -> DType:
    """Array API ``result_type``: the dtype from applying promotion to every
    argument (arrays, dtypes, and Python scalars, which are weak)."""
    if not arrays_and_dtypes:
        raise ValueError("at least one array or dtype is required")
    dts: list[DType] = []
    scalars: list[Any] = []
    for x in arrays_and_dtypes:
        if isinstance(x, (_builtin_bool, int, float, complex)):
            scalars.append(x)
        elif isinstance(x, (DType, str)):
            dts.append(as_dtype(x))
        elif hasattr(x, "dtype") and not isinstance(x, type):
            dts.append(as_dtype(x.dtype))
        else:
            dts.append(as_dtype(x))
    if not dts:
        raise ValueError("at least one array or dtype is required (Python scalars alone have no dtype)")
    out = dts[0]
    for d in dts[1:]:
        out = promote(out, d)
    for s in scalars:
        out = scalar_dtype(s, out)
    return out


def can_cast(from_: Any, to: Any, /) -> _builtin_bool:
    """Array API ``can_cast``: can ``from_`` be cast to ``to`` without loss
    under the promotion rules?"""
    if isinstance(from_, (DType, str)) or isinstance(from_, type) or not hasattr(from_, "dtype"):
        src = as_dtype(from_)
    else:
        src = as_dtype(from_.dtype)  # an array
    dst = as_dtype(to)
    if src is dst:
        return True
    return promote(src, dst) is dst
