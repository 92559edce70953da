"""Device arrays: tensors on a device the CPU cannot address (CUDA, ROCm...)
that minarray carries, views and re-exports, but never reads.

No GPU is needed: DeviceProducer (tests/dlpack_producer.py) reports
kDLCUDA and hands out tensors over host pages nobody may read (PROT_NONE),
so any read by minarray would kill the test process.  The checks on a real
GPU are `python -m minarray.testing.dlpack --cuda`.
"""

from __future__ import annotations

import gc
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from dlpack_producer import DeviceProducer, Producer, no_access_memory

import minarray as ma
from minarray._native import ffi
from minarray.dlpack import DLDeviceType, DLPackFlags, describe, from_pointer
from minarray.testing import dlpack_cuda


def _values(shape: tuple[int, ...] = (3, 4)) -> np.ndarray:
    return np.arange(float(np.prod(shape)), dtype=np.float32).reshape(shape)


def _live_foreign() -> int:
    gc.collect()
    return ma.allocator_stats()["live_foreign"]


# ---- import and metadata ----------------------------------------------------------

def test_import_keeps_the_device_and_the_pointer() -> None:
    p = DeviceProducer(_values())
    d = ma.from_dlpack(p)
    assert d.device == "cuda:0" and d.__dlpack_device__() == (DLDeviceType.CUDA, 0)
    assert d.data_ptr == p.memory and d.shape == (3, 4) and d.dtype is ma.float32
    assert d.base is p and d.flags.writeable and d.flags.c_contiguous
    assert repr(d) == str(d) == "NDArray(<on cuda:0>, shape=(3, 4), dtype=float32)"
    assert p.calls == [{"stream": None, "max_version": (1, 3), "dl_device": None, "copy": None}]


def test_metadata_operations_are_views() -> None:
    p = DeviceProducer(_values((2, 3, 4)))
    d = ma.from_dlpack(p)
    item = 4
    s = d[1, :, ::2]
    assert s.device == "cuda:0" and s.shape == (3, 2) and s.strides == (16, 8)
    assert s.data_ptr == p.memory + 12 * item
    assert d.T.shape == (4, 3, 2) and d.T.data_ptr == p.memory
    assert ma.permute_dims(d, (2, 0, 1)).strides == (4, 48, 16)
    assert d.reshape(6, 4).shape == (6, 4) and d.reshape(-1).shape == (24,)
    assert d[::-1].data_ptr == p.memory + 12 * item
    assert d[None, ..., 0].shape == (1, 2, 3)
    assert ma.squeeze(d[:1]).shape == (3, 4) and d.mT.shape == (2, 4, 3)
    assert d.swapaxes(0, 2).shape == (4, 3, 2)
    info = describe(s)
    assert info.tensor is not None and info.tensor.dl_tensor.data == s.data_ptr
    assert info.tensor.dl_tensor.device.device_type == DLDeviceType.CUDA
    assert d[0].base is d and s.base is d  # NumPy's base rule, as for CPU views


READS: dict[str, Callable[[ma.NDArray], Any]] = {
    "add": lambda d: d + 1,
    "negative": lambda d: -d,
    "sum": lambda d: ma.sum(d),
    "mean method": lambda d: d.mean(),
    "copy": lambda d: d.copy(),
    "copy K": lambda d: d.T.copy("K"),
    "astype": lambda d: d.astype(ma.float64),
    "tolist": lambda d: d.tolist(),
    "item": lambda d: d[0, 0].item(),
    "float": lambda d: float(d[0, 0]),
    "bool": lambda d: bool(d[0, 0]),
    "np.asarray": lambda d: np.asarray(d),
    "array interface": lambda d: d.__array_interface__,
    "setitem": lambda d: d.__setitem__((0, 0), 1.0),
    "fill": lambda d: d.fill(0),
    "advanced index": lambda d: d[ma.asarray([0, 1])],
    "mask": lambda d: d[ma.ones((3, 4), dtype=ma.bool)],
    "matmul": lambda d: d @ d.T,
    "sort": lambda d: ma.sort(d),
    "reshape of a strided view": lambda d: d.T.reshape(12),
    "flatten": lambda d: d.flatten(),
    "copyto": lambda d: ma.asarray(np.zeros((3, 4), np.float32)).__setitem__(slice(None), d),
    "memoryview": lambda d: memoryview(d),  # type: ignore[arg-type]
    "np.from_dlpack": lambda d: np.from_dlpack(d),
}


