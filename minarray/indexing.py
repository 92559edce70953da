"""``__getitem__`` and ``__setitem__``.

Basic indices (integers, slices, ``...``, ``None``) make views that share
the buffer.  Integer arrays and boolean masks ("advanced" indices) make
copies through the C gather/scatter kernel (csrc/index.c), following
NumPy's rules for where the broadcast index dimensions go.
"""

from __future__ import annotations

import operator
from typing import Any

from minarray import dtypes as _dt
from minarray._native import core
from minarray.ndarray import NDArray, c_strides

__all__ = ["getitem", "setitem", "nonzero"]

_ADVANCED = "advanced"


def _is_index_array(k: Any) -> bool:
    if isinstance(k, NDArray):
        return k.ndim > 0 or k.dtype is _dt.bool
    return isinstance(k, (list, tuple)) or hasattr(k, "__array_interface__") or hasattr(k, "__dlpack__")


def _as_index_array(k: Any) -> NDArray:
    from minarray.creation import asarray

    arr = asarray(k)
    if arr.dtype.kind not in "iub":
        if arr.size == 0 and arr.dtype.kind == "f":
            return arr.astype(_dt.int64)
        raise IndexError(f"arrays used as indices must be of integer or boolean type, not {arr.dtype}")
    return arr


def _expand(key: Any, ndim: int) -> list[Any]:
    """The key as a list of entries with ``...`` replaced by full slices."""
    if not isinstance(key, tuple):
        key = (key,)
    entries: list[Any] = []
    for k in key:
        if k is None or k is Ellipsis or isinstance(k, slice):
            entries.append(k)
        elif isinstance(k, bool) or (isinstance(k, NDArray) and k.ndim == 0 and k.dtype is _dt.bool):
            entries.append(_as_index_array(k))
        elif _is_index_array(k):
            entries.append(_as_index_array(k))
        else:
            try:
                entries.append(operator.index(k))
            except TypeError:
                raise IndexError(
                    f"only integers, slices (`:`), ellipsis (`...`), None and integer or boolean "
                    f"arrays are valid indices, not {type(k).__name__}"
                ) from None
    n_ellipsis = sum(1 for k in entries if k is Ellipsis)
    if n_ellipsis > 1:
        raise IndexError("an index can only have a single ellipsis ('...')")
    consumed = sum(
        (k.ndim if isinstance(k, NDArray) and k.dtype is _dt.bool else 1)
        for k in entries if k is not None and k is not Ellipsis
    )
    if consumed > ndim:
        raise IndexError(f"too many indices for array: array is {ndim}-dimensional, but {consumed} were indexed")
    if n_ellipsis:
        i = entries.index(Ellipsis)
        entries[i:i + 1] = [slice(None)] * (ndim - consumed)
    else:
        entries.extend([slice(None)] * (ndim - consumed))
    return entries


def _basic(x: NDArray, entries: list[Any]) -> tuple[NDArray, list[tuple[int, NDArray]]]:
    """Apply the basic entries; advanced ones stay as full axes.  Returns the
    view and (axis in the view, index array) for each advanced entry."""
    shape: list[int] = []
    strides: list[int] = []
    offset = 0
    advanced: list[tuple[int, NDArray]] = []
    dim = 0
    for k in entries:
        if k is None:
            shape.append(1)
            strides.append(0)
        elif isinstance(k, slice):
            n, s = x.shape[dim], x._strides[dim]
            start, stop, step = k.indices(n)
            length = len(range(start, stop, step))
            if length:
                offset += start * s
            shape.append(length)
            strides.append(s * step)
            dim += 1
        elif isinstance(k, int):
            n = x.shape[dim]
            if not -n <= k < n:
                raise IndexError(f"index {k} is out of bounds for axis {dim} with size {n}")
            offset += (k % n) * x._strides[dim]
            dim += 1
        elif k.dtype is _dt.bool:
            # a k-d mask covers k axes; it becomes k integer index arrays
            mshape = x.shape[dim:dim + k.ndim]
            if k.ndim and k.shape != mshape:
                raise IndexError(
                    f"boolean index of shape {k.shape} does not match the indexed dimensions {mshape}"
                )
            idx = nonzero(k) if k.ndim else nonzero(k.reshape(1))
            if k.ndim == 0:  # a scalar bool adds an axis of length 1 (True) or 0 (False)
                shape.append(1)
                strides.append(0)
                advanced.append((len(shape) - 1, idx[0]))
            else:
                for j, ix in enumerate(idx):
                    shape.append(x.shape[dim + j])
                    strides.append(x._strides[dim + j])
                    advanced.append((len(shape) - 1, ix))
                dim += k.ndim
        else:
            shape.append(x.shape[dim])
            strides.append(x._strides[dim])
            advanced.append((len(shape) - 1, k))
            dim += 1
    return x._view(offset, tuple(shape), tuple(strides)), advanced


