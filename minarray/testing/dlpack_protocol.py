"""The DLPack protocol, rule by rule, for every library installed:
``python -m minarray.testing.dlpack`` prints these after the exchange matrix.

Each rule is checked on each library in the role it plays (producer,
consumer), with minarray on the other side, and reported as ok, FAIL (with
what happened) or n/a (the library lacks the feature, e.g. read-only
tensors).  A library author can read their column: every FAIL is a rule of
the DLPack Python specification (python_spec.rst) or the Array API
standard's ``__dlpack__``/``from_dlpack`` that the library breaks.  The
rules minarray alone can be asked about (asdlpack of every source kind,
from_numpy, from_pointer, the C exchange API, device arrays without a GPU)
close the table.
"""

from __future__ import annotations

import array
import ctypes
import functools
import gc
import importlib.util
import mmap
import sys
import weakref
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import minarray as ma
from minarray._native import core, ffi
from minarray.dlpack import DLDeviceType, DLPackFlags, describe, from_pointer

__all__ = ["Peer", "Outcome", "peers", "run", "table", "NotApplicable"]


class NotApplicable(Exception):
    """The library lacks what the rule needs: reported n/a, not FAIL."""


class _Failed(Exception):
    pass


def _expect(cond: bool, what: str) -> None:
    if not cond:
        raise _Failed(what)


@dataclass
class Peer:
    """One library as the protocol rules see it."""

    name: str
    make: Callable[[], Any]  # a writable 2x3 float array (values 0..5)
    make_readonly: Callable[[], Any] | None  # the same, read-only; None: no read-only arrays
    data_ptr: Callable[[Any], int] | None  # None: the consumer always copies
    from_dlpack: Callable[..., Any] | None  # None: a producer only
    writable: Callable[[Any], bool] | None = None  # of an imported array; None: cannot say
    cpu_device: Any = "cpu"  # what its from_dlpack(device=) calls the CPU


@dataclass(frozen=True)
class Outcome:
    rule: str
    library: str
    status: str  # "ok", "FAIL" or "n/a"
    detail: str = ""


def _np() -> Any:
    import numpy as np  # optional: NumPy is not a dependency of minarray

    return np


def _values() -> Any:
    return _np().arange(6.0).reshape(2, 3)


def _minarray() -> Peer:
    def ro() -> Any:
        v = _values()
        v.flags.writeable = False
        return ma.from_numpy(v)

    return Peer("minarray", lambda: ma.from_numpy(_values(), copy=True), ro, lambda a: a.data_ptr, ma.from_dlpack,
                lambda a: a.flags.writeable)


def _numpy() -> Peer:
    np = _np()

    def ro() -> Any:
        v = _values()
        v.flags.writeable = False
        return v

    return Peer("numpy", _values, ro, lambda a: a.ctypes.data, np.from_dlpack, lambda a: a.flags.writeable)


def _torch() -> Peer:
    import torch  # optional: PyTorch is not a dependency of minarray
    from torch.utils.dlpack import from_dlpack  # optional: PyTorch is not a dependency of minarray

    return Peer("torch", lambda: torch.arange(6.0, dtype=torch.float64).reshape(2, 3), None,
                lambda t: t.data_ptr(), from_dlpack)


def _jax() -> Peer:
    import jax  # optional: JAX is not a dependency of minarray
    import jax.numpy as jnp  # optional: JAX is not a dependency of minarray

    cpu = jax.devices("cpu")[0]

    def make() -> Any:  # on the CPU, where the rules are (JAX prefers a GPU when it has one)
        return jax.device_put(jnp.arange(6.0).reshape(2, 3), cpu)

    # JAX arrays are immutable: every one of them is read-only
    return Peer("jax", make, make, None, jnp.from_dlpack, lambda a: False, cpu)


def _pydlpack() -> Peer:
    import dlpack  # optional: pydlpack is not a dependency of minarray

    ledger = dlpack.MemoryManager.cache  # {managed-tensor address: (buffer, {"use_count": exports alive, ...})}

    def forget_unexported(address: int) -> None:
        # pydlpack frees a managed tensor only through the deleter of an
        # export; one that was never exported (a rule that asked only for
        # the device, or whose export pydlpack refused) stays in its ledger
        # and is reported at exit as a leak.  Once the object is gone and no
        # export is alive, nothing can use the entry: drop it.
        entry = ledger.get(address)
        if entry is not None and entry[1]["use_count"] == 0:
            del ledger[address]

    def tracked(v: Any) -> Any:
        obj = dlpack.asdlpack(v)
        weakref.finalize(obj, forget_unexported, obj.impl._managed_pointer)
        return obj

    def ro() -> Any:
        v = _values()
        v.flags.writeable = False
        return tracked(v)

    return Peer("pydlpack", lambda: tracked(_values()), ro, None, None)