@pytest.mark.parametrize("op", list(READS), ids=list(READS))
def test_reading_memory_raises_naming_the_device(op: str) -> None:
    d = ma.from_dlpack(DeviceProducer(_values()))
    errors = (RuntimeError, BufferError, TypeError, ValueError)
    with pytest.raises(errors, match=r"cuda|CUDA|device|bytes-like") as info:
        READS[op](d)
    if op == "memoryview":  # the buffer protocol's error type, the guard's words
        assert info.type is BufferError and "lives on cuda:0" in str(info.value)
    elif op != "np.from_dlpack":  # NumPy words its own
        assert info.type is RuntimeError and "lives on cuda:0" in str(info.value)
        assert "to_device('cpu')" in str(info.value)


# ---- re-export through the producer -------------------------------------------------

def test_reexport_asks_the_producer_with_the_consumers_stream() -> None:
    p = DeviceProducer(_values())
    d = ma.from_dlpack(p)
    v = d[1:, ::-2]
    cap = v.__dlpack__(stream=7, max_version=(1, 3))
    assert p.calls[-1] == {"stream": 7, "max_version": (1, 3), "dl_device": None, "copy": None}
    info = describe(cap)
    assert info.capsule_name == "dltensor_versioned" and info.tensor is not None
    t = info.tensor.dl_tensor
    assert t.data == v.data_ptr and t.shape == (2, 2) and t.strides == (4, -2) and t.byte_offset == 0
    assert t.device.device_type == DLDeviceType.CUDA and t.device.device_id == 0
    # the capsule holds the producer's fresh tensor; unconsumed, it is freed
    assert p.deleted == [0, 0]
    del cap, info
    gc.collect()
    assert p.deleted == [0, 1]


@pytest.mark.parametrize("first", ["import", "reexport"])
def test_every_producer_tensor_deleted_once_whichever_dies_first(first: str) -> None:
    live = _live_foreign()
    p = DeviceProducer(_values())
    d = ma.from_dlpack(p)
    # minarray consumes its own re-export (through __dlpack__: the exchange
    # API would take the NoSync route, without asking the producer)
    r = ma.from_dlpack(d[::2].__dlpack__(stream=1, max_version=(1, 3)))
    assert r.device == "cuda:0" and r.data_ptr == p.memory and r.shape == (2, 4)
    assert p.deleted == [0, 0] and r.base is not None
    if first == "import":
        del d
        gc.collect()
        assert p.deleted == [1, 0]  # r holds the fresh tensor, not the first
        del r
    else:
        del r
        gc.collect()
        assert p.deleted == [0, 1]
        del d
    gc.collect()
    assert p.deleted == [1, 1]
    assert _live_foreign() == live


def test_legacy_consumer_and_producer() -> None:
    # a legacy-only producer: imported read-only; a versioned re-export says
    # READ_ONLY, a legacy one is the producer's call (below)
    p = DeviceProducer(_values(), legacy=True)
    d = ma.from_dlpack(p)
    assert not d.flags.writeable
    m = describe(d.__dlpack__(max_version=(1, 0))).tensor
    assert m is not None and m.flags == DLPackFlags.READ_ONLY
    assert p.calls[-1]["max_version"] == (1, 3)
    # a writable device array gives legacy consumers a legacy capsule
    w = ma.from_dlpack(DeviceProducer(_values()))
    assert describe(w.__dlpack__(stream=1)).capsule_name == "dltensor"


# A read-only device array asked for a legacy capsule: the request goes to
# the producer, as JAX makes it (JAX exports its GPU arrays legacy, and asks
# for nothing else).
READ_ONLY_PRODUCERS: dict[str, dict[str, Any]] = {
    "legacy-only producer": {"legacy": True},
    "read-only versioned producer": {"flags": int(DLPackFlags.READ_ONLY)},
}


