"""The C cast kernels for every (source, destination) dtype pair, against
NumPy's astype (ml_dtypes' for bfloat16).

Float to integer conversion of NaN, infinities and values out of the target
range is platform behaviour in NumPy (C leaves it undefined).  minarray
gives x86-64's values, the rule in csrc/core/scalar.h: those of NumPy's
scalar and strided loops on x86-64, which the expected values here come
from.  (Its contiguous float -> uint32 loop differs in its vectorised body.)
From the ml_dtypes formats those elements are only required not to crash.
Which casts warn is tests/test_errstate.py's subject: here they are
silenced.
"""

from __future__ import annotations

import math
import warnings
from typing import Any

import numpy as np
import pytest
from array_strategies import (
    ALL_DTYPES,
    NP_BFLOAT16,
    assert_equal_values,
    dtypes,
    examples,
    np_dtype,
    shapes,
    values_of,
)
from hypothesis import given
from hypothesis import strategies as st

import minarray as ma

# complex to real casts are compared with NumPy's values here; their ComplexWarning
# is checked where it is the subject (below, and test_scalar_arith.py)
pytestmark = [pytest.mark.filterwarnings("ignore::minarray.exceptions.ComplexWarning"),
              pytest.mark.skipif(NP_BFLOAT16 is None, reason="bfloat16 casts are checked against ml_dtypes"),
              pytest.mark.filterwarnings("ignore:.* encountered in cast:RuntimeWarning")]

_INTS = [0, 1, -1, 2, 7, 100, 127, -128, 128, 255, 256, -129, 1000, 32767, -32768, 65535, 65536,
         2**24 + 1, 2**31 - 1, -(2**31), 2**32 - 1, 2**53 + 1, 2**63 - 1, -(2**63), 2**64 - 1, 123456789]
_FLOATS = [0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 0.9999, -0.9999, 1.5, -1.5, 2.5, 3.5, 127.9, -128.9, 255.5,
           256.0, 1000.25, 65504.0, 65520.0, 1e5, -1e5, 3e9, -3e9, 1e20, -1e20, 1e-8, 6e-8, 1e-40, 5e-324,
           2.0**63, 2.0**64, -(2.0**63), 2.0**53 + 2, 1 + 2**-8 + 2**-30, 3.4e38, 1e300, math.pi,
           math.nan, math.inf, -math.inf]


def _source_values(d: ma.DType) -> np.ndarray:
    """Interesting values representable in ``d`` (as NumPy converts them)."""
    nd = np_dtype(d)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if d is ma.bool:
            return np.array([False, True, True, False], dtype=bool)
        if d.kind in "iu":
            info = np.iinfo(nd)
            return np.array([v for v in _INTS if info.min <= v <= info.max], dtype=nd)
        if d.kind == "f":
            return np.array(_FLOATS, dtype=np.float64).astype(nd)
        re = np.array(_FLOATS, dtype=np.float64)
        im = np.roll(re, 7)
        return (re + 1j * im).astype(nd)


def _comparable(src: np.ndarray, dst: ma.DType) -> np.ndarray:
    """Mask of elements whose cast result is compared: all of them, except
    out-of-range floats to integers from the ml_dtypes formats (platform
    behaviour there)."""
    if dst.kind not in "iu" or src.dtype.kind in "biufc":
        return np.ones(src.shape, dtype=bool)
    real = np.real(src.astype(np.complex128)) if src.dtype.kind == "c" else src.astype(np.float64)
    info = np.iinfo(np_dtype(dst))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        t = np.trunc(real)
        return np.isfinite(real) & (t >= info.min) & (t <= info.max) & (np.abs(t) < 2.0**63)


def _expected_cast(arr: np.ndarray, dst: ma.DType) -> np.ndarray:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if arr.dtype.kind in "fc" and dst.kind in "iu":
            # NumPy's strided loop: the scalar conversion of each element
            flat = arr.reshape(-1)
            return np.repeat(flat, 2)[::2].astype(np_dtype(dst)).reshape(arr.shape)
        return arr.astype(np_dtype(dst))


