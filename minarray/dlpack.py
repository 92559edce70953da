"""DLPack, both ways, natively.

* Export: ``NDArray.__dlpack__`` / ``__dlpack_device__`` (any DLPack consumer,
  e.g. ``np.from_dlpack(a)``, ``torch.from_dlpack(a)``).
* Import: :func:`from_dlpack` (any producer, or a bare capsule),
  :func:`from_numpy` (NumPy without a capsule), :func:`from_pointer` (raw
  memory owned by ctypes, cffi or a C library).
* Re-export: :func:`asdlpack` gives anything that has ``__dlpack__``, the
  NumPy array interface, the CUDA array interface or the buffer protocol a
  ``__dlpack__``.
* Inspection: :func:`describe` shows every field a consumer would read;
  :class:`DLPackVersion`, :class:`DLDevice`, :class:`DLDataType`,
  :class:`DLTensor`, :class:`DLManagedTensor` mirror the C structs.
* Typing: :class:`CanDLPack`, :class:`CanDLPackDevice`, :class:`DLDeviceType`,
  :class:`DLDataTypeCode`.

The capsule work (managed tensor in one allocation, deleter, capsule
destructor, validation, renaming, adoption) is C: ``csrc/py/dlpack_*.c``.  The
rules come from the DLPack 1.3 header and its Python specification
(``python_spec.rst``) and from the Array API standard's ``__dlpack__`` and
``from_dlpack``.

Read-only data: a versioned capsule carries a READ_ONLY flag, which
minarray honours both ways.  A legacy (unversioned) capsule cannot say, so
:func:`from_dlpack` imports one read-only, as NumPy does since 2.2.5, and a
read-only array asked for a legacy capsule exports a private copy
(``copy=None``: "reuse if possible, copy otherwise"; ``copy=False`` raises
BufferError); a read-only device array, which minarray cannot copy, asks
its producer, whose memory it is (JAX exports its own that way).

Devices: a tensor on a device the CPU cannot address (CUDA, ROCm...) is
imported as a *device array*, carried and never read: views work, reads
raise, re-exports ask the producer again with the consumer's ``stream``,
and ``to_device("cpu")`` asks it for a copy (docs/dlpack/devices.md).
"""

from __future__ import annotations

import ctypes
import enum
import operator
import sys
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, Final, Protocol, TypeVar, runtime_checkable

from minarray import _cuda
from minarray import _dtypes as _dt
from minarray._array_interface import BUFFER_FORMATS, _dtype_of_typestr, buffer_dtype, from_array_interface
from minarray._array_object import NDArray, c_strides
from minarray._dldevice import CPU_ACCESSIBLE, CPU_DEVICE, DLDeviceType
from minarray._dtypes import DLDataTypeCode
from minarray._native import core, ffi

if TYPE_CHECKING:
    from typing_extensions import CapsuleType

__all__ = [
    "from_dlpack", "from_numpy", "asdlpack", "from_pointer", "describe", "to_dlpack",
    "DLDeviceType", "DLDataTypeCode", "DLPackFlags", "CanDLPack", "CanDLPackDevice",
    "DLPackObject", "DLPackVersion", "DLDevice", "DLDataType", "DLTensor", "DLManagedTensor",
    "DLPackInfo", "DLPackMetadata", "DLManagedTensorDeleter", "DLManagedTensorVersionedDeleter",
]

# The DLPack version minarray implements (csrc/dlpack.h).
DLPACK_VERSION: Final[tuple[int, int]] = (1, 3)


class DLPackFlags(enum.IntFlag):
    """Bits of ``DLManagedTensorVersioned.flags`` (DLPack >= 1.0)."""

    READ_ONLY = 1 << 0
    IS_COPIED = 1 << 1
    IS_SUBBYTE_TYPE_PADDED = 1 << 2


core.dlpack_setup()
_numpy_ready = False


def _enable_numpy_fast_path() -> None:
    """Hand numpy.ndarray to the C fast path once NumPy is imported (minarray
    never imports NumPy itself: it is optional)."""
    global _numpy_ready
    np = sys.modules.get("numpy")
    if np is not None:
        # the fast path reads NumPy's array struct: only for a C ABI it knows
        # (csrc/py/numpy_struct.c); otherwise arrays take the slower routes
        umath = sys.modules.get("numpy._core._multiarray_umath") or sys.modules.get("numpy.core._multiarray_umath")
        abi = getattr(umath, "_get_ndarray_c_version", None)
        core.numpy_set_type(np.ndarray, abi() if abi is not None else 0)
        _numpy_ready = True


# ---- typing -----------------------------------------------------------------

_T_co = TypeVar("_T_co", covariant=True)
_D_co = TypeVar("_D_co", bound=int, covariant=True)


# Covariant as optype's CanDLPack[+T, +D], so CanDLPack[DLDeviceType, int] is
# a CanDLPack[int, int]; mypy would rather have them contravariant because
# they also type the dl_device parameter.
@runtime_checkable
class CanDLPack(Protocol[_T_co, _D_co]):  # type: ignore[misc]
    """An object with ``__dlpack__`` (the Array API signature, as optype's).

    ``CanDLPack[DLDeviceType, int]`` accepts minarray, NumPy and PyTorch
    arrays.  ``T`` is the device-type type and ``D`` the device-id type."""

    def __dlpack__(
        self,
        /,
        *,
        stream: int | None = None,
        max_version: tuple[int, int] | None = None,
        dl_device: tuple[_T_co, _D_co] | None = None,
        copy: bool | None = None,
    ) -> CapsuleType: ...