@pytest.mark.parametrize("kind", list(READ_ONLY_PRODUCERS), ids=list(READ_ONLY_PRODUCERS))
@pytest.mark.parametrize("max_version", [None, (0, 8)], ids=["None", "0.8"])
def test_read_only_device_array_legacy_export_goes_through_the_producer(
        kind: str, max_version: tuple[int, int] | None) -> None:
    p = DeviceProducer(_values(), **READ_ONLY_PRODUCERS[kind])
    d = ma.from_dlpack(p)
    assert not d.flags.writeable
    v = d[1:, ::2]
    cap = v.__dlpack__(stream=5, max_version=max_version)
    # the consumer's request, as it made it
    assert p.calls[-1] == {"stream": 5, "max_version": max_version, "dl_device": None, "copy": None}
    info = describe(cap)
    assert info.capsule_name == "dltensor" and info.tensor is not None
    t = info.tensor.dl_tensor
    assert t.data == v.data_ptr == p.memory + 4 * 4 and t.shape == (2, 2) and t.strides == (4, 2)
    assert t.device.device_type == DLDeviceType.CUDA
    # the capsule holds the producer's fresh tensor, over the same memory
    fresh = p.exported[-1]
    assert int(ffi.cast("uintptr_t", fresh.struct.dl_tensor.data)) == p.memory
    r = ma.from_dlpack(cap)
    assert r.data_ptr == v.data_ptr and r.device == "cuda:0" and not r.flags.writeable
    del cap, info
    gc.collect()
    assert p.deleted == [0, 0]  # the imported tensor, and the fresh one r holds
    del r
    gc.collect()
    assert fresh.deleted == 1
    # a versioned request still says READ_ONLY
    m = describe(v.__dlpack__(max_version=(1, 3))).tensor
    assert m is not None and m.flags == DLPackFlags.READ_ONLY


def test_read_only_device_array_legacy_export_refused_by_the_producer() -> None:
    p = DeviceProducer(_values(), flags=int(DLPackFlags.READ_ONLY), refuse_legacy=True)
    d = ma.from_dlpack(p)
    with pytest.raises(BufferError, match=r"read-only device array as a legacy DLPack capsule: its producer "
                                          r"\(DeviceProducer\) refused: this producer exports versioned") as info:
        d.__dlpack__(stream=1)
    assert isinstance(info.value.__cause__, BufferError)
    assert p.calls[-1] == {"stream": 1, "max_version": None, "dl_device": None, "copy": None}
    # a versioned request is not refused, and says READ_ONLY
    m = describe(d.__dlpack__(max_version=(1, 0))).tensor
    assert m is not None and m.flags == DLPackFlags.READ_ONLY
    del d, m, info
    gc.collect()
    assert all(n == 1 for n in p.deleted)


def test_read_only_device_array_legacy_export_answered_read_only_versioned() -> None:
    # a producer that answers a legacy request with a READ_ONLY versioned
    # capsule does not let the memory go out writable: refused, not dropped
    p = DeviceProducer(_values(), flags=int(DLPackFlags.READ_ONLY), versioned=True)
    d = ma.from_dlpack(p)
    with pytest.raises(BufferError, match=r"its producer \(DeviceProducer\) exports the memory read-only"):
        d.__dlpack__()
    del d
    gc.collect()
    assert all(n == 1 for n in p.deleted)


def test_read_only_device_array_without_a_producer_refuses_legacy() -> None:
    values = _values()
    cap = Producer(values, versioned=False, device=(2, 0), data=no_access_memory(values.nbytes)).capsule()
    d = ma.from_dlpack(cap)  # a legacy capsule imports read-only
    assert not d.flags.writeable
    with pytest.raises(BufferError, match="no producer to ask"):
        d.__dlpack__()
    m = describe(d.__dlpack__(max_version=(1, 0))).tensor
    assert m is not None and m.flags == DLPackFlags.READ_ONLY


def test_read_only_producer_stays_read_only() -> None:
    d = ma.from_dlpack(DeviceProducer(_values(), flags=int(DLPackFlags.READ_ONLY)))
    assert not d.flags.writeable
    m = describe(d.T.__dlpack__(max_version=(1, 3))).tensor
    assert m is not None and DLPackFlags.READ_ONLY in m.flags