_FACTORIES: dict[str, tuple[str, Callable[[], Peer]]] = {
    "numpy": ("numpy", _numpy), "torch": ("torch", _torch), "jax": ("jax", _jax), "pydlpack": ("dlpack", _pydlpack),
}


def peers() -> list[Peer]:
    """minarray first, then every other library installed."""
    out = [_minarray()]
    for module, factory in _FACTORIES.values():
        if importlib.util.find_spec(module) is not None:
            try:
                out.append(factory())
            except Exception as exc:
                print(f"skipping {module}: {exc}", file=sys.stderr)
    return out


def _capsule_name(cap: Any) -> str:
    name = describe(cap).capsule_name
    _release(cap)
    return name


def _tensor(cap: Any) -> Any:
    """The managed tensor a capsule holds (read without touching the data);
    the capsule is then consumed and released, so that every export a
    rule makes is given back through its deleter."""
    m = describe(cap).tensor
    _release(cap)
    _expect(m is not None, "the capsule holds no tensor")
    return m


def _release(cap: Any) -> None:
    """Consume a capsule and drop the result: its deleter runs now.  (A
    capsule left to its destructor should be freed too, but pydlpack's
    bookkeeping counts those as leaks.)"""
    try:
        ma.from_dlpack(cap)
    except Exception:
        pass  # refused: the capsule stays its producer's, freed by its destructor


def _source_ptr(x: Any) -> int:
    """The data pointer of a producer, read from a versioned export."""
    return int(_tensor(x.__dlpack__(max_version=(1, 0))).dl_tensor.data)


# ---- producer rules: the library exports, minarray reads the capsule -------------------

def _p_versioned(p: Peer) -> None:
    info = describe(cap := p.make().__dlpack__(max_version=(1, 0)))
    m = _tensor(cap)
    _expect(info.capsule_name == "dltensor_versioned", f"capsule {info.capsule_name!r}")
    _expect(m.version is not None and m.version.major == 1, f"version {m.version}")


def _p_legacy(p: Peer) -> None:
    try:
        cap = p.make().__dlpack__()
    except BufferError:
        return  # allowed since March 2025 (python_spec.rst: max_version None)
    name = _capsule_name(cap)
    _expect(name == "dltensor", f"capsule {name!r} for max_version=None")


def _p_newer_major(p: Peer) -> None:
    m = _tensor(p.make().__dlpack__(max_version=(2, 0)))
    _expect(m.version is not None and m.version.major == 1, f"answered a (2, 0) consumer with {m.version}")


def _p_device(p: Peer) -> None:
    dev = tuple(p.make().__dlpack_device__())
    _expect(dev == (1, 0), f"__dlpack_device__() is {dev}")


def _p_dl_device_cpu(p: Peer) -> None:
    _tensor(p.make().__dlpack__(max_version=(1, 0), dl_device=(1, 0)))


def _p_dl_device_other(p: Peer) -> None:
    try:
        p.make().__dlpack__(max_version=(1, 0), dl_device=(10, 0))
    except BufferError:
        return
    except Exception as exc:
        raise _Failed(f"{type(exc).__name__} instead of BufferError: {exc}") from None
    raise _Failed("exported a CPU array to ROCm")


def _p_stream_cpu(p: Peer) -> None:
    x = p.make()
    _tensor(x.__dlpack__(stream=None, max_version=(1, 0)))
    try:
        x.__dlpack__(stream=5, max_version=(1, 0))
    except Exception:
        return
    raise _Failed("accepted stream=5 on the CPU (only None is valid there)")


def _p_copy(p: Peer, copy: bool) -> None:
    x = p.make()
    m = _tensor(x.__dlpack__(max_version=(1, 0), copy=copy))
    same = m.dl_tensor.data == _source_ptr(x)
    flagged = DLPackFlags.IS_COPIED in m.flags
    if copy:
        _expect(not same and flagged, f"copy=True: {'same memory' if same else 'no IS_COPIED flag'}")
    else:
        _expect(same and not flagged, "copy=False copied")


