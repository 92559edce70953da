"""One floating-point value as decimal text, as NumPy's Dragon4 writes it:
``format_float_positional`` and ``format_float_scientific``, and the
helpers the array printer builds on.

Dragon4 in ``unique`` mode prints the shortest digits that read back to the
same value *in the value's own type* (float16, bfloat16, float32 or
float64).  For float64 these are Python's ``repr``; for the narrower types
they are found by rounding the exact value to 1, 2, ... significant digits
until the text reads back (a binary search: at most 9 digits for float32).
Where a ``precision`` cuts the digits short, or ``min_digits`` asks for
more, Dragon4 rounds the exact binary value at that place, half to even:
that is exactly what Python's ``format(x, ".Nf")``/``".Ne"`` does, since a
narrower float's value is exact in a Python float.
"""

from __future__ import annotations

import functools
import math
import operator
import struct
from array import array
from collections.abc import Callable
from decimal import Decimal
from typing import Any

__all__ = ["format_float_positional", "format_float_scientific"]


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


# a Python float rounded to each type (round to nearest even)
ROUND: dict[str, Callable[[float], float]] = {
    "float16": _to_float16, "bfloat16": _to_bfloat16, "float32": _to_float32, "float64": float,
}

# the most significant digits a shortest round-trip text of the type needs
_MAX_DIGITS = {"float16": 5, "bfloat16": 4, "float32": 9}


def parse_decimal(text: str) -> tuple[str, int]:
    """The significant digits (no leading or trailing zeros; "0" for zero)
    and the decimal exponent of the first of them, of a non-negative decimal
    text as ``repr`` or ``format(x, "e")`` write it: "0.0125" -> ("125",
    -2), "1.5e+03" -> ("15", 3), "100.0" -> ("1", 2)."""
    mant, _, e = text.partition("e")
    exp = int(e) if e else 0
    ip, _, fp = mant.partition(".")
    ip = ip.lstrip("0")
    if ip:
        return (ip + fp).rstrip("0"), exp + len(ip) - 1
    digits = fp.lstrip("0")
    if not digits:
        return "0", 0
    return digits.rstrip("0"), exp - (len(fp) - len(digits)) - 1


def _narrow_shortest(a: float, ftype: str) -> str:
    rnd = ROUND[ftype]
    lo, hi = 0, _MAX_DIGITS[ftype] - 1  # fractional digits of the mantissa
    best = f"{a:.{hi}e}"
    while lo <= hi:
        mid = (lo + hi) // 2
        s = f"{a:.{mid}e}"
        if rnd(float(s)) == a:
            best, hi = s, mid - 1
        else:
            lo = mid + 1
    return best


@functools.lru_cache(maxsize=4096)
def _narrow_digits(a: float, ftype: str) -> tuple[str, int]:
    return parse_decimal(_narrow_shortest(a, ftype))


def shortest(a: float, ftype: str) -> tuple[str, int]:
    """Digits and exponent of the shortest text that reads back as the
    finite ``a >= 0`` in ``ftype``."""
    if ftype == "float64":
        return parse_decimal(repr(a))
    return _narrow_digits(a, ftype)


def positional_all(values: list[float], ftype: str, precision: int, sign: bool) -> list[str]:
    """``positional(v, ftype, precision, trim=".", sign=sign)`` for each
    finite ``v``: the array printer's first pass, in one loop.  A float64
    whose spacing (its ulp) is below the last place kept has its shortest
    digits, if they fit, equal to the value rounded there, so ``format``
    alone writes it; the narrower types' shortest digits come in one batch."""
    if precision < 0:
        return [positional(v, ftype, precision, trim=".", sign=sign) for v in values]
    unit = 10.0 ** -precision
    known = None if ftype == "float64" else shortest_all(values, ftype)
    out = []
    for i, v in enumerate(values):
        if known is not None:
            digits, exp = known[i]
            fits = len(digits) - 1 - exp <= precision
        else:
            fits = False
            if math.ulp(v) >= unit:
                out.append(positional(v, ftype, precision, trim=".", sign=sign))
                continue
        if fits:
            whole, frac = layout(digits, exp)
            s = ("-" if math.copysign(1.0, v) < 0 else "") + whole + "." + frac
        else:  # the value rounded at the last place kept, trailing zeros trimmed
            s = f"{v:.{precision}f}".rstrip("0") if precision else f"{v:.0f}."
        out.append("+" + s if sign and s[0] != "-" else s)
    return out


