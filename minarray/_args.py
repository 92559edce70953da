"""Integer arguments: the one rule every public function applies to a count,
an offset, an axis, a shape entry... (NumPy's, ``operator.index``).

Python ints, bools, NumPy integers and 0-d integer arrays pass; a float
raises TypeError even when its value is whole (``2.0``, ``np.float64(2)``),
as NumPy's ``PyArray_PyIntAsIntp`` does, rather than being truncated.
This module imports nothing from minarray, so every layer can use it.
"""

from __future__ import annotations

import operator
from typing import Any

__all__ = ["as_int", "as_intp", "as_ints"]


def as_int(value: Any, what: str) -> int:
    """``value`` as a Python int, or TypeError naming the parameter ``what``
    and the type given."""
    try:
        return operator.index(value)
    except TypeError:
        shown = repr(value)
        got = f" (got {shown})" if len(shown) <= 40 else ""
        raise TypeError(f"{what} must be an integer: '{type(value).__name__}' object cannot be interpreted as an "
                        f"integer{got}") from None


def as_intp(value: Any, what: str) -> int:
    """An integer parameter NumPy converts to a C ``npy_intp`` (a count, a
    number of repetitions, a byte offset): as :func:`as_int`, and
    OverflowError, as NumPy's, when it does not fit in 64 bits."""
    v = as_int(value, what)
    if not -(2**63) <= v < 2**63:
        raise OverflowError(f"{what} {v} does not fit in a 64-bit integer")
    return v


def as_ints(values: Any, what: str) -> tuple[int, ...]:
    """A single integer or a sequence of them (a shape, a tuple of axes) as a
    tuple of Python ints."""
    if isinstance(values, (tuple, list)):
        return tuple(as_int(v, what) for v in values)
    return (as_int(values, what),)
