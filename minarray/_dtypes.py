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
import re
import struct as _struct
import sys
from functools import cache, lru_cache
from typing import Any, ClassVar, Final, NoReturn

from minarray._native import core

__all__ = [
    "DType", "DLDataTypeCode", "bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32",
    "uint64", "float16", "bfloat16", "float32", "float64", "complex64", "complex128", "float8_e3m4",
    "float8_e4m3", "float8_e4m3b11fnuz", "float8_e4m3fn", "float8_e4m3fnuz", "float8_e5m2", "float8_e5m2fnuz",
    "float8_e8m0fnu", "float6_e2m3fn", "float6_e3m2fn", "float4_e2m1fn", "complex32", "int1", "int2", "int4",
    "uint1", "uint2", "uint4", "as_dtype", "from_dlpack_code", "bool_", "byte", "ubyte", "short", "ushort",
    "intc", "uintc", "int_", "intp", "uintp", "uint", "long", "ulong", "longlong", "ulonglong", "half", "single",
    "double", "csingle", "cdouble",
]


_builtin_bool = bool
_builtin_str = str


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
    """An element type: ``ma.dtype``.  One instance per type (``ma.float32``),
    so compare with ``==`` or ``is``.  ``ma.dtype(spelling)`` looks the
    instance up from any spelling NumPy's ``np.dtype`` accepts for the types
    minarray has; it never makes a new one.

    The instances are minarray's scalar types too: ``ma.float32(3)`` makes
    a 0-d array, and ``issubclass(ma.float32, ma.floating)`` holds."""

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
    _np: Any  # the equal NumPy dtype, once asked for

    def __new__(cls, obj: Any = None, align: _builtin_bool = False, copy: _builtin_bool = False) -> DType:
        """The dtype ``obj`` spells (NumPy's ``np.dtype(obj)``; ``None`` is
        the default float, as in NumPy).  ``align`` and ``copy`` are
        accepted for NumPy's signature: a minarray dtype has no fields to
        align, and it is a singleton, so there is nothing to copy."""
        return _lookup(obj)

    @classmethod
    def _row(cls, name: str, kind: str, code: DLDataTypeCode, bits: int, itemsize: int, typestr: str,
             format: str) -> DType:
        """One of the singletons, built once from a row of the C table."""
        self = object.__new__(cls)
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
        self._np = None
        return self

    def __call__(self, value: Any = 0, /) -> Any:
        """A scalar of this dtype (``ma.float32(3.0)``: minarray's Scalar,
        a read-only 0-d array), as NumPy's scalar types are called; a
        sequence gives an array of its shape."""
        made = core.scalar_of(self, value)  # a Python number: stored straight into the scalar
        if made is not None:
            return made
        if isinstance(value, str):
            # NumPy's scalar types read a string as Python's number types do
            # (np.float64("nan"), np.int64("12")); arrays of strings stay out
            parse = {"b": _builtin_bool, "i": int, "u": int, "f": float, "c": complex}.get(self.kind)
            if parse is not None:
                return self(parse(value))
        from minarray._coerce import asarray  # cycle: _coerce imports this module

        return core.scalar_result(asarray(value, dtype=self))

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
                if not hasattr(ml_dtypes, self.name):
                    raise TypeError(f"NumPy has no {self.name}, and ml_dtypes {ml_dtypes.__version__} neither")
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

    # NumPy's descriptive attributes.  The fifteen standard types state them
    # from the table, as NumPy does for its own types; bfloat16 and the
    # storage types report what ml_dtypes registers with NumPy (they are not
    # NumPy's builtins: kind 'V' there, their own character codes), except
    # ``kind``, which stays the letter of what they hold ('f', 'i', 'u',
    # 'c'): minarray's promotion and kernels are keyed by it.

    def _described_by_numpy(self) -> _builtin_bool:
        return not self.typestr

    @property
    def char(self) -> str:
        """NumPy's one-character code ('d' for float64, 'l' for int64)."""
        return self.numpy.char if self._described_by_numpy() else _numpy_char(self.format)

    @property
    def num(self) -> int:
        """NumPy's type number (needs NumPy: it is NumPy's numbering)."""
        return int(self.numpy.num)

    @property
    def byteorder(self) -> str:
        """'=' (native) for multi-byte types, '|' (not applicable) for one
        byte: minarray holds native byte order only."""
        if self._described_by_numpy():
            return str(self.numpy.byteorder)
        return "|" if self.itemsize == 1 else "="

    @property
    def alignment(self) -> int:
        """The alignment in bytes NumPy requires (a complex number's is its
        part's)."""
        if self._described_by_numpy():
            return int(self.numpy.alignment)
        return self.itemsize // 2 if self.kind == "c" else self.itemsize

    @property
    def isbuiltin(self) -> int:
        """1 for NumPy's own types, 2 for those a library registers (ml_dtypes)."""
        return int(self.numpy.isbuiltin) if self._described_by_numpy() else 1

    @property
    def isnative(self) -> _builtin_bool:
        """Always True: minarray holds native byte order only."""
        return True

    @property
    def descr(self) -> list[tuple[str, str]]:
        """The array interface's ``descr``: one unnamed field."""
        return [("", self.str)]

    # NumPy's answers for a dtype that is neither a record nor a sub-array
    # (structured dtypes are NumPy's): constants, read-only on the instances.
    shape: ClassVar[tuple[()]] = ()
    ndim: ClassVar[int] = 0
    names: ClassVar[None] = None
    fields: ClassVar[None] = None
    hasobject: ClassVar[_builtin_bool] = False
    subdtype: ClassVar[None] = None
    metadata: ClassVar[None] = None
    flags: ClassVar[int] = 0  # no object references, no fields: none of NumPy's flags apply

    @property
    def __name__(self) -> _builtin_str:
        """The scalar type's name, as ``np.float32.__name__`` reads."""
        return self.name

    @property
    def base(self) -> DType:
        return self

    def newbyteorder(self, new_order: str = "S", /) -> DType:
        """This dtype if the order asked for is native (or moot for one
        byte); a swapped order raises TypeError: minarray holds native byte
        order only."""
        native = "<" if sys.byteorder == "little" else ">"
        codes = {"S": "swap", "<": "<", "L": "<", ">": ">", "B": ">", "=": native, "N": native,
                 "|": native, "I": native}
        if new_order not in codes:
            raise ValueError(f"{new_order!r} is not a valid byte order")
        if self.itemsize == 1 or codes[new_order] == native:
            return self
        raise TypeError(f"{self.name} in non-native byte order: minarray holds native byte order only "
                        f"(use NumPy for byte-swapped data)")

    def __repr__(self) -> str:
        return f"dtype('{self.name}')"

    def __str__(self) -> str:
        return self.name

    def __eq__(self, other: object) -> _builtin_bool:
        """As NumPy's: True iff ``ma.dtype(other)`` is this dtype, for every
        spelling it accepts (``float``, ``"f8"``, ``np.float64``...); False
        for anything else.  Between two minarray dtypes it is identity, as
        the Array API asks."""
        if isinstance(other, DType) or other is self:
            return other is self
        if other is None:
            # NumPy's dtype('float64') == None holds (np.dtype(None) is the
            # default float); None names no dtype, and the Array API suite
            # reads a missing table entry (None) as "no dtype"
            return False
        if not isinstance(other, _builtin_str) and _is_array(other):
            return NotImplemented  # the array compares, elementwise, as with NumPy's dtypes
        try:
            return _lookup(other) is self
        except (TypeError, ValueError):
            return False

    # One instance per type, so identity hashes them, at C speed: kernel
    # tables keyed by dtype are read on every call (a Python __hash__ cost
    # 100 ns a lookup).  As NumPy's, equal spellings (float, "f8") need not
    # hash alike.
    __hash__ = object.__hash__

    # NumPy orders dtypes by safe casting: a <= b when a casts safely to b,
    # a < b when it does and they differ (int32 < int64 < float64; int8 and
    # uint8 are unordered).  The other side may be any spelling.

    def __le__(self, other: Any) -> _builtin_bool:
        return can_cast(self, _lookup(other))

    def __lt__(self, other: Any) -> _builtin_bool:
        o = _lookup(other)
        return o is not self and can_cast(self, o)

    def __ge__(self, other: Any) -> _builtin_bool:
        return can_cast(_lookup(other), self)

    def __gt__(self, other: Any) -> _builtin_bool:
        o = _lookup(other)
        return o is not self and can_cast(o, self)

    # The dtypes are the scalar types (``ma.float64(3)`` makes a scalar), so
    # NumPy's tests of a scalar's type ask them: ``isinstance(v,
    # ma.float64)`` holds for a scalar of that dtype (minarray's, one class
    # for every dtype, or NumPy's), never for an array, 0-d ones included,
    # nor for a Python number; ``issubclass(x.dtype.type, ma.float64)``
    # for the same type under any spelling.

    def __instancecheck__(self, inst: Any) -> _builtin_bool:
        if type(inst) is scalar_class:
            return _builtin_bool(inst.dtype is self)
        return _numpy_like(type(inst)) and self.__subclasscheck__(type(inst))

    def __subclasscheck__(self, sub: Any) -> _builtin_bool:
        if sub is self:
            return True
        if isinstance(sub, DType) or not _numpy_like(sub):
            return False
        try:
            return _lookup(sub) is self
        except (TypeError, ValueError):
            return False

    def __reduce__(self) -> str:
        return self.name

    # Last in the class body: a property named ``type`` or ``str`` would
    # otherwise stand for the builtin in the annotations below it.

    @property
    def type(self) -> Any:
        """The scalar type, as NumPy code reads it: NumPy's (``np.float64``;
        ml_dtypes' for bfloat16 and the storage types), so that
        ``x.dtype.type is np.float64`` and ``issubclass(x.dtype.type,
        np.floating)`` hold as with a NumPy array (Dask asks both), and
        ``issubclass(x.dtype.type, ma.floating)`` too.  Where NumPy has no
        such type (complex32, or NumPy missing), the dtype itself, which is
        minarray's scalar type: callable, and placed in the tree by kind."""
        try:
            return self.numpy.type
        except (ImportError, TypeError):
            return self

    @property
    def str(self) -> _builtin_str:
        """The array interface's type string (``'<f8'``, ``'|b1'``)."""
        return _builtin_str(self.numpy.str) if self._described_by_numpy() else self.typestr