@pytest.mark.parametrize("src", ALL_DTYPES, ids=str)
@pytest.mark.parametrize("dst", ALL_DTYPES, ids=str)
def test_cast_every_pair_matches_numpy(src: ma.DType, dst: ma.DType) -> None:
    arr = _source_values(src)
    x = ma.asarray(arr, copy=True)
    assert x.dtype is src
    got = x.astype(dst)
    assert got.dtype is dst and got.shape == arr.shape and got.base is None
    expected = _expected_cast(arr, dst)
    mask = _comparable(arr, dst)
    assert_equal_values(values_of(got)[mask], expected[mask])
    # the same through a strided, reversed source and a strided destination
    out = ma.zeros(arr.shape[0] * 2, dtype=dst)
    out[::-2] = x
    assert_equal_values(values_of(out[::-2])[mask], expected[mask])


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=str)
def test_astype_copy_flag(dtype: ma.DType) -> None:
    x = ma.zeros((2, 3), dtype=dtype)
    assert x.astype(dtype, copy=False) is x
    c = x.astype(dtype)
    assert c is not x and c.data_ptr != x.data_ptr
    assert ma.astype(x, dtype, copy=False) is x
    assert x.astype(dtype.name).dtype is dtype
    assert x.T.astype(dtype).flags.c_contiguous
    with pytest.raises(ValueError, match="device"):
        x.astype(dtype, device="gpu")


@examples(60)
@given(dtypes(), dtypes(), shapes(max_dims=4, max_side=4), st.data())
def test_astype_of_views_matches_numpy(src: ma.DType, dst: ma.DType, shape: tuple[int, ...],
                                       data: st.DataObject) -> None:
    base = _source_values(src)
    n = math.prod(shape)
    arr = np.resize(base, n).reshape(shape)
    x = ma.asarray(arr, copy=True)
    key: Any = tuple(slice(None, None, data.draw(st.sampled_from([1, -1, 2, -2]))) for _ in shape)
    v, nv = x[key], arr[key]
    got = v.astype(dst)
    assert got.flags.c_contiguous and got.shape == nv.shape
    mask = _comparable(nv, dst)
    assert_equal_values(values_of(got)[mask], _expected_cast(nv, dst)[mask])


def test_float_to_int_out_of_range_does_not_crash() -> None:
    specials = ma.asarray([math.nan, math.inf, -math.inf, 1e300, -1e300, 2.0**64, -(2.0**63) - 4096])
    for d in ALL_DTYPES:
        if d.kind in "iu":
            r = specials.astype(d)
            assert r.shape == (7,) and all(isinstance(v, int) for v in r.tolist())
    assert specials.astype(ma.bool).tolist() == [True] * 7


def test_bfloat16_rounding_and_specials() -> None:
    x = ma.asarray([1.0, 1.00390625, 1.01171875, 3.0e38, 1e39, -0.0, math.nan, math.inf], dtype=ma.float32)
    b = x.astype(ma.bfloat16)
    got = b.tolist()
    # round to nearest even at the 8-bit mantissa; overflow goes to infinity
    assert got[:3] == [1.0, 1.0, 1.015625]
    assert got[4] == math.inf and math.copysign(1.0, got[5]) < 0
    assert math.isnan(got[6]) and got[7] == math.inf
    assert b.astype(ma.float32).tolist()[:3] == got[:3]
    with np.errstate(over="ignore"):  # 1e39 is inf in float32, as intended
        expected = np.array([1.0, 1.00390625, 1.01171875, 3.0e38, 1e39, -0.0, math.nan, math.inf],
                            dtype=np.float32).astype(NP_BFLOAT16)
    assert_equal_values(values_of(b), expected)


def test_float16_from_float64_rounds_once() -> None:
    v = float.fromhex("-0x1.5edfff204dc4fp+4")  # just below a float16 midpoint
    assert ma.asarray([v]).astype(ma.float16).tolist() == np.array([v]).astype(np.float16).tolist()
    assert ma.asarray([complex(v, 1)]).astype(ma.float16).tolist() == [-21.921875]


@pytest.mark.parametrize("target", ["float64", "float32", "float16", "int8", "uint64", "bool", "complex64"])
@pytest.mark.parametrize("shape", [(2,), (0,), ()])
def test_complex_to_real_cast_warns_as_numpy(target: str, shape: tuple[int, ...]) -> None:
    """NumPy's ComplexWarning for a cast that drops imaginary parts (even
    of no elements); none to bool or complex."""
    seen = []
    for m, a in ((np, np.full(shape, 1 + 2j)), (ma, ma.full(shape, 1 + 2j))):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            a.astype(getattr(m, target))
        seen.append([(w.category.__name__, str(w.message)) for w in caught])
    assert seen[1] == seen[0]
