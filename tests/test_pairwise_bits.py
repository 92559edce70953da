"""Floating sums give NumPy's exact bits.

Contiguous float32/float64 sums run SIMD leaf kernels (csrc/core/pairwise.c)
that must reproduce NumPy's pairwise order addition for addition; these
tests compare ``minarray`` with NumPy bit for bit over every length up to a
few leaves, random lengths up to ~2e5 (the threaded cut of reduce.c starts
at 65536), misaligned starts, mixed magnitudes (where any change of order
shows in the last bits), signed zeros, infinities and NaNs, on one and two
threads.

NaN results are compared as NaN: which NaN an addition of two NaNs returns
depends on the operand order the compiler picks, in NumPy's build as in
ours, so payloads are not part of the contract.

The bits are NumPy 2.4's, where a run of any length is one pairwise tree;
NumPy 2.0 adds runs longer than its 8192-element buffer block by block, so
there the expected sums are built from its sums of blocks in 2.4's tree
(tests/numpy_oracle.py, ``sum_bits``).
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy_oracle import mean_bits, nansum_bits, sum_bits

import minarray as ma

DTYPES = ["float32", "float64"]
KINDS = ["normal", "mixed", "zeros", "special"]


def data(rng: np.random.Generator, dtype: str, n: int, kind: str) -> np.ndarray:
    """n values of `dtype`: "mixed" spans 60 binades, so the rounding of
    every addition depends on its operands (a wrong order shows);
    "zeros" are +0.0 and mostly -0.0; "special" sprinkles -0.0, +-inf and
    NaN over mixed values."""
    if kind == "zeros":
        x = np.where(rng.random(n) < 0.9, -0.0, 0.0)
    else:
        x = rng.standard_normal(n) * 10
        if kind in ("mixed", "special"):
            x = x * 2.0 ** rng.uniform(-30, 30, n)
        if kind == "special" and n:
            picks = rng.integers(0, n, max(1, n // 50))
            x[picks] = rng.choice([-0.0, np.inf, -np.inf, np.nan], picks.size)
    return x.astype(dtype)


def assert_same_bits(expected: object, got: object) -> None:
    e, g = np.asarray(expected), np.asarray(got)
    assert g.dtype == e.dtype and g.shape == e.shape
    if e.ndim == 0 and np.isnan(e):
        assert np.isnan(g), f"expected NaN, got {g!r}"
        return
    if e.ndim and np.isnan(e).any():
        assert np.array_equal(np.isnan(e), np.isnan(g))
        e, g = np.where(np.isnan(e), 0, e), np.where(np.isnan(g), 0, g)
    assert e.tobytes() == g.tobytes(), f"expected {e!r} ({e.tobytes().hex()}), got {g!r} ({g.tobytes().hex()})"


@pytest.fixture(params=[1, 2], ids=["1thread", "2threads"])
def threads(request: pytest.FixtureRequest) -> Iterator[int]:
    before = ma.get_num_threads()
    ma.set_num_threads(request.param)
    yield request.param
    ma.set_num_threads(before)


def check_sum(x: np.ndarray, offset: int, n: int) -> None:
    """Sum of x[offset:offset + n], sliced on both sides, so the minarray
    run starts `offset` elements into its buffer (misaligned for SIMD)."""
    a = ma.asarray(x)[offset:offset + n]
    # inf + -inf is NaN: both libraries warn "invalid value", which is not
    # what these tests are about
    with np.errstate(invalid="ignore"), ma.errstate(invalid="ignore"):
        assert_same_bits(sum_bits(x[offset:offset + n]), ma.sum(a))


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("kind", KINDS)
def test_every_length_up_to_300(dtype: str, kind: str) -> None:
    # 300 covers the plain loop (< 8), one leaf (<= 128) and trees of two
    # and three leaves, with every leftover count.
    rng = np.random.default_rng(10 * DTYPES.index(dtype) + KINDS.index(kind))
    x = data(rng, dtype, 300 + 16, kind)
    for n in range(301):
        for offset in (0, 1, 3, 8):
            check_sum(x, offset, n)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("n", [129, 1000, 4096, 65535, 65536, 131072 + 5, 200_003, 1_000_000])
def test_long_runs(threads: int, dtype: str, n: int) -> None:
    # lengths around the threaded cut (2 * 32768) and past it
    rng = np.random.default_rng(n)
    x = data(rng, dtype, n + 7, "mixed")
    for offset in (0, 5):
        check_sum(x, offset, n)


@settings(max_examples=60, deadline=None)
@given(dtype=st.sampled_from(DTYPES), kind=st.sampled_from(KINDS),
       n=st.integers(0, 200_000), offset=st.integers(0, 15), nthreads=st.sampled_from([1, 2]),
       seed=st.integers(0, 2**32 - 1))
def test_random_lengths(dtype: str, kind: str, n: int, offset: int, nthreads: int, seed: int) -> None:
    before = ma.get_num_threads()
    ma.set_num_threads(nthreads)
    try:
        x = data(np.random.default_rng(seed), dtype, n + offset, kind)
        check_sum(x, offset, n)
    finally:
        ma.set_num_threads(before)


@pytest.mark.parametrize("dtype", DTYPES)
def test_signed_zeros_and_specials(threads: int, dtype: str) -> None:
    for n in (5, 100, 300, 70_000):
        for fill in (-0.0, 0.0):
            check_sum(np.full(n, fill, dtype=dtype), 0, n)
        for special in (np.inf, -np.inf, np.nan):
            x = np.full(n, -0.0, dtype=dtype)
            x[n // 3] = special
            check_sum(x, 0, n)
        x = np.full(n, -0.0, dtype=dtype)
        x[0], x[-1] = np.inf, -np.inf  # inf + -inf: NaN
        check_sum(x, 0, n)


@pytest.mark.parametrize("dtype", DTYPES)
def test_other_users_of_the_contiguous_kernel(threads: int, dtype: str) -> None:
    # mean (the FSUM reduction), nansum, and axis reductions whose rows are
    # contiguous all go through the same contiguous pairwise kernel
    rng = np.random.default_rng(7)
    for n in (77, 1000, 70_001):
        x = data(rng, dtype, n, "mixed")
        a = ma.asarray(x)
        assert_same_bits(mean_bits(x), ma.mean(a))
        y = x.copy()
        y[::11] = np.nan
        assert_same_bits(nansum_bits(y), ma.nansum(ma.asarray(y)))
        m = data(rng, dtype, 3 * n, "mixed").reshape(3, n)
        assert_same_bits(sum_bits(m, axis=1), ma.sum(ma.asarray(m), axis=1))
        assert_same_bits(mean_bits(m, axis=-1), ma.mean(ma.asarray(m), axis=-1))


@pytest.mark.parametrize("dtype", DTYPES)
def test_strided_runs_keep_the_generic_kernel(dtype: str) -> None:
    # strided and reversed runs take the generated strided kernel: same order
    rng = np.random.default_rng(11)
    x = data(rng, dtype, 30_000, "mixed")
    a = ma.asarray(x)
    for step in (2, 3, -1, -5):
        assert_same_bits(sum_bits(x[::step]), ma.sum(a[::step]))