def _lookup(obj: Any) -> DType:
    """``ma.dtype(obj)``: as_dtype, and None the default float, as NumPy's
    ``np.dtype(None)``."""
    return default_float if obj is None else as_dtype(obj)


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
    DType._row(name, kind, DLDataTypeCode(code), bits, itemsize, typestr, _platform_format(fmt))
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
uint = uint64
long = int64
ulong = uint64
longlong = int64
ulonglong = uint64
half = float16
single = float32
double = float64
csingle = complex64
cdouble = complex128


# Spellings users type that are not the canonical names: NumPy's C-style
# names above, and its names of the Python and C types.
_ALIASES: Final[dict[str, DType]] = {
    "float": float64, "int": int64, "complex": complex128,
    **{name: globals()[name] for name in ("bool_", "byte", "ubyte", "short", "ushort", "intc", "uintc", "int_",
                                          "intp", "uintp", "uint", "long", "ulong", "longlong", "ulonglong",
                                          "half", "single", "double", "csingle", "cdouble")},
}


default_int: Final = int64


default_float: Final = float64


default_complex: Final = complex128


def from_dlpack_code(code: int, bits: int, lanes: int = 1) -> DType | None:
    """The dtype of a DLPack ``(code, bits, lanes)``, or None if minarray has none."""
    if lanes != 1:
        return None
    return _BY_CODE.get((code, bits))


