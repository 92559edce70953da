"""The rows of the seed documents that minarray.dlpack covers beyond the
exchange itself: NuMojo's struct mirrors and their constants, to_dlpack,
from_dlpack(dtype=), pydlpack's array interface v2, copy=True of misaligned
data, and JAX's legacy-only imports of read-only arrays."""

from __future__ import annotations

import ctypes
import gc
import importlib.util
from typing import Any

import numpy as np
import pytest
from dlpack_producer import Producer

import minarray as ma
from minarray.dlpack import (
    DLDataType,
    DLDataTypeCode,
    DLDevice,
    DLDeviceType,
    DLManagedTensorDeleter,
    DLManagedTensorVersionedDeleter,
    DLPackFlags,
    DLPackMetadata,
    DLPackVersion,
    DLTensor,
    describe,
    to_dlpack,
)

needs_jax = pytest.mark.skipif(importlib.util.find_spec("jax") is None, reason="JAX is not installed")


# ---- NuMojo's struct mirrors --------------------------------------------------------

def test_version_constants() -> None:
    assert DLPackVersion.CURRENT_MAJOR == 1 and DLPackVersion.CURRENT_MINOR == 3
    assert DLPackVersion.LATEST == DLPackVersion(1, 3) and str(DLPackVersion.LATEST) == "1.3"
    m = describe(ma.arange(3).__dlpack__(max_version=(1, 0))).tensor
    assert m is not None and m.version == DLPackVersion.LATEST


def test_device_and_dtype_constants() -> None:
    assert DLDevice.CPU == 1 and DLDevice.CUDA == 2 and DLDevice.OPENCL == 4 and DLDevice.VULKAN == 7
    assert DLDevice.METAL == 8 and DLDevice.VPI == 9 and DLDevice.ROCM == 10 and DLDevice.TRN == 18
    assert all(getattr(DLDevice, t.name) is t for t in DLDeviceType)
    assert str(DLDevice(DLDevice.CUDA, 1)) == "CUDA:1"
    assert (DLDataType.INT, DLDataType.UINT, DLDataType.FLOAT, DLDataType.BFLOAT, DLDataType.COMPLEX,
            DLDataType.BOOL) == (0, 1, 2, 4, 5, 6)
    assert DLDataType(DLDataType.FLOAT, 32) == DLDataType.from_dtype(ma.float32)
    assert DLDataType(DLDataType.FLOAT, 32).to_dtype() is ma.float32
    assert DLDataType.OPAQUE_HANDLE is DLDataTypeCode.OPAQUE_HANDLE


def test_dltensor_byte_offset_defaults_to_zero() -> None:
    t = DLTensor(0x1000, DLDevice(DLDevice.CPU, 0), 1, DLDataType(DLDataType.FLOAT, 32), (3,), (1,))
    assert t.byte_offset == 0


def test_metadata_and_deleter_types() -> None:
    a = ma.arange(12.0)
    v = a.reshape(3, 4)[:, ::2]
    m = DLPackMetadata.of(v)
    assert (m.shape, m.strides, m.ndim) == ((3, 2), (4, 2), 2) and m.data_owner is a
    n = np.arange(3.0)
    assert DLPackMetadata.of(ma.from_numpy(n)[1:]).data_owner is n
    # a ctypes deleter a Python producer can store in DLManagedTensor.deleter
    calls: list[int] = []
    d = DLManagedTensorDeleter(calls.append)
    d(1234)
    assert calls == [1234] and DLManagedTensorVersionedDeleter is not None


def test_to_dlpack() -> None:
    a = ma.arange(6.0).reshape(2, 3)
    cap = to_dlpack(a)
    assert describe(cap).capsule_name == "dltensor_versioned"
    b = ma.from_dlpack(cap)
    assert b.data_ptr == a.data_ptr and b.flags.writeable
    legacy = to_dlpack(a, versioned=False)
    assert describe(legacy).capsule_name == "dltensor"
    np.testing.assert_array_equal(np.from_dlpack(ma.asdlpack(legacy)), np.asarray(a))
    # anything asdlpack takes
    assert describe(to_dlpack(bytearray(b"ab"))).tensor is not None


