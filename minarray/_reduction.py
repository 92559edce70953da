"""The reduction driver every reducing chapter shares (statistics' sums and
means, the utility chapter's all/any, the searching chapter's
count_nonzero): axes in canonical form, the accumulator dtype of each
operation, one call into the C core's reduction kernels, keepdims, and
NumPy's ``where=``, ``initial=`` and ``out=`` of a reduction."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from minarray import _dtypes as _dt
from minarray import _elementwise as _ew
from minarray import _subclass
from minarray._array_object import NDArray, c_strides
from minarray._coerce import as_operand, asarray, normalize_axes, write_out
from minarray._dtypes import DType
from minarray._native import core

__all__: list[str] = []


Axis = int | tuple[int, ...] | None


# Operation codes of csrc/core/reduce.h (MA_R_*).
_SUM, _FSUM, _PROD, _MIN, _MAX, _ALL, _ANY, _COUNT, _SSD = range(9)


_HALF = (_dt.float16, _dt.bfloat16)


def _int_acc(d: DType) -> DType:
    """The default integer of d's signedness (bool counts as signed)."""
    return _dt.uint64 if d.kind == "u" else _dt.int64


def _acc_dtype(op: int, d: DType) -> DType:
    if op in (_ALL, _ANY):
        return _dt.bool
    if op == _COUNT:
        return _dt.int64
    if op in (_SUM, _PROD):
        if d.kind in "biu":
            return _int_acc(d)
        return _dt.float32 if d in _HALF else d
    if op in (_FSUM, _SSD):
        if d.kind in "biu":
            return _dt.float64
        return _dt.float32 if d in _HALF else d
    # _MIN, _MAX
    return _dt.float32 if d in _HALF else d


# (op, input dtype) -> accumulator dtype, mirroring csrc/core/gen/gen_reduce.py.
_ACC: dict[tuple[int, DType], DType] = {(op, d): _acc_dtype(op, d) for op in range(9) for d in _dt.KERNEL}


def _axes(axis: Axis, ndim: int) -> tuple[int, ...] | None:
    """Sorted, normalized axes; None (all axes) stays None, the fast path."""
    return None if axis is None else normalize_axes(axis, ndim)


def _keepdims_view(out: NDArray, ndim: int, axes: tuple[int, ...] | None) -> NDArray:
    if axes is None:
        shp: tuple[int, ...] = (1,) * ndim
    else:
        shape = list(out.shape)
        for a in axes:
            shape.insert(a, 1)
        shp = tuple(shape)
    return out._view(0, shp, c_strides(shp))


def _reduce_axes(op: int, x: NDArray, axes: tuple[int, ...] | None, *, extra: NDArray | None = None,
                divisor: float = -1.0, take_sqrt: bool = False) -> NDArray:
    """Run kernel ``op`` over the (normalized, sorted) ``axes`` of ``x``
    (None: all of them); returns the accumulator array of the kept shape
    (a storage type's, float8's say, is its wide type's: float32)."""
    x = x._widened()
    nd = len(x._shape)
    if axes is None:
        nred = nd
    else:
        nred = len(axes)
        if axes != tuple(range(nd - nred, nd)):
            order = (*[d for d in range(nd) if d not in axes], *axes)
            x = x._view(0, tuple(x._shape[d] for d in order), tuple(x._strides[d] for d in order))
    h = core.reduce(op, x._h, None, nred, None if extra is None else extra._h, divisor, take_sqrt)
    # (its strides, C-contiguous, read from the handle when asked)
    return NDArray._new(h, x._shape[:nd - nred], None, None)


def _finish(out: NDArray, result: DType, x: NDArray, axes: tuple[int, ...] | None, keepdims: bool) -> NDArray:
    if out._dtype is not result:
        # a float16 total rounds here: its overflow is the reduction's, as
        # in NumPy ("overflow encountered in reduce")
        out = core.ndarray_copy(out, result, "reduce")
    if keepdims:
        out = _keepdims_view(out, x.ndim, axes)
    elif type(x) is NDArray:
        return core.scalar_result(out)  # a reduction to 0-d is NumPy's scalar
    if type(x) is NDArray or type(x) is _dt.scalar_class:
        return out if keepdims else core.scalar_result(out)
    made: NDArray = _subclass.reduced(out, x)  # an instance of a subclass, as NumPy's np.sum(sub)
    return made


def where_mask(where: Any, shape: tuple[int, ...]) -> NDArray:
    """NumPy's ``where=`` of a reduction as a boolean array of the reduced
    array's shape: the mask broadcasts to the array, never the other way,
    and numbers count by their truth, as NumPy reads them."""
    m = as_operand(where)
    full = NDArray._empty(shape, _dt.bool)
    core.copyto(full._h, m._h)
    return full


def masked(x: NDArray, where: Any, fill: Any) -> NDArray:
    """``x`` with the elements ``where=`` leaves out replaced by ``fill`` in
    x's dtype: reducing it is reducing the selected elements only when
    ``fill`` is the operation's identity (or its ``initial``)."""
    return _ew.where(where_mask(where, x.shape), x, asarray(fill, dtype=x.dtype))


def with_options(run: Callable[[NDArray], NDArray], x: Any, fill: Any, combine: Any, initial: Any, where: Any,
                 out: NDArray | None, name: str) -> NDArray:
    """A reduction ``run`` with NumPy's options: ``where=`` replaces the
    left-out elements by ``fill`` (the identity), ``initial=`` joins the
    result through the binary function ``combine`` (NumPy starts the
    reduction from it; for these associative operations that is the same
    value), ``out=`` receives the result."""
    x = as_operand(x)
    if where is not True:
        x = masked(x, where, fill)
    result = run(x)
    if initial is not None:
        result = combine(result, asarray(initial, dtype=result.dtype)).astype(result.dtype, copy=False)
    return write_out(out, result, name)
