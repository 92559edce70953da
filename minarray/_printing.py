"""``repr`` and ``str`` in NumPy's format: ``array([[0, 1], [2, 3]], dtype=int32)``.

A port of NumPy's default printing (``numpy/_core/arrayprint.py``, NumPy 2
defaults: precision 8, ``floatmode="maxprec"``, threshold 1000, edgeitems 3,
linewidth 75, sign ``"-"``), written without NumPy so that it works without
it.  It prints as NumPy 2.3 and later do, whatever NumPy is installed (NumPy
2.0 and 2.1 leave ``shape=`` out, and before 2.3 the scientific cutoff is 1e8
for every float type):

- floats print the shortest decimal that identifies the value *in its own
  dtype* (float16, bfloat16, float32 or float64), with at most 8 fractional
  digits, decimal points aligned; they switch to scientific notation when a
  non-zero magnitude is below 1e-4, at least 10**min(8, decimal precision of
  the dtype), or the largest is more than 1000 times the smallest;
- complex numbers format their real and imaginary parts separately;
- arrays with more than 1000 elements show the first and last 3 entries of
  each axis, and their repr adds ``shape=``;
- ``dtype=`` is added unless the dtype is int64, float64, complex128 or bool
  (or the array is empty), on the last line when it fits in 75 columns.

Only the elements shown are read (one ``tolist`` or a small gather), so a
huge array prints as fast as a small one.
"""

from __future__ import annotations

import math
import struct
from collections.abc import Callable
from decimal import Decimal
from typing import Any

from minarray import _dtypes as _dt
from minarray._array_object import NDArray

__all__ = [
    "array_repr", "array_str",
]


THRESHOLD = 1000


EDGEITEMS = 3


LINEWIDTH = 75


PRECISION = 8


# dtypes whose repr leaves out ``dtype=`` (NumPy's _typelessdata on LP64)
_IMPLIED = {"int64", "float64", "complex128", "bool"}


# decimal digits each float type carries (numpy.finfo(...).precision); the
# 16-bit floats share float16's so their arrays print alike
_DECIMAL_PRECISION = {"float16": 3, "bfloat16": 3, "float32": 6, "float64": 15}


def _to_float32(x: float) -> float:
    try:
        return float(struct.unpack("<f", struct.pack("<f", x))[0])
    except OverflowError:
        return math.copysign(math.inf, x)


def _to_float16(x: float) -> float:
    try:
        return float(struct.unpack("<e", struct.pack("<e", x))[0])
    except OverflowError:
        return math.copysign(math.inf, x)


def _to_bfloat16(x: float) -> float:
    (bits,) = struct.unpack("<I", struct.pack("<f", _to_float32(x)))
    if (bits & 0x7FFFFFFF) > 0x7F800000:
        return x  # NaN
    bits = (bits + 0x7FFF + ((bits >> 16) & 1)) & 0xFFFF0000  # round to nearest even
    return float(struct.unpack("<f", struct.pack("<I", bits))[0])


_ROUND: dict[str, Callable[[float], float]] = {
    "float16": _to_float16, "bfloat16": _to_bfloat16, "float32": _to_float32, "float64": float,
}


def _shortest_sci(v: float, ftype: str) -> str:
    """The shortest ``d.ddde±XX`` string that reads back as ``v`` in
    ``ftype`` (Python's repr does this for float64)."""
    if ftype == "float64":
        return _python_shortest_sci(v)
    rnd = _ROUND[ftype]
    for p in range(17):
        s = f"{v:.{p}e}"
        if rnd(float(s)) == v:
            return s
    return f"{v:.17e}"


def _python_shortest_sci(v: float) -> str:
    """repr(v) (the shortest round-trip digits) in ``d.ddde±XX`` form."""
    digits, exp = _digits(repr(v))
    frac = digits[1:]
    return f"{digits[0]}.{frac}e{exp:+03d}" if frac else f"{digits[0]}e{exp:+03d}"


def _digits(text: str) -> tuple[str, int]:
    """Significant digits and decimal exponent of a non-negative decimal
    string: "0.0125" -> ("125", -2), "1.5e+03" -> ("15", 3)."""
    d = Decimal(text).normalize()
    if not d:
        return "0", 0
    _, ds, e = d.as_tuple()
    digits = "".join(map(str, ds))
    return digits, len(digits) - 1 + int(e)


