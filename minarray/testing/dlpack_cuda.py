"""DLPack checks on a real CUDA device: ``python -m minarray.testing.dlpack --cuda``.

minarray never reads device memory; these checks prove, on a GPU, that a
CUDA tensor is carried with its own pointer, viewed without a read,
refused to kernels, handed on to consumers through its producer with the
consumer's stream, and copied to the CPU by its producer.  Two sources of
device memory, whichever the machine has:

* PyTorch built with CUDA: CUDA tensors as producers and
  ``torch.from_dlpack`` as the consumer (and the tensor's
  ``__cuda_array_interface__`` behind a plain class, for ``asdlpack``);
* the CUDA driver alone (``libcuda.so.1`` through ctypes): memory from
  ``cuMemAlloc``, wrapped by ``from_pointer(..., device=(CUDA, 0))``, by a
  CUDA array interface object and by a small DLPack producer, with values
  checked by ``cuMemcpyDtoH``;
* round trips through other GPU libraries, when a CUDA device is there:
  JAX → minarray → JAX (a JAX GPU array comes in read-only, in a legacy
  capsule, and goes back through JAX itself) and, with PyTorch, torch →
  minarray → CuPy → minarray → torch; each hop checks the pointer and
  the library's own copy of the values (:func:`jax_round_trip`,
  :func:`chain_round_trip`).  A library that is missing or sees no GPU is
  a skipped row that says so.

Prints one line per check and exits 1 if any failed; 0 with a message
when there is no CUDA device at all.  Needs NumPy; PyTorch, JAX and CuPy
are optional.
"""

from __future__ import annotations

import ctypes
import gc
import sys
import traceback
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import minarray as ma
from minarray import _cuda
from minarray.dlpack import DLDeviceType, DLPackFlags, describe, from_pointer

__all__ = ["Check", "GpuLibrary", "run", "main", "torch_cuda", "driver_device", "jax_gpu", "cupy_cuda",
           "jax_round_trip", "chain_round_trip"]


@dataclass(frozen=True)
class Check:
    source: str  # "torch" or "driver"
    name: str
    status: str  # "ok", "FAIL" or "skip"
    detail: str = ""


class _Failed(Exception):
    pass


class _Skipped(Exception):
    """A check that cannot run on this machine; the message says why."""


def _expect(cond: bool, what: str) -> None:
    if not cond:
        raise _Failed(what)


def _raises(fn: Callable[[], Any], exc: type[BaseException], text: str) -> None:
    try:
        fn()
    except exc as e:
        _expect(text in str(e), f"{type(e).__name__} without {text!r}: {e}")
        return
    raise _Failed(f"no {exc.__name__} raised")


def torch_cuda() -> Any:
    """torch, when it is installed with CUDA and sees a device; else None."""
    try:
        import torch  # optional: PyTorch is not a dependency of minarray
    except ImportError:
        return None
    try:
        return torch if torch.cuda.is_available() and torch.cuda.device_count() > 0 else None
    except Exception:
        return None


def driver_device() -> bool:
    """Whether the CUDA driver is loaded and reports a device."""
    lib = _cuda.driver()
    if lib is None:
        return False
    n = ctypes.c_int(0)
    return lib.cuDeviceGetCount(ctypes.byref(n)) == 0 and n.value > 0


def jax_gpu() -> Any:
    """jax, when it is installed and sees a GPU; else None."""
    try:
        import jax  # optional: JAX is not a dependency of minarray
    except ImportError:
        return None
    try:
        return jax if jax.devices("gpu") else None
    except Exception:  # no GPU backend: RuntimeError, or a plugin that fails to load
        return None


def cupy_cuda() -> Any:
    """cupy, when it is installed and sees a CUDA device; else None."""
    try:
        import cupy  # optional: CuPy is not a dependency of minarray
    except ImportError:
        return None
    try:
        return cupy if cupy.cuda.runtime.getDeviceCount() > 0 else None
    except Exception:  # no driver, or a CuPy built for another CUDA
        return None