@runtime_checkable
class CanDLPackDevice(Protocol[_T_co, _D_co]):
    """An object with ``__dlpack_device__() -> (device_type, device_id)``."""

    def __dlpack_device__(self, /) -> tuple[_T_co, _D_co]: ...


# ---- import -----------------------------------------------------------------

def _want_cpu(device: Any) -> bool:
    if device is None:
        return False
    if device == "cpu" or (isinstance(device, tuple) and len(device) == 2 and tuple(device) == (1, 0)):
        return True
    raise ValueError(f"unsupported device {device!r}: minarray arrays live on 'cpu' (pass None or 'cpu')")


def from_dlpack(x: Any, /, *, device: Any = None, copy: bool | None = None, dtype: Any = None) -> NDArray:
    """An NDArray over the memory of ``x``, an object with ``__dlpack__`` or a
    DLPack capsule, without copying when possible (Array API ``from_dlpack``).

    ``device=None`` keeps the data where it is.  Memory the CPU can address
    (CPU, pinned, managed) gives an ordinary array; memory on another device
    (CUDA, ROCm...) gives a *device array*, which minarray carries but never
    reads: views and re-exports work, computing raises, and
    ``to_device("cpu")`` asks the producer for a copy
    (docs/dlpack/devices.md).  ``device="cpu"`` asks the producer to copy
    the data there (``dl_device=(1, 0)``).
    ``copy=True`` always gives a private copy (even of data that is not
    aligned to its elements, which cannot be viewed); ``copy=False`` never
    copies.  ``dtype``, when given, is the dtype the caller expects: another
    one raises TypeError (nothing is converted).

    The producer is asked for ``max_version=(1, 3)``; one that does not know
    the newer keywords is asked again with none.  When ``type(x)`` publishes
    the DLPack C exchange API (``__dlpack_c_exchange_api__``, e.g. PyTorch),
    that is used instead of a capsule.  The result shares memory with ``x``
    and calls the producer's deleter once, when the last view of it dies.
    Read-only exports import read-only, and so do legacy (unversioned)
    capsules, which cannot say whether writing is allowed (as NumPy).

    Raises TypeError for an object without ``__dlpack__`` and BufferError
    for data minarray cannot view (dtype, layout), or a capsule already
    consumed.
    """
    out = core.dlpack_import(x, device is not None and _want_cpu(device), copy)
    if dtype is not None and out._dtype is not _dt.as_dtype(dtype):
        raise TypeError(f"from_dlpack: expected {_dt.as_dtype(dtype)} data, the producer exported {out._dtype}")
    return out


def to_dlpack(x: Any, /, *, versioned: bool = True) -> CapsuleType:
    """A DLPack capsule of ``x`` (an NDArray, or anything :func:`asdlpack`
    accepts): ``"dltensor_versioned"`` (DLPack 1.3, READ_ONLY honoured), or
    with ``versioned=False`` the legacy ``"dltensor"`` that
    ``torch.utils.dlpack.to_dlpack`` returns.  The capsule shares the
    memory; hand it to exactly one consumer."""
    src = x if isinstance(x, NDArray) else asdlpack(x)
    cap: CapsuleType = src.__dlpack__(max_version=DLPACK_VERSION if versioned else None)
    return cap


# ---- device arrays ------------------------------------------------------------

def device_name(dev_type: int, dev_id: int) -> str:
    """``"cuda:0"`` for ``(DLDeviceType.CUDA, 0)``: how ``NDArray.device``
    names a device (``"cpu"`` for the CPU)."""
    try:
        name = DLDeviceType(dev_type).name.lower()
    except ValueError:
        name = f"device{dev_type}"
    return "cpu" if dev_type == DLDeviceType.CPU else f"{name}:{dev_id}"


def device_repr(x: NDArray) -> str:
    """The repr of a device array: its metadata only (the elements are on
    the device, which minarray never reads)."""
    return f"NDArray(<on {x.device}>, shape={x.shape}, dtype={x.dtype})"


def _producer_of(x: NDArray) -> Any:
    """The object a device array was imported from (the end of its base
    chain), or None: imported from a bare capsule, a copy, or wrapped by
    from_pointer (whose owner, even one with ``__dlpack__``, exported
    nothing to minarray)."""
    if not core.dlpack_imported(x._h):
        return None
    b = x._base
    while isinstance(b, NDArray):
        b = b._base
    if b is None or type(b).__name__ == "PyCapsule" or not hasattr(b, "__dlpack__"):
        return None
    return b


def _is_cpu(device: Any) -> bool:
    return device == "cpu" or (isinstance(device, tuple) and len(device) == 2 and tuple(device) == (1, 0))


def export_device(x: NDArray, stream: Any, max_version: Any, dl_device: Any, copy: bool | None) -> CapsuleType:
    """``x.__dlpack__(...)`` for a device array imported through DLPack.

    minarray cannot synchronise a device it never touches, so the capsule is
    the producer's own fresh export, asked with the consumer's ``stream``
    (python_spec.rst: the producer makes its work visible on that stream),
    with minarray's view (pointer, shape, strides) on top
    (csrc/py/dlpack_device.c, reexport).  A legacy request is passed on as the
    consumer made it, a read-only array's too: whether that memory may go
    out in a struct that cannot say read-only is the producer's call.
    ``dl_device=(1, 0)`` exports a CPU copy the producer makes (BufferError
    with ``copy=False``); ``copy=True`` on the device raises BufferError:
    minarray cannot copy device memory."""
    return _export_device(x, _producer_of(x), stream, max_version, dl_device, copy)


