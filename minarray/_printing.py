"""Arrays as text, as NumPy prints them: ``repr``, ``str``,
``array2string``, ``array_repr`` and ``array_str``, under the print options
of minarray/_printoptions.py.

A port of NumPy 2's ``numpy/_core/arrayprint.py`` written without NumPy:

- floats print the shortest decimal that identifies the value *in its own
  dtype*, cut to ``precision`` fractional digits, decimal points aligned;
  scientific notation when a non-zero magnitude is below 1e-4 (unless
  ``suppress``), at least 10**min(8, decimal precision of the dtype) (1e8
  under ``legacy='2.2'`` and older), or the largest is more than 1000 times
  the smallest; ``floatmode`` picks how many digits (minarray/_float_format.py
  writes each value);
- complex numbers format their real and imaginary parts separately;
- arrays with more than ``threshold`` elements show ``edgeitems`` entries
  at each end of each axis, and their repr adds ``shape=``;
- ``dtype=`` is added unless the dtype is int64, float64, complex128 or bool
  (or the array is empty), on the last line when it fits the line width;
- bfloat16 and the storage types (float8, int4...) print as NumPy prints
  them with ml_dtypes: each element as its own text (``%g`` for floats),
  unaligned, as NumPy prints objects.

Only the elements shown are read (one ``tolist`` of a small gather), and
each is formatted once: the text of every element is made in one pass, in
the order the nested brackets are then written.

Beside them, NumPy's text of one integer: ``binary_repr`` (two's
complement at a given width) and ``base_repr`` (any base up to 36).
"""

from __future__ import annotations

import math
import operator
from collections.abc import Callable, Iterator, Mapping
from typing import Any

from minarray import _dtypes as _dt
from minarray import _printoptions, _subclass
from minarray._array_object import NDArray
from minarray._coerce import asarray
from minarray._float_format import (
    ROUND,
    non_negative,
    positional,
    positional_all,
    scalar_text,
    scientific,
    scientific_all,
    scientific_all_padded,
)

__all__ = ["array2string", "array_repr", "array_str", "base_repr", "binary_repr"]


# dtypes whose repr leaves out ``dtype=`` (NumPy's _typelessdata on LP64)
_IMPLIED = {"int64", "float64", "complex128", "bool"}


# decimal digits each float type carries (numpy.finfo(...).precision)
_DECIMAL_PRECISION = {"float16": 3, "float32": 6, "float64": 15}


# below these magnitudes every value's shortest digits reach the units
_EXACT_INTEGERS = {"float16": 2.0**11, "float32": 2.0**24, "float64": 2.0**53}


Options = Mapping[str, Any]
Formatter = Callable[[Any], str]


