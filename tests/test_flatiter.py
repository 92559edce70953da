"""``x.flat``, NumPy's flatiter: reading, writing, iterating, against NumPy."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from numpy_errors import raises_as_numpy

import minarray as ma


def _pair(layout: str) -> tuple[np.ndarray, ma.NDArray]:
    """The same 2x3 int64 array in NumPy and minarray, C-ordered or as a
    transposed (strided) view."""
    n = np.arange(6).reshape(2, 3)
    x = ma.asarray(n.copy())
    return (n, x) if layout == "C" else (n.T, x.T)


LAYOUTS = ["C", "transposed"]
READ_KEYS = [1, -1, slice(1, 5), slice(None, None, -2), [0, 4, 2], Ellipsis,
             np.array([True, False, True, True, False, False]), np.array([[0, 1], [2, 3]])]
READ_IDS = ["int", "negative", "slice", "step", "list", "ellipsis", "mask", "2-d"]


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("key", READ_KEYS, ids=READ_IDS)
def test_reading_flat_matches_numpy(layout: str, key: Any) -> None:
    n, x = _pair(layout)
    mkey = ma.asarray(key) if isinstance(key, np.ndarray) else key
    np.testing.assert_array_equal(np.asarray(x.flat[mkey]), n.flat[key])


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize(("key", "value"), [
    (1, 40), (slice(1, 5), 7), (slice(0, 6, 2), [10, 20, 30]), ([0, 1, 2, 3], [1, 2]),
    (Ellipsis, 3.7), (np.array([True, False] * 3), -1)],
    ids=["int", "slice-scalar", "slice-values", "list-repeated", "all-cast", "mask"])
def test_writing_flat_matches_numpy(layout: str, key: Any, value: Any) -> None:
    n, x = _pair(layout)
    mkey = ma.asarray(key) if isinstance(key, np.ndarray) else key
    n.flat[key] = value
    x.flat[mkey] = value
    np.testing.assert_array_equal(np.asarray(x), n)


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("value", [5, [9, 8], [1, 2, 3, 4, 5, 6, 7]], ids=["scalar", "repeated", "longer"])
def test_assigning_flat_fills_in_c_order(layout: str, value: Any) -> None:
    n, x = _pair(layout)
    n.flat = value
    x.flat = value
    np.testing.assert_array_equal(np.asarray(x), n)


@pytest.mark.parametrize("layout", LAYOUTS)
def test_iterating_flat_matches_numpy(layout: str) -> None:
    n, x = _pair(layout)
    assert [int(v) for v in x.flat] == [int(v) for v in n.flat]
    assert len(x.flat) == len(n.flat)
    f, g = x.flat, n.flat
    next(f), next(g)
    next(f), next(g)
    assert (f.index, f.coords) == (g.index, g.coords)
    np.testing.assert_array_equal(np.asarray(x.flat.copy()), n.flat.copy())
    np.testing.assert_array_equal(np.asarray(ma.asarray(x.flat)), np.asarray(n.flat))
    assert x.flat.base is x


def test_flat_index_out_of_bounds_raises_as_numpy() -> None:
    raises_as_numpy(lambda xp: xp.arange(6).flat[10], "index 10 is out of bounds for size 6")

    def write(xp: Any) -> None:
        xp.arange(6).flat[-7] = 1

    raises_as_numpy(write, "index -7 is out of bounds for size 6")


@pytest.mark.parametrize("how", ["flat", "item"])
def test_flat_of_a_read_only_array_raises_as_numpy(how: str) -> None:
    def call(xp: Any) -> None:
        a = xp.arange(3.0)
        a.flags.writeable = False
        if how == "flat":
            a.flat = 1
        else:
            a.flat[0] = 1

    raises_as_numpy(call, "read-only")


def test_flat_write_reads_the_value_before_writing() -> None:
    # The value is the array itself, reversed.  minarray reads every element
    # before writing any (the project's rule for aliasing operands); NumPy's
    # flatiter copies element by element, so its second half reads elements
    # it already overwrote.  The oracle is the reversal of the original.
    n = np.arange(6.0)
    x = ma.asarray(n.copy())
    x.flat[:] = x[::-1]
    np.testing.assert_array_equal(np.asarray(x), n[::-1])


@pytest.mark.parametrize("key", [Ellipsis, slice(0, 2), [0, 1]], ids=["all", "slice", "list"])
def test_flat_write_of_an_empty_value_writes_nothing_as_numpy(key: Any) -> None:
    n, x = _pair("C")
    n.flat[key] = []
    x.flat[key] = []
    np.testing.assert_array_equal(np.asarray(x), n)
    x.flat = []
    np.testing.assert_array_equal(np.asarray(x), np.arange(6).reshape(2, 3))


def test_flat_of_0d_and_empty_arrays_as_numpy() -> None:
    for xp in (np, ma):
        z = xp.asarray(5.0)
        assert len(z.flat) == 1 and float(z.flat[0]) == 5.0
        z.flat = [3]
        assert float(z) == 3.0
        e = xp.zeros((0, 3))
        assert len(e.flat) == 0 and e.flat[:].shape == (0,)
        e.flat = 5


def test_flatiter_is_exported_as_numpy() -> None:
    x = ma.arange(6).reshape(2, 3)
    assert type(x.flat) is ma.flatiter
    assert isinstance(x.flat, ma.flatiter) == isinstance(np.arange(6).flat, np.flatiter)
    assert "flatiter" in ma.__all__