def _p_readonly(p: Peer) -> None:
    if p.make_readonly is None:
        raise NotApplicable(f"{p.name} has no read-only arrays")
    m = _tensor(p.make_readonly().__dlpack__(max_version=(1, 0)))
    _expect(DLPackFlags.READ_ONLY in m.flags, "a read-only array exported without READ_ONLY")


def _p_readonly_legacy(p: Peer) -> None:
    if p.make_readonly is None:
        raise NotApplicable(f"{p.name} has no read-only arrays")
    x = p.make_readonly()
    try:
        cap = x.__dlpack__()
    except BufferError as exc:
        raise _Failed(f"refused (the standard's copy=None asks for a copy): {exc}") from None
    _expect(_tensor(cap).dl_tensor.data != _source_ptr(x), "the legacy capsule shares read-only memory")


def _p_exchange_api(p: Peer) -> None:
    cap = getattr(type(p.make()), "__dlpack_c_exchange_api__", None)
    if cap is None:
        raise NotApplicable("no __dlpack_c_exchange_api__")
    _expect(_capsule_name_any(cap) == "dlpack_exchange_api", "the attribute is not a 'dlpack_exchange_api' capsule")
    x = p.make()
    a = ma.from_dlpack(x)  # minarray takes the exchange API when a type has one
    _expect(a.data_ptr == _source_ptr(x), "the exchange-API import copied")


def _capsule_name_any(cap: Any) -> str | None:
    name: str | None = core.dlpack_capsule_peek(cap)[0]
    return name


PRODUCER_RULES: dict[str, Callable[[Peer], None]] = {
    "producer: max_version=(1, 0) gives a versioned capsule": _p_versioned,
    "producer: max_version=None gives a legacy capsule": _p_legacy,
    "producer: answers a newer major version with its own": _p_newer_major,
    "producer: __dlpack_device__ is (1, 0) on the CPU": _p_device,
    "producer: dl_device=(1, 0) accepted": _p_dl_device_cpu,
    "producer: another dl_device raises BufferError": _p_dl_device_other,
    "producer: stream None only, on the CPU": _p_stream_cpu,
    "producer: copy=True copies, sets IS_COPIED": lambda p: _p_copy(p, True),
    "producer: copy=False shares": lambda p: _p_copy(p, False),
    "producer: read-only exports READ_ONLY": _p_readonly,
    "producer: read-only, legacy, copy=None: a copy": _p_readonly_legacy,
    "producer: C exchange API (DLPack 1.3)": _p_exchange_api,
}


# ---- consumer rules: minarray exports, the library imports -----------------------------

class _Recorder:
    """minarray's export behind a recorder of the consumer's keywords; it
    keeps the last capsule to see what the consumer did with it."""

    def __init__(self, a: Any, legacy: bool = False) -> None:
        self.a = a
        self.legacy = legacy
        self.calls: list[dict[str, Any]] = []
        self.capsule: Any = None

    def __dlpack__(self, *args: Any, **kw: Any) -> Any:
        if self.legacy and (args or set(kw) - {"stream"}):
            raise TypeError("__dlpack__() got an unexpected keyword argument")  # a pre-2023 producer
        self.calls.append(kw)
        self.capsule = self.a.__dlpack__(**kw)
        return self.capsule

    def __dlpack_device__(self) -> Any:
        return self.a.__dlpack_device__()


def _consumer(p: Peer) -> Callable[..., Any]:
    if p.from_dlpack is None:
        raise NotApplicable(f"{p.name} is not a consumer")
    return p.from_dlpack


def _same_values(p: Peer, y: Any, want: Any) -> None:
    np = _np()
    got = np.asarray(ma.from_dlpack(y) if p.name == "minarray" else y)
    _expect(got.shape == want.shape and np.array_equal(got, want), f"values {got!r}")


def _c_import(p: Peer) -> None:
    imp = _consumer(p)
    a = ma.from_numpy(_values(), copy=True)
    y = imp(_Recorder(a))
    _same_values(p, y, _values())
    if p.data_ptr is not None:
        _expect(p.data_ptr(y) == a.data_ptr, "the consumer copied where it could share")


def _c_max_version(p: Peer) -> None:
    imp = _consumer(p)
    rec = _Recorder(ma.arange(3.0))
    imp(rec)
    mv = rec.calls[0].get("max_version")
    _expect(mv is not None and next(iter(mv)) >= 1, f"asked with max_version={mv!r}: only legacy capsules, which "
                                                   "cannot carry READ_ONLY")


