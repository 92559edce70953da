"""The view and creation operations that have one implementation each, in C
(csrc/py/views.c, csrc/py/ndarray.c): permute_dims / transpose / .T,
reshape, empty / zeros, broadcast_shapes.  Every spelling of their
arguments (tuples, lists, NumPy integers, bools) and every bad one is
checked against NumPy: the same result, or the same exception type.

Cross-cutting, not a chapter's file: these operations span the
manipulation and creation chapters, and the file checks one rule of the
architecture across them (one implementation, in C, per operation)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import minarray as ma
from minarray.exceptions import AxisError


def _builtin(exc: BaseException) -> type[BaseException]:
    """The builtin exception type NumPy's error is (AxisError counts as both)."""
    return next(t for t in type(exc).__mro__ if t.__module__ == "builtins")


def _agree(call: Callable[[Any], Any]) -> Any:
    """call(np) and call(ma) both succeed with the same shape, strides and
    elements, or both raise, minarray with NumPy's exception type."""
    try:
        want = call(np)
    except Exception as e:  # NumPy's type is the oracle
        with pytest.raises(_builtin(e)):
            call(ma)
        return None
    got = call(ma)
    if isinstance(want, tuple):
        assert got == want
        return got
    assert got.shape == want.shape
    assert got.strides == want.strides or got.size <= 1
    np.testing.assert_array_equal(np.asarray(got), want)
    return got


AXES = [(0,), (0, 0), (0, 2), (1, 0), (-1, 0), (0, -3), (np.int64(1), 0), (1.0, 0), [1, 0],
        (np.int32(-1), np.uint8(0)), (2**70, 0), ("a", 0), (None, 0)]


@pytest.mark.parametrize("axes", AXES, ids=repr)
def test_permute_dims_any_axes_spelling(axes: Any) -> None:
    def call(m: Any) -> Any:
        x = m.arange(6).reshape(2, 3)
        return m.permute_dims(x, axes) if m is ma else np.transpose(x, axes)

    _agree(call)


@pytest.mark.parametrize("axes", AXES, ids=repr)
def test_transpose_any_axes_spelling(axes: Any) -> None:
    _agree(lambda m: m.arange(6).reshape(2, 3).transpose(axes))
    if isinstance(axes, tuple):
        _agree(lambda m: m.arange(6).reshape(2, 3).transpose(*axes))


def test_permute_errors_say_what_was_wrong() -> None:
    x = ma.zeros((2, 3))
    with pytest.raises(ValueError, match=r"axes \(0, 0\) are not a permutation of the array's 2 dimensions"):
        ma.permute_dims(x, (0, 0))
    with pytest.raises(ValueError, match=r"axes \(0,\) are not a permutation"):
        x.transpose(0)
    with pytest.raises(AxisError, match="axis 2 is out of bounds for an array of dimension 2"):
        ma.permute_dims(x, (0, 2))
    with pytest.raises(AxisError, match=f"axis {2**70} is out of bounds"):
        ma.permute_dims(x, (2**70, 0))
    with pytest.raises(TypeError, match=r"axis must be an integer: 'float' object cannot be interpreted as an "
                                        r"integer \(got 1.0\)"):
        ma.permute_dims(x, (1.0, 0))
    # an out-of-range axis is reported before a repeated one, as before
    with pytest.raises(AxisError):
        ma.permute_dims(x, (0, 0, 7))
    assert x.T.shape == x.transpose(None).shape == x.transpose().shape == (3, 2)
    with pytest.raises(ValueError, match="not a permutation"):  # as NumPy's "axes don't match array"
        x.transpose(())


def test_permute_of_0d_and_many_axes() -> None:
    _agree(lambda m: m.asarray(5.0).T)
    _agree(lambda m: m.zeros((1,) * 32).transpose(tuple(range(31, -1, -1))))
    _agree(lambda m: m.zeros((2, 1, 3))[:, :, ::2].T)


SHAPES = [((3, 4),), ([3, 4],), ((3, 4), 1), (np.int64(12),), (3.0, 4), (-1, -1), (5, 3), (-2, -6),
          (-1, 5), (((3, 4),),), (2**70, 0), (2**63, 1), (-(2**70), 1), (12,), (-1,), (2, -1, 1), ((),),
          (np.array(12),), ("a", 3), ((2, "a"),), (np.int64(3), np.int32(-1)), (3, 4, 0)]


