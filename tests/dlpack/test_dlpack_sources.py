"""The other ways in and out: ma.from_numpy (no capsule), ma.asdlpack (any
buffer-like object gets __dlpack__), ma.dlpack.from_pointer (raw memory) and
ma.dlpack.describe (reading an export without consuming it)."""

from __future__ import annotations

import array
import ctypes
import gc
import mmap
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp
from numpy_oracle import DLPACK_VERSIONED, NUMPY_CAPSULE_NAME, dlpack_strides, numpy_capsule

import minarray as ma
from minarray.dlpack import (
    DLDataType,
    DLDataTypeCode,
    DLDevice,
    DLDeviceType,
    DLPackFlags,
    DLPackObject,
    describe,
    from_pointer,
)

NP_DTYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
             "float16", "float32", "float64", "complex64", "complex128"]


def ptr(x: np.ndarray) -> int:
    return int(x.__array_interface__["data"][0])


# ---- from_numpy -----------------------------------------------------------------

@pytest.mark.parametrize("dtype", NP_DTYPES)
def test_from_numpy_zero_copy(dtype: str) -> None:
    x = (np.arange(12) % 5).astype(dtype).reshape(3, 4)
    a = ma.from_numpy(x)
    assert a.dtype == ma._dtypes.as_dtype(dtype) and a.shape == (3, 4) and a.strides == x.strides
    assert a.data_ptr == ptr(x) and a.base is x
    np.testing.assert_array_equal(np.asarray(a), x)


def test_from_numpy_shares_and_keeps_alive() -> None:
    x = np.arange(5.0)
    a = ma.from_numpy(x)
    a[1] = 10
    assert x[1] == 10
    del x
    gc.collect()
    assert a.tolist() == [0, 10, 2, 3, 4]


def test_from_numpy_layouts() -> None:
    base = np.arange(120.0).reshape(4, 5, 6)
    for v in (base[::-1, :, ::-2], base.T, base[1:3, 2:, 5:6], base[2, 3, 4, ...], base[:, 0:0],
              np.broadcast_to(base[:1], (3, 5, 6)), base[None, :, None]):
        a = ma.from_numpy(v)
        assert a.shape == v.shape and a.strides == v.strides
        np.testing.assert_array_equal(np.asarray(a), v)


def test_from_numpy_read_only() -> None:
    x = np.arange(3.0)
    x.flags.writeable = False
    a = ma.from_numpy(x)
    assert not a.flags.writeable
    with pytest.raises(ValueError, match="read-only"):
        a[0] = 1
    b = ma.from_numpy(x, copy=True)
    assert b.flags.writeable and b.data_ptr != ptr(x) and b.base is None


def test_from_numpy_rejections_and_copies() -> None:
    rec = np.zeros(4, dtype=[("a", "i1"), ("b", "f8")])
    odd = rec["b"]  # strides of 9 bytes: not whole float64 elements
    with pytest.raises(BufferError, match="multiples of the itemsize"):
        ma.from_numpy(odd)
    with pytest.raises(BufferError, match="multiples of the itemsize"):
        ma.from_numpy(odd, copy=False)
    c = ma.from_numpy(odd, copy=True)
    assert c.shape == (4,) and c.tolist() == [0.0] * 4

    big = np.arange(3, dtype=">i4")
    with pytest.raises(TypeError, match="byte order"):
        ma.from_numpy(big)
    converted = ma.from_numpy(big, copy=True)
    assert converted.dtype is ma.int32 and converted.tolist() == [0, 1, 2]

    for bad in (np.array(["a"]), np.arange(3).astype("datetime64[s]"), np.array([object()]),
                np.zeros(2, dtype=np.longdouble)):
        with pytest.raises(TypeError):
            ma.from_numpy(bad)

    raw = np.zeros(17, dtype=np.uint8)
    misaligned = raw[1:].view(np.float64)
    with pytest.raises(BufferError, match="aligned"):
        ma.from_numpy(misaligned)
    assert ma.from_numpy(misaligned, copy=True).tolist() == [0.0, 0.0]

    with pytest.raises(TypeError, match="masked"):
        ma.from_numpy(np.ma.masked_array([1, 2], mask=[0, 1]))


