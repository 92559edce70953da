""".npy and .npz files: ma.save/load/savez/savez_compressed against
NumPy's own files (both ways, byte for byte where minarray writes), memory
maps (zero-copy, read-only or not, unmapped when the last user goes), and
malformed files (every one a ValueError, never a read past the data),
including a fuzzed header parser."""

from __future__ import annotations

import gc
import io
import os
import pickle
import struct
import zipfile
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from array_strategies import ALL_DTYPES, NP_BFLOAT16, NP_DTYPES, distinct_values, np_dtype
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from numpy_oracle import DLPACK_VERSIONED

import minarray as ma

FUZZ_EXAMPLES = int(os.environ.get("MINARRAY_NPY_FUZZ_EXAMPLES", "2000"))


def stats() -> dict[str, int]:
    gc.collect()
    return ma.allocator_stats()


LAYOUTS: list[tuple[str, Any]] = [
    ("C", lambda a: a),
    ("F", lambda a: a.T),
    ("strided", lambda a: a[::2, 1::2]),
    ("reversed", lambda a: a[::-1]),
    ("0-d", lambda a: a[1, 2, ...]),
    ("empty", lambda a: a[:, 3:3]),
    ("3-d F", lambda a: a.reshape(2, 2, 6).T),
]


def pair(layout: Any, dtype: ma.DType) -> tuple[np.ndarray, ma.NDArray]:
    a = distinct_values((4, 6), dtype)
    return layout(a), layout(ma.asarray(a, copy=True))


def np_bytes(a: np.ndarray, **kw: Any) -> bytes:
    f = io.BytesIO()
    if kw:
        np.lib.format.write_array(f, a, **kw)
    else:
        np.save(f, a)
    return f.getvalue()


def ma_bytes(x: ma.NDArray) -> bytes:
    f = io.BytesIO()
    ma.save(f, x)
    return f.getvalue()


def assert_same(x: ma.NDArray, a: np.ndarray) -> None:
    assert isinstance(x, ma.NDArray) and x.dtype == ma.asarray(a).dtype and x.shape == a.shape
    assert x.tobytes() == np.ascontiguousarray(a).astype(a.dtype.newbyteorder("=")).tobytes()


# ---- the format, both ways ---------------------------------------------------------------


@pytest.mark.parametrize("dtype", NP_DTYPES, ids=str)
@pytest.mark.parametrize("layout", LAYOUTS, ids=[n for n, _ in LAYOUTS])
def test_save_writes_numpys_bytes_and_reads_them_back(dtype: ma.DType, layout: Any) -> None:
    a, x = pair(layout[1], dtype)
    data = ma_bytes(x)
    assert data == np_bytes(a)
    assert_same(ma.load(io.BytesIO(data)), a)
    b = np.load(io.BytesIO(data))
    assert b.dtype == a.dtype and np.array_equal(b, a) and b.flags.f_contiguous == a.flags.f_contiguous
    y = ma.load(io.BytesIO(data))
    assert y.flags.f_contiguous == b.flags.f_contiguous and y.flags.c_contiguous == b.flags.c_contiguous


@pytest.mark.parametrize("layout", LAYOUTS, ids=[n for n, _ in LAYOUTS])
def test_bfloat16_files(layout: Any) -> None:
    if NP_BFLOAT16 is None:  # pragma: no cover
        pytest.skip("ml_dtypes is not installed: NumPy has no bfloat16 to compare with")
    a, x = pair(layout[1], ma.bfloat16)
    data = ma_bytes(x)
    assert b"'descr': 'bfloat16'" in data
    assert ma.load(io.BytesIO(data)).tobytes() == np.ascontiguousarray(a).tobytes()
    b = np.load(io.BytesIO(data))  # NumPy reads the name once ml_dtypes is imported
    assert b.dtype == NP_BFLOAT16 and b.tobytes() == np.ascontiguousarray(a).tobytes()


@pytest.mark.parametrize("version", [(1, 0), (2, 0), (3, 0)])
@pytest.mark.parametrize("dtype", NP_DTYPES, ids=str)
def test_reads_numpys_files_of_every_version(version: tuple[int, int], dtype: ma.DType) -> None:
    a = distinct_values((3, 5), dtype)
    for arr in (a, a.T, np.asfortranarray(a)[:, :0]):
        assert_same(ma.load(io.BytesIO(np_bytes(arr, version=version))), arr)