@pytest.mark.parametrize("args", SHAPES, ids=repr)
@pytest.mark.parametrize("layout", ["c", "strided", "transposed"])
def test_reshape_any_shape_spelling(args: tuple[Any, ...], layout: str) -> None:
    def call(m: Any) -> Any:
        x = m.arange(24).reshape(2, 12)
        x = x[:, ::2] if layout == "strided" else x[:, :6].T if layout == "transposed" else x[:, :6]
        x = x.copy() if layout == "c" else x
        return x.reshape(*args)

    _agree(call)
    if len(args) == 1:
        _agree(lambda m: m.reshape(m.arange(12), args[0]))


@pytest.mark.parametrize("copy", [None, True, False])
@pytest.mark.parametrize("layout", ["c", "strided", "transposed"])
def test_reshape_copy_argument(copy: bool | None, layout: str) -> None:
    def take(a: Any) -> Any:
        return a[:, ::2] if layout == "strided" else a.T if layout == "transposed" else a

    def call(m: Any) -> Any:
        return take(m.arange(24).reshape(4, 6)).reshape(-1, copy=copy)

    got = _agree(call)
    if got is not None:
        src_np = take(np.arange(24).reshape(4, 6))
        src = ma.asarray(src_np)
        out = src.reshape(-1, copy=copy)
        assert (out.base is src) == np.shares_memory(src_np.reshape(-1, copy=copy), src_np)
        if copy is True:  # as NumPy: a view of a fresh copy
            assert out.base is not src and out.base.base is None


def test_reshape_copy_false_error() -> None:
    with pytest.raises(ValueError, match=r"cannot reshape the array of shape \(6, 4\) and strides \(8, 48\) into "
                                         r"shape \(24,\) without copying \(copy=False\)"):
        ma.arange(24).reshape(4, 6).T.reshape(24, copy=False)


def test_reshape_strided_views_follow_numpy() -> None:
    # NumPy's no-copy rule: runs of axes contiguous in C order regroup
    base = np.arange(2 * 3 * 4 * 5, dtype=np.int16).reshape(2, 3, 4, 5)
    for src in (base[:, :, ::2], base[::2], base[:, 1:], base.transpose(1, 0, 2, 3), base[:, :1, :, ::-1]):
        x = ma.asarray(src)
        n = x.size
        for new in ((n,), (src.shape[0], -1), (-1, src.shape[-1]), (*src.shape[:2], -1), (1, *src.shape, 1)):
            want, got = src.reshape(new), x.reshape(new)
            assert got.shape == want.shape and got.strides == want.strides
            assert (got.base is x) == np.shares_memory(want, src)
            np.testing.assert_array_equal(np.asarray(got), want)


def test_reshape_errors_say_what_was_wrong() -> None:
    x = ma.arange(12)
    for args, match in ((((5, 3),), r"cannot reshape an array of size 12 into shape \(5, 3\)"),
                        (((-1, -1),), r"can only specify one unknown dimension \(-1\)"),
                        (((-2, -6),), r"negative dimensions are not allowed in shape \(-2, -6\)"),
                        (((-1, 5),), r"cannot reshape an array of size 12 into shape \(-1, 5\)"),
                        (((2**63, 0),), "cannot reshape an array of size 12"),
                        (((1,) * 70,), "at most 64")):
        with pytest.raises(ValueError, match=match):
            x.reshape(*args)
    with pytest.raises(TypeError, match=r"reshape: shape entry must be an integer: 'str' object"):
        x.reshape(3, "a")
    with pytest.raises(ValueError, match="cannot reshape"):
        ma.zeros(0).reshape(-1, 0)
    with pytest.raises(ValueError, match="too large"):
        ma.zeros(0).reshape(2**40, 2**40, 0)


SHAPE_ARGS = [3, (2, 3), [2, 3], (), np.int64(3), (np.int64(2), 3), (2, -1), -1, (2, "a"), "a",
              3.0, (2.0,), np.array(3), (2**63,), (2**64, 0), (1,) * 64, (1,) * 65]


