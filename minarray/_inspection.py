"""Inspection (Array API "Inspection"): ``__array_namespace_info__``; and
beside it NumPy's questions about arrays asked as functions: ``shape``,
``ndim`` and ``size`` (which accept anything :func:`minarray.asarray`
reads, nested lists included); and whether two arrays' memory meets,
``may_share_memory`` (their byte ranges) and ``shares_memory`` (exactly).
"""

from __future__ import annotations

import math
from typing import Any

from minarray import _dtypes as _dt
from minarray._coerce import as_ints, as_operand, normalize_axis
from minarray._dtypes import DType
from minarray._native import core
from minarray.exceptions import TooHardError

__all__ = [
    "__array_namespace_info__", "shape", "ndim", "size", "may_share_memory", "shares_memory", "isfortran",
]


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


def _shape_of(a: Any) -> tuple[int, ...]:
    s = getattr(a, "shape", None)
    if isinstance(s, tuple):
        return s
    return as_operand(a).shape


def shape(a: Any) -> tuple[int, ...]:
    """The shape of ``a`` (an array, or what asarray would make of it)."""
    return _shape_of(a)


def ndim(a: Any) -> int:
    """The number of dimensions of ``a``."""
    return len(_shape_of(a))


def size(a: Any, axis: int | tuple[int, ...] | None = None) -> int:
    """The number of elements of ``a``, or along ``axis`` (an int or a tuple
    of ints: the product of those lengths)."""
    s = _shape_of(a)
    if axis is None:
        return math.prod(s)
    axes = as_ints(axis, "size: axis")
    return math.prod(s[normalize_axis(ax, len(s))] for ax in axes)


# ---- do two arrays share memory? --------------------------------------------------
#
# NumPy's max_work: -1 (MAY_SHARE_EXACT) solves the question exactly, 0
# (MAY_SHARE_BOUNDS) compares the byte ranges only, a positive number caps
# the search.  shares_memory's default is exact, may_share_memory's bounds.
_EXACT, _BOUNDS = -1, 0


def _max_work(max_work: Any, default: int) -> int:
    if max_work is None:
        return default
    if not isinstance(max_work, int):  # NumPy takes a Python int only (not even np.int64)
        raise ValueError("max_work must be an integer")
    work = int(max_work)
    if work < -1:
        raise ValueError("Invalid value for max_work")
    return work


def may_share_memory(a: Any, b: Any, /, max_work: int | None = None) -> bool:
    """Whether ``a`` and ``b`` might share memory: by default whether the
    byte ranges their elements span intersect (a ``True`` may be wrong,
    a ``False`` never is); ``max_work=-1`` answers exactly, as
    :func:`shares_memory`."""
    work = _max_work(max_work, _BOUNDS)
    x, y = as_operand(a), as_operand(b)
    if work == _BOUNDS:
        return bool(core.may_overlap(x._h, y._h))
    return _shares(x, y, work, undecided=True)


def shares_memory(a: Any, b: Any, /, max_work: int | None = None) -> bool:
    """Whether ``a`` and ``b`` have an element's byte in common, decided
    exactly (NumPy's default, ``max_work=None``); a smaller ``max_work``
    that cannot decide raises :class:`minarray.exceptions.TooHardError`."""
    work = _max_work(max_work, _EXACT)
    return _shares(as_operand(a), as_operand(b), work, undecided=False)


def _shares(x: Any, y: Any, work: int, undecided: bool) -> bool:
    if not core.may_overlap(x._h, y._h):
        return False
    terms, rhs = _overlap_equation(x, y)
    try:
        return _solvable(terms, rhs, work if work > 0 else (0 if work == _BOUNDS else -1))
    except TooHardError:
        if undecided:
            return True
        raise


def _span(x: Any) -> tuple[int, list[tuple[int, int]]]:
    """The lowest byte address of ``x``'s elements, and per axis that moves
    (|byte stride|, steps): element addresses are low + sum(stride * i)."""
    low = int(core.data_ptr(x._h))
    steps = []
    for n, s in zip(x.shape, x.strides, strict=True):
        if s < 0:
            low += s * (n - 1)
        if n > 1 and s != 0:
            steps.append((abs(s), n - 1))
    return low, steps


def _overlap_equation(x: Any, y: Any) -> tuple[list[tuple[int, int]], int]:
    """The question as one bounded equation with positive coefficients,
    sum(c * z) == rhs with 0 <= z <= bound (the method of NumPy's
    mem_overlap.c): a byte of x's element i, low_x + sum(a*i) + u, is a
    byte of y's element j, low_y + sum(b*j) + v, with u and v within the
    item sizes.  Counting y's indices and v down from their tops turns the
    minus signs into plus signs."""
    lx, ax = _span(x)
    ly, by = _span(y)
    rhs = ly - lx + sum(c * n for c, n in by) + y.itemsize - 1
    merged: dict[int, int] = {}
    for c, n in [*ax, *by, (1, x.itemsize - 1), (1, y.itemsize - 1)]:
        merged[c] = merged.get(c, 0) + n
    return sorted(((c, n) for c, n in merged.items() if n), reverse=True), rhs


def _solvable(terms: list[tuple[int, int]], rhs: int, work: int) -> bool:
    """Is there 0 <= z_k <= n_k with sum(c_k * z_k) == rhs?  A depth-first
    search from the largest coefficient, pruned by what the remaining terms
    can reach (their sum of maxima) and by divisibility (their gcd); each
    node tried counts one unit of ``work`` (-1: no limit)."""
    k = len(terms)
    reach = [0] * (k + 1)
    gcds = [0] * (k + 1)
    for i in range(k - 1, -1, -1):
        reach[i] = reach[i + 1] + terms[i][0] * terms[i][1]
        gcds[i] = math.gcd(gcds[i + 1], terms[i][0])
    done = 0
    seen: set[tuple[int, int]] = set()

    def search(i: int, left: int) -> bool:
        nonlocal done
        if left == 0:
            return True
        if i == k or left < 0 or left > reach[i] or left % gcds[i] or (i, left) in seen:
            return False
        done += 1
        if 0 <= work < done:
            raise TooHardError("Exceeded max_work")
        seen.add((i, left))
        c, n = terms[i]
        rest = reach[i + 1]
        lo = max(0, -(-(left - rest) // c))
        hi = min(n, left // c)
        # z must leave what the later terms' gcd divides: one residue class
        g = gcds[i + 1]
        if g:
            d = math.gcd(c, g)
            step = g // d
            first = ((left // d) * pow(c // d, -1, step)) % step if step > 1 else 0
        else:
            step, first = 1, lo
        z = hi - ((hi - first) % step)
        while z >= lo:
            if search(i + 1, left - c * z):
                return True
            z -= step
        return False

    return search(0, rhs)


def isfortran(a: Any) -> bool:
    """Is the array ``a`` Fortran-contiguous and not C-contiguous (NumPy's
    ``isfortran``: an array of one dimension, contiguous both ways, is not)?"""
    return bool(a.flags.fnc)
