"""Data in and out as raw bytes: the buffer protocol both ways, tobytes,
frombuffer, tofile/fromfile, pickling and copying -- NumPy as the oracle,
and the allocator's counters proving that memory comes back whichever side
dies first."""

from __future__ import annotations

import array
import copy
import ctypes
import gc
import hashlib
import io
import pickle
import struct
import threading
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from array_strategies import ALL_DTYPES, NP_DTYPES, distinct_values, examples, np_dtype, shapes
from hypothesis import given
from hypothesis import strategies as st
from numpy_errors import raises_as_numpy

import minarray as ma


def stats() -> dict[str, int]:
    gc.collect()
    return ma.allocator_stats()


def make(shape: tuple[int, ...], dtype: ma.DType = ma.float64) -> tuple[np.ndarray, ma.NDArray]:
    a = distinct_values(shape, dtype)
    return a, ma.asarray(a, copy=True)


def readonly(x: ma.NDArray) -> ma.NDArray:
    return x._view(0, x._shape, x._strides, readonly=True)


# Layouts: (name, what to do to a NumPy array and to a minarray array alike)
LAYOUTS: list[tuple[str, Any]] = [
    ("C", lambda a: a),
    ("F", lambda a: a.T),
    ("strided", lambda a: a[::2, 1::2]),
    ("reversed", lambda a: a[::-1]),
    ("row", lambda a: a[1]),
    ("0-d", lambda a: a[1, 2, ...]),
    ("empty", lambda a: a[2:2]),
]


def layout_pair(layout: Any, dtype: ma.DType) -> tuple[np.ndarray, ma.NDArray]:
    a, x = make((4, 6), dtype)
    return layout(a), layout(x)


# ---- the buffer protocol: export -------------------------------------------------


class PyBuffer(ctypes.Structure):
    _fields_ = [("buf", ctypes.c_void_p), ("obj", ctypes.py_object), ("len", ctypes.c_ssize_t),
                ("itemsize", ctypes.c_ssize_t), ("readonly", ctypes.c_int), ("ndim", ctypes.c_int),
                ("format", ctypes.c_char_p), ("shape", ctypes.POINTER(ctypes.c_ssize_t)),
                ("strides", ctypes.POINTER(ctypes.c_ssize_t)), ("suboffsets", ctypes.c_void_p),
                ("internal", ctypes.c_void_p)]


PyBUF_SIMPLE, PyBUF_WRITABLE, PyBUF_FORMAT, PyBUF_ND = 0, 1, 4, 8
PyBUF_STRIDES = 0x10 | PyBUF_ND
PyBUF_C_CONTIGUOUS, PyBUF_F_CONTIGUOUS, PyBUF_ANY_CONTIGUOUS = 0x20 | PyBUF_STRIDES, 0x40 | PyBUF_STRIDES, \
    0x80 | PyBUF_STRIDES
# Function objects of this module's own: ctypes.pythonapi.PyObject_GetBuffer
# is one object shared by the process, and another library that sets its
# argtypes (pydlpack does, with its own Py_buffer) would break these calls.
_get = ctypes.PYFUNCTYPE(ctypes.c_int, ctypes.py_object, ctypes.POINTER(PyBuffer), ctypes.c_int)(
    ("PyObject_GetBuffer", ctypes.pythonapi))
_release = ctypes.PYFUNCTYPE(None, ctypes.POINTER(PyBuffer))(("PyBuffer_Release", ctypes.pythonapi))


def get_buffer(obj: Any, flags: int) -> dict[str, Any]:
    """What a C consumer asking with ``flags`` gets (then released)."""
    view = PyBuffer()
    _get(obj, ctypes.byref(view), flags)  # raises the exporter's exception
    try:
        nd = view.ndim
        return {"len": view.len, "itemsize": view.itemsize, "readonly": bool(view.readonly), "ndim": nd,
                "format": view.format, "buf": view.buf,
                "shape": tuple(view.shape[i] for i in range(nd)) if view.shape else None,
                "strides": tuple(view.strides[i] for i in range(nd)) if view.strides else None}
    finally:
        _release(ctypes.byref(view))