@pytest.mark.parametrize("shape", SHAPE_ARGS, ids=repr)
@pytest.mark.parametrize("fn", ["empty", "zeros", "ones"])
def test_creation_any_shape_spelling(shape: Any, fn: str) -> None:
    def call(m: Any) -> Any:
        out = getattr(m, fn)(shape, dtype="float32")
        if fn == "empty":
            out.fill(0)  # whatever the memory held
        return out

    got = _agree(call)
    if got is not None:
        assert type(got.shape) is tuple and all(type(n) is int for n in got.shape)


def test_creation_errors_say_what_was_wrong() -> None:
    with pytest.raises(ValueError, match=r"negative dimensions are not allowed: shape \(2, -1\)"):
        ma.empty((2, -1))
    with pytest.raises(TypeError, match=r"shape entry must be an integer: 'str' object cannot be interpreted as an "
                                        r"integer \(got 'a'\)"):
        ma.zeros((2, "a"))
    with pytest.raises(ValueError, match="does not fit in 64 bits"):
        ma.empty(2**63)
    with pytest.raises(TypeError, match="unknown dtype"):
        ma.empty(3, dtype="nope")
    with pytest.raises(ValueError, match="unsupported device"):
        ma.empty(3, device="gpu")
    for dtype in (ma.int8, "int8", np.int8, np.dtype("int8")):
        assert ma.zeros(2, dtype=dtype).dtype is ma.int8
    a = ma.empty((2, 3))
    assert a.dtype is ma.float64 and a.flags.c_contiguous and a.base is None


def test_where_minarray_differs_from_numpy() -> None:
    # Kept as they were: bools count as integers (NumPy rejects them), an
    # empty reshape() is a shape of no dims, and an array is no shape.
    x = ma.zeros((2, 3))
    assert ma.permute_dims(x, (True, False)).shape == (3, 2)
    assert ma.arange(12).reshape(True, 12).shape == (1, 12)
    assert ma.empty((True, 2)).shape == (1, 2) and ma.zeros(True).shape == (1,)
    assert type(ma.empty(True).shape[0]) is int
    with pytest.raises(ValueError, match=r"cannot reshape an array of size 12 into shape \(\)"):
        ma.arange(12).reshape()
    assert ma.asarray(7).reshape().shape == ()
    with pytest.raises(TypeError, match="shape entry must be an integer"):
        ma.empty(np.array([2, 3]))


@pytest.mark.parametrize("shapes", [((2, 1), (1, 3)), ((2,), (3,)), ((0,), (1,)), (), ((4, 4), (4,)),
                                    ((2, 3), (2, 3)), ((5, 1, 2), (3, 1), (2,)), ((2, 3), (3, 2))], ids=repr)
def test_broadcast_shapes(shapes: tuple[tuple[int, ...], ...]) -> None:
    _agree(lambda m: m.broadcast_shapes(*shapes))


def test_broadcast_shapes_error_names_the_shapes() -> None:
    with pytest.raises(ValueError, match=r"shapes \(2,\), \(3, 1\), \(4,\) cannot be broadcast together"):
        ma.broadcast_shapes((2,), [3, 1], (4,))


@pytest.mark.parametrize("order", ["C", "F", "A", "K"])
def test_copy_orders(order: str) -> None:
    base = np.arange(24.0).reshape(2, 3, 4)
    for src in (base, base.T, base[:, ::2], base.transpose(1, 2, 0), np.asfortranarray(base), base[:, :1, :1]):
        got, want = ma.asarray(src).copy(order=order), src.copy(order=order)
        assert got.shape == want.shape and got.strides == want.strides and got.base is None
        np.testing.assert_array_equal(np.asarray(got), want)


def test_reshape_reports_the_first_error_in_numpy_order() -> None:
    x = ma.arange(12)
    with pytest.raises(TypeError):  # every entry is read before the -1s are counted
        x.reshape(-1, -1, "a")
    with pytest.raises(ValueError, match="one unknown"):  # two -1s before a negative entry
        x.reshape(-1, -1, -3)
    with pytest.raises(ValueError, match="negative dimensions"):
        x.reshape(-3, 4)