class _FloatFormat:
    """NumPy's FloatingFormat: one layout (positional or scientific, the
    digits, the padding) chosen for all the values, then each value in it."""

    def __init__(self, values: list[float], ftype: str, options: Options, sign: str | None = None) -> None:
        self.ftype = ftype
        self.legacy: int = options["legacy"]
        self.sign: str = options["sign"] if sign is None else sign
        self.nanstr: str = options["nanstr"]
        self.infstr: str = options["infstr"]
        if self.legacy <= 113 and values and sign is None and self.sign == "-" and options.get("_ndim", 1):
            self.sign = " "  # 1.13 gave positive elements a space
        self.floatmode: str = options["floatmode"]
        precision = None if self.floatmode == "unique" else options["precision"]
        self.precision = non_negative(precision, "precision")
        self.suppress_small = bool(options["suppress"])
        self.exp_format = False
        self._fill(values)

    def _fill(self, values: list[float]) -> None:
        finite = [v for v in values if math.isfinite(v)]
        nonzero = [abs(v) for v in finite if v]
        ftype, plus = self.ftype, self.sign == "+"
        if nonzero:
            # NumPy compares in the array's dtype (the Python constants are
            # weak scalars), so the thresholds are rounded to it first
            rnd = ROUND[ftype]
            big, small = max(nonzero), min(nonzero)
            cutoff = rnd(1e8 if self.legacy <= 202 else 10.0 ** min(8, _DECIMAL_PRECISION[ftype]))
            ratio = big / small if ftype == "float64" else rnd(ROUND["float32"](big / small))
            self.exp_format = big >= cutoff or (not self.suppress_small and (small < rnd(0.0001) or ratio > 1000.0))
        self._plain: list[str] | None = None
        self._first: list[str] | None = None
        self._fracs: list[int] = []
        self._full = -1
        if not finite:
            self.pad_left = self.pad_right = 0
            self.trim, self.exp_size, self.unique, self.min_digits = ".", -1, True, -1
        elif self.exp_format:
            trim, unique = ".", True
            if self.floatmode == "fixed" or self.legacy <= 113:
                trim, unique = "k", False
            padded = scientific_all_padded(finite, ftype, self.precision, plus) if unique else None
            if padded is not None:
                strs = padded
            elif unique:
                strs = scientific_all(finite, ftype, self.precision, plus)
            else:
                strs = [scientific(v, ftype, self.precision, unique=False, trim=trim, sign=plus) for v in finite]
            points = [s.find(".") for s in strs]  # (every text has its point)
            exps = [s.find("e") for s in strs]
            self.exp_size = max(len(s) - e for s, e in zip(strs, exps, strict=True)) - 2
            self.trim, self.unique = "k", unique
            self._fracs = [e - p - 1 for p, e in zip(points, exps, strict=True)]
            self.precision = self.min_digits = max(self._fracs)
            self.pad_left = 3 if self.legacy <= 113 else max(points)
            self.pad_right = self.exp_size + 2 + self.precision
            # a text with all the digits is final as it is (padded); the
            # others get min_digits more in the second pass
            self._first, self._full = strs, self.precision
        else:
            trim, unique = ".", True
            if self.floatmode == "fixed":
                trim, unique = "k", False
            if unique:
                strs = positional_all(finite, ftype, self.precision, plus)
            else:
                strs = [positional(v, ftype, self.precision, unique=False, trim=trim, sign=plus) for v in finite]
            parts = [s.partition(".") for s in strs]
            if self.legacy <= 113:
                self.pad_left = 1 + max(len(p[0].lstrip("-+")) for p in parts)
            else:
                self.pad_left = max(len(p[0]) for p in parts)
            self.pad_right = max(len(p[2]) for p in parts)
            self.exp_size, self.unique = -1, unique
            if self.floatmode in ("fixed", "maxprec_equal"):
                self.precision = self.min_digits = self.pad_right
                self.trim = "k"
            else:
                self.trim, self.min_digits = ".", 0
                # each value's final text is this one, padded (unless the
                # shortest digits of a large value stop above the units,
                # which min_digits=0 then writes out)
                if max(abs(v) for v in finite) < _EXACT_INTEGERS[ftype]:
                    self._plain = strs
        if self.legacy > 113 and self.sign == " " and not any(math.copysign(1.0, v) < 0 for v in finite):
            self.pad_left += 1
            self._plain = self._first = None
        if len(finite) != len(values):
            neginf = self.sign != "-" or any(v == -math.inf for v in values)
            offset = self.pad_right + 1  # +1 for the point
            self.pad_left = max(self.pad_left, len(self.nanstr) - offset, len(self.infstr) + neginf - offset)

    def _nonfinite(self, v: float) -> str:
        if math.isnan(v):
            ret = ("+" if self.sign == "+" else "") + self.nanstr
        else:
            ret = ("-" if v < 0 else "+" if self.sign == "+" else "") + self.infstr
        return " " * (self.pad_left + self.pad_right + 1 - len(ret)) + ret

    def __call__(self, v: float) -> str:
        if not math.isfinite(v):
            return self._nonfinite(v)
        if self.exp_format:
            return scientific(v, self.ftype, self.precision, unique=self.unique, trim=self.trim,
                              sign=self.sign == "+", pad_left=self.pad_left, exp_digits=self.exp_size,
                              min_digits=self.min_digits)
        return positional(v, self.ftype, self.precision, unique=self.unique, trim=self.trim,
                          sign=self.sign == "+", pad_left=self.pad_left, pad_right=self.pad_right,
                          min_digits=self.min_digits)

    def all(self, values: list[float]) -> list[str]:
        """The text of each of ``values`` (those the format was made from)."""
        if self._first is not None and self.unique:
            return self._all_scientific(values)
        if self._plain is None:
            return [self(v) for v in values]
        # the default layout: the texts of the first pass, aligned on the point
        left, right = self.pad_left, self.pad_right
        plain = iter(self._plain)
        out = []
        for v in values:
            if v - v == 0:  # finite
                head, _, tail = next(plain).partition(".")
                out.append(head.rjust(left) + "." + tail.ljust(right))
            else:
                out.append(self._nonfinite(v))
        return out


    def _all_scientific(self, values: list[float]) -> list[str]:
        """The scientific layout's texts: the first pass's, padded, where
        they have all the digits; the others made again with min_digits."""
        assert self._first is not None
        first, fracs = iter(self._first), iter(self._fracs)
        full, left, exp_size, plus = self._full, self.pad_left, self.exp_size, self.sign == "+"
        out = []
        for v in values:
            if v - v != 0:
                out.append(self._nonfinite(v))
                continue
            text = next(first)
            if next(fracs) < full:
                # min_digits asks for more than the first pass wrote: the
                # value rounded there, with the zeros a carry drops put back
                text = f"{v:.{full}e}" if full else f"{v:.0e}".replace("e", ".e")
                if plus and text[0] != "-":
                    text = "+" + text
            point, e = text.find("."), text.find("e")
            if point < left:
                text = " " * (left - point) + text
                e += left - point
            if len(text) - e - 2 < exp_size:
                text = text[:e + 2] + text[e + 2:].rjust(exp_size, "0")
            out.append(text)
        return out