@pytest.mark.parametrize("dtype", NP_DTYPES, ids=str)
@pytest.mark.parametrize("layout", LAYOUTS, ids=[n for n, _ in LAYOUTS])
def test_memoryview_matches_numpy(dtype: ma.DType, layout: Any) -> None:
    a, x = layout_pair(layout[1], dtype)
    m, n = memoryview(x), memoryview(a)
    assert (m.format, m.itemsize, m.ndim, m.shape, m.strides, m.readonly) == (
        n.format, n.itemsize, n.ndim, n.shape, n.strides, n.readonly)
    assert (m.c_contiguous, m.f_contiguous, m.nbytes) == (n.c_contiguous, n.f_contiguous, n.nbytes)
    got = np.asarray(m)  # NumPy reads the export by its format, shape and strides
    assert got.dtype == a.dtype and np.array_equal(got, a)
    assert m.tobytes() == a.tobytes()
    # (bytes(n) of a 0-d integer array is n zero bytes, for NumPy too: CPython
    # asks __index__ before the buffer)
    assert bytes(x) == bytes(a) and bytearray(x) == bytearray(a)
    if x.size:
        assert get_buffer(x, PyBUF_STRIDES)["buf"] == x.data_ptr
    m.release()


def test_the_formats_come_from_the_dtype_table() -> None:
    for d in NP_DTYPES:
        assert d.format == memoryview(np.zeros(1, np_dtype(d))).format
        assert memoryview(ma.zeros(1, dtype=d)).format == d.format
    assert memoryview(ma.zeros(2, dtype=ma.complex64)).format == "Zf"
    assert memoryview(ma.zeros(2, dtype=ma.float16)).format == "e"
    assert memoryview(ma.zeros(2, dtype=ma.bool)).format == "?"


def test_bytes_of_a_one_element_array_are_its_element() -> None:
    assert bytes(ma.asarray([5])) == np.asarray([5]).tobytes() == struct.pack("q", 5)
    assert bytes(ma.asarray(5.0)) == struct.pack("d", 5.0) == bytes(np.asarray(5.0))
    assert bytes(ma.asarray([], dtype=ma.int8)) == b""


def test_consumers_read_the_memory() -> None:
    a, x = make((3, 4), ma.float64)
    assert struct.unpack_from("4d", x, 8 * 4) == tuple(a[1])
    arr = array.array("d")
    arr.frombytes(x)
    assert arr.tolist() == a.ravel().tolist()
    for algo in ("sha256", "md5"):
        assert hashlib.new(algo, x).hexdigest() == hashlib.new(algo, a).hexdigest()
    out = io.BytesIO()
    out.write(x)
    assert out.getvalue() == a.tobytes()
    assert np.array_equal(np.asarray(memoryview(x)), a)  # NumPy over the export: no copy
    assert np.frombuffer(x, dtype=np.float64).ctypes.data == x.data_ptr


def test_writable_consumers_write_through() -> None:
    x = ma.zeros(4, dtype=ma.int32)
    io.BytesIO(struct.pack("4i", 1, 2, 3, 4)).readinto(x)
    assert x.tolist() == [1, 2, 3, 4]
    m = memoryview(x)
    m[2] = -7
    assert x.tolist() == [1, 2, -7, 4]
    c = (ctypes.c_int32 * 4).from_buffer(x)
    c[0] = 9
    assert x[0] == 9
    del c, m


def test_read_only_arrays_export_read_only_buffers() -> None:
    a, x = make((2, 3))
    r = readonly(x)
    m = memoryview(r)
    assert m.readonly
    with pytest.raises(TypeError):
        m[0, 0] = 1.0
    with pytest.raises(BufferError, match="read-only"):
        get_buffer(r, PyBUF_WRITABLE)
    with pytest.raises(BufferError, match="read-only"):
        get_buffer(r, PyBUF_STRIDES | PyBUF_WRITABLE | PyBUF_FORMAT)
    with pytest.raises(TypeError):  # Python consumers turn the BufferError into their own error
        io.BytesIO(b"x" * 48).readinto(r)
    assert get_buffer(r, PyBUF_SIMPLE)["readonly"]
    assert r.tolist() == a.tolist()
    m.release()


