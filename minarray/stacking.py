"""NumPy's joining and splitting routines beyond the Array API's ``concat``
and ``stack``: ``atleast_1d``/``2d``/``3d``, ``vstack``, ``hstack``,
``dstack``, ``column_stack``, ``split``, ``array_split`` and ``hsplit``,
``vsplit``, ``dsplit``.

Each join is one :func:`minarray.concat` of the inputs after the views
that give them the dimensions NumPy's rule asks for; each split returns
views of the input (no copy), as NumPy's do.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from minarray._args import as_int, as_ints
from minarray.creation import as_operand
from minarray.manipulation import concat
from minarray.ndarray import NDArray
from minarray.views import normalize_axis

__all__ = [
    "atleast_1d", "atleast_2d", "atleast_3d", "vstack", "hstack", "dstack", "column_stack",
    "split", "array_split", "hsplit", "vsplit", "dsplit", "block",
]


def _at_least(x: Any, n: int) -> NDArray:
    a = as_operand(x)
    if a.ndim >= n:
        return a
    if n == 1 or a.ndim == 0:
        shape: tuple[int, ...] = (1,) * (n - a.ndim) + a.shape
    elif n == 2 or a.ndim == 2:  # (N,) -> (1, N); (M, N) -> (M, N, 1)
        shape = (1, *a.shape) if n == 2 else (*a.shape, 1)
    else:  # (N,) -> (1, N, 1)
        shape = (1, *a.shape, 1)
    return a.reshape(shape)


def _atleast(arys: tuple[Any, ...], n: int) -> Any:
    out = tuple(_at_least(a, n) for a in arys)
    return out[0] if len(out) == 1 else out


def atleast_1d(*arys: Any) -> Any:
    """Each input as an array of at least one dimension (a 0-d array
    becomes shape (1,)); one array for one input, else a tuple."""
    return _atleast(arys, 1)


def atleast_2d(*arys: Any) -> Any:
    """Each input with at least two dimensions: (N,) becomes (1, N)."""
    return _atleast(arys, 2)


def atleast_3d(*arys: Any) -> Any:
    """Each input with at least three dimensions: (N,) becomes (1, N, 1)
    and (M, N) becomes (M, N, 1), as NumPy's."""
    return _atleast(arys, 3)


def _seq(tup: Any, fname: str) -> list[Any]:
    if isinstance(tup, NDArray) or not isinstance(tup, (tuple, list)):
        raise TypeError(f"{fname} expects a sequence of arrays (a list or tuple), got {type(tup).__name__}")
    if not tup:
        raise ValueError("need at least one array to concatenate")
    return list(tup)


def _joined(arrs: list[NDArray], axis: int, dtype: Any) -> NDArray:
    out = concat(arrs, axis=axis)
    return out if dtype is None else out.astype(dtype)


def vstack(tup: Sequence[Any], *, dtype: Any = None) -> NDArray:
    """Stack arrays row-wise: :func:`concat` along axis 0 after
    :func:`atleast_2d` (1-d arrays become rows)."""
    return _joined([_at_least(a, 2) for a in _seq(tup, "vstack")], 0, dtype)


def hstack(tup: Sequence[Any], *, dtype: Any = None) -> NDArray:
    """Stack arrays column-wise: along axis 1, or axis 0 for 1-d arrays."""
    arrs = [_at_least(a, 1) for a in _seq(tup, "hstack")]
    return _joined(arrs, 0 if arrs[0].ndim == 1 else 1, dtype)


def dstack(tup: Sequence[Any]) -> NDArray:
    """Stack arrays depth-wise: along axis 2 after :func:`atleast_3d`."""
    return concat([_at_least(a, 3) for a in _seq(tup, "dstack")], axis=2)


def column_stack(tup: Sequence[Any]) -> NDArray:
    """1-d arrays as the columns of a 2-d array (2-d arrays join as they
    are), along axis 1."""
    arrs = []
    for a in _seq(tup, "column_stack"):
        x = as_operand(a)
        arrs.append(x.reshape((x.shape[0], 1)) if x.ndim == 1 else _at_least(x, 2))
    return concat(arrs, axis=1)


def _along(x: NDArray, ax: int, start: int, stop: int) -> NDArray:
    return x[(slice(None),) * ax + (slice(start, stop),)]


