"""NumPy's ufunc interface of the elementwise functions: the bodies behind
``minarray.ufunc`` (csrc/py/ufunc.c), registered with the C type once, at
import.

The C type runs a plain call (operands, and ``out=`` an NDArray) straight
through the elementwise engine; everything else comes here:

* the call with NumPy's other keywords (``where=``, ``dtype=``,
  ``casting=``, ``order=``, ``subok=``, ``signature=``, a tuple or
  positional ``out``), and operands that are not NDArrays or Python
  scalars.  This is the one place such operands are converted.  Every
  input is read, and the whole result computed, before any ``out`` is
  written, so an ``out`` that overlaps an input sees the inputs as they
  were.
* ``reduce``: the reduction kernels of ``sum``, ``prod``, ``max``,
  ``min``, ``all`` and ``any`` for ``add``, ``multiply``, ``maximum``,
  ``minimum``, ``logical_and`` and ``logical_or``; any other binary ufunc
  reduces by halving (the two halves of the axis combined by one call,
  log2(n) calls) when NumPy may reorder it, else by one call per element
  of the axis, in order.
* ``accumulate``: the scan kernels of ``cumsum``/``cumprod`` for ``add``
  and ``multiply``; one call per element of the axis for the others.
* ``outer``: one call on broadcasting views (``A[..., None, ...]``).
* ``at``: the positions the index selects, as element offsets, then one C
  loop over them (csrc/core/ew_at.c) when the op has a loop of the array's
  type; otherwise rounds of distinct positions, each one gather, op and
  scatter, as many rounds as the most repeated position.
* ``reduceat``: one ``reduce`` per slice ``indices[i]:indices[i+1]``.

This module is cross-cutting (the elementwise chapter's objects with the
reductions' kernels); its tests are tests/test_ufunc.py.
"""

from __future__ import annotations

import math
import warnings
from typing import Any

from minarray import _dtypes as _dt
from minarray import _subclass
from minarray._array_object import NDArray
from minarray._coerce import (
    as_operand,
    asarray,
    broadcast_shapes,
    normalize_axes,
    normalize_axis,
    operator_operand,
)
from minarray._creation import arange, ascontiguousarray, full
from minarray._elementwise import add, less
from minarray._elementwise import where as _select
from minarray._errstate import _user_stacklevel, errstate
from minarray._joining import concat as _concat
from minarray._manipulation import broadcast_to, copyto, moveaxis
from minarray._native import core
from minarray._set import unique
from minarray._statistical import cumprod, cumsum, max, min, prod, sum
from minarray._utility import all as _all
from minarray._utility import any as _any

__all__ = ["ufunc"]

ufunc = core.ufunc

_PY_SCALARS = (bool, int, float, complex)

_NOVALUE: Any = object()

# The reduction kernels behind reduce: (x, axes, dtype, keepdims) -> result.
_REDUCERS: dict[str, Any] = {
    "add": lambda x, axes, dtype, keepdims: sum(x, axis=axes, dtype=dtype, keepdims=keepdims),
    "multiply": lambda x, axes, dtype, keepdims: prod(x, axis=axes, dtype=dtype, keepdims=keepdims),
    "maximum": lambda x, axes, dtype, keepdims: max(_cast(x, dtype), axis=axes, keepdims=keepdims),
    "minimum": lambda x, axes, dtype, keepdims: min(_cast(x, dtype), axis=axes, keepdims=keepdims),
    "logical_and": lambda x, axes, dtype, keepdims: _all(x, axis=axes, keepdims=keepdims),
    "logical_or": lambda x, axes, dtype, keepdims: _any(x, axis=axes, keepdims=keepdims),
}

# The scan kernels behind accumulate: NumPy's add.accumulate is cumsum
# (small integers and bool accumulate in int64), multiply's cumprod.
_SCANS: dict[str, Any] = {"add": cumsum, "multiply": cumprod}

# at's ops whose result in a narrower type is the wider loop's result
# rounded (or wrapped) to it, for operands the narrower type holds exactly:
# + - * / and sqrt are correctly rounded in float64 and then in float32 or
# float16 alike; integer wrap-around commutes with + - *.
_AT_SAME_RESULT = frozenset({"add", "subtract", "multiply", "divide", "maximum", "minimum", "fmax", "fmin",
                             "bitwise_and", "bitwise_or", "bitwise_xor"})