def _c_stream(p: Peer) -> None:
    imp = _consumer(p)
    rec = _Recorder(ma.arange(3.0))
    imp(rec)
    _expect(rec.calls[0].get("stream") is None, f"passed stream={rec.calls[0].get('stream')!r} for a CPU array")


def _c_readonly(p: Peer) -> None:
    imp = _consumer(p)
    if p.writable is None:
        raise NotApplicable(f"{p.name} has no read-only arrays (it ignores READ_ONLY, as the spec allows)")
    v = _values()
    v.flags.writeable = False
    y = imp(_Recorder(ma.from_numpy(v)))
    _expect(not p.writable(y), "a READ_ONLY export imported writable")


def _c_legacy_producer(p: Peer) -> None:
    imp = _consumer(p)
    y = imp(_Recorder(ma.from_numpy(_values(), copy=True), legacy=True))
    _same_values(p, y, _values())


def _c_renames(p: Peer) -> None:
    imp = _consumer(p)
    rec = _Recorder(ma.arange(3.0))
    y = imp(rec)
    info = describe(rec.capsule)
    _expect(info.consumed, f"the capsule is still named {info.capsule_name!r} after the import")
    del y


def _c_deleter(p: Peer) -> None:
    imp = _consumer(p)
    gc.collect()
    before = ma.allocator_stats()["live_buffers"]
    a = ma.arange(1000.0)
    y = imp(_Recorder(a))
    del a, y
    gc.collect()
    _expect(ma.allocator_stats()["live_buffers"] == before, "minarray's buffer was never released: the "
                                                            "consumer did not call the deleter")


def _c_copy(p: Peer) -> None:
    imp = _consumer(p)
    a = ma.from_numpy(_values(), copy=True)
    try:
        y = imp(_Recorder(a), copy=True)
    except TypeError as exc:
        raise NotApplicable(f"no copy keyword: {exc}") from None
    _same_values(p, y, _values())
    if p.data_ptr is not None:
        _expect(p.data_ptr(y) != a.data_ptr, "copy=True shared memory")


def _c_device_cpu(p: Peer) -> None:
    imp = _consumer(p)
    try:
        y = imp(_Recorder(ma.from_numpy(_values(), copy=True)), device=p.cpu_device)
    except TypeError as exc:
        raise NotApplicable(f"no device keyword: {exc}") from None
    _same_values(p, y, _values())


CONSUMER_RULES: dict[str, Callable[[Peer], None]] = {
    "consumer: imports a versioned export, shares memory": _c_import,
    "consumer: asks with max_version >= (1, 0)": _c_max_version,
    "consumer: no stream for a CPU array": _c_stream,
    "consumer: honours READ_ONLY": _c_readonly,
    "consumer: falls back for a legacy producer": _c_legacy_producer,
    "consumer: renames the capsule used_*": _c_renames,
    "consumer: calls the deleter": _c_deleter,
    "consumer: copy=True copies": _c_copy,
    "consumer: device='cpu' accepted": _c_device_cpu,
}


# ---- minarray's own doors ------------------------------------------------------------------

class _StructOnly:
    def __init__(self, a: Any) -> None:
        self.a = a

    @property
    def __array_struct__(self) -> Any:
        return self.a.__array_struct__


class _InterfaceOnly:
    def __init__(self, a: Any) -> None:
        self.__array_interface__ = a.__array_interface__
        self.a = a


class _FakeCuda:
    def __init__(self, ptr: int) -> None:
        self.__cuda_array_interface__ = {"shape": (2, 3), "typestr": "<f8", "data": (ptr, False), "version": 3,
                                         "strides": None, "stream": None}


def _no_access_page() -> int:
    """One host page nobody may touch (PROT_NONE), standing in for device
    memory: a read by minarray would end the process."""
    libc = ctypes.CDLL(None)
    libc.mmap.restype = ctypes.c_void_p
    libc.mmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int, ctypes.c_int,
                          ctypes.c_long]
    addr = libc.mmap(None, 4096, 0, 0x22, -1, 0)  # PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS (Linux)
    if addr in (None, ctypes.c_void_p(-1).value):
        raise NotApplicable("cannot map a no-access page here")
    return int(addr)


