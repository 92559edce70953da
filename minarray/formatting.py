"""``repr`` and ``str`` in NumPy's format: ``array([[0, 1], [2, 3]], dtype=int32)``.

Floats print like NumPy's default ("maxprec", 8 digits, unique shortest
repr, decimal points aligned); arrays with more than 1000 elements are
summarised with the first and last three entries of each axis.
"""

from __future__ import annotations

import math
from typing import Any

from minarray import dtypes as _dt
from minarray.ndarray import NDArray

__all__ = ["array_repr", "array_str"]

THRESHOLD = 1000
EDGE = 3
LINEWIDTH = 75
# dtypes NumPy leaves out of the repr
_IMPLICIT = {"float64", "int64", "bool", "complex128"}


def _float_strs(values: list[float]) -> list[str]:
    finite = [abs(v) for v in values if math.isfinite(v)]
    big = max(finite, default=0.0)
    small = min((v for v in finite if v != 0), default=0.0)
    sci = big >= 1e16 or (small and small < 1e-4) or (small and big / small > 1e3 and small < 1e-4)
    out = []
    if sci:
        mant = []
        for v in values:
            if not math.isfinite(v):
                mant.append(None)
                continue
            s = f"{v:.8e}"
            m, e = s.split("e")
            m = m.rstrip("0")
            mant.append((m, int(e)))
        frac = max((len(m.split(".")[1]) for x in mant if x for m in [x[0]]), default=0)
        for v, x in zip(values, mant):
            if x is None:
                out.append(_special(v))
            else:
                m, e = x
                ip, fp = m.split(".")
                out.append(f"{ip}.{fp.ljust(frac, '0')}e{'+' if e >= 0 else '-'}{abs(e):02d}")
        return out
    parts = []
    for v in values:
        if not math.isfinite(v):
            parts.append(None)
            continue
        s = repr(round(v, 8)) if v != int(v) else f"{v:.0f}."
        if "e" in s:
            s = f"{v:.8f}".rstrip("0")
        if "." not in s:
            s += "."
        parts.append(s)
    frac = max((len(p.split(".")[1]) for p in parts if p), default=0)
    for v, p in zip(values, parts):
        if p is None:
            out.append(_special(v))
        else:
            ip, fp = p.split(".")
            out.append(f"{ip}.{fp.ljust(frac)}" if frac else f"{ip}.")
    return out


def _special(v: float) -> str:
    if math.isnan(v):
        return "nan"
    return "inf" if v > 0 else "-inf"


def _complex_strs(values: list[complex]) -> list[str]:
    re = _float_strs([v.real for v in values])
    im = _float_strs([abs(v.imag) for v in values])
    return [f"{r}{'-' if v.imag < 0 or (v.imag == 0 and math.copysign(1, v.imag) < 0) else '+'}{i.strip()}j"
            for r, i, v in zip(re, im, values)]


def _strings(a: NDArray, values: list[Any]) -> list[str]:
    k = a.dtype.kind
    if k == "b":
        return [" True" if v else "False" for v in values] if any(not v for v in values) else ["True"] * len(values)
    if k in "iu":
        return [str(v) for v in values]
    if k == "f":
        return _float_strs(values)
    return _complex_strs(values)


def _summarised(a: NDArray) -> bool:
    return a.size > THRESHOLD


def _collect(a: NDArray, summarise: bool) -> Any:
    """Nested lists of Python values, with Ellipsis where entries are elided."""
    if a.ndim == 0:
        return a.item()
    if summarise and a.shape[0] > 2 * EDGE:
        head = [_collect(a[i], summarise) for i in range(EDGE)]
        tail = [_collect(a[i], summarise) for i in range(a.shape[0] - EDGE, a.shape[0])]
        return head + [Ellipsis] + tail
    if a.ndim == 1:
        return a.tolist()
    return [_collect(a[i], summarise) for i in range(a.shape[0])]


def _leaves(x: Any, out: list[Any]) -> None:
    if isinstance(x, list):
        for y in x:
            _leaves(y, out)
    elif x is not Ellipsis:
        out.append(x)


def _render(x: Any, strs: dict[int, str], width: int, indent: str, depth: int, ndim: int,
            counter: list[int], sep: str) -> str:
    if depth == ndim:
        s = strs[counter[0]]
        counter[0] += 1
        return s.rjust(width)
    if depth == ndim - 1:
        items = ["..." if y is Ellipsis else _render(y, strs, width, indent, depth + 1, ndim, counter, sep) for y in x]
        lines, line = [], ""
        for i, it in enumerate(items):
            piece = it + ("," if i < len(items) - 1 else "")
            if line and len(indent) + len(line) + 1 + len(piece) + 2 > LINEWIDTH:
                lines.append(line.rstrip())
                line = ""
            line += piece + sep if i < len(items) - 1 else piece
        lines.append(line)
        return "[" + ("\n" + indent + " ").join(lines) + "]"
    newlines = "\n" * (ndim - depth - 1)
    inner = []
    for y in x:
        if y is Ellipsis:
            inner.append("...")
        else:
            inner.append(_render(y, strs, width, indent + " ", depth + 1, ndim, counter, sep))
    return "[" + ("," + newlines + indent + " ").join(inner) + "]"


def _body(a: NDArray, indent: str, sep: str = " ") -> str:
    nested = _collect(a, _summarised(a))
    if a.ndim == 0:
        return _strings(a, [nested])[0].strip()
    leaves: list[Any] = []
    _leaves(nested, leaves)
    strs = _strings(a, leaves)
    width = max((len(s) for s in strs), default=0)
    return _render(nested, dict(enumerate(strs)), width, indent, 0, a.ndim, [0], sep)


def array_repr(a: NDArray) -> str:
    prefix = "array("
    if a.size == 0 and a.shape != (0,):
        body = "[]"
        return f"array({body}, shape={a.shape}, dtype={a.dtype})"
    body = _body(a, " " * len(prefix), sep=" ") if a.ndim else _body(a, "")
    if a.dtype.kind in "iu" or a.dtype.kind == "b":
        body = body.replace(" ,", ",")
    implicit = a.dtype.name in _IMPLICIT and a.size > 0
    if a.dtype is _dt.bool and a.size > 0:
        implicit = True
    if implicit:
        return f"{prefix}{body})"
    sep = ", " if "\n" not in body else ",\n" + " " * len(prefix)
    return f"{prefix}{body}{sep}dtype={a.dtype})"


def array_str(a: NDArray) -> str:
    if a.ndim == 0:
        return _body(a, "")
    return _body(a, "", sep=" ").replace(",", "")