class _ComplexFormat:
    """NumPy's ComplexFloatingFormat: the real and imaginary parts each in
    their own float layout, the imaginary one always signed."""

    def __init__(self, values: list[complex], ftype: str, options: Options) -> None:
        real_opts, imag_opts = options, options
        if options["legacy"] <= 113:
            real_opts = {**options, "floatmode": "maxprec_equal"}
            imag_opts = {**options, "floatmode": "maxprec"}
        self.real = _FloatFormat([v.real for v in values], ftype, real_opts)
        self.imag = _FloatFormat([v.imag for v in values], ftype, imag_opts, sign="+")

    def __call__(self, v: complex) -> str:
        r = self.real(v.real)
        i = self.imag(v.imag)
        sp = len(i.rstrip())
        return r + i[:sp] + "j" + i[sp:]

    def all(self, values: list[complex]) -> list[str]:
        reals = self.real.all([v.real for v in values])
        imags = self.imag.all([v.imag for v in values])
        out = []
        for r, i in zip(reals, imags, strict=True):
            sp = len(i.rstrip())
            out.append(r + i[:sp] + "j" + i[sp:])
        return out


def _int_format(values: list[int], sign: str) -> Formatter:
    """NumPy's IntegerFormat: right-aligned to the widest, with ``sign``."""
    if values:
        hi, lo = max(values), min(values)
        width = len(str(hi))
        if sign == " " and lo < 0:
            sign = "-"
        if hi >= 0 and sign in "+ ":
            width += 1
        width = max(width, len(str(lo)))
    else:
        width = 0
    return f"{{:{sign}{width}d}}".format


def _as_objects(d: _dt.DType) -> bool:
    """bfloat16 and the storage types, which NumPy knows only through
    ml_dtypes and prints as it prints objects: each element's own text."""
    return not d.typestr and d.kind in "fiu"


def _object_text(d: _dt.DType) -> Formatter:
    """An ml_dtypes scalar's text: C++'s default stream format for floats
    (``%g``, six significant digits), the number for integers."""
    return "{:g}".format if d.kind == "f" else str


def _float_type(d: _dt.DType) -> str:
    """The float type whose digits a real dtype prints with."""
    return (d.wide or d).name


def _real_type(d: _dt.DType) -> str:
    """The same for a complex dtype's parts (complex32 as complex64's)."""
    return "float32" if (d.wide or d) is _dt.complex64 else "float64"


def _words(a: NDArray, values: list[Any], options: Options) -> list[str]:
    """The text of each value shown, by the formatter the options name for
    the dtype's kind or by NumPy's default for it."""
    d = a.dtype
    kind = "numpystr" if _as_objects(d) else {"b": "bool", "i": "int", "u": "int", "f": "float",
                                               "c": "complexfloat"}[d.kind]
    user = _user_formatter(options["formatter"], kind)
    if user is not None:
        return [user(v) for v in values]
    if kind == "numpystr":
        text = _object_text(d)
        return [text(v) for v in values]
    if kind == "bool":
        true = " True" if a.ndim else "True"
        return [true if v else "False" for v in values]
    if kind == "int":
        fmt = _int_format(values, options["sign"])
        return [fmt(v) for v in values]
    opts = {**options, "_ndim": a.ndim}
    if kind == "float":
        return _FloatFormat(values, _float_type(d), opts).all(values)
    return _ComplexFormat(values, _real_type(d), opts).all(values)


