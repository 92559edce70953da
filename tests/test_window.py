"""NumPy's window functions and i0 (minarray/_window.py) against NumPy:
values, dtypes and shapes over the lengths NumPy treats apart (M < 1,
M == 1, even and odd, a float M), and the errors.

The values agree to a few units in the last place: the formulas are
NumPy's, evaluated in the same order, but ``cos`` and ``exp`` are
minarray's (NumPy's SIMD loops round some arguments the other way)."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest
from numpy_errors import raises_as_numpy

import minarray as ma

WINDOWS = ("bartlett", "blackman", "hamming", "hanning")
LENGTHS: tuple[Any, ...] = (-3, 0, 1, 2, 3, 6, 7, 51, 7.5, True, np.int64(9), np.float32(4.0))


def close(got: Any, expected: Any, ulps: int = 4) -> None:
    """Values within ``ulps`` of NumPy's (absolutely too: a window's zeros
    are the difference of two terms near 0.5), same dtype and shape."""
    e = np.asarray(expected)
    g = np.asarray(got)
    assert isinstance(got, ma.NDArray)
    assert g.dtype == e.dtype, f"dtype {g.dtype}, NumPy {e.dtype}"
    assert g.shape == e.shape, f"shape {g.shape}, NumPy {e.shape}"
    eps = np.finfo(e.dtype).eps if e.dtype.kind in "fc" else 0
    np.testing.assert_allclose(g, e, rtol=ulps * eps, atol=ulps * eps, equal_nan=True)


@pytest.mark.parametrize("name", WINDOWS)
@pytest.mark.parametrize("M", LENGTHS, ids=[f"M={m!r}" for m in LENGTHS])
def test_window_as_numpy(name: str, M: Any) -> None:
    close(getattr(ma, name)(M), getattr(np, name)(M))


@pytest.mark.parametrize("name", WINDOWS)
def test_window_ends_and_middle_as_numpy(name: str) -> None:
    w, want = np.asarray(getattr(ma, name)(13)), getattr(np, name)(13)
    assert w[0] == want[0] and w[-1] == want[-1]  # 0.0, or the Hamming window's 0.08
    assert w[6] == want[6]  # the peak: 1.0, to rounding


BETAS = (0.0, 2.5, 5.0, 8.6, 14.0, 40.0)


@pytest.mark.parametrize("beta", BETAS, ids=[f"beta={b}" for b in BETAS])
@pytest.mark.parametrize("M", (-1, 0, 1, 2, 5, 12, 7.5), ids=lambda m: f"M={m}")
def test_kaiser_as_numpy(M: Any, beta: float) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # a float M reaches sqrt(<0): NaN on both sides
        close(ma.kaiser(M, beta), np.kaiser(M, beta), ulps=16)


@pytest.mark.parametrize("name", WINDOWS)
def test_window_lists_and_strings_refused_as_numpy(name: str) -> None:
    raises_as_numpy(lambda m: getattr(m, name)([3, 4]), "sequence")
    raises_as_numpy(lambda m: getattr(m, name)("a"), "str")


def test_kaiser_errors_as_numpy() -> None:
    raises_as_numpy(lambda m: m.kaiser(4, [1.0, 2.0]), "sequence")
    raises_as_numpy(lambda m: m.kaiser(4, 1j), "complex")


# ---- i0 -------------------------------------------------------------------------------------

I0_VALUES = np.array([-30.0, -8.0, -1.5, 0.0, 1e-300, 0.5, 2.0, 7.999, 8.0, 8.001, 20.0, 100.0, 700.0, 710.0,
                      np.inf, -np.inf, np.nan])


@pytest.mark.parametrize("dtype", ["float64", "float32", "float16", "int64", "int8", "uint16", "bool"])
def test_i0_as_numpy(dtype: str) -> None:
    x = I0_VALUES if dtype in ("float64", "float32", "float16") else np.array([-3, 0, 1, 5, 9, 12])
    x = (x != 0) if dtype == "bool" else x.astype(dtype) if dtype.startswith("u") is False else abs(x).astype(dtype)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # overflow to inf: both warn
        close(ma.i0(ma.asarray(x)), np.i0(x), ulps=16)


@pytest.mark.parametrize("arg", [0.5, [1.0, 9.0], [[2, 3], [10, 11]], 3], ids=["float", "list", "nested", "int"])
def test_i0_array_likes_as_numpy(arg: Any) -> None:
    got, want = ma.i0(arg), np.i0(arg)
    close(got, want, ulps=16)
    assert got.ndim == want.ndim  # a Python scalar gives a 0-d array, as NumPy's


def test_i0_strided_input_as_numpy() -> None:
    x = np.linspace(-20, 20, 24).reshape(4, 6)[::2, ::-3]
    close(ma.i0(ma.asarray(np.ascontiguousarray(x))[...]), np.i0(x), ulps=16)
    close(ma.i0(ma.asarray(np.linspace(-20, 20, 24).reshape(4, 6))[::2, ::-3]), np.i0(x), ulps=16)


def test_i0_complex_refused_as_numpy() -> None:
    raises_as_numpy(lambda m: m.i0(m.asarray([1 + 1j])), "complex")


def test_i0_reads_its_input_before_writing() -> None:
    x = ma.asarray([1.0, 9.0, -2.0])
    before = np.asarray(x).copy()
    ma.i0(x)
    np.testing.assert_array_equal(np.asarray(x), before)