# What minarray does not hold.  DLPack describes numbers and booleans only,
# so strings, bytes, Python objects, dates and times, and structured
# records stay NumPy's; every refusal of one is worded here.
_FAMILIES: Final[dict[str, str]] = {
    "M": "datetime64", "m": "timedelta64", "U": "str", "S": "bytes", "a": "bytes", "O": "object", "V": "void",
}


# The family of NumPy's long double types (float128, complex256 on x86-64).
_EXTENDED: Final = "extended precision"


# The family of each of NumPy's names of them that is not the family's own.
_FAMILY_OF_NAME: Final[dict[str, str]] = {
    "unicode": "str", "str_": "str", "bytes_": "bytes", "object_": "object",
    "longdouble": _EXTENDED, "clongdouble": _EXTENDED, "float128": _EXTENDED, "complex256": _EXTENDED,
    "longfloat": _EXTENDED, "clongfloat": _EXTENDED, "g": _EXTENDED, "G": _EXTENDED, "f16": _EXTENDED,
    "c32": _EXTENDED,
}


# NumPy's spellings of those families: a kind letter with an optional
# byte order, size and unit ('<U10', 'M8[s]', 'S5', 'O'), or a name.
_OUT_OF_SCOPE_SPELLING: Final = re.compile(
    r"[<>|=]?(?P<letter>[MmUSaOV])\d*(\[\w*\])?"
    r"|(?P<name>datetime64|timedelta64|str_?|unicode|bytes_?|object_?|void)\d*(\[\w*\])?"
    r"|[<>=]?(?P<name_>g|G|f16|c32|c?longdouble|c?longfloat|float128|complex256)")


