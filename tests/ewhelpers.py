"""Shared helpers of the elementwise tests: operand strategies (contiguous,
strided, reversed and transposed views built identically in NumPy and
minarray) and comparisons with stated tolerances."""

from __future__ import annotations

from typing import Any

import numpy as np
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp
from numpy_oracle import np_function

import minarray as ma

NP_DTYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
             "float16", "float32", "float64", "complex64", "complex128"]

# Functions that are correctly rounded in IEEE arithmetic (or exact), so a
# float result must match NumPy bit for bit (0 ULP), signed zeros included.
EXACT = {
    "abs", "add", "subtract", "multiply", "divide", "floor_divide", "remainder", "sqrt",
    "negative", "positive", "ceil", "floor", "trunc", "round", "sign", "signbit", "square",
    "reciprocal", "maximum", "minimum", "copysign", "nextafter", "spacing", "real", "imag", "conj",
    "isfinite", "isinf", "isnan", "equal", "not_equal", "less", "less_equal", "greater",
    "greater_equal", "logical_and", "logical_or", "logical_xor", "logical_not", "bitwise_and",
    "bitwise_or", "bitwise_xor", "bitwise_invert", "bitwise_left_shift", "bitwise_right_shift",
}
# Transcendental functions: glibc documents its vector math (libmvec), used
# for contiguous float32/float64 data, as accurate to 4 ULP; the reference is
# the function evaluated in higher precision, rounded to the result dtype.
TRANSCENDENTAL_ULP = 4
# float16/bfloat16 compute in float32 and round once: within 1 ULP of the
# correctly rounded result.
HALF_ULP = 1
# Complex results: each component within this many machine epsilons of the
# result's modulus (complex functions combine several real operations).
COMPLEX_EPS = 8


def np_fn(name: str) -> Any:
    return np_function(name)


def to_numpy(x: ma.NDArray) -> np.ndarray:
    if x.dtype == ma.bfloat16:
        return np.asarray(x.astype(ma.float32))
    return np.asarray(x)


@st.composite
def operand(draw: st.DrawFn, dtype: str, shape: tuple[int, ...],
            elements: st.SearchStrategy[Any] | None = None) -> tuple[np.ndarray, ma.NDArray]:
    """The same values as a NumPy array and as a minarray array, both in a
    layout drawn from contiguous / strided / reversed / transposed."""
    layout = draw(st.sampled_from(["contiguous", "strided", "reversed", "transposed"]))
    if not shape:
        layout = "contiguous"
    if layout == "strided":
        base_shape = (*shape[:-1], shape[-1] * 2)
    elif layout == "transposed":
        base_shape = shape[::-1]
    else:
        base_shape = shape
    base = draw(hnp.arrays(dtype, base_shape, elements=elements))
    m = ma.asarray(base.copy())
    if layout == "strided":
        return base[..., ::2], m[..., ::2]
    if layout == "reversed":
        return base[::-1], ma.flip(m, axis=0)
    if layout == "transposed":
        return base.T, m.T
    return base, m


def _ordered(x: np.ndarray) -> np.ndarray:
    """Map floats to integers whose difference counts ULPs (+0 and -0 map to
    the same integer)."""
    it = {2: np.int16, 4: np.int32, 8: np.int64}[x.dtype.itemsize]
    i = x.view(it).astype(np.int64)
    return np.where(i < 0, -(i & np.int64(np.iinfo(it).max)), i)


def ulp_distance(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return np.abs(_ordered(a) - _ordered(b))


def assert_same(got: np.ndarray, want: np.ndarray, ulps: int = 0, signed_zeros: bool = True,
                what: str = "") -> None:
    """``got`` equals ``want`` in dtype, shape and values: integers and bools
    exactly, floats within ``ulps`` (NaN where NaN, infinities exact, and the
    sign of zero when ``signed_zeros``), complex per component within
    COMPLEX_EPS of the modulus when ``ulps`` is nonzero."""
    assert got.dtype == want.dtype, f"{what}: dtype {got.dtype}, expected {want.dtype}"
    assert got.shape == want.shape, f"{what}: shape {got.shape}, expected {want.shape}"
    if want.dtype.kind in "biu":
        np.testing.assert_array_equal(got, want, err_msg=what)
        return
    if want.dtype.kind == "c":
        for part in ("real", "imag"):
            g, w = getattr(got, part), getattr(want, part)
            if ulps == 0:
                assert_same(g, w, 0, signed_zeros, f"{what} ({part})")
                continue
            mod = np.abs(want)
            finite = np.isfinite(w) & np.isfinite(g) & np.isfinite(mod)
            np.testing.assert_array_equal(np.isnan(g), np.isnan(w), err_msg=f"{what} ({part}) NaN")
            inf = np.isinf(w)
            np.testing.assert_array_equal(g[inf], w[inf], err_msg=f"{what} ({part}) inf")
            eps = np.finfo(want.real.dtype).eps
            err = np.abs(g[finite].astype(np.float64) - w[finite])
            bound = COMPLEX_EPS * eps * mod[finite] + np.finfo(want.real.dtype).tiny
            assert np.all(err <= bound), f"{what} ({part}): max error {err.max()} > {COMPLEX_EPS} eps * |z|"
        return
    nan_g, nan_w = np.isnan(got), np.isnan(want)
    np.testing.assert_array_equal(nan_g, nan_w, err_msg=f"{what}: NaN positions differ")
    ok = ~nan_w
    dist = ulp_distance(got[ok], want[ok])
    assert dist.size == 0 or dist.max() <= ulps, (
        f"{what}: {dist.max()} ULP apart (allowed {ulps}); got {got[ok][dist > ulps][:5]}, "
        f"expected {want[ok][dist > ulps][:5]}"
    )
    if signed_zeros:
        zero = ok & (want == 0)
        np.testing.assert_array_equal(np.signbit(got[zero]), np.signbit(want[zero]),
                                      err_msg=f"{what}: sign of zero differs")