@pytest.mark.parametrize("dtype", NP_DTYPES, ids=str)
def test_big_endian_files_are_swapped_on_load(dtype: ma.DType) -> None:
    a = distinct_values((3, 4), dtype)
    big = a.astype(a.dtype.newbyteorder(">"))
    for arr in (big, big.T):
        x = ma.load(io.BytesIO(np_bytes(arr)))
        assert_same(x, arr)
        assert np.array_equal(np.asarray(x), arr)


def test_paths_and_suffixes(tmp_path: Path) -> None:
    x = ma.arange(6.0).reshape(2, 3)
    ma.save(tmp_path / "a", x)  # as NumPy: the suffix is added
    ma.save(str(tmp_path / "b.npy"), x)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.npy", "b.npy"]
    assert ma.load(tmp_path / "a.npy").tolist() == x.tolist()
    assert ma.load(str(tmp_path / "b.npy")).tolist() == x.tolist()
    with open(tmp_path / "two.npy", "wb") as f:  # two arrays in one stream
        ma.save(f, x)
        ma.save(f, [1, 2])
    with open(tmp_path / "two.npy", "rb") as f:
        assert ma.load(f).tolist() == x.tolist()
        assert ma.load(f).tolist() == [1, 2]
    ma.save(tmp_path / "list", [[1.5, 2.5]])  # anything asarray takes
    assert np.load(tmp_path / "list.npy").tolist() == [[1.5, 2.5]]


def test_a_view_saves_only_its_elements() -> None:
    big = ma.arange(100_000.0)
    assert len(ma_bytes(big[5:10])) == 128 + 40
    assert ma.load(io.BytesIO(ma_bytes(big[::25_000]))).tolist() == [0.0, 25000.0, 50000.0, 75000.0]


def test_pickles_and_object_arrays(tmp_path: Path) -> None:
    obj = np.array([1, "a", None], dtype=object)
    np.save(tmp_path / "obj.npy", obj, allow_pickle=True)
    for allow in (False, True):
        with pytest.raises(ValueError, match="object array"):
            ma.load(tmp_path / "obj.npy", allow_pickle=allow)
    with open(tmp_path / "p.pkl", "wb") as f:
        pickle.dump({"x": 1}, f)
    with pytest.raises(ValueError, match="allow_pickle=False"):
        ma.load(tmp_path / "p.pkl")
    assert ma.load(tmp_path / "p.pkl", allow_pickle=True) == {"x": 1}
    structured = np.zeros(2, dtype=[("a", "<i4"), ("b", "<f8")])
    with pytest.raises(ValueError, match="structured"):
        ma.load(io.BytesIO(np_bytes(structured)))
    for unsupported in (np.zeros(2, "<M8[s]"), np.zeros(2, "<U3"), np.zeros(2, np.longdouble)):
        with pytest.raises(ValueError, match="not a dtype minarray has"):
            ma.load(io.BytesIO(np_bytes(unsupported)))


# ---- .npz ----------------------------------------------------------------------------------


@pytest.mark.parametrize("compressed", [False, True])
def test_npz_both_ways(tmp_path: Path, compressed: bool) -> None:
    arrays = {d.name: distinct_values((3, 2), d) for d in NP_DTYPES}
    save_ma = ma.savez_compressed if compressed else ma.savez
    save_np = np.savez_compressed if compressed else np.savez
    save_ma(tmp_path / "ma", ma.arange(3), ma.ones((2, 2)).T, **{k: ma.asarray(v) for k, v in arrays.items()})
    save_np(tmp_path / "np", np.arange(3), np.ones((2, 2)).T, **arrays)
    with np.load(tmp_path / "ma.npz") as n, ma.load(tmp_path / "np.npz") as m:
        assert sorted(n.files) == sorted(m.files) == sorted(["arr_0", "arr_1", *arrays])
        for k in m.files:
            assert_same(m[k], n[k])
    with ma.load(tmp_path / "ma.npz") as m:
        assert "arr_1" in m and len(m) == len(arrays) + 2 and set(m) == set(m.keys())
        assert m["arr_1"].flags.f_contiguous and m["arr_0.npy"].tolist() == [0, 1, 2]
        with pytest.raises(KeyError, match="nope"):
            m["nope"]
    with zipfile.ZipFile(tmp_path / "ma.npz") as zf:
        kinds = {i.compress_type for i in zf.infolist()}
    assert kinds == {zipfile.ZIP_DEFLATED if compressed else zipfile.ZIP_STORED}


