"""One NumPy intake (csrc/py/numpy_struct.c): plain NumPy arrays, objects
that offer only ``__array_struct__``, and through the interface dict other
``__array_interface__`` producers, all end in the same view builder.  A
plain numpy.ndarray always gets an answer from it: a view, or the error
(from_numpy), or a copy (asarray).

Cross-cutting, not a chapter's file: the intake serves asarray,
from_numpy and from_dlpack alike, so its tests sit beside the DLPack and
interop ones rather than in one chapter."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import minarray as ma
from minarray import _dtypes as _dt
from minarray._native import core

np = pytest.importorskip("numpy")


def _np_dtype(d: _dt.DType) -> Any:
    if d.typestr:
        return np.dtype(d.name)
    ml = pytest.importorskip("ml_dtypes", reason="ml_dtypes is optional: it gives NumPy bfloat16 and float8")
    return np.dtype(getattr(ml, d.name))


@pytest.mark.parametrize("d", _dt.ALL, ids=[d.name for d in _dt.ALL])
def test_every_dtype_comes_in_as_a_view(d: _dt.DType) -> None:
    nd = _np_dtype(d)
    x = np.zeros((3, 4), dtype=nd)[:, ::2]
    for door in (ma.from_numpy, ma.asarray):
        got = door(x)
        assert got.dtype is d and got.shape == (3, 2)
        assert got.data_ptr == x.ctypes.data
        assert got._strides == tuple(s // x.itemsize for s in x.strides)
        assert got.base is x
    np.testing.assert_array_equal(np.asarray(ma.from_numpy(x).astype(ma.float64 if d.kind != "c" else ma.complex128)),
                                  x.astype(np.complex128 if d.kind == "c" else np.float64))


def test_read_only_stays_read_only() -> None:
    x = np.arange(4.0)
    x.flags.writeable = False
    for door in (ma.from_numpy, ma.asarray):
        with pytest.raises(ValueError, match="read-only"):
            door(x)[0] = 1.0


def _cases() -> dict[str, Any]:
    raw = np.zeros(40, dtype=np.uint8)
    rec = np.zeros(4, dtype=[("a", "i1"), ("b", "f8")])
    return {
        "byte-swapped": np.arange(3, dtype=">i4" if np.little_endian else "<i4"),
        "odd strides": rec["b"],
        "misaligned": raw[1:33].view(np.float64),
    }


@pytest.mark.parametrize("case", ["byte-swapped", "odd strides", "misaligned"])
def test_what_needs_a_copy(case: str) -> None:
    x = _cases()[case]
    err = TypeError if case == "byte-swapped" else BufferError
    match = {"byte-swapped": "byte order", "odd strides": "multiples of the itemsize", "misaligned": "aligned"}[case]
    with pytest.raises(err, match=match):
        ma.from_numpy(x)
    assert isinstance(core.numpy_asarray(x), str)
    for copy in (None, True):
        got = ma.asarray(x, copy=copy)
        assert got.data_ptr != x.ctypes.data and got.flags.writeable and got.tolist() == x.tolist()
    with pytest.raises(ValueError, match="a copy is needed, but copy=False"):
        ma.asarray(x, copy=False)
    assert ma.from_numpy(x, copy=True).tolist() == x.tolist()


@pytest.mark.parametrize("dtype", ["U1", "M8[s]", "O", "g", "V8"])
def test_dtypes_minarray_lacks(dtype: str) -> None:
    x = np.zeros(2, dtype=dtype)
    for door in (ma.from_numpy, ma.asarray, core.numpy_asarray):
        with pytest.raises(TypeError):
            door(x)


class _StructOnly:
    """An array offering only the array interface's C struct."""

    def __init__(self, a: Any) -> None:
        self.a = a
        self.__array_struct__ = a.__array_struct__


class _DictOnly:
    """Another producer: only the interface dict."""

    def __init__(self, a: Any) -> None:
        self.a = a
        self.__array_interface__ = a.__array_interface__


def test_array_struct_goes_through_the_intake() -> None:
    x = np.arange(12, dtype=np.int16).reshape(3, 4)[:, 1::2]
    got = core.array_struct_view(_StructOnly(x))
    assert got.dtype is ma.int16 and got.data_ptr == x.ctypes.data and got.tolist() == x.tolist()
    h = ma.asdlpack(_StructOnly(x))
    np.testing.assert_array_equal(np.from_dlpack(h), x)
    rec = np.zeros(4, dtype=[("a", "i1"), ("b", "f8")])
    with pytest.raises(BufferError, match="multiples of the itemsize"):
        core.array_struct_view(_StructOnly(rec["b"]))
    with pytest.raises(TypeError, match="byte-swapped"):
        core.array_struct_view(_StructOnly(np.arange(3, dtype=">i4" if np.little_endian else "<i4")))
    with pytest.raises(TypeError, match="has no minarray dtype"):
        core.array_struct_view(_StructOnly(np.zeros(2, dtype="g")))


def test_other_interface_producers_and_subclasses() -> None:
    x = np.arange(6.0).reshape(2, 3)
    for obj in (_DictOnly(x), x.view(type("Sub", (np.ndarray,), {}))):
        for door in (ma.from_numpy, ma.asarray):
            got = door(obj)
            assert got.data_ptr == x.ctypes.data and got.tolist() == x.tolist()
    mis = _DictOnly(_cases()["misaligned"])
    with pytest.raises(BufferError, match="aligned"):
        ma.from_numpy(mis)
    assert ma.asarray(mis).tolist() == [0.0] * 4


def test_no_second_reader_of_numpy_structs() -> None:
    """The ctypes mirror of the array interface struct is gone: C reads it."""
    root = Path(__file__).resolve().parents[1] / "minarray"
    for path in root.rglob("*.py"):
        text = path.read_text()
        assert "PyArrayInterface" not in text and "__array_struct__.two" not in text, path.name
    assert not hasattr(ma.dlpack, "_from_array_struct")