def test_contiguity_requests() -> None:
    _, x = make((3, 4))
    t, s = x.T, x[:, ::2]
    assert get_buffer(x, PyBUF_C_CONTIGUOUS)["strides"] == (32, 8)
    assert get_buffer(t, PyBUF_F_CONTIGUOUS)["strides"] == (8, 32)
    assert get_buffer(t, PyBUF_ANY_CONTIGUOUS)["shape"] == (4, 3)
    simple = get_buffer(x, PyBUF_SIMPLE)
    assert (simple["len"], simple["shape"], simple["strides"], simple["format"]) == (96, None, None, None)
    assert get_buffer(x, PyBUF_ND)["shape"] == (3, 4) and get_buffer(x, PyBUF_ND)["strides"] is None
    for arr, flags in [(t, PyBUF_C_CONTIGUOUS), (x, PyBUF_F_CONTIGUOUS), (s, PyBUF_ANY_CONTIGUOUS),
                       (t, PyBUF_SIMPLE), (s, PyBUF_ND)]:
        with pytest.raises(BufferError, match="contiguous"):
            get_buffer(arr, flags)
    with pytest.raises(BufferError, match="not C-contiguous"):
        hashlib.sha256(t)
    assert get_buffer(s, PyBUF_STRIDES)["strides"] == (32, 16)


def test_bfloat16_has_no_format_but_its_bytes_are_readable() -> None:
    x = ma.ones(3, dtype=ma.bfloat16)
    for f in (memoryview, bytes, bytearray):
        with pytest.raises(BufferError, match="bfloat16 has no buffer-protocol format"):
            f(x)
    with pytest.raises(BufferError, match="bfloat16"):
        get_buffer(x, PyBUF_FORMAT)
    assert get_buffer(x, PyBUF_SIMPLE)["len"] == 6
    assert hashlib.sha256(x).digest() == hashlib.sha256(x.tobytes()).digest()
    assert x.tobytes() == b"\x80\x3f" * 3


def test_an_export_keeps_the_memory_alive() -> None:
    before = stats()["live_buffers"]
    a, x = make((4, 5))
    v = x[1:3]
    m = memoryview(v)
    del x, v
    assert stats()["live_buffers"] == before + 1
    assert m.tolist() == a[1:3].tolist()
    n = np.asarray(m)  # NumPy holds the memoryview, which holds the export
    m.release()
    assert stats()["live_buffers"] == before + 1
    assert n.tolist() == a[1:3].tolist()
    del n, m
    assert stats()["live_buffers"] == before


def test_an_export_survives_a_swapped_handle() -> None:
    """The export holds its own reference to the buffer, so even a handle
    replaced under it cannot free the memory it hands out."""
    before = stats()["live_buffers"]
    x = ma.arange(1000.0)
    m = memoryview(x)
    x._h = ma.zeros(3)._h
    assert stats()["live_buffers"] == before + 2
    assert m[999] == 999.0
    m.release()
    del x, m
    assert stats()["live_buffers"] == before


def test_exports_from_many_threads() -> None:
    x = ma.arange(10_000, dtype=ma.int64)
    expected = hashlib.sha256(np.arange(10_000, dtype=np.int64)).digest()
    errors: list[BaseException] = []

    def work() -> None:
        try:
            for _ in range(200):
                with memoryview(x[::1]) as m:
                    assert hashlib.sha256(m).digest() == expected
        except BaseException as e:  # pragma: no cover - reported below
            errors.append(e)

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors


# ---- tobytes ---------------------------------------------------------------------------


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=str)
@pytest.mark.parametrize("layout", LAYOUTS, ids=[n for n, _ in LAYOUTS])
def test_tobytes_matches_numpy(dtype: ma.DType, layout: Any) -> None:
    a, x = layout_pair(layout[1], dtype)
    for order in ("C", "F", "A", "K"):
        assert x.tobytes(order) == a.tobytes(order), order
    assert x.tobytes() == a.tobytes()


def test_tobytes_refuses_unknown_orders() -> None:
    with pytest.raises(ValueError, match="order must be one of"):
        ma.ones(2).tobytes("Q")