# ---- round trips through other libraries -----------------------------------------------

@dataclass(frozen=True)
class GpuLibrary:
    """What a round trip needs of a GPU array library: its DLPack
    consumer, the device pointer of one of its arrays, and a host copy of
    an array's values, made by the library itself (minarray never reads
    device memory)."""

    name: str
    from_dlpack: Callable[[Any], Any]
    pointer: Callable[[Any], int]
    to_numpy: Callable[[Any], Any]


def _same_values(got: Any, want: Any, what: str) -> None:
    np = _numpy()
    _expect(got.shape == want.shape and bool(np.array_equal(got, want)), f"{what}: {got!r}, expected {want!r}")


def jax_round_trip(jax: GpuLibrary, a: Any) -> None:
    """JAX → minarray → JAX.  JAX exports its GPU arrays in legacy capsules,
    so ``a`` comes in read-only; JAX asks only for legacy capsules, so the
    way back is a read-only device array's legacy export, which minarray
    passes on to JAX itself.  Both ways on ``a``'s own memory, with its
    values; ``to_device('cpu')`` (JAX's copy) too."""
    ptr, ref = jax.pointer(a), jax.to_numpy(a)
    d = ma.from_dlpack(a)
    _expect(d.__dlpack_device__()[0] == DLDeviceType.CUDA, f"device {d.device}")
    _expect(d.data_ptr == ptr, f"minarray got pointer {d.data_ptr:#x}, {jax.name}'s is {ptr:#x}")
    _expect(not d.flags.writeable, "an array from a legacy capsule imported writable")
    back = jax.from_dlpack(d)
    _expect(jax.pointer(back) == ptr, f"{jax.name} got pointer {jax.pointer(back):#x} back, not {ptr:#x}")
    _same_values(jax.to_numpy(back), ref, f"{jax.name}'s values after the round trip")
    _same_values(_numpy().asarray(d.to_device("cpu")), ref, "to_device('cpu')")


def chain_round_trip(first: GpuLibrary, a: Any, second: GpuLibrary, key: Any = ()) -> None:
    """first → minarray → second → minarray → first (torch → minarray →
    CuPy and back), the hop to ``second`` on the view ``key`` of ``a``:
    every hop on ``a``'s own memory, each library's copy of the values
    checked."""
    ptr, ref = first.pointer(a), first.to_numpy(a)
    d = ma.from_dlpack(a)
    _expect(d.data_ptr == ptr, f"minarray got pointer {d.data_ptr:#x}, {first.name}'s is {ptr:#x}")
    v = d[key]
    b = second.from_dlpack(v)
    _expect(second.pointer(b) == v.data_ptr, f"{second.name} got pointer {second.pointer(b):#x}, "
                                             f"not minarray's {v.data_ptr:#x}")
    _same_values(second.to_numpy(b), ref[key], f"{second.name}'s values")
    e = ma.from_dlpack(b)
    _expect(e.device == d.device and e.data_ptr == v.data_ptr,
            f"minarray got {e.device} {e.data_ptr:#x} from {second.name}, not {d.device} {v.data_ptr:#x}")
    c = first.from_dlpack(e)
    _expect(first.pointer(c) == v.data_ptr, f"{first.name} got pointer {first.pointer(c):#x} back, "
                                            f"not {v.data_ptr:#x}")
    _same_values(first.to_numpy(c), ref[key], f"{first.name}'s values after the round trip")


def _jax_library(jax: Any) -> GpuLibrary:
    return GpuLibrary("jax", jax.numpy.from_dlpack, lambda x: int(x.unsafe_buffer_pointer()), _numpy().asarray)


def _torch_library(torch: Any) -> GpuLibrary:
    return GpuLibrary("torch", torch.from_dlpack, lambda t: int(t.data_ptr()), lambda t: t.cpu().numpy())