class _FakeGpu:
    """A DLPack producer on kDLCUDA over a no-access page; its "device
    contents" reach the CPU only through its own dl_device copies."""

    def __init__(self) -> None:
        self.values = _values()
        self.page = _no_access_page()
        # (no owner: the page is never unmapped, and self as the owner would
        # make a cycle through C that the garbage collector cannot see)
        self.device = from_pointer(self.page, (2, 3), ma.float64, device=(DLDeviceType.CUDA, 0))
        self.calls: list[dict[str, Any]] = []

    def __dlpack__(self, **kw: Any) -> Any:
        self.calls.append(kw)
        if tuple(kw.get("dl_device") or ()) == (1, 0):
            return ma.from_numpy(self.values).__dlpack__(max_version=kw.get("max_version"), copy=True)
        return self.device.__dlpack__(stream=kw.get("stream"), max_version=kw.get("max_version"))

    def __dlpack_device__(self) -> Any:
        return (DLDeviceType.CUDA, 0)


def _asdlpack_sources() -> Iterator[tuple[str, Callable[[], Any], Any]]:
    np = _np()
    v = _values()
    yield "bytes", lambda: b"\x01\x02\x03", np.array([1, 2, 3], np.uint8)
    yield "bytearray", lambda: bytearray(b"\x01\x02"), np.array([1, 2], np.uint8)
    yield "memoryview", lambda: memoryview(array.array("d", [1.0, 2.0])), np.array([1.0, 2.0])
    yield "array.array", lambda: array.array("i", [4, 5]), np.array([4, 5], np.int32)
    m = mmap.mmap(-1, 4)
    m[:] = b"\x07\x08\x09\x0a"
    yield "mmap", lambda: m, np.array([7, 8, 9, 10], np.uint8)
    yield "NumPy array", lambda: v, v
    yield "__array_interface__ (v3)", lambda: _InterfaceOnly(v), v
    yield "__array_struct__ (v2)", lambda: _StructOnly(v), v
    yield "__dlpack__ object", lambda: ma.from_numpy(v), v
    yield "DLPack capsule", lambda: _numpy_capsule(v), v


def _numpy_capsule(v: Any) -> Any:
    """NumPy's own capsule of ``v``: versioned where NumPy makes one (2.1
    and later), legacy before (NumPy 2.0's ``__dlpack__`` takes only
    ``stream``)."""
    try:
        return v.__dlpack__(max_version=(1, 0))
    except TypeError:
        return v.__dlpack__()


def _m_asdlpack(make: Callable[[], Any], want: Any) -> None:
    np = _np()
    d = ma.asdlpack(make())
    got = np.from_dlpack(d)
    _expect(got.dtype == want.dtype and np.array_equal(got, want), f"got {got!r}")


def _m_asdlpack_cuda() -> None:
    page = _no_access_page()
    d = ma.asdlpack(_FakeCuda(page))
    _expect(d.__dlpack_device__() == (DLDeviceType.CUDA, 0), "device")
    m = _tensor(d.__dlpack__(max_version=(1, 0)))
    _expect(m.dl_tensor.data == page and m.dl_tensor.device.device_type == DLDeviceType.CUDA, "pointer/device")


def _m_from_numpy() -> None:
    np = _np()
    v = _values()
    a = ma.from_numpy(v)
    _expect(a.data_ptr == v.ctypes.data and a.flags.writeable, "view")
    v.flags.writeable = False
    _expect(not ma.from_numpy(v).flags.writeable, "read-only lost")
    c = ma.from_numpy(v, copy=True)
    _expect(c.data_ptr != v.ctypes.data and np.array_equal(np.asarray(c), v), "copy=True")


def _m_from_pointer() -> None:
    buf = (ctypes.c_double * 4)(1, 2, 3, 4)
    a = from_pointer(buf, (2, 2), ma.float64)
    _expect(a.data_ptr == ctypes.addressof(buf) and a.tolist() == [[1, 2], [3, 4]], "ctypes")
    c = ffi.new("double[]", [5.0, 6.0])
    _expect(from_pointer(c, (2,), ma.float64).tolist() == [5.0, 6.0], "cffi")
    page = _no_access_page()
    g = from_pointer(page, (8,), ma.float32, device=(DLDeviceType.CUDA, 0))
    _expect(g.device == "cuda:0" and g[2:].data_ptr == page + 8, "device pointer")


def _m_exchange_table() -> None:
    cap = type(ma.arange(1)).__dlpack_c_exchange_api__
    name, addr = core.dlpack_capsule_peek(cap)
    _expect(name == "dlpack_exchange_api", f"capsule {name!r}")
    api = ffi.cast("DLPackExchangeAPI *", addr)
    _expect((api.header.version.major, api.header.version.minor) == (1, 3), "version")
    for f in ("managed_tensor_allocator", "managed_tensor_from_py_object_no_sync",
              "managed_tensor_to_py_object_no_sync", "dltensor_from_py_object_no_sync", "current_work_stream"):
        _expect(getattr(api, f) != ffi.NULL, f"{f} is NULL")
    a = ma.arange(6.0)
    _expect(ma.from_dlpack(a).data_ptr == a.data_ptr, "minarray -> minarray through the table copied")