def test_from_numpy_subclass_and_bfloat16() -> None:
    m = np.arange(4.0).reshape(2, 2).view(_Sub)  # a subclass: the general route
    a = ma.from_numpy(m)
    assert a.shape == (2, 2) and a.data_ptr == ptr(np.asarray(m))
    ml_dtypes = pytest.importorskip("ml_dtypes")
    bf = np.array([1.0, 2.5, -3.0], dtype=ml_dtypes.bfloat16)
    b = ma.from_numpy(bf)
    assert b.dtype is ma.bfloat16 and b.tolist() == [1.0, 2.5, -3.0] and b.data_ptr == ptr(bf)


class _Sub(np.ndarray):
    pass


@settings(max_examples=60, deadline=None)
@given(hnp.arrays(st.sampled_from([np.int16, np.float32, np.complex128, np.bool_]),
                  hnp.array_shapes(min_dims=0, max_dims=4, min_side=0, max_side=5)),
       st.data())
def test_from_numpy_matches_numpy_on_random_views(x: np.ndarray, data: st.DataObject) -> None:
    key = data.draw(hnp.basic_indices(x.shape, allow_newaxis=True)) if x.ndim else ()
    v = x[key]
    if not isinstance(v, np.ndarray):
        v = np.asarray(v)
    a = ma.from_numpy(v)
    assert a.shape == v.shape and a.strides == v.strides
    np.testing.assert_array_equal(np.asarray(a), v)
    b = ma.from_dlpack(v)  # and the capsule route agrees
    assert b.data_ptr == a.data_ptr and b.strides == dlpack_strides(v)
    del a, b


# ---- asdlpack -----------------------------------------------------------------------

def test_asdlpack_bytes_is_read_only() -> None:
    d = ma.asdlpack(b"Hello!")
    assert isinstance(d, DLPackObject) and d.__dlpack_device__() == (DLDeviceType.CPU, 0)
    n = np.from_dlpack(d)
    assert n.tolist() == [72, 101, 108, 108, 111, 33] and not n.flags.writeable
    with pytest.raises(BufferError, match="read-only"):
        d.__dlpack__(copy=False)  # a legacy capsule cannot say read-only
    legacy = describe(d.__dlpack__())  # so with copy=None it is a copy
    assert legacy.capsule_name == "dltensor" and legacy.tensor is not None
    info = describe(d.__dlpack__(max_version=(1, 0)))
    assert info.tensor is not None and info.tensor.flags == DLPackFlags.READ_ONLY


def test_asdlpack_writable_buffers_share_memory() -> None:
    ba = bytearray(b"abc")
    n = np.from_dlpack(ma.asdlpack(ba))
    if DLPACK_VERSIONED:
        n[0] = ord("z")
    else:  # NumPy 2.0 imports every capsule read-only: write through minarray's import
        assert not n.flags.writeable
        ma.from_dlpack(ma.asdlpack(ba))[0] = ord("z")
    assert ba == bytearray(b"zbc") and n[0] == ord("z")
    arr = array.array("d", [1.0, 2.0, 3.0])
    t = ma.from_dlpack(ma.asdlpack(arr))
    assert t.dtype is ma.float64 and t.tolist() == [1.0, 2.0, 3.0]
    t[2] = 7
    assert arr[2] == 7
    mv = memoryview(bytearray(16)).cast("i")
    assert ma.from_dlpack(ma.asdlpack(mv)).dtype is ma.int32
    mm = mmap.mmap(-1, 8)
    v = ma.from_dlpack(ma.asdlpack(mm))
    v[0] = 5
    assert mm[0] == 5
    del v, t, n
    gc.collect()
    mm.close()


def test_asdlpack_keeps_source_alive_and_reexports() -> None:
    d = ma.asdlpack(bytearray(b"xyz"))
    gc.collect()
    first = np.from_dlpack(d)
    second = ma.from_dlpack(d)
    assert first.tolist() == [120, 121, 122] and second.tolist() == [120, 121, 122]
    assert describe(d).tensor is not None


def test_asdlpack_of_arrays_and_producers() -> None:
    x = np.arange(6.0).reshape(2, 3)[:, ::2]
    for d in (ma.asdlpack(x), ma.asdlpack(ma.from_numpy(x)), ma.asdlpack(_InterfaceOnly(x)),
              ma.asdlpack(_DLPackOnly(x)), ma.asdlpack(numpy_capsule(x))):
        n = np.from_dlpack(d)
        assert ptr(n) == ptr(x) and n.strides == x.strides
        np.testing.assert_array_equal(n, x)
    ro = np.arange(3)
    ro.flags.writeable = False
    assert not np.from_dlpack(ma.asdlpack(ro)).flags.writeable