# NumPy's logical ufuncs reduce and accumulate in bool, whatever the input.
_LOGICAL = frozenset({"logical_and", "logical_or", "logical_xor"})

# Binary ufuncs NumPy reduces over several axes at once (reorderable):
# those with an identity, and these four without one.
_REORDERABLE_WITHOUT_IDENTITY = frozenset({"maximum", "minimum", "fmax", "fmin"})


def _cast(x: NDArray, dtype: Any) -> NDArray:
    return x if dtype is None else x.astype(_dt.as_dtype(dtype), copy=False)


def _operand(x: Any) -> Any:
    """An input as the engine takes it: an NDArray or a Python scalar (weak,
    as NumPy's), anything else by the engine's own rule
    (``_coerce.operator_operand``).  Subclasses of NDArray are taken here as
    NDArrays (the C fast path sends them here first)."""
    if type(x) in _PY_SCALARS or isinstance(x, NDArray):
        return x
    r = operator_operand(x)
    if r is None:
        raise TypeError(f"expected an array or a Python scalar, got {type(x).__name__}")
    return r


def _outputs(name: str, nout: int, out: Any) -> tuple[NDArray | None, ...]:
    """``out=`` in NumPy's forms (None, an array, a tuple of nout entries)."""
    if out is None:
        return (None,) * nout
    if isinstance(out, tuple):
        if len(out) != nout:
            raise ValueError(f"The 'out' tuple must have exactly {nout} entries: one per ufunc output")
        outs = out
    elif nout == 1:
        outs = (out,)
    else:
        raise TypeError(f"'out' must be a tuple of arrays for ufunc '{name}', which has {nout} outputs")
    for o in outs:
        if o is not None and not isinstance(o, NDArray):
            raise TypeError(f"out must be a minarray NDArray, got {type(o).__name__}")
    return tuple(outs)


def _check_casting(casting: Any) -> None:
    if casting not in _dt.CASTING:
        raise ValueError(f"casting must be one of 'no', 'equiv', 'safe', 'same_kind', or 'unsafe', not {casting!r}")


def _store(name: str, r: NDArray, out: NDArray, casting: str, where: Any) -> NDArray:
    """Result ``r`` into ``out`` under ``casting``, where ``where`` holds."""
    if not _dt.casting_allows(r.dtype, out.dtype, casting):
        raise _dt.ufunc_cast_error(name, "output", r.dtype, out.dtype, casting)
    if broadcast_shapes(r.shape, out.shape) != out.shape:
        raise ValueError(f"non-broadcastable output operand with shape {out.shape} doesn't match the broadcast "
                         f"shape {broadcast_shapes(r.shape, out.shape)}")
    copyto(out, r, casting="unsafe", where=where)
    return out


def _mask(where: Any) -> Any:
    if where is True:
        return True
    w = asarray(where)
    if w.dtype is not _dt.bool:
        raise TypeError(f"Cannot cast array data from {w.dtype} to bool according to the rule 'safe'")
    return w


