"""Functions that return views: new shape and strides over the same buffer.

``broadcast_shapes`` here is the one place broadcast shapes are computed.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from minarray._args import as_int, as_intp, as_ints
from minarray._native import core
from minarray.exceptions import AxisError
from minarray.ndarray import NDArray, c_strides

__all__ = [
    "broadcast_shapes", "broadcast_to", "broadcast_arrays", "expand_dims", "flip",
    "moveaxis", "permute_dims", "reshape", "squeeze", "swapaxes", "matrix_transpose",
    "normalize_axis",
    # NumPy's view-returning routines the standard does not have
    "ravel", "transpose", "fliplr", "flipud", "rot90", "diagonal",
]



def normalize_axis(axis: Any, ndim: int, what: str = "axis") -> int:
    """An axis index in [0, ndim); AxisError (an IndexError, as the Array API
    names, and a ValueError, as NumPy's) outside [-ndim, ndim)."""
    ax = axis if type(axis) is int else as_int(axis, what)  # the common case without a call
    if type(ndim) is not int:
        ndim = as_int(ndim, "ndim")
    if not -ndim <= ax < ndim:
        raise AxisError(ax, ndim, what)
    return ax % ndim if ndim else 0


def normalize_axes(axis: Any, ndim: int) -> tuple[int, ...]:
    """``None`` -> all axes; an int or a sequence -> sorted unique axes."""
    if axis is None:
        return tuple(range(ndim))
    if isinstance(axis, (tuple, list)):
        axes = tuple(normalize_axis(a, ndim) for a in axis)
        if len(set(axes)) != len(axes):
            raise ValueError(f"repeated axis in {tuple(axis)}")
        return tuple(sorted(axes))
    return (normalize_axis(axis, ndim),)


def broadcast_shapes(*shapes: tuple[int, ...]) -> tuple[int, ...]:
    """The shape arrays of ``shapes`` broadcast to (NumPy rules, computed by
    the C core's one statement of them, ``ma_broadcast_shape``)."""
    if len(shapes) == 2 and shapes[0] == shapes[1]:
        return tuple(shapes[0])
    out: tuple[int, ...] | None = core.broadcast_shapes(shapes)
    if out is None:
        raise ValueError("shapes " + ", ".join(str(tuple(x)) for x in shapes) + " cannot be broadcast together")
    return out


def broadcast_to(x: NDArray, /, shape: Sequence[int]) -> NDArray:
    """A read-only view of ``x`` with ``shape`` (size-1 dims get stride 0)."""
    shape = as_ints(shape, "broadcast_to: shape entry")
    if any(n < 0 for n in shape):
        raise ValueError(f"negative dimensions are not allowed in shape {shape}")
    tail = shape[len(shape) - x.ndim:]
    if len(shape) < x.ndim or any(n != xn and xn != 1 for n, xn in zip(tail, x.shape, strict=True)):
        raise ValueError(f"cannot broadcast an array of shape {x.shape} to shape {shape}")
    pad = len(shape) - x.ndim
    strides = [0] * pad
    for xn, s in zip(x.shape, x._strides, strict=True):
        # a size-1 axis gets stride 0 even when it stays size 1, as in NumPy
        strides.append(s if xn != 1 else 0)
    return x._view(0, shape, tuple(strides), readonly=True)


def broadcast_arrays(*arrays: NDArray) -> tuple[NDArray, ...]:
    """The arrays broadcast against each other: read-only views of one
    common shape, as a tuple (Array API 2025.12, and NumPy 2)."""
    shape = broadcast_shapes(*(a.shape for a in arrays))
    return tuple(a if a.shape == shape else broadcast_to(a, shape) for a in arrays)


def permute_dims(x: NDArray, /, axes: tuple[int, ...]) -> NDArray:
    """A view of ``x`` with its axes reordered as ``axes`` (a permutation of ``range(x.ndim)``)."""
    if type(axes) is tuple:  # a tuple of ints: built in C (None for anything else)
        out: NDArray | None = core.ndarray_permute(x, axes)
        if out is not None:
            return out
    return permute_general(x, axes)


def permute_general(x: NDArray, axes: Sequence[Any]) -> NDArray:
    """permute_dims for the axes C does not take (it tried first), and the
    errors: NumPy integers, lists, repeated or out-of-range axes."""
    ax = tuple(normalize_axis(a, x.ndim) for a in axes)
    if sorted(ax) != list(range(x.ndim)):
        raise ValueError(f"axes {tuple(axes)} are not a permutation of the array's {x.ndim} dimensions")
    return x._view(0, tuple(x.shape[a] for a in ax), tuple(x._strides[a] for a in ax))


def swapaxes(x: NDArray, axis1: int, axis2: int) -> NDArray:
    """A view of ``x`` with ``axis1`` and ``axis2`` exchanged."""
    order = list(range(x.ndim))
    a, b = normalize_axis(axis1, x.ndim), normalize_axis(axis2, x.ndim)
    order[a], order[b] = order[b], order[a]
    return permute_dims(x, tuple(order))


def matrix_transpose(x: NDArray, /) -> NDArray:
    """A view of ``x`` with its last two axes exchanged (needs at least 2 dimensions)."""
    if x.ndim < 2:
        raise ValueError(f"matrix_transpose needs at least 2 dimensions, got {x.ndim}")
    return swapaxes(x, -1, -2)


def moveaxis(x: NDArray, source: int | tuple[int, ...], destination: int | tuple[int, ...], /) -> NDArray:
    """A view of ``x`` with the axes ``source`` moved to positions ``destination``."""
    src = (source,) if not isinstance(source, (tuple, list)) else tuple(source)
    dst = (destination,) if not isinstance(destination, (tuple, list)) else tuple(destination)
    if len(src) != len(dst):
        raise ValueError("source and destination must have the same number of axes")
    s = [normalize_axis(a, x.ndim, "source") for a in src]
    d = [normalize_axis(a, x.ndim, "destination") for a in dst]
    if len(set(s)) != len(s) or len(set(d)) != len(d):
        raise ValueError("repeated axis in moveaxis")
    order = [n for n in range(x.ndim) if n not in s]
    for dest, srcax in sorted(zip(d, s, strict=True)):
        order.insert(dest, srcax)
    return permute_dims(x, tuple(order))


def expand_dims(x: NDArray, /, axis: int | tuple[int, ...] = 0) -> NDArray:
    """A view of ``x`` with a new axis of length 1 at each position in ``axis``."""
    axes = (axis,) if not isinstance(axis, (tuple, list)) else tuple(axis)
    nd = x.ndim + len(axes)
    norm = sorted(normalize_axis(a, nd) for a in axes)
    if len(set(norm)) != len(norm):
        raise ValueError(f"repeated axis in {axes}")
    shape = list(x.shape)
    for a in norm:
        shape.insert(a, 1)
    # as NumPy: a reshape, which inserting size-1 axes never makes a copy
    # (and which gives the new axes NumPy's strides)
    return reshape(x, tuple(shape), copy=False)


def squeeze(x: NDArray, /, axis: int | tuple[int, ...] | None = None) -> NDArray:
    """A view of ``x`` without the length-1 axes in ``axis`` (all of them when None); ValueError
    for an axis whose length is not 1."""
    if axis is None:
        axes = tuple(i for i, n in enumerate(x.shape) if n == 1)
    else:
        axes = normalize_axes(axis, x.ndim)
        for a in axes:
            if x.shape[a] != 1:
                raise ValueError(f"cannot squeeze axis {a}: its size is {x.shape[a]}, not 1")
    keep = [i for i in range(x.ndim) if i not in axes]
    return x._view(0, tuple(x.shape[i] for i in keep), tuple(x._strides[i] for i in keep))


def flip(x: NDArray, /, *, axis: int | tuple[int, ...] | None = None) -> NDArray:
    """A view of ``x`` with the order of elements reversed along ``axis`` (all axes when None):
    negative strides, no copy."""
    axes = normalize_axes(axis, x.ndim)
    offset = 0
    strides = list(x._strides)
    for a in axes:
        if x.shape[a] > 0:
            offset += (x.shape[a] - 1) * strides[a]
        strides[a] = -strides[a]
    return x._view(offset, x.shape, tuple(strides))


def _infer_shape(shape: Sequence[Any], size: int) -> tuple[int, ...]:
    dims = list(as_ints(shape, "reshape: shape entry"))
    unknown = [i for i, n in enumerate(dims) if n == -1]
    if len(unknown) > 1:
        raise ValueError("can only specify one unknown dimension (-1)")
    if any(n < -1 for n in dims):
        raise ValueError(f"negative dimensions are not allowed in shape {tuple(dims)}")
    known = math.prod(n for n in dims if n != -1)
    if unknown:
        if known == 0 or size % known:
            raise ValueError(f"cannot reshape an array of size {size} into shape {tuple(dims)}")
        dims[unknown[0]] = size // known
    elif known != size:
        raise ValueError(f"cannot reshape an array of size {size} into shape {tuple(dims)}")
    return tuple(dims)


def _reshape_strides(shape: tuple[int, ...], strides: tuple[int, ...], new: tuple[int, ...]) -> tuple[int, ...] | None:
    """Element strides that lay ``new`` over the same memory in C order, or
    None when the layout does not allow a view.

    A port of NumPy's ``_attempt_nocopy_reshape`` (numpy/_core/src/
    multiarray/shape.c), so views, copies and even the strides of size-1
    axes come out as NumPy's: old and new axes are grouped into runs of
    equal size; each old run must be contiguous in C order, and the new
    run's strides are derived from the old run's innermost stride.  Only
    called for arrays that are not C-contiguous (those simply take C
    strides, as in NumPy).
    """
    # size-1 axes never affect addressing; leaving them out avoids special cases
    old = [(n, s) for n, s in zip(shape, strides, strict=True) if n != 1]
    out = [0] * len(new)
    oi = ni = 0
    while ni < len(new) and oi < len(old):
        np_, op = new[ni], old[oi][0]
        nj, oj = ni + 1, oi + 1
        while np_ != op:
            if np_ < op:
                np_ *= new[nj]
                nj += 1
            else:
                op *= old[oj][0]
                oj += 1
        for k in range(oi, oj - 1):  # the old run must be contiguous in C order
            if old[k][1] != old[k + 1][0] * old[k + 1][1]:
                return None
        out[nj - 1] = old[oj - 1][1]
        for k in range(nj - 1, ni, -1):
            out[k - 1] = out[k] * new[k]
        ni, oi = nj, oj
    # trailing size-1 axes of `new` repeat the last stride (NumPy does the same)
    last = out[ni - 1] if ni >= 1 else 1
    for k in range(ni, len(new)):
        out[k] = last
    return tuple(out)


def reshape(x: NDArray, /, shape: Sequence[Any], order: str = "C", *, copy: bool | None = None) -> NDArray:
    """A view when the strides allow one, else a copy (``copy=False``
    raises ValueError instead; ``copy=True`` always copies).  ``order="F"``
    reads and places the elements in Fortran order (first index fastest),
    ``"A"`` in Fortran order when ``x`` is Fortran-contiguous and not
    C-contiguous, as NumPy's.

    Views and copies, and the strides of the views, are NumPy's
    (``PyArray_Newshape``): the same shape as given gives a plain view, a
    C-contiguous array takes C strides, anything else goes through
    ``_reshape_strides``.
    """
    if order != "C":
        return reshape_fortran(x, shape, order, copy)
    if copy is None and type(shape) is tuple:
        # the common views, in C (it takes NDArray.reshape's argument tuple)
        out: NDArray | None = core.ndarray_reshape(x, (shape,))
        if out is not None:
            return out
    return reshape_general(x, shape, copy)


def reshape_fortran(x: NDArray, shape: Any, order: str, copy: bool | None) -> NDArray:
    """reshape in Fortran order: the C-order reshape of the reversed axes,
    with its axes reversed back (a view whenever that one is)."""
    if order not in ("C", "F", "A"):
        raise ValueError(f"order must be 'C', 'F' or 'A', got {order!r}")
    dims = tuple(shape) if isinstance(shape, (tuple, list)) else (shape,)
    if order == "A" and not (x.flags.f_contiguous and not x.flags.c_contiguous):
        return reshape_general(x, dims, copy)
    if order == "C":
        return reshape_general(x, dims, copy)
    out = reshape_general(permute_general(x, tuple(range(x.ndim - 1, -1, -1))), dims[::-1], copy)
    return permute_general(out, tuple(range(out.ndim - 1, -1, -1)))


def reshape_general(x: NDArray, shape: Any, copy: bool | None) -> NDArray:
    """reshape for what C does not take (it tried first): copies, strided
    views, -1 in odd places, and the errors."""
    if not isinstance(shape, (tuple, list)):
        shape = (shape,)
    requested = tuple(shape)
    new = _infer_shape(requested, x.size)
    if copy is True:
        # as NumPy: the result is a view of a fresh copy (its base is the copy)
        return x.copy()._view(0, new, c_strides(new))
    if requested == x.shape:
        return x._view(0, new, x._strides)  # nothing to do: strides kept as they are
    if core.is_contiguous(x._h, False):
        return x._view(0, new, c_strides(new))
    strides = _reshape_strides(x.shape, x._strides, new)
    if strides is None:
        if copy is False:
            raise ValueError(
                f"cannot reshape the array of shape {x.shape} and strides {x.strides} into shape {new} "
                "without copying (copy=False)"
            )
        return x.copy()._view(0, new, c_strides(new))
    return x._view(0, new, strides)


# ---- NumPy's view-returning routines ------------------------------------------

def _operand(x: Any) -> NDArray:
    from minarray.creation import as_operand

    return as_operand(x)


def ravel(a: Any, order: str = "C") -> NDArray:
    """The elements as a 1-d array in C order: a view when ``a`` is
    C-contiguous, else a copy (NumPy's ``ravel``; only ``order="C"``)."""
    if order != "C":
        raise ValueError(f"ravel: only order='C' is supported, not {order!r}")
    return _operand(a).ravel()


def transpose(a: Any, axes: Sequence[int] | None = None) -> NDArray:
    """NumPy's ``transpose``: a view with the axes reversed, or permuted as
    ``axes`` says (the standard's :func:`permute_dims` requires them)."""
    x = _operand(a)
    return x.transpose() if axes is None else x.transpose(tuple(axes))


def fliplr(m: Any) -> NDArray:
    """A view with the columns (axis 1) in reverse order."""
    x = _operand(m)
    if x.ndim < 2:
        raise ValueError(f"Input must be >= 2-d (fliplr got shape {x.shape}).")
    return flip(x, axis=1)


def flipud(m: Any) -> NDArray:
    """A view with the rows (axis 0) in reverse order."""
    x = _operand(m)
    if x.ndim < 1:
        raise ValueError("Input must be >= 1-d (flipud got a 0-d array).")
    return flip(x, axis=0)


def rot90(m: Any, k: int = 1, axes: Sequence[int] = (0, 1)) -> NDArray:
    """A view rotated by 90 degrees ``k`` times in the plane of ``axes``,
    from the first axis towards the second (NumPy's ``rot90``)."""
    x = _operand(m)
    ax = tuple(axes)
    if len(ax) != 2:
        raise ValueError("len(axes) must be 2.")
    a0, a1 = as_int(ax[0], "rot90: axes entry"), as_int(ax[1], "rot90: axes entry")
    if a0 == a1 or abs(a0 - a1) == x.ndim:
        raise ValueError("Axes must be different.")
    if not (-x.ndim <= a0 < x.ndim and -x.ndim <= a1 < x.ndim):
        raise ValueError(f"Axes={ax} out of range for array of ndim={x.ndim}.")
    k = as_int(k, "rot90: k") % 4
    if k == 0:
        return x[...]
    if k == 2:
        return flip(flip(x, axis=a0), axis=a1)
    perm = list(range(x.ndim))
    perm[a0], perm[a1] = perm[a1], perm[a0]
    if k == 1:
        return permute_dims(flip(x, axis=a1), tuple(perm))
    return flip(permute_dims(x, tuple(perm)), axis=a1)


def diagonal(a: Any, offset: int = 0, axis1: int = 0, axis2: int = 1) -> NDArray:
    """NumPy's ``diagonal``: the diagonal ``offset`` of the 2-d subarrays
    over ``axis1`` and ``axis2``, as a read-only view with the diagonal
    last (``ma.linalg.diagonal`` is the standard's, over the last two
    axes)."""
    x = _operand(a)
    if x.ndim < 2:
        raise ValueError("diag requires an array of at least two dimensions")
    a1, a2 = normalize_axis(axis1, x.ndim, "axis1"), normalize_axis(axis2, x.ndim, "axis2")
    if a1 == a2:
        raise ValueError("axis1 and axis2 cannot be the same")
    k = as_intp(offset, "diagonal: offset")
    n1, n2 = x.shape[a1], x.shape[a2]
    s1, s2 = x._strides[a1], x._strides[a2]
    if k >= 0:
        length, start = max(0, min(n1, n2 - k)), k * s2
    else:
        length, start = max(0, min(n1 + k, n2)), -k * s1
    if length == 0:
        start = 0
    rest = [d for d in range(x.ndim) if d not in (a1, a2)]
    return x._view(start, (*(x.shape[d] for d in rest), length), (*(x._strides[d] for d in rest), s1 + s2),
                   readonly=True)
