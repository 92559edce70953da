"""DLPack export (NDArray.__dlpack__) and import (ma.from_dlpack): the
protocol rules, field by field, with NumPy and hand-made producers.

Interop with PyTorch, JAX and pydlpack and the full dtype x layout matrix
are in test_dlpack_interop.py; from_numpy, asdlpack, from_pointer and
describe in test_dlpack_sources.py."""

from __future__ import annotations

import gc
import sys
import threading
from typing import Any

import numpy as np
import pytest
from dlpack_producer import OldProducer, Producer, Recorder
from numpy_oracle import DLPACK_REASON, DLPACK_VERSIONED, NUMPY_CAPSULE_NAME, dlpack_strides, numpy_capsule

import minarray as ma
from minarray.dlpack import DLDeviceType, DLPackFlags, describe

ALL_DTYPES = [d for d in ma._dtypes.KERNEL]
NP_DTYPES = [d for d in ALL_DTYPES if d is not ma.bfloat16]


def arange(shape: tuple[int, ...], dtype: Any = ma.float64) -> ma.NDArray:
    n = int(np.prod(shape))
    return ma.asarray(np.arange(n).reshape(shape)).astype(dtype)


# ---- export ---------------------------------------------------------------

def test_dlpack_device_is_cpu_intenum() -> None:
    dev = arange((2,)).__dlpack_device__()
    assert dev == (1, 0)
    assert type(dev[0]) is DLDeviceType and dev[0] is DLDeviceType.CPU


@pytest.mark.parametrize(("max_version", "name"), [
    (None, "dltensor"), ((0, 8), "dltensor"), ((1, 0), "dltensor_versioned"),
    ((1, 3), "dltensor_versioned"), ((1, 99), "dltensor_versioned"), ((2, 0), "dltensor_versioned"),
])
def test_capsule_kind_follows_max_version(max_version: Any, name: str) -> None:
    a = arange((2, 3))
    info = describe(a.__dlpack__(max_version=max_version))
    assert info.capsule_name == name
    assert info.tensor is not None
    if name == "dltensor_versioned":
        assert info.tensor.version == ma.dlpack.DLPackVersion(1, 3)
    else:
        assert info.tensor.version is None


def test_exported_fields() -> None:
    a = arange((4, 6), ma.float32)[1:, ::-2]
    m = describe(a.__dlpack__(max_version=(1, 0))).tensor
    assert m is not None
    t = m.dl_tensor
    assert t.data == a.data_ptr  # data at element 0 ...
    assert t.byte_offset == 0  # ... so no byte offset
    assert (t.ndim, t.shape, t.strides) == (2, (3, 3), (6, -2))
    assert (int(t.dtype.code), t.dtype.bits, t.dtype.lanes) == (2, 32, 1)
    assert (int(t.device.device_type), t.device.device_id) == (1, 0)
    assert m.flags == 0


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=str)
def test_dtype_codes_exported(dtype: ma.DType) -> None:
    t = describe(arange((3,), dtype).__dlpack__(max_version=(1, 0))).tensor
    assert t is not None
    assert (int(t.dl_tensor.dtype.code), t.dl_tensor.dtype.bits, t.dl_tensor.dtype.lanes) == dtype.dlpack


def test_strides_always_filled() -> None:
    c = arange((2, 3))
    t = describe(c.__dlpack__()).tensor
    assert t is not None and t.dl_tensor.strides == (3, 1)  # not NULL even when contiguous
    z = ma.asarray(3.5)
    t0 = describe(z.__dlpack__()).tensor
    assert t0 is not None and t0.dl_tensor.ndim == 0 and t0.dl_tensor.shape == ()
    e = ma.zeros((3, 0))
    te = describe(e.__dlpack__()).tensor
    assert te is not None and te.dl_tensor.shape == (3, 0) and te.dl_tensor.strides is not None


def _bcast(a: Any) -> Any:
    return (ma.broadcast_to if isinstance(a, ma.NDArray) else np.broadcast_to)(a[:, :1], (4, 6))