@given(st.sampled_from(ALL_DTYPES), shapes(max_dims=4), st.integers(0, 3))
@examples(60)
def test_tobytes_of_any_view(dtype: ma.DType, shape: tuple[int, ...], step: int) -> None:
    a, x = make(shape, dtype)
    if a.ndim:
        key = tuple(slice(None, None, -(step + 1)) if i % 2 else slice(None, None, step + 1) for i in range(a.ndim))
        a, x = a[key], x[key]
    assert x.tobytes() == a.tobytes() and x.tobytes("F") == a.tobytes("F")


# ---- frombuffer --------------------------------------------------------------------------


@pytest.mark.parametrize("dtype", NP_DTYPES, ids=str)
def test_frombuffer_matches_numpy(dtype: ma.DType) -> None:
    raw = distinct_values((24,), dtype).tobytes()
    item = dtype.itemsize
    for count, offset in [(-1, 0), (3, 0), (2, item), (-1, 2 * item), (0, 0), (0, len(raw))]:
        got = ma.frombuffer(raw, dtype=dtype, count=count, offset=offset)
        want = np.frombuffer(raw, dtype=np_dtype(dtype), count=count, offset=offset)
        assert got.dtype == dtype and got.shape == want.shape
        assert got.tolist() == want.tolist()


def test_frombuffer_default_dtype_and_sources() -> None:
    assert ma.frombuffer(struct.pack("2d", 1.5, 2.5)).tolist() == [1.5, 2.5]
    arr = array.array("i", [1, 2, 3])
    assert ma.frombuffer(arr, dtype=ma.int32).tolist() == [1, 2, 3]
    a = np.arange(6.0).reshape(2, 3)
    x = ma.frombuffer(a, dtype=ma.float64)
    assert x.data_ptr == a.ctypes.data and x.tolist() == a.ravel().tolist()
    assert ma.frombuffer(memoryview(struct.pack("3h", 1, 2, 3)), dtype=ma.int16).tolist() == [1, 2, 3]


def test_frombuffer_shares_memory_and_keeps_the_buffer_alive() -> None:
    before = stats()
    buf = bytearray(struct.pack("4q", 1, 2, 3, 4))
    x = ma.frombuffer(buf, dtype=ma.int64)
    assert x.flags.writeable and x.base is buf
    x[0] = 10
    buf[8:16] = struct.pack("q", 20)
    assert x.tolist() == [10, 20, 3, 4]
    with pytest.raises(BufferError):  # the export is held: the bytearray cannot move its memory
        buf.extend(b"x")
    y = x[1:]
    del buf, x
    assert stats()["live_foreign"] == before["live_foreign"] + 1
    assert y.tolist() == [20, 3, 4]
    del y
    assert stats()["live_foreign"] == before["live_foreign"]


def test_frombuffer_is_read_only_over_read_only_memory() -> None:
    x = ma.frombuffer(b"\x01\x00\x02\x00", dtype=ma.uint16)
    assert not x.flags.writeable and x.tolist() == [1, 2]
    with pytest.raises(ValueError, match="read-only"):
        x[0] = 3
    assert ma.frombuffer(bytearray(4), dtype=ma.uint16).flags.writeable


