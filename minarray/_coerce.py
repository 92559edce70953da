"""How every function takes its arguments: the one place array-likes,
operands, integers and axes are turned into their canonical form.

``asarray`` (the Array API's, with NumPy's intake: nested sequences,
buffers, DLPack producers, the array interface and Python scalars),
``as_operand`` (an NDArray as is, else ``asarray``), the operators' operand
rule (an NDArray or an exact Python scalar, or None for NotImplemented),
integer arguments (``as_int``, ``as_intp``, ``as_ints``: NumPy's
``operator.index`` rule: ``2.0`` raises TypeError rather than being
truncated), axes (``normalize_axis``, ``normalize_axes``) and
``broadcast_shapes``, the one place broadcast shapes are computed.

This module sits under every chapter module and imports none of them, so
no chapter needs another one to read its arguments.
"""

from __future__ import annotations

import operator
import sys
from typing import Any, TypeVar, overload

from minarray import _dtypes as _dt
from minarray import dlpack
from minarray._array_interface import from_array_interface, from_buffer, interface_view
from minarray._array_object import NDArray, Shape
from minarray._native import core
from minarray._scalar import Scalar
from minarray.exceptions import AxisError

__all__ = [
    "as_int", "as_intp", "as_ints", "asarray", "broadcast_shapes", "normalize_axis",
]


def as_int(value: Any, what: str) -> int:
    """``value`` as a Python int, or TypeError naming the parameter ``what``
    and the type given."""
    try:
        return operator.index(value)
    except TypeError:
        pass
    core.not_an_integer(what, value)  # raises C's TypeError, the one wording (csrc/py/pyapi.c)


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


_SCALARS = (bool, int, float, complex)


_NATIVE_ORDER = "<" if sys.byteorder == "little" else ">"


def _numpy_generic(obj: Any) -> bool:
    """Is ``obj`` a NumPy scalar (np.float32(1), np.True_...)?  Checked
    without importing NumPy: if NumPy is not loaded, it cannot be one."""
    np = sys.modules.get("numpy")
    return np is not None and isinstance(obj, np.generic)


def _short(obj: Any) -> str:
    text = repr(obj)
    return text if len(text) <= 60 else text[:57] + "..."


def _scalar_array(v: Any, dt: _dt.DType | None) -> NDArray:
    """A 0-d array of the Python scalar ``v``: the nested intake's rules
    for its dtype (csrc/py/nested.c), a leaf without lists around it."""
    made: NDArray = core.ndarray_from_nested(v, dt)
    return made


def nested_leaf(obj: Any) -> NDArray:
    """A leaf of a nested sequence that is no Python scalar, as an array
    (csrc/py/nested.c calls this).  A bytes leaf is NumPy's bytes element,
    which minarray lacks, not a buffer of numbers as a top-level bytes is."""
    if isinstance(obj, (bytes, bytearray)):
        raise _dt.value_out_of_scope(bytes(obj))
    return asarray(obj)