# the formatter keys that stand for each kind, the more specific last
# (NumPy's _get_formatdict: 'all', then the '*_kind' groups, then the kind)
_FORMATTER_KEYS = {
    "bool": ("all", "bool"),
    "int": ("all", "int_kind", "int"),
    "float": ("all", "float_kind", "float"),
    "complexfloat": ("all", "complex_kind", "complexfloat"),
    "numpystr": ("all", "str_kind", "numpystr"),
}


def _user_formatter(formatter: Mapping[str, Any] | None, kind: str) -> Formatter | None:
    if not formatter:
        return None
    chosen = None
    for key in _FORMATTER_KEYS[kind]:
        if formatter.get(key) is not None:
            chosen = formatter[key]
    return chosen


def _extend_line(s: str, line: str, word: str, width: int, prefix: str, legacy: int) -> tuple[str, str]:
    needs_wrap = len(line) + len(word) > width
    if legacy > 113 and len(line) <= len(prefix):  # wrapping would not help
        needs_wrap = False
    if needs_wrap:
        s += line.rstrip() + "\n"
        line = prefix
    return s, line + word


def _extend_line_pretty(s: str, line: str, word: str, width: int, prefix: str, legacy: int) -> tuple[str, str]:
    """``_extend_line`` for a word that may span lines (a formatter's)."""
    if "\n" not in word or legacy <= 113:
        return _extend_line(s, line, word, width, prefix, legacy)
    words = word.splitlines()
    longest = max(len(w) for w in words)
    if len(line) + longest > width and len(line) > len(prefix):
        s += line.rstrip() + "\n"
        line = prefix + words[0]
        indent = prefix
    else:
        indent = " " * len(line)
        line += words[0]
    for w in words[1:]:
        s += line.rstrip() + "\n"
        line = indent + w
    return s, line + " " * (longest - len(words[-1]))


def _format_array(shape: tuple[int, ...], words: Iterator[str], cut: list[bool], line_width: int,
                  next_line_prefix: str, separator: str, edgeitems: int, legacy: int) -> str:
    """NumPy's _formatArray: nested brackets, rows wrapped at the line width
    with a hanging indent, ``...`` where an axis is summarised.  ``words``
    yields the elements' texts in the order they are written."""
    ndim = len(shape)

    def recurser(axis: int, hanging_indent: str, curr_width: int) -> str:
        axes_left = ndim - axis
        if axes_left == 0:
            return next(words)
        next_hanging_indent = hanging_indent + " "
        next_width = curr_width if legacy <= 113 else curr_width - 1
        n = shape[axis]
        show_summary = cut[axis]
        leading, trailing = (edgeitems, edgeitems) if show_summary else (0, n)
        s = ""
        if axes_left == 1:
            if legacy <= 113:
                elem_width = curr_width - len(separator.rstrip())
            else:
                elem_width = curr_width - max(len(separator.rstrip()), 1)
            line = hanging_indent
            for _ in range(leading):
                s, line = _extend_line_pretty(s, line, next(words), elem_width, hanging_indent, legacy)
                line += separator
            if show_summary:
                s, line = _extend_line(s, line, "...", elem_width, hanging_indent, legacy)
                line += ", " if legacy <= 113 else separator
            wrap_at, indent_len = elem_width, len(hanging_indent)
            for _ in range(trailing - 1):
                word = next(words)
                if "\n" in word or legacy <= 113:
                    s, line = _extend_line_pretty(s, line, word, elem_width, hanging_indent, legacy)
                elif len(line) + len(word) > wrap_at and len(line) > indent_len:  # _extend_line, inlined
                    s += line.rstrip() + "\n"
                    line = hanging_indent + word
                else:
                    line += word
                line += separator
            if legacy <= 113:
                elem_width = curr_width
            s, line = _extend_line_pretty(s, line, next(words), elem_width, hanging_indent, legacy)
            s += line
        else:
            line_sep = separator.rstrip() + "\n" * (axes_left - 1)
            for _ in range(leading):
                s += hanging_indent + recurser(axis + 1, next_hanging_indent, next_width) + line_sep
            if show_summary:
                s += hanging_indent + "..." + (", \n" if legacy <= 113 else line_sep)
            for _ in range(trailing - 1):
                s += hanging_indent + recurser(axis + 1, next_hanging_indent, next_width) + line_sep
            s += hanging_indent + recurser(axis + 1, next_hanging_indent, next_width)
        return "[" + s[len(hanging_indent):] + "]"

    return recurser(0, next_line_prefix, line_width)


