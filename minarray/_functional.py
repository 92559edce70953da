"""NumPy's functional programming routines: ``vectorize`` (a Python
function applied to each element, or to each core slice of a
generalised-ufunc ``signature``), ``apply_along_axis``,
``apply_over_axes`` and ``piecewise`` (a function per region of a
condition list).

Calling the Python function once per element (or per slice) is what these
routines are; everything around the calls (broadcasting, the result's
allocation and layout) is minarray's array operations.
"""

from __future__ import annotations

import itertools
import re
import sys
from collections.abc import Callable, Iterable
from typing import Any

from minarray import _dtypes as _dt
from minarray._array_object import NDArray
from minarray._coerce import as_int, as_operand, asarray, broadcast_shapes, normalize_axis
from minarray._creation import asanyarray, empty, zeros_like
from minarray._data_type_functions import isscalar
from minarray._joining import concat
from minarray._manipulation import broadcast_arrays, broadcast_to, expand_dims, permute_dims
from minarray._scalar import Scalar
from minarray._utility import any as _any

__all__ = ["vectorize", "apply_along_axis", "apply_over_axes", "piecewise", "frompyfunc"]

# A generalised ufunc's signature, NumPy's grammar: "(m,n),(n)->(m)".
_ARGS = r"\((?:\w+(?:,\w+)*)?\)"
_SIGNATURE = re.compile(rf"^{_ARGS}(?:,{_ARGS})*->{_ARGS}(?:,{_ARGS})*$")


def _parse_signature(signature: str) -> tuple[list[tuple[str, ...]], list[tuple[str, ...]]]:
    """The core dimension names of each input and of each output."""
    text = signature.replace(" ", "")
    if not _SIGNATURE.match(text):
        raise ValueError(f"not a valid gufunc signature: {signature}")
    ins, outs = text.split("->")

    def groups(side: str) -> list[tuple[str, ...]]:
        return [tuple(filter(None, g.split(","))) for g in re.findall(r"\(([^()]*)\)", side)]

    return groups(ins), groups(outs)