def _positional(v: float, ftype: str, sign: str) -> str:
    """Dragon4 positional, ``unique=True, precision=8, trim='.'``: the
    shortest round-trip digits, or the value rounded to 8 fractional digits
    when those are more, trailing zeros dropped, the point kept."""
    sci = _shortest_sci(abs(v), ftype)
    digits, exp = _digits(sci)
    nfrac = max(0, len(digits) - 1 - exp)
    if nfrac > PRECISION:
        s = f"{abs(v):.{PRECISION}f}".rstrip("0")
    elif exp >= 0:
        ip = (digits[:exp + 1]).ljust(exp + 1, "0")
        s = ip + "." + digits[exp + 1:]
    else:
        s = "0." + "0" * (-exp - 1) + digits
    if "." not in s:
        s += "."
    return _signed(s, v, sign)


def _signed(s: str, v: float, sign: str) -> str:
    if math.copysign(1.0, v) < 0:
        return "-" + s
    return "+" + s if sign == "+" else s


def _scientific(v: float, ftype: str, sign: str, precision: int | None, exp_digits: int) -> str:
    """Dragon4 scientific: with ``precision`` None the shortest round-trip
    mantissa (at most 8 fractional digits, trailing zeros dropped); else
    exactly ``precision`` fractional digits of the exact value."""
    a = abs(v)
    if precision is None:
        s = _shortest_sci(a, ftype)
        mant, _, e = s.partition("e")
        if "." in mant and len(mant.split(".")[1]) > PRECISION:
            mant, _, e = f"{a:.{PRECISION}e}".partition("e")
            mant = mant.rstrip("0")
    else:
        mant, _, e = f"{a:.{precision}e}".partition("e")
    if "." not in mant:
        mant += "."
    ev = int(e)
    text = f"{mant}e{'+' if ev >= 0 else '-'}{str(abs(ev)).rjust(exp_digits, '0')}"
    return _signed(text, v, sign)


class _FloatFormat:
    """NumPy's FloatingFormat for the default options."""

    def __init__(self, values: list[float], ftype: str, sign: str = "-") -> None:
        self.ftype = ftype
        self.sign = sign
        finite = [v for v in values if math.isfinite(v)]
        nonzero = [abs(v) for v in finite if v != 0]
        self.exp_format = False
        if nonzero:
            # NumPy compares in the array's dtype (the Python constants are
            # weak scalars), so the thresholds are rounded to it first
            rnd = _ROUND[ftype]
            big, small = max(nonzero), min(nonzero)
            cutoff = rnd(10.0 ** min(8, _DECIMAL_PRECISION[ftype]))
            ratio = rnd(_to_float32(big / small)) if ftype != "float64" else big / small
            self.exp_format = big >= cutoff or small < rnd(0.0001) or ratio > 1000.0
        self.precision: int | None = None
        self.exp_size = -1
        if not finite:
            self.pad_left = self.pad_right = 0
        elif self.exp_format:
            strs = [_scientific(v, ftype, sign, None, 2) for v in finite]
            mants = [s.partition("e")[0] for s in strs]
            self.exp_size = max(len(s.partition("e")[2]) for s in strs) - 1
            self.precision = max(len(m.split(".")[1]) for m in mants)
            self.pad_left = max(len(m.split(".")[0]) for m in mants)
            self.pad_right = self.exp_size + 2 + self.precision
        else:
            strs = [_positional(v, ftype, sign) for v in finite]
            self.pad_left = max(len(s.split(".")[0]) for s in strs)
            self.pad_right = max(len(s.split(".")[1]) for s in strs)
        if len(finite) != len(values):
            neginf = sign != "-" or any(v == -math.inf for v in values)
            offset = self.pad_right + 1
            self.pad_left = max(self.pad_left, 3 - offset, 3 + neginf - offset)

    def __call__(self, v: float) -> str:
        if not math.isfinite(v):
            if math.isnan(v):
                ret = ("+" if self.sign == "+" else "") + "nan"
            else:
                ret = ("-" if v < 0 else "+" if self.sign == "+" else "") + "inf"
            return ret.rjust(self.pad_left + self.pad_right + 1)
        if self.exp_format:
            s = _scientific(v, self.ftype, self.sign, self.precision, self.exp_size)
            ip, _, rest = s.partition(".")
            return ip.rjust(self.pad_left) + "." + rest
        s = _positional(v, self.ftype, self.sign)
        ip, _, fp = s.partition(".")
        return ip.rjust(self.pad_left) + "." + fp.ljust(self.pad_right)