def _call(uf: Any, *args: Any, out: Any = None, where: Any = True, casting: str = "same_kind", order: str = "K",
          dtype: Any = None, subok: bool = True, signature: Any = None) -> Any:
    """A call of ``uf`` with NumPy's keywords (see the module's docstring)."""
    name, nin, nout = uf.__name__, uf.nin, uf.nout
    if not nin <= len(args) <= nin + nout:
        raise TypeError(f"{name}() takes from {nin} to {nin + nout} positional arguments but {len(args)} "
                        f"{'was' if len(args) == 1 else 'were'} given")
    if len(args) > nin:
        if out is not None:
            raise TypeError("cannot specify 'out' as both a positional and keyword argument")
        out = tuple(args[nin:]) + (None,) * (nin + nout - len(args))
        args = args[:nin]
    outs = _outputs(name, nout, out)
    _check_casting(casting)
    if order not in ("K", "A", "C", "F"):
        raise ValueError(f"order must be one of 'C', 'F', 'A', or 'K' (got {order!r})")
    if signature is not None:  # NumPy's signature=: here, the output's dtype
        dtype = signature[-1] if isinstance(signature, tuple) else signature
    mask = _mask(where)
    if mask is not True and all(o is None for o in outs):
        warnings.warn("'where' used without 'out', expect unitialized memory in output. If this is intentional, "
                      "use out=None.", UserWarning, stacklevel=_user_stacklevel())
    if name in ("equal", "not_equal") and (args[0] is None) != (args[1] is None):
        # every element against the object None: the engine answers all
        # False (all True) in the array's shape, as NumPy's object loop does
        xs = [x if x is None or isinstance(x, NDArray) else asarray(x) for x in args]
    else:
        xs = [_operand(x) for x in args]
    if dtype is not None:
        xs = _inputs_as(name, xs, _dt.as_dtype(dtype), casting)
    elif casting in ("no", "equiv", "safe"):
        _check_inputs(name, xs, casting)
    op, impl, _sig = core.ufunc_fields(uf)
    if nout == 1 and mask is True and casting == "same_kind" and outs[0] is not None and op >= 0:
        # the engine reads every input before it writes out (overlap snapshots)
        return core.ew_call(op, outs[0], *xs)
    if mask is True:
        r = _compute(name, op, impl, xs)
    else:
        # NumPy never computes the elements where= leaves out, so only the
        # selected ones may warn (sqrt(x, where=x >= 0)): the whole result
        # quietly, then the selected elements again for their reports.
        with errstate(all="ignore"):
            r = _compute(name, op, impl, xs)
        shape = broadcast_shapes(mask.shape, *(x.shape for x in xs if isinstance(x, NDArray)))
        chosen = broadcast_to(mask, shape)
        _compute(name, op, impl, [broadcast_to(x, shape)[chosen] if isinstance(x, NDArray) else x for x in xs])
    results = (r,) if nout == 1 else tuple(r)
    if dtype is not None and any(res.dtype is not _dt.as_dtype(dtype) for res in results):
        raise TypeError(f"No loop matching the specified signature and casting was found for ufunc {name}")
    done = tuple(res if o is None else _store(name, res, o, casting, mask)
                 for res, o in zip(results, outs, strict=True))
    return done[0] if nout == 1 else done


def _compute(name: str, op: int, impl: Any, xs: list[Any]) -> Any:
    """The ufunc's result(s) for the inputs ``xs``, by the engine's op or
    the Python body."""
    if op >= 0 or impl is None:
        return core.ew_call(op, None, *xs)
    if any(type(x) is not NDArray and _subclass.instance(x) for x in xs):
        return _subclass.ufunc_body(impl, name, xs)  # a subclass's __array_wrap__ makes the result, as NumPy's
    return impl(*xs)


def _inputs_as(name: str, xs: list[Any], dt: _dt.DType, casting: str) -> list[Any]:
    """The inputs cast to ``dt`` (``dtype=``), each cast allowed by ``casting``."""
    cast = []
    for k, x in enumerate(xs):
        src = _dt.scalar_dtype(x, dt) if isinstance(x, _PY_SCALARS) else x.dtype
        if not _dt.casting_allows(src, dt, casting):
            raise _dt.ufunc_cast_error(name, f"input {k}", src, dt, casting)
        cast.append(asarray(x, dtype=dt) if isinstance(x, _PY_SCALARS) else x.astype(dt, copy=False))
    return cast


def _check_inputs(name: str, xs: list[Any], casting: str) -> None:
    """A strict ``casting`` (no, equiv, safe) also rules the inputs' casts to
    the loop's type: here, the type the array inputs promote to."""
    arrays = [x for x in xs if isinstance(x, NDArray)]
    if not arrays:
        return
    loop = _dt.result_type(*xs)
    for k, x in enumerate(xs):
        if isinstance(x, NDArray) and not _dt.casting_allows(x.dtype, loop, casting):
            raise _dt.ufunc_cast_error(name, f"input {k}", x.dtype, loop, casting)


# ---- reduce -------------------------------------------------------------------


def _binary_only(uf: Any, method: str) -> None:
    if uf.nin != 2 or uf.nout != 1:
        raise ValueError(f"{method} only supported for binary functions")


def _single_out(out: Any) -> NDArray | None:
    if isinstance(out, tuple):
        if len(out) != 1:
            raise ValueError("The 'out' tuple must have exactly one entry")
        out = out[0]
    if out is not None and not isinstance(out, NDArray):
        raise TypeError(f"output must be an array, got {type(out).__name__}")
    return out