def test_export_arguments() -> None:
    p = DeviceProducer(_values())
    d = ma.from_dlpack(p)
    with pytest.raises(BufferError, match="copy=True"):
        d.__dlpack__(max_version=(1, 0), copy=True)
    with pytest.raises(BufferError, match="copy=False"):
        d.__dlpack__(max_version=(1, 0), dl_device=(1, 0), copy=False)
    with pytest.raises(BufferError, match=r"device \(10, 0\)"):
        d.__dlpack__(max_version=(1, 0), dl_device=(10, 0))
    # dl_device naming its own device is a plain re-export, the request
    # passed on to the producer
    assert describe(d.__dlpack__(max_version=(1, 0), dl_device=(2, 0), copy=False)).tensor is not None
    assert p.calls[-1] == {"stream": None, "max_version": (1, 3), "dl_device": (2, 0), "copy": False}
    # dl_device=(1, 0): a CPU copy, made by the producer, flagged IS_COPIED
    cap = d[1:].__dlpack__(max_version=(1, 0), dl_device=(1, 0))
    m = describe(cap).tensor
    assert m is not None and m.flags == DLPackFlags.IS_COPIED
    assert m.dl_tensor.device.device_type == DLDeviceType.CPU
    np.testing.assert_array_equal(np.asarray(ma.from_dlpack(cap)), p.values[1:])


def test_producer_exporting_other_memory_is_refused() -> None:
    p = DeviceProducer(_values())
    d = ma.from_dlpack(p)
    p.memory = no_access_memory(64)  # the producer moved its data
    with pytest.raises(BufferError, match="other memory"):
        d.__dlpack__(max_version=(1, 0))
    gc.collect()
    assert p.deleted == [0, 1]  # the fresh tensor was given back


def test_exchange_api_exports_device_arrays_without_a_producer_call() -> None:
    p = DeviceProducer(_values())
    d = ma.from_dlpack(p)
    n = len(p.calls)
    # the C exchange API is "NoSync": minarray's own managed tensor over the
    # imported one, and no call to the producer
    r = ma.from_dlpack(d[1:])
    assert r.device == "cuda:0" and r.data_ptr == p.memory + 16 and len(p.calls) == n
    del d
    gc.collect()
    assert p.deleted == [0]
    del r
    gc.collect()
    assert p.deleted == [1]


# ---- to_device ------------------------------------------------------------------------

@pytest.mark.parametrize("key", [(slice(None),), (slice(1, None), slice(None, None, -2)), (1,), (slice(0, 0),)],
                         ids=["all", "strided", "row", "empty"])
def test_to_device_cpu_copies_through_the_producer(key: tuple[Any, ...]) -> None:
    values = _values((3, 4)).T  # a transposed device tensor
    p = DeviceProducer(np.ascontiguousarray(values.T).T)
    d = ma.from_dlpack(p)
    v = d[key]
    c = v.to_device("cpu")
    assert c.device == "cpu" and c.flags.c_contiguous and c.base is None
    np.testing.assert_array_equal(np.asarray(c), p.values[key])
    if v.size:
        assert {"stream": None, "max_version": (1, 3), "dl_device": (1, 0), "copy": True} in p.calls
    assert d.to_device("cuda:0") is d and d.to_device((DLDeviceType.CUDA, 0)) is d
    with pytest.raises(ValueError, match="rocm"):
        d.to_device("rocm:0")
    with pytest.raises(ValueError, match="stream"):
        d.to_device("cpu", stream=1)
    del d, v, c
    gc.collect()
    assert all(n == 1 for n in p.deleted)


# A producer whose CPU copy is not its device tensor's type: (device values,
# device tensor's DLDataType override, the copy's, the message's names).
# Same-width types would pass a width check and be converted value by value
# (float32 4.0 copied as the int32 1082130432 read back as 1082130432.0).
COPY_TYPES: dict[str, tuple[Any, tuple[int, int, int] | None, tuple[int, int, int], str]] = {
    "float32 as int32": (np.array([4.0, 1.5, -2.0], np.float32), None, (0, 32, 1), "int32, expected float32"),
    "int32 as float32": (np.array([1, 2, 3], np.int32), None, (2, 32, 1), "float32, expected int32"),
    "int32 as uint32": (np.array([1, 2, 3], np.int32), None, (1, 32, 1), "uint32, expected int32"),
    "float16 as bfloat16": (np.array([1, 2, 3], np.float16), None, (4, 16, 1), "bfloat16, expected float16"),
    "bfloat16 as float16": (np.array([1, 2, 3], np.uint16), (4, 16, 1), (2, 16, 1), "float16, expected bfloat16"),
    "uint8 as bool": (np.array([0, 1, 1], np.uint8), None, (6, 8, 1), "bool, expected uint8"),
    "complex64 as float64": (np.array([1j, 2, 3], np.complex64), None, (2, 64, 1), "float64, expected complex64"),
    "float32 as two float16 lanes": (np.array([4.0, 1.5], np.float32), None, (2, 16, 2),
                                     r"\(FLOAT, bits=16, lanes=2\), expected float32"),
    "float32 with lanes=2": (np.array([4.0, 1.5], np.float32), None, (2, 32, 2),
                             r"\(FLOAT, bits=32, lanes=2\), expected float32"),
}


