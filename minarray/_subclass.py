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
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar, cast

from minarray import _dtypes as _dt
from minarray._native import core

if TYPE_CHECKING:
    from minarray._array_object import NDArray

    N = TypeVar("N", bound=NDArray)

R = TypeVar("R")

__all__ = [
    "call_own_method", "instance", "kept", "like", "of_inputs", "plain",
    "reduced", "retype", "through_method", "ufunc_body", "wrap",
]


def retype(result: NDArray, cls: type[N], obj: Any) -> N:
    """``result`` as an instance of ``cls`` (a view of all of it), finalized
    from ``obj`` as NumPy finalizes a new array of a subclass.  A class
    with a ``_finalized_shape(shape)`` (the matrix: always 2-d) gets its
    instances in the shape it names, size-1 axes added or dropped, where
    NumPy's ``__array_finalize__`` would set ``self.shape``."""
    shaped = getattr(cls, "_finalized_shape", None)
    if shaped is not None:
        shape = shaped(result.shape)
        if shape != result.shape:
            result = core.ndarray_view_as(result, _plain_class()).reshape(shape)
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


def _winner(inputs: Any) -> Any:
    """The input NumPy gives the result's type to: among the instances of
    subclasses (not minarray's scalars), the one with the highest
    ``__array_priority__``, the first on ties; None when there is none."""
    plain = _plain_class()
    winner, best = None, 0.0
    for x in inputs:
        if isinstance(x, plain) and type(x) is not plain and type(x) is not _dt.scalar_class:
            priority = float(getattr(x, "__array_priority__", 0.0))
            if winner is None or priority > best:
                winner, best = x, priority
    return winner


# Functions that run on C's elementwise path but are not ufuncs in NumPy:
# they give plain arrays (np.where(cond, sub, y) is an ndarray).
_NOT_UFUNCS = frozenset({"where"})


def wrap(result: NDArray, name: str, *inputs: Any) -> Any:
    """The result of the elementwise function ``name`` on ``inputs``, one of
    them an instance of a subclass: that input's ``__array_wrap__`` makes it,
    with NumPy's context ``(function, inputs, output index)``."""
    if name in _NOT_UFUNCS:
        return result
    winner = _winner(inputs)
    if winner is None:
        return result
    context = (getattr(sys.modules.get("minarray"), name, None), inputs, 0)
    return winner.__array_wrap__(result, context, False)


def reduced(result: NDArray, x: Any) -> Any:
    """A reduction's ``result`` over ``x``, an instance of a subclass:
    ``x.__array_wrap__`` makes it (no context; "return_scalar" for a 0-d
    result), as NumPy's ``np.sum(sub)`` calls ``sub.sum()``."""
    return x.__array_wrap__(result, None, result.ndim == 0)


# ---- module functions whose NumPy version keeps the subclass -------------
# NumPy's np.sort(sub), np.take(sub, ...), np.cumsum(sub)... call the
# instance's method (fromnumeric's _wrapfunc), and np.diff, np.median,
# np.tile... compute on np.asanyarray(sub): either way the result is of the
# subclass.  minarray's functions check ``type(x) is NDArray`` first (the
# plain array's path pays nothing more) and hand an instance of a subclass
# here: the function runs on a plain view of it, and its result is retyped.


def _plain_class() -> type[NDArray]:
    cls: type[NDArray] = _dt.scalar_class.__mro__[1]  # minarray's scalar derives from NDArray directly
    return cls


def instance(x: Any) -> bool:
    """Whether ``x`` is an instance of a subclass of NDArray (minarray's
    scalar class aside)."""
    t = type(x)
    return isinstance(x, core.NDArrayBase) and t is not _dt.scalar_class and t is not _plain_class()


def plain(x: Any) -> Any:
    """``x`` as a plain NDArray (a view) when it is an instance of a
    subclass; anything else as it is."""
    return core.ndarray_view_as(x, _plain_class()) if instance(x) else x


def kept(out: R, x: NDArray, zero_d: bool = False) -> R:
    """``out`` (an array, or a tuple or list of them) of ``x``'s type;
    with ``zero_d``, a 0-d result as a 0-d instance (NumPy's functions
    built from ufuncs on asanyarray(x)), else as a scalar (its methods,
    which return PyArray_Return's scalar)."""
    made: Any = out
    if isinstance(made, (tuple, list)):
        return type(made)(kept(o, x, zero_d) for o in made)  # type: ignore[return-value]
    if type(made) is _dt.scalar_class:
        if not zero_d:
            return out
        made = core.ndarray_copy(made, None)
    elif type(made) is not _plain_class():
        return out
    elif not zero_d and made.ndim == 0:
        return core.scalar_result(out)
    return cast("R", retype(made, type(x), x))


def through_method(fn: Callable[..., R], x: NDArray, *args: Any, zero_d: bool = False, **kwargs: Any) -> R:
    """``fn(x, *args, **kwargs)`` for ``x`` an instance of a subclass, as
    NumPy's function gives it: computed on a plain view of ``x``, the
    result of ``x``'s type, finalized from ``x``; given ``out=``, ``out``
    itself.  ``zero_d``: a 0-d result is a 0-d instance, not a scalar."""
    out = fn(core.ndarray_view_as(x, _plain_class()), *args, **kwargs)
    if kwargs.get("out") is not None:
        return out
    return kept(out, x, zero_d)


def of_inputs(fn: Callable[..., R], *arrays: Any, zero_d: bool = False, **kwargs: Any) -> R:
    """``fn(*arrays, **kwargs)`` with arrays among them instances of
    subclasses (np.dot, np.matmul, np.inner...): computed on plain views,
    the result of the type of the input NumPy picks (:func:`_winner`)."""
    out = fn(*(plain(a) for a in arrays), **kwargs)
    winner = _winner(arrays)
    if winner is None or kwargs.get("out") is not None:
        return out
    return kept(out, winner, zero_d)


def ufunc_body(impl: Any, name: str, inputs: Any) -> Any:
    """A ufunc minarray composes in Python (fmax, heaviside...) on
    ``inputs``, one an instance of a subclass: its body runs on plain
    views, and each result goes to :func:`wrap`, as the engine's do."""
    out = impl(*(plain(x) for x in inputs))
    if isinstance(out, tuple):
        return tuple(wrap(o, name, *inputs) for o in out)
    return wrap(out, name, *inputs)


def call_own_method(x: Any, name: str, always: dict[str, Any], **optional: tuple[Any, Any]) -> Any:
    """NumPy's np.sum(sub), np.max(sub)... call ``sub.sum(...)``: when the
    class of ``x`` (an instance of a subclass) overrides NDArray's method
    ``name`` (the matrix's reductions do), that method's result, called
    with ``always`` and each ``optional`` keyword ``(value, default)``
    given a value other than its default, as NumPy passes them; else
    NotImplemented (NDArray's own method, the function itself, does)."""
    if not instance(x) or getattr(type(x), name, None) is getattr(_plain_class(), name):
        return NotImplemented
    kwargs = dict(always)
    kwargs.update({k: v for k, (v, default) in optional.items() if v is not default})
    return getattr(x, name)(**kwargs)
