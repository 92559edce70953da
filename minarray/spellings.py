"""NumPy's names for the Array API functions: the same objects under a
second name (``ma.absolute is ma.abs``), so NumPy code keeps working and
the two spellings can never drift apart.

Only names whose NumPy function behaves exactly as the Array API one are
listed here.  Where NumPy's defaults differ (``cumsum`` flattens without an
axis, ``unique`` takes ``return_counts=``, ``transpose`` takes optional
axes), the NumPy spelling is a function of its own, in the module of its
topic (:mod:`minarray.reductions`, :mod:`minarray.sets`,
:mod:`minarray.views`...).
"""

from __future__ import annotations

from minarray.dtypes import bool as _bool
from minarray.dtypes import (
    complex64,
    complex128,
    float16,
    float32,
    float64,
    int8,
    int16,
    int32,
    int64,
    uint8,
    uint16,
    uint32,
    uint64,
)
from minarray.elementwise import (
    abs,
    acos,
    acosh,
    asin,
    asinh,
    atan,
    atan2,
    atanh,
    bitwise_invert,
    bitwise_left_shift,
    bitwise_right_shift,
    conj,
    divide,
    pow,
    remainder,
    round,
)
from minarray.reductions import max, min

__all__ = [
    "absolute", "arccos", "arccosh", "arcsin", "arcsinh", "arctan", "arctan2", "arctanh",
    "invert", "bitwise_not", "left_shift", "right_shift", "power", "conjugate", "true_divide",
    "mod", "around", "amax", "amin",
    # NumPy's C-style names of the dtypes (NumPy 2's: on the platforms
    # minarray builds for, long long and intp are 64 bits)
    "bool_", "byte", "ubyte", "short", "ushort", "intc", "uintc", "int_", "intp", "uintp",
    "longlong", "ulonglong", "half", "single", "double", "csingle", "cdouble",
]

# NumPy name = Array API name (one object, two names)
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
amax = max
amin = min

# dtypes: the same singletons (ma.double is ma.float64)
bool_ = _bool
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