def _prepare_advanced(view: NDArray, advanced: list[tuple[int, NDArray]]) -> tuple[NDArray, list[NDArray], tuple[int, ...], tuple[int, ...], int]:
    """Move the indexed axes first; broadcast the index arrays to one flat
    int64 length.  Returns (source, flat indices, broadcast shape, rest shape,
    where the broadcast dims go in the result)."""
    from minarray.views import broadcast_shapes, broadcast_to, permute_dims

    axes = [a for a, _ in advanced]
    rest = [i for i in range(view.ndim) if i not in axes]
    src = permute_dims(view, tuple(axes + rest))
    bshape = broadcast_shapes(*(ix.shape for _, ix in advanced))
    flat = []
    for _, ix in advanced:
        b = broadcast_to(ix, bshape) if ix.shape != bshape else ix
        flat.append(b.astype(_dt.int64).reshape((b.size,)))
    adjacent = axes == list(range(axes[0], axes[0] + len(axes)))
    position = axes[0] if adjacent else 0
    return src, flat, bshape, tuple(view.shape[i] for i in rest), position


def getitem(x: NDArray, key: Any) -> NDArray:
    entries = _expand(key, x.ndim)
    view, advanced = _basic(x, entries)
    if not advanced:
        return view
    src, flat, bshape, rest, position = _prepare_advanced(view, advanced)
    n = 1
    for d in bshape:
        n *= d
    blocks = NDArray._empty((n, *rest), x.dtype)
    core.take_blocks(src._h, blocks._h, [f._h for f in flat], False)
    out = blocks.reshape(bshape + rest)
    if position:
        from minarray.views import moveaxis

        nb = len(bshape)
        out = moveaxis(out, tuple(range(nb)), tuple(range(position, position + nb)))
    return out


def setitem(x: NDArray, key: Any, value: Any) -> None:
    from minarray.creation import asarray

    entries = _expand(key, x.ndim)
    view, advanced = _basic(x, entries)
    if not advanced:
        if isinstance(value, (bool, int, float, complex)):
            core.fill(view._h, value)
        else:
            core.copyto(view._h, _value_array(value, x.dtype)._h)
        return
    src, flat, bshape, rest, position = _prepare_advanced(view, advanced)
    val = _value_array(value, x.dtype)
    nb = len(bshape)
    if position and val.ndim:
        # The value is shaped like getitem's result (broadcast dims at
        # `position`); move those dims first to match the source order.
        from minarray.views import broadcast_to, moveaxis

        full = broadcast_to(val, rest[:position] + bshape + rest[position:])
        val = moveaxis(full, tuple(range(position, position + nb)), tuple(range(nb)))
    blocks = NDArray._empty(bshape + rest, x.dtype)
    core.copyto(blocks._h, val._h)  # broadcasts and casts the value
    n = 1
    for d in bshape:
        n *= d
    core.take_blocks(src._h, blocks.reshape((n, *rest))._h, [f._h for f in flat], True)


def _value_array(value: Any, dtype: _dt.DType) -> NDArray:
    from minarray.creation import asarray

    if isinstance(value, NDArray):
        return value
    if isinstance(value, (bool, int, float, complex)):
        return NDArray._new(core.from_scalar(value, dtype.code, dtype.bits), (), (), dtype, None)
    return asarray(value)


def nonzero(x: NDArray, /) -> tuple[NDArray, ...]:
    """Indices of the non-zero elements, one int64 array per dimension."""
    if x.ndim == 0:
        raise ValueError("nonzero is not defined for 0-d arrays; use x[None] or atleast_1d")
    count, h = core.nonzero(x._h)
    coords = NDArray._new(h, (count, x.ndim), c_strides((count, x.ndim)), _dt.int64, None)
    return tuple(coords[:, j] for j in range(x.ndim))
