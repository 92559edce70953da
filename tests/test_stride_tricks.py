"""ma.lib.stride_tricks (minarray/lib/stride_tricks.py): as_strided and
sliding_window_view against NumPy's, as views sharing memory with their
array (writes show through, read-only by NumPy's defaults), and the views
outside the array's memory that minarray refuses."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from numpy.lib import stride_tricks as npst
from numpy_errors import raises_as_numpy
from numpy_oracle import same

import minarray as ma
from minarray.lib import stride_tricks as mast
from minarray.lib.stride_tricks import as_strided, sliding_window_view


def _shares(view: ma.NDArray, base: ma.NDArray) -> bool:
    return bool(np.shares_memory(np.from_dlpack(view), np.from_dlpack(base)))


def test_the_spellings_numpy_code_uses() -> None:
    assert ma.lib.stride_tricks is mast
    assert ma.lib.stride_tricks.sliding_window_view is sliding_window_view
    assert "lib" in ma.__all__ and "stride_tricks" in ma.lib.__all__
    same(ma.lib.stride_tricks.sliding_window_view(ma.arange(6), 3),
         np.lib.stride_tricks.sliding_window_view(np.arange(6), 3))


WINDOW_CASES: list[tuple[tuple[int, ...], Any, Any]] = [
    ((10,), 3, None), ((10,), 10, None), ((10,), 1, None), ((4, 5), (2, 3), None), ((4, 5), 2, 0),
    ((4, 5), 3, -1), ((4, 5), (2, 2), (1, 1)), ((3, 4, 5), (2, 2), (0, 2)), ((6,), 0, None), ((0, 3), 2, 1),
]


@pytest.mark.parametrize(("shape", "window", "axis"), WINDOW_CASES,
                         ids=[f"{s}-{w}-{a}" for s, w, a in WINDOW_CASES])
@pytest.mark.parametrize("layout", ["c", "reversed", "transposed"])
def test_sliding_window_view_matches_numpy(shape: tuple[int, ...], window: Any, axis: Any, layout: str) -> None:
    x = np.arange(int(np.prod(shape)), dtype=np.float32).reshape(shape[::-1] if layout == "transposed" else shape)
    m = ma.asarray(x)
    if layout == "reversed":
        x, m = x[..., ::-1], m[..., ::-1]
    elif layout == "transposed":
        x, m = x.T, m.T
    got = sliding_window_view(m, window, axis)
    expected = npst.sliding_window_view(x, window, axis)
    same(got, expected)
    assert got.strides == expected.strides
    assert not got.flags.writeable
    if got.size:
        assert _shares(got, m)


def test_sliding_window_sums_and_writes_through() -> None:
    x = ma.arange(10.0)
    same(sliding_window_view(x, 3).sum(axis=-1), npst.sliding_window_view(np.arange(10.0), 3).sum(axis=-1))
    w = sliding_window_view(x, 3, writeable=True)
    assert w.flags.writeable
    w[0, 1] = 100.0
    assert float(x[1]) == 100.0 and float(w[1, 0]) == 100.0
    with pytest.raises(ValueError, match="read-only"):
        sliding_window_view(x, 3)[0, 0] = 1.0
    same(sliding_window_view([1, 2, 3, 4], 2), npst.sliding_window_view([1, 2, 3, 4], 2))  # a list


def test_sliding_window_view_refuses_as_numpy() -> None:
    def st(m: Any) -> Any:
        return npst if m is np else mast

    raises_as_numpy(lambda m: st(m).sliding_window_view(m.ones(3), 4), "larger")
    raises_as_numpy(lambda m: st(m).sliding_window_view(m.ones(3), -1), "negative")
    raises_as_numpy(lambda m: st(m).sliding_window_view(m.ones((3, 3)), 2), "window_shape for all dimensions")
    raises_as_numpy(lambda m: st(m).sliding_window_view(m.ones((3, 3)), (2, 2), axis=0), "matching length")
    raises_as_numpy(lambda m: st(m).sliding_window_view(m.ones(3), 2, axis=1), "out of bounds")


STRIDED_CASES: list[tuple[Any, Any]] = [
    ((3, 3), (8, 8)), ((4, 2), (16, 8)), ((2, 5), (0, 8)), ((10,), None), (None, None), ((5,), (-8,)),
    ((0, 4), (8, 8)), ((2, 2, 2), (32, 16, 8)),
]


@pytest.mark.parametrize(("shape", "strides"), STRIDED_CASES, ids=[f"{s}-{t}" for s, t in STRIDED_CASES])
def test_as_strided_matches_numpy(shape: Any, strides: Any) -> None:
    x = np.arange(10.0)
    base = x[9:] if strides == (-8,) else x  # a negative stride from the last element
    m = ma.asarray(x)
    mbase = m[9:] if strides == (-8,) else m
    got = as_strided(mbase, shape, strides)
    expected = npst.as_strided(base, shape, strides)
    same(got, expected)
    assert got.strides == expected.strides
    assert got.flags.writeable
    if got.size:
        assert _shares(got, m)


def test_as_strided_writes_through_and_follows_writeable() -> None:
    x = ma.zeros(6, dtype=ma.int32)
    v = as_strided(x, (3, 2), (8, 4))
    v[1, 1] = 7
    same(x, np.array([0, 0, 0, 7, 0, 0], np.int32))
    assert not as_strided(x, writeable=False).flags.writeable
    ro = ma.broadcast_to(ma.ones(3), (2, 3))
    assert not as_strided(ro, (3,), (8,)).flags.writeable  # never more writeable than its array


def test_as_strided_refuses_memory_outside_the_array() -> None:
    # NumPy reads whatever lies there; minarray refuses the view
    x = ma.arange(10.0)
    with pytest.raises(ValueError, match="outside"):
        as_strided(x, (11,), (8,))
    with pytest.raises(ValueError, match="outside"):
        as_strided(x[5:], (2,), (-48,))
    # past the view, within the buffer: allowed, as NumPy reads it
    same(as_strided(x[:2], (3, 3), (24, 8)), npst.as_strided(np.arange(10.0)[:2], (3, 3), (24, 8)))
    with pytest.raises(ValueError, match="multiples"):
        as_strided(x, (2,), (4,))
    with pytest.raises(ValueError, match="length"):
        as_strided(x, (2, 2), (8,))
    raises_as_numpy(lambda m: (npst if m is np else mast).as_strided(m.ones(3), (-1,), (8,)), "negative")