def test_npz_details(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="Cannot use un-named variables and keyword arr_0"):
        ma.savez(tmp_path / "x", ma.ones(1), arr_0=ma.ones(2))
    buf = io.BytesIO()
    ma.savez(buf, a=ma.ones(2))
    buf.seek(0)
    f = ma.load(buf)
    assert f["a"].tolist() == [1.0, 1.0] and repr(f) == "NpzFile(files=['a'])"
    f.close()
    with pytest.raises(ValueError, match="closed"):
        f["a"]
    with zipfile.ZipFile(tmp_path / "mixed.npz", "w") as zf:
        zf.writestr("notes.txt", b"hello")
        zf.writestr("x.npy", ma_bytes(ma.arange(2)))
    with ma.load(tmp_path / "mixed.npz") as m:
        assert m["notes.txt"] == b"hello" and m["x"].tolist() == [0, 1]
    (tmp_path / "bad.npz").write_bytes(b"PK\x03\x04 not really a zip")
    with pytest.raises(ValueError, match=r"not a valid \.npz"):
        ma.load(tmp_path / "bad.npz")
    with zipfile.ZipFile(tmp_path / "lies.npz", "w") as zf:
        zf.writestr("x.npy", ma_bytes(ma.arange(100))[:-8])
    with ma.load(tmp_path / "lies.npz") as m, pytest.raises(ValueError, match="truncated"):
        m["x"]


# ---- memory maps -------------------------------------------------------------------------------


def mapped(path: Path) -> bool:
    with open("/proc/self/maps") as f:
        return str(path) in f.read()


needs_proc = pytest.mark.skipif(not os.path.exists("/proc/self/maps"), reason="needs /proc/self/maps (Linux)")


@needs_proc
def test_mmap_is_zero_copy_and_unmapped_when_the_last_user_goes(tmp_path: Path) -> None:
    a = distinct_values((512, 1024), ma.float64)  # 4 MiB
    path = tmp_path / "big.npy"
    np.save(path, a)
    before = stats()
    m = ma.load(path, mmap_mode="r")
    after = stats()
    assert after["live_bytes"] == before["live_bytes"]  # nothing read, nothing allocated
    assert after["live_foreign"] == before["live_foreign"] + 1 and mapped(path)
    assert type(m) is ma.memmap and not m.flags.writeable and np.array_equal(np.asarray(m), a)
    with pytest.raises(ValueError, match="read-only"):
        m[0, 0] = 1.0
    v = m[100:110]
    del m
    assert mapped(path) and v.tolist() == a[100:110].tolist()
    del v
    gc.collect()
    assert not mapped(path) and stats()["live_foreign"] == before["live_foreign"]


@needs_proc
@pytest.mark.parametrize("consumer", ["numpy", "torch", "memoryview"])
def test_a_mapped_array_exports_and_outlives_its_ndarray(tmp_path: Path, consumer: str) -> None:
    path = tmp_path / "x.npy"
    np.save(path, np.arange(1000.0))
    # NumPy 2.0 takes legacy capsules only, which carry read-only memory
    # only as a copy: it shares a copy-on-write map instead
    m = ma.load(path, mmap_mode="c" if consumer == "numpy" and not DLPACK_VERSIONED else "r")
    if consumer == "numpy":
        other: Any = np.from_dlpack(m)
        assert other.ctypes.data == m.data_ptr and not other.flags.writeable
    elif consumer == "torch":
        torch = pytest.importorskip("torch", reason="PyTorch is not installed")
        other = torch.from_dlpack(ma.load(path, mmap_mode="c"))
    else:
        other = memoryview(m)
    del m
    gc.collect()
    assert mapped(path) and float(other[999]) == 999.0
    del other
    gc.collect()
    assert not mapped(path)