def asarray(obj: Any, /, dtype: Any = None, order: str | None = None, *, device: Any = None,
            copy: bool | None = None) -> NDArray:
    """Array API ``asarray``, with NumPy's positional ``dtype`` and its
    ``order``: "C" or "F" asks for that memory order (a copy when the
    array has another), "A" for either, "K" (or None) for any.

    Accepts Python scalars, nested lists/tuples (of scalars, NumPy scalars or
    arrays), NDArrays, objects with ``__array_interface__`` (NumPy arrays),
    ``__dlpack__``, ``__array__`` or the buffer protocol.  Arrays are shared without a copy
    when dtype and layout allow.  ``copy=True`` always copies; ``copy=False``
    never does and raises ValueError when a copy would be needed (Array API
    2024.12); ``copy=None`` copies only when needed.
    """
    if type(obj) is NDArray and dtype is None and order is None and device is None and copy is None:
        return obj  # the commonest call (a function making sure of its input): nothing to decide
    if order is not None and order != "K":
        return _in_order(asarray(obj, dtype, device=device, copy=copy), order, copy)
    if device is None and (type(obj) in (list, tuple) or (obj is None and dtype is not None)) and copy is not False:
        # nested lists or tuples of numbers (exact types: a subclass may
        # export its memory): one C call when C can settle it alone.  None
        # with a dtype is NumPy's object None cast to it (NaN for floats).
        made: NDArray = core.ndarray_from_nested(obj, _dt.as_dtype(dtype) if dtype is not None else None)
        return made
    if device is None:
        # The common cases first, in as few C calls as possible: a plain
        # numpy.ndarray (the NumPy intake, csrc/py/numpy_struct.c: a view,
        # None for anything else, or why only a copy can hold it), or an
        # NDArray.
        got = core.numpy_asarray(obj)
        if isinstance(got, str):
            return _numpy_copy(obj, got, _dt.as_dtype(dtype) if dtype is not None else None, copy)
        if got is None and isinstance(obj, NDArray):
            # an instance of a subclass: a view of it as NDArray itself
            # (np.asarray's rule; asanyarray keeps the subclass)
            got = obj if type(obj) is NDArray else core.ndarray_view_as(obj, NDArray)
            if type(obj) is Scalar and copy is not False:
                # a scalar: a fresh writeable 0-d array, as NumPy's asarray
                # makes of its scalars (copy=False: the read-only view)
                got, copy = core.ndarray_copy(obj, None), None
        if got is not None:
            if dtype is None:
                return got.copy() if copy else got
            return _finish(got, _dt.as_dtype(dtype), copy, fresh=False)
    _device(device)
    dt = _dt.as_dtype(dtype) if dtype is not None else None
    if isinstance(obj, NDArray):
        return _finish(obj, dt, copy, fresh=False)
    if isinstance(obj, _SCALARS) and not _numpy_generic(obj):  # np.float64 is a float too
        if copy is False:
            raise ValueError("copy=False is impossible for a Python scalar: it has no memory to share")
        return _scalar_array(obj, dt)
    if _numpy_generic(obj):
        if copy is not False:
            # a NumPy scalar: a fresh writeable 0-d array
            return _scalar_array(obj.item(), dt or _dt.as_dtype(obj.dtype))
        # Sharing is possible, but read-only: NumPy scalars are immutable
        # (their interface claims otherwise).
        shared = from_array_interface(obj)
        return _finish(shared._view(0, (), (), readonly=True), dt, copy, fresh=False)
    if hasattr(obj, "__array_interface__") and not isinstance(obj, type):
        if not dlpack._numpy_ready:  # NumPy is loaded now: let the intake see its arrays
            dlpack._enable_numpy_fast_path()
        arr = core.numpy_asarray(obj)
        if arr is None:
            # a subclass, another producer, or a NumPy whose C ABI the
            # intake does not read: the interface dict
            order = getattr(getattr(obj, "dtype", None), "byteorder", "=")
            if order not in ("=", "|", _NATIVE_ORDER) and hasattr(obj, "astype"):
                # byte-swapped NumPy data: minarray's kernels read native order only
                return _numpy_copy(obj, "the source's byte order is not native", dt, copy)
            arr = interface_view(obj)
        if isinstance(arr, str):
            return _numpy_copy(obj, arr, dt, copy)
        return _finish(arr, dt, copy, fresh=False)
    if hasattr(obj, "__dlpack__") and not isinstance(obj, type):
        return _finish(dlpack.from_dlpack(obj), dt, copy, fresh=False)
    if hasattr(type(obj), "__array__") and not isinstance(obj, type):
        # NumPy's oldest door (an object that makes a NumPy array on demand):
        # what it returns is read as any array is; anything else is NumPy's
        # ValueError (and no endless chain of __array__ calls)
        made = obj.__array__()
        if not (isinstance(made, NDArray) or hasattr(made, "__array_interface__")):
            raise ValueError(f"object __array__ method not producing an array (got {type(made).__name__})")
        return asarray(made, dtype=dt, copy=copy)
    if isinstance(obj, (bytes, bytearray, memoryview)) or _has_buffer(obj):
        try:
            arr = from_buffer(obj, copy_ok=copy is not False)
        except BufferError as e:
            if copy is False:
                raise ValueError(f"{e}; a copy is needed, but copy=False") from None
            raise
        return _finish(arr, dt, copy, fresh=arr.base is None)
    if isinstance(obj, (list, tuple, range)):
        if copy is False:
            raise ValueError(f"copy=False is impossible for a {type(obj).__name__}: it has no array memory to share")
        seq: NDArray = core.ndarray_from_nested(list(obj) if isinstance(obj, range) else obj, dt)
        return seq
    if isinstance(obj, (str, bytes)) or obj is None:
        raise _dt.value_out_of_scope(obj)
    if hasattr(obj, "__index__") or hasattr(obj, "__float__") or hasattr(obj, "__complex__"):
        if copy is False:
            raise ValueError(f"copy=False is impossible for a {type(obj).__name__}: it has no memory to share")
        return _scalar_array(_to_python_scalar(obj), dt)
    raise TypeError(
        f"cannot convert {type(obj).__name__} to a minarray array: expected a number, a nested sequence of "
        "numbers, or an object with __array_interface__, __dlpack__, __array__ or the buffer protocol"
    )