@pytest.mark.parametrize("case", list(COPY_TYPES), ids=list(COPY_TYPES))
def test_to_device_refuses_a_cpu_copy_of_another_dtype(case: str) -> None:
    values, device_type, copy_type, names = COPY_TYPES[case]
    fields = {"dtype": device_type} if device_type else {}
    p = DeviceProducer(values, fields=fields, copy_fields={"dtype": copy_type})
    d = ma.from_dlpack(p)
    with pytest.raises(BufferError, match=rf"^the producer's CPU copy has dtype {names} \(its device tensor's\)$"):
        d.to_device("cpu")
    with pytest.raises(BufferError, match="CPU copy has dtype"):  # the consumer's dl_device=(1, 0) too
        d.__dlpack__(max_version=(1, 0), dl_device=(1, 0))
    del d
    gc.collect()
    assert p.copies and all(n == 1 for n in p.deleted)  # the refused copies went back to the producer


def test_to_device_refuses_a_cpu_copy_of_another_shape() -> None:
    p = DeviceProducer(_values((3,)), copy_fields={"ndim": 2, "shape": (1, 3), "strides": (3, 1)})
    with pytest.raises(BufferError, match=r"CPU copy has shape \(1, 3\), expected \(3,\)"):
        ma.from_dlpack(p).to_device("cpu")


def test_to_device_of_a_same_width_view_reinterprets_the_bytes() -> None:
    # d.view(int32) of float32 device memory: the copy's bytes, as int32
    values = np.array([[4.0, 1.5, -2.0], [0.5, 8.0, -0.0]], np.float32)
    p = DeviceProducer(values)
    c = ma.from_dlpack(p).view(ma.int32)[:, ::-2].to_device("cpu")
    assert c.dtype is ma.int32
    np.testing.assert_array_equal(np.asarray(c), values.view(np.int32)[:, ::-2])
    # a view of another width would need the bytes rearranged: refused
    with pytest.raises(BufferError, match="dtype float32, which this float16 view cannot reinterpret"):
        ma.from_dlpack(p).view(ma.float16).to_device("cpu")
    # a bfloat16 device tensor comes back bfloat16, bit for bit
    q = DeviceProducer(np.array([0x4080, 0x3FC0], np.uint16), fields={"dtype": (4, 16, 1)})
    b = ma.from_dlpack(q).to_device("cpu")
    assert b.dtype is ma.bfloat16 and b.tolist() == [4.0, 1.5]


def test_to_device_of_padded_subbyte_elements() -> None:
    # int4 stored one element a byte (IS_SUBBYTE_TYPE_PADDED): 4 bits wide,
    # one byte each, and copied as such
    padded = int(DLPackFlags.IS_SUBBYTE_TYPE_PADDED)
    p = DeviceProducer(np.array([1, -2, 3, 7], np.int8), flags=padded, fields={"dtype": (0, 4, 1)},
                       copy_fields={"flags": padded | int(DLPackFlags.IS_COPIED)})
    d = ma.from_dlpack(p)
    assert d.dtype is ma.int4 and d.device == "cuda:0"
    c = d[::-1].to_device("cpu")
    assert c.dtype is ma.int4 and c.tolist() == [7, 3, -2, 1]


def test_bare_capsule_device_import() -> None:
    # no producer object to ask: re-exports are minarray's own, to_device refuses
    values = _values()
    cap = Producer(values, device=(2, 0), data=no_access_memory(values.nbytes)).capsule()
    d = ma.from_dlpack(cap)
    assert d.device == "cuda:0"
    assert describe(d[1].__dlpack__(stream=5, max_version=(1, 0))).tensor is not None
    with pytest.raises(BufferError, match="no DLPack producer"):
        d.to_device("cpu")


def test_device_none_and_cpu_for_a_device_producer() -> None:
    p = DeviceProducer(_values())
    assert ma.from_dlpack(p).device == "cuda:0"
    c = ma.from_dlpack(p, device="cpu")
    assert c.device == "cpu"
    np.testing.assert_array_equal(np.asarray(c), p.values)
    with pytest.raises(BufferError, match="CUDA:0"):
        ma.from_dlpack(p, copy=True)  # the producer cannot copy on its device, minarray neither