@pytest.mark.parametrize("args, message", [
    ((b"abc", ma.float64), "buffer size must be a multiple of element size"),
    ((b"abcdefgh", ma.float64, -1, 9), r"offset must be non-negative and no greater than buffer length \(8\)"),
    ((b"abcdefgh", ma.float64, -1, -1), r"offset must be non-negative and no greater than buffer length \(8\)"),
    ((b"abcdefgh", ma.float64, 2), "buffer is smaller than requested size"),
    ((b"abcdefgh", ma.uint8, 3, 6), "buffer is smaller than requested size"),
])
def test_frombuffer_errors_match_numpy(args: tuple[Any, ...], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        ma.frombuffer(*args)
    np_args = (args[0], np_dtype(args[1]), *args[2:])
    with pytest.raises(ValueError, match=message):
        np.frombuffer(*np_args)


def test_frombuffer_refuses_what_it_cannot_view() -> None:
    with pytest.raises(ValueError, match="not C-contiguous"):
        ma.frombuffer(memoryview(b"abcdefgh")[::2], dtype=ma.uint8)
    with pytest.raises(ValueError, match="not aligned"):
        ma.frombuffer(bytearray(17), dtype=ma.float64, offset=1)
    with pytest.raises(TypeError):
        ma.frombuffer([1, 2, 3])
    with pytest.raises(TypeError, match="unknown dtype"):
        ma.frombuffer(b"ab", dtype="float99")
    with pytest.raises(TypeError, match="no dtype 'float128'"):
        ma.frombuffer(b"ab", dtype="float128")


# ---- tofile / fromfile -------------------------------------------------------------------


@pytest.mark.parametrize("dtype", NP_DTYPES, ids=str)
def test_tofile_and_fromfile_match_numpy(tmp_path: Path, dtype: ma.DType) -> None:
    a, x = make((3, 5), dtype)
    x.T.tofile(tmp_path / "ma.bin")
    a.T.tofile(tmp_path / "np.bin")
    assert (tmp_path / "ma.bin").read_bytes() == (tmp_path / "np.bin").read_bytes()
    for count, offset in [(-1, 0), (4, 0), (-1, dtype.itemsize), (100, 0)]:
        got = ma.fromfile(tmp_path / "np.bin", dtype=dtype, count=count, offset=offset)
        want = np.fromfile(tmp_path / "np.bin", dtype=np_dtype(dtype), count=count, offset=offset)
        assert got.tolist() == want.tolist()


def test_tofile_and_fromfile_with_file_objects(tmp_path: Path) -> None:
    x = ma.arange(10, dtype=ma.int32)
    with open(tmp_path / "f.bin", "wb") as f:
        x[:5].tofile(f)
        x[5:].tofile(f)
    with open(tmp_path / "f.bin", "rb") as f:
        assert ma.fromfile(f, dtype=ma.int32, count=3).tolist() == [0, 1, 2]
        assert ma.fromfile(f, dtype=ma.int32).tolist() == list(range(3, 10))
    stream = io.BytesIO(x.tobytes() + b"\x01")  # a partial element at the end is left out, as NumPy does
    assert ma.fromfile(stream, dtype=ma.int32).tolist() == list(range(10))


def test_text_files(tmp_path: Path) -> None:
    a, x = make((2, 3), ma.float64)
    x.tofile(tmp_path / "ma.txt", sep=", ", format="%.3f")
    a.tofile(tmp_path / "np.txt", sep=", ", format="%.3f")
    assert (tmp_path / "ma.txt").read_text() == (tmp_path / "np.txt").read_text()
    got = ma.fromfile(tmp_path / "np.txt", sep=",")
    assert got.tolist() == np.fromfile(tmp_path / "np.txt", sep=",").tolist()
    (tmp_path / "ws.txt").write_text("1 2\n3  4\n")
    assert ma.fromfile(tmp_path / "ws.txt", dtype=ma.int64, sep=" ").tolist() == [1, 2, 3, 4]
    (tmp_path / "bad.txt").write_text("1, x")
    with pytest.raises(ValueError, match="cannot read the text"):
        ma.fromfile(tmp_path / "bad.txt", sep=",")


# ---- pickle and copy -------------------------------------------------------------------------


@pytest.mark.parametrize("protocol", [2, 3, 4, 5])
@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=str)
@pytest.mark.parametrize("layout", LAYOUTS, ids=[n for n, _ in LAYOUTS])
def test_pickle_round_trips_like_numpy(protocol: int, dtype: ma.DType, layout: Any) -> None:
    a, x = layout_pair(layout[1], dtype)
    y = pickle.loads(pickle.dumps(x, protocol=protocol))
    b = pickle.loads(pickle.dumps(a, protocol=protocol))
    assert isinstance(y, ma.NDArray) and y.dtype == dtype and y.shape == b.shape
    assert y.tobytes() == b.tobytes()
    assert y.flags.writeable and y.flags.c_contiguous == b.flags.c_contiguous
    assert y.flags.f_contiguous == b.flags.f_contiguous
    if y.size:
        assert y.data_ptr != x.data_ptr