def scientific_all(values: list[float], ftype: str, precision: int, sign: bool) -> list[str]:
    """``scientific(v, ftype, precision, trim=".", sign=sign)`` for each
    finite ``v``, in one loop as `positional_all`."""
    if precision < 0:
        return [scientific(v, ftype, precision, trim=".", sign=sign) for v in values]
    known = None if ftype == "float64" else shortest_all(values, ftype)
    out = []
    for i, v in enumerate(values):
        if known is not None:
            digits, exp10 = known[i]
            if len(digits) - 1 <= precision:
                mant = digits[0] + "." + digits[1:]
                s = f"{'-' if math.copysign(1.0, v) < 0 else ''}{mant}e{exp10:+03d}"
                out.append("+" + s if sign and s[0] != "-" else s)
                continue
        s = f"{v:.{precision}e}"
        mant, _, exp = s.partition("e")
        if known is None and math.ulp(v) >= 10.0 ** (int(exp) - precision):
            out.append(scientific(v, ftype, precision, trim=".", sign=sign))
            continue
        s = (mant.rstrip("0") if precision else mant + ".") + "e" + exp
        out.append("+" + s if sign and s[0] != "-" else s)
    return out


def _all_read_back(mags: list[float], p: int) -> bool:
    """Whether each of ``mags`` (finite float32 magnitudes) reads back as
    itself from its text with ``p`` fraction digits; checked in blocks, the
    reads through ``array('f')``, so that the first failure ends it early."""
    for start in range(0, len(mags), 256):
        block = mags[start:start + 256]
        if array("f", [float(f"{m:.{p}e}") for m in block]).tolist() != block:
            return False
    return True


def scientific_all_padded(values: list[float], ftype: str, precision: int, sign: bool) -> list[str] | None:
    """The array printer's scientific texts of finite float32 ``values`` in
    unique mode: each value rounded to as many digits as the longest of
    their shortest texts has (Dragon4's ``min_digits``, which the printer
    sets to that length), one ``format`` a value.  Only that length is
    searched, not each value's: a binary search over the fraction digits
    (8 always read back), each step ended by the first value that does
    not read back.  None for the other types, or when that length passes
    ``precision`` (some texts are then cut at ``precision``: the caller
    takes `scientific_all`)."""
    if ftype != "float32":
        return None
    mags = [abs(v) for v in values if v]
    lo, hi = 0, 8
    while lo < hi:
        mid = (lo + hi) // 2
        if _all_read_back(mags, mid):
            hi = mid
        else:
            lo = mid + 1
    if 0 <= precision < lo:
        return None
    if lo == 0:  # NumPy keeps the point: "1.e+00"
        texts = [f"{v:.0e}".replace("e", ".e") for v in values]
    else:
        texts = [f"{v:.{lo}e}" for v in values]
    if sign:
        texts = [t if t[0] == "-" else "+" + t for t in texts]
    return texts


def _float32_trials(mags: list[float], todo: list[int], p: int) -> tuple[list[int], list[int], list[str]]:
    """The values of ``todo`` whose ``p``-digit mantissa reads back as the
    float32 they are, those whose does not, and the texts tried; the reads
    go through ``array('f')``'s C conversion in one call."""
    cands = [f"{mags[i]:.{p}e}" for i in todo]
    back = array("f", [float(c) for c in cands]).tolist()
    ok: list[int] = []
    failed: list[int] = []
    for i, f in zip(todo, back, strict=True):
        (ok if f == mags[i] else failed).append(i)
    return ok, failed, cands