def array_split(ary: Any, indices_or_sections: Any, axis: int = 0) -> list[NDArray]:
    """Split ``ary`` along ``axis`` into views: an integer N gives N parts,
    the first ``len % N`` one element longer; a sequence of indices gives
    the parts between them (as slices: indices past the end give empty
    parts)."""
    x = as_operand(ary, "array_split")
    if x.ndim == 0:
        raise ValueError("array_split: a 0-d array cannot be split (it has no axis)")
    ax = normalize_axis(axis, x.ndim)
    n = x.shape[ax]
    if isinstance(indices_or_sections, (tuple, list, NDArray)) or hasattr(indices_or_sections, "__len__"):
        idx = indices_or_sections
        if isinstance(idx, NDArray) or hasattr(idx, "__array_interface__"):
            idx = as_operand(idx).tolist()
        bounds = [0, *as_ints(list(idx), "indices_or_sections entry"), n]
    else:
        sections = as_int(indices_or_sections, "indices_or_sections")
        if sections <= 0:
            raise ValueError("number sections must be larger than 0.")
        each, extra = divmod(n, sections)
        bounds = [0]
        for i in range(sections):
            bounds.append(bounds[-1] + each + (1 if i < extra else 0))
    return [_along(x, ax, bounds[i], bounds[i + 1]) for i in range(len(bounds) - 1)]


def split(ary: Any, indices_or_sections: Any, axis: int = 0) -> list[NDArray]:
    """:func:`array_split` where an integer N must divide the axis length
    evenly (ValueError otherwise, as NumPy's)."""
    x = as_operand(ary, "split")
    if not (isinstance(indices_or_sections, (tuple, list, NDArray)) or hasattr(indices_or_sections, "__len__")):
        sections = as_int(indices_or_sections, "indices_or_sections")
        if x.ndim and sections > 0 and x.shape[normalize_axis(axis, x.ndim)] % sections:
            raise ValueError("array split does not result in an equal division")
    return array_split(x, indices_or_sections, axis)


def hsplit(ary: Any, indices_or_sections: Any) -> list[NDArray]:
    """:func:`split` along axis 1 (axis 0 for 1-d arrays)."""
    x = as_operand(ary, "hsplit")
    if x.ndim == 0:
        raise ValueError("hsplit only works on arrays of 1 or more dimensions")
    return split(x, indices_or_sections, 1 if x.ndim > 1 else 0)


def vsplit(ary: Any, indices_or_sections: Any) -> list[NDArray]:
    """:func:`split` along axis 0 (arrays of 2 or more dimensions)."""
    x = as_operand(ary, "vsplit")
    if x.ndim < 2:
        raise ValueError("vsplit only works on arrays of 2 or more dimensions")
    return split(x, indices_or_sections, 0)


def dsplit(ary: Any, indices_or_sections: Any) -> list[NDArray]:
    """:func:`split` along axis 2 (arrays of 3 or more dimensions)."""
    x = as_operand(ary, "dsplit")
    if x.ndim < 3:
        raise ValueError("dsplit only works on arrays of 3 or more dimensions")
    return split(x, indices_or_sections, 2)


def _depth(x: Any, fname: str) -> int:
    if isinstance(x, tuple):
        raise TypeError(f"{fname} does not take tuples: nest lists of arrays")
    if isinstance(x, list):
        if not x:
            raise ValueError("List at arrays cannot be empty")
        depths = {_depth(p, fname) for p in x}
        if len(depths) != 1:
            raise ValueError("List depths are mismatched: every list of a level must hold lists, or arrays")
        return 1 + depths.pop()
    return 0


def block(arrays: Any) -> NDArray:
    """An array assembled from nested lists of blocks (NumPy's ``block``):
    the innermost lists join along the last axis, the next ones along the
    second-to-last, and so on; blocks get leading length-1 axes up to the
    result's dimensions."""
    depth = _depth(arrays, "block")

    def leaves(x: Any) -> list[NDArray]:
        return [a for p in x for a in leaves(p)] if isinstance(x, list) else [as_operand(x, "block")]

    ndim = max(depth, max(a.ndim for a in leaves(arrays)))

    def build(x: Any, level: int) -> NDArray:
        if not isinstance(x, list):
            a = as_operand(x, "block")
            return a.reshape((1,) * (ndim - a.ndim) + a.shape)
        return concat([build(p, level + 1) for p in x], axis=-(depth - level))

    return build(arrays, 0)
