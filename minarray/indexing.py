"""``__getitem__`` and ``__setitem__``.

Basic indices (integers, slices, ``...``, ``None``) make views that share
the buffer.  Integer arrays and boolean masks ("advanced" indices) make
copies through the C gather/scatter kernel (csrc/core/gather.c), following
NumPy's rules for where the broadcast index dimensions go.
"""

from __future__ import annotations

import operator
from typing import Any

from minarray import dtypes as _dt
from minarray._native import core
from minarray.ndarray import NDArray, c_strides

__all__ = ["getitem", "setitem", "nonzero"]

_INVALID = (
    "only integers, slices (`:`), ellipsis (`...`), None and integer or boolean arrays are valid indices"
)


class _Mask:
    """A boolean index (Python/NumPy bool or bool array): covers ``ndim`` axes."""

    __slots__ = ("a",)

    def __init__(self, a: NDArray) -> None:
        self.a = a


def _index_array(arr: NDArray) -> Any:
    """An array used as an index: a mask, an integer array, or (0-d
    integer) a plain integer, which NumPy and the Array API treat as one."""
    if arr.dtype is _dt.bool:
        return _Mask(arr)
    if arr.dtype.kind in "iu":
        return int(core.item(arr._h, 0)) if arr.ndim == 0 else arr
    if arr.size == 0 and arr.dtype is _dt.float64:  # `x[[]]`: an empty list is float64 by default
        return arr.astype(_dt.int64)
    raise IndexError(f"arrays used as indices must be of integer or boolean type, not {arr.dtype}")


def _entry(k: Any) -> Any:
    """One entry of an index, normalised: None, Ellipsis, slice, int,
    _Mask or an integer NDArray."""
    if k is None or k is Ellipsis or isinstance(k, slice):
        return k
    if isinstance(k, bool):
        return _Mask(NDArray._new(core.from_scalar(k, _dt.bool.code, 8), (), (), None))
    if isinstance(k, int):
        return k
    if isinstance(k, NDArray):
        return _index_array(k)
    if isinstance(k, (list, tuple)) or hasattr(k, "__array_interface__") or hasattr(k, "__dlpack__"):
        if getattr(k, "ndim", None) == 0 and getattr(getattr(k, "dtype", None), "kind", "") in "iu":
            return operator.index(k)  # a NumPy integer scalar or 0-d array
        from minarray.creation import asarray

        try:
            arr = asarray(k)
        except (TypeError, ValueError) as exc:
            raise IndexError(f"{_INVALID}; this one could not be made an array: {exc}") from None
        return _index_array(arr)
    try:
        return operator.index(k)
    except TypeError:
        raise IndexError(f"{_INVALID}, not {type(k).__name__}") from None


def _expand(key: Any, ndim: int) -> list[Any]:
    """The key as a list of normalised entries, ``...`` replaced by full
    slices and missing trailing axes filled in.  When the key has array
    entries, its integers become 0-d index arrays: NumPy counts them as
    advanced indices (that decides where the broadcast axes go)."""
    if not isinstance(key, tuple):
        key = (key,)
    entries = [_entry(k) for k in key]
    n_ellipsis = sum(1 for k in entries if k is Ellipsis)
    if n_ellipsis > 1:
        raise IndexError("an index can only have a single ellipsis ('...')")
    consumed = sum(k.a.ndim if isinstance(k, _Mask) else 1
                   for k in entries if k is not None and k is not Ellipsis)
    if consumed > ndim:
        raise IndexError(f"too many indices for array: array is {ndim}-dimensional, but {consumed} were indexed")
    if n_ellipsis:
        # an ellipsis standing for no axes stays, as a marker: NumPy counts
        # it as a basic index between advanced ones (they are then not
        # adjacent); _basic skips it
        i = next(j for j, k in enumerate(entries) if k is Ellipsis)
        if ndim > consumed:
            entries[i:i + 1] = [slice(None)] * (ndim - consumed)
    else:
        entries.extend([slice(None)] * (ndim - consumed))
    if any(isinstance(k, (_Mask, NDArray)) for k in entries):
        entries = [
            NDArray._new(core.from_scalar(k, _dt.int64.code, 64), (), (), None)
            if isinstance(k, int) else k
            for k in entries
        ]
    return entries


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
        elif isinstance(k, _Mask):
            where.append(e)
            m = k.a
            mshape = xshape[dim:dim + m.ndim]
            if m.shape != mshape:
                for j, (a, b) in enumerate(zip(mshape, m.shape, strict=True)):
                    if a != b and b != 0:
                        raise IndexError(
                            f"boolean index did not match the indexed array along axis {dim + j}: the axis "
                            f"has size {a} but the boolean index has size {b}"
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
    from minarray.views import broadcast_shapes, broadcast_to, permute_dims

    axes = [a for a, _ in advanced]
    rest = [i for i in range(view.ndim) if i not in axes]
    src = permute_dims(view, tuple(axes + rest))
    try:
        bshape = broadcast_shapes(*(ix.shape for _, ix in advanced))
    except ValueError:
        shapes = " ".join(str(ix.shape) for _, ix in advanced)
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


def getitem(x: NDArray, key: Any) -> NDArray:
    """x[key] for every key (NDArray.__getitem__ answers the common ones in
    C first, and comes here only for the rest)."""
    entries = _expand(key, x.ndim)
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
        from minarray.views import moveaxis

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
        if isinstance(k, _Mask):
            out.extend(range(dim, dim + max(k.a.ndim, 1)))
            dim += k.a.ndim
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


def setitem(x: NDArray, key: Any, value: Any) -> None:
    entries = _expand(key, x.ndim)
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
        from minarray.views import broadcast_to, moveaxis

        full = broadcast_to(val, result_shape)
        val = moveaxis(full, tuple(range(position, position + nb)), tuple(range(nb)))
    blocks = NDArray._empty(bshape + rest, x.dtype)
    core.copyto(blocks._h, val._h)  # broadcasts and casts the value
    n = 1
    for d in bshape:
        n *= d
    _take_blocks(src, blocks.reshape((n, *rest)), flat, True, x, entries)


def _value_array(value: Any, dtype: _dt.DType) -> NDArray:
    from minarray.creation import asarray

    if isinstance(value, NDArray):
        return value
    if isinstance(value, (bool, int, float, complex)):
        return NDArray._new(core.from_scalar(value, dtype.code, dtype.bits), (), (), None)
    return asarray(value)


def nonzero(x: NDArray, /) -> tuple[NDArray, ...]:
    """Indices of the non-zero elements, one int64 array per dimension."""
    if x.ndim == 0:
        raise ValueError("nonzero is not defined for 0-d arrays; use x[None] or atleast_1d")
    count, h = core.nonzero(x._h)
    coords = NDArray._new(h, (count, x.ndim), c_strides((count, x.ndim)), None)
    return tuple(coords[:, j] for j in range(x.ndim))