class vectorize:
    """``pyfunc`` made to take arrays: called on each element of the
    broadcast arguments (as Python scalars), its results gathered into
    arrays (NumPy's ``vectorize``).  ``otypes``: the output dtypes (else
    the dtype of the first result's value, the rest cast to it);
    ``excluded``: positions or names of arguments passed as they are;
    ``signature``: a generalised ufunc's, e.g. ``"(n),(n)->()"``, when
    ``pyfunc`` takes and returns core slices (as arrays) instead of
    elements.  ``pyfunc`` is called once per element: NumPy's first call,
    on the first elements as scalars of the arrays' dtypes to find the
    output types, is made with 0-d arrays and its result kept (NumPy, unless
    ``cache=True``, calls the first elements again as Python objects)."""

    def __init__(self, pyfunc: Callable[..., Any] | None = None, otypes: Any = None, doc: str | None = None,
                 excluded: Iterable[int | str] | None = None, cache: bool = False,
                 signature: str | None = None) -> None:
        self.pyfunc = pyfunc
        self.cache = cache
        self.signature = signature
        self.excluded = set(excluded) if excluded is not None else set()
        if isinstance(otypes, str):
            otypes = list(otypes)
        self.otypes = None if otypes is None else [_dt.as_dtype(t) for t in otypes]
        self._core = _parse_signature(signature) if signature is not None else None
        self._doc = doc
        self.__doc__ = doc if doc is not None or pyfunc is None else pyfunc.__doc__

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if self.pyfunc is None:  # @vectorize(otypes=...) used as a decorator factory
            if kwargs or len(args) != 1 or not callable(args[0]):
                raise TypeError("vectorize(...) without pyfunc expects the function to wrap")
            return vectorize(args[0], otypes=self.otypes, doc=self._doc, excluded=self.excluded,
                             cache=self.cache, signature=self.signature)
        pyfunc = self.pyfunc
        # the excluded arguments are passed as they are; the others are vectorised over
        positions = [i for i in range(len(args)) if i not in self.excluded]
        names = [k for k in kwargs if k not in self.excluded]

        def func(*vals: Any) -> Any:
            full = list(args)
            for i, v in zip(positions, vals, strict=False):
                full[i] = v
            return pyfunc(*full, **{**kwargs, **dict(zip(names, vals[len(positions):], strict=True))})

        operands = [*(args[i] for i in positions), *(kwargs[k] for k in names)]
        if self._core is not None:
            return self._gufunc(func, operands)
        return self._elementwise(func, operands)

    def _elementwise(self, func: Callable[..., Any], operands: list[Any]) -> Any:
        arrays = broadcast_arrays(*(as_operand(o, "vectorize") for o in operands)) if operands else []
        shape = arrays[0].shape if arrays else ()
        if arrays and 0 in shape:
            if self.otypes is None:
                raise ValueError("cannot call `vectorize` on size 0 inputs unless `otypes` is set")
            outs = [empty(shape, dtype=t) for t in self.otypes]
            return outs[0] if len(outs) == 1 else tuple(outs)
        columns = [a.reshape((-1,)).tolist() for a in arrays]
        if self.otypes is None and arrays:
            # NumPy finds the output types by a call on the first elements as
            # its scalars (the arrays' dtypes: here 0-d arrays), the others
            # as Python objects; that first call's result is kept
            first_args = [a.reshape((-1,))[0] for a in arrays]
            results = [func(*first_args)]
            results += [func(*vals) for vals in itertools.islice(zip(*columns, strict=True), 1, None)]
        else:
            results = [func(*vals) for vals in zip(*columns, strict=True)] if arrays else [func()]
        first = results[0]
        nout = len(first) if isinstance(first, tuple) else 1
        if nout == 1 and not isinstance(first, tuple):
            outs = [self._gather(results, 0, shape)]
        else:
            if any(not isinstance(r, tuple) or len(r) != nout for r in results):
                raise ValueError(f"wrong number of outputs from pyfunc: expected {nout}")
            outs = [self._gather([r[k] for r in results], k, shape) for k in range(nout)]
        if self.otypes is not None and len(self.otypes) != len(outs):
            raise ValueError(f"Invalid number of outputs: otypes has {len(self.otypes)}, pyfunc gave {len(outs)}")
        return outs[0] if not isinstance(first, tuple) else tuple(outs)

    def _gather(self, values: list[Any], k: int, shape: tuple[int, ...]) -> NDArray:
        # NumPy's rule: the first value's dtype (or otypes'), every value cast to it
        dt = self.otypes[k] if self.otypes is not None and k < len(self.otypes) else asarray(values[0]).dtype
        return asarray(values).astype(dt, copy=False).reshape(shape)

    def _gufunc(self, func: Callable[..., Any], operands: list[Any]) -> Any:
        assert self._core is not None
        ins, outs_core = self._core
        if len(operands) != len(ins):
            raise TypeError(f"wrong number of positional arguments: expected {len(ins)}, got {len(operands)}")
        arrays = [as_operand(o, "vectorize") for o in operands]
        sizes: dict[str, int] = {}
        loops = []
        for a, core in zip(arrays, ins, strict=True):
            if a.ndim < len(core):
                raise ValueError(f"{a.ndim}-dimensional argument does not have enough dimensions for all core "
                                 f"dimensions {core!r}")
            for name, n in zip(core, a.shape[a.ndim - len(core):], strict=True):
                if sizes.setdefault(name, n) != n:
                    raise ValueError(f"inconsistent size for core dimension {name!r}: {n} vs {sizes[name]}")
            loops.append(a.shape[:a.ndim - len(core)])
        loop = broadcast_shapes(*loops)
        arrays = [broadcast_to(a, loop + a.shape[a.ndim - len(core):]) for a, core in zip(arrays, ins, strict=True)]
        results: list[NDArray] | None = None
        for index in itertools.product(*(range(n) for n in loop)):
            got = func(*(a[index] for a in arrays))
            got = (got,) if len(outs_core) == 1 else got
            if not isinstance(got, tuple) or len(got) != len(outs_core):
                raise ValueError(f"wrong number of outputs from pyfunc: expected {len(outs_core)}, "
                                 f"got {len(got) if isinstance(got, tuple) else 1}")
            values = [asarray(g) for g in got]
            for v, core in zip(values, outs_core, strict=True):
                if v.ndim != len(core):
                    raise ValueError(f"output shape {v.shape} does not match core dimensions {core!r}")
                for name, n in zip(core, v.shape, strict=True):
                    if sizes.setdefault(name, n) != n:
                        raise ValueError(f"inconsistent size for core dimension {name!r}: {n} vs {sizes[name]}")
            if results is None:
                dts = self.otypes or [v.dtype for v in values]
                results = [empty(loop + v.shape, dtype=dt) for v, dt in zip(values, dts, strict=True)]
            for r, v in zip(results, values, strict=True):
                r[index] = v
        if results is None:  # no loop iteration: an empty loop shape
            if self.otypes is None:
                raise ValueError("cannot call `vectorize` on size 0 inputs unless `otypes` is set")
            missing = {n for core in outs_core for n in core} - sizes.keys()
            if missing:
                raise ValueError("cannot call `vectorize` with a signature including new output dimensions on "
                                 "size 0 inputs")
            results = [empty(loop + tuple(sizes[n] for n in core), dtype=dt)
                       for core, dt in zip(outs_core, self.otypes, strict=True)]
        return results[0] if len(results) == 1 else tuple(results)