def _cupy_library(cupy: Any) -> GpuLibrary:
    return GpuLibrary("cupy", cupy.from_dlpack, lambda c: int(c.data.ptr), cupy.asnumpy)


def _jax_checks(jax: Any) -> Iterator[tuple[str, Callable[[], None]]]:
    def round_trip() -> None:
        a = jax.device_put(jax.numpy.arange(24, dtype=jax.numpy.float32).reshape(4, 6), jax.devices("gpu")[0])
        jax_round_trip(_jax_library(jax), a)

    yield "JAX -> minarray -> JAX (read-only, legacy)", round_trip


def _cupy_checks(torch: Any, cupy: Any) -> Iterator[tuple[str, Callable[[], None]]]:
    def round_trip() -> None:
        if torch is None:
            raise _Skipped("needs PyTorch with CUDA, the first library of the chain")
        t = torch.arange(24, dtype=torch.float32, device="cuda").reshape(4, 6)
        chain_round_trip(_torch_library(torch), t, _cupy_library(cupy))
        chain_round_trip(_torch_library(torch), t, _cupy_library(cupy), (slice(1, None), slice(None, None, 2)))

    yield "torch -> minarray -> CuPy -> minarray -> torch", round_trip


# ---- PyTorch -------------------------------------------------------------------------

class _Recording:
    """A DLPack producer forwarding to a torch tensor, recording every
    ``__dlpack__`` call's keywords (to see the stream minarray passes on)."""

    def __init__(self, t: Any) -> None:
        self.t = t
        self.calls: list[dict[str, Any]] = []

    def __dlpack__(self, **kw: Any) -> Any:
        self.calls.append(kw)
        return self.t.__dlpack__(**kw)

    def __dlpack_device__(self) -> Any:
        return self.t.__dlpack_device__()


class _CaiOnly:
    """Nothing but a torch CUDA tensor's ``__cuda_array_interface__``."""

    def __init__(self, t: Any) -> None:
        self.t = t

    @property
    def __cuda_array_interface__(self) -> Any:
        return self.t.__cuda_array_interface__