def _export_device(x: NDArray, producer: Any, stream: Any, max_version: Any, dl_device: Any,
                   copy: bool | None) -> CapsuleType:
    here = core.dlpack_device(x._h)
    if dl_device is not None:
        want = tuple(_integer(v, "dl_device") for v in _pair(dl_device))
        if want != here:
            if want != (DLDeviceType.CPU, 0):
                raise BufferError(f"cannot export to device {want}: the array lives on {x.device}, and minarray "
                                  "copies device memory only to the CPU, through its producer")
            if copy is False:
                raise BufferError(f"exporting to the CPU needs a copy of memory on {x.device}, but copy=False")
            if stream is not None:
                raise ValueError("stream must be None for an export to the CPU")
            cpu = to_device(x, "cpu")
            # (the copy minarray made is private: IS_COPIED)
            out: CapsuleType = core.dlpack_export(cpu._h, None, max_version, None, True)
            return out
    if copy:
        raise BufferError(f"copy=True: minarray cannot copy memory that lives on {x.device} (pass dl_device=(1, 0) "
                          "for a copy on the CPU, or ask the producer itself)")
    # the rest of the request goes to the producer as the consumer made it
    cap: CapsuleType = core.dlpack_reexport(x._h, producer, stream, max_version, dl_device, copy)
    return cap


def to_device(x: NDArray, device: Any, stream: Any = None) -> NDArray:
    """``x.to_device(device)`` for a device array: itself on its own
    device; on ``"cpu"`` a copy made by its producer
    (``__dlpack__(dl_device=(1, 0), copy=True)``), on which minarray then
    takes its view of the producer's tensor.  BufferError when there is no
    producer to ask (a bare capsule, ``from_pointer``), or when its copy is
    not the device tensor's dtype (code, bits and lanes) and shape."""
    if not _is_cpu(device):
        if device == x.device or device == x.__dlpack_device__():
            return x
        raise ValueError(f"unsupported device {device!r}: the array lives on {x.device}, and minarray copies "
                         "device memory only to 'cpu'")
    if stream is not None:
        raise ValueError("stream must be None for a copy to the CPU: the producer synchronises its own copy")
    producer = _producer_of(x)
    if producer is None:
        raise BufferError(f"this array lives on {x.device} and has no DLPack producer to copy it to the CPU "
                          "(imported from a bare capsule or wrapped with from_pointer): minarray never reads "
                          "device memory itself")
    # The device tensor's geometry (read from a capsule, no data touched),
    # then the producer's CPU copy of it.  x may view it as another type of
    # the same width (x.view(int32) of float32): the bytes are reinterpreted,
    # as on the device, never converted.
    t = _tensor_of(describe(producer))
    item = x.itemsize
    # by itemsize, not bits: padded sub-byte elements take a byte each
    own = _dt.from_dlpack_code(int(t.dtype.code), t.dtype.bits, t.dtype.lanes)
    if own is None or own.itemsize != item:
        raise BufferError(f"the producer's tensor has dtype {_type_name(t.dtype)}, which this {x.dtype} view "
                          "cannot reinterpret (not a minarray dtype of its width)")
    cpu = _cpu_copy(producer, t)
    if x.size == 0:
        return NDArray._empty(x.shape, x.dtype)
    # Rebuild the device tensor's memory image on the CPU (the producer's
    # copy may have other strides), then take x's view of it by address.
    shape = t.shape or ()
    strides = t.strides if t.strides is not None else c_strides(shape)
    lo, hi = _span(shape, strides)
    image = NDArray._empty((hi - lo + 1,), cpu.dtype)
    core.copyto(image._view(-lo, shape, strides)._h, cpu._h)
    off, rem = divmod(x.data_ptr - (t.data + t.byte_offset), item)
    vlo, vhi = _span(x.shape, x._strides)
    if rem or off + vlo < lo or off + vhi > hi:
        raise BufferError("this view reaches outside the tensor its producer exports now")
    view = image._view(off - lo, x.shape, x._strides)
    return (view if view.dtype is x.dtype else view.view(x.dtype)).copy()


def _cpu_copy(producer: Any, device: DLTensor) -> NDArray:
    """The producer's copy of its device tensor ``device`` on the CPU
    (``__dlpack__(dl_device=(1, 0), copy=True)``), checked before it is
    imported: the same DLDataType (code, bits and lanes) and the same
    shape.  Width alone is not enough: a copy of another type of the same
    width would be converted value by value into the device tensor's type
    (float32 4.0 copied as the int32 1082130432 comes back as 1082130432.0).
    BufferError naming both otherwise; the refused copy goes back to its
    producer (its capsule's destructor)."""
    cap = core.dlpack_request(producer, True, True)
    m = _describe_capsule(cap).tensor
    # A consumed capsule, or one of a major version whose fields minarray
    # does not read: the import refuses it, in its own words.
    if m is not None and (m.version is None or m.version.major == DLPACK_VERSION[0]):
        got = m.dl_tensor
        if got.dtype != device.dtype:
            raise BufferError(f"the producer's CPU copy has dtype {_type_name(got.dtype)}, expected "
                              f"{_type_name(device.dtype)} (its device tensor's)")
        shape, want = _shape_of(got), device.shape or ()
        if shape is not None and shape != want:
            raise BufferError(f"the producer's CPU copy has shape {shape}, expected {want} (its device tensor's)")
    return from_dlpack(cap, device="cpu")


