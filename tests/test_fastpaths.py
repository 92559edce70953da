"""The one-call fast paths of asarray, copy, astype, item/float, arange and
matmul against the general route they shortcut (and NumPy): same values,
dtype, strides, base and read-only flag, and the cases they must leave to
the general route."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import minarray as ma
from minarray._native import core

FAST_DTYPES = [np.bool_, np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32, np.int64,
               np.uint64, np.float16, np.float32, np.float64, np.complex64, np.complex128]


def _layout(x: ma.NDArray) -> tuple[Any, ...]:
    return (x.shape, x._strides, x.dtype, x.base is None, x.flags.writeable, x.__array_interface__["data"][0])


def _general(obj: Any, **kw: Any) -> ma.NDArray:
    # device="cpu" skips the fast paths: the general route, as before them
    return ma.asarray(obj, device="cpu", **kw)


# ---- copy / astype ------------------------------------------------------------

def _ma_sources() -> list[ma.NDArray]:
    base = ma.arange(24).reshape(2, 3, 4)
    ro = ma.asarray(np.arange(6.0))
    ro_np = np.arange(6.0)
    ro_np.flags.writeable = False
    return [base, base[:, 1:, ::2], base[::-1], base.T, ma.zeros((0, 3)), ma.asarray(2.5),
            ma.asarray(ro_np), ro[::2], ma.asarray(np.arange(5.0).astype(np.complex64))]


@pytest.mark.parametrize("src", _ma_sources(), ids=lambda a: f"{a.dtype}{a.shape}{a._strides}")
@pytest.mark.parametrize("dtype", [None, ma.float32, ma.int8, ma.bool, ma.complex128, ma.bfloat16])
def test_copy_and_astype_match_numpy(src: ma.NDArray, dtype: ma.DType | None) -> None:
    out = src.copy() if dtype is None else src.astype(dtype)
    assert out.base is None and out.flags.writeable and out.flags.c_contiguous
    assert out._strides == ma.empty(src.shape)._strides
    assert out.dtype == (src.dtype if dtype is None else dtype)
    if dtype is not ma.bfloat16:
        src_np = np.asarray(src)
        if src_np.dtype.kind == "c" and dtype is not None and dtype.kind != "c":
            src_np = src_np.real  # what a complex-to-real cast keeps, without NumPy's warning
        want = src_np.astype(src_np.dtype if dtype is None else np.dtype(str(dtype)))
        np.testing.assert_array_equal(np.asarray(out), want)


def test_ndarray_copy_declines() -> None:
    m = ma.arange(3)
    assert core.ndarray_copy(np.arange(3), None) is None
    assert core.ndarray_copy(m, "float32") is None
    assert core.ndarray_copy(m, np.float32) is None
    assert core.ndarray_copy([1, 2], None) is None
    # and the methods still accept what the C side declines
    assert m.astype("float32").dtype == ma.float32
    assert m.astype(np.float32).dtype == ma.float32
    with pytest.raises(ValueError, match="order must be"):
        m.copy(order="X")
    f = ma.arange(6).reshape(2, 3).copy(order="F")
    assert f.flags.f_contiguous and not f.flags.c_contiguous


def test_copy_of_an_overlapping_view_is_independent() -> None:
    m = ma.arange(10)
    c = m[::-1].copy()
    m[0] = 100
    assert c.tolist() == list(range(9, -1, -1))


# ---- item / float / int / bool ----------------------------------------------------

@pytest.mark.parametrize("dtype", [ma.bool, ma.int8, ma.uint64, ma.float16, ma.bfloat16, ma.float64, ma.complex64])
def test_scalar_conversions(dtype: ma.DType) -> None:
    for x in (ma.ones((), dtype=dtype), ma.ones((1, 1), dtype=dtype), ma.ones((3,), dtype=dtype)[1:2]):
        v = x.item()
        assert v == 1 and type(v) is type(ma.ones(3, dtype=dtype).tolist()[0])
        assert bool(x) is True
        assert complex(x) == 1
        if dtype.kind != "c":
            assert float(x) == 1.0 and type(float(x)) is float
            assert int(x) == 1
        else:
            with pytest.raises(TypeError, match="complex array to float"):
                float(x)
    big = ma.ones(3, dtype=dtype)
    with pytest.raises(ValueError, match="size 1 to a Python scalar, not size 3"):
        big.item()
    with pytest.raises(TypeError, match="Python float, not size 3"):
        float(big)
    with pytest.raises(TypeError, match="Python int, not size 0"):
        int(ma.ones(0, dtype=dtype))
    with pytest.raises(ValueError, match="ambiguous"):
        bool(big)


def test_ndarray_item_declines() -> None:
    assert core.ndarray_item(np.ones(())) is None
    assert core.ndarray_item(ma.ones(2)) is None
    assert core.ndarray_item(ma.ones(0)) is None
    assert core.ndarray_item(3.0) is None
