"""A hand-made DLPack producer for the tests: every field of the managed
tensor is set explicitly (so tests can break any of them), the memory is a
NumPy array kept alive here, and the deleter counts its calls.

The struct is built with cffi (minarray's ffi knows the DLPack structs) and
wrapped in a capsule through ctypes.pythonapi, with a capsule destructor
that frees an unconsumed tensor, as the spec asks of producers.
"""

from __future__ import annotations

import ctypes
import threading
from typing import Any

from minarray._native import ffi

_PyCapsule_New = ctypes.PYFUNCTYPE(ctypes.py_object, ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p)(
    ("PyCapsule_New", ctypes.pythonapi))
# The destructor receives a capsule whose reference count is already 0: it
# must be passed around as a raw address, never as a py_object (which would
# revive it and free it twice).  Private function pointers, so the argtypes
# set here do not leak into other users of ctypes.pythonapi.
_PyCapsule_GetName = ctypes.CFUNCTYPE(ctypes.c_char_p, ctypes.c_void_p)(("PyCapsule_GetName", ctypes.pythonapi))
_PyCapsule_GetPointer = ctypes.CFUNCTYPE(ctypes.c_void_p, ctypes.c_void_p, ctypes.c_char_p)(
    ("PyCapsule_GetPointer", ctypes.pythonapi))

# Capsule names must outlive the capsules: module-level bytes.
NAMES = {True: b"dltensor_versioned", False: b"dltensor"}

_DESTRUCTOR = ctypes.CFUNCTYPE(None, ctypes.c_void_p)

_NP_CODES = {"b": 6, "i": 0, "u": 1, "f": 2, "c": 5}
_IS_COPIED = 1 << 1  # DLPACK_FLAG_BITMASK_IS_COPIED (dlpack.h)

# A real producer's struct outlives the Python objects that made it; here
# each Producer stays alive until its deleter has run.
_LIVE: set[Producer] = set()


