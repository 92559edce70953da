"""repr and str against NumPy's, character for character.

bfloat16 is compared with NumPy's printing of ml_dtypes' bfloat16 (as
objects: each element's own text).  The print options are
tests/test_printing.py's.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest
from array_strategies import NP_DTYPES, examples, np_dtype, shapes
from hypothesis import assume, given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp
from numpy_oracle import PRINT_REASON, array_repr, prints_like_current

import minarray as ma

PRINT_DTYPES = list(NP_DTYPES)


def _check(arr: np.ndarray) -> None:
    if not prints_like_current(arr):
        pytest.skip(PRINT_REASON)
    x = ma.asarray(arr, copy=True)
    assert repr(x) == array_repr(arr), f"\nminarray:\n{x!r}\nnumpy:\n{array_repr(arr)}"
    assert str(x) == str(arr), f"\nminarray:\n{x!s}\nnumpy:\n{arr!s}"


def _elements(d: ma.DType) -> st.SearchStrategy[Any]:
    if d is ma.bool:
        return st.booleans()
    if d.kind in "iu":
        info = np.iinfo(np_dtype(d))
        return st.integers(int(info.min), int(info.max)) | st.integers(-20, 20).filter(
            lambda v: info.min <= v <= info.max)
    width = {ma.float16: 16, ma.float32: 32, ma.float64: 64, ma.complex64: 32, ma.complex128: 64}[d]
    scale = st.sampled_from([1e-9, 1e-5, 1e-3, 1.0, 1.0, 10.0, 1e3, 1e7, 1e20])
    # values the dtype can hold: an overflow in hypothesis's own cast warns
    # (infinities come from the list below)
    big = float(np.finfo(np_dtype(d)).max)
    tidy = st.builds(lambda m, s: m * s, st.integers(-999, 999).map(lambda k: k / 8), scale).filter(
        lambda v: abs(v) <= big)
    real = st.one_of(tidy, st.floats(width=width), st.sampled_from([0.0, -0.0, math.inf, -math.inf, math.nan]))
    if d.kind == "c":
        return st.builds(complex, real, real)
    return real


@st.composite
def printable_arrays(draw: st.DrawFn) -> np.ndarray:
    d = draw(st.sampled_from(PRINT_DTYPES))
    shape = draw(shapes(max_dims=4, max_side=6, max_size=300))
    return draw(hnp.arrays(np_dtype(d), shape, elements=_elements(d).filter(
        lambda v: not isinstance(v, float) or not math.isfinite(v) or abs(v) < 1e300)))


@examples(150)
@given(printable_arrays())
def test_repr_and_str_match_numpy(arr: np.ndarray) -> None:
    with np.errstate(all="ignore"):
        arr = arr.copy()
    assume(prints_like_current(arr))  # (always so on NumPy 2.3 and later)
    _check(arr)


@pytest.mark.parametrize("dtype", PRINT_DTYPES, ids=str)
@pytest.mark.parametrize("shape", [(1001,), (3, 400), (11, 11, 11), (2, 3, 200), (1, 1001), (7, 7, 7, 7)])
def test_summarised_like_numpy(dtype: ma.DType, shape: tuple[int, ...]) -> None:
    rng = np.random.default_rng(sum(shape))
    with np.errstate(all="ignore"):
        arr = (rng.standard_normal(shape) * 100).astype(np_dtype(dtype)) if dtype.kind != "c" else (
            rng.standard_normal(shape) + 1j * rng.standard_normal(shape)).astype(np_dtype(dtype))
    _check(arr)


def test_summarised_reads_only_the_shown_elements() -> None:
    big = ma.zeros((1000, 1000), dtype=ma.int8)
    text = repr(big)
    assert text.endswith("shape=(1000, 1000), dtype=int8)")
    assert text.count("...") == 7  # one per shown row, one for the left-out rows


@pytest.mark.parametrize(
    "arr",
    [
        np.arange(12, dtype=np.int32).reshape(3, 4),
        np.arange(24).reshape(2, 3, 4),
        np.array([0.0, 0.25, 0.5]),
        np.array([1e6, 1], dtype=np.float32),
        np.array([1e5, 1], dtype=np.float32),
        np.array([1000.0, 1], dtype=np.float16),
        np.array([999.0, 1], dtype=np.float16),
        np.array([1e100, 1e5]),
        np.array([1e-5, 1.5]),
        np.array([np.nan, np.inf]),
        np.array([np.nan, -np.inf, 1.5]),
        np.array([1 + 2j, -1.5 - np.inf * 1j, np.nan]),
        np.array([1j, -1j, 0j]),
        np.array(1.0),
        np.array(-0.0),
        np.array(1e20),
        np.array(0.1, dtype=np.float32),
        np.array(1e20, dtype=np.float32),
        np.array(np.nan),
        np.array(True),
        np.array(7, dtype=np.uint8),
        np.array(1 + 2j, dtype=np.complex64),
        np.array(1.1 + 2j, dtype=np.complex64),
        np.array(-1.5j),
        np.array([True, True]),
        np.array([True, False]),
        np.zeros((2, 0)),
        np.zeros(0, dtype=np.int32),
        np.zeros(0),
        np.zeros((0,), dtype=bool),
        np.zeros((3, 0, 2), dtype=np.complex64),
        np.array([0.001953125, 1.0]),
        np.array([0.123456785, 1.0]),
        np.array([0.1, 1.23456789e-5], dtype=np.float32),
        np.linspace(0, 1, 30),
        np.arange(40).reshape(4, 10) * 1.5,
        np.arange(100, dtype=np.uint64) * 10**17,
        np.array([-(2**63), 2**63 - 1]),
        np.full((2, 2), -0.0),
        np.array([[1e-300, 1e300]]),
        np.array([5e-324, 1.0]),
        np.array([65504.0, -65504.0], dtype=np.float16),
        np.array([[[1.5]]], dtype=np.float32),
        np.array(1e7 + 1j, dtype=np.complex64),
        np.array(complex(-0.0, 1)),
        np.array(complex(1, math.nan)),
        np.array(complex(math.inf, -math.inf)),
        np.array(complex(0, -0.0)),
        np.array(123456.7, dtype=np.float32),
        np.array(1e3, dtype=np.float16),
        np.array(1e-4, dtype=np.float32),
        np.array(65504, dtype=np.float16),
        np.array(6e-8, dtype=np.float16),
        np.array(complex(1e-5, 1e20), dtype=np.complex64),
    ],
    ids=lambda a: f"{a.dtype}{a.shape}",
)
def test_known_cases(arr: np.ndarray) -> None:
    _check(arr)


def test_dtype_on_its_own_line_when_the_last_line_is_full() -> None:
    arr = np.arange(18, dtype=np.int32).reshape(1, 18) * 1000
    _check(arr)
    _check(np.arange(14, dtype=np.int16) * 1000)
    _check(np.arange(15, dtype=np.int16) * 1000)


def _bf16_values() -> list[np.ndarray]:
    return [
        np.array([0.5, 1.25, -3.0, 96.0, 0.0]),
        np.arange(-8, 8) / 4,
        np.array([[1.0, 2.0], [3.0, 4.0]]),
        np.array([0.0, math.inf, math.nan, -1.5]),
        np.array([2.0**-10, 2.0**10, 0.1, 1 / 3, 12345.0]),
        np.array(1.5),
        np.array(0.1),
        np.linspace(-1e6, 1e6, 1500),
    ]


@pytest.mark.parametrize("values", _bf16_values(), ids=lambda a: f"{a.shape}{a.flat[0]}")
def test_bfloat16_prints_as_numpy_with_ml_dtypes(values: np.ndarray) -> None:
    """NumPy prints ml_dtypes' bfloat16 as it prints objects: each element's
    own text (C++'s default stream format, "%g"), unaligned."""
    ml_dtypes = pytest.importorskip("ml_dtypes", reason="ml_dtypes gives NumPy its bfloat16")
    ref = values.astype(ml_dtypes.bfloat16)
    x = ma.asarray(values, dtype=ma.bfloat16)
    assert repr(x) == repr(ref)
    assert str(x) == str(ref)


def test_str_is_used_by_print() -> None:
    x = ma.arange(3)
    assert f"{x}" == "[0 1 2]"
    assert repr(x) == "array([0, 1, 2])"
    assert repr(ma.asarray([[0, 1], [2, 3]], dtype=ma.int32)) == "array([[0, 1],\n       [2, 3]], dtype=int32)"