class _InterfaceOnly:
    def __init__(self, x: np.ndarray) -> None:
        self.x = x
        self.__array_interface__ = x.__array_interface__


class _DLPackOnly:
    def __init__(self, x: np.ndarray) -> None:
        self.x = x

    def __dlpack__(self, **kw: Any) -> Any:
        return self.x.__dlpack__(**kw)

    def __dlpack_device__(self) -> Any:
        return self.x.__dlpack_device__()


def test_asdlpack_torch_if_installed() -> None:
    torch = pytest.importorskip("torch")
    t = torch.from_dlpack(ma.asdlpack(b"Hello!"))
    assert t.tolist() == [72, 101, 108, 108, 111, 33]
    s = torch.arange(4.0)
    n = np.from_dlpack(ma.asdlpack(s))
    assert ptr(n) == s.data_ptr()


class _FakeCuda:
    """A __cuda_array_interface__ v3 object; its pointer is never read."""

    def __init__(self, strides: Any = None) -> None:
        self.__cuda_array_interface__ = {
            "shape": (2, 3), "typestr": "<f4", "data": (0xDEAD000, False), "version": 3,
            "strides": strides, "stream": 1,
        }


def test_asdlpack_cuda_array_interface_passes_pointer_through() -> None:
    d = ma.asdlpack(_FakeCuda())
    assert d.__dlpack_device__() == (DLDeviceType.CUDA, 0)
    info = describe(d.__dlpack__(max_version=(1, 0), stream=1))
    assert info.tensor is not None
    t = info.tensor.dl_tensor
    assert t.data == 0xDEAD000 and t.device == DLDevice(DLDeviceType.CUDA, 0)
    assert t.shape == (2, 3) and t.strides == (3, 1) and t.dtype == DLDataType(DLDataTypeCode.FLOAT, 32)
    g = ma.from_dlpack(d)  # a device array: carried, never read
    assert g.device == "cuda:0" and g.data_ptr == 0xDEAD000 and g.shape == (2, 3)
    with pytest.raises(RuntimeError, match="cuda:0"):
        g.tolist()
    with pytest.raises(BufferError, match="CUDA"):
        d.__dlpack__(dl_device=(1, 0))
    with pytest.raises(BufferError, match="copy"):
        d.__dlpack__(max_version=(1, 0), copy=True)
    s = describe(ma.asdlpack(_FakeCuda(strides=(4, 8))).__dlpack__(max_version=(1, 0))).tensor
    assert s is not None and s.dl_tensor.strides == (1, 2)


def test_asdlpack_rejects_what_it_cannot_describe() -> None:
    with pytest.raises(TypeError, match="asdlpack"):
        ma.asdlpack(42)
    with pytest.raises(TypeError, match="asdlpack"):
        ma.asdlpack([1, 2, 3])
    with pytest.raises(TypeError, match="format"):
        ma.asdlpack(array.array("u", "ab"))


# ---- from_pointer ------------------------------------------------------------------------

def test_from_pointer_ctypes_keeps_owner_alive() -> None:
    buf = (ctypes.c_double * 6)(*range(6))
    a = from_pointer(buf, (2, 3), ma.float64)
    assert a.tolist() == [[0, 1, 2], [3, 4, 5]]
    del buf
    gc.collect()
    a[0, 0] = 9  # the ctypes array is still alive through `a`
    assert a[0, 0].item() == 9


def test_from_pointer_int_address_with_owner_and_strides() -> None:
    x = np.arange(12, dtype=np.int32)
    a = from_pointer(ptr(x), (3, 2), "int32", strides=(4, 2), owner=x, readonly=True)
    np.testing.assert_array_equal(np.asarray(a), x.reshape(3, 4)[:, ::2])
    assert not a.flags.writeable and a.base is x


def test_from_pointer_cffi_and_void_p() -> None:
    from minarray._native import ffi

    mem = ffi.new("float[4]", [1, 2, 3, 4])
    assert from_pointer(mem, 4, ma.float32).tolist() == [1, 2, 3, 4]
    x = np.arange(3.0)
    assert from_pointer(ctypes.c_void_p(ptr(x)), (3,), ma.float64, owner=x).tolist() == [0, 1, 2]