def _scope(family: str) -> _builtin_str:
    if family == _EXTENDED:
        return ("minarray's widest types are float64 and complex128 (DLPack exchanges no wider); "
                f"use NumPy for {family}")
    return f"minarray holds numeric and boolean types only (DLPack carries no others); use NumPy for {family} data"


def out_of_scope(spelling: str, family: str) -> TypeError:
    """The one refusal of a dtype minarray does not hold, naming it."""
    return TypeError(f"minarray has no dtype {spelling!r} ({family}): {_scope(family)}")


def value_out_of_scope(value: _builtin_str | bytes | None) -> TypeError:
    """The refusal of a Python value that NumPy would hold in a type
    minarray lacks: a str ('<U3'), a bytes ('|S3'), None (object)."""
    if isinstance(value, _builtin_str):
        spelling, family = f"<U{len(value)}", "str"
    elif isinstance(value, bytes):
        spelling, family = f"|S{len(value)}", "bytes"
    else:
        spelling, family = "object", "object"
    shown = repr(value) if len(repr(value)) <= 40 else repr(value)[:37] + "..."
    return TypeError(f"cannot convert {type(value).__name__} {shown} to a minarray array: NumPy would hold it as "
                     f"dtype {spelling!r} ({family}), and {_scope(family)}")


def _out_of_scope_string(s: str) -> TypeError | None:
    """The refusal for a string spelling of a family minarray lacks, or None."""
    if "," in s or s.startswith("("):
        return out_of_scope(s, "structured")
    m = _OUT_OF_SCOPE_SPELLING.fullmatch(s)
    if m is None:
        return None
    if m["letter"]:
        return out_of_scope(s, _FAMILIES[m["letter"]])
    if m["name_"]:
        return out_of_scope(s, _EXTENDED)
    return out_of_scope(s, _FAMILY_OF_NAME.get(m["name"], m["name"]))