def shortest_all(values: list[float], ftype: str) -> list[tuple[str, int]]:
    """``shortest(abs(v), ftype)`` of each finite ``v``.  For float32 the
    round trips are batched, one call for all the values at one length:
    first 7 significant digits, then 8 for those that need more (9 always
    do), and fewer, down to 1, for those 7 was enough for."""
    if ftype != "float32":
        return [shortest(abs(v), ftype) for v in values]
    mags = [abs(v) for v in values]
    best: list[str] = [""] * len(mags)
    ok, failed, cands = _float32_trials(mags, list(range(len(mags))), 6)
    text = dict(zip(range(len(mags)), cands, strict=True))
    for i in ok:
        best[i] = text[i]
    if failed:
        _, most, cands = _float32_trials(mags, failed, 7)
        for i, c in zip(failed, cands, strict=True):
            best[i] = c
        for i in most:
            best[i] = f"{mags[i]:.8e}"
    for p in range(5, -1, -1):
        if not ok:
            break
        todo = ok
        ok, _, cands = _float32_trials(mags, todo, p)
        text = dict(zip(todo, cands, strict=True))
        for i in ok:
            best[i] = text[i]
    out = []
    for t in best:  # "d.ddde±XX": its digits and exponent
        mant, _, exp = t.partition("e")
        out.append(((mant[0] + mant[2:]).rstrip("0") or "0", int(exp)))
    return out


def _sign(x: float, sign: bool) -> str:
    if math.copysign(1.0, x) < 0:
        return "-"
    return "+" if sign else ""


def _finish(whole: str, frac: str, *, unique: bool, precision: int, trim: str, desired: int,
            min_frac: int) -> str:
    """Dragon4's trimming of the fraction digits: ``trim`` 'k' keeps them
    (and pads exact-mode digits with zeros to ``desired`` fraction digits),
    '.' drops trailing zeros, '0' keeps one zero after the point, '-' drops
    the point too when nothing follows it.  A unique-mode text is padded
    with zeros to ``min_frac`` fraction digits (the zeros a carry dropped)."""
    if unique and min_frac > len(frac):
        frac = frac.ljust(min_frac, "0")
    if trim == "0" and not frac:
        frac = "0"
    elif trim == "k" and not unique and desired > len(frac):
        frac = frac.ljust(desired, "0")
    if precision >= 0 and trim != "k" and frac:
        frac = frac.rstrip("0")
        if not frac and trim == "0":
            frac = "0"
    if trim == "-" and not frac:
        return whole
    return whole + "." + frac


def positional(x: float, ftype: str, precision: int = -1, *, unique: bool = True, fractional: bool = True,
               trim: str = "k", sign: bool = False, pad_left: int = -1, pad_right: int = -1,
               min_digits: int = -1, known: tuple[str, int] | None = None) -> str:
    """Dragon4 positional (NumPy's ``dragon4_positional``); the arguments
    are already checked, -1 stands for None; ``known``: ``shortest(|x|)``
    if the caller has it."""
    if not unique and precision < 0:
        raise TypeError("in non-unique mode `precision` must be supplied")
    if not math.isfinite(x):
        return _nonfinite(x, sign)
    a = abs(x)
    if fractional:
        whole, frac = _positional_fractional(a, ftype, precision, unique, min_digits, known)
    else:
        whole, frac = _positional_significant(a, ftype, precision, unique, min_digits)
    desired = precision if fractional else precision - len(whole)
    text = _finish(whole, frac, unique=unique, precision=precision, trim=trim, desired=desired,
                   min_frac=min_digits if fractional else -1)
    head, dot, tail = text.partition(".")
    head = (_sign(x, sign) + head).rjust(pad_left) if pad_left > 0 else _sign(x, sign) + head
    if pad_right > len(tail):
        tail = tail.ljust(pad_right)
    return head + dot + tail


def _split_fixed(text: str) -> tuple[str, str]:
    whole, _, frac = text.partition(".")
    return whole, frac


def _cut(a: float, text: str, *, unique: bool = False) -> str:
    """``text``, ``a`` rounded at a cutoff by ``format``, as Dragon4
    leaves it: a carry out of rounding up drops the zeros it leaves, and in
    exact mode the digits stop where the value ends, so trailing zeros stay
    only where ``a`` was rounded down (or, in unique mode, is exact)."""
    mant, e, exp = text.partition("e")
    if "." not in mant or not mant.endswith("0"):
        return text
    rounded, exact = Decimal(text), Decimal(a)
    if rounded < exact or (unique and rounded == exact):
        return text
    return mant.rstrip("0") + e + exp