def _type_name(t: DLDataType) -> str:
    """``float32`` for a type minarray has, else the DLPack triple."""
    d = _dt.from_dlpack_code(int(t.code), t.bits, t.lanes)
    return str(d) if d is not None else str(t)


def _shape_of(t: DLTensor) -> tuple[int, ...] | None:
    """The tensor's shape (a 0-d tensor may leave it NULL), or None when a
    NULL shape is an error the import reports."""
    return t.shape if t.shape is not None else (() if t.ndim == 0 else None)


def _tensor_of(info: DLPackInfo) -> DLTensor:
    if info.tensor is None:
        raise BufferError("the producer's capsule was already consumed")
    return info.tensor.dl_tensor


def _span(shape: tuple[int, ...], strides: tuple[int, ...]) -> tuple[int, int]:
    """The lowest and highest element offsets from element 0 (non-empty)."""
    lo = sum((n - 1) * s for n, s in zip(shape, strides, strict=True) if s < 0)
    hi = sum((n - 1) * s for n, s in zip(shape, strides, strict=True) if s > 0)
    return lo, hi


def from_numpy(arr: Any, /, *, copy: bool | None = None) -> NDArray:
    """A view of a NumPy array (or any ``__array_interface__`` v3 object)
    without a capsule, the fastest way in from NumPy.

    Zero-copy: the result shares ``arr``'s memory, keeps ``arr`` alive and is
    read-only when ``arr`` is.  What minarray cannot view in place raises:
    BufferError for strides that are not whole elements or a misaligned data
    pointer, TypeError for non-native byte order or a dtype minarray lacks.
    ``copy=True`` instead returns a private copy (converting byte order)."""
    if copy is True:
        return _numpy_copy(arr)
    if not _numpy_ready:
        _enable_numpy_fast_path()
    out = core.dlpack_from_numpy(arr)  # the intake (csrc/py/numpy_struct.c); it raises for what it cannot view
    if out is not None:
        return out
    # not a plain numpy.ndarray: a subclass or another producer
    _reject_masked(arr)
    return from_array_interface(arr)


def _reject_masked(arr: Any) -> None:
    np = sys.modules.get("numpy")
    if np is not None and isinstance(arr, np.ma.MaskedArray):
        raise TypeError("masked arrays are not supported: take arr.filled() or arr.data explicitly")


def _numpy_copy(arr: Any) -> NDArray:
    import numpy as np  # optional: NumPy is not a dependency of minarray

    _reject_masked(arr)
    a = np.asarray(arr)
    dt = a.dtype
    if dt.byteorder not in ("=", "|"):
        dt = dt.newbyteorder("=")
    if not _numpy_ready:
        _enable_numpy_fast_path()
    c = np.array(a, dtype=dt, order="C", copy=True)
    view = core.dlpack_from_numpy(c)
    if view is None:  # NumPy's C ABI is one the intake does not read
        view = from_array_interface(c)
    out: NDArray = view.copy()  # into minarray's own memory; `c` dies here
    return out


def from_pointer(
    ptr: Any,
    shape: Any,
    dtype: Any,
    *,
    strides: Any = None,
    device: tuple[int, int] = CPU_DEVICE,
    owner: Any = None,
    readonly: bool = False,
) -> NDArray:
    """An NDArray over memory someone else owns: an address as an int, a
    ctypes pointer or array, or a cffi pointer.

    ``strides`` count elements (DLPack's convention), C-contiguous when
    None.  ``owner`` is kept alive as long as any view of the memory (pass
    the ctypes/cffi object that owns it).  ``device`` memory the CPU can
    address (CPU, CUDA host/managed, ROCm host) gives an ordinary array;
    any other device (``(DLDeviceType.CUDA, 0)``: a ``cuMemAlloc``
    pointer) gives a device array, which minarray carries and re-exports
    but never reads (docs/dlpack/devices.md); its exports are not
    synchronised with any stream: the memory must be ready.

    The address, shape and strides pass the checks a DLPack import applies
    (BufferError naming the field): the span they describe must not wrap
    the address space, and the address must be aligned to the elements.
    What no library can check is whether that span is memory the caller
    may read (and, unless ``readonly``, write) for as long as the array
    lives: that is the caller's promise."""
    addr = _address(ptr)
    if addr < 0:
        raise ValueError(f"an address is never negative, got {addr}")
    dev_type, dev_id = (_integer(v, "device") for v in _pair(device))
    if dev_type not in CPU_ACCESSIBLE:
        _device_type(dev_type)  # BufferError for an unknown one
    dt = _dt.as_dtype(dtype)
    dims = tuple(_integer(n, "shape") for n in (shape if isinstance(shape, (tuple, list)) else (shape,)))
    if any(n < 0 for n in dims):
        raise ValueError(f"shape must be non-negative integers, got {shape!r}")
    el = None if strides is None else tuple(_integer(s, "strides") for s in strides)
    if el is not None and len(el) != len(dims):
        raise ValueError(f"strides {el} and shape {dims} differ in length")
    size = 1
    for n in dims:
        size *= n
    if addr == 0 and size:
        raise ValueError("NULL pointer for a non-empty array")
    keep = owner if owner is not None else (ptr if not isinstance(ptr, int) else None)
    h = core.wrap(keep, addr, dims, el, dt.code, dt.bits, readonly)
    if dev_type not in CPU_ACCESSIBLE:
        core.dlpack_set_device(h, dev_type, dev_id)  # a device array: never read
    return NDArray._new(h, dims, el if el is not None else c_strides(dims), keep)