@lru_cache(maxsize=256)
def _from_numpy_dtype(np_dtype: Any) -> DType:
    found = _BY_NAME.get(np_dtype.name)  # ml_dtypes' types by their names too
    if np_dtype.fields is not None or np_dtype.subdtype is not None:
        raise out_of_scope(str(np_dtype), "structured")
    if found is None and np_dtype.kind in _FAMILIES:
        raise out_of_scope(np_dtype.str, _FAMILIES[np_dtype.kind])
    if found is None:
        raise TypeError(f"unsupported dtype {np_dtype!s}: minarray supports {', '.join(_BY_NAME)}")
    if found.itemsize > 1 and np_dtype.byteorder not in ("=", "|", _NATIVE_ORDER):
        raise _non_native(np_dtype.str)
    return found


_NATIVE_ORDER: Final = "<" if sys.byteorder == "little" else ">"


def _non_native(spelling: str) -> TypeError:
    order = "big" if spelling.startswith(">") else "little"
    return TypeError(f"dtype {spelling!r} is {order}-endian: minarray holds native byte order only "
                     f"(convert with NumPy's .astype({('=' + spelling[1:])!r}) first)")


def _numpy_char(fmt: str) -> str:
    """NumPy's one-character code of a buffer format: the format itself,
    or for complex ("Zf") its part's letter in upper case ("F")."""
    return fmt[1].upper() if fmt.startswith("Z") else fmt


# NumPy's one-character codes (``np.dtype('d')``), for the types minarray
# has, from the buffer formats; the 64-bit integers answer to long long
# and to intp ('p', and 'n' since NumPy 2) too.
_CHARS: Final[dict[str, DType]] = {
    **{_numpy_char(d.format): d for d in ALL if d.format}, "q": int64, "Q": uint64, "p": intp, "P": uintp,
    "n": intp, "N": uintp,  # NumPy 2's codes for intp and uintp
}


def _from_string(s: str) -> DType | None:
    """A type string ('f4', '<i8', '|b1', '=u2') or a character code ('d');
    non-native order ('>f4') only where one byte makes order moot."""
    if s in _CHARS:
        return _CHARS[s]
    order, body = (s[0], s[1:]) if s and s[0] in "<>|=" else ("", s)
    found = _BY_TYPESTR.get(body) or (_CHARS.get(body) if order else None)
    if found is None:
        return None
    if order in ("<", ">") and order != _NATIVE_ORDER and found.itemsize > 1:
        raise _non_native(s)
    return found


# Python's types of the families minarray lacks, as NumPy reads them.
_PYTHON_OUT_OF_SCOPE: Final[dict[type, str]] = {_builtin_str: "str", bytes: "bytes", object: "object"}


def as_dtype(obj: Any) -> DType:
    """The dtype ``obj`` spells: a DType, a name or alias ('float32',
    'double'), a type string or character code ('f4', '<i8', 'd'), a Python
    type, a NumPy dtype or scalar type (ml_dtypes' too), a PyTorch dtype,
    or an object with a ``dtype``.  TypeError for anything else; one that
    names a type minarray does not hold (strings, dates, objects,
    structured records) says so and points to NumPy."""
    if isinstance(obj, DType):
        return obj
    if isinstance(obj, _builtin_str):
        found = _BY_NAME.get(obj) or _ALIASES.get(obj) or _from_string(obj)
        if found is not None:
            return found
        refusal = _out_of_scope_string(obj)
        if refusal is not None:
            raise refusal
        raise TypeError(f"unknown dtype {obj!r}: expected one of {', '.join(_BY_NAME)}, a type "
                        f"string such as 'f4' or '<i8', or a character code such as 'd'")
    if obj is _builtin_bool:
        return bool
    if obj is int:
        return default_int
    if obj is float:
        return default_float
    if obj is complex:
        return default_complex
    if isinstance(obj, _ScalarTypeMeta):
        raise _not_a_dtype(obj)
    if isinstance(obj, type) and obj in _PYTHON_OUT_OF_SCOPE:
        raise out_of_scope(obj.__name__, _PYTHON_OUT_OF_SCOPE[obj])
    if isinstance(obj, (list, dict, tuple)):
        raise out_of_scope(_builtin_str(obj), "structured")
    if _numpy_like(obj):
        import numpy as np  # optional: NumPy is not a dependency of minarray

        return _from_numpy_dtype(np.dtype(obj))
    mod = type(obj).__module__
    if mod.startswith("torch"):
        name = _builtin_str(obj).removeprefix("torch.")
        if name in _BY_NAME:
            return _BY_NAME[name]
    if _is_array(obj):  # as NumPy 2, which refuses np.dtype(an ndarray)
        raise TypeError(f"cannot make a dtype from an array ({type(obj).__name__}): pass its .dtype")
    inner = None if isinstance(obj, type) else getattr(obj, "dtype", None)
    if inner is not None and inner is not obj:
        return as_dtype(inner)  # NumPy reads an object's dtype attribute
    raise TypeError(f"cannot interpret {obj!r} as a minarray dtype")