def test_rocm_and_other_devices() -> None:
    for dev, name in (((10, 1), "rocm:1"), ((4, 0), "opencl:0"), ((17, 2), "maia:2")):
        d = ma.from_dlpack(DeviceProducer(_values(), device=dev))
        assert d.device == name and d.__dlpack_device__() == dev
        with pytest.raises(RuntimeError, match=name):
            d.sum()


# ---- from_pointer and asdlpack --------------------------------------------------------

def test_from_pointer_device() -> None:
    class Owner:
        pass

    owner = Owner()
    live = _live_foreign()
    addr = no_access_memory(4096)
    d = from_pointer(addr, (4, 8), ma.float64, device=(DLDeviceType.CUDA, 0), owner=owner)
    assert d.device == "cuda:0" and d.data_ptr == addr and d.base is owner
    assert d[1:3, ::2].data_ptr == addr + 8 * 8
    with pytest.raises(RuntimeError, match="cuda:0"):
        d.tolist()
    with pytest.raises(BufferError, match="no DLPack producer"):
        d.to_device("cpu")
    t = describe(d.T.__dlpack__(stream=3, max_version=(1, 0))).tensor
    assert t is not None and t.dl_tensor.data == addr and t.dl_tensor.strides == (1, 8)
    r = ma.from_dlpack(d)
    assert r.device == "cuda:0" and r.data_ptr == addr
    del d, r, t
    assert _live_foreign() == live


class _Cai:
    """A CUDA array interface v3 object on a (pretend) stream."""

    def __init__(self, stream: Any, ptr: int) -> None:
        self.__cuda_array_interface__ = {"shape": (4,), "typestr": "<f8", "data": (ptr, False), "version": 3,
                                         "strides": None, "stream": stream}


def test_asdlpack_honours_the_cuda_array_interface_stream(monkeypatch: pytest.MonkeyPatch) -> None:
    waits: list[tuple[int, int, int]] = []
    monkeypatch.setattr(ma.dlpack, "cuda_stream_wait", lambda p, c, dev: waits.append((p, c, dev)))
    ptr = no_access_memory(64)
    obj = _Cai(0x5000, ptr)
    d = ma.asdlpack(obj)
    d.__dlpack__(max_version=(1, 0), stream=0x7000)
    d.__dlpack__(max_version=(1, 0))  # None: the legacy default stream, 1
    d.__dlpack__(max_version=(1, 0), stream=-1)  # -1: no synchronisation
    assert waits == [(0x5000, 0x7000, 0), (0x5000, 1, 0)]
    obj.__cuda_array_interface__["stream"] = None  # read afresh at each export
    d.__dlpack__(max_version=(1, 0), stream=2)
    assert len(waits) == 2
    with pytest.raises(ValueError, match="stream=0"):
        ma.asdlpack(_Cai(5, ptr)).__dlpack__(max_version=(1, 0), stream=0)
    with pytest.raises(ValueError, match="forbids"):
        ma.asdlpack(_Cai(0, ptr))
    got = ma.from_dlpack(d)
    assert got.device == "cuda:0" and got.data_ptr == ptr


def test_cuda_stream_wait_without_a_driver_says_so() -> None:
    from minarray import _cuda

    if _cuda.driver() is not None:
        pytest.skip("a CUDA driver is present: the GPU script checks the real thing")
    with pytest.raises(BufferError, match="no CUDA driver"):
        _cuda.stream_wait(5, 7, 0)
    assert _cuda.pointer_device(0x1000) is None


def test_from_pointer_owner_is_not_a_producer() -> None:
    # an owner with __dlpack__ exported nothing to minarray: it is not asked
    owner = np.arange(4.0)
    d = from_pointer(no_access_memory(64), (4,), ma.float64, device=(DLDeviceType.CUDA, 0), owner=owner)
    with pytest.raises(BufferError, match="no DLPack producer"):
        d.to_device("cpu")
    m = describe(d.__dlpack__(max_version=(1, 0))).tensor
    assert m is not None and m.dl_tensor.data == d.data_ptr