@pytest.mark.parametrize("view", [
    lambda a: a, lambda a: a[::-1], lambda a: a[:, ::-2], lambda a: a.T, lambda a: a[1:2, 3:4],
    lambda a: a[1, 2, ...], lambda a: a[:, 1:1], _bcast, lambda a: a[None, :, None, ::3],
], ids=["contiguous", "reversed", "neg-step", "T", "size-1", "0-d", "0-size", "zero-strides", "new-axes"])
def test_numpy_sees_the_same_memory(view: Any) -> None:
    base = arange((4, 6))
    a = view(base)
    # broadcast views are read-only, which only the versioned struct can say
    # (a legacy export of one is a copy); NumPy 2.0 takes legacy capsules only
    kinds = [mv for mv in (None, (1, 0)) if (mv is None and a.flags.writeable) or (mv and DLPACK_VERSIONED)]
    if not kinds:
        pytest.skip(f"{DLPACK_REASON}, and a read-only view goes to one only as a copy")
    for mv in kinds:
        n = np.from_dlpack(_Only(a, mv))
        ref = view(np.arange(24.0).reshape(4, 6))
        np.testing.assert_array_equal(n, ref)
        assert n.shape == a.shape and n.strides == a.strides
        if a.size:
            assert n.__array_interface__["data"][0] == a.data_ptr


class _Only:
    """Forces the capsule kind numpy receives."""

    def __init__(self, a: ma.NDArray, max_version: Any) -> None:
        self.a, self.mv = a, max_version

    def __dlpack__(self, **kw: Any) -> Any:
        return self.a.__dlpack__(max_version=self.mv)

    def __dlpack_device__(self) -> Any:
        return self.a.__dlpack_device__()


def test_writes_are_shared() -> None:
    a = arange((3, 4))
    n = np.from_dlpack(a)
    if DLPACK_VERSIONED:
        n[1, 2] = -7
        assert a[1, 2].item() == -7
    else:  # a legacy capsule cannot say writing is allowed: NumPy 2.0 imports it read-only
        assert not n.flags.writeable
    a[0, 0] = 42
    assert n[0, 0] == 42


def test_argument_errors() -> None:
    a = arange((3,))
    with pytest.raises(ValueError, match="stream"):
        a.__dlpack__(stream=1)
    with pytest.raises(ValueError, match="stream"):
        a.__dlpack__(stream=-1)
    with pytest.raises(TypeError, match="max_version"):
        a.__dlpack__(max_version=1)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="max_version"):
        a.__dlpack__(max_version=(1, 0, 0))  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="dl_device"):
        a.__dlpack__(dl_device="cpu")  # type: ignore[arg-type]
    with pytest.raises(BufferError, match="CPU"):
        a.__dlpack__(dl_device=(2, 0))
    with pytest.raises(BufferError):
        a.__dlpack__(dl_device=(1, 1))
    with pytest.raises(TypeError):
        a.__dlpack__(1)  # type: ignore[misc]
    assert describe(a.__dlpack__(stream=None, dl_device=(1, 0))).capsule_name == "dltensor"
    assert describe(a.__dlpack__(dl_device=(DLDeviceType.CPU, 0))).capsule_name == "dltensor"


def test_read_only_export() -> None:
    a = ma.from_numpy(_readonly(np.arange(4.0)))
    assert not a.flags.writeable
    # A legacy capsule cannot say read-only: copy=False refuses it, copy=None
    # exports a private copy (the Array API's "reuse if possible, copy
    # otherwise"), which the legacy struct cannot flag IS_COPIED either.
    with pytest.raises(BufferError, match="read-only"):
        a.__dlpack__(copy=False)
    with pytest.raises(BufferError, match="read-only"):
        a.__dlpack__(max_version=(0, 8), copy=False)
    for legacy in (a.__dlpack__(), a.__dlpack__(max_version=(0, 8))):
        info = describe(legacy)
        assert info.capsule_name == "dltensor" and info.tensor is not None
        assert info.tensor.dl_tensor.data != a.data_ptr
        c = ma.from_dlpack(legacy)
        np.testing.assert_array_equal(np.asarray(c), [0, 1, 2, 3])
    m = describe(a.__dlpack__(max_version=(1, 0))).tensor
    assert m is not None and m.flags == DLPackFlags.READ_ONLY
    n = np.from_dlpack(a)
    assert not n.flags.writeable
    np.testing.assert_array_equal(n, [0, 1, 2, 3])