def _torch_checks(torch: Any) -> Iterator[tuple[str, Callable[[], None]]]:
    np = _numpy()
    t = torch.arange(24, dtype=torch.float32, device="cuda").reshape(4, 6)
    ref = t.cpu().numpy()

    def imported() -> None:
        d = ma.from_dlpack(t)  # through torch's C exchange API
        _expect(d.device == "cuda:0", f"device {d.device}")
        _expect(d.__dlpack_device__() == (DLDeviceType.CUDA, t.device.index or 0), "dlpack device")
        _expect(d.data_ptr == t.data_ptr(), f"pointer {d.data_ptr:#x} != {t.data_ptr():#x}")
        _expect(d.shape == (4, 6) and d.dtype is ma.float32, "shape/dtype")

    def views() -> None:
        d = ma.from_dlpack(t)
        v = d[1:, ::2]
        _expect(v.data_ptr == t[1:, ::2].data_ptr(), "slice pointer")
        _expect(v.strides == (24, 8), f"strides {v.strides}")
        _expect(v.T.shape == (3, 3) and d.reshape(24).shape == (24,), "T/reshape")
        m = describe(v).tensor
        _expect(m is not None and m.dl_tensor.data == v.data_ptr, "describe")

    def refused() -> None:
        d = ma.from_dlpack(t)
        _raises(lambda: d.sum(), RuntimeError, "cuda:0")
        _raises(lambda: d[0, 0].item(), RuntimeError, "cuda:0")
        _raises(lambda: np.asarray(d), RuntimeError, "cuda:0")

    def reexport_default_stream() -> None:
        rec = _Recording(t)
        v = ma.from_dlpack(rec)[1:, ::2]
        r = torch.from_dlpack(v)
        _expect(r.is_cuda and r.data_ptr() == t[1:, ::2].data_ptr(), "torch got another pointer")
        _expect(bool(torch.equal(r, t[1:, ::2])), "values differ")
        stream = rec.calls[-1].get("stream")
        _expect(stream in (1, 0, None) or stream == torch.cuda.current_stream().cuda_stream,
                f"producer asked with stream {stream!r}")

    def reexport_side_stream() -> None:
        rec = _Recording(t)
        d = ma.from_dlpack(rec)
        s = torch.cuda.Stream()
        with torch.cuda.stream(s):
            r = torch.from_dlpack(d[2])
            r2 = r * 2  # work on the consumer's stream
        torch.cuda.synchronize()
        asked = rec.calls[-1].get("stream")
        _expect(asked == s.cuda_stream, f"producer asked with stream {asked!r}, consumer's is {s.cuda_stream:#x}")
        np.testing.assert_array_equal(r2.cpu().numpy(), ref[2] * 2)

    def to_cpu() -> None:
        rec = _Recording(t)
        v = ma.from_dlpack(rec)[1:, ::-2]
        c = v.to_device("cpu")
        np.testing.assert_array_equal(np.asarray(c), ref[1:, ::-2])
        _expect(any(tuple(k.get("dl_device") or ()) == (1, 0) for k in rec.calls), "dl_device not asked")

    def device_cpu_import() -> None:
        c = ma.from_dlpack(t, device="cpu")
        _expect(c.device == "cpu", c.device)
        np.testing.assert_array_equal(np.asarray(c), ref)

    def cpu_export() -> None:
        cap = ma.from_dlpack(t).__dlpack__(max_version=(1, 0), dl_device=(1, 0))
        m = describe(cap).tensor
        _expect(m is not None and m.flags == DLPackFlags.IS_COPIED, "IS_COPIED")
        np.testing.assert_array_equal(np.asarray(ma.from_dlpack(cap)), ref)

    def cuda_array_interface() -> None:
        obj = _CaiOnly(t)
        d = ma.asdlpack(obj)
        _expect(d.__dlpack_device__() == (DLDeviceType.CUDA, t.device.index or 0), "device")
        s = torch.cuda.Stream()
        with torch.cuda.stream(s):
            r = torch.from_dlpack(d)  # waits on the interface's stream, on s
        torch.cuda.synchronize()
        _expect(r.data_ptr() == t.data_ptr(), "pointer")
        _expect(bool(torch.equal(r, t)), "values")

    def from_pointer_wrap() -> None:
        d = from_pointer(t.data_ptr(), (4, 6), ma.float32, device=(DLDeviceType.CUDA, 0), owner=t)
        r = torch.from_dlpack(d[:, 3:])
        _expect(r.data_ptr() == t[:, 3:].data_ptr() and bool(torch.equal(r, t[:, 3:])), "from_pointer")

    def released() -> None:
        gc.collect()
        live = ma.allocator_stats()["live_foreign"]
        u = torch.ones(1 << 20, device="cuda")
        before = torch.cuda.memory_allocated()
        d = ma.from_dlpack(u)
        r = torch.from_dlpack(d[10:])
        del u
        gc.collect()
        _expect(torch.cuda.memory_allocated() == before, "freed while minarray holds it")
        del d
        gc.collect()
        _expect(torch.cuda.memory_allocated() == before, "freed while torch's re-import holds it")
        del r
        gc.collect()
        _expect(torch.cuda.memory_allocated() < before, "the tensor was never released")
        _expect(ma.allocator_stats()["live_foreign"] == live, "minarray still holds a foreign buffer")

    def float8() -> None:
        f8 = t.to(torch.float8_e4m3fn)  # a storage type, carried on the device
        d = ma.from_dlpack(f8)
        _expect(d.dtype is ma.float8_e4m3fn and d.data_ptr == f8.data_ptr(), "float8 import")
        v = d[1:, ::2]
        r = torch.from_dlpack(v)
        _expect(r.dtype == torch.float8_e4m3fn and r.data_ptr() == f8[1:, ::2].data_ptr(), "float8 re-export")
        _expect(bool(torch.equal(r.float(), f8[1:, ::2].float())), "float8 values")
        c = ma.from_dlpack(f8, device="cpu")  # the producer copies to the CPU
        np.testing.assert_array_equal(np.asarray(c.astype(ma.float32)), f8.float().cpu().numpy())

    yield from [("import: same pointer", imported), ("metadata views", views), ("reads refused", refused),
                ("re-export: default stream", reexport_default_stream),
                ("re-export: consumer's side stream", reexport_side_stream),
                ("to_device('cpu') via dl_device", to_cpu), ("from_dlpack(device='cpu')", device_cpu_import),
                ("__dlpack__(dl_device=CPU)", cpu_export), ("asdlpack(CUDA array interface)", cuda_array_interface),
                ("from_pointer(device=CUDA)", from_pointer_wrap), ("float8_e4m3fn on the device", float8),
                ("deleters: nothing freed early or leaked", released)]