def _positional_fractional(a: float, ftype: str, precision: int, unique: bool,
                           min_digits: int, known: tuple[str, int] | None) -> tuple[str, str]:
    if not unique:
        return _split_fixed(_cut(a, f"{a:.{precision}f}"))
    digits, exp = known or shortest(a, ftype)
    # (negative where the shortest digits stop above the units: min_digits=0
    # then asks for the integer part's own digits, as Dragon4's does)
    nfrac = len(digits) - 1 - exp
    if 0 <= precision < nfrac:
        return _split_fixed(_cut(a, f"{a:.{precision}f}"))
    if min_digits >= 0 and min_digits > nfrac:
        return _split_fixed(f"{a:.{min_digits}f}")
    return layout(digits, exp)


def layout(digits: str, exp: int) -> tuple[str, str]:
    """Significant digits and exponent written out: (whole, fraction)."""
    if exp >= 0:
        return digits[:exp + 1].ljust(exp + 1, "0"), digits[exp + 1:]
    return "0", "0" * (-exp - 1) + digits


def _positional_significant(a: float, ftype: str, precision: int, unique: bool,
                            min_digits: int) -> tuple[str, str]:
    """``fractional=False``: precision and min_digits count significant digits."""
    if not unique:
        return _layout_kept(_cut(a, f"{a:.{precision - 1}e}"))
    digits, exp = shortest(a, ftype)
    if 0 <= precision < len(digits):
        return _layout_kept(_cut(a, f"{a:.{precision - 1}e}"))
    if min_digits > len(digits):
        # unique mode generates digits on past the value's end, up to min_digits
        whole, frac = _layout_kept(_cut(a, f"{a:.{min_digits - 1}e}", unique=True))
        return whole, frac.ljust(min_digits - len(whole), "0")
    return layout(digits, exp)


def _layout_kept(sci: str) -> tuple[str, str]:
    """A ``format(x, "e")`` text written out positionally, its trailing
    zeros kept as digits."""
    mant, _, e = sci.partition("e")
    digits = mant.replace(".", "")
    if not digits.strip("0"):
        return "0", digits[1:]
    return layout(digits, int(e))


def scientific(x: float, ftype: str, precision: int = -1, *, unique: bool = True, trim: str = "k",
               sign: bool = False, pad_left: int = -1, exp_digits: int = -1, min_digits: int = -1,
               known: tuple[str, int] | None = None) -> str:
    """Dragon4 scientific (NumPy's ``dragon4_scientific``); the arguments
    are already checked, -1 stands for None; ``known`` as for `positional`."""
    if not unique and precision < 0:
        raise TypeError("in non-unique mode `precision` must be supplied")
    if not math.isfinite(x):
        return _nonfinite(x, sign)
    a = abs(x)
    if not unique:
        mant, exp = _kept(_cut(a, f"{a:.{precision}e}"))
    else:
        digits, exp = known or shortest(a, ftype)
        if 0 <= precision < len(digits) - 1:
            mant, exp = _kept(_cut(a, f"{a:.{precision}e}"))
        elif min_digits > len(digits) - 1:
            mant, exp = _kept(f"{a:.{min_digits}e}")
        else:
            mant = digits
    # the scientific form leaves its point out only where one digit was written
    text = _finish(mant[0], mant[1:], unique=unique, precision=precision,
                   trim="." if trim == "-" and len(mant) > 1 else trim,
                   desired=precision,
                   min_frac=min_digits)
    head = _sign(x, sign) + text[0]
    if pad_left > len(head):
        head = head.rjust(pad_left)
    exp_text = str(abs(exp)).rjust(max(exp_digits, 2) if exp_digits < 0 else exp_digits, "0")
    return f"{head}{text[1:]}e{'-' if exp < 0 else '+'}{exp_text}"


def _kept(sci: str) -> tuple[str, int]:
    """Mantissa digits (trailing zeros kept) and exponent of a
    ``format(x, "e")`` text."""
    mant, _, e = sci.partition("e")
    return mant.replace(".", ""), int(e)