def _integer(v: Any, what: str) -> int:
    """An integer entry of ``what``: anything with ``__index__`` (NumPy's
    integers too), never a float silently truncated."""
    try:
        return operator.index(v)
    except TypeError:
        raise TypeError(f"{what} entries must be integers, got {type(v).__name__} {v!r}") from None


def _pair(device: Any) -> tuple[Any, Any]:
    if not isinstance(device, (tuple, list)) or len(device) != 2:
        raise ValueError(f"device must be a (device_type, device_id) pair, got {device!r}")
    return device[0], device[1]


def _address(ptr: Any) -> int:
    if isinstance(ptr, int):
        return ptr
    if isinstance(ptr, ctypes.c_void_p):
        return ptr.value or 0
    if isinstance(ptr, (ctypes._Pointer, ctypes.Array, ctypes._SimpleCData)):
        return ctypes.cast(ptr, ctypes.c_void_p).value or 0
    if type(ptr).__name__ in ("CData", "_CDataBase") or type(ptr).__module__ == "_cffi_backend":
        return int(ffi.cast("uintptr_t", ptr))
    raise TypeError(f"cannot read an address from {type(ptr).__name__}: pass an int, a ctypes or a cffi pointer")


# ---- asdlpack -----------------------------------------------------------------

class DLPackObject:
    """What :func:`asdlpack` returns: ``__dlpack__`` and ``__dlpack_device__``
    over memory some other object owns (kept alive here)."""

    __slots__ = ("_cai", "_device", "_h", "_source")

    _h: Any
    _device: tuple[DLDeviceType, int]
    _source: Any
    _cai: bool  # the source speaks the CUDA array interface: honour its stream

    def __init__(self, h: Any, device: tuple[DLDeviceType, int], source: Any, cai: bool = False) -> None:
        self._h = h
        self._device = device
        self._source = source
        self._cai = cai

    def __dlpack__(
        self,
        /,
        *,
        stream: Any = None,
        max_version: tuple[int, int] | None = None,
        dl_device: tuple[int, int] | None = None,
        copy: bool | None = None,
    ) -> CapsuleType:
        """Export, as ``NDArray.__dlpack__``.  A DLPack source on a device is
        asked again, with the consumer's ``stream``; a CUDA-array-interface
        source's ``stream`` is waited for on the consumer's (see
        :func:`asdlpack`)."""
        if self._cai:
            _cai_synchronise(self._source, stream, self._device[1])
        cap = core.dlpack_export(self._h, stream, max_version, dl_device, copy)
        if cap is NotImplemented:  # a device tensor: its producer synchronises
            if isinstance(self._source, NDArray):  # a device array knows its producer
                return self._source.__dlpack__(stream=stream, max_version=max_version, dl_device=dl_device,
                                               copy=copy)
            x = core.ndarray_wrap(self._h, None, None, self._source)
            cap = _export_device(x, self._source, stream, max_version, dl_device, copy)
        return cap  # type: ignore[no-any-return]

    def __dlpack_device__(self) -> tuple[DLDeviceType, int]:
        return self._device

    @property
    def source(self) -> Any:
        """The object whose memory this exports."""
        return self._source

    def __repr__(self) -> str:
        t, i = self._device
        return f"<DLPackObject on {t.name}:{i} over {type(self._source).__name__}>"


def asdlpack(obj: Any) -> DLPackObject:
    """Give ``obj`` the DLPack protocol, without copying.

    Accepts anything with ``__dlpack__`` (or a DLPack capsule), NumPy's array
    interface v3 and v2 (``__array_struct__``), the CUDA array interface
    v2/v3 (device CUDA, pointer passed through untouched) and the buffer
    protocol (bytes, bytearray, memoryview, array.array, mmap).  The result
    keeps ``obj`` alive and marks read-only sources read-only; it can be
    exported any number of times, e.g.
    ``torch.from_dlpack(ma.asdlpack(b"Hello!"))``.

    The CUDA array interface's ``stream`` is honoured as that interface
    asks of a consumer: at each export, when the interface names a stream
    (read afresh, it may change), the DLPack consumer's ``stream`` (None:
    the legacy default stream; -1: no synchronisation) is made to wait for
    the work queued on it (a CUDA event, no host wait)."""
    tp = type(obj)
    if tp is NDArray:
        return DLPackObject(obj._h, obj.__dlpack_device__(), obj)
    if tp in _PLAIN_BUFFERS:
        return DLPackObject(_buffer_handle(obj), CPU_DEVICE, obj)
    if not _numpy_ready:
        _enable_numpy_fast_path()
    view = core.dlpack_from_numpy(obj)
    if view is not None:
        return DLPackObject(view._h, CPU_DEVICE, obj)
    if hasattr(obj, "__dlpack__") or tp.__name__ == "PyCapsule":
        h, dev_type, dev_id, _ = core.dlpack_import_handle(obj)
        return DLPackObject(h, CPU_DEVICE if dev_type == 1 and dev_id == 0 else (_device_type(dev_type), dev_id), obj)
    if hasattr(obj, "__array_interface__"):
        _reject_masked(obj)
        return DLPackObject(from_array_interface(obj)._h, CPU_DEVICE, obj)
    if hasattr(obj, "__array_struct__"):
        return DLPackObject(core.array_struct_view(obj)._h, CPU_DEVICE, obj)
    if hasattr(obj, "__cuda_array_interface__"):
        return _from_cuda_array_interface(obj)
    try:
        return DLPackObject(_buffer_handle(obj), CPU_DEVICE, obj)
    except _NoBuffer:
        raise TypeError(
            f"asdlpack() needs __dlpack__, __array_interface__, __array_struct__, __cuda_array_interface__ or the "
            f"buffer protocol; {tp.__name__} has none"
        ) from None