def _reduce(uf: Any, array: Any, axis: Any = 0, dtype: Any = None, out: Any = None, keepdims: bool = False,
            initial: Any = _NOVALUE, where: Any = True) -> NDArray:
    """ufunc.reduce: ``uf`` applied along ``axis`` (an int, a tuple, None
    for all) until one value is left per position of the other axes."""
    _binary_only(uf, "reduce")
    name = uf.__name__
    x = as_operand(array)
    o = _single_out(out)
    axes = tuple(range(x.ndim)) if axis is None else normalize_axes(axis, x.ndim)
    identity = uf.identity if initial is _NOVALUE else initial
    reorderable = uf.identity is not None or name in _REORDERABLE_WITHOUT_IDENTITY
    if len(axes) > 1 and not reorderable:
        raise ValueError(f"reduction operation '{name}' is not reorderable, so at most one axis may be specified")
    mask = _mask(where)
    skip = None  # where= of an op that is not reorderable: its elements are skipped in order
    if mask is not True:
        if identity is None:
            raise ValueError(f"reduction operation '{name}' does not have an identity, so to use a where mask one "
                             f"has to specify 'initial'")
        if reorderable:
            # the unselected elements become the identity (maximum and
            # minimum have none, but repeating the initial value changes
            # nothing for them)
            fill = uf.identity if uf.identity is not None else initial
            x = _select(broadcast_to(mask, x.shape), x, asarray(fill).astype(x.dtype))
        else:
            skip = broadcast_to(mask, x.shape)
    n = math.prod(x.shape[a] for a in axes)
    kept = tuple(1 if d in axes else s for d, s in enumerate(x.shape)) if keepdims else \
        tuple(s for d, s in enumerate(x.shape) if d not in axes)
    reducer = _REDUCERS.get(name)
    r: NDArray
    if reducer is not None and name in ("maximum", "minimum") and x.dtype.kind == "c":
        reducer = None  # max and min refuse complex; NumPy's maximum orders it lexicographically
    if n == 0:
        if identity is None:
            raise ValueError(f"zero-size array to reduction operation {name} which has no identity")
        if reducer is not None and uf.identity is not None:
            dt = reducer(x, axes, dtype, keepdims).dtype  # the kernel's dtype (add: int8 sums in int64)
        else:
            dt = _dt.as_dtype(dtype) if dtype is not None else x.dtype
        r = NDArray._empty(kept, dt)
        r[...] = asarray(identity).astype(r.dtype)
    else:
        start = None if initial is _NOVALUE else initial
        if reducer is not None:
            # every axis: None, the kernels' own path for a whole-array reduction
            r = reducer(x, None if len(axes) == x.ndim else axes, dtype, keepdims)
            if start is not None:  # add, multiply, maximum...: the order does not matter
                r = uf(r, asarray(start).astype(r.dtype))  # (a whole-array r is a read-only scalar)
        else:
            r = _generic_reduce(uf, _cast(x, dtype), axes, start, skip).reshape(kept)
    if o is None:
        return core.scalar_result(r)  # a reduction to 0-d is NumPy's scalar
    return _store(name, r, o, "same_kind", True)


def _generic_reduce(uf: Any, x: NDArray, axes: tuple[int, ...], initial: Any, skip: NDArray | None) -> NDArray:
    """``uf`` along ``axes`` by calls over whole slices: halving when NumPy
    may reorder the op, else in order along the (single) axis, from
    ``initial`` when given (not None), passing over the elements where
    ``skip`` (x's shape) is false."""
    if uf.__name__ in _LOGICAL:
        x = x.astype(_dt.bool, copy=False)
    reorderable = uf.identity is not None or uf.__name__ in _REORDERABLE_WITHOUT_IDENTITY
    if skip is not None:  # not reorderable, so one axis, and an initial value (it has no identity)
        (a,) = axes
        xs, keep = moveaxis(x, a, 0), moveaxis(skip, a, 0)
        acc = broadcast_to(asarray(initial).astype(x.dtype), xs.shape[1:]).copy()
        for i in range(xs.shape[0]):
            acc = _select(keep[i], uf(acc, xs[i]), acc).astype(x.dtype, copy=False)
        return acc
    if initial is not None and not reorderable:
        (a,) = axes
        first = broadcast_to(asarray(initial).astype(x.dtype), (*x.shape[:a], 1, *x.shape[a + 1:]))
        x = _concat([first, x], axis=a)
    for a in sorted(axes, reverse=True):  # the later axes first: the earlier ones keep their numbers
        xs = moveaxis(x, a, 0)
        if reorderable:
            while xs.shape[0] > 1:
                h = xs.shape[0] // 2
                head = uf(xs[:h], xs[h:2 * h]).astype(x.dtype, copy=False)
                xs = _concat([head, xs[2 * h:]], axis=0) if xs.shape[0] % 2 else head
            x = xs[0]
        else:
            acc = xs[0, ...].copy()  # (xs[0] of a 1-d xs is a read-only scalar)
            for i in range(1, xs.shape[0]):
                uf(acc, xs[i], out=acc)
            x = acc
    if initial is not None and reorderable:
        x = uf(x, asarray(initial).astype(x.dtype)).astype(x.dtype, copy=False)
    return x