def _in_order(x: NDArray, order: str, copy: bool | None) -> NDArray:
    """``x`` in the memory order NumPy's ``order=`` of asarray asks for:
    itself when it has it, else a copy (ValueError under copy=False)."""
    if order not in ("C", "F", "A"):
        raise ValueError(f"order must be one of 'C', 'F', 'A', or 'K' (got {order!r})")
    c, f = x.flags.c_contiguous, x.flags.f_contiguous
    if (order == "C" and c) or (order == "F" and f) or (order == "A" and (c or f)):
        return x
    if copy is False:
        raise ValueError(f"Unable to avoid copy while creating an array with order={order!r}")
    return x.copy("F" if order == "F" else "C")


def _numpy_copy(obj: Any, why: str, dt: _dt.DType | None, copy: bool | None) -> NDArray:
    """asarray of NumPy-interface data no view can describe (byte-swapped,
    strides that are not whole elements, misaligned): a fresh copy in
    native order, or ValueError saying ``why`` under ``copy=False``."""
    if copy is False:
        raise ValueError(f"{why}; a copy is needed, but copy=False")
    import numpy as np  # optional: NumPy is not a dependency of minarray

    # np.array always makes a fresh, aligned C-contiguous copy
    # (ascontiguousarray hands an unaligned contiguous array back)
    src = np.asarray(obj)
    c = np.array(src, dtype=src.dtype.newbyteorder("="), order="C", copy=True)
    return _finish(dlpack.from_numpy(c), dt, None, fresh=True)


def _to_python_scalar(obj: Any) -> bool | int | float | complex:
    if hasattr(obj, "__index__"):
        return operator.index(obj)
    if hasattr(obj, "__float__"):
        return float(obj)
    return complex(obj)


def _has_buffer(obj: Any) -> bool:
    if isinstance(obj, (list, tuple, str)):
        return False
    try:
        memoryview(obj)
    except TypeError:
        return False
    return True


def as_operand(x: Any, fname: str | None = None) -> NDArray:
    """``x`` itself when it is an NDArray, else ``asarray(x)``: how every
    function of the namespace takes its array arguments.  With ``fname``, a
    value asarray rejects is reported as an argument that function expects
    arrays for."""
    if isinstance(x, NDArray):
        return x
    if fname is None:
        return asarray(x)
    try:
        return asarray(x)
    except TypeError:
        raise TypeError(f"{fname} expects arrays, got {type(x).__name__}") from None


def as_array(x: Any, fname: str, what: str) -> NDArray:
    """The array argument ``what`` of a function NumPy gives arrays only
    (``np.copyto``'s destination, ``np.put``'s, ``np.astype``'s input):
    an NDArray, or a view of another library's array (NumPy's, a DLPack
    producer's), which an in-place function writes through; TypeError for
    anything else, as NumPy's "argument must be numpy.ndarray"."""
    if isinstance(x, NDArray):
        return x
    if not isinstance(x, type) and (hasattr(x, "__array_interface__") or hasattr(x, "__dlpack__")):
        return asarray(x, copy=False)
    raise TypeError(f"{fname}() argument {what} must be an array, not {type(x).__name__}")