@pytest.mark.parametrize("protocol", [2, 3, 4, 5])
def test_read_only_arrays_unpickle_read_only(protocol: int) -> None:
    a, x = make((3, 4))
    y = pickle.loads(pickle.dumps(readonly(x), protocol=protocol))
    assert not y.flags.writeable and y.tolist() == a.tolist()
    z = pickle.loads(pickle.dumps(readonly(x.T), protocol=protocol))
    assert not z.flags.writeable and z.tolist() == a.T.tolist()


def test_a_view_pickles_only_its_own_data() -> None:
    big = ma.arange(1_000_000.0)
    for protocol in (2, 4, 5):
        view = big[10:20]
        assert len(pickle.dumps(view, protocol=protocol)) < 400
        assert pickle.loads(pickle.dumps(big[::100_000], protocol=protocol)).tolist() == big[::100_000].tolist()
    bufs: list[pickle.PickleBuffer] = []
    pickle.dumps(big[5:8], protocol=5, buffer_callback=bufs.append)
    assert [memoryview(b).nbytes for b in bufs] == [24]


def test_out_of_band_pickling_copies_nothing() -> None:
    a, x = make((300, 200))
    for v in (x, x.T, x[10:20]):
        bufs: list[pickle.PickleBuffer] = []
        data = pickle.dumps(v, protocol=5, buffer_callback=bufs.append)
        assert len(data) < 300 and len(bufs) == 1
        with memoryview(bufs[0]) as m:  # the buffer is the array's own memory
            assert np.frombuffer(m, np.uint8).ctypes.data == v.data_ptr and m.nbytes == v.nbytes
        y = pickle.loads(data, buffers=bufs)
        assert y.data_ptr == v.data_ptr and y.strides == v.strides  # wrapped where it lies
        assert y.tolist() == v.tolist()
    s = x[:, ::2]  # neither C- nor Fortran-contiguous: one contiguous copy, then out of band
    bufs = []
    y = pickle.loads(pickle.dumps(s, protocol=5, buffer_callback=bufs.append), buffers=bufs)
    assert y.tolist() == a[:, ::2].tolist() and y.flags.c_contiguous


def test_out_of_band_buffers_from_elsewhere() -> None:
    """Buffers that come back as plain bytes, bytearrays or memoryviews (as
    from a socket): wrapped in place when aligned and writable enough,
    copied otherwise; the result is right either way."""
    a, x = make((4, 6), ma.int32)
    bufs: list[pickle.PickleBuffer] = []
    data = pickle.dumps(x, protocol=5, buffer_callback=bufs.append)
    raw = bytes(memoryview(bufs[0]))
    del bufs
    writable = bytearray(raw)
    y = pickle.loads(data, buffers=[writable])
    assert y.flags.writeable and y.tolist() == a.tolist()
    assert y.data_ptr == np.frombuffer(writable, np.uint8).ctypes.data  # in place
    y[0, 0] = 99
    assert struct.unpack_from("i", writable)[0] == 99
    z = pickle.loads(data, buffers=[raw])  # read-only memory for a writable array: copied
    assert z.flags.writeable and z.tolist() == a.tolist()
    shifted = bytearray(len(raw) + 1)
    shifted[1:] = raw
    w = pickle.loads(data, buffers=[memoryview(shifted)[1:]])  # misaligned: copied
    assert w.flags.writeable and w.tolist() == a.tolist()
    with pytest.raises(ValueError, match="pickled block holds"):
        pickle.loads(data, buffers=[raw[:-4]])
    gapped = bytearray(2 * len(raw))
    gapped[::2] = raw
    g = pickle.loads(data, buffers=[memoryview(gapped)[::2]])  # not one block: copied
    assert g.tolist() == a.tolist() and g.base is None
    assert y.base is writable  # wrapped: the buffer is the base, as NumPy's