def test_c_exchange_api_both_ways_on_a_device() -> None:
    import ctypes

    from minarray._native import ffi

    api = ffi.cast("DLPackExchangeAPI *", ma.dlpack.core.dlpack_capsule_peek(ma.NDArray.__dlpack_c_exchange_api__)[1])

    def fn(field: str, *argtypes: Any) -> Any:
        proto = ctypes.PYFUNCTYPE(ctypes.c_int, *argtypes)
        return proto(int(ffi.cast("uintptr_t", getattr(api, field))))

    to_managed = fn("managed_tensor_from_py_object_no_sync", ctypes.py_object, ctypes.POINTER(ctypes.c_void_p))
    to_object = fn("managed_tensor_to_py_object_no_sync", ctypes.c_void_p, ctypes.POINTER(ctypes.py_object))
    p = DeviceProducer(_values())
    d = ma.from_dlpack(p)[1:]
    m = ctypes.c_void_p()
    assert to_managed(d, ctypes.byref(m)) == 0  # out: a device tensor, no producer call
    mt = ffi.cast("DLManagedTensorVersioned *", m.value)
    assert mt.dl_tensor.device.device_type == 2 and int(ffi.cast("uintptr_t", mt.dl_tensor.data)) == d.data_ptr
    out = ctypes.py_object()
    assert to_object(m, ctypes.byref(out)) == 0  # in: a device array again
    b = out.value
    ctypes.pythonapi.Py_DecRef(ctypes.py_object(b))
    assert isinstance(b, ma.NDArray) and b.device == "cuda:0" and b.data_ptr == d.data_ptr
    del d, b, out
    gc.collect()
    assert p.deleted == [1]


def test_stream_values_the_spec_forbids() -> None:
    # a device array without a producer checks the stream itself
    # (python_spec.rst: CUDA forbids 0, ROCm forbids 1 and 2)
    cuda = from_pointer(no_access_memory(64), (4,), ma.float64, device=(DLDeviceType.CUDA, 0))
    with pytest.raises(ValueError, match="stream=0"):
        cuda.__dlpack__(stream=0, max_version=(1, 0))
    rocm = from_pointer(no_access_memory(64), (4,), ma.float64, device=(DLDeviceType.ROCM, 0))
    with pytest.raises(ValueError, match="stream=2"):
        rocm.__dlpack__(stream=2, max_version=(1, 0))
    assert describe(rocm.__dlpack__(stream=0, max_version=(1, 0))).tensor is not None


def test_asdlpack_of_device_arrays_and_producers() -> None:
    p = DeviceProducer(_values())
    v = ma.from_dlpack(p)[1:, 1:]
    d = ma.asdlpack(v)  # a device view: re-exported through its own producer
    assert d.__dlpack_device__() == (DLDeviceType.CUDA, 0)
    t = describe(d.__dlpack__(stream=9, max_version=(1, 0))).tensor
    assert t is not None and t.dl_tensor.data == v.data_ptr and p.calls[-1]["stream"] == 9
    q = DeviceProducer(_values())
    e = ma.asdlpack(q)  # a device producer: asked again at each export
    t = describe(e.__dlpack__(stream=4, max_version=(1, 0))).tensor
    assert t is not None and t.dl_tensor.data == q.memory and q.calls[-1]["stream"] == 4
    del d, e, t, v
    gc.collect()
    assert all(n == 1 for n in p.deleted + q.deleted)


# ---- the GPU round trips (minarray/testing/dlpack_cuda.py), on the stand-in -----------