# ---- the CUDA driver alone --------------------------------------------------------------

class _DeviceMemory:
    """``cuMemAlloc``'d memory, freed when this object dies (``freed`` says so)."""

    def __init__(self, lib: Any, nbytes: int) -> None:
        self.lib = lib
        p = ctypes.c_ulonglong()
        _cuda.check(lib.cuMemAlloc_v2(ctypes.byref(p), ctypes.c_size_t(nbytes)), "cuMemAlloc")
        self.ptr = p.value
        self.nbytes = nbytes
        self.freed = [False]

    def upload(self, arr: Any) -> None:
        _cuda.check(self.lib.cuMemcpyHtoD_v2(ctypes.c_ulonglong(self.ptr), ctypes.c_void_p(arr.ctypes.data),
                                             ctypes.c_size_t(arr.nbytes)), "cuMemcpyHtoD")

    def download(self, ptr: int, out: Any) -> Any:
        _cuda.check(self.lib.cuMemcpyDtoH_v2(ctypes.c_void_p(out.ctypes.data), ctypes.c_ulonglong(ptr),
                                             ctypes.c_size_t(out.nbytes)), "cuMemcpyDtoH")
        return out

    def __del__(self) -> None:
        self.lib.cuMemFree_v2(ctypes.c_ulonglong(self.ptr))
        self.freed[0] = True


class _DriverProducer:
    """A minimal DLPack producer over ``cuMemAlloc`` memory: it exports its
    own device tensor (minarray's from_pointer does the struct), and copies
    to the CPU with ``cuMemcpyDtoH`` when asked for ``dl_device=(1, 0)``."""

    def __init__(self, mem: _DeviceMemory, shape: tuple[int, ...]) -> None:
        self.mem = mem
        self.shape = shape
        self.calls: list[dict[str, Any]] = []
        self.tensor = from_pointer(mem.ptr, shape, ma.float32, device=(DLDeviceType.CUDA, 0), owner=mem)

    def __dlpack__(self, *, stream: Any = None, max_version: Any = None, dl_device: Any = None,
                   copy: Any = None) -> Any:
        self.calls.append({"stream": stream, "max_version": max_version, "dl_device": dl_device, "copy": copy})
        if dl_device is not None and tuple(dl_device) == (1, 0):
            np = _numpy()
            host = self.mem.download(self.mem.ptr, np.empty(self.shape, np.float32))
            return ma.from_numpy(host).__dlpack__(max_version=max_version, copy=True)
        return self.tensor.__dlpack__(stream=stream, max_version=max_version, dl_device=dl_device, copy=copy)

    def __dlpack_device__(self) -> Any:
        return (DLDeviceType.CUDA, 0)


class _Cai:
    def __init__(self, ptr: int, shape: tuple[int, ...], stream: int | None) -> None:
        self.__cuda_array_interface__ = {"shape": shape, "typestr": "<f4", "data": (ptr, False), "version": 3,
                                         "strides": None, "stream": stream}