def test_mmap_modes(tmp_path: Path) -> None:
    path = tmp_path / "x.npy"
    a = distinct_values((4, 3), ma.int32)
    np.save(path, np.asfortranarray(a))
    c = ma.load(path, mmap_mode="c")
    assert c.flags.writeable and c.flags.f_contiguous and c.tolist() == a.tolist()
    c[0, 0] = -1
    del c
    assert np.load(path)[0, 0] == a[0, 0]  # copy on write: the file is untouched
    w = ma.load(path, mmap_mode="r+")
    w[0, 0] = -1
    del w
    gc.collect()
    assert np.load(path)[0, 0] == -1  # written through to the file
    with open(path, "rb") as f:  # a file object works too
        assert ma.load(f, mmap_mode="r")[0, 0] == -1
    empty = tmp_path / "e.npy"
    np.save(empty, np.zeros((0, 4)))
    e = ma.load(empty, mmap_mode="r")
    assert e.shape == (0, 4) and not e.flags.writeable
    zero_d = tmp_path / "z.npy"
    np.save(zero_d, np.float32(2.5))
    assert ma.load(zero_d, mmap_mode="r").tolist() == 2.5


def test_mmap_refusals(tmp_path: Path) -> None:
    path = tmp_path / "x.npy"
    np.save(path, np.arange(10, dtype=">i4"))
    with pytest.raises(ValueError, match="big-endian"):
        ma.load(path, mmap_mode="r")
    with pytest.raises(ValueError, match="mmap_mode must be one of"):
        ma.load(path, mmap_mode="w+")
    with pytest.raises(ValueError, match="file on disk"):
        ma.load(io.BytesIO(np_bytes(np.arange(3))), mmap_mode="r")
    np.save(path, np.arange(1000.0))
    with open(path, "r+b") as f:
        f.truncate(1000)
    for mode in (None, "r"):
        with pytest.raises(ValueError, match="truncated"):
            ma.load(path, mmap_mode=mode)


# ---- malformed files ---------------------------------------------------------------------------


def header_file(text: str, data: bytes = b"", version: tuple[int, int] = (1, 0)) -> bytes:
    fmt = "<H" if version == (1, 0) else "<I"
    body = text.encode("utf8" if version == (3, 0) else "latin1")
    return b"\x93NUMPY" + bytes(version) + struct.pack(fmt, len(body)) + body + data


GOOD = "{'descr': '<f8', 'fortran_order': False, 'shape': (2,), }"

MALFORMED = [
    (b"", "empty"),
    (b"\x93NUMP", "not a .npy"),
    (b"\x93NUMPX\x01\x00", "magic string is not correct"),
    (b"\x93NUMPY\x04\x00\x00\x00", "format version"),
    (b"\x93NUMPY\x01\x00\x10", "EOF: reading the header length"),
    (b"\x93NUMPY\x01\x00\xff\x00{", "EOF: reading the array header"),
    (header_file(GOOD, b"\x00" * 15), "truncated"),
    (header_file(GOOD.replace("(2,)", "(10**12,)")), "cannot parse"),
    (header_file(GOOD.replace("(2,)", "(1000000000000,)")), "truncated"),
    (header_file(GOOD.replace("(2,)", "(4611686018427387904, 4611686018427387904)")), "truncated"),
    (header_file(GOOD.replace("(2,)", f"(0, {2**62}, {2**62})")), "overflows"),
    (header_file(GOOD.replace("(2,)", f"(0, {2**65})")), "does not fit in 64 bits"),
    (header_file(GOOD.replace("(2,)", "(-1,)")), "non-negative ints"),
    (header_file(GOOD.replace("(2,)", "(True,)")), "non-negative ints"),
    (header_file(GOOD.replace("(2,)", "(2.0,)")), "non-negative ints"),
    (header_file(GOOD.replace("(2,)", "[2]")), "non-negative ints"),
    (header_file(GOOD.replace("(2,)", "(" + "1, " * 65 + ")")), "at most"),
    (header_file(GOOD.replace("False", "0")), "fortran_order must be True or False"),
    (header_file(GOOD.replace("'<f8'", "'<f16'")), "not a dtype minarray has"),
    (header_file(GOOD.replace("'<f8'", "'O'")), "object array"),
    (header_file(GOOD.replace("'<f8'", "8")), "must be a dtype string"),
    (header_file(GOOD.replace("'<f8'", "[('a', '<f8')]")), "structured"),
    (header_file(GOOD.replace(", }", ", 'extra': 1, }")), "exactly the keys"),
    (header_file("{'descr': '<f8', 'shape': (2,), }"), "exactly the keys"),
    (header_file("[1, 2]"), "not a dict"),
    (header_file("{'descr': '<f8', 'fortran_order': False, 'shape': (2,)"), "cannot parse"),
    (header_file("__import__('os').system('true')"), "cannot parse"),
    (header_file("{" * 5000), "cannot parse"),
    (header_file(GOOD)[:8] + b"\xff\xff" + b"{" * 20, "max_header_size"),
    (header_file(GOOD)[:8] + b"\x10\x27" + b"{" * 20, "EOF: reading the array header"),
    (header_file("{'descr': '<f8', 'fortran_order': False, 'shape': (2,), } " + " " * 10001), "max_header_size"),
    (header_file("{'descr': '\u00e9', 'fortran_order': False, 'shape': (), }", version=(3, 0)), "not a dtype"),
    (header_file("x", version=(3, 0))[:12] + b"\xff", "not valid utf8"),
    # an invalid escape: refused, without the compiler's warning reaching the caller
    (header_file("{'descr': '<f\\8', 'fortran_order': False, 'shape': (2,), }"), "cannot parse"),
]