def _shown(a: NDArray, summarise: bool, edgeitems: int) -> tuple[list[Any], list[bool]]:
    """The elements that will be printed, flat in the order they are
    written, and per axis whether it is summarised (its middle left out)."""
    cut = [summarise and n > 2 * edgeitems for n in a.shape]
    sub = a
    for axis, c in enumerate(cut):
        if c:
            n = a.shape[axis]
            # NumPy's recursion writes the last element of a summarised axis
            # even with edgeitems=0, so at least that one is kept
            keep = list(range(edgeitems)) + list(range(n - max(edgeitems, 1), n))
            sub = sub[(slice(None),) * axis + (keep,)]
    if sub.ndim == 0:
        return [sub.item()], cut
    flat: list[Any] = sub.reshape(-1).tolist()
    return flat, cut


def _array2string(a: NDArray, options: Options, separator: str, prefix: str) -> str:
    summarise = a.size > options["threshold"]
    edgeitems = options["edgeitems"]
    values, cut = _shown(a, summarise, edgeitems)
    words = _words(a, values, options)
    return _format_array(a.shape, iter(words), cut, options["linewidth"], " " + " " * len(prefix), separator,
                         edgeitems, options["legacy"])


def array2string(a: Any, max_line_width: int | None = None, precision: int | None = None,
                 suppress_small: bool | None = None, separator: str = " ", prefix: str = "", *,
                 formatter: Mapping[str, Callable[[Any], str]] | None = None, threshold: int | None = None,
                 edgeitems: int | None = None, sign: str | None = None, floatmode: str | None = None,
                 suffix: str = "", legacy: Any = None) -> str:
    """An array as text (NumPy's ``array2string``): the print options in
    force, overridden by the arguments given."""
    if not isinstance(a, NDArray):
        a = asarray(a)
    overrides = _printoptions.checked(precision, threshold, edgeitems, max_line_width, suppress_small, None, None,
                                      sign, formatter, floatmode, legacy)
    options = {**_printoptions.current(), **overrides}
    if options["legacy"] <= 113 and a.ndim == 0:
        return repr(a.item())
    if options["legacy"] > 113:
        options["linewidth"] -= len(suffix)
    if a.size == 0:
        return "[]"
    return _array2string(a, options, separator, prefix)


def _dtype_text(d: _dt.DType) -> str:
    """NumPy's dtype_short_repr: the name, quoted unless it is a plain word
    (``dtype=int4``, ``dtype='float8_e4m3fn'``)."""
    name = d.name
    return name if name[0].isalpha() and name.isalnum() else repr(name)


def array_repr(arr: Any, max_line_width: int | None = None, precision: int | None = None,
               suppress_small: bool | None = None) -> str:
    """``array([...], dtype=...)`` as NumPy's ``array_repr`` writes it (an
    instance of a subclass with its class's name: ``matrix([[1, 2]])``)."""
    if not isinstance(arr, NDArray):
        arr = asarray(arr)
    options = _printoptions.current()
    if options["override_repr"] is not None:
        text: str = options["override_repr"](arr)
        return text
    if max_line_width is None:
        max_line_width = options["linewidth"]
    prefix = "array("
    if _subclass.instance(arr):
        prefix = type(arr).__name__ + "("
        arr = _subclass.plain(arr)  # its elements, printed without the subclass's own indexing or methods
    legacy = options["legacy"]
    if legacy <= 113 and arr.ndim == 0:
        body = repr(arr.item())
    else:
        body = array2string(arr, max_line_width, precision, suppress_small, ", ", prefix, suffix=")")
    extras = []
    if (arr.size == 0 and arr.shape != (0,)) or (legacy > 210 and arr.size > options["threshold"]):
        extras.append(f"shape={arr.shape}")
    implied = arr.dtype.name in _IMPLIED and not (legacy <= 113 and arr.dtype is _dt.bool)
    if not implied or arr.size == 0:
        extras.append(f"dtype={_dtype_text(arr.dtype)}")
    if not extras:
        return prefix + body + ")"
    arr_str = prefix + body + ","
    extra = ", ".join(extras) + ")"
    last_line_len = len(arr_str) - (arr_str.rfind("\n") + 1)
    spacer = " "
    if legacy > 113 and last_line_len + len(extra) + 1 > max_line_width:
        spacer = "\n" + " " * len(prefix)
    return arr_str + spacer + extra