def _is_array(obj: Any) -> _builtin_bool:
    """An Array API array (minarray's, NumPy's...), not a scalar type."""
    return not isinstance(obj, type) and hasattr(obj, "__array_namespace__")


# NumPy's abstract scalar types, for ``issubdtype`` and ``issubclass``:
# generic > number > integer > signedinteger | unsignedinteger, number >
# inexact > floating | complexfloating, and beside number the families
# minarray does not hold (NumPy's tree: numpy/_core/numerictypes.py).
# minarray's dtypes are its scalar types, so a dtype is not a class; the
# metaclass lets ``issubclass(ma.float64, ma.floating)`` answer by its kind.


# The class of minarray's scalars, minarray._scalar.Scalar, set by that
# module (it needs NDArray, which needs this module): its instances sit in
# the tree by their dtype, as np.float64(1) is an np.floating.
scalar_class: Any = None  # (type[Scalar] once set)


class _ScalarTypeMeta(type):
    def __subclasscheck__(cls, sub: Any) -> _builtin_bool:
        mine = scalar_type_class(sub)  # a class of this tree, or NumPy's of the same name
        if mine is not None:
            return type.__subclasscheck__(cls, mine)
        if isinstance(sub, DType) or _numpy_like(sub):  # a dtype, or NumPy's type of one
            try:
                return type.__subclasscheck__(cls, _KIND_CLASS[as_dtype(sub).kind])
            except TypeError:
                return False
        return type.__subclasscheck__(cls, sub)

    def __instancecheck__(cls, inst: Any) -> _builtin_bool:
        # by the instance's class, so NumPy's scalars answer: isinstance(np.float32(1), ma.floating)
        if type(inst) is scalar_class:
            return cls.__subclasscheck__(inst.dtype)
        return cls.__subclasscheck__(type(inst))

    def __repr__(cls) -> _builtin_str:
        return f"<class 'minarray.{cls.__name__}'>"


class generic(metaclass=_ScalarTypeMeta):
    """The root of the scalar types (abstract: it makes no instances)."""

    def __new__(cls, *args: Any, **kwargs: Any) -> NoReturn:
        raise TypeError(f"cannot create 'minarray.{cls.__name__}' instances")


class number(generic):
    """The numeric types (abstract)."""


class integer(number):
    """The integer types (abstract)."""


class signedinteger(integer):
    """The signed integer types (abstract)."""


class unsignedinteger(integer):
    """The unsigned integer types (abstract)."""


class inexact(number):
    """The floating-point and complex types (abstract)."""


class floating(inexact):
    """The real floating-point types (abstract)."""


class complexfloating(inexact):
    """The complex types (abstract)."""


class flexible(generic):
    """NumPy's types of flexible size (strings, bytes, void): none is minarray's."""


class character(flexible):
    """NumPy's string types: none is minarray's."""


# The class each kind of dtype sits under; bool sits under generic alone,
# as NumPy's.
_KIND_CLASS: Final[dict[str, type]] = {
    "b": generic, "i": signedinteger, "u": unsignedinteger, "f": floating, "c": complexfloating,
}