@pytest.mark.filterwarnings("error")
@pytest.mark.parametrize("data, message", MALFORMED, ids=[m for _, m in MALFORMED])
def test_malformed_files_raise_value_error(data: bytes, message: str, tmp_path: Path) -> None:
    before = stats()
    with pytest.raises(ValueError, match=message):
        ma.load(io.BytesIO(data))
    path = tmp_path / "bad.npy"
    path.write_bytes(data)
    for mode in (None, "r"):
        with pytest.raises(ValueError):
            ma.load(path, mmap_mode=mode)
    after = stats()
    assert after["failed_allocations"] == before["failed_allocations"]  # no attempt at a huge allocation


def test_a_lying_shape_allocates_nothing_from_a_stream() -> None:
    """A stream of unknown length cannot be checked up front: it is read in
    pieces, and the lie shows when the data runs out."""

    class Pipe(io.RawIOBase):
        def __init__(self, data: bytes) -> None:
            self.f = io.BytesIO(data)

        def readable(self) -> bool:
            return True

        def readinto(self, b: Any) -> int:
            return self.f.readinto(b)

        def tell(self) -> int:
            return self.f.tell()

        def seek(self, *args: Any) -> int:
            return self.f.seek(*args)

    data = header_file(GOOD.replace("(2,)", "(1000000000000,)"), b"\x00" * 64)
    before = stats()
    with pytest.raises(ValueError, match="truncated"):
        ma.load(Pipe(data))
    assert stats()["failed_allocations"] == before["failed_allocations"]
    ok = Pipe(ma_bytes(ma.arange(5.0)))
    assert ma.load(ok).tolist() == [0.0, 1.0, 2.0, 3.0, 4.0]


# ---- the fuzzed header parser -------------------------------------------------------------------


@pytest.fixture(scope="module")
def fuzz_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("npy-fuzz")


DESCRS = ["'<f8'", "'>i2'", "'|b1'", "'<c16'", "'bfloat16'", "'<f2'", "'|u1'", "'=i4'", "'f8'", "'<f16'", "'O'",
          "'<U3'", "''", "'<'", "'<i'", "1", "None", "[('a', '<i4')]", "b'<f8'", "'\\x00'"]
SHAPES = st.one_of(
    st.lists(st.integers(0, 6), max_size=4).map(tuple).map(repr),
    st.lists(st.integers(-(2**65), 2**65), max_size=3).map(tuple).map(repr),
    st.sampled_from(["(True,)", "(1.5,)", "[2]", "(2, (3,))", "('2',)", "()", "(-0,)", "(0x10,)", "(1_0,)",
                     "(2**3,)", "{}", "None"]),
)
FORTRANS = st.sampled_from(["True", "False", "0", "1", "None", "'False'", "true"])