def test_from_dlpack_checks_the_expected_dtype() -> None:
    x = np.arange(4, dtype=np.int32)
    assert ma.from_dlpack(x, dtype=ma.int32).dtype is ma.int32
    assert ma.from_dlpack(x, dtype="int32").dtype is ma.int32
    p = Producer(x)
    with pytest.raises(TypeError, match=r"expected float32.*exported int32"):
        ma.from_dlpack(p.capsule(), dtype=ma.float32)
    gc.collect()
    assert p.deleted == 1  # the refused import released the producer's tensor


# ---- pydlpack: array interface v2 ---------------------------------------------------

class _StructOnly:
    """An object with only ``__array_struct__`` (array interface version 2)."""

    def __init__(self, arr: Any) -> None:
        self.arr = arr

    @property
    def __array_struct__(self) -> Any:
        return self.arr.__array_struct__


@pytest.mark.parametrize("make", [
    lambda: np.arange(12.0).reshape(3, 4),
    lambda: np.arange(12, dtype=np.int16).reshape(3, 4)[::-1, 1::2],
    lambda: np.array(5, dtype=np.complex64),
    lambda: np.zeros((0, 3), dtype=bool),
], ids=["float64", "strided int16", "0-d complex", "empty bool"])
def test_asdlpack_array_struct(make: Any) -> None:
    arr = make()
    d = ma.asdlpack(_StructOnly(arr))
    got = np.from_dlpack(d)
    np.testing.assert_array_equal(got, arr)
    assert got.dtype == arr.dtype and got.strides == arr.strides
    if arr.size:
        assert got.ctypes.data == arr.ctypes.data  # the same memory


def test_asdlpack_array_struct_read_only_and_errors() -> None:
    arr = np.arange(3.0)
    arr.flags.writeable = False
    m = describe(ma.asdlpack(_StructOnly(arr)).__dlpack__(max_version=(1, 0))).tensor
    assert m is not None and m.flags == DLPackFlags.READ_ONLY
    swapped = np.arange(3, dtype=">i4")
    with pytest.raises(TypeError, match="byte-swapped"):
        ma.asdlpack(_StructOnly(swapped))

    class Bad:
        __array_struct__ = 3

    with pytest.raises(TypeError, match="PyCapsule"):
        ma.asdlpack(Bad())


# ---- copy=True of misaligned data ------------------------------------------------------

@pytest.mark.parametrize("versioned", [True, False])
def test_copy_true_copies_misaligned_data(versioned: bool) -> None:
    raw = np.zeros(64, dtype=np.uint8)
    values = np.arange(6, dtype=np.float64).reshape(2, 3)
    ctypes.memmove(raw.ctypes.data + 1, values.ctypes.data, values.nbytes)
    fields = {"data": raw.ctypes.data + 1, "shape": (3, 2), "strides": (1, 3)}
    p = Producer(values, versioned=versioned, **fields)
    with pytest.raises(BufferError, match="aligned"):
        ma.from_dlpack(p.capsule())
    q = Producer(values, versioned=versioned, **fields)
    c = ma.from_dlpack(q.capsule(), copy=True)
    np.testing.assert_array_equal(np.asarray(c), values.T)
    assert c.flags.c_contiguous and c.flags.writeable and c.data_ptr % 8 == 0
    gc.collect()
    assert q.deleted == 1  # the copy holds nothing of the producer's


# ---- JAX: legacy capsules of read-only arrays ------------------------------------------

@needs_jax
def test_jax_round_trip_of_a_read_only_import() -> None:
    import jax
    import jax.numpy as jnp

    # on the CPU (JAX would put it on a GPU if it had one: a device array,
    # which minarray cannot copy for JAX's legacy request)
    a = ma.from_dlpack(jax.device_put(jnp.arange(3.0), jax.devices("cpu")[0]))
    assert not a.flags.writeable  # JAX exports read-only
    back = jnp.from_dlpack(a)  # JAX asks for a legacy capsule: it gets a copy
    np.testing.assert_array_equal(np.asarray(back), [0.0, 1.0, 2.0])
    hello = jnp.from_dlpack(ma.asdlpack(b"Hello!"))
    assert bytes(np.asarray(hello)) == b"Hello!"
    with pytest.raises(BufferError, match="copy=False"):
        a.__dlpack__(copy=False)