class _OutOfScope(generic):
    """NumPy's concrete scalar types that minarray does not hold: the names
    exist, so that ``issubdtype`` can ask about them and code that names
    them fails with the reason, not an AttributeError."""

    def __new__(cls, *args: Any, **kwargs: Any) -> NoReturn:
        raise _not_a_dtype(cls)


class datetime64(_OutOfScope):
    """NumPy's dates: not held by minarray."""


class timedelta64(_OutOfScope, signedinteger):
    """NumPy's time spans: not held by minarray."""


class str_(_OutOfScope, character):
    """NumPy's strings: not held by minarray."""


class bytes_(_OutOfScope, character):
    """NumPy's byte strings: not held by minarray."""


class void(_OutOfScope, flexible):
    """NumPy's raw records: not held by minarray."""


class object_(_OutOfScope):
    """NumPy's Python objects: not held by minarray."""


class longdouble(_OutOfScope, floating):
    """NumPy's extended-precision float (C's long double): not held by minarray."""


class clongdouble(_OutOfScope, complexfloating):
    """NumPy's extended-precision complex: not held by minarray."""


# NumPy's names of them by size on x86-64 Linux: the same classes.
float128 = longdouble
complex256 = clongdouble


def _not_a_dtype(cls: type) -> TypeError:
    """The refusal of a scalar type class used as a dtype: an abstract one
    (as NumPy 2 refuses ``np.dtype(np.floating)``) or one minarray lacks."""
    if issubclass(cls, _OutOfScope):
        name = cls.__name__
        return out_of_scope(name, _FAMILY_OF_NAME.get(name, name))
    return TypeError(f"converting the abstract 'minarray.{cls.__name__}' to a dtype is not allowed: "
                     f"name a concrete dtype such as minarray.float64")


def scalar_type_class(obj: Any) -> type | None:
    """``obj`` as one of the classes above if it is one, or NumPy's class of
    the same name (``np.floating``); None otherwise."""
    if isinstance(obj, _ScalarTypeMeta):
        return obj
    if isinstance(obj, type) and obj.__module__.startswith("numpy"):
        found = globals().get(obj.__name__)
        if isinstance(found, _ScalarTypeMeta):
            return found
    return None


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


def ufunc_cast_error(ufunc: str, operand: str, src: DType, dst: DType, casting: str) -> TypeError:
    """NumPy's error for a ufunc cast its ``casting`` rule forbids:
    ``operand`` is ``"output"`` or ``"input K"``."""
    return TypeError(f"Cannot cast ufunc '{ufunc}' {operand} from dtype('{src}') to dtype('{dst}') with casting "
                     f"rule '{casting}'")




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
        # NumPy's rule for Python scalars alone: each is read as its
        # default type (bool, int64, float64, complex128), the widest kind wins
        kinds = (_builtin_bool, int, float, complex)
        widest = max(next(i for i, k in enumerate(kinds) if isinstance(s, k)) for s in scalars)
        return (bool, int64, float64, complex128)[widest]
    out = dts[0]
    for d in dts[1:]:
        out = promote(out, d)
    for s in scalars:
        out = scalar_dtype(s, out)
    return out


def can_cast(from_: Any, to: Any, /, casting: str = "safe") -> _builtin_bool:
    """Array API ``can_cast``: can ``from_`` be cast to ``to`` without loss
    under the promotion rules?  NumPy's ``casting`` names another rule
    (one of CASTING)."""
    if isinstance(from_, (DType, str)) or isinstance(from_, type) or not hasattr(from_, "dtype"):
        src = as_dtype(from_)
    else:
        src = as_dtype(from_.dtype)  # an array
    dst = as_dtype(to)
    if casting != "safe":
        if casting not in CASTING:
            raise ValueError(f"casting must be one of {', '.join(map(repr, CASTING))}, got {casting!r}")
        return casting_allows(src, dst, casting)
    if src is dst:
        return True
    return promote(src, dst) is dst
