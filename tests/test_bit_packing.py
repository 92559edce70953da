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
