"""Subclasses of NDArray: the one place that decides a result's type.

NumPy code subclasses its array (``class InfoArray(np.ndarray)``, made by
``np.asarray(x).view(InfoArray)``) and expects every view, copy and
operation result of an instance to be an instance too, with the
attributes its ``__array_finalize__`` copies over.  minarray's C paths make
plain NDArrays; when an input's type is not NDArray itself (one pointer
compare, csrc/py/ndarray.c ``MA_RESULT_LIKE``), they hand the result here.
NumPy's protocol, as its "Subclassing ndarray" guide describes it:

- a view, slice or copy of ``obj`` is of ``type(obj)``, and
  ``new.__array_finalize__(obj)`` is called on it (:func:`like`);
- the result of an elementwise function or operator goes to the
  ``__array_wrap__(result, context, return_scalar)`` of the input with the
  highest ``__array_priority__`` (the first on ties) among the instances
  of subclasses; NDArray's own ``__array_wrap__`` makes it of that input's
  type and finalizes it from that input (:func:`wrap`).

This module imports nothing from the package but the compiled core and
the dtypes, so the floor (``_array_object``) can register it.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any, TypeVar

from minarray import _dtypes as _dt
from minarray._native import core

if TYPE_CHECKING:
    from minarray._array_object import NDArray

    N = TypeVar("N", bound=NDArray)

__all__ = ["like", "reduced", "retype", "wrap"]


def retype(result: NDArray, cls: type[N], obj: Any) -> N:
    """``result`` as an instance of ``cls`` (a view of all of it), finalized
    from ``obj`` as NumPy finalizes a new array of a subclass."""
    new = core.ndarray_view_as(result, cls)
    new.__array_finalize__(obj)
    return new


def like(obj: NDArray, result: NDArray) -> NDArray:
    """``result``, made from ``obj`` (a view of it, a copy), of ``obj``'s
    type; made from a scalar, a scalar when 0-d and an array otherwise, as
    NumPy's scalar methods return."""
    if type(obj) is _dt.scalar_class:
        made: NDArray = core.scalar_result(result)
        return made
    return retype(result, type(obj), obj)


def _winner(result: NDArray, inputs: Any) -> Any:
    """The input NumPy gives the result's type to: among the instances of
    subclasses (not minarray's scalars), the one with the highest
    ``__array_priority__``, the first on ties; None when there is none."""
    plain = type(result)
    winner, best = None, 0.0
    for x in inputs:
        if isinstance(x, plain) and type(x) is not plain and type(x) is not _dt.scalar_class:
            priority = float(getattr(x, "__array_priority__", 0.0))
            if winner is None or priority > best:
                winner, best = x, priority
    return winner


def wrap(result: NDArray, name: str, *inputs: Any) -> Any:
    """The result of the elementwise function ``name`` on ``inputs``, one of
    them an instance of a subclass: that input's ``__array_wrap__`` makes it,
    with NumPy's context ``(function, inputs, output index)``."""
    winner = _winner(result, inputs)
    if winner is None:
        return result
    context = (getattr(sys.modules.get("minarray"), name, None), inputs, 0)
    return winner.__array_wrap__(result, context, False)


def reduced(result: NDArray, x: Any) -> Any:
    """A reduction's ``result`` over ``x``, an instance of a subclass:
    ``x.__array_wrap__`` makes it (no context; "return_scalar" for a 0-d
    result), as NumPy's ``np.sum(sub)`` calls ``sub.sum()``."""
    return x.__array_wrap__(result, None, result.ndim == 0)