@st.composite
def npy_files(draw: st.DrawFn) -> bytes:
    kind = draw(st.sampled_from(["valid", "header", "mutate", "truncate", "length"]))
    dtype = draw(st.sampled_from(NP_DTYPES))
    shape = draw(st.lists(st.integers(0, 4), max_size=3).map(tuple))
    a = distinct_values(shape, dtype)
    if draw(st.booleans()):
        a = a.T
    version = draw(st.sampled_from([(1, 0), (2, 0), (3, 0)]))
    good = np_bytes(a, version=version)
    if kind == "valid":
        return good
    if kind == "header":
        keys = [f"'descr': {draw(st.sampled_from(DESCRS))}", f"'fortran_order': {draw(FORTRANS)}",
                f"'shape': {draw(SHAPES)}"]
        keys = draw(st.permutations(keys))
        if draw(st.booleans()):
            keys = keys[:draw(st.integers(0, 3))] + draw(st.lists(st.sampled_from(["'x': 1", "1: 2", "'shape': ()"]),
                                                                   max_size=2))
        text = "{" + ", ".join(keys) + draw(st.sampled_from([", }", "}", "", ", } \n", ",,}"]))
        data = draw(st.binary(max_size=200)) if draw(st.booleans()) else good[len(good) - a.nbytes:]
        return header_file(text, data, version)
    if kind == "mutate":
        out = bytearray(good)
        for _ in range(draw(st.integers(1, 4))):
            i = draw(st.integers(0, min(len(out) - 1, 140)))
            out[i] = draw(st.integers(0, 255))
        return bytes(out)
    if kind == "truncate":
        return good[:draw(st.integers(0, len(good)))]
    out = bytearray(good)  # a lying header length
    n = draw(st.integers(0, 2**32 - 1))
    if version == (1, 0):
        out[8:10] = struct.pack("<H", n % 65536)
    else:
        out[8:12] = struct.pack("<I", n)
    return bytes(out)


@given(npy_files())
@settings(max_examples=FUZZ_EXAMPLES, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
def test_fuzzed_headers_load_like_numpy_or_raise_value_error(fuzz_dir: Path, data: bytes) -> None:
    try:
        x = ma.load(io.BytesIO(data))
    except ValueError:
        x = None
    if x is not None:  # whatever minarray accepts, NumPy reads to the same elements
        a = np.load(io.BytesIO(data))
        assert x.shape == a.shape and x.dtype.name == a.dtype.name.replace(">", "")
        if a.dtype == bool:  # (bytes other than 0 and 1 read as True; copies write 1)
            assert x.tolist() == a.tolist()
        else:
            assert x.tobytes() == np.ascontiguousarray(a).astype(a.dtype.newbyteorder("=")).tobytes()
        assert x.nbytes <= len(data)
    path = fuzz_dir / "f.npy"
    with open(path, "wb") as f:
        f.write(data)
    try:
        m = ma.load(path, mmap_mode="r")
    except ValueError as e:  # refused: what load refused too, or data that cannot be mapped as it lies
        assert x is None or "big-endian" in str(e) or "cannot be mapped" in str(e)
        return
    assert x is not None and m.shape == x.shape
    assert m.tolist() == x.tolist() if x.dtype == ma.bool else m.tobytes() == x.tobytes()
    del m


def test_every_dtype_round_trips_through_a_file(tmp_path: Path) -> None:
    for d in ALL_DTYPES:
        x = ma.asarray(distinct_values((3, 4), d))
        for arr in (x, x.T):
            ma.save(tmp_path / "x.npy", arr)
            for mode in (None, "r", "c"):
                y = ma.load(tmp_path / "x.npy", mmap_mode=mode)
                assert y.dtype == d and y.tobytes() == arr.tobytes() and y.strides == arr.strides
                del y
    assert np_dtype(ma.float32) == np.float32


def test_large_writes_reserve_blocks_and_keep_the_size(tmp_path: Path) -> None:
    """Arrays of 1 MiB and more have their file blocks reserved before the
    write (as NumPy's tofile does); the file's size and bytes are the same."""
    from minarray._native import core

    a = distinct_values((512, 300), ma.float64)  # 1.2 MB
    x = ma.asarray(a)
    ma.save(tmp_path / "ma.npy", x.T)
    np.save(tmp_path / "np.npy", a.T)
    assert (tmp_path / "ma.npy").read_bytes() == (tmp_path / "np.npy").read_bytes()
    with open(tmp_path / "raw.bin", "wb") as f:
        f.write(b"head")
        x.tofile(f)
    assert (tmp_path / "raw.bin").read_bytes() == b"head" + a.tobytes()
    with open(tmp_path / "r.bin", "wb") as f:
        reserved = core.preallocate(f.fileno(), 0, 1 << 20)
        assert isinstance(reserved, bool)
    assert os.path.getsize(tmp_path / "r.bin") == 0  # blocks reserved, size unchanged
    r, w = os.pipe()
    try:
        assert core.preallocate(w, 0, 1 << 20) is False  # a pipe: nothing to reserve
    finally:
        os.close(r)
        os.close(w)
