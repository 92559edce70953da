"""minarray's thread count and OpenBLAS's agree at every setting.

Matrix products and ``minarray.linalg`` run on OpenBLAS's threads, the rest
on minarray's pool; ``ma.set_num_threads`` sets both.  The count is read
back from OpenBLAS itself (``openblas_get_num_threads``), not from a copy
minarray keeps, after each setting: a product at 16 threads must run on 16
of OpenBLAS's, as NumPy's does on a 16-core machine.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import pytest

import minarray as ma
from minarray import _blas

pytestmark = pytest.mark.skipif(not _blas.info()["loaded"], reason="OpenBLAS (scipy-openblas64) is not installed")

# The largest count the OpenBLAS build accepts (its NUM_THREADS): it caps a
# larger request there, and minarray's pool may use more.
OPENBLAS_MAX = 64


def openblas_count() -> int:
    """OpenBLAS's own count (openblas_get_num_threads)."""
    return int(_blas.info()["num_threads"])


@pytest.fixture(autouse=True)
def restore_threads() -> Iterator[None]:
    n = ma.get_num_threads()
    yield
    ma.set_num_threads(n)


@pytest.mark.parametrize("n", [1, 2, 3, 4, 5, 7, 8, 12, 16, 24, 32, 48, 64])
def test_every_setting_reaches_openblas(n: int) -> None:
    ma.set_num_threads(n)
    assert ma.get_num_threads() == n
    assert openblas_count() == n


def test_a_sweep_up_and_down_reaches_openblas_at_each_step() -> None:
    """The order the benchmark sweep sets them in, and back down."""
    for n in [1, 2, 4, 8, 16, 8, 4, 2, 1, 16, 1]:
        ma.set_num_threads(n)
        assert (ma.get_num_threads(), openblas_count()) == (n, n)


@pytest.mark.parametrize("n", [65, 128, 256])
def test_counts_above_the_openblas_build_are_capped_there(n: int) -> None:
    ma.set_num_threads(n)
    assert ma.get_num_threads() == n
    assert openblas_count() == OPENBLAS_MAX


def test_default_reaches_openblas() -> None:
    ma.set_num_threads(3)
    ma.set_num_threads(None)
    assert openblas_count() == min(ma.get_num_threads(), OPENBLAS_MAX)


@pytest.mark.parametrize("n", [1, 2, 4])
def test_products_after_a_setting_keep_the_count(n: int) -> None:
    """A product runs on the count that was set and leaves it set (OpenBLAS
    changes it for no call), and gives NumPy's result."""
    ma.set_num_threads(n)
    rng = np.random.default_rng(n)
    a, b = rng.standard_normal((300, 200)), rng.standard_normal((200, 250))
    got = np.asarray(ma.asarray(a) @ ma.asarray(b))
    np.testing.assert_allclose(got, a @ b, rtol=1e-12, atol=1e-12)
    assert openblas_count() == n
