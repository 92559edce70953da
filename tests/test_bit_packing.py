"""packbits and unpackbits (minarray/_bit_packing.py) against NumPy, over
dtypes, shapes, axes, bit orders and counts, with NumPy's errors."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy_errors import raises_as_numpy
from numpy_oracle import same

import minarray as ma

SHAPES = [(13,), (8,), (3, 17), (2, 3, 9), (0,), (4, 0), (), (2, 8)]
DTYPES = [np.bool_, np.int8, np.int64, np.uint16, np.uint8]


def _axes(shape: tuple[int, ...]) -> list[int | None]:
    return [None, *range(-len(shape), len(shape))]


@pytest.mark.parametrize("shape", SHAPES, ids=str)
@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("bitorder", ["big", "little"])
def test_packbits_and_unpackbits_match_numpy(shape: tuple[int, ...], dtype: Any, bitorder: str) -> None:
    rng = np.random.default_rng(len(shape) * 7 + np.dtype(dtype).itemsize)
    x = rng.integers(0, 3, shape).astype(dtype)
    for axis in _axes(shape):
        packed = np.packbits(x, axis=axis, bitorder=bitorder)
        same(ma.packbits(ma.asarray(x), axis=axis, bitorder=bitorder), packed)
        nbits = 8 * (packed.size if axis is None or packed.ndim == 0 else packed.shape[axis])
        counts: list[int | None] = [None, 0, 3, -2, -nbits, nbits + 5] if packed.size else [None, 0]
        if not packed.size:  # bits past the end are zeros (NumPy leaves those of an empty input unset)
            assert not ma.any(ma.unpackbits(ma.asarray(packed), axis=axis, count=3, bitorder=bitorder))
        for count in counts:
            same(ma.unpackbits(ma.asarray(packed), axis=axis, count=count, bitorder=bitorder),
                 np.unpackbits(packed, axis=axis, count=count, bitorder=bitorder))


def test_strided_input_and_array_likes() -> None:
    x = np.arange(60).reshape(6, 10)[::2, ::-3] % 3
    same(ma.packbits(ma.asarray(np.arange(60).reshape(6, 10))[::2, ::-3] % 3, axis=1), np.packbits(x, axis=1))
    same(ma.packbits([True, False, True]), np.packbits([True, False, True]))
    same(ma.unpackbits(ma.asarray([255, 1], dtype=ma.uint8)[::-1]), np.unpackbits(np.array([255, 1], np.uint8)[::-1]))


@settings(max_examples=40, deadline=None)
@given(st.lists(st.booleans(), min_size=0, max_size=70), st.sampled_from(["big", "little"]))
def test_round_trip(bits: list[bool], bitorder: str) -> None:
    packed = ma.packbits(ma.asarray(bits, dtype=ma.bool), bitorder=bitorder)
    same(packed, np.packbits(np.array(bits, dtype=bool), bitorder=bitorder))
    same(ma.unpackbits(packed, count=len(bits), bitorder=bitorder), np.array(bits, dtype=np.uint8))


def test_packbits_refuses_as_numpy() -> None:
    raises_as_numpy(lambda m: m.packbits(m.asarray([1.0])), "integer or boolean")
    raises_as_numpy(lambda m: m.packbits(m.asarray([1j])), "integer or boolean")
    raises_as_numpy(lambda m: m.packbits(m.asarray([1, 0]), bitorder="middle"), "'little' or 'big'")
    raises_as_numpy(lambda m: m.packbits(m.asarray([1, 0]), bitorder=None), "str")
    raises_as_numpy(lambda m: m.packbits(m.asarray([1, 0]), axis=1), "out of bounds")
    raises_as_numpy(lambda m: m.unpackbits(m.asarray([1, 2])), "unsigned byte")
    raises_as_numpy(lambda m: m.unpackbits(m.asarray([1, 2], dtype=m.uint8), count=-17), "-count larger")
    raises_as_numpy(lambda m: m.unpackbits(m.asarray([1, 2], dtype=m.uint8), count=2.0), "integer")
    raises_as_numpy(lambda m: m.unpackbits(m.asarray([[1]], dtype=m.uint8), axis=2), "out of bounds")


# The kernels' vectorised paths take 64 elements (packing) or 4 bytes
# (unpacking) at a time: lengths around those sizes reach the vector body,
# its tail and the last, partial byte.
LENGTHS = [1, 7, 8, 9, 63, 64, 65, 127, 128, 136, 1000, 1031]


@pytest.mark.parametrize("n", LENGTHS)
@pytest.mark.parametrize("bitorder", ["big", "little"])
def test_long_runs_any_nonzero_byte(n: int, bitorder: str) -> None:
    """Every nonzero byte is a 1 bit (NumPy's truth), in and past the
    vector body; the round trip with count= along the same lengths."""
    rng = np.random.default_rng(n)
    for x in (rng.integers(0, 256, n).astype(np.uint8) * rng.integers(0, 2, n).astype(np.uint8),
              rng.integers(-128, 128, n).astype(np.int8), rng.integers(0, 2, n).astype(bool)):
        packed = np.packbits(x, bitorder=bitorder)
        same(ma.packbits(ma.asarray(x), bitorder=bitorder), packed)
        mp = ma.asarray(packed)
        for count in (None, n, 8 * packed.size - 1, -3, 8 * packed.size + 9):
            same(ma.unpackbits(mp, count=count, bitorder=bitorder),
                 np.unpackbits(packed, count=count, bitorder=bitorder))


def _layouts(x: np.ndarray) -> list[tuple[np.ndarray, Any]]:
    """x in several layouts, each as NumPy's array and minarray's view of
    the same strides: C order, Fortran order, transposed, reversed and
    stepped."""
    m = ma.asarray(x)
    mf = ma.asarray(x).copy(order="F")
    return [(x, m), (np.asfortranarray(x), mf), (x.T, m.T), (x[::-1, ::-1], m[::-1, ::-1]),
            (x[::2, 1::3], m[::2, 1::3]), (np.asfortranarray(x)[1:, :-1], mf[1:, :-1])]


@pytest.mark.parametrize("shape", [(37, 130), (130, 37), (72, 64)], ids=str)
@pytest.mark.parametrize("bitorder", ["big", "little"])
def test_along_axes_in_every_layout(shape: tuple[int, int], bitorder: str) -> None:
    """Each axis of strided, transposed and Fortran-ordered inputs, packed
    and unpacked (count= included); the result laid out as NumPy lays it
    (Fortran order for a Fortran-ordered input)."""
    rng = np.random.default_rng(sum(shape))
    for x, mx in _layouts(rng.integers(0, 2, shape).astype(bool)):
        for axis in (0, 1, -1, None):
            packed = np.packbits(x, axis=axis, bitorder=bitorder)
            got = ma.packbits(mx, axis=axis, bitorder=bitorder)
            same(got, packed)
            assert got.flags.f_contiguous == packed.flags.f_contiguous
            assert got.flags.c_contiguous == packed.flags.c_contiguous
        for p, mp in _layouts(np.packbits(x, axis=0, bitorder=bitorder)):
            for axis in (0, 1):
                for count in (None, 8 * p.shape[axis] - 5, 3):
                    want = np.unpackbits(p, axis=axis, count=count, bitorder=bitorder)
                    got = ma.unpackbits(mp, axis=axis, count=count, bitorder=bitorder)
                    same(got, want)
                    assert got.flags.f_contiguous == want.flags.f_contiguous


def test_three_dims_and_empty_axes() -> None:
    rng = np.random.default_rng(3)
    x = rng.integers(0, 5, (5, 67, 9)).astype(np.int32)
    mx = ma.asarray(x)
    for axis in (0, 1, 2):
        for a, m in ((x, mx), (x.transpose(1, 2, 0), ma.permute_dims(mx, (1, 2, 0)))):
            packed = np.packbits(a, axis=axis)
            same(ma.packbits(m, axis=axis), packed)
            same(ma.unpackbits(ma.asarray(packed), axis=axis, count=11), np.unpackbits(packed, axis=axis, count=11))
    for shape in ((0, 9), (9, 0), (0, 0)):
        e = np.zeros(shape, dtype=bool)
        for axis in (0, 1, None):
            same(ma.packbits(ma.asarray(e), axis=axis), np.packbits(e, axis=axis))
            u = np.zeros(shape, dtype=np.uint8)
            same(ma.unpackbits(ma.asarray(u), axis=axis), np.unpackbits(u, axis=axis))
