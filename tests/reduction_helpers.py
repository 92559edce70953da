"""Hypothesis strategies shared by the reduction, searching and sorting
tests: random arrays of every dtype as (NumPy array, minarray array) pairs
holding the same values, optionally as non-contiguous views built the same
way on both sides."""

from __future__ import annotations

from typing import Any

import numpy as np
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import minarray as ma

INTS = ["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"]
FLOATS = ["float16", "float32", "float64"]
COMPLEX = ["complex64", "complex128"]
REAL = ["bool", *INTS, *FLOATS]
ALL = [*REAL, *COMPLEX]


def values(rng: np.random.Generator, dtype: str, shape: tuple[int, ...], kind: str = "any") -> np.ndarray:
    """An ndarray (never a NumPy scalar) of random values of `dtype`; kind "prod" keeps them near 1 so products
    stay finite, "special" mixes in NaN, infinities and signed zeros."""
    return np.asarray(_values(rng, dtype, shape, kind), dtype=dtype)


def _values(rng: np.random.Generator, dtype: str, shape: tuple[int, ...], kind: str) -> np.ndarray:
    if dtype == "bool":
        return rng.integers(0, 2, shape).astype(bool)
    if dtype in INTS:
        lo = 0 if dtype.startswith("u") else -4
        hi = 4 if kind == "prod" else 100
        lo = lo if kind == "prod" else (0 if dtype.startswith("u") else -100)
        info = np.iinfo(dtype)
        return rng.integers(max(lo, info.min), min(hi, info.max) + 1, shape).astype(dtype)
    if kind == "prod":
        re = rng.uniform(0.5, 1.5, shape) * rng.choice([-1, 1], shape)
    else:
        re = rng.standard_normal(shape) * 10
    if kind == "special" and re.size:
        flat = re.reshape(-1)
        picks = rng.integers(0, flat.size, max(1, flat.size // 4))
        flat[picks] = rng.choice([np.nan, np.inf, -np.inf, 0.0, -0.0], picks.size)
    if dtype in COMPLEX:
        im = rng.standard_normal(shape) if kind != "prod" else rng.uniform(-0.5, 0.5, shape)
        return (re + 1j * im).astype(dtype)
    return re.astype(dtype)


VIEWS = ["contiguous", "transposed", "reversed", "strided"]


@st.composite
def array_pairs(draw: Any, dtypes: list[str] = ALL, min_dims: int = 0, max_dims: int = 4,
                max_side: int = 6, kind: str = "any") -> tuple[np.ndarray, ma.NDArray]:
    dtype = draw(st.sampled_from(dtypes))
    shape = draw(hnp.array_shapes(min_dims=min_dims, max_dims=max_dims, min_side=0, max_side=max_side))
    view = draw(st.sampled_from(VIEWS))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    if view == "strided" and shape:
        base_shape = (*shape[:-1], shape[-1] * 2)
    else:
        base_shape = shape
    base = values(rng, dtype, base_shape, kind)
    a, x = base, ma.asarray(base)
    if view == "transposed":
        a, x = a.T, x.T
    elif view == "reversed" and shape:
        a, x = a[::-1], x[::-1]
    elif view == "strided" and shape:
        a, x = a[..., ::2], x[..., ::2]
    return a, x


@st.composite
def axes_for(draw: Any, ndim: int, allow_none: bool = True, allow_tuple: bool = True) -> Any:
    choices = []
    if allow_none:
        choices.append(st.none())
    if ndim:
        choices.append(st.integers(-ndim, ndim - 1))
        if allow_tuple:
            choices.append(st.lists(st.integers(0, ndim - 1), unique=True, max_size=ndim).map(
                lambda axes: tuple(a - ndim if i % 2 else a for i, a in enumerate(axes))))
    return draw(st.one_of(*choices)) if choices else None


def to_numpy(x: ma.NDArray) -> np.ndarray:
    assert isinstance(x, ma.NDArray), f"expected an NDArray, got {type(x).__name__}"
    return np.asarray(x)


EPS = {"float16": 2.0**-10, "float32": 2.0**-23, "float64": 2.0**-52, "complex64": 2.0**-23,
       "complex128": 2.0**-52}


def assert_matches(got: ma.NDArray, expected: Any, *, scale: Any = None, ulps: float = 8) -> None:
    """Same dtype, shape and values; floats within `ulps` of the result
    dtype's epsilon times `scale` (the magnitude the result was computed
    from, e.g. sum(|x|)), NaN where NumPy has NaN."""
    e = np.asarray(expected)
    r = to_numpy(got)
    assert str(got.dtype) == str(e.dtype), f"dtype {got.dtype}, NumPy gives {e.dtype}"
    assert r.shape == e.shape, f"shape {r.shape}, NumPy gives {e.shape}"
    if e.dtype.kind in "biu":
        np.testing.assert_array_equal(r, e)
        return
    eps = EPS[str(e.dtype)]
    wide = np.complex128 if e.dtype.kind == "c" else np.float64
    mag = np.abs(e.astype(wide)) if scale is None else np.asarray(scale, dtype=np.float64)
    finite = mag[np.isfinite(mag)]
    atol = ulps * eps * (np.max(finite) if finite.size else 0) + np.finfo(e.dtype).tiny
    np.testing.assert_allclose(r.astype(wide), e.astype(wide), rtol=ulps * eps, atol=atol, equal_nan=True)