class _FakeGpu:
    """A GPU array library over the stand-in device memory, to run the round
    trips the GPU checks make with JAX, PyTorch and CuPy: its arrays are
    DeviceProducers; its consumer asks as JAX does (a legacy capsule, on a
    stream) or for a versioned capsule, lets minarray hold the tensor (and
    run its deleter) and makes one of its arrays over the memory the
    capsule names; its host copies are the values of the array that memory
    belongs to.  ``bases`` is the "device", shared by the libraries of a
    test; ``views`` keeps the imports alive (cleared at the end)."""

    def __init__(self, name: str, *, legacy: bool, bases: list[DeviceProducer]) -> None:
        self.legacy = legacy
        self.bases = bases
        self.views: list[tuple[DeviceProducer, ma.NDArray]] = []
        self.library = dlpack_cuda.GpuLibrary(name, self.from_dlpack, lambda a: int(a.memory),
                                              lambda a: np.array(a.values))

    def array(self, values: np.ndarray) -> DeviceProducer:
        p = DeviceProducer(values, legacy=self.legacy)
        self.bases.append(p)
        return p

    def from_dlpack(self, x: Any) -> DeviceProducer:
        cap = x.__dlpack__(stream=1) if self.legacy else x.__dlpack__(stream=1, max_version=(1, 3))
        held = ma.from_dlpack(cap)
        base = next(p for p in self.bases if p.memory <= held.data_ptr < p.memory + p.values.nbytes)
        item = base.values.itemsize
        values = np.lib.stride_tricks.as_strided(base.values.reshape(-1)[(held.data_ptr - base.memory) // item:],
                                                 held.shape, held.strides)
        out = DeviceProducer(values, legacy=self.legacy, memory=held.data_ptr)
        self.views.append((out, held))
        return out


def test_gpu_check_jax_round_trip_runs_on_a_legacy_read_only_producer() -> None:
    bases: list[DeviceProducer] = []
    jax = _FakeGpu("jax", legacy=True, bases=bases)
    a = jax.array(_values((4, 6)))
    dlpack_cuda.jax_round_trip(jax.library, a)
    # the way back was minarray's legacy export of a read-only device array,
    # asked of the producer as the consumer asked it
    assert {"stream": 1, "max_version": None, "dl_device": None, "copy": None} in a.calls
    assert any(c["dl_device"] == (1, 0) for c in a.calls)  # to_device('cpu')
    jax.views.clear()
    gc.collect()
    assert all(n == 1 for n in a.deleted)


@pytest.mark.parametrize("second_legacy", [False, True], ids=["versioned", "legacy"])
@pytest.mark.parametrize("key", [(), (slice(1, None), slice(None, None, 2))], ids=["whole", "view"])
def test_gpu_check_chain_round_trip_runs_on_the_stand_in(second_legacy: bool, key: Any) -> None:
    bases: list[DeviceProducer] = []
    torch = _FakeGpu("torch", legacy=False, bases=bases)
    cupy = _FakeGpu("cupy", legacy=second_legacy, bases=bases)
    a = torch.array(_values((4, 6)))
    dlpack_cuda.chain_round_trip(torch.library, a, cupy.library, key)
    assert len(cupy.views) == 1 and len(torch.views) == 1
    torch.views.clear()
    cupy.views.clear()
    gc.collect()
    assert all(n == 1 for n in a.deleted)


def test_gpu_checks_fail_on_wrong_values_or_pointers() -> None:
    bases: list[DeviceProducer] = []
    jax = _FakeGpu("jax", legacy=True, bases=bases)
    a = jax.array(_values((4, 6)))
    lib = jax.library
    wrong_values = dlpack_cuda.GpuLibrary("jax", lib.from_dlpack, lib.pointer, lambda x: np.array(x.values) + 1)
    with pytest.raises(Exception, match=r"to_device\('cpu'\)"):  # minarray's copy disagrees with the library
        dlpack_cuda.jax_round_trip(wrong_values, a)
    wrong_pointer = dlpack_cuda.GpuLibrary("cupy", lib.from_dlpack, lambda x: int(x.memory) + 4, lib.to_numpy)
    with pytest.raises(Exception, match="cupy got pointer"):
        dlpack_cuda.chain_round_trip(lib, a, wrong_pointer)
    jax.views.clear()


def test_gpu_checks_report_missing_libraries(monkeypatch: pytest.MonkeyPatch) -> None:
    # a CUDA device but no JAX nor CuPy: a skipped row each, saying why; CuPy
    # without PyTorch: the chain has no first library
    monkeypatch.setattr(dlpack_cuda, "torch_cuda", lambda: None)
    monkeypatch.setattr(dlpack_cuda, "driver_device", lambda: True)
    monkeypatch.setattr(dlpack_cuda, "_driver_checks", lambda: iter([]))
    monkeypatch.setattr(dlpack_cuda, "jax_gpu", lambda: None)
    monkeypatch.setattr(dlpack_cuda, "cupy_cuda", lambda: None)
    rows = {r.source: r for r in dlpack_cuda.run()}
    assert rows["jax"].status == "skip" and "JAX" in rows["jax"].detail
    assert rows["cupy"].status == "skip" and "CuPy" in rows["cupy"].detail
    monkeypatch.setattr(dlpack_cuda, "cupy_cuda", lambda: object())
    rows = {r.source: r for r in dlpack_cuda.run()}
    assert rows["cupy"].status == "skip" and "needs PyTorch" in rows["cupy"].detail