def apply_along_axis(func1d: Callable[..., Any], axis: int, arr: Any, *args: Any, **kwargs: Any) -> NDArray:
    """``func1d`` applied to each 1-d slice of ``arr`` along ``axis``
    (NumPy's ``apply_along_axis``): the slices' results (scalars or arrays,
    all of one shape, in the first result's dtype) replace that axis, as
    many axes as a result has."""
    a = as_operand(arr, "apply_along_axis")
    ax = normalize_axis(axis, a.ndim)
    # the slices run along the last axis of this view
    moved = permute_dims(a, (*(d for d in range(a.ndim) if d != ax), ax))
    outer = moved.shape[:-1]
    indices = itertools.product(*(range(n) for n in outer))
    first = next(indices, None)
    if first is None or 0 in outer:
        raise ValueError("Cannot apply_along_axis when any iteration dimensions are 0")
    res = asarray(func1d(moved[first], *args, **kwargs))
    buff = empty(outer + res.shape, dtype=res.dtype)
    buff[first] = res
    for index in indices:
        buff[index] = asarray(func1d(moved[index], *args, **kwargs))
    # the result's own axes go where the axis was
    n, k = buff.ndim, res.ndim
    order = (*range(ax), *range(n - k, n), *range(ax, n - k))
    return permute_dims(buff, order)


def apply_over_axes(func: Callable[..., Any], a: Any, axes: Any) -> NDArray:
    """``func(a, axis)`` applied repeatedly, once for each of ``axes``,
    each time to the previous result (NumPy's ``apply_over_axes``): a
    result with one dimension fewer gets the axis back (length 1), so the
    number of dimensions stays ``a``'s."""
    val = as_operand(a, "apply_over_axes")
    n = val.ndim
    for axis in (axes,) if asarray(axes).ndim == 0 else axes:
        ax = as_int(axis, "apply_over_axes: axes")
        ax = ax + n if ax < 0 else ax
        res = asarray(func(val, ax))
        if res.ndim != val.ndim:
            res = expand_dims(res, axis=ax)
            if res.ndim != val.ndim:
                raise ValueError("function is not returning an array of the correct shape")
        val = res
    return val


def _is_array_or_list(obj: Any) -> bool:
    """What NumPy's piecewise takes for one condition rather than a list of
    them: a list or an array (minarray's or NumPy's)."""
    if isinstance(obj, Scalar):  # minarray's scalar stands where NumPy's is no ndarray
        return False
    np = sys.modules.get("numpy")  # NumPy's arrays, if NumPy is in use at all
    return isinstance(obj, (list, NDArray)) or (np is not None and isinstance(obj, np.ndarray))


def piecewise(x: Any, condlist: Any, funclist: Any, *args: Any, **kw: Any) -> NDArray:
    """NumPy's ``piecewise``: an array like ``x`` (its shape, dtype and
    class) where each boolean condition of ``condlist`` holds, the matching
    entry of ``funclist`` applied to those elements of ``x`` (a callable,
    given ``*args`` and ``**kw`` too) or taken as the value (anything
    else).  One more function than conditions: the last is for where none
    holds.  A later condition wins where several hold; where none does and
    no extra function is given, the result is 0."""
    xa = asanyarray(x)
    n_funcs = len(funclist)
    # NumPy's undocumented reading: a lone condition (a scalar, or anything
    # but a list or an array as the first entry of an n-d x's condlist)
    # is a list of one
    if isscalar(condlist) or (not _is_array_or_list(condlist[0]) and xa.ndim != 0):
        condlist = [condlist]
    conds = asarray(condlist, dtype=_dt.bool)
    if conds.ndim == 0:
        raise TypeError("len() of unsized object")
    n = conds.shape[0]
    if n == n_funcs - 1:  # the "otherwise" condition: none of the others
        otherwise = ~_any(conds, axis=0, keepdims=True)
        conds = concat([conds, otherwise], axis=0)
        n += 1
    elif n != n_funcs:
        raise ValueError(f"with {n} condition(s), either {n} or {n + 1} functions are expected")
    y = zeros_like(xa)
    for cond, func in zip(conds, funclist, strict=False):
        if not callable(func):
            y[cond] = func
        else:
            vals = xa[cond]
            if vals.size > 0:
                y[cond] = func(vals, *args, **kw)
    return y


def frompyfunc(func: Callable[..., Any], /, nin: int, nout: int, *, identity: Any = None) -> Any:
    """NumPy's ``frompyfunc`` makes a ufunc that returns arrays of Python
    objects, which minarray does not hold: it raises TypeError, pointing to
    :class:`vectorize` (which calls a Python function per element and
    returns numbers) or to NumPy."""
    raise TypeError(f"frompyfunc returns arrays of dtype 'object': {_dt.out_of_scope('object', 'object')}; "
                    "minarray.vectorize(func, otypes=...) gives numeric results")
