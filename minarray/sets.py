"""Set functions (Array API "Set Functions"): the unique_* family.

One C pass (csrc/py/sort.c ``unique``) sorts the flattened elements stably and
groups them, giving every result at once.  Following the standard, each
NaN is distinct (NaN != NaN) and -0.0 equals 0.0; values come out sorted
with NaNs last, as NumPy's.  ``inverse_indices`` has the input's shape.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from minarray._native import core
from minarray.creation import as_operand
from minarray.ndarray import NDArray, c_strides

__all__ = ["unique_all", "unique_counts", "unique_inverse", "unique_values"]


class UniqueAllResult(NamedTuple):
    values: NDArray
    indices: NDArray
    inverse_indices: NDArray
    counts: NDArray


class UniqueCountsResult(NamedTuple):
    values: NDArray
    counts: NDArray


class UniqueInverseResult(NamedTuple):
    values: NDArray
    inverse_indices: NDArray


def _unique(x: Any) -> UniqueAllResult:
    x = as_operand(x)
    if x.dtype.kind == "c":
        raise TypeError(f"unique_* is not defined for complex dtypes ({x.dtype}): complex numbers are unordered")
    n, hv, hf, hi, hc = core.unique(x._h)
    values = NDArray._new(hv, (n,), (1,), None)
    first = NDArray._new(hf, (n,), (1,), None)
    counts = NDArray._new(hc, (n,), (1,), None)
    inverse = NDArray._new(hi, x.shape, c_strides(x.shape), None)
    return UniqueAllResult(values, first, inverse, counts)


def unique_all(x: NDArray, /) -> UniqueAllResult:
    """The distinct values of ``x`` (sorted, NaNs last and each distinct),
    the flat index of each one's first occurrence, each element's position
    in ``values`` (shaped like ``x``) and each value's count."""
    return _unique(x)


def unique_counts(x: NDArray, /) -> UniqueCountsResult:
    """The distinct values of ``x`` and how often each occurs."""
    r = _unique(x)
    return UniqueCountsResult(r.values, r.counts)


def unique_inverse(x: NDArray, /) -> UniqueInverseResult:
    """The distinct values of ``x`` and, for each element, its position in
    them (``values[inverse_indices]`` rebuilds ``x``)."""
    r = _unique(x)
    return UniqueInverseResult(r.values, r.inverse_indices)


def unique_values(x: NDArray, /) -> NDArray:
    """The distinct values of ``x``, sorted, each NaN kept."""
    return _unique(x).values