def _nonfinite(x: float, sign: bool) -> str:
    if math.isnan(x):
        return "nan"
    return "-inf" if x < 0 else ("+inf" if sign else "inf")


def non_negative(value: Any, name: str) -> int:
    """An optional count as Dragon4 takes it: -1 for None, else >= 0."""
    if value is None:
        return -1
    if value < 0:
        raise ValueError(f"{name} must be >= 0")
    return operator.index(value)


def _float_type(x: Any) -> tuple[float, str]:
    """The value and its float type: a minarray 0-d array or NumPy scalar
    formats in its own dtype, a Python number as float64."""
    dtype = getattr(x, "dtype", None)
    name = getattr(dtype, "name", "float64")
    if name not in ROUND:
        if getattr(dtype, "kind", "f") != "f":
            raise TypeError("not a float")
        name = "float32"  # the narrow storage floats are exact in float32
    return float(x), name


def format_float_positional(x: Any, precision: int | None = None, unique: bool = True, fractional: bool = True,
                            trim: str = "k", sign: bool = False, pad_left: int | None = None,
                            pad_right: int | None = None, min_digits: int | None = None) -> str:
    """A float as positional decimal text, rounded and trimmed as NumPy's
    ``format_float_positional`` (Dragon4) does: with ``unique`` the
    shortest digits that identify the value in its own float type."""
    p = non_negative(precision, "precision")
    left = non_negative(pad_left, "pad_left")
    right = non_negative(pad_right, "pad_right")
    md = non_negative(min_digits, "min_digits")
    if not fractional and p == 0:
        raise ValueError("precision must be greater than 0 if fractional=False")
    if md > 0 and p > 0 and md > p:
        raise ValueError("min_digits must be less than or equal to precision")
    _check_trim(trim)
    value, ftype = _float_type(x)
    return positional(value, ftype, p, unique=unique, fractional=fractional, trim=trim, sign=sign,
                      pad_left=left, pad_right=right, min_digits=md)


def format_float_scientific(x: Any, precision: int | None = None, unique: bool = True, trim: str = "k",
                            sign: bool = False, pad_left: int | None = None, exp_digits: int | None = None,
                            min_digits: int | None = None) -> str:
    """A float as scientific decimal text (``d.ddde+XX``), rounded and
    trimmed as NumPy's ``format_float_scientific`` (Dragon4) does."""
    p = non_negative(precision, "precision")
    left = non_negative(pad_left, "pad_left")
    ed = non_negative(exp_digits, "exp_digits")
    md = non_negative(min_digits, "min_digits")
    if md > 0 and p > 0 and md > p:
        raise ValueError("min_digits must be less than or equal to precision")
    _check_trim(trim)
    value, ftype = _float_type(x)
    return scientific(value, ftype, p, unique=unique, trim=trim, sign=sign, pad_left=left, exp_digits=ed,
                      min_digits=md)


def _check_trim(trim: str) -> None:
    if trim not in ("k", ".", "0", "-"):
        raise ValueError("if supplied, trim must be 'k', '.', '0' or '-'")


# NumPy's scalar str turns scientific from this magnitude on (measured on
# NumPy 2.4; bfloat16 follows float16)
_SCALAR_SCI_FROM = {"float16": 1e3, "bfloat16": 1e3, "float32": 1e6, "float64": 1e16}


def scalar_text(v: float, ftype: str, pre_2_3: bool = False) -> str:
    """NumPy's scalar str: shortest round-trip digits, positional with at
    least ``.0`` when 1e-4 <= |v| < a dtype-dependent bound (1e16 for
    float64, as Python's repr, and for every type before NumPy 2.3),
    scientific otherwise."""
    if not math.isfinite(v) or ftype == "float64":
        return repr(v)
    a = abs(v)
    digits, exp = shortest(a, ftype)
    sign = "-" if math.copysign(1.0, v) < 0 else ""
    if a == 0 or 1e-4 <= a < (1e16 if pre_2_3 else _SCALAR_SCI_FROM[ftype]):
        whole, frac = layout(digits, exp)
        return f"{sign}{whole}.{frac or '0'}"
    mant = digits[0] + ("." + digits[1:] if len(digits) > 1 else "")
    return f"{sign}{mant}e{exp:+03d}"