class _ComplexFormat:
    def __init__(self, values: list[complex], ftype: str) -> None:
        self.real = _FloatFormat([v.real for v in values], ftype)
        self.imag = _FloatFormat([v.imag for v in values], ftype, sign="+")

    def __call__(self, v: complex) -> str:
        r = self.real(v.real)
        i = self.imag(v.imag)
        sp = len(i.rstrip())
        return r + i[:sp] + "j" + i[sp:]


def _format_function(a: NDArray, values: list[Any]) -> Callable[[Any], str]:
    kind = a.dtype.kind
    if kind == "b":
        true = " True" if a.ndim else "True"
        return lambda v: true if v else "False"
    if kind in "iu":
        width = max((len(str(v)) for v in values), default=0)
        return lambda v: str(v).rjust(width)
    if kind == "f":
        return _FloatFormat(values, _float_type(a.dtype))
    return _ComplexFormat(values, _real_type(a.dtype))


def _float_type(d: _dt.DType) -> str:
    """The float type whose digits a real dtype prints with: its own, or for
    a storage type (float8...) the float32 its values are exact in."""
    return (d.wide or d).name


def _real_type(d: _dt.DType) -> str:
    """The same for a complex dtype's parts (complex32 as complex64's)."""
    return "float32" if (d.wide or d) is _dt.complex64 else "float64"


def _shown(a: NDArray, summarise: bool) -> tuple[Any, list[bool]]:
    """The elements that will be printed as nested lists, and per axis
    whether it is summarised (its middle left out)."""
    flags = [summarise and n > 2 * EDGEITEMS for n in a.shape]
    if not any(flags):
        return a.tolist(), flags
    sub = a
    for axis, cut in enumerate(flags):
        if cut:
            n = a.shape[axis]
            keep = list(range(EDGEITEMS)) + list(range(n - EDGEITEMS, n))
            sub = sub[(slice(None),) * axis + (keep,)]
    return sub.tolist(), flags


def _leaves(x: Any, depth: int, out: list[Any]) -> None:
    if depth == 0:
        out.append(x)
        return
    for y in x:
        _leaves(y, depth - 1, out)


def _extend_line(s: str, line: str, word: str, width: int, prefix: str) -> tuple[str, str]:
    needs_wrap = len(line) + len(word) > width
    if len(line) <= len(prefix):  # wrapping would not help
        needs_wrap = False
    if needs_wrap:
        s += line.rstrip() + "\n"
        line = prefix
    return s, line + word


def _format_array(nested: Any, flags: list[bool], ndim: int, fmt: Callable[[Any], str],
                  line_width: int, next_line_prefix: str, separator: str) -> str:
    def recurser(x: Any, axis: int, hanging_indent: str, curr_width: int) -> str:
        axes_left = ndim - axis
        if axes_left == 0:
            return fmt(x)
        next_hanging_indent = hanging_indent + " "
        next_width = curr_width - len("]")
        n = len(x)
        show_summary = flags[axis]
        leading = EDGEITEMS if show_summary else 0
        items = x
        s = ""
        if axes_left == 1:
            elem_width = curr_width - max(len(separator.rstrip()), len("]"))
            line = hanging_indent
            for i in range(leading):
                s, line = _extend_line(s, line, recurser(items[i], axis + 1, next_hanging_indent, next_width),
                                       elem_width, hanging_indent)
                line += separator
            if show_summary:
                s, line = _extend_line(s, line, "...", elem_width, hanging_indent)
                line += separator
            for i in range(leading, n - 1):
                s, line = _extend_line(s, line, recurser(items[i], axis + 1, next_hanging_indent, next_width),
                                       elem_width, hanging_indent)
                line += separator
            s, line = _extend_line(s, line, recurser(items[n - 1], axis + 1, next_hanging_indent, next_width),
                                   elem_width, hanging_indent)
            s += line
        else:
            line_sep = separator.rstrip() + "\n" * (axes_left - 1)
            for i in range(leading):
                s += hanging_indent + recurser(items[i], axis + 1, next_hanging_indent, next_width) + line_sep
            if show_summary:
                s += hanging_indent + "..." + line_sep
            for i in range(leading, n - 1):
                s += hanging_indent + recurser(items[i], axis + 1, next_hanging_indent, next_width) + line_sep
            s += hanging_indent + recurser(items[n - 1], axis + 1, next_hanging_indent, next_width)
        return "[" + s[len(hanging_indent):] + "]"

    return recurser(nested, 0, next_line_prefix, line_width)