# ---- accumulate, outer ----------------------------------------------------------


def _accumulate(uf: Any, array: Any, axis: int = 0, dtype: Any = None, out: Any = None) -> NDArray:
    """ufunc.accumulate: the running results of reduce along ``axis``."""
    _binary_only(uf, "accumulate")
    x = as_operand(array)
    o = _single_out(out)
    if x.ndim == 0:
        raise TypeError("cannot accumulate on a scalar")
    ax = normalize_axis(axis, x.ndim)
    scan = _SCANS.get(uf.__name__)
    if scan is not None:
        r: NDArray = scan(x, axis=ax, dtype=dtype)
    else:
        x = _cast(x, dtype)
        xs = moveaxis(x.astype(_dt.bool, copy=False) if uf.__name__ in _LOGICAL else x, ax, 0)
        acc = xs.copy()
        for i in range(1, xs.shape[0]):
            uf(acc[i - 1], xs[i], out=acc[i, ...])  # (acc[i] of a 1-d acc is a scalar: a copy)
        r = moveaxis(acc, 0, ax)
    return r if o is None else _store(uf.__name__, r, o, "same_kind", True)


def _outer(uf: Any, a: Any, b: Any, /, **kwargs: Any) -> Any:
    """ufunc.outer: ``uf(a[..., None, ...], b)``, shape a.shape + b.shape."""
    _binary_only(uf, "outer")
    x, y = as_operand(a), as_operand(b)
    return uf(x[(..., *(None,) * y.ndim)], y, **kwargs)


# ---- at -------------------------------------------------------------------------


def _positions(a: NDArray, indices: Any) -> tuple[NDArray, tuple[int, ...]]:
    """The C-order positions of ``a[indices]``'s elements in ``a``, as a
    C-contiguous int64 array, and the shape ``a[indices]`` has.  An integer
    index array into a 1-d ``a`` is its own positions (ew_at checks them
    and wraps negative ones); any other index goes through minarray's own
    indexing of a position grid (its errors included)."""
    if a.ndim == 1 and not isinstance(indices, (tuple, slice, int)) and indices is not Ellipsis \
            and indices is not None:
        idx = as_operand(indices)
        if idx.dtype.kind in "iu" and idx.ndim >= 1:
            return ascontiguousarray(idx.reshape(-1).astype(_dt.int64, copy=False)), idx.shape
    picked = arange(a.size, dtype=_dt.int64).reshape(a.shape)[indices]
    return ascontiguousarray(picked.reshape(-1)), picked.shape