def _driver_checks() -> Iterator[tuple[str, Callable[[], None]]]:
    np = _numpy()
    lib = _cuda.driver()
    dev = ctypes.c_int()
    ctx = ctypes.c_void_p()
    _cuda.check(lib.cuDeviceGet(ctypes.byref(dev), 0), "cuDeviceGet")
    _cuda.check(lib.cuDevicePrimaryCtxRetain(ctypes.byref(ctx), dev), "cuDevicePrimaryCtxRetain")
    _cuda.check(lib.cuCtxSetCurrent(ctx), "cuCtxSetCurrent")
    ref = np.arange(24, dtype=np.float32).reshape(4, 6)
    state: dict[str, Any] = {}

    def wrapped() -> None:
        mem = _DeviceMemory(lib, ref.nbytes)
        mem.upload(ref)
        d = from_pointer(mem.ptr, (4, 6), ma.float32, device=(DLDeviceType.CUDA, 0), owner=mem)
        _expect(d.device == "cuda:0" and d.data_ptr == mem.ptr, "pointer/device")
        _expect(_cuda.pointer_device(mem.ptr) == 0, "cuPointerGetAttribute does not know the pointer")
        state["mem"], state["d"] = mem, d

    def views() -> None:
        mem, d = state["mem"], state["d"]
        v = d[1:, ::2]
        _expect(v.data_ptr == mem.ptr + 6 * 4 and v.strides == (24, 8), "slice")
        row = d.T.T[2]
        np.testing.assert_array_equal(mem.download(row.data_ptr, np.empty(6, np.float32)), ref[2])

    def refused() -> None:
        d = state["d"]
        _raises(lambda: d + 1, RuntimeError, "cuda:0")
        _raises(lambda: d.tolist(), RuntimeError, "cuda:0")
        _raises(lambda: d.to_device("cpu"), BufferError, "no DLPack producer")

    def reexport() -> None:
        mem, d = state["mem"], state["d"]
        cap = d[3].__dlpack__(stream=1, max_version=(1, 0))
        m = describe(cap).tensor
        _expect(m is not None and m.dl_tensor.data == mem.ptr + 18 * 4, "exported pointer")
        _expect(m is not None and m.dl_tensor.device.device_type == DLDeviceType.CUDA, "exported device")
        r = ma.from_dlpack(cap)
        _expect(r.device == "cuda:0" and r.data_ptr == mem.ptr + 18 * 4, "re-import")
        np.testing.assert_array_equal(mem.download(r.data_ptr, np.empty(6, np.float32)), ref[3])

    def producer_to_cpu() -> None:
        mem = _DeviceMemory(lib, ref.nbytes)
        mem.upload(ref)
        p = _DriverProducer(mem, (4, 6))
        d = ma.from_dlpack(p)
        _expect(d.data_ptr == mem.ptr and d.device == "cuda:0", "import")
        v = d[1:, ::-2]
        cap = v.__dlpack__(stream=2, max_version=(1, 3))
        _expect(p.calls[-1]["stream"] == 2, f"the producer was asked with {p.calls[-1]}")
        _expect(describe(cap).tensor is not None, "re-export")
        np.testing.assert_array_equal(np.asarray(v.to_device("cpu")), ref[1:, ::-2])
        _expect(any(c["dl_device"] == (1, 0) for c in p.calls), "dl_device not asked")

    def cuda_array_interface() -> None:
        mem = state["mem"]
        s = ctypes.c_void_p()
        _cuda.check(lib.cuStreamCreate(ctypes.byref(s), 1), "cuStreamCreate")  # CU_STREAM_NON_BLOCKING
        obj = _Cai(mem.ptr, (4, 6), s.value)
        d = ma.asdlpack(obj)
        for consumer in (None, 2, s.value, -1):  # legacy, per-thread, the same stream, no sync
            m = describe(d.__dlpack__(stream=consumer, max_version=(1, 0))).tensor
            _expect(m is not None and m.dl_tensor.data == mem.ptr, f"pointer (consumer stream {consumer})")
        _expect(ma.from_dlpack(d).data_ptr == mem.ptr, "from_dlpack")
        _cuda.check(lib.cuStreamSynchronize(s), "cuStreamSynchronize")
        lib.cuStreamDestroy_v2(s)

    def released() -> None:
        freed = state["mem"].freed
        del state["d"], state["mem"]
        gc.collect()
        _expect(freed[0], "the owner of the device memory was never released")

    yield from [("from_pointer(device=CUDA): same pointer", wrapped), ("metadata views", views),
                ("reads refused", refused), ("re-export of a view", reexport),
                ("producer: stream passed on, to_device via dl_device", producer_to_cpu),
                ("asdlpack(CUDA array interface): stream waits", cuda_array_interface),
                ("owner released with the last view", released)]