def _m_exchange_torch() -> None:
    if importlib.util.find_spec("torch") is None:
        raise NotApplicable("torch is not installed")
    import torch  # optional: PyTorch is not a dependency of minarray

    t = torch.arange(6.0)
    _expect(ma.from_dlpack(t).data_ptr == t.data_ptr(), "torch's table: copied")


def _m_device_arrays() -> None:
    g = _FakeGpu()
    d = ma.from_dlpack(g)
    _expect(d.device == "cuda:0" and d.data_ptr == g.page, "import")
    v = d[1, ::-1]
    _expect(v.data_ptr == g.page + 5 * 8 and v.T.shape == (3,), "views")
    try:
        v.sum()
    except RuntimeError as exc:
        _expect("cuda:0" in str(exc), str(exc))
    else:
        raise _Failed("computed on device memory")
    _tensor(v.__dlpack__(stream=7, max_version=(1, 0)))
    _expect(g.calls[-1].get("stream") == 7, f"the producer was asked with {g.calls[-1]}")
    np = _np()
    _expect(np.array_equal(np.asarray(v.to_device("cpu")), g.values[1, ::-1]), "to_device('cpu')")


def _minarray_rules() -> Iterator[tuple[str, Callable[[], None]]]:
    for kind, make, want in _asdlpack_sources():
        yield f"asdlpack: {kind}", functools.partial(_m_asdlpack, make, want)
    yield "asdlpack: CUDA array interface (pointer kept)", _m_asdlpack_cuda
    yield "from_numpy: view, read-only, copy=True", _m_from_numpy
    yield "from_pointer: ctypes, cffi, CUDA pointer", _m_from_pointer
    yield "exchange API: minarray's table, both ways", _m_exchange_table
    yield "exchange API: torch's table imported", _m_exchange_torch
    yield "device arrays (fake CUDA producer)", _m_device_arrays


# ---- running ---------------------------------------------------------------------------------

def _outcome(rule: str, library: str, fn: Callable[[], None]) -> Outcome:
    try:
        fn()
    except NotApplicable as exc:
        return Outcome(rule, library, "n/a", str(exc))
    except _Failed as exc:
        return Outcome(rule, library, "FAIL", _line(str(exc)))
    except Exception as exc:  # a library's failure is reported, the next rule runs
        return Outcome(rule, library, "FAIL", _line(f"{type(exc).__name__}: {exc}"))
    return Outcome(rule, library, "ok")


def _line(text: str) -> str:
    """The first line of a message, at most 160 characters (PyTorch's
    dispatcher errors run to pages)."""
    first = text.strip().splitlines()[0] if text.strip() else text
    return first if len(first) <= 160 else first[:157] + "..."


def run(libs: Sequence[Peer] | None = None) -> list[Outcome]:
    """Every rule for every library, then minarray's own rules."""
    libs = list(libs) if libs is not None else peers()
    out: list[Outcome] = []
    for rule, check in {**PRODUCER_RULES, **CONSUMER_RULES}.items():
        for p in libs:
            out.append(_outcome(rule, p.name, functools.partial(check, p)))
    for rule, fn in _minarray_rules():
        out.append(_outcome(rule, "minarray", fn))
    gc.collect()
    return out


def table(outcomes: Sequence[Outcome]) -> str:
    """Rules down, libraries across."""
    libs: list[str] = []
    rules: list[str] = []
    cells: dict[tuple[str, str], str] = {}
    for o in outcomes:
        if o.library not in libs:
            libs.append(o.library)
        if o.rule not in rules:
            rules.append(o.rule)
        cells[o.rule, o.library] = o.status
    width = max(len(r) for r in rules)
    cols = [max(len(n), 4) for n in libs]
    head = "rule".ljust(width) + " | " + " | ".join(n.ljust(w) for n, w in zip(libs, cols, strict=True))
    lines = [head, "-" * len(head)]
    for r in rules:
        lines.append(r.ljust(width) + " | " + " | ".join(cells.get((r, n), "").ljust(w)
                                                         for n, w in zip(libs, cols, strict=True)))
    return "\n".join(lines)
