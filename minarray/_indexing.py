"""Indexing (Array API "Indexing" and "Indexing Functions"):
``__getitem__`` and ``__setitem__``, ``take`` and ``take_along_axis``; and
beside them NumPy's indexing routines: index arrays (``unravel_index``,
``ravel_multi_index``, ``tril_indices``, ``triu_indices`` and their
``_from`` forms, ``diag_indices``, ``ix_``) and gathers and scatters by
position or mask (``extract``, ``compress``, ``put``, ``place``,
``put_along_axis``, ``select``, ``choose``).

Basic indices (integers, slices, ``...``, ``None``) make views that share
the buffer.  Integer arrays and boolean masks ("advanced" indices) make
copies through the C gather/scatter kernel (csrc/core/gather.c), following
NumPy's rules for where the broadcast index dimensions go; ``take`` reuses
that gather, ``take_along_axis`` has its own kernel
(csrc/py/manipulation.c).  The routines gather through ``take`` and
scatter through indexed assignment; their index arithmetic is elementwise.

``getitem`` and ``setitem`` here never see a raw key.  NDArray's indexing
parses every key once, in C (csrc/py/views.c): the common keys must cost a
few hundred nanoseconds, so the parse and their routes are C's, and a
second parser here would be a second set of rules.  The advanced keys C
does not gather itself arrive parsed, one entry per axis; what is left to
do here is the broadcasting and axis placement of NumPy's advanced
indexing, which is array arithmetic, not parsing.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any, SupportsIndex

from minarray import _dtypes as _dt
from minarray import _elementwise as _ew
from minarray import _subclass
from minarray._array_object import NDArray
from minarray._coerce import (
    along_axis,
    as_array,
    as_int,
    as_ints,
    as_operand,
    asarray,
    broadcast_shapes,
    drop_axis,
    normalize_axis,
    write_out,
)
from minarray._creation import arange, ones, tri
from minarray._joining import stack
from minarray._manipulation import broadcast_arrays, broadcast_to, moveaxis, permute_dims
from minarray._native import core
from minarray._searching import count_nonzero, nonzero
from minarray._utility import any as _any

__all__ = [
    "take", "take_along_axis", "unravel_index", "ravel_multi_index", "tril_indices",
    "triu_indices", "tril_indices_from", "triu_indices_from", "diag_indices", "ix_", "extract", "compress",
    "put", "place", "put_along_axis", "select", "choose", "putmask", "diag_indices_from", "mask_indices",
]


def _is_mask(k: Any) -> bool:
    return isinstance(k, NDArray) and k.dtype is _dt.bool


def _entries(parsed: tuple[Any, ...]) -> list[Any]:
    """The parsed key (csrc/py/views.c: one entry per axis, ``...`` only
    where it stands for no axes, lists and array-likes already arrays,
    bools already masks) as the routes below read it: when it has array
    entries, its ints become 0-d index arrays, since NumPy counts them as
    advanced indices (that decides where the broadcast axes go)."""
    if not any(isinstance(k, NDArray) for k in parsed):
        return list(parsed)
    return [NDArray._new(core.from_scalar(k, _dt.int64.code, 64), (), (), None) if isinstance(k, int) else k
            for k in parsed]


def _basic(x: NDArray, entries: list[Any]) -> tuple[NDArray, list[tuple[int, NDArray]], bool]:
    """Apply the basic entries; each advanced one keeps its axis whole.
    Returns the view, (axis in the view, index array) per advanced entry (a
    k-d mask becomes k index arrays: its nonzero coordinates), and whether
    the advanced entries are adjacent in the key (NumPy's rule: any basic
    entry between them, even ``None`` or an empty ``...``, separates them).

    The view itself is C's (core.basic_view, csrc/py/views.c): the key with
    each advanced entry replaced by the whole axes it indexes, so the rules
    of basic indexing are written once."""
    basic: list[Any] = []
    advanced: list[tuple[int, NDArray]] = []
    where: list[int] = []  # entry numbers of the advanced entries
    dim = 0  # axis of x the next entry indexes
    out = 0  # axis of the view the next entry makes
    xshape = x._shape
    for e, k in enumerate(entries):
        if k is Ellipsis:  # an empty one (a marker between advanced entries)
            continue
        if k is None:
            basic.append(None)
            out += 1
        elif isinstance(k, slice):
            basic.append(k)
            dim += 1
            out += 1
        elif isinstance(k, int):
            basic.append(k)
            dim += 1
        elif _is_mask(k):
            where.append(e)
            m = k
            mshape = xshape[dim:dim + m.ndim]
            if m.shape != mshape:
                for j, (a, b) in enumerate(zip(mshape, m.shape, strict=True)):
                    if a != b and b != 0:
                        raise IndexError(  # NumPy's words
                            f"boolean index did not match indexed array along axis {dim + j}; size of axis is "
                            f"{a} but size of corresponding boolean axis is {b}"
                        )
                # an axis of length 0 in the mask fits any length: the mask
                # selects nothing (NumPy's rule, and the standard's tests')
                m = NDArray._empty(mshape, _dt.bool)
                core.fill(m._h, False)
            if m.ndim == 0:
                # a scalar bool adds an axis of length 1 (True) or 0 (False)
                basic.append(None)
                advanced.append((out, nonzero(m.reshape(1))[0]))
                out += 1
            else:
                basic.extend([slice(None)] * m.ndim)
                for ix in nonzero(m):
                    advanced.append((out, ix))
                    out += 1
                dim += m.ndim
        else:
            where.append(e)
            basic.append(slice(None))
            advanced.append((out, k))
            dim += 1
            out += 1
    adjacent = where == list(range(where[0], where[0] + len(where))) if where else True
    return core.basic_view(x, tuple(basic)), advanced, adjacent


def _prepare_advanced(view: NDArray, advanced: list[tuple[int, NDArray]], adjacent: bool) -> tuple[
        NDArray, list[NDArray], tuple[int, ...], tuple[int, ...], int]:
    """Move the indexed axes first; broadcast the index arrays to one flat
    int64 length.  Returns (source, flat indices, broadcast shape, rest
    shape, where the broadcast axes go in the result).

    NumPy's rule for the broadcast axes: where the first advanced index was
    when the advanced indices are adjacent in the key, else first."""
    axes = [a for a, _ in advanced]
    rest = [i for i in range(view.ndim) if i not in axes]
    src = permute_dims(view, tuple(axes + rest))
    try:
        bshape = broadcast_shapes(*(ix.shape for _, ix in advanced))
    except ValueError:
        shapes = "".join(f"{ix.shape} " for _, ix in advanced)  # NumPy's, a space after each
        raise IndexError(f"shape mismatch: indexing arrays could not be broadcast together with shapes {shapes}") \
            from None
    size = 1
    for d in bshape:
        size *= d
    flat = []
    for _, ix in advanced:
        b = broadcast_to(ix, bshape) if ix.shape != bshape else ix
        if b.dtype is not _dt.int64 or not b.flags.c_contiguous:
            b = b.astype(_dt.int64)
        flat.append(b.reshape((size,)))
    position = axes[0] if adjacent else 0
    return src, flat, bshape, tuple(view.shape[i] for i in rest), position


def getitem(x: NDArray, parsed: tuple[Any, ...]) -> NDArray:
    """x[key] for the advanced keys C does not gather itself: NDArray's
    __getitem__ (csrc/py/views.c) parses the key and hands it here parsed."""
    entries = _entries(parsed)
    view, advanced, adjacent = _basic(x, entries)
    if not advanced:
        return view
    src, flat, bshape, rest, position = _prepare_advanced(view, advanced, adjacent)
    n = 1
    for d in bshape:
        n *= d
    # the result is allocated in its own shape and the blocks gathered
    # through a (n, *rest) view of it, so that it owns its data, as NumPy's
    # does and as the C fast path's (ndarray_getitem) does
    out = NDArray._empty((*bshape, *rest), x.dtype)
    _take_blocks(src, out if len(bshape) == 1 else out.reshape((n, *rest)), flat, False, x, entries)
    if position:
        # the layout NumPy gives too: blocks in index order, axes moved
        nb = len(bshape)
        out = moveaxis(out, tuple(range(nb)), tuple(range(position, position + nb)))
    return out


def _take_blocks(src: NDArray, blocks: NDArray, flat: list[NDArray], scatter: bool, x: NDArray,
                 entries: list[Any]) -> None:
    try:
        core.take_blocks(src._h, blocks._h, [f._h for f in flat], scatter)
    except IndexError as exc:
        # C names the axis among the indexed ones; say which axis of x it is
        axes = _advanced_axes(entries)
        msg = str(exc)
        head, sep, tail = msg.partition(" for axis ")
        if sep and tail.split(" ", 1)[0].isdigit():
            j = int(tail.split(" ", 1)[0])
            if j < len(axes):
                msg = f"{head} for axis {axes[j]} {tail.split(' ', 1)[1]}"
        raise IndexError(msg) from None


def _advanced_axes(entries: list[Any]) -> list[int]:
    """The axis of x each advanced index array (in order) indexes."""
    out: list[int] = []
    dim = 0
    for k in entries:
        if k is None or k is Ellipsis:
            continue
        if _is_mask(k):
            out.extend(range(dim, dim + max(k.ndim, 1)))
            dim += k.ndim
        elif isinstance(k, NDArray):
            out.append(dim)
            dim += 1
        else:
            dim += 1
    return out


def _broadcastable_value(val: NDArray, shape: tuple[int, ...]) -> NDArray:
    """``val`` ready to broadcast into ``shape``: NumPy lets a value have
    extra leading axes of size 1; anything else that does not fit is a
    ValueError naming both shapes."""
    if val.ndim > len(shape):
        extra = val.ndim - len(shape)
        if all(n == 1 for n in val.shape[:extra]):
            val = val._view(0, val.shape[extra:], val._strides[extra:])
    ok = val.ndim <= len(shape) and all(
        v == 1 or v == s for v, s in zip(val.shape, shape[len(shape) - val.ndim:], strict=True)
    )
    if not ok:
        raise ValueError(f"could not broadcast input array from shape {val.shape} into shape {shape}")
    return val


def setitem(x: NDArray, parsed: tuple[Any, ...], value: Any) -> None:
    """x[key] = value for the keys and values C does not write itself,
    with the key parsed (csrc/py/views.c, as for getitem)."""
    entries = _entries(parsed)
    view, advanced, adjacent = _basic(x, entries)
    if not advanced:
        if isinstance(value, (bool, int, float, complex)):
            core.fill(view._h, value)
        else:
            core.copyto(view._h, _broadcastable_value(_value_array(value, x.dtype), view.shape)._h)
        return
    if not view.flags.writeable:
        raise ValueError("assignment destination is read-only")
    src, flat, bshape, rest, position = _prepare_advanced(view, advanced, adjacent)
    result_shape = rest[:position] + bshape + rest[position:]
    val = _broadcastable_value(_value_array(value, x.dtype), result_shape)
    nb = len(bshape)
    if position and val.ndim:
        # The value is shaped like getitem's result (broadcast axes at
        # `position`); move those axes first to match the source order.
        full = broadcast_to(val, result_shape)
        val = moveaxis(full, tuple(range(position, position + nb)), tuple(range(nb)))
    blocks = NDArray._empty(bshape + rest, x.dtype)
    core.copyto(blocks._h, val._h)  # broadcasts and casts the value
    n = 1
    for d in bshape:
        n *= d
    _take_blocks(src, blocks.reshape((n, *rest)), flat, True, x, entries)


def _value_array(value: Any, dtype: _dt.DType) -> NDArray:
    if isinstance(value, NDArray):
        return value
    if isinstance(value, (bool, int, float, complex)):
        return NDArray._new(core.from_scalar(value, dtype.code, dtype.bits), (), (), None)
    if value is None:  # NumPy's object None cast to x's dtype: NaN in floats, False in bool
        return asarray(None, dtype=dtype)
    return asarray(value)


def _int_indices(indices: Any, fname: str) -> NDArray:
    idx = as_operand(indices, fname)
    if idx.dtype.kind not in "iu":
        raise TypeError(f"{fname}: indices must have an integer dtype, got {idx.dtype}")
    return idx


def take(x: NDArray, indices: NDArray, /, axis: int | None = None, out: NDArray | None = None,
         mode: str = "raise") -> NDArray:
    """Elements of ``x`` at ``indices`` along ``axis`` (Array API ``take``).

    The result has x's shape with the axis replaced by the index array's
    shape.  Negative indices count from the end; out-of-range ones raise
    IndexError.  ``axis=None`` indexes the flattened array (NumPy; the
    standard requires an axis for arrays of more than one dimension).
    NumPy's ``out=`` receives the result; its ``mode`` "wrap" takes the
    indices modulo the length, "clip" clips them to it (a negative one to
    0), instead of raising.
    """
    if type(x) is not NDArray and _subclass.instance(x):
        return _subclass.through_method(take, x, indices, axis, out=out, mode=mode)
    if mode != "raise":
        indices = _moded(as_operand(x, "take"), indices, axis, mode)
    res = _take(x, indices, axis)
    return write_out(out, res, "take")


def _moded(x: NDArray, indices: Any, axis: int | None, mode: str) -> NDArray:
    n = x.size if axis is None else x.shape[normalize_axis(axis, x.ndim)]
    idx = _int_indices(indices, "take")
    if n == 0 and idx.size and mode in ("wrap", "clip"):  # nothing to wrap or clip onto
        raise IndexError("cannot do a non-empty take from an empty axes.")
    return idx if n == 0 else _clip_mode(idx, n, mode, 0)[0]


def _take(x: NDArray, indices: NDArray, axis: int | None) -> NDArray:
    x, ax = along_axis(as_operand(x, "take"), axis)
    idx = _int_indices(indices, "take")
    pre, post = x.shape[:ax], x.shape[ax + 1:]
    out = NDArray._empty(pre + idx.shape + post, x.dtype)
    if out.size == 0:
        return out
    flat = idx.astype(_dt.int64, copy=False).reshape((-1,))
    # Source with the indexed axis first; the result seen as (N, pre, post)
    # blocks, N running over the (C-contiguous) index dims.
    src = x._view(0, (x.shape[ax], *pre, *post), (x._strides[ax], *drop_axis(x._strides, ax)))
    ost = out._strides
    blocks = out._view(0, (flat.shape[0], *pre, *post),
                       (ost[ax + idx.ndim - 1] if idx.ndim else 0, *ost[:ax], *ost[ax + idx.ndim:]))
    core.take_blocks(src._h, blocks._h, [flat._h], False)
    return out


def take_along_axis(x: NDArray, indices: NDArray, /, axis: int = -1) -> NDArray:
    """Pick values along ``axis`` at positions given per 1-d slice (Array API
    ``take_along_axis``), e.g. with the output of ``argsort``.

    ``indices`` has x's ndim; its other dimensions broadcast against x's.
    """
    if type(x) is not NDArray and _subclass.instance(x):
        return _subclass.through_method(take_along_axis, x, indices, axis)
    x = as_operand(x, "take_along_axis")
    idx = _int_indices(indices, "take_along_axis")
    if x.ndim == 0:
        raise ValueError("take_along_axis: x must have at least one dimension")
    if idx.ndim != x.ndim:
        raise ValueError(
            f"take_along_axis: indices must have the same number of dimensions as x, "
            f"got {idx.ndim} and {x.ndim}"
        )
    ax = normalize_axis(axis, x.ndim)
    xs = (*x.shape[:ax], 1, *x.shape[ax + 1:])
    try:
        shape = broadcast_shapes(xs, idx.shape)
    except ValueError:
        raise ValueError(
            f"take_along_axis: indices of shape {idx.shape} do not broadcast against x of shape {x.shape} "
            f"outside axis {ax}"
        ) from None
    out = NDArray._empty(shape, x.dtype)
    if out.size == 0:
        return out
    idx64 = idx.astype(_dt.int64, copy=False)
    if idx64.shape != shape:
        idx64 = broadcast_to(idx64, shape)
    sshape = (*shape[:ax], x.shape[ax], *shape[ax + 1:])
    sstr = tuple(0 if (d != ax and x.shape[d] != shape[d]) else s for d, s in enumerate(x._strides))
    core.take_along_axis(x._view(0, sshape, sstr)._h, idx64._h, out._h, ax)
    return out


_INT64_MAX = 2**63 - 1


def _ints(x: Any, fname: str) -> NDArray:
    a = as_operand(x, fname)
    if a.dtype.kind not in "iu":
        raise TypeError(f"{fname}: only int indices permitted, got {a.dtype}")
    return a.astype(_dt.int64, copy=False)


def _flat_dims(dims: Any, fname: str) -> tuple[tuple[int, ...], int]:
    """``dims`` as a shape and its size, when flat indices into it fit in
    int64 (the dtype they are computed in): ValueError, as NumPy's, for a
    shape no array could have, rather than indices that wrap.  As for an
    allocation, zero dims are left out of the product: (2**40, 2**40, 0)
    is refused too."""
    shape = as_ints(dims, f"{fname}: dims entry")
    if any(n < 0 for n in shape):
        raise ValueError(f"{fname}: negative dimensions are not allowed, got dims {shape}")
    if math.prod(n for n in shape if n) > _INT64_MAX:
        raise ValueError(f"{fname}: invalid dims {shape}: the array size they define is larger than the maximum "
                         f"possible size (2**63 - 1 elements)")
    return shape, math.prod(shape)


def _index_order(order: str) -> bool:
    """Whether ``order`` (NumPy's "C" or "F") is Fortran's: the first
    axis varies fastest."""
    if order not in ("C", "F"):
        raise ValueError(f"order must be one of 'C', 'F', 'A', or 'K' (got {order!r})")
    return order == "F"


def unravel_index(indices: Any, shape: Sequence[int] | SupportsIndex, order: str = "C") -> tuple[NDArray, ...]:
    """The coordinates, one int64 array per axis of ``shape``, of flat
    ``indices`` (C order, or Fortran's with ``order="F"``); ValueError for
    an index outside the array."""
    fortran = _index_order(order)
    dims, size = _flat_dims(shape, "unravel_index")
    idx = _ints(indices, "unravel_index")
    if idx.size and bool(_any(_ew.logical_or(_ew.less(idx, 0), _ew.greater_equal(idx, size)))):
        bad = next(i for i in idx.reshape((-1,)).tolist() if not 0 <= i < size)
        raise ValueError(f"index {bad} is out of bounds for array with size {size}")
    out = []
    rest = idx
    for d in (dims if fortran else reversed(dims)):  # the fastest-varying axis first
        out.append(_ew.remainder(rest, d) if d else rest)
        rest = _ew.floor_divide(rest, d) if d else rest
    return tuple(out) if fortran else tuple(reversed(out))


def ravel_multi_index(multi_index: Sequence[Any], dims: Sequence[int], mode: Any = "raise",
                      order: str = "C") -> NDArray:
    """The flat indices (C order, or Fortran's with ``order="F"``) of
    coordinate arrays ``multi_index`` in an array of shape ``dims``;
    ``mode`` "raise", "wrap" or "clip" for coordinates out of range, or
    one of them per axis."""
    fortran = _index_order(order)
    shape, _ = _flat_dims(dims, "ravel_multi_index")
    if len(multi_index) != len(shape):
        raise ValueError(f"parameter multi_index must be a sequence of length {len(shape)}")
    modes = [mode] * len(shape) if isinstance(mode, str) else list(mode)
    if len(modes) != len(shape):
        raise ValueError(f"list of clipmodes has wrong length ({len(modes)} instead of {len(shape)})")
    for m in modes:
        if m not in ("raise", "wrap", "clip"):
            raise ValueError(f"clipmode must be one of 'clip', 'raise', or 'wrap' (got {m!r})")
    flat: NDArray | None = None
    axes = list(zip(multi_index, shape, modes, strict=True))
    for coord, n, m in (reversed(axes) if fortran else axes):  # the slowest-varying axis first
        c = _ints(coord, "ravel_multi_index")
        if n == 0 and c.size:  # no coordinate is valid, and wrap or clip has none to map to
            raise ValueError(f"ravel_multi_index: cannot ravel coordinates into dims {shape}: it has zero entries")
        if m == "wrap":
            c = _ew.remainder(c, n)
        elif m == "clip":
            c = _ew.clip(c, 0, n - 1)
        elif c.size and bool(_any(_ew.logical_or(_ew.less(c, 0), _ew.greater_equal(c, n)))):
            raise ValueError("invalid entry in coordinates array")
        flat = c if flat is None else _ew.add(_ew.multiply(flat, n), c)
    assert flat is not None
    return flat


def tril_indices(n: int, k: int = 0, m: int | None = None) -> tuple[NDArray, NDArray]:
    """The (row, column) indices of the lower triangle of an ``n`` x ``m``
    array (at and below diagonal ``k``), in row-major order."""
    r, c = nonzero(tri(n, m, k, dtype=_dt.bool))
    return r, c


def triu_indices(n: int, k: int = 0, m: int | None = None) -> tuple[NDArray, NDArray]:
    """The (row, column) indices of the upper triangle (at and above
    diagonal ``k``), in row-major order."""
    r, c = nonzero(_ew.logical_not(tri(n, m, as_int(k, "triu_indices: k") - 1, dtype=_dt.bool)))
    return r, c


def _matrix_shape(arr: Any, fname: str) -> tuple[int, int]:
    a = as_operand(arr, fname)
    if a.ndim != 2:
        raise ValueError("input array must be 2-d")
    return a.shape[0], a.shape[1]


def tril_indices_from(arr: Any, k: int = 0) -> tuple[NDArray, NDArray]:
    """:func:`tril_indices` for the shape of the 2-d ``arr``."""
    n, m = _matrix_shape(arr, "tril_indices_from")
    return tril_indices(n, k, m)


def triu_indices_from(arr: Any, k: int = 0) -> tuple[NDArray, NDArray]:
    """:func:`triu_indices` for the shape of the 2-d ``arr``."""
    n, m = _matrix_shape(arr, "triu_indices_from")
    return triu_indices(n, k, m)


def diag_indices(n: int, ndim: int = 2) -> tuple[NDArray, ...]:
    """The indices of the main diagonal of an ``n`` x ... x ``n`` array:
    ``ndim`` copies of ``arange(n)``."""
    idx = arange(as_int(n, "diag_indices: n"))
    return (idx,) * as_int(ndim, "diag_indices: ndim")


def diag_indices_from(arr: Any) -> tuple[NDArray, ...]:
    """:func:`diag_indices` for ``arr``, an array of at least 2 dimensions
    that all have the same length."""
    a = as_operand(arr, "diag_indices_from")
    if a.ndim < 2:
        raise ValueError("input array must be at least 2-d")
    if len(set(a.shape)) != 1:
        raise ValueError("All dimensions of input must be of equal length")
    return diag_indices(a.shape[0], a.ndim)


def mask_indices(n: int, mask_func: Any, k: Any = 0) -> tuple[NDArray, NDArray]:
    """The indices of the nonzero entries of ``mask_func(ones((n, n)), k)``
    (``mask_func`` is :func:`tril`, :func:`triu` or alike): NumPy's
    ``mask_indices``."""
    m = mask_func(ones((as_int(n, "mask_indices: n"),) * 2, dtype=_dt.int64), k)
    i, j = nonzero(_ew.not_equal(as_operand(m, "mask_indices"), 0))
    return i, j


def ix_(*args: Any) -> tuple[NDArray, ...]:
    """An open mesh: each 1-d sequence reshaped to broadcast along its own
    axis, so ``x[ix_(rows, cols)]`` picks the cross product (boolean
    sequences become the indices of their True entries)."""
    out = []
    n = len(args)
    for k, seq in enumerate(args):
        a = as_operand(seq, "ix_") if not (isinstance(seq, (list, tuple)) and len(seq) == 0) \
            else asarray([], dtype=_dt.int64)
        if a.ndim != 1:
            raise ValueError("Cross index must be 1 dimensional")
        if a.dtype.kind == "b":
            a = nonzero(a)[0]
        out.append(a.reshape((1,) * k + (a.shape[0],) + (1,) * (n - k - 1)))
    return tuple(out)


def extract(condition: Any, arr: Any) -> NDArray:
    """The elements of the flattened ``arr`` where the flattened
    ``condition`` is non-zero (1-d)."""
    if type(arr) is not NDArray and _subclass.instance(arr):
        return _subclass.through_method(lambda v: extract(condition, v), arr)
    flat = as_operand(arr, "extract").reshape((-1,))
    return take(flat, nonzero(as_operand(condition, "extract").reshape((-1,)))[0])


def compress(condition: Any, a: Any, axis: int | None = None, out: NDArray | None = None) -> NDArray:
    """The slices of ``a`` along ``axis`` (the flattened array when None)
    where the 1-d ``condition`` is true; ``out=`` receives them."""
    if type(a) is not NDArray and _subclass.instance(a):
        return _subclass.through_method(lambda v, **k: compress(condition, v, axis, **k), a, out=out)
    c = as_operand(condition, "compress")
    if c.ndim != 1:
        raise ValueError("condition must be a 1-d array")
    x = as_operand(a, "compress")
    if axis is None:
        x, axis = x.reshape((-1,)), 0
    n = x.shape[normalize_axis(axis, x.ndim)]
    idx = nonzero(c)[0]
    if idx.shape[0] and int(idx[-1]) >= n:
        raise IndexError(f"index {int(idx[-1])} is out of bounds for axis {axis} with size {n}")
    return take(x, idx, axis, out)


def _cycled(values: Any, n: int, dtype: _dt.DType, fname: str) -> NDArray:
    """``values`` flattened and repeated to ``n`` elements (NumPy's put and
    place), in ``dtype``."""
    v = as_operand(values, fname).reshape((-1,)).astype(dtype, copy=False)
    if v.shape[0] == n:
        return v
    if v.shape[0] == 0:
        raise ValueError(f"{fname}: cannot fill {n} positions from an empty values array")
    return take(v, _ew.remainder(arange(n), v.shape[0]))


def _clip_mode(idx: NDArray, n: int, mode: str, lowest: int) -> tuple[NDArray, bool]:
    """NumPy's ``mode=`` of put and choose over ``range(n)``: "wrap" takes
    indices modulo ``n``, "clip" clips them into range, "raise" keeps them
    and says whether any lies outside ``[lowest, n)`` (the caller words the
    error)."""
    if mode == "wrap":
        return _ew.remainder(idx, n), False
    if mode == "clip":
        return _ew.clip(idx, 0, n - 1), False
    if mode != "raise":
        raise ValueError(f"clipmode must be one of 'clip', 'raise', or 'wrap', not {mode!r}")
    outside = idx.size > 0 and bool(_any(_ew.logical_or(_ew.less(idx, lowest), _ew.greater_equal(idx, n))))
    return idx, outside


def put(a: NDArray, ind: Any, v: Any, mode: str = "raise") -> None:
    """Write ``v`` (repeated as needed) at the flat indices ``ind`` of
    ``a``, in place; ``mode`` "raise", "wrap" or "clip" for indices out of
    range.  Where an index repeats, the last value wins."""
    a = as_array(a, "put", "a")
    idx = _ints(ind, "put").reshape((-1,))
    n = a.size
    if n == 0 and idx.size:  # wrap and clip would divide or clip by the size 0
        raise IndexError("put: cannot replace elements of an empty array")
    idx, outside = _clip_mode(idx, n, mode, -n)
    if outside:
        bad = next(i for i in idx.tolist() if not -n <= i < n)
        raise IndexError(f"index {bad} is out of bounds for axis 0 with size {n}")
    if idx.size == 0:
        return
    vals = _cycled(v, idx.shape[0], a.dtype, "put")
    if a.ndim == 0:
        a[()] = vals[-1]
        return
    a[unravel_index(_ew.remainder(idx, n), a.shape)] = vals


def place(arr: NDArray, mask: Any, vals: Any) -> None:
    """Write ``vals`` (repeated as needed) where ``mask`` is true, in place,
    in C order."""
    arr = as_array(arr, "place", "arr")
    m = as_operand(mask, "place").astype(_dt.bool, copy=False)
    if m.size != arr.size:  # NumPy's rule: one mask element per element, in any shape
        raise ValueError("place: mask and data must be the same size")
    if m.shape != arr.shape:
        m = m.reshape(arr.shape)
    count = int(count_nonzero(m))
    if count:
        arr[m] = _cycled(vals, count, arr.dtype, "place")


def putmask(a: NDArray, mask: Any, values: Any) -> None:
    """Write ``values`` where ``mask`` is true, in place: the element at
    flat position ``i`` takes ``values[i % len(values)]`` (unlike
    :func:`place`, which takes the values in turn).  ``mask`` has one entry
    per element of ``a``; empty ``values`` write nothing."""
    a = as_array(a, "putmask", "a")
    m = as_operand(mask, "putmask").astype(_dt.bool, copy=False)
    if m.size != a.size:
        raise ValueError("putmask: mask and data must be the same size")
    v = as_operand(values, "putmask").reshape((-1,))
    if v.shape[0] == 0 or a.size == 0:
        return
    positions = nonzero(m.reshape((-1,)))[0]
    if positions.shape[0] == 0:
        return
    # the values are read (taken into a new array) before anything is written
    vals = take(v, _ew.remainder(positions, v.shape[0])).astype(a.dtype, copy=False)
    if a.ndim == 0:
        a[()] = vals[0]
        return
    a[unravel_index(positions, a.shape)] = vals


def put_along_axis(arr: NDArray, indices: Any, values: Any, axis: int | None) -> None:
    """Write ``values`` at ``indices`` along ``axis`` of ``arr``, in place:
    the scatter matching :func:`minarray.take_along_axis`."""
    arr = as_array(arr, "put_along_axis", "arr")
    idx = _ints(indices, "put_along_axis")
    if axis is None:
        if idx.ndim != 1:
            raise ValueError("when axis=None, `indices` must have a single dimension.")
        put(arr, idx, values)  # flat indices, written in place
        return
    ax = normalize_axis(axis, arr.ndim)
    if idx.ndim != arr.ndim:
        raise ValueError("`indices` and `arr` must have the same number of dimensions")
    shape = broadcast_shapes(tuple(1 if d == ax else s for d, s in enumerate(arr.shape)), idx.shape)
    idx = broadcast_to(idx, shape)
    key = []
    for d in range(arr.ndim):
        if d == ax:
            key.append(idx)
        else:
            key.append(broadcast_to(arange(shape[d]).reshape(tuple(-1 if e == d else 1 for e in range(arr.ndim))),
                                    shape))
    v = as_operand(values, "put_along_axis").astype(arr.dtype, copy=False)
    arr[tuple(key)] = broadcast_to(v, shape)


def select(condlist: Sequence[Any], choicelist: Sequence[Any], default: Any = 0) -> NDArray:
    """Per element, the entry of the first choice whose condition holds,
    else ``default`` (all broadcast; the choices' dtypes promote)."""
    if len(condlist) != len(choicelist):
        raise ValueError("list of cases must be same length as list of conditions")
    if len(choicelist) == 0:
        raise ValueError("select with an empty condition list is not possible")
    choices = [c if isinstance(c, (bool, int, float, complex)) else as_operand(c, "select") for c in choicelist]
    conds = []
    for i, c in enumerate(condlist):
        ca = as_operand(c, "select")
        if ca.dtype.kind != "b":
            raise TypeError(f"invalid entry {i} in condlist: should be boolean ndarray")
        conds.append(ca)
    dt = _dt.result_type(*choices, default)
    out: Any = default
    for cond, choice in zip(reversed(conds), reversed(choices), strict=True):
        out = _ew.where(cond, choice, out)
    res = as_operand(out)
    return res if res.dtype is dt else res.astype(dt)


def choose(a: Any, choices: Sequence[Any], out: NDArray | None = None, mode: str = "raise") -> NDArray:
    """Per element, ``choices[a[i]][i]`` (all broadcast together); ``mode``
    "raise", "wrap" or "clip" for indices outside ``range(len(choices))``;
    NumPy's ``out=`` (third, as in NumPy's order) receives the result."""
    idx = _ints(a, "choose")
    n = len(choices)
    if n == 0:
        raise ValueError("choose: choices must not be empty")
    idx, outside = _clip_mode(idx, n, mode, 0)
    if outside:
        raise ValueError("invalid entry in choice array")
    arrs = broadcast_arrays(idx, *[as_operand(c, "choose") for c in choices])
    stacked = stack(list(arrs[1:]), axis=0)
    return write_out(out, take_along_axis(stacked, arrs[0][None], axis=0)[0], "choose")