def _array2string(a: NDArray, separator: str, prefix: str, suffix: str) -> str:
    if a.size == 0:
        return "[]"
    nested, flags = _shown(a, a.size > THRESHOLD)
    values: list[Any] = []
    _leaves(nested, a.ndim, values)
    fmt = _format_function(a, values)
    return _format_array(nested, flags, a.ndim, fmt, LINEWIDTH - len(suffix), " " + " " * len(prefix), separator)


def array_repr(a: NDArray) -> str:
    prefix = "array("
    body = _array2string(a, ", ", prefix, ")")
    extras = []
    if (a.size == 0 and a.shape != (0,)) or a.size > THRESHOLD:
        extras.append(f"shape={a.shape}")
    if a.dtype.name not in _IMPLIED or a.size == 0:
        extras.append(f"dtype={a.dtype}")
    if not extras:
        return prefix + body + ")"
    arr_str = prefix + body + ","
    extra = ", ".join(extras) + ")"
    last_line_len = len(arr_str) - (arr_str.rfind("\n") + 1)
    spacer = "\n" + " " * len(prefix) if last_line_len + len(extra) + 1 > LINEWIDTH else " "
    return arr_str + spacer + extra


def array_str(a: NDArray) -> str:
    if a.ndim == 0:
        return _scalar_str(a.item(), a.dtype)
    return _array2string(a, " ", "", "")


# NumPy's scalar str turns scientific from this magnitude on (measured on
# NumPy 2.4; bfloat16 follows float16)
_SCALAR_SCI_FROM = {"float16": 1e3, "bfloat16": 1e3, "float32": 1e6, "float64": 1e16}


def _float_str(v: float, ftype: str) -> str:
    """NumPy's scalar str: shortest round-trip digits, positional with at
    least ``.0`` when 1e-4 <= |v| < a dtype-dependent bound (1e16 for
    float64, as Python's repr), scientific otherwise."""
    if not math.isfinite(v) or ftype == "float64":
        return repr(v)
    a = abs(v)
    digits, exp = _digits(_shortest_sci(a, ftype))
    sign = "-" if math.copysign(1.0, v) < 0 else ""
    if a == 0 or 1e-4 <= a < _SCALAR_SCI_FROM[ftype]:
        s = _positional_exact(digits, exp)
        return sign + (s + "0" if s.endswith(".") else s)
    mant = digits[0] + ("." + digits[1:] if len(digits) > 1 else "")
    return f"{sign}{mant}e{exp:+03d}"


def _positional_exact(digits: str, exp: int) -> str:
    """All of ``digits`` written out positionally (no 8-digit cap)."""
    if exp >= 0:
        return digits[:exp + 1].ljust(exp + 1, "0") + "." + digits[exp + 1:]
    return "0." + "0" * (-exp - 1) + digits


def _scalar_str(v: Any, dtype: _dt.DType) -> str:
    if dtype.kind in "biu":
        return str(v)
    if dtype.kind == "f":
        return _float_str(v, _float_type(dtype))
    ftype = _real_type(dtype)

    def part(x: float) -> str:
        s = _float_str(x, ftype)
        return s[:-2] if s.endswith(".0") else s

    re, im = v.real, v.imag
    im_s = part(im)
    if re == 0 and math.copysign(1.0, re) > 0:
        return im_s + "j"
    sign = "" if im_s.startswith("-") else "+"
    return f"({part(re)}{sign}{im_s}j)"