def test_from_pointer_errors() -> None:
    with pytest.raises(ValueError, match="NULL"):
        from_pointer(0, (3,), ma.float64)
    assert from_pointer(0, (0,), ma.float64).shape == (0,)
    with pytest.raises(BufferError, match="device type 99"):
        from_pointer(0x1000, (3,), ma.float64, device=(99, 0))
    with pytest.raises(BufferError, match="aligned"):
        from_pointer(0x1001, (3,), ma.float64)
    with pytest.raises(ValueError, match="shape"):
        from_pointer(0x1000, (-1,), ma.float64)
    with pytest.raises(ValueError, match="strides"):
        from_pointer(0x1000, (3,), ma.float64, strides=(1, 1))
    with pytest.raises(TypeError, match="address"):
        from_pointer("0x1000", (3,), ma.float64)


# ---- describe and the struct mirrors ---------------------------------------------------

def test_describe_does_not_consume() -> None:
    x = np.arange(4.0)
    cap = numpy_capsule(x)
    info = describe(cap)
    assert info.capsule_name == NUMPY_CAPSULE_NAME and not info.consumed
    assert info.tensor is not None and info.tensor.dl_tensor.data == ptr(x)
    a = ma.from_dlpack(cap)  # still consumable
    used = describe(cap)
    assert used.consumed and used.tensor is None and "consumed" in str(used)
    del a


def test_describe_text_names_every_field() -> None:
    text = str(describe(ma.arange(6, dtype=ma.int16).reshape(2, 3)))
    for field in ("capsule", "version", "flags", "data", "device", "ndim", "dtype", "shape", "strides",
                  "byte_offset", "manager_ctx", "deleter"):
        assert field in text
    assert "code=0 (INT) bits=16 lanes=1" in text and "(2, 3)" in text


_OTHER_CAPSULE_NAME = b"minarray.array"  # a capsule keeps its name's address: alive as long as the process


def test_describe_errors() -> None:
    with pytest.raises(TypeError, match="describe"):
        describe(3)
    with pytest.raises(TypeError, match="describe"):
        describe(ma.arange(2)._h)  # an NDArray's handle is no capsule
    new_capsule = ctypes.PYFUNCTYPE(ctypes.py_object, ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p)(
        ("PyCapsule_New", ctypes.pythonapi))
    x = ma.arange(2.0)
    with pytest.raises(BufferError, match="not a DLPack"):
        describe(new_capsule(x.data_ptr, _OTHER_CAPSULE_NAME, None))  # a capsule of another kind


def test_dldatatype_mirror() -> None:
    assert DLDataType.from_dtype(ma.bool) == DLDataType(DLDataTypeCode.BOOL, 8, 1)
    assert DLDataType.from_dtype(np.complex64) == DLDataType(DLDataTypeCode.COMPLEX, 64, 1)
    assert DLDataType(DLDataTypeCode.BFLOAT, 16).to_dtype() is ma.bfloat16
    assert DLDataType(DLDataTypeCode.FLOAT8_E4M3FN, 8).to_dtype() is ma.float8_e4m3fn
    assert DLDataType(DLDataTypeCode.INT, 4).to_dtype() is ma.int4
    with pytest.raises(TypeError, match="no minarray dtype"):
        DLDataType(DLDataTypeCode.FLOAT8_E4M3FN, 16).to_dtype()
    with pytest.raises(TypeError, match="no minarray dtype"):
        DLDataType(DLDataTypeCode.FLOAT4_E2M1FN, 4, 2).to_dtype()
    assert str(DLDevice(DLDeviceType.CUDA, 1)) == "CUDA:1"
    assert str(ma.dlpack.DLPackVersion(1, 3)) == "1.3"


def test_numpy_asarray_of_bfloat16_shares_memory() -> None:
    ml_dtypes = pytest.importorskip("ml_dtypes")
    a = ma.asarray([1.0, 2.5, -3.0]).astype(ma.bfloat16)
    n = np.asarray(a)
    assert n.dtype == ml_dtypes.bfloat16 and ptr(n) == a.data_ptr
    assert n.astype(np.float32).tolist() == [1.0, 2.5, -3.0]
    r = np.asarray(a[::-1])
    assert r.astype(np.float32).tolist() == [-3.0, 2.5, 1.0]
    c = np.array(a)
    assert ptr(c) != a.data_ptr
