"""ma.fft, the Array API's FFT extension, against NumPy's FFT."""

from __future__ import annotations

import numpy as np
import pytest
from numpy_errors import raises_as_numpy

import minarray as ma

RNG = np.random.default_rng(7)
REAL = RNG.standard_normal((4, 6))
COMPLEX = REAL + 1j * RNG.standard_normal((4, 6))


def close(got: ma.NDArray, want: np.ndarray) -> None:
    g = np.asarray(got)
    assert g.dtype == want.dtype and g.shape == want.shape
    tol = 1e-5 if want.dtype in (np.float32, np.complex64) else 1e-12
    np.testing.assert_allclose(g, want, rtol=tol, atol=tol)


@pytest.mark.parametrize("dtype", ["float32", "float64", "complex64", "complex128"])
@pytest.mark.parametrize("name", ["fft", "ifft", "hfft", "irfft"])
@pytest.mark.parametrize("norm", ["backward", "ortho", "forward"])
def test_one_dimensional(name: str, dtype: str, norm: str) -> None:
    a = (COMPLEX if dtype.startswith("complex") else REAL).astype(dtype)
    for n, axis in ((None, -1), (8, 0), (3, 1)):
        close(getattr(ma.fft, name)(ma.asarray(a), n=n, axis=axis, norm=norm),
              getattr(np.fft, name)(a, n=n, axis=axis, norm=norm))


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("name", ["rfft", "ihfft"])
def test_real_input(name: str, dtype: str) -> None:
    a = REAL.astype(dtype)
    close(getattr(ma.fft, name)(ma.asarray(a)), getattr(np.fft, name)(a))
    with pytest.raises(TypeError, match="real-valued"):
        getattr(ma.fft, name)(ma.asarray(COMPLEX))


@pytest.mark.parametrize("name", ["fftn", "ifftn", "rfftn", "irfftn"])
def test_n_dimensional(name: str) -> None:
    a = REAL if name == "rfftn" else COMPLEX
    for s, axes in ((None, None), ((4, 6), (0, 1)), ((3,), (0,)), ((5, 4), None)):
        kw = {"s": s, "axes": axes} if axes is not None else {"s": s}
        # the standard: with s and no axes, the last len(s) axes
        np_axes = axes if axes is not None or s is None else tuple(range(-len(s), 0))
        close(getattr(ma.fft, name)(ma.asarray(a), **kw), getattr(np.fft, name)(a, s=s, axes=np_axes))


@pytest.mark.parametrize("name", ["fft2", "ifft2", "rfft2", "irfft2"])
def test_two_dimensional(name: str) -> None:
    """NumPy's 2-d spellings: the last two axes unless told otherwise."""
    a = np.stack([REAL, REAL[::-1]]) if name == "rfft2" else np.stack([COMPLEX, COMPLEX[::-1]])
    for kw in ({}, {"s": (3, 8)}, {"axes": (0, 2)}, {"s": (2, 4), "axes": (1, 0), "norm": "ortho"}):
        close(getattr(ma.fft, name)(ma.asarray(a), **kw), getattr(np.fft, name)(a, **kw))


def test_half_precision_computes_in_float32() -> None:
    got = ma.fft.fft(ma.asarray(REAL.astype(np.float16)))
    assert got.dtype is ma.complex64


def test_frequencies_and_shifts() -> None:
    for n in (1, 4, 5):
        close(ma.fft.fftfreq(n, d=0.25), np.fft.fftfreq(n, 0.25))
        close(ma.fft.rfftfreq(n, d=0.25), np.fft.rfftfreq(n, 0.25))
        assert ma.fft.fftfreq(n, dtype=ma.float32).dtype is ma.float32
    x = np.arange(20).reshape(4, 5)
    for axes in (None, 0, (1,), (0, 1)):
        np.testing.assert_array_equal(np.asarray(ma.fft.fftshift(ma.asarray(x), axes=axes)),
                                      np.fft.fftshift(x, axes=axes))
        np.testing.assert_array_equal(np.asarray(ma.fft.ifftshift(ma.asarray(x), axes=axes)),
                                      np.fft.ifftshift(x, axes=axes))


def test_bad_arguments() -> None:
    with pytest.raises(ValueError, match="norm must be one of"):
        ma.fft.fft(ma.asarray(COMPLEX), norm="loud")
    with pytest.raises(ValueError, match="positive"):
        ma.fft.fftfreq(0)
    with pytest.raises(TypeError, match="real floating"):
        ma.fft.fftfreq(4, dtype=ma.int32)


@pytest.mark.parametrize("n", [2**62, 2**63], ids=["2**62", "2**63"])
def test_fft_n_past_int64_raises_as_numpy(n: int) -> None:
    raises_as_numpy(lambda m: m.fft.fft(m.ones(2), n=n), "too big|Maximum allowed dimension")


def test_numpys_positional_arguments() -> None:
    # NumPy's docstrings pass n, axis, s, axes, norm and d by position
    a = np.mgrid[:3, :3, :3][0].astype(float)
    sig = np.array([1, 2, 3, 4, 3, 2], dtype=float)
    cases = [
        (lambda m, v: m.fft.fftn(v, (2, 2), (0, 1)), a),
        (lambda m, v: m.fft.ifftn(v, (2, 2), (0, 1), "ortho"), a),
        (lambda m, v: m.fft.hfft(v, 6), sig),
        (lambda m, v: m.fft.fft(v, 4, 0, None), sig),
        (lambda m, v: m.fft.rfftn(v, None, (1, 2)), a),
        (lambda m, v: m.fft.fftshift(v, 1), a),
        (lambda m, v: m.fft.ifftshift(v, (0, 2)), a),
    ]
    for call, arr in cases:
        close(call(ma, ma.asarray(arr)), call(np, arr))
    for fn in ("fftfreq", "rfftfreq"):
        close(getattr(ma.fft, fn)(10, 0.1), getattr(np.fft, fn)(10, 0.1))
