"""ma.memmap (minarray/_memmap.py) against numpy.memmap: the modes, the
file's length, what reaches the file, which results stay memmaps, and the
errors.  The suite's leak check (conftest.py) proves each mapping is
unmapped once its last array is gone."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from numpy_errors import raises_as_numpy

import minarray as ma

# a result's class on each side: NumPy's names for minarray's classes
_CLASS = {ma.memmap: "memmap", ma.ndarray: "ndarray", type(ma.float32(0)): "scalar"}


def _kind(x: Any) -> str:
    if isinstance(x, np.generic):
        return "scalar"
    return "memmap" if type(x) is np.memmap else ("ndarray" if type(x) is np.ndarray else _CLASS[type(x)])


@pytest.fixture
def files(tmp_path: Path) -> tuple[Path, Path]:
    return tmp_path / "numpy.dat", tmp_path / "minarray.dat"


def test_w_plus_creates_the_file_and_writes_reach_it(files: tuple[Path, Path]) -> None:
    for xp, path in zip((np, ma), files, strict=True):
        m = xp.memmap(path, dtype="float32", mode="w+", shape=(3, 4))
        m[1] = 5
        m[2, ::2] = -1
        m.flush()
        assert m.filename == path.resolve() and m.offset == 0 and m.mode == "w+"
        assert xp.memmap(str(path), dtype="float32", mode="r").filename == os.path.abspath(path)
        del m
    assert files[0].read_bytes() == files[1].read_bytes() and len(files[1].read_bytes()) == 48


@pytest.mark.parametrize("mode", ["r", "r+", "c", "readonly", "readwrite", "copyonwrite"])
def test_modes_read_and_write_as_numpys(files: tuple[Path, Path], mode: str) -> None:
    data = np.arange(20, dtype=np.int16).tobytes()
    seen = []
    for xp, path in zip((np, ma), files, strict=True):
        path.write_bytes(data)
        m = xp.memmap(path, dtype="int16", mode=mode, offset=4, shape=(2, 4), order="F")
        writeable = m.flags.writeable
        if writeable:
            m[0, 1] = 99
        seen.append((np.asarray(m).tolist(), m.mode, writeable, path.read_bytes()))
        del m
    assert seen[0] == seen[1]


def test_without_shape_the_rest_of_the_file(files: tuple[Path, Path]) -> None:
    for path in files:
        path.write_bytes(bytes(range(24)))
    a = np.memmap(files[0], dtype="int32", mode="r", offset=8)
    x = ma.memmap(files[1], dtype="int32", mode="r", offset=8)
    assert x.shape == a.shape == (4,) and np.asarray(x).tolist() == a.tolist()


def test_r_plus_lengthens_a_short_file(files: tuple[Path, Path]) -> None:
    for xp, path in zip((np, ma), files, strict=True):
        path.write_bytes(b"\x01\x02")
        m = xp.memmap(path, dtype="uint8", mode="r+", shape=(10,))
        del m
    assert files[0].read_bytes() == files[1].read_bytes() == b"\x01\x02" + bytes(8)


def test_views_stay_memmaps_and_results_do_not(files: tuple[Path, Path]) -> None:
    kinds = []
    for xp, path in zip((np, ma), files, strict=True):
        m = xp.memmap(path, dtype="float64", mode="w+", shape=(3, 4))
        results = [m[1], m[1:], m.T, m.reshape(12), m[[0, 1]], m + 1, m.sum(), m.sum(axis=0), m[0, 0],
                   xp.sqrt(m), m.view(xp.ndarray)]
        kinds.append([_kind(r) for r in results])
        assert m[1:].filename == m.filename and m[1:].offset == m.offset
        del m, results
    assert kinds[1] == kinds[0]


def test_load_mmap_mode_gives_a_memmap(tmp_path: Path) -> None:
    path = tmp_path / "a.npy"
    np.save(path, np.arange(6).reshape(2, 3))
    x = ma.load(path, mmap_mode="r")
    a = np.load(path, mmap_mode="r")
    assert type(x) is ma.memmap and x.filename == a.filename and x.offset == a.offset and x.mode == a.mode
    assert type(x[1, :]) is ma.memmap and np.asarray(x[1, :]).tolist() == [3, 4, 5]


def test_errors_as_numpys(files: tuple[Path, Path]) -> None:
    files[0].write_bytes(bytes(10))
    path = files[0]
    raises_as_numpy(lambda m: m.memmap(path, mode="x"), "mode must be one of")
    raises_as_numpy(lambda m: m.memmap(path, mode="w+"), "shape must be given")
    raises_as_numpy(lambda m: m.memmap(path, dtype="float64", mode="r", shape=(100,)), "greater than file size")
    raises_as_numpy(lambda m: m.memmap(path, dtype="int16", mode="r", offset=1), "not a multiple")
    with pytest.raises(ValueError, match="negative"):  # NumPy's mmap raises OverflowError
        ma.memmap(path, dtype="int16", mode="r", shape=(-1,))
    with pytest.raises(ValueError, match="nothing to map"):
        ma.memmap(path, dtype="uint8", mode="r", offset=10)