def _at(uf: Any, a: Any, indices: Any, b: Any = None, /) -> None:
    """ufunc.at: ``a[indices] = uf(a[indices], b)`` unbuffered, so a
    repeated index applies again (add.at(a, [0, 0], 1) adds 2)."""
    name = uf.__name__
    if not isinstance(a, NDArray):
        raise TypeError(f"ufunc.at: the first operand must be an array, got {type(a).__name__}")
    if uf.nout != 1 or uf.nin > 2:
        raise ValueError("Only unary and binary ufuncs supported at this time")
    if uf.nin == 2 and b is None:
        raise ValueError("second operand needed for ufunc")
    if uf.nin == 1 and b is not None:
        raise ValueError("second operand provided when ufunc is unary")
    if not a.flags.writeable:
        raise ValueError("assignment destination is read-only")
    pos, shape = _positions(a, indices)
    vals = None
    if b is not None:
        # NumPy's at takes b as an array (a Python scalar at its default
        # dtype, not weak), runs the loop of the promoted type, and casts
        # each result back to a's type unsafely (int8 + 300 wraps)
        v = b if isinstance(b, NDArray) else as_operand(b)
        res = _dt.result_type(a, v)
        if res is not a.dtype and name in _AT_SAME_RESULT and isinstance(b, _PY_SCALARS) \
                and bool(asarray(b).astype(a.dtype) == b):
            # a scalar a's type holds exactly: the op in a's type rounds as
            # the wider loop's result rounded back (for these ops), and runs
            # the C loop
            res = a.dtype
        if broadcast_shapes(v.shape, shape) != shape:
            raise ValueError(f"shape mismatch: value array of shape {v.shape} could not be broadcast to indexing "
                             f"result of shape {shape}")
        # contiguous, of the loop's type (ew_at reads it through a snapshot
        # when it shares memory with a: b is read before a is written)
        vals = ascontiguousarray(broadcast_to(v, shape).astype(res, copy=False).reshape(-1))
    op, _impl, _sig = core.ufunc_fields(uf)
    # ew_at: False when op has no loop of a's type (a storage type, a
    # comparison, b of a wider type): the rounds then, at positions ew_at
    # has not checked: flat[here] checks them
    if op < 0 or not core.ew_at(op, a._h, pos._h, None if vals is None else vals._h):
        _at_by_rounds(uf, a, pos, vals)


def _at_by_rounds(uf: Any, a: NDArray, pos: NDArray, vals: NDArray | None) -> None:
    """ufunc.at without a loop of a's type: on a C-ordered copy, rounds of
    distinct positions (each one gather, op and scatter), the k-th round
    taking each position's k-th occurrence; then the copy back into a."""
    work = a.copy()
    flat = work.reshape(-1)
    if pos.shape[0]:
        lo, hi = int(min(pos)), int(max(pos))
        if lo < -a.size or hi >= a.size:
            raise IndexError(f"index {lo if lo < -a.size else hi} is out of bounds for axis 0 with size {a.size}")
    pos = _select(less(pos, 0), add(pos, a.size), pos)
    rest = arange(pos.shape[0], dtype=_dt.int64)
    while rest.shape[0]:
        p = pos[rest]
        _u, first = unique(p, return_index=True)
        take = rest[first]
        here = pos[take]
        args = (flat[here],) if vals is None else (flat[here], vals[take])
        flat[here] = uf(*args).astype(a.dtype)
        keep = full(rest.shape, True, dtype=_dt.bool)
        keep[first] = False
        rest = rest[keep]
    a[...] = work


# ---- reduceat -------------------------------------------------------------------


def _reduceat(uf: Any, array: Any, indices: Any, axis: int = 0, dtype: Any = None, out: Any = None) -> NDArray:
    """ufunc.reduceat: along ``axis``, result[i] = reduce(array[indices[i]:
    indices[i+1]]) where indices[i] < indices[i+1], else array[indices[i]]
    (the last slice runs to the end): one reduce per slice."""
    _binary_only(uf, "reduceat")
    name = uf.__name__
    x = as_operand(array)
    o = _single_out(out)
    ax = normalize_axis(axis, x.ndim)
    idx = [int(i) for i in as_operand(indices).reshape(-1).tolist()]
    n = x.shape[ax]
    for i in idx:
        if not 0 <= i < n:
            raise IndexError(f"index {i} out-of-bounds in {name}.reduceat [0, {n})")
    xs = moveaxis(x, ax, 0)
    parts = []
    for k, start in enumerate(idx):
        stop = idx[k + 1] if k + 1 < len(idx) else n
        seg = xs[start:stop] if start < stop else xs[start:start + 1]
        parts.append(_reduce(uf, seg, axis=0, dtype=dtype))
    first = parts[0] if parts else _reduce(uf, xs[:1], axis=0, dtype=dtype)
    res = full((len(idx), *first.shape), 0, dtype=first.dtype)
    for k, p in enumerate(parts):
        res[k] = p
    r = moveaxis(res, 0, ax)
    return r if o is None else _store(name, r, o, "same_kind", True)


class _CallSignature:
    """``ufunc.__signature__``, what ``inspect.signature`` reads: an
    instance's call signature (NumPy's), and None for the class itself."""

    def __get__(self, u: Any, owner: Any = None) -> Any:
        return None if u is None else core.ufunc_fields(u)[2]


core.ufunc_setup(_call, _reduce, _accumulate, _outer, _at, _reduceat, _CallSignature())