# ---- running ------------------------------------------------------------------------------

def _numpy() -> Any:
    import numpy as np  # optional: NumPy is not a dependency of minarray

    return np


def _run_checks(source: str, checks: Iterator[tuple[str, Callable[[], None]]]) -> Iterator[Check]:
    try:
        for name, fn in checks:
            try:
                fn()
            except _Skipped as why:
                yield Check(source, name, "skip", str(why))
            except Exception as exc:  # a check's failure is reported, the next one runs
                where = traceback.extract_tb(exc.__traceback__)[-1]
                yield Check(source, name, "FAIL", f"{type(exc).__name__}: {exc} (line {where.lineno})")
            else:
                yield Check(source, name, "ok")
    except Exception as exc:  # the setup failed
        yield Check(source, "setup", "FAIL", f"{type(exc).__name__}: {exc}")


def _source(source: str, found: Any, checks: Callable[[Any], Iterator[tuple[str, Callable[[], None]]]],
            name: str, why: str) -> list[Check]:
    """The checks of one source, given what was found of it; one skipped
    row saying why when nothing was (None or False)."""
    if found is None or found is False:
        return [Check(source, name, "skip", why)]
    return list(_run_checks(source, checks(found)))


def run() -> list[Check]:
    """Every check the machine can run (none without a CUDA device)."""
    torch = torch_cuda()
    driver = driver_device()
    out = _source("torch", torch, _torch_checks, "PyTorch with CUDA",
                  "torch is not installed with CUDA, or sees no GPU")
    out += _source("driver", driver, lambda _: _driver_checks(), "CUDA driver",
                   "libcuda.so.1 is not loadable or reports no device")
    if torch is None and not driver:
        return out  # no CUDA device: nothing for the other libraries to share
    out += _source("jax", jax_gpu(), _jax_checks, "JAX -> minarray -> JAX", "JAX is not installed or sees no GPU")
    out += _source("cupy", cupy_cuda(), lambda cupy: _cupy_checks(torch, cupy), "torch -> minarray -> CuPy",
                   "CuPy is not importable or sees no GPU")
    return out


def main() -> int:
    """Run the CUDA checks, print the table; 1 if any failed."""
    if torch_cuda() is None and not driver_device():
        print("DLPack CUDA checks: skipped, no CUDA device (neither PyTorch with CUDA nor the CUDA driver "
              "sees a GPU)")
        return 0
    results = run()
    width = max(len(r.name) for r in results)
    print(f"DLPack CUDA checks: minarray {ma.__version__}")
    print(f"{'source':8} | {'check'.ljust(width)} | result")
    print("-" * (width + 22))
    for r in results:
        print(f"{r.source:8} | {r.name.ljust(width)} | {r.status}" + (f"  {r.detail}" if r.detail else ""))
    fails = sum(r.status == "FAIL" for r in results)
    print(f"{sum(r.status == 'ok' for r in results)} passed, {fails} failed, "
          f"{sum(r.status == 'skip' for r in results)} skipped")
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