class Producer:
    """One managed tensor over ``arr``; ``capsule()`` wraps it once.

    Keyword arguments override fields: ``version``, ``flags``, ``device``,
    ``dtype`` ((code, bits, lanes)), ``ndim``, ``shape``/``strides`` (a
    tuple, or None for NULL), ``byte_offset``, ``data`` (an int address)."""

    def __init__(self, arr: Any, *, versioned: bool = True, **fields: Any) -> None:
        self.arr = arr
        self.versioned = versioned
        self.deleted = 0
        self.delete_threads: list[int] = []
        self._lock = threading.Lock()
        kind = "DLManagedTensorVersioned" if versioned else "DLManagedTensor"
        self.struct = ffi.new(kind + " *")
        m = self.struct
        t = m.dl_tensor
        item = arr.dtype.itemsize
        shape = fields.get("shape", tuple(arr.shape))
        strides = fields.get("strides", tuple(s // item for s in arr.strides))
        self._shape = ffi.new("int64_t[]", list(shape)) if shape is not None else ffi.NULL
        self._strides = ffi.new("int64_t[]", list(strides)) if strides is not None else ffi.NULL
        t.data = ffi.cast("void *", fields.get("data", arr.__array_interface__["data"][0]))
        t.device.device_type, t.device.device_id = fields.get("device", (1, 0))
        t.ndim = fields.get("ndim", arr.ndim)
        code, bits, lanes = fields.get("dtype", (_NP_CODES[arr.dtype.kind], item * 8, 1))
        t.dtype.code, t.dtype.bits, t.dtype.lanes = code, bits, lanes
        t.shape = self._shape
        t.strides = self._strides
        t.byte_offset = fields.get("byte_offset", 0)
        if versioned:
            m.version.major, m.version.minor = fields.get("version", (1, 3))
            m.flags = fields.get("flags", 0)
            self._deleter = ffi.callback("void(DLManagedTensorVersioned *)", self._on_delete)
        else:
            self._deleter = ffi.callback("void(DLManagedTensor *)", self._on_delete)
        m.deleter = self._deleter
        self._destructor = _DESTRUCTOR(self._on_capsule_death)
        _LIVE.add(self)

    @property
    def address(self) -> int:
        return int(ffi.cast("uintptr_t", self.struct))

    def _on_delete(self, ptr: Any) -> None:
        assert int(ffi.cast("uintptr_t", ptr)) == self.address, "deleter called with a foreign pointer"
        with self._lock:
            self.deleted += 1
            self.delete_threads.append(threading.get_ident())
            _LIVE.discard(self)

    def _on_capsule_death(self, cap: int) -> None:
        # The spec's producer destructor: an unconsumed capsule frees its tensor.
        name = _PyCapsule_GetName(cap)
        if name == NAMES[self.versioned]:
            self._on_delete(ffi.cast("void *", _PyCapsule_GetPointer(cap, name)))

    def capsule(self) -> Any:
        return _PyCapsule_New(self.address, NAMES[self.versioned], ctypes.cast(self._destructor, ctypes.c_void_p))


class Recorder:
    """An object with ``__dlpack__`` that records the keywords it was asked
    with and answers with a versioned export of ``arr`` (of a copy, flagged
    IS_COPIED, for ``copy=True``), made here so that it does not depend on
    the NumPy installed (NumPy 2.0 exports legacy capsules only)."""

    def __init__(self, arr: Any, device: tuple[int, int] = (1, 0)) -> None:
        self.arr = arr
        self.device = device
        self.calls: list[dict[str, Any]] = []

    def __dlpack__(self, **kwargs: Any) -> Any:
        self.calls.append(kwargs)
        dl_device = kwargs.get("dl_device")
        if self.device != (1, 0) and dl_device != (1, 0):
            return Producer(self.arr, device=self.device).capsule()
        if kwargs.get("copy"):
            return Producer(self.arr.copy(), flags=_IS_COPIED).capsule()
        return Producer(self.arr).capsule()

    def __dlpack_device__(self) -> tuple[int, int]:
        return self.device


class OldProducer:
    """A producer from before DLPack 1.0: ``__dlpack__(stream=None)`` only."""

    def __init__(self, arr: Any, device: tuple[int, int] = (1, 0)) -> None:
        self.arr = arr
        self.device = device
        self.calls = 0

    def __dlpack__(self, stream: Any = None) -> Any:
        self.calls += 1
        return self.arr.__dlpack__()

    def __dlpack_device__(self) -> tuple[int, int]:
        return self.device


# ---- a producer on a device minarray cannot read --------------------------------

_libc = ctypes.CDLL(None, use_errno=True)
_libc.mmap.restype = ctypes.c_void_p
_libc.mmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_long]
_PROT_NONE, _MAP_PRIVATE_ANONYMOUS = 0, 0x22


def no_access_memory(nbytes: int) -> int:
    """Host pages nobody may read or write (PROT_NONE): stand-in device
    memory.  Any read by minarray would kill the process, so a test that
    passes proves minarray never touched it.  Never unmapped (a few pages
    per test)."""
    addr = _libc.mmap(None, max(nbytes, 1), _PROT_NONE, _MAP_PRIVATE_ANONYMOUS, -1, 0)
    if addr in (None, ctypes.c_void_p(-1).value):
        raise OSError(ctypes.get_errno(), "mmap failed")
    return int(addr)


class DeviceProducer:
    """A DLPack producer on kDLCUDA (or any ``device``) as a GPU library is
    one: its tensor's memory is ``no_access_memory`` (what a CUDA pointer is
    to the CPU), its values live in ``values`` (NumPy, the "device
    contents") and reach the CPU only through its own copies
    (``__dlpack__(dl_device=(1, 0))``).  Every capsule handed out is a
    :class:`Producer` kept in ``exported`` (its ``deleted`` counts deleter
    calls); ``calls`` records the keywords of every ``__dlpack__`` call.

    ``legacy``: it exports legacy capsules only (as JAX); ``versioned``: it
    exports versioned ones whatever it is asked; ``refuse_legacy``: a legacy
    request on the device raises BufferError.  ``fields`` override fields of
    its device tensor and of its copies (``dtype=(4, 16, 1)`` over uint16
    values: bfloat16), ``copy_fields`` of its CPU copies only (a broken
    copy).  ``memory``: the stand-in device memory it exports (another
    producer's, for a view of it), fresh pages when None."""

    def __init__(self, values: Any, device: tuple[int, int] = (2, 0), *, flags: int = 0,
                 legacy: bool = False, versioned: bool = False, refuse_legacy: bool = False,
                 fields: dict[str, Any] | None = None, copy_fields: dict[str, Any] | None = None,
                 memory: int | None = None) -> None:
        self.values = values
        self.device = device
        self.flags = flags
        self.legacy = legacy
        self.versioned = versioned
        self.refuse_legacy = refuse_legacy
        self.fields = fields or {}
        self.copy_fields = {**self.fields, **(copy_fields or {})}
        item = values.dtype.itemsize
        span = sum((n - 1) * s for n, s in zip(values.shape, values.strides, strict=True)) + item
        assert all(s >= 0 for s in values.strides)
        self.memory = no_access_memory(span) if memory is None else memory
        self.calls: list[dict[str, Any]] = []
        self.exported: list[Producer] = []
        self.copies: list[Producer] = []

    def __dlpack__(self, *, stream: Any = None, max_version: Any = None, dl_device: Any = None,
                   copy: Any = None) -> Any:
        self.calls.append({"stream": stream, "max_version": max_version, "dl_device": dl_device, "copy": copy})
        asked_versioned = max_version is not None and max_version[0] >= 1
        versioned = self.versioned or (not self.legacy and asked_versioned)
        if dl_device is not None and tuple(dl_device) == (1, 0) and tuple(self.device) != (1, 0):
            if copy is False:
                raise BufferError("a copy to the CPU is needed")
            p = Producer(self.values.copy(), versioned=versioned, **{"flags": 2, **self.copy_fields})  # IS_COPIED
            self.copies.append(p)
            return p.capsule()
        if self.refuse_legacy and not asked_versioned:
            raise BufferError("this producer exports versioned capsules only")
        # copy=True on the device is ignored (no IS_COPIED), as by a producer
        # that cannot copy there: the consumer must notice
        p = Producer(self.values, versioned=versioned, device=self.device, data=self.memory, flags=self.flags,
                     **self.fields)
        self.exported.append(p)
        return p.capsule()

    def __dlpack_device__(self) -> tuple[int, int]:
        return self.device

    @property
    def deleted(self) -> list[int]:
        """The deleter calls of each capsule handed out, in order."""
        return [p.deleted for p in self.exported + self.copies]
