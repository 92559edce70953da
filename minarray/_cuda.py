"""The few CUDA driver calls minarray makes, through ctypes on ``libcuda``.

minarray never reads device memory and never links against CUDA.  It needs
the driver only to honour the ``stream`` key of the CUDA array interface in
:func:`minarray.dlpack.asdlpack` (make the DLPack consumer's stream wait
for the work pending on the producer's stream) and to ask which device a
pointer lives on.  When ``libcuda.so.1`` cannot be loaded (no NVIDIA
driver), :func:`driver` returns None and callers say so.

Stream handles follow the driver API: ``1`` is ``CU_STREAM_LEGACY`` and
``2`` is ``CU_STREAM_PER_THREAD`` (cuda.h), which are also the values the
CUDA array interface and DLPack's ``stream`` give them.
"""

from __future__ import annotations

import ctypes
from typing import Any, Final

__all__ = ["driver", "check", "stream_wait", "pointer_device"]

CU_EVENT_DISABLE_TIMING: Final = 0x2
CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL: Final = 9

_driver: Any = None
_loaded = False


def driver() -> Any:
    """``libcuda.so.1`` (initialised with cuInit), or None without a driver."""
    global _driver, _loaded
    if not _loaded:
        _loaded = True
        try:
            lib = ctypes.CDLL("libcuda.so.1")
        except OSError:
            return None
        if lib.cuInit(0) == 0:
            _driver = lib
    return _driver


def check(rc: int, what: str) -> None:
    """BufferError naming the call and the driver's error for a non-zero ``rc``."""
    if rc != 0:
        name = ctypes.c_char_p()
        lib = driver()
        if lib is not None:
            lib.cuGetErrorName(rc, ctypes.byref(name))
        raise BufferError(f"{what} failed: CUDA error {rc} ({(name.value or b'?').decode()})")


def _with_context(device_id: int) -> tuple[Any, bool]:
    """The driver, with a context current on this thread: the current one,
    or device ``device_id``'s primary context pushed (second item True:
    pop it afterwards)."""
    lib = driver()
    if lib is None:
        raise BufferError("the CUDA array interface names a stream, but no CUDA driver (libcuda.so.1) is loaded "
                          "to synchronise it")
    ctx = ctypes.c_void_p()
    check(lib.cuCtxGetCurrent(ctypes.byref(ctx)), "cuCtxGetCurrent")
    if ctx.value:
        return lib, False
    dev = ctypes.c_int()
    check(lib.cuDeviceGet(ctypes.byref(dev), device_id), "cuDeviceGet")
    check(lib.cuDevicePrimaryCtxRetain(ctypes.byref(ctx), dev), "cuDevicePrimaryCtxRetain")
    check(lib.cuCtxPushCurrent_v2(ctx), "cuCtxPushCurrent")
    return lib, True


def stream_wait(producer_stream: int, consumer_stream: int, device_id: int = 0) -> None:
    """Make ``consumer_stream`` wait for the work queued so far on
    ``producer_stream``: an event recorded on one, waited on by the other
    (no host synchronisation).  Nothing to do when they are the same."""
    if producer_stream == consumer_stream:
        return
    lib, pushed = _with_context(device_id)
    try:
        ev = ctypes.c_void_p()
        check(lib.cuEventCreate(ctypes.byref(ev), CU_EVENT_DISABLE_TIMING), "cuEventCreate")
        try:
            check(lib.cuEventRecord(ev, ctypes.c_void_p(producer_stream)), "cuEventRecord")
            check(lib.cuStreamWaitEvent(ctypes.c_void_p(consumer_stream), ev, 0), "cuStreamWaitEvent")
        finally:
            lib.cuEventDestroy_v2(ev)
    finally:
        if pushed:
            lib.cuCtxPopCurrent_v2(ctypes.byref(ctypes.c_void_p()))


def pointer_device(ptr: int) -> int | None:
    """The device ordinal of device pointer ``ptr``, or None when the driver
    is absent or does not know the pointer."""
    lib = driver()
    if lib is None or not ptr:
        return None
    ordinal = ctypes.c_int(-1)
    rc = lib.cuPointerGetAttribute(ctypes.byref(ordinal), CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL,
                                   ctypes.c_ulonglong(ptr))
    return ordinal.value if rc == 0 else None