def _readonly(x: np.ndarray) -> np.ndarray:
    x.flags.writeable = False
    return x


@pytest.mark.parametrize("max_version", [None, (1, 0)])
def test_copy_true_exports_a_fresh_copy(max_version: Any) -> None:
    a = ma.from_numpy(_readonly(np.arange(6.0).reshape(2, 3)))[:, ::-1]
    cap = a.__dlpack__(max_version=max_version, copy=True)
    m = describe(cap).tensor
    assert m is not None
    assert m.dl_tensor.data != a.data_ptr
    assert m.dl_tensor.strides == (3, 1)
    if max_version is not None:
        assert m.flags == DLPackFlags.IS_COPIED  # and not READ_ONLY: the copy is the consumer's
    b = ma.from_dlpack(cap)
    np.testing.assert_array_equal(np.asarray(b), np.arange(6.0).reshape(2, 3)[:, ::-1])


def test_copy_false_never_copies() -> None:
    a = arange((2, 3))
    m = describe(a.__dlpack__(max_version=(1, 0), copy=False)).tensor
    assert m is not None and m.dl_tensor.data == a.data_ptr and m.flags == 0
    if DLPACK_VERSIONED:  # NumPy's from_dlpack takes copy= since 2.1
        n = np.from_dlpack(a, copy=False)
        assert n.__array_interface__["data"][0] == a.data_ptr


@pytest.mark.skipif(not DLPACK_VERSIONED, reason=f"{DLPACK_REASON}: its from_dlpack takes no copy=")
def test_numpy_copy_request() -> None:
    a = arange((2, 3))
    n = np.from_dlpack(a, copy=True)
    assert n.__array_interface__["data"][0] != a.data_ptr
    n[0, 0] = 99
    assert a[0, 0].item() == 0


def test_unconsumed_capsules_free_their_reference() -> None:
    before = ma.allocator_stats()["live_buffers"]
    a = arange((100,))
    caps = [a.__dlpack__(), a.__dlpack__(max_version=(1, 0)), a.__dlpack__(copy=True)]
    assert ma.allocator_stats()["live_buffers"] == before + 2  # a's buffer + the copy
    del a
    gc.collect()
    assert ma.allocator_stats()["live_buffers"] == before + 2  # the capsules hold them
    del caps
    gc.collect()
    assert ma.allocator_stats()["live_buffers"] == before


def test_consumer_outlives_exporter() -> None:
    a = arange((5,))
    n = np.from_dlpack(a)
    del a
    gc.collect()
    np.testing.assert_array_equal(n, np.arange(5.0))
    if DLPACK_VERSIONED:  # (NumPy 2.0 imports every capsule read-only)
        n[0] = 3  # still writable memory owned by minarray's buffer


def test_capsule_destructor_keeps_pending_exception() -> None:
    # The capsule dies while ZeroDivisionError unwinds the frame: it must
    # neither replace nor clear that exception, and must still free.
    a = arange((3,))

    def boom() -> Any:
        return (a.__dlpack__(), a.__dlpack__(max_version=(1, 0)), 1 / 0)

    with pytest.raises(ZeroDivisionError):
        boom()


def test_deleter_runs_on_another_thread() -> None:
    a = arange((1000,))
    ns = [np.from_dlpack(a) for _ in range(8)]
    del a
    errors: list[BaseException] = []

    def drop(k: int) -> None:
        try:
            ns[k] = None  # type: ignore[call-overload]
            gc.collect()
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=drop, args=(k,)) for k in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors


def test_threads_export_and_drop_concurrently() -> None:
    a = arange((64, 64))
    errors: list[BaseException] = []

    def work() -> None:
        try:
            for i in range(300):
                cap = a.__dlpack__(max_version=(1, 0) if i % 2 else None)
                if i % 3 == 0:
                    n = np.from_dlpack(_Only(a, (1, 0) if DLPACK_VERSIONED else None))
                    assert n[1, 1] == 65
                    del n
                if i % 5 == 0:
                    b = ma.from_dlpack(cap)
                    assert b[2, 2].item() == 130
                del cap
        except BaseException as exc:
            errors.append(exc)

    old = sys.getswitchinterval()
    sys.setswitchinterval(1e-5)
    try:
        threads = [threading.Thread(target=work) for _ in range(6)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    finally:
        sys.setswitchinterval(old)
    assert not errors


# ---- import ---------------------------------------------------------------

@pytest.mark.parametrize("dtype", NP_DTYPES, ids=str)
def test_import_numpy_zero_copy(dtype: ma.DType) -> None:
    x = np.arange(12).reshape(3, 4).astype(dtype.name)[:, 1::2]
    a = ma.from_dlpack(x)
    assert a.dtype is dtype and a.shape == x.shape and a.strides == x.strides
    assert a.data_ptr == x.__array_interface__["data"][0]
    assert a.base is x
    assert a.flags.writeable == DLPACK_VERSIONED  # NumPy 2.0's legacy capsule imports read-only
    np.testing.assert_array_equal(np.asarray(a), x)


def test_import_writes_are_shared() -> None:
    x = np.zeros((2, 2))
    a = ma.from_dlpack(x)
    if DLPACK_VERSIONED:
        a[0, 1] = 5
    else:  # NumPy 2.0's legacy capsule imports read-only: write on its side
        assert not a.flags.writeable
        x[0, 1] = 5
    assert x[0, 1] == 5 and a[0, 1].item() == 5


def test_import_layouts() -> None:
    base = np.arange(60.0).reshape(3, 4, 5)
    for view in (base[::-1], base[:, ::-2, 1:], base.transpose(2, 0, 1), base[1:2, :, 4:5], base[1, 2, 3, ...],
                 base[:, 0:0], np.broadcast_to(base[:1], (3, 4, 5))):
        if not view.flags.writeable and not DLPACK_VERSIONED:
            with pytest.raises(BufferError):  # NumPy 2.0 refuses to export a read-only array
                ma.from_dlpack(view)
            continue
        a = ma.from_dlpack(view)
        assert a.shape == view.shape and a.strides == dlpack_strides(view)
        np.testing.assert_array_equal(np.asarray(a), view)


def test_import_legacy_is_read_only() -> None:
    w = np.arange(3.0)
    legacy = ma.from_dlpack(w.__dlpack__())  # a bare legacy capsule
    assert not legacy.flags.writeable  # cannot know: read-only, as NumPy


@pytest.mark.skipif(not DLPACK_VERSIONED, reason=f"{DLPACK_REASON}: it cannot export a read-only array")
def test_import_read_only_and_versioned() -> None:
    x = _readonly(np.arange(3.0))
    a = ma.from_dlpack(x)  # versioned with READ_ONLY
    assert not a.flags.writeable
    with pytest.raises(ValueError, match="read-only"):
        a[0] = 1
    w = np.arange(3.0)
    assert ma.from_dlpack(w.__dlpack__(max_version=(1, 0))).flags.writeable


def test_bare_capsule_and_double_consumption() -> None:
    x = np.arange(4.0)
    cap = numpy_capsule(x)
    a = ma.from_dlpack(cap)
    assert a.data_ptr == x.__array_interface__["data"][0]
    assert describe(cap).capsule_name == "used_" + NUMPY_CAPSULE_NAME
    with pytest.raises(BufferError, match="already consumed"):
        ma.from_dlpack(cap)
    np.testing.assert_array_equal(np.asarray(a), x)


def test_import_errors() -> None:
    with pytest.raises(TypeError, match="__dlpack__"):
        ma.from_dlpack([1, 2, 3])
    with pytest.raises(TypeError, match="__dlpack__"):
        ma.from_dlpack(object())
    with pytest.raises(ValueError, match="device"):
        ma.from_dlpack(np.arange(3), device="cuda")
    with pytest.raises(TypeError, match="__dlpack__"):
        ma.from_dlpack(arange((2,))._h)  # a handle is no capsule

    class Wrong:
        def __dlpack__(self, **kw: Any) -> Any:
            return 42

    with pytest.raises(TypeError, match="not a DLPack capsule"):
        ma.from_dlpack(Wrong())

    class Raising:
        def __dlpack__(self, **kw: Any) -> Any:
            raise BufferError("producer says no")

    with pytest.raises(BufferError, match="producer says no"):
        ma.from_dlpack(Raising())


def test_producer_errors_other_than_typeerror_propagate() -> None:
    class AttrError:
        def __dlpack__(self, **kw: Any) -> Any:
            raise AttributeError("inner bug")

    with pytest.raises(AttributeError, match="inner bug"):
        ma.from_dlpack(AttrError())


def test_negotiation_keywords() -> None:
    x = np.arange(3.0)
    r = Recorder(x)
    ma.from_dlpack(r)
    assert r.calls[-1] == {"max_version": (1, 3)}
    ma.from_dlpack(r, device="cpu")
    assert r.calls[-1] == {"max_version": (1, 3), "dl_device": (1, 0)}
    ma.from_dlpack(r, copy=False)
    assert r.calls[-1] == {"max_version": (1, 3), "copy": False}
    b = ma.from_dlpack(r, device="cpu", copy=True)
    assert r.calls[-1] == {"max_version": (1, 3), "dl_device": (1, 0), "copy": True}
    assert b.base is None and b.data_ptr != x.__array_interface__["data"][0]


def test_old_producer_fallback() -> None:
    x = np.arange(3.0)
    old = OldProducer(x)
    a = ma.from_dlpack(old)
    assert old.calls == 1 and not a.flags.writeable  # legacy capsule: read-only
    assert a.data_ptr == x.__array_interface__["data"][0]
    b = ma.from_dlpack(old, device="cpu")  # on the CPU already: fine
    np.testing.assert_array_equal(np.asarray(b), x)
    c = ma.from_dlpack(old, copy=True)  # cannot ask it: minarray copies
    assert c.data_ptr != x.__array_interface__["data"][0] and c.flags.writeable
    with pytest.raises(BufferError, match=r"CUDA:0.*dl_device"):
        ma.from_dlpack(OldProducer(x, device=(2, 0)), device="cpu")


def test_device_cpu_asks_producer_to_copy() -> None:
    x = np.arange(4.0)
    gpu = Recorder(x, device=(2, 0))
    assert ma.from_dlpack(gpu).device == "cuda:0"  # device=None: carried where it is
    a = ma.from_dlpack(gpu, device="cpu")
    assert gpu.calls[-1]["dl_device"] == (1, 0)
    np.testing.assert_array_equal(np.asarray(a), x)
    a = ma.from_dlpack(gpu, device=(DLDeviceType.CPU, 0))
    np.testing.assert_array_equal(np.asarray(a), x)


# ---- import from a hand-made producer: ownership and validation --------------

@pytest.mark.parametrize("versioned", [True, False])
def test_deleter_called_once_when_last_view_dies(versioned: bool) -> None:
    x = np.arange(12.0).reshape(3, 4)
    p = Producer(x, versioned=versioned)
    a = ma.from_dlpack(p.capsule())
    v1 = a[1:, ::2]
    v2 = v1.T
    del a
    gc.collect()
    assert p.deleted == 0
    del v1
    gc.collect()
    assert p.deleted == 0
    np.testing.assert_array_equal(np.asarray(v2), x[1:, ::2].T)
    del v2
    gc.collect()
    assert p.deleted == 1


def test_never_consumed_capsule_frees_through_its_destructor() -> None:
    p = Producer(np.arange(3.0))
    cap = p.capsule()
    del cap
    gc.collect()
    assert p.deleted == 1


def test_reexport_of_import_keeps_producer_alive() -> None:
    x = np.arange(6.0)
    p = Producer(x)
    a = ma.from_dlpack(p.capsule())
    n = np.from_dlpack(a)
    del a
    gc.collect()
    assert p.deleted == 0
    np.testing.assert_array_equal(n, x)
    del n
    gc.collect()
    assert p.deleted == 1


def test_deleter_called_from_the_thread_dropping_last_view() -> None:
    p = Producer(np.arange(3.0))
    holder = [ma.from_dlpack(p.capsule())]

    def drop() -> None:
        holder.clear()

    t = threading.Thread(target=drop)
    t.start()
    t.join()
    gc.collect()
    assert p.deleted == 1 and p.delete_threads == [t.ident]


def test_copy_true_releases_producer_at_once() -> None:
    x = np.arange(4.0)
    p = Producer(x)
    a = ma.from_dlpack(p.capsule(), copy=True)
    assert p.deleted == 1  # copied, then the producer's tensor was released
    assert a.flags.writeable and a.base is None
    np.testing.assert_array_equal(np.asarray(a), x)


def test_is_copied_flag_respected() -> None:
    x = np.arange(4.0)
    p = Producer(x, flags=int(DLPackFlags.IS_COPIED))
    a = ma.from_dlpack(p.capsule(), copy=True)  # already a private copy: no second one
    assert a.data_ptr == x.__array_interface__["data"][0]
    assert a.base is None
    assert p.deleted == 0
    del a
    gc.collect()
    assert p.deleted == 1


def test_read_only_flag_imported() -> None:
    p = Producer(np.arange(3.0), flags=int(DLPackFlags.READ_ONLY))
    a = ma.from_dlpack(p.capsule())
    assert not a.flags.writeable
    assert not a[1:].flags.writeable


def test_null_strides_mean_c_contiguous() -> None:
    x = np.arange(24.0).reshape(2, 3, 4)
    a = ma.from_dlpack(Producer(x, strides=None).capsule())
    assert a.strides == x.strides
    np.testing.assert_array_equal(np.asarray(a), x)


def test_byte_offset_honoured() -> None:
    x = np.arange(10.0)
    base = x.__array_interface__["data"][0]
    a = ma.from_dlpack(Producer(x[3:], data=base, byte_offset=24).capsule())
    assert a.data_ptr == base + 24
    np.testing.assert_array_equal(np.asarray(a), x[3:])


def test_ndim0_null_shape_and_size0_null_data() -> None:
    x = np.array(2.5)
    a = ma.from_dlpack(Producer(x, shape=None, strides=None).capsule())
    assert a.shape == () and a.item() == 2.5
    e = np.zeros((2, 0))
    b = ma.from_dlpack(Producer(e, data=0).capsule())
    assert b.shape == (2, 0) and b.size == 0


def test_bool_and_bfloat16_import() -> None:
    x = np.array([True, False, True])
    a = ma.from_dlpack(Producer(x).capsule())
    assert a.dtype is ma.bool and a.tolist() == [True, False, True]
    bits = np.array([0x3F80, 0x4000, 0xC040], dtype=np.uint16)  # 1.0, 2.0, -3.0
    b = ma.from_dlpack(Producer(bits, dtype=(4, 16, 1)).capsule())
    assert b.dtype is ma.bfloat16 and b.tolist() == [1.0, 2.0, -3.0]


BAD_FIELDS: list[tuple[str, dict[str, Any], str]] = [
    ("major version 2", {"version": (2, 0)}, "DLPack 2.0"),
    ("major version 0", {"version": (0, 8)}, "DLPack 0.8"),
    ("ndim 65", {"ndim": 65, "shape": (1,) * 65, "strides": (1,) * 65}, "ndim=65"),
    ("ndim -1", {"ndim": -1}, "ndim=-1"),
    ("lanes 4", {"dtype": (2, 32, 4)}, "lanes"),
    ("float8 of 16 bits", {"dtype": (10, 16, 1)}, "code 10, bits 16"),
    ("float4 pairs", {"dtype": (17, 4, 2)}, "lanes 2"),
    ("1-bit bool", {"dtype": (6, 1, 1)}, "code 6, bits 1"),
    ("opaque handle", {"dtype": (3, 64, 1)}, "code 3"),
    ("unknown device", {"device": (99, 0)}, "device type 99"),
    ("NULL shape", {"shape": None}, "NULL shape"),
    ("negative dim", {"shape": (-1, 4)}, "negative"),
    ("size overflow", {"shape": (2**40, 2**40), "strides": (1, 1)}, "too large"),
    ("stride overflow", {"strides": (2**62, 1)}, "overflow"),
    ("INT64_MIN stride", {"strides": (-(2**63), 1)}, "overflow"),
    ("NULL data", {"data": 0}, "NULL data"),
    ("misaligned", {"byte_offset": 3}, "aligned"),
]


# the legacy struct has no version field to break
BAD_CASES = [(v, *b) for b in BAD_FIELDS for v in (True, False) if v or "version" not in b[1]]


@pytest.mark.parametrize(("versioned", "why", "fields", "message"), BAD_CASES,
                         ids=[f"{b[1]}-{'versioned' if b[0] else 'legacy'}" for b in BAD_CASES])
def test_rejected_capsule_stays_with_producer(versioned: bool, why: str, fields: dict[str, Any],
                                              message: str) -> None:
    x = np.arange(12.0).reshape(3, 4)
    p = Producer(x, versioned=versioned, **fields)
    cap = p.capsule()
    with pytest.raises(BufferError, match=message):
        ma.from_dlpack(cap)
    assert describe(cap).capsule_name == ("dltensor_versioned" if versioned else "dltensor")  # not renamed
    assert p.deleted == 0
    del cap
    gc.collect()
    assert p.deleted == 1  # the producer's destructor freed it, once


def test_device_copy_true_refused_leaks_nothing() -> None:
    # a CUDA tensor cannot be copied by minarray: copy=True (which the
    # producer ignored) is refused naming the device, and the tensor freed
    p = Producer(np.arange(3.0), device=(2, 0))

    class Gpu:
        def __dlpack__(self, **kw: Any) -> Any:
            return p.capsule()

        def __dlpack_device__(self) -> Any:
            return (2, 0)

    with pytest.raises(BufferError, match=r"CUDA:0.*device='cpu'"):
        ma.from_dlpack(Gpu(), copy=True)
    gc.collect()
    assert p.deleted == 1


@pytest.mark.parametrize("device", [(3, 0), (11, 0), (13, 0)], ids=["CUDAHost", "ROCMHost", "CUDAManaged"])
def test_cpu_accessible_devices_import(device: tuple[int, int]) -> None:
    x = np.arange(3.0)
    a = ma.from_dlpack(Producer(x, device=device).capsule())
    np.testing.assert_array_equal(np.asarray(a), x)


def test_32_dims_round_trip() -> None:
    shape = tuple(2 if i % 8 == 0 else 1 for i in range(32))
    x = np.arange(16.0).reshape(shape).transpose(tuple(range(31, -1, -1)))
    a = ma.from_dlpack(x)
    assert a.ndim == 32 and a.strides == x.strides
    back = np.from_dlpack(a)
    np.testing.assert_array_equal(back, x)
    if DLPACK_VERSIONED:
        assert back.strides == x.strides
    else:  # a is a read-only legacy import, so its legacy export is minarray's C-order copy
        assert back.__array_interface__["data"][0] != a.data_ptr and back.flags.c_contiguous


# ---- the C exchange API minarray publishes ----------------------------------------

def _api() -> Any:
    from minarray._native import core, ffi

    cap = ma.NDArray.__dlpack_c_exchange_api__
    name, addr = core.dlpack_capsule_peek(cap)
    assert name == "dlpack_exchange_api"
    return ffi.cast("DLPackExchangeAPI *", addr)


def _fn(api: Any, field: str, restype: Any, *argtypes: Any, gil: bool = True) -> Any:
    """A ctypes function over one table entry; PYFUNCTYPE keeps the GIL held,
    as the spec requires for every entry but the allocator."""
    import ctypes

    from minarray._native import ffi

    proto = (ctypes.PYFUNCTYPE if gil else ctypes.CFUNCTYPE)(restype, *argtypes)
    return proto(int(ffi.cast("uintptr_t", getattr(api, field))))


def test_exchange_api_table() -> None:
    api = _api()
    assert (api.header.version.major, api.header.version.minor) == (1, 3)
    assert api.header.prev_api == ma.dlpack.ffi.NULL
    for field in ("managed_tensor_allocator", "managed_tensor_from_py_object_no_sync",
                  "managed_tensor_to_py_object_no_sync", "dltensor_from_py_object_no_sync",
                  "current_work_stream"):
        assert getattr(api, field) != ma.dlpack.ffi.NULL


def test_own_exchange_api_is_used_by_from_dlpack(monkeypatch: pytest.MonkeyPatch) -> None:
    a = arange((3, 4))[:, ::2]

    def refuse(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("__dlpack__ called: the C exchange API should have been used")

    monkeypatch.setattr(ma.NDArray, "__dlpack__", refuse)
    b = ma.from_dlpack(a)
    assert b.data_ptr == a.data_ptr and b.strides == a.strides and b.base is a
    ro = ma.from_numpy(_readonly(np.arange(3.0)))
    assert not ma.from_dlpack(ro).flags.writeable  # READ_ONLY carried by the C API too


def test_exchange_api_round_trip_through_c() -> None:
    import ctypes

    from minarray._native import ffi

    api = _api()
    to_managed = _fn(api, "managed_tensor_from_py_object_no_sync", ctypes.c_int, ctypes.py_object,
                     ctypes.POINTER(ctypes.c_void_p))
    to_object = _fn(api, "managed_tensor_to_py_object_no_sync", ctypes.c_int, ctypes.c_void_p,
                    ctypes.POINTER(ctypes.py_object))
    view = _fn(api, "dltensor_from_py_object_no_sync", ctypes.c_int, ctypes.py_object, ctypes.c_void_p)
    stream = _fn(api, "current_work_stream", ctypes.c_int, ctypes.c_int, ctypes.c_int32,
                 ctypes.POINTER(ctypes.c_void_p))

    a = arange((2, 3), ma.int32).T
    m = ctypes.c_void_p()
    assert to_managed(a, ctypes.byref(m)) == 0
    mt = ffi.cast("DLManagedTensorVersioned *", m.value)
    assert (mt.version.major, mt.dl_tensor.ndim, mt.dl_tensor.strides[0]) == (1, 2, 1)
    out = ctypes.py_object()
    assert to_object(m, ctypes.byref(out)) == 0  # ownership passes back to minarray
    b = out.value
    # the C function handed over a new reference that ctypes never releases
    ctypes.pythonapi.Py_DecRef(ctypes.py_object(b))
    assert isinstance(b, ma.NDArray) and b.data_ptr == a.data_ptr and b.shape == (3, 2)
    assert b.tolist() == a.tolist()

    t = ffi.new("DLTensor *")
    assert view(a, ctypes.c_void_p(int(ffi.cast("uintptr_t", t)))) == 0
    assert int(ffi.cast("uintptr_t", t.data)) == a.data_ptr and list(t.shape[0:2]) == [3, 2]
    s = ctypes.c_void_p(1)
    assert stream(1, 0, ctypes.byref(s)) == 0 and not s.value
    with pytest.raises(TypeError, match="NDArray"):
        to_managed([1, 2], ctypes.byref(m))


def test_exchange_api_allocator() -> None:
    import ctypes

    from minarray._native import ffi

    api = _api()
    errors: list[tuple[bytes, bytes]] = []
    set_error_t = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_char_p, ctypes.c_char_p)
    set_error = set_error_t(lambda ctx, kind, msg: errors.append((kind, msg)))
    alloc = _fn(api, "managed_tensor_allocator", ctypes.c_int, ctypes.c_void_p, ctypes.POINTER(ctypes.c_void_p),
                ctypes.c_void_p, set_error_t, gil=False)
    proto = ffi.new("DLTensor *")
    shape = ffi.new("int64_t[]", [4, 5])
    proto.ndim, proto.shape = 2, shape
    proto.dtype.code, proto.dtype.bits, proto.dtype.lanes = 2, 64, 1
    proto.device.device_type = 1
    m = ctypes.c_void_p()
    before = ma.allocator_stats()["live_buffers"]
    assert alloc(int(ffi.cast("uintptr_t", proto)), ctypes.byref(m), None, set_error) == 0
    assert ma.allocator_stats()["live_buffers"] == before + 1
    mt = ffi.cast("DLManagedTensorVersioned *", m.value)
    assert list(mt.dl_tensor.shape[0:2]) == [4, 5] and list(mt.dl_tensor.strides[0:2]) == [5, 1]
    mt.deleter(mt)
    assert ma.allocator_stats()["live_buffers"] == before
    proto.device.device_type = 2
    assert alloc(int(ffi.cast("uintptr_t", proto)), ctypes.byref(m), None, set_error) == -1
    assert errors and errors[-1][0] == b"BufferError"


def test_pinned_memory_import_reports_cpu() -> None:
    x = np.arange(3.0)
    a = ma.from_dlpack(Producer(x, device=(3, 0)).capsule())
    info = describe(a.__dlpack__(max_version=(1, 0), dl_device=(1, 0)))
    assert info.tensor is not None and info.tensor.dl_tensor.device == ma.dlpack.DLDevice(DLDeviceType.CPU, 0)