def test_unpickled_buffers_give_their_memory_back() -> None:
    before = stats()
    a, x = make((50, 40))
    bufs: list[pickle.PickleBuffer] = []
    data = pickle.dumps(x, protocol=5, buffer_callback=bufs.append)
    y = pickle.loads(data, buffers=bufs)
    received = bytearray(bytes(memoryview(bufs[0])))
    z = pickle.loads(data, buffers=[received])
    del x, bufs, received  # the senders die first
    assert y.tolist() == z.tolist() == a.tolist()
    del y, z
    assert stats()["live_buffers"] == before["live_buffers"]
    assert stats()["live_foreign"] == before["live_foreign"]
    in_band = pickle.loads(pickle.dumps(ma.ones(1000), protocol=5))
    del in_band
    assert stats()["live_buffers"] == before["live_buffers"]


def test_pickle_inside_containers_and_dtypes() -> None:
    x = ma.arange(5, dtype=ma.uint16)
    obj = {"x": x, "again": x, "dtype": ma.uint16}
    back = pickle.loads(pickle.dumps(obj))
    assert back["x"] is back["again"] and back["dtype"] is ma.uint16
    assert back["x"].tolist() == [0, 1, 2, 3, 4]


def test_copy_and_deepcopy_copy_the_data() -> None:
    _, x = make((3, 4))
    for f in (copy.copy, copy.deepcopy):
        for v in (x, x.T, x[::2]):
            c = f(v)
            assert c.tolist() == v.tolist() and c.data_ptr != v.data_ptr and c.strides == np.copy(
                np.asarray(v), order="K").strides
    r = readonly(x)
    assert copy.deepcopy(r).flags.writeable


@given(st.sampled_from(ALL_DTYPES), shapes(max_dims=4), st.integers(2, 5), st.booleans())
@examples(60)
def test_pickle_any_shape(dtype: ma.DType, shape: tuple[int, ...], protocol: int, transpose: bool) -> None:
    a, x = make(shape, dtype)
    if transpose:
        a, x = a.T, x.T
    bufs: list[pickle.PickleBuffer] = []
    y = pickle.loads(pickle.dumps(x, protocol=protocol, buffer_callback=bufs.append if protocol == 5 else None),
                     buffers=bufs)
    assert y.shape == a.shape and y.tobytes() == a.tobytes()


SIZES_TOO_LARGE = {
    "count * itemsize past int64": (lambda m: m.frombuffer(b"abcdefgh", dtype=m.uint16, count=2**62),
                                    "smaller than requested"),
    "count past int64": (lambda m: m.frombuffer(b"abcdefgh", dtype=m.uint8, count=2**63),
                         "does not fit in a 64-bit integer"),
    "offset past int64": (lambda m: m.frombuffer(b"abcdefgh", dtype=m.uint8, offset=2**63),
                          "does not fit in a 64-bit integer"),
}


@pytest.mark.parametrize("case", SIZES_TOO_LARGE.values(), ids=SIZES_TOO_LARGE.keys())
def test_frombuffer_sizes_past_int64_raise_as_numpy(case: tuple[Any, str]) -> None:
    call, match = case
    raises_as_numpy(call, match)


# ---- fromstring ----------------------------------------------------------------------------

FROMSTRING: dict[str, tuple[str, dict[str, Any]]] = {
    "spaces": ("1 2 3.5", {"sep": " "}),
    "any-whitespace": ("1\t2\n  3   4", {"sep": " "}),
    "commas": ("1, 2,3 , 4", {"sep": ","}),
    "int-dtype": ("7,8,9", {"dtype": int, "sep": ","}),
    "int8": ("1 -2 3", {"dtype": np.int8, "sep": " "}),
    "float32": ("0.1 0.2", {"dtype": "float32", "sep": " "}),
    "complex": ("1+2j 3", {"dtype": complex, "sep": " "}),
    "count": ("1 2 3 4", {"sep": " ", "count": 2}),
    "empty": ("", {"sep": " "}),
    "exponent": ("1e3;-2.5E-2", {"sep": ";"}),
}


@pytest.mark.parametrize("case", FROMSTRING)
def test_fromstring_as_numpy(case: str) -> None:
    text, kw = FROMSTRING[case]
    kw_ma = {k: (getattr(ma, np.dtype(v).name) if k == "dtype" else v) for k, v in kw.items()}
    same_values = np.fromstring(text, **kw)
    got = ma.fromstring(text, **kw_ma)
    assert np.asarray(got).dtype == same_values.dtype and got.shape == same_values.shape
    np.testing.assert_array_equal(np.asarray(got), same_values)