def operator_operand(x: Any) -> Any:
    """An operand the C engine does not read directly (array-likes, Python
    number subclasses) as an NDArray or an exact Python scalar; None when
    it is neither (an operator then returns NotImplemented)."""
    if isinstance(x, NDArray):
        return x
    if isinstance(x, (int, float, complex)) and not hasattr(x, "dtype"):
        # a subclass of a Python number: the value, as the plain type
        return bool(x) if isinstance(x, bool) else int(x) if isinstance(x, int) else \
            float(x) if isinstance(x, float) else complex(x)
    if x is None or isinstance(x, (str, bytes)):
        return None
    try:
        return asarray(x)
    except (TypeError, ValueError):
        return None


def _finish(arr: NDArray, dt: _dt.DType | None, copy: bool | None, fresh: bool) -> NDArray:
    if dt is not None and dt is not arr.dtype:
        if copy is False:
            raise ValueError(f"converting {arr.dtype} to {dt} needs a copy, but copy=False")
        return arr.astype(dt)
    if copy and not fresh:
        return arr.copy()
    return arr


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
    out: tuple[int, ...] = core.broadcast_shapes(shapes)  # ValueError when they do not
    return out


def _device(device: Any) -> None:
    if device not in (None, "cpu"):
        raise ValueError(f"unsupported device {device!r}: minarray arrays live on 'cpu'")


def _scalar_dtype(v: Any) -> _dt.DType:
    if isinstance(v, bool):
        return _dt.bool
    if isinstance(v, int):
        return _dt.int64
    if isinstance(v, float):
        return _dt.float64
    if isinstance(v, complex):
        return _dt.complex128
    raise TypeError(f"expected a Python scalar (bool, int, float, complex), got {type(v).__name__}")


def drop_axis(t: Shape, i: int) -> Shape:
    return t[:i] + t[i + 1:]


def along_axis(x: NDArray, axis: int | None) -> tuple[NDArray, int]:
    """``x`` and the axis an operation runs along: ``axis=None`` means the
    flattened array (NumPy's rule for repeat and take)."""
    if axis is None:
        return x.reshape((-1,)), 0
    return x, normalize_axis(axis, x.ndim)


_Out = TypeVar("_Out")


@overload
def write_out(out: None, result: NDArray, name: str, casting: str = ..., broadcast: bool = ...) -> NDArray: ...


@overload
def write_out(out: _Out, result: NDArray, name: str, casting: str = ..., broadcast: bool = ...) -> _Out: ...


def write_out(out: Any, result: NDArray, name: str, casting: str = "unsafe", broadcast: bool = False) -> Any:
    """``out[...] = result`` for an ``out=`` argument, returning ``out``
    (NumPy's rule: the caller gets the array it passed back), or ``result``
    when ``out`` is None.  ``out`` must have the result's shape exactly, or
    with ``broadcast`` a shape the result broadcasts to (an elementwise
    function's ``out=``, as NumPy's ufuncs take it); the cast is "unsafe",
    as NumPy's reductions cast into ``out``, unless ``casting="same_kind"``
    (a ufunc's, matmul's)."""
    if out is None:
        return result
    if isinstance(out, NDArray):
        dst = out
    elif hasattr(out, "__dlpack__"):  # NumPy's ndarray, PyTorch's tensor: written through a zero-copy view
        dst = asarray(out, copy=False)
    else:
        raise TypeError(f"out must be an array, got {type(out).__name__}")
    fits = dst.shape == result.shape or (broadcast and len(dst.shape) >= len(result.shape) and all(
        r in (1, d) for r, d in zip(reversed(result.shape), reversed(dst.shape), strict=False)))
    if not fits:
        raise ValueError(f"{name}: output of shape {dst.shape} cannot hold the result of shape {result.shape}")
    if not _dt.casting_allows(result.dtype, dst.dtype, casting):
        raise _dt.ufunc_cast_error(name, "output", result.dtype, dst.dtype, casting)
    core.copyto(dst._h, result._h)
    return out