_PLAIN_BUFFERS: Final = frozenset({bytes, bytearray, memoryview})


class _NoBuffer(TypeError):
    pass


def _buffer_handle(obj: Any) -> Any:
    """A handle over a buffer-protocol export of ``obj`` (held until the last
    view dies), read-only when the export is."""
    try:
        m = memoryview(obj)
    except TypeError:
        raise _NoBuffer from None
    with m:
        dtype = BUFFER_FORMATS.get(m.format) or buffer_dtype(m)
    return core.wrap_buffer(obj, dtype.code, dtype.bits, False)[0]


def _device_type(v: int) -> DLDeviceType:
    try:
        return DLDeviceType(v)
    except ValueError:
        raise BufferError(f"unknown DLPack device type {v}") from None


def _from_cuda_array_interface(obj: Any) -> DLPackObject:
    """The CUDA array interface (numba, CuPy): version 2 or 3, described in
    numba's docs.  The device pointer is passed through; minarray never
    reads it, so nothing is synchronised or copied."""
    iface = obj.__cuda_array_interface__
    version = iface.get("version", 0)
    if version < 2:
        raise TypeError(f"CUDA array interface version {version} is not supported (need 2 or 3)")
    if iface.get("mask") is not None:
        raise TypeError("masked CUDA arrays are not supported")
    dt = _dtype_of_typestr(iface["typestr"])
    ptr, readonly = iface["data"]
    shape = tuple(iface["shape"])
    strides = iface.get("strides")
    el = None
    if strides is not None:
        if any(s % dt.itemsize for s in strides):
            raise BufferError(f"strides {tuple(strides)} are not multiples of the itemsize {dt.itemsize}")
        el = tuple(s // dt.itemsize for s in strides)
    if iface.get("stream", None) == 0:
        raise ValueError("the CUDA array interface's stream is 0, which the interface forbids (ambiguous "
                         "between the legacy and the per-thread default stream)")
    dev_id = _cuda_device_of(obj, ptr)
    # wrap() validates the shape and keeps obj alive; the data is never read.
    h = core.wrap(obj, ptr, shape, el, dt.code, dt.bits, bool(readonly))
    core.dlpack_set_device(h, DLDeviceType.CUDA, dev_id)
    return DLPackObject(h, (DLDeviceType.CUDA, dev_id), obj, cai=True)


def _cai_synchronise(obj: Any, stream: Any, dev_id: int) -> None:
    """The CUDA array interface (v3) asks its consumer to synchronise with
    the interface's ``stream``, if it names one, at the point of
    consumption; here that is the DLPack export, and the stream to order
    the work on is the DLPack consumer's (``stream``: None means the legacy
    default stream, 1; -1 asks for no synchronisation)."""
    if stream == -1:
        return
    producer = obj.__cuda_array_interface__.get("stream", None)
    if producer is None:
        return
    if isinstance(producer, bool) or not isinstance(producer, int) or producer == 0:
        raise ValueError(f"the CUDA array interface's stream must be a non-zero int or None, got {producer!r}")
    consumer = 1 if stream is None else _integer(stream, "stream")
    if consumer == 0:
        raise ValueError("stream=0 is not allowed for CUDA (python_spec.rst): pass None or 1 for the legacy "
                         "default stream, 2 for the per-thread one")
    cuda_stream_wait(producer, consumer, dev_id)


def cuda_stream_wait(producer_stream: int, consumer_stream: int, device_id: int) -> None:
    """Order ``consumer_stream`` after the work queued on ``producer_stream``
    (minarray._cuda.stream_wait; a module attribute so tests without a GPU
    can watch the calls)."""
    _cuda.stream_wait(producer_stream, consumer_stream, device_id)


def _cuda_device_of(obj: Any, ptr: int) -> int:
    """The CUDA device ordinal of ``ptr``: from the driver when it is loaded
    (cuPointerGetAttribute), else from the object's ``device`` attribute,
    else 0."""
    ordinal = _cuda.pointer_device(ptr)
    if ordinal is not None:
        return ordinal
    dev = getattr(obj, "device", None)
    for attr in ("id", "index"):
        v = getattr(dev, attr, None)
        if isinstance(v, int):
            return v
    return 0


# ---- struct mirrors and describe() ------------------------------------------------

@dataclass(frozen=True)
class DLPackVersion:
    """``DLPackVersion``: the ABI version a versioned managed tensor carries.

    ``DLPackVersion.LATEST`` is the version minarray implements and exports
    (``CURRENT_MAJOR``.``CURRENT_MINOR``, csrc/dlpack.h)."""

    major: int
    minor: int

    CURRENT_MAJOR: ClassVar[int] = DLPACK_VERSION[0]
    CURRENT_MINOR: ClassVar[int] = DLPACK_VERSION[1]
    LATEST: ClassVar[DLPackVersion]

    def __str__(self) -> str:
        return f"{self.major}.{self.minor}"


DLPackVersion.LATEST = DLPackVersion(*DLPACK_VERSION)


@dataclass(frozen=True)
class DLDevice:
    """``DLDevice``: where the memory lives.  The device types are
    constants too: ``DLDevice(DLDevice.CUDA, 0)``."""

    device_type: DLDeviceType | int
    device_id: int

    CPU: ClassVar[DLDeviceType] = DLDeviceType.CPU
    CUDA: ClassVar[DLDeviceType] = DLDeviceType.CUDA
    CUDA_HOST: ClassVar[DLDeviceType] = DLDeviceType.CUDA_HOST
    OPENCL: ClassVar[DLDeviceType] = DLDeviceType.OPENCL
    VULKAN: ClassVar[DLDeviceType] = DLDeviceType.VULKAN
    METAL: ClassVar[DLDeviceType] = DLDeviceType.METAL
    VPI: ClassVar[DLDeviceType] = DLDeviceType.VPI
    ROCM: ClassVar[DLDeviceType] = DLDeviceType.ROCM
    ROCM_HOST: ClassVar[DLDeviceType] = DLDeviceType.ROCM_HOST
    EXT_DEV: ClassVar[DLDeviceType] = DLDeviceType.EXT_DEV
    CUDA_MANAGED: ClassVar[DLDeviceType] = DLDeviceType.CUDA_MANAGED
    ONE_API: ClassVar[DLDeviceType] = DLDeviceType.ONE_API
    WEBGPU: ClassVar[DLDeviceType] = DLDeviceType.WEBGPU
    HEXAGON: ClassVar[DLDeviceType] = DLDeviceType.HEXAGON
    MAIA: ClassVar[DLDeviceType] = DLDeviceType.MAIA
    TRN: ClassVar[DLDeviceType] = DLDeviceType.TRN

    def __str__(self) -> str:
        t = self.device_type
        return f"{t.name if isinstance(t, DLDeviceType) else t}:{self.device_id}"


@dataclass(frozen=True)
class DLDataType:
    """``DLDataType``: ``(code, bits, lanes)``; float32 is ``(FLOAT, 32, 1)``,
    i.e. ``DLDataType(DLDataType.FLOAT, 32)``."""

    code: DLDataTypeCode | int
    bits: int
    lanes: int = 1

    INT: ClassVar[DLDataTypeCode] = DLDataTypeCode.INT
    UINT: ClassVar[DLDataTypeCode] = DLDataTypeCode.UINT
    FLOAT: ClassVar[DLDataTypeCode] = DLDataTypeCode.FLOAT
    OPAQUE_HANDLE: ClassVar[DLDataTypeCode] = DLDataTypeCode.OPAQUE_HANDLE
    BFLOAT: ClassVar[DLDataTypeCode] = DLDataTypeCode.BFLOAT
    COMPLEX: ClassVar[DLDataTypeCode] = DLDataTypeCode.COMPLEX
    BOOL: ClassVar[DLDataTypeCode] = DLDataTypeCode.BOOL

    @classmethod
    def from_dtype(cls, dtype: Any) -> DLDataType:
        """The DLPack type of a minarray (or NumPy) dtype."""
        d = _dt.as_dtype(dtype)
        return cls(d.code, d.bits, d.lanes)

    def to_dtype(self) -> _dt.DType:
        """The minarray dtype; TypeError when minarray has none."""
        d = _dt.from_dlpack_code(int(self.code), self.bits, self.lanes)
        if d is None:
            raise TypeError(f"DLPack type {self} has no minarray dtype")
        return d

    def __str__(self) -> str:
        c = self.code
        name = c.name if isinstance(c, DLDataTypeCode) else str(c)
        return f"({name}, bits={self.bits}, lanes={self.lanes})"


@dataclass(frozen=True)
class DLTensor:
    """``DLTensor``: a strided view.  ``shape``/``strides`` are None where the
    struct holds NULL; strides count elements."""

    data: int
    device: DLDevice
    ndim: int
    dtype: DLDataType
    shape: tuple[int, ...] | None
    strides: tuple[int, ...] | None
    byte_offset: int = 0


# The deleter of a managed tensor, as ctypes function types: what a Python
# producer built with ctypes stores in DLManagedTensor.deleter (the argument
# is the struct's address).  A deleter must be callable from any thread,
# without the GIL; minarray's own are C (csrc/core/dlpack_core.c).
DLManagedTensorDeleter: Final = ctypes.CFUNCTYPE(None, ctypes.c_void_p)
DLManagedTensorVersionedDeleter: Final = ctypes.CFUNCTYPE(None, ctypes.c_void_p)


@dataclass(frozen=True)
class DLPackMetadata:
    """What a DLPack export keeps alive besides the struct: the shape and
    strides arrays (minarray allocates them in one block with the managed
    tensor) and the object owning the data (``manager_ctx`` holds a
    reference to it until the deleter runs)."""

    shape: tuple[int, ...]
    strides: tuple[int, ...]  # in elements
    ndim: int
    data_owner: Any  # the NDArray owning the memory, or its foreign owner

    @classmethod
    def of(cls, x: NDArray) -> DLPackMetadata:
        """The metadata an export of ``x`` carries."""
        owner: Any = x
        while isinstance(owner, NDArray) and owner._base is not None:
            owner = owner._base
        return cls(x.shape, x._strides, x.ndim, owner)


@dataclass(frozen=True)
class DLManagedTensor:
    """``DLManagedTensor`` (legacy) or, with ``version`` and ``flags`` set,
    ``DLManagedTensorVersioned``.  Addresses are ints."""

    dl_tensor: DLTensor
    manager_ctx: int
    deleter: int
    version: DLPackVersion | None = None
    flags: DLPackFlags = DLPackFlags.READ_ONLY & 0


@dataclass(frozen=True)
class DLPackInfo:
    """What :func:`describe` reports: the capsule and every field a consumer
    reads.  ``tensor`` is None for a consumed (``used_*``) capsule, whose
    struct now belongs to its consumer and may be gone."""

    capsule_name: str
    consumed: bool
    tensor: DLManagedTensor | None

    def __str__(self) -> str:
        lines = [f"capsule      {self.capsule_name!r}" + ("  (consumed)" if self.consumed else "")]
        m = self.tensor
        if m is not None:
            t = m.dl_tensor
            lines += [
                f"version      {m.version if m.version is not None else '(legacy struct: none)'}",
                f"flags        {_flag_names(m.flags)}",
                f"data         {t.data:#x}",
                f"device       {t.device}  ({int(t.device.device_type)}, {t.device.device_id})",
                f"ndim         {t.ndim}",
                f"dtype        code={int(t.dtype.code)} ({_code_name(t.dtype.code)}) bits={t.dtype.bits} "
                f"lanes={t.dtype.lanes}",
                f"shape        {t.shape if t.shape is not None else 'NULL'}",
                f"strides      {t.strides if t.strides is not None else 'NULL'}  (elements)",
                f"byte_offset  {t.byte_offset}",
                f"manager_ctx  {m.manager_ctx:#x}",
                f"deleter      {m.deleter:#x}",
            ]
        return "\n".join(lines)


def _flag_names(f: DLPackFlags) -> str:
    names = [m.name for m in DLPackFlags if m in f and m.name]
    return f"{int(f)} ({' | '.join(names)})" if names else "0"


def _code_name(code: int) -> str:
    try:
        return DLDataTypeCode(code).name
    except ValueError:
        return "unknown"


def describe(obj: Any) -> DLPackInfo:
    """Every field of a DLPack export, readable, without consuming anything.

    ``obj`` is a capsule (left unconsumed) or an object with ``__dlpack__``
    (asked for a versioned capsule, read, then released)."""
    if type(obj).__name__ == "PyCapsule":
        return _describe_capsule(obj)
    if not hasattr(obj, "__dlpack__"):
        raise TypeError(f"describe() needs a DLPack capsule or an object with __dlpack__, got {type(obj).__name__}")
    try:
        cap = obj.__dlpack__(max_version=DLPACK_VERSION)
    except TypeError:
        cap = obj.__dlpack__()
    return _describe_capsule(cap)


def _describe_capsule(cap: Any) -> DLPackInfo:
    name, addr = core.dlpack_capsule_peek(cap)
    name = name if name is not None else "NULL"
    if name in ("used_dltensor", "used_dltensor_versioned"):
        return DLPackInfo(name, True, None)
    if name not in ("dltensor", "dltensor_versioned"):
        raise BufferError(f"not a DLPack tensor capsule: its name is {name!r}")
    if name == "dltensor_versioned":
        mv = ffi.cast("DLManagedTensorVersioned *", addr)
        version: DLPackVersion | None = DLPackVersion(mv.version.major, mv.version.minor)
        if mv.version.major != DLPACK_VERSION[0]:
            # Beyond the frozen prefix the layout may differ: read no further.
            tensor = DLTensor(0, DLDevice(0, 0), 0, DLDataType(0, 0, 0), None, None, 0)
            return DLPackInfo(name, False, DLManagedTensor(tensor, _addr(mv.manager_ctx), _addr(mv.deleter),
                                                           version, DLPackFlags(mv.flags)))
        flags = DLPackFlags(int(mv.flags) & 0x7)
        return DLPackInfo(name, False, DLManagedTensor(_read_tensor(mv.dl_tensor), _addr(mv.manager_ctx),
                                                       _addr(mv.deleter), version, flags))
    ml = ffi.cast("DLManagedTensor *", addr)
    return DLPackInfo(name, False, DLManagedTensor(_read_tensor(ml.dl_tensor), _addr(ml.manager_ctx),
                                                   _addr(ml.deleter)))


def _addr(p: Any) -> int:
    return int(ffi.cast("uintptr_t", p))


def _read_tensor(t: Any) -> DLTensor:
    nd = int(t.ndim)
    dev_type: DLDeviceType | int = int(t.device.device_type)
    try:
        dev_type = DLDeviceType(dev_type)
    except ValueError:
        pass
    code: DLDataTypeCode | int = int(t.dtype.code)
    try:
        code = DLDataTypeCode(code)
    except ValueError:
        pass
    # Read at most 64 entries: describe() must not walk off a broken struct.
    n = max(0, min(nd, 64))
    shape = None if t.shape == ffi.NULL else tuple(int(t.shape[i]) for i in range(n))
    strides = None if t.strides == ffi.NULL else tuple(int(t.strides[i]) for i in range(n))
    return DLTensor(_addr(t.data), DLDevice(dev_type, int(t.device.device_id)), nd,
                    DLDataType(code, int(t.dtype.bits), int(t.dtype.lanes)), shape, strides,
                    int(t.byte_offset))


# The everyday entry points in C (csrc/py/dlpack_entry.c): NDArray.__dlpack__ and
# from_dlpack do what the defs above do, without a Python frame (a third of
# an import's time); the defs stay the documented and typed bodies, and run
# for what the C side hands back: a device array's re-export, from_dlpack
# with device= or dtype=, and the argument errors.
_from_dlpack_general = from_dlpack
if not TYPE_CHECKING:
    from_dlpack = core.dlpack_fast_setup(
        export_device,
        "__dlpack__($self, /, *, stream=None, max_version=None, dl_device=None, copy=None)\n--\n\n"
        + (NDArray.__dlpack__.__doc__ or ""),
        _from_dlpack_general,
        "from_dlpack(x, /, *, device=None, copy=None, dtype=None)\n--\n\n" + (_from_dlpack_general.__doc__ or ""),
    )