def test_fromstring_binary_mode_refused_as_numpy() -> None:
    raises_as_numpy(lambda m: m.fromstring(b"\x00" * 8), "binary mode of fromstring is removed.*frombuffer")
    raises_as_numpy(lambda m: m.fromstring("1 2", sep=""), "binary mode")


def test_fromstring_unreadable_text_refused_as_numpy() -> None:
    raises_as_numpy(lambda m: m.fromstring("1,2,,3", sep=","), "read")
    raises_as_numpy(lambda m: m.fromstring("1, 2, x", dtype=int, sep=","), "read")


def test_data_ctypes_and_setflags_as_numpy() -> None:
    """x.data (a memoryview), x.ctypes (address, shape and strides for
    ctypes calls) and x.setflags(write=...), as NumPy's."""
    for lib in (np, ma):
        x = lib.arange(6, dtype=lib.int64).reshape(2, 3)[:, ::2]
        assert x.ctypes.data == x.__array_interface__["data"][0]
        assert x.ctypes.shape[:] == [2, 2] and x.ctypes.strides[:] == [24, 16]
        assert x.ctypes.data_as(ctypes.POINTER(ctypes.c_int64))[2] == 2
        assert isinstance(x.ctypes._as_parameter_, ctypes.c_void_p)
        y = lib.arange(3.0)
        assert isinstance(y.data, memoryview) and y.data.tolist() == [0.0, 1.0, 2.0] and y.data.format == "d"
        y.setflags(write=False)
        assert not y.flags.writeable
        with pytest.raises(ValueError, match="cannot set WRITEABLE flag to True of this array"):
            y[1:].setflags(write=True)
        with pytest.raises(ValueError, match="WRITEBACKIFCOPY"):
            y.setflags(uic=True)
        y.setflags(write=True)
        assert y.flags.writeable


def test_a_ctypes_pointer_keeps_the_memory() -> None:
    before = stats()["live_buffers"]
    p = ma.arange(1000.0).ctypes.data_as(ctypes.POINTER(ctypes.c_double))
    assert stats()["live_buffers"] == before + 1 and p[999] == 999.0
    del p
    assert stats()["live_buffers"] == before


def test_dumps_dump_and_choose_methods(tmp_path: Any) -> None:
    a = ma.asarray([[1.5, -2.0], [3.0, 4.25]])
    assert pickle.loads(a.dumps()).tolist() == a.tolist()
    buf = io.BytesIO()
    a.dump(buf)
    buf.seek(0)
    assert pickle.load(buf).tolist() == a.tolist()
    path = tmp_path / "a.pkl"
    a.dump(path)
    with open(path, "rb") as f:
        assert pickle.load(f).tolist() == a.tolist()
    idx = ma.asarray([0, 1, 1])
    assert idx.choose([[1, 2, 3], [10, 20, 30]]).tolist() == np.asarray([0, 1, 1]).choose(
        [[1, 2, 3], [10, 20, 30]]).tolist()


def test_byte_strides_itemsize_and_nbytes_for_every_dtype() -> None:
    """The C descriptors give each dtype's itemsize (one byte for the
    sub-byte types minarray stores one to a byte), strides in bytes and
    nbytes, views and reversed axes included."""
    dtypes = {getattr(ma, n) for n in dir(ma) if isinstance(getattr(ma, n), ma.DType)}
    assert len(dtypes) > 30
    for d in dtypes:
        x = ma.zeros((3, 4), dtype=d)[::-1, ::2]
        assert x.itemsize == d.itemsize
        assert x.strides == tuple(s * d.itemsize for s in x._strides) == (-4 * d.itemsize, 2 * d.itemsize)
        assert x.nbytes == x.size * d.itemsize == 6 * d.itemsize
    n = np.zeros((3, 4), dtype=np.complex64)[::-1, ::2]
    x = ma.asarray(n)
    assert (x.strides, x.itemsize, x.nbytes) == (n.strides, n.itemsize, n.nbytes)