def array_str(a: Any, max_line_width: int | None = None, precision: int | None = None,
              suppress_small: bool | None = None) -> str:
    """The elements as NumPy's ``array_str`` (and ``str``) writes them; a
    0-d array as its scalar prints, whatever the options."""
    if not isinstance(a, NDArray):
        a = asarray(a)
    a = _subclass.plain(a)  # an instance of a subclass prints its elements as a plain array does
    if a.ndim == 0:
        if _printoptions.current()["legacy"] <= 113:
            return str(a.item())
        return _scalar_str(a.item(), a.dtype, _printoptions.current()["legacy"])
    return array2string(a, max_line_width, precision, suppress_small, " ", "")


def scalar_repr(x: NDArray) -> str:
    """NumPy 2's repr of a scalar (NEP 51): the type around its value,
    ``np.float64(6.0)``, ``np.complex128(1+2j)``, ``np.True_``; under
    ``legacy`` 1.25 and older, the value alone, as NumPy 1 printed it."""
    options = _printoptions.current()
    if options["override_repr"] is not None:
        text: str = options["override_repr"](x)
        return text
    value = array_str(x)
    if options["legacy"] <= 125 or not x.dtype.typestr:
        # (no typestr: no NumPy type; ml_dtypes' scalars, bfloat16's and
        # float8's, print their value alone)
        return value
    if x.dtype is _dt.bool:
        return "np.True_" if x.item() else "np.False_"
    if x.dtype.kind == "c" and value.startswith("("):
        value = value[1:-1]
    return f"np.{x.dtype.name}({value})"


def _scalar_str(v: Any, dtype: _dt.DType, legacy: int) -> str:
    """NumPy's scalar str (a 0-d array's); under ``legacy`` 2.2 and older
    every float type is positional up to 1e16, as before NumPy 2.3."""
    old = legacy <= 202
    if _as_objects(dtype):
        return _object_text(dtype)(v)
    if dtype.kind in "biu":
        return str(v)
    if dtype.kind == "f":
        return scalar_text(v, _float_type(dtype), old)
    ftype = _real_type(dtype)

    def part(x: float) -> str:
        s = scalar_text(x, ftype, old)
        return s[:-2] if s.endswith(".0") else s

    re, im = v.real, v.imag
    im_s = part(im)
    if re == 0 and math.copysign(1.0, re) > 0:
        return im_s + "j"
    sign = "" if im_s.startswith("-") else "+"
    return f"({part(re)}{sign}{im_s}j)"


# ---- one integer as text ------------------------------------------------------

_DIGITS = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def binary_repr(num: Any, width: int | None = None) -> str:
    """``num`` in binary: with ``width``, a negative number is its two's
    complement in that many bits (the fewest bits that hold it when
    ``width`` is None gives ``-`` and the magnitude, as NumPy does);
    ValueError when the number needs more than ``width`` bits."""
    n = operator.index(num)
    if n >= 0:
        bits = format(n, "b") if n else ""
    elif width is None:
        return "-" + format(-n, "b")
    else:
        # the fewest bits whose two's complement holds n, and its pattern
        need = (-n - 1).bit_length() + 1
        bits = format((1 << need) + n, "b").rjust(need, "0")
    if width is not None and len(bits) > width and n != 0:
        raise ValueError(f"Insufficient bit width={width} provided for binwidth={len(bits)}")
    fill = "1" if n < 0 else "0"
    return bits.rjust(max(width or 1, len(bits)), fill)


def base_repr(number: Any, base: int = 2, padding: int = 0) -> str:
    """``number`` in ``base`` (2 to 36, digits 0-9 then A-Z), with
    ``padding`` zeros put in front of the digits and a ``-`` for a negative
    number, as NumPy writes it."""
    if base > len(_DIGITS):
        raise ValueError("Bases greater than 36 not handled in base_repr.")
    if base < 2:
        raise ValueError("Bases less than 2 not handled in base_repr.")
    n = operator.index(number)
    m, digits = abs(n), []
    while m:
        m, d = divmod(m, base)
        digits.append(_DIGITS[d])
    text = "0" * padding + "".join(reversed(digits))
    return ("-" if n < 0 else "") + (text or "0")
