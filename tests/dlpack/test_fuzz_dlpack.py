"""Fuzzed DLPack import: malformed managed tensors must import correctly or
be refused with a clear error, never crash, and never lose or double-free
the producer's memory.

Hypothesis builds DLManagedTensor / DLManagedTensorVersioned structs field
by field in memory (cffi), with any field broken: ndim negative or huge,
NULL shape, data or strides, negative or huge dimensions, shape x strides
overflowing, unknown dtype codes, bits and lanes, unknown devices, major
versions 0 and 2, flags with unknown bits, byte offsets out of range,
misaligned or wild data pointers, wrong or used_* capsule names, NULL
deleters.  Each one reaches minarray by one of its import routes: a bare
capsule, an object whose ``__dlpack__`` returns it, :func:`asdlpack`, or the
DLPack C exchange API (``__dlpack_c_exchange_api__``).

The deleters and the capsule destructor are C (csrc/py/testing.c): they count
each tensor's deletions exactly and free nothing, so a second call is seen
rather than being a double free.  The rules checked for every example:

* minarray's decision (accept or refuse) is the one ``expected_problem``
  derives from the DLPack header and minarray's documented limits; a
  refusal is BufferError, TypeError or ValueError;
* an accepted tensor imports with its shape, strides, dtype, address and
  read-only status, and its values when the struct points into real memory;
* ownership: a capsule that minarray refused keeps its name and its
  deleter is not called by minarray (the producer keeps ownership: its
  capsule destructor deletes it later); an accepted one is renamed used_*
  and its deleter runs exactly once, when the last view dies; a tensor
  handed over through the exchange API belongs to minarray at once, so a
  refused one is deleted exactly once before the call returns.

The number of examples is MINARRAY_FUZZ_EXAMPLES, by default 10,000 when
the CI variable is set (as CI services set it) and 500 otherwise.
"""

from __future__ import annotations

import ctypes
import math
import os
from dataclasses import dataclass
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

import minarray as ma
from minarray._native import ffi, lib


def _examples() -> int:
    env = os.environ.get("MINARRAY_FUZZ_EXAMPLES")
    if env:
        return int(env)
    return 10_000 if os.environ.get("CI", "").lower() not in ("", "0", "false") else 500


EXAMPLES = _examples()

# ---- capsules through the C API ----------------------------------------------

_PyCapsule_New = ctypes.PYFUNCTYPE(ctypes.py_object, ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p)(
    ("PyCapsule_New", ctypes.pythonapi))
_PyCapsule_SetContext = ctypes.PYFUNCTYPE(ctypes.c_int, ctypes.py_object, ctypes.c_void_p)(
    ("PyCapsule_SetContext", ctypes.pythonapi))
_PyCapsule_GetName = ctypes.PYFUNCTYPE(ctypes.c_char_p, ctypes.py_object)(("PyCapsule_GetName", ctypes.pythonapi))

_DESTRUCTOR = int(ffi.cast("uintptr_t", lib.ma_test_capsule_destructor()))
_DELETERS = {True: ffi.addressof(lib, "ma_test_deleter_versioned"),
             False: ffi.addressof(lib, "ma_test_deleter_legacy")}

# A capsule keeps a pointer to its name, not a copy: every name used here is
# one of these module-level constants, alive as long as the process.
VERSIONED, LEGACY = b"dltensor_versioned", b"dltensor"
WRONG_NAMES: tuple[bytes | None, ...] = (
    None, b"", b"used_dltensor", b"used_dltensor_versioned", b"DLTensor", b"dltensor_", b"dlpack_exchange_api",
    b"minarray.array", b"dltensor_versioned ",
)
USED = (b"used_dltensor", b"used_dltensor_versioned")


def _capsule(address: int, name: bytes | None, versioned: bool) -> Any:
    cap = _PyCapsule_New(address, name, _DESTRUCTOR)
    _PyCapsule_SetContext(cap, int(ffi.cast("uintptr_t", lib.ma_test_context(versioned))))
    return cap


class CapsuleProducer:
    """An object whose ``__dlpack__`` hands out one given capsule."""

    def __init__(self, cap: Any) -> None:
        self.cap = cap

    def __dlpack__(self, **kwargs: Any) -> Any:
        return self.cap

    def __dlpack_device__(self) -> tuple[int, int]:
        return (1, 0)


class ExchangeProducer:
    """An object whose type publishes the DLPack C exchange API, handing out
    the struct at ``_ma_test_tensor`` (csrc/py/testing.c); its ``__dlpack__``
    (the fallback minarray takes when the C call fails) has nothing to give."""

    __dlpack_c_exchange_api__ = _PyCapsule_New(
        int(ffi.cast("uintptr_t", lib.ma_test_exchange_api())), b"dlpack_exchange_api", None)

    def __init__(self, address: int) -> None:
        self._ma_test_tensor = address

    def __dlpack__(self, **kwargs: Any) -> Any:
        raise BufferError("this fake producer exports through the C exchange API only")

    def __dlpack_device__(self) -> tuple[int, int]:
        return (1, 0)


# ---- the memory the structs point into ------------------------------------------

# NumPy's memory, not minarray's, so the allocator statistics do not see it.
# Never written: the byte pattern is the expected value of every element.
BACKING = np.arange(8192, dtype=np.uint8) * np.uint8(37) + np.uint8(11)
BACKING.flags.writeable = False
BASE = BACKING.__array_interface__["data"][0]
ORIGIN = BASE + 4096  # element 0 when data points into BACKING: room both ways

VALID_DTYPES = [d.dlpack for d in ma._dtypes.ALL]
CPU_ACCESSIBLE = {1, 3, 11, 13}
KNOWN_DEVICES = {int(d) for d in ma.dlpack.DLDeviceType}
INT64_MAX = 2**63 - 1
UINT64 = 2**64


# ---- the strategy ---------------------------------------------------------------

@dataclass
class Spec:
    """Every field of one managed tensor and how it reaches minarray."""

    versioned: bool
    name: bytes | None
    version: tuple[int, int]
    flags: int
    deleter: bool
    ndim: int
    shape: tuple[int, ...] | None  # None: NULL
    strides: tuple[int, ...] | None  # None: NULL
    dtype: tuple[int, int, int]
    device: tuple[int, int]
    data: int  # an address; 0 is NULL
    byte_offset: int
    route: str  # "capsule", "producer", "asdlpack" or "exchange"


def _itemsize(dtype: tuple[int, int, int]) -> int:
    return max(dtype[1] // 8, 1)


HUGE_DIMS = (2**31, 2**32 + 1, 2**62, INT64_MAX, -1, -(2**63), -7)
HUGE_STRIDES = (2**61, 2**62 + 3, INT64_MAX, -(2**63), -(2**62), 2**40)
WRONG_VERSIONS = ((0, 0), (0, 9), (2, 0), (2, 3), (255, 1), (2**32 - 1, 2**32 - 1))
BAD_DTYPES = ((2, 0, 1), (2, 8, 1), (2, 128, 1), (0, 3, 1), (1, 6, 1), (6, 1, 1), (4, 32, 1), (5, 16, 1),
              (3, 64, 1), (7, 16, 1), (10, 4, 1), (15, 8, 1), (17, 8, 1), (18, 32, 1), (100, 32, 1), (255, 255, 1),
              (2, 32, 0), (2, 32, 2), (0, 8, 4), (17, 4, 2), (2, 64, 65535))
OTHER_DEVICES = ((1, 3), (2, 0), (3, 0), (11, 0), (13, 1), (10, 0), (4, 0), (0, 0), (99, 0), (-1, 0),
                 (2**31 - 1, 0), (17, 0), (18, 2))
BAD_NDIMS = (-1, -(2**31), 65, 1000, 2**31 - 1)
WILD_DATA = (8, 64, 2**47, 2**63, UINT64 - 16, UINT64 - 2**20)
BAD_BYTE_OFFSETS = (2**62, INT64_MAX, 2**63, UINT64 - 1)


def _rarely(draw: st.DrawFn, one_in: int) -> bool:
    """True once in ``one_in`` draws: each field is broken rarely enough that
    about half of the tensors are valid and every kind of defect still shows
    up hundreds of times in 10,000 examples."""
    return draw(st.integers(0, one_in - 1)) == 0


@st.composite
def specs(draw: st.DrawFn) -> Spec:
    versioned = draw(st.booleans())
    name = draw(st.sampled_from(WRONG_NAMES)) if _rarely(draw, 16) else (VERSIONED if versioned else LEGACY)
    version = draw(st.sampled_from(WRONG_VERSIONS)) if _rarely(draw, 16) else (1, draw(st.sampled_from([0, 3, 7])))
    flags = draw(st.integers(0, 7))
    if _rarely(draw, 6):  # bits no DLPack version defines yet
        flags |= 1 << draw(st.integers(3, 63))
    shape: tuple[int, ...] | None
    if _rarely(draw, 25):
        ndim = draw(st.sampled_from(BAD_NDIMS))
        shape = (1,)  # never read: minarray refuses the ndim first
    elif _rarely(draw, 25):
        ndim = draw(st.integers(5, 64))
        twos = draw(st.integers(0, ndim))  # 2**64 elements at most: some overflow
        shape = (2,) * twos + (1,) * (ndim - twos)
    else:
        ndim = draw(st.integers(0, 4))
        shape = tuple(draw(st.sampled_from(HUGE_DIMS)) if _rarely(draw, 30) else draw(st.integers(0, 4))
                      for _ in range(ndim))
    if _rarely(draw, 30):
        shape = None
    strides: tuple[int, ...] | None = None
    if shape is not None and not _rarely(draw, 6):
        n = len(shape)
        c = tuple(math.prod(max(d, 1) for d in shape[i + 1:]) for i in range(n))
        kind = draw(st.sampled_from(["c", "c", "c", "random", "random", "random"]))
        if _rarely(draw, 20):
            strides = tuple(draw(st.sampled_from(HUGE_STRIDES)) if draw(st.booleans()) else draw(st.integers(-5, 5))
                            for _ in range(n))
        elif kind == "c" and all(x <= INT64_MAX for x in c):
            strides = c
        else:
            strides = tuple(draw(st.integers(-5, 5)) for _ in range(n))
    dtype = draw(st.sampled_from(BAD_DTYPES)) if _rarely(draw, 12) else draw(st.sampled_from(VALID_DTYPES))
    device = draw(st.sampled_from(OTHER_DEVICES)) if _rarely(draw, 12) else (1, 0)
    item = _itemsize(dtype)
    where = draw(st.integers(0, 19))
    if where == 0:
        data = 0
    elif where == 1:
        data = ORIGIN + draw(st.integers(1, 15))  # misaligned for most dtypes
    elif where == 2:
        data = draw(st.sampled_from(WILD_DATA))
    else:
        data = ORIGIN + item * draw(st.integers(-4, 4))
    byte_offset = 0
    if _rarely(draw, 25):
        byte_offset = draw(st.sampled_from(BAD_BYTE_OFFSETS))
    elif _rarely(draw, 25):
        byte_offset = draw(st.integers(1, 7))
    elif _rarely(draw, 6):
        byte_offset = item * draw(st.integers(-4, 8))
        data = (data - min(byte_offset, 0)) % UINT64
        byte_offset = max(byte_offset, 0)
    route = draw(st.sampled_from(["capsule", "capsule", "producer", "asdlpack", "exchange"]))
    if route == "exchange" and not versioned:
        route = "capsule"
    return Spec(versioned, name, version, flags, not _rarely(draw, 10), ndim, shape, strides, dtype, device, data,
                byte_offset, route)


# ---- the rules --------------------------------------------------------------------

def expected_problem(s: Spec) -> str | None:
    """Why minarray must refuse the tensor, or None if it must import it.

    The DLPack header's rules (dlpack.h: "DLManagedTensorVersioned",
    "DLTensor"), the Python specification's capsule names, and minarray's
    documented limits: at most 64 dimensions, its dtypes (sub-byte ones
    padded, one a byte, as IS_SUBBYTE_TYPE_PADDED says), a device type
    DLPack defines (memory the CPU cannot address makes a device array,
    carried and never read), sizes
    whose bytes fit in 2**62, every element's address inside the address
    space, data aligned to the element."""
    if s.route != "exchange" and s.name not in (VERSIONED, LEGACY):
        return "name"
    if s.versioned and s.version[0] != 1:
        return "version"
    if not 0 <= s.ndim <= 64:
        return "ndim"
    if s.dtype not in VALID_DTYPES:
        return "dtype"
    if _packed(s) and s.device[0] not in CPU_ACCESSIBLE:
        return "packed on a device"  # they must be unpacked, and minarray cannot read there
    if s.device[0] not in KNOWN_DEVICES:
        return "device"
    if s.ndim > 0 and s.shape is None:
        return "shape NULL"
    dims = s.shape[:s.ndim] if s.shape is not None else ()
    if any(d < 0 for d in dims):
        return "negative dim"
    item = _itemsize(s.dtype)
    nonzero = math.prod(d for d in dims if d)
    if nonzero * item > INT64_MAX // 2:
        return "too large"
    if 0 in dims:  # nothing is read, but views compute addresses: they must not wrap
        return None if empty_strides(s, dims) is not None else "empty, address space"
    if s.strides is None:
        lo, hi = 0, (nonzero - 1) * item
    else:
        reach = span(s.strides, dims, item)
        if reach is None:
            return "strides overflow"
        lo, hi = reach
    if s.data == 0:
        return "data NULL"
    if s.byte_offset > INT64_MAX:
        return "byte_offset"
    first = s.data + s.byte_offset
    if first >= UINT64 or first + lo < 0 or first + hi + item >= UINT64:
        return "address space"
    align = item // 2 if s.dtype[0] == 5 else item
    if first % align:
        return "alignment"
    return None


def _packed(s: Spec) -> bool:
    """Sub-byte elements not flagged IS_SUBBYTE_TYPE_PADDED (a legacy capsule
    cannot flag them): packed, several a byte, so minarray's import is an
    unpacked copy and the producer's tensor is released at once."""
    return s.dtype[1] < 8 and not (s.versioned and s.flags & 4)


def span(strides: tuple[int, ...], dims: tuple[int, ...], item: int) -> tuple[int, int] | None:
    """The byte offsets of the lowest and the highest element views can reach
    from the first one (axes of length 0 reach nothing), or None when the C
    code's int64 arithmetic overflows computing them: it adds the negative
    and the positive steps separately, and each running sum must fit.  Every
    stride, on any axis, must fit in int64 bytes too: arrays report (and
    step by) stride x itemsize."""
    lo = hi = 0
    for st_, d in zip(strides, dims, strict=True):
        if not -(2**63) <= st_ * item <= INT64_MAX:
            return None
        if d == 0:
            continue
        step = st_ * (d - 1)
        if step < 0:
            lo += step
        else:
            hi += step
        if not (-(2**63) <= step <= INT64_MAX and lo >= -(2**63) and hi <= INT64_MAX):
            return None
    if not (-(2**63) <= lo * item and hi * item <= INT64_MAX):
        return None
    return lo * item, hi * item


def empty_strides(s: Spec, dims: tuple[int, ...]) -> tuple[int, ...] | None:
    """The element strides an empty import takes: its own when the addresses
    views compute from them stay inside the address space, else C-contiguous
    ones if those do, else None (refused)."""
    item = _itemsize(s.dtype)
    first = (s.data + s.byte_offset) % UINT64 if s.data else 0  # NULL stays NULL
    if s.strides is not None:
        reach = span(tuple(s.strides[:len(dims)]), dims, item)
        if reach is not None and first + reach[0] >= 0 and first + reach[1] + item < UINT64:
            return tuple(s.strides[:len(dims)])
    if first + math.prod(d for d in dims if d) * item < UINT64:
        return _c_strides(dims)
    return None


def _c_strides(shape: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(math.prod(max(d, 1) for d in shape[i + 1:]) for i in range(len(shape)))


# ---- building and checking one example -------------------------------------------

class Built:
    """The cffi memory of one managed tensor (kept alive by the test until the
    deleter's count has been checked) and its deletion counter."""

    def __init__(self, s: Spec) -> None:
        self.counter = ffi.new("ma_test_counter *")
        self.struct = ffi.new("DLManagedTensorVersioned *" if s.versioned else "DLManagedTensor *")
        m = self.struct
        t = m.dl_tensor
        # exactly ndim entries (when that is a valid count): reading past them
        # is an error the sanitizer build reports
        self.shape = ffi.new("int64_t[]", list(s.shape)) if s.shape is not None else ffi.NULL
        self.strides = ffi.new("int64_t[]", list(s.strides)) if s.strides is not None else ffi.NULL
        t.data = ffi.cast("void *", s.data)
        # through int32 pointers: cffi would refuse values outside the enum
        dev = ffi.cast("int32_t *", ffi.addressof(t, "device"))
        dev[0], dev[1] = s.device
        t.ndim = s.ndim
        t.dtype.code, t.dtype.bits, t.dtype.lanes = s.dtype
        t.shape = self.shape
        t.strides = self.strides
        t.byte_offset = s.byte_offset
        m.manager_ctx = self.counter
        m.deleter = _DELETERS[s.versioned] if s.deleter else ffi.NULL
        if s.versioned:
            m.version.major, m.version.minor = s.version
            m.flags = s.flags
        self.address = int(ffi.cast("uintptr_t", m))

    @property
    def calls(self) -> int:
        return int(lib.ma_test_calls(self.counter))


def _element_values(s: Spec, shape: tuple[int, ...], el_strides: tuple[int, ...]) -> list[Any] | None:
    """The expected elements, read by NumPy from BACKING, or None when the
    tensor reaches outside it (then only its description is checked)."""
    # a size-1 axis never moves: any stride is valid there, NumPy wants a sane one
    el_strides = tuple(0 if n == 1 else x for x, n in zip(el_strides, shape, strict=True))
    code, bits, _ = s.dtype
    if code not in (0, 1, 2, 4, 5, 6) or bits < 8 or (code, bits) == (5, 32):
        # the storage types (float8, int4, complex32...): NumPy alone cannot
        # read them, so only the description is checked here; their values
        # are compared bit for bit in test_storage_dtypes.py
        return None
    item = bits // 8
    first = s.data + s.byte_offset - BASE
    lo = sum(st_ * (n - 1) for st_, n in zip(el_strides, shape, strict=True) if st_ < 0) * item
    hi = sum(st_ * (n - 1) for st_, n in zip(el_strides, shape, strict=True) if st_ > 0) * item
    if first + lo < 0 or first + hi + item > BACKING.size or math.prod(shape) > 512:
        return None
    if code == 4:
        # bfloat16 is the top half of a float32: widen the bits to compare
        raw = np.ndarray(shape, np.dtype("<u2"), buffer=BACKING, offset=first,
                         strides=tuple(x * item for x in el_strides))
        return (raw.astype(np.uint32) << 16).view(np.float32).tolist()  # type: ignore[no-any-return]
    kind = {0: "i", 1: "u", 2: "f", 5: "c", 6: "u"}[code]
    view = np.ndarray(shape, np.dtype(f"{kind}{item}"), buffer=BACKING, offset=first,
                      strides=tuple(x * item for x in el_strides))
    out = view.tolist()
    # bool: any non-zero byte reads as True, as minarray (and C) reads it
    return _bools(out) if code == 6 else out  # type: ignore[no-any-return]


def _bools(x: Any) -> Any:
    return [_bools(v) for v in x] if isinstance(x, list) else x != 0


def _same(a: Any, b: Any) -> bool:
    """Equal nested lists, NaN equal to NaN."""
    if isinstance(a, list):
        return isinstance(b, list) and len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, complex) or isinstance(b, complex):
        return _same(complex(a).real, complex(b).real) and _same(complex(a).imag, complex(b).imag)
    if isinstance(a, float) and isinstance(b, float) and a != a and b != b:
        return True
    return bool(a == b) and type(a) is type(b)


def _packed_reads_backing(s: Spec) -> bool:
    """Do a packed tensor's elements lie in BACKING, which the unpacking copy
    may read?  (Elsewhere the test's addresses are made up; a producer
    promises its memory, this test does not.)"""
    dims = tuple(s.shape[:s.ndim]) if s.shape is not None else ()
    if 0 in dims:
        return True  # nothing is read
    el = tuple(s.strides[:s.ndim]) if s.strides is not None else _c_strides(dims)
    lo = sum(x * (n - 1) for x, n in zip(el, dims, strict=True) if x < 0)
    hi = sum(x * (n - 1) for x, n in zip(el, dims, strict=True) if x > 0)
    first = s.data + s.byte_offset - BASE
    return 0 <= first + lo and first + hi + 1 <= BACKING.size


UNPACK_MAX = 2**24  # bytes: the largest unpacked copy the fuzzer lets minarray make


def _unpacked_size(s: Spec) -> int:
    """Bytes of the unpacked copy: one per element."""
    return math.prod(s.shape[:s.ndim]) if s.shape is not None else 1


def check_import(s: Spec) -> None:
    b = Built(s)
    problem = expected_problem(s)
    copy = None
    if problem is None and _packed(s) and (not _packed_reads_backing(s) or _unpacked_size(s) > UNPACK_MAX):
        # unpacking would read made-up addresses, or (zero strides) write
        # more than this test should allocate: ask for no copy, which a
        # packed tensor cannot be imported without.  A copy too large for
        # memory raises MemoryError (test_packed_import_too_large_to_unpack).
        copy, problem = False, "packed, copy=False"
    cap = None
    if s.route == "exchange":
        source: Any = ExchangeProducer(b.address)
    else:
        cap = _capsule(b.address, s.name, s.versioned)
        source = cap if s.route in ("capsule", "asdlpack") else CapsuleProducer(cap)
        if s.route == "capsule" and 0 <= s.ndim <= 64:
            _check_describe(s, cap)
    result: Any = None
    error: str | None = None  # "Type: message"; the exception itself would keep frames alive
    try:
        if s.route == "asdlpack" and copy is None:
            result = ma.asdlpack(source)
        else:
            result = ma.from_dlpack(source, copy=copy)
    except (BufferError, TypeError, ValueError) as exc:
        error = f"{type(exc).__name__}: {exc}"
    taken = cap is not None and _PyCapsule_GetName(cap) in USED and s.name not in USED

    if problem is not None:
        assert error is not None, f"accepted a tensor that must be refused ({problem}): {s}"
        assert not error.endswith(": "), f"an empty message: {error}"
        if s.route == "exchange":
            # ownership passed with the struct: minarray deleted it at once
            assert b.calls == (1 if s.deleter else 0), s
        else:
            assert not taken, f"a refused capsule was renamed: {s}"
            assert b.calls == 0, f"minarray called the deleter of a capsule it refused: {s}"
            del source
            cap = None  # the producer's capsule destructor deletes it now
            if s.name in USED:
                assert b.calls == 0, s  # a used_* capsule belongs to a consumer: nobody deletes
            else:
                assert b.calls == (1 if s.deleter else 0), s
        return
    assert error is None, f"refused a valid tensor: {s}: {error}"
    assert cap is None or taken, s
    if _packed(s):
        # unpacked into minarray's own memory: the producer's tensor is done
        assert b.calls == (1 if s.deleter else 0), "a packed import kept the producer's tensor"
        if s.route != "asdlpack":
            dims = tuple(s.shape[:s.ndim]) if s.shape is not None else ()  # ndim 0 may have no shape
            assert result.shape == dims and result.dtype.dlpack == s.dtype
        return
    assert b.calls == 0, "deleted while still in use"
    if s.route != "asdlpack":
        _check_array(s, result)
    del source, result
    cap = None
    assert b.calls == (1 if s.deleter else 0), f"deleter called {b.calls} times: {s}"


def _check_describe(s: Spec, cap: Any) -> None:
    """describe() reads a capsule without consuming it, whatever it holds
    (it reads at most ndim entries of shape and strides, and the test
    allocated exactly that many)."""
    if s.name not in (VERSIONED, LEGACY):
        if s.name in USED:
            assert ma.describe(cap).consumed
        else:
            with pytest.raises(BufferError, match="not a DLPack tensor capsule"):
                ma.describe(cap)
        return
    info = ma.describe(cap)
    assert not info.consumed and info.tensor is not None
    assert _PyCapsule_GetName(cap) == s.name
    if not s.versioned or s.version[0] == 1:
        t = info.tensor.dl_tensor
        assert t.ndim == s.ndim and t.byte_offset == s.byte_offset
        assert t.shape == (None if s.shape is None else tuple(s.shape))
        assert str(info)  # every field formats


def _check_array(s: Spec, a: ma.NDArray) -> None:
    # The array may point at memory nobody may read (wild data of an empty
    # tensor, a device): each assertion compares plain values read first, so
    # a failing one prints them and never formats (reads) the array.
    shape = tuple(s.shape[:s.ndim]) if s.shape is not None else ()
    item = _itemsize(s.dtype)
    el = tuple(s.strides[:s.ndim]) if s.strides is not None else _c_strides(shape)
    got_shape, got_strides, got_dtype, got_ptr = a.shape, a.strides, a.dtype.dlpack, a.data_ptr
    writeable, device = a.flags.writeable, a.__dlpack_device__()
    assert got_shape == shape
    assert got_dtype == s.dtype
    readonly = (not s.versioned) or bool(s.flags & 1)
    assert writeable is not readonly
    # memory the CPU can address is CPU memory to minarray; any other is a
    # device array, carried on its device
    assert device == ((1, 0) if s.device[0] in CPU_ACCESSIBLE else s.device)
    if 0 in shape:
        # nothing of an empty tensor is read, but views compute offsets from
        # its strides: unless they are safe it takes C-contiguous ones
        strides = empty_strides(s, shape)
        assert strides is not None and got_strides == tuple(x * item for x in strides)
        for k in range(len(shape)):
            if shape[k]:
                size = a[(slice(None),) * k + (shape[k] - 1,)].size
                assert size == 0
        return
    assert got_strides == tuple(x * item for x in el)
    assert got_ptr == s.data + s.byte_offset
    if s.device[0] != 1:
        return  # pinned or managed memory: described, not read here
    expected = _element_values(s, shape, el)
    if expected is not None:
        values = a.tolist()
        assert _same(values, expected), s


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow],
          database=None)
@given(specs())
def test_fuzzed_managed_tensors(s: Spec) -> None:
    problem = expected_problem(s)
    event(f"{s.route}: {problem or 'imported'}")  # --hypothesis-show-statistics shows the mix
    check_import(s)


# ---- cases the strategy reaches only by chance, pinned ---------------------------------

def _spec(**fields: Any) -> Spec:
    base = Spec(versioned=True, name=VERSIONED, version=(1, 3), flags=0, deleter=True, ndim=2, shape=(2, 3),
                strides=(3, 1), dtype=(2, 32, 1), device=(1, 0), data=ORIGIN, byte_offset=0, route="capsule")
    for k, v in fields.items():
        setattr(base, k, v)
    return base


PINNED = {
    "valid": {},
    "legacy": {"versioned": False, "name": LEGACY},
    "negative strides": {"strides": (-3, -1)},
    "zero strides": {"strides": (0, 0)},
    "ndim -1": {"ndim": -1, "shape": (1,)},
    "ndim 65": {"ndim": 65, "shape": (1,)},
    "ndim 2**31-1": {"ndim": 2**31 - 1, "shape": (1,)},
    "NULL shape": {"shape": None, "strides": None},
    "NULL data": {"data": 0},
    "NULL strides": {"strides": None},
    "negative dim": {"shape": (2, -3)},
    "huge dims": {"shape": (2**62, 2**62), "strides": (1, 1)},
    "empty with huge dims": {"shape": (0, 2**62), "strides": (1, 1)},
    "empty, NULL data": {"shape": (0, 3), "data": 0},
    "empty, data + byte_offset wraps": {"shape": (3, 0), "data": UINT64 - 2**20, "byte_offset": 2**62},
    "empty, wild data, C strides fit": {"shape": (4, 0), "strides": (2**30, 1), "data": UINT64 - 2**20},
    "empty, wild data, nothing fits": {"ndim": 3, "shape": (4, 0, 8), "strides": (8, 8, 1), "dtype": (5, 128, 1),
                                       "data": UINT64 - 16},
    "empty, huge strides": {"shape": (4, 0), "strides": (2**61, -(2**63))},
    "empty, strides kept": {"shape": (3, 0), "strides": (-5, 7)},
    "empty, a stride overflows in bytes": {"shape": (3, 0), "strides": (1, 2**61)},
    "length 1, its stride overflows in bytes": {"shape": (1, 3), "strides": (2**62, 1)},
    "empty, NULL data, negative stride": {"shape": (3, 0), "strides": (-5, 7), "data": 0},
    "shape x strides overflow": {"shape": (2**31, 2**31), "strides": (2**32, 1)},
    "strides INT64_MIN": {"strides": (-(2**63), 1)},
    "wraps below 0": {"data": 64, "strides": (-3, -1)},
    "wraps above 2**64": {"data": UINT64 - 16},
    "byte_offset 2**63": {"byte_offset": 2**63},
    "byte_offset wraps": {"data": 2**63, "byte_offset": INT64_MAX - 7},
    "misaligned": {"data": ORIGIN + 2},
    "unknown code": {"dtype": (100, 32, 1)},
    "opaque handle": {"dtype": (3, 64, 1)},
    "float8": {"dtype": (10, 8, 1)},
    "packed int4": {"dtype": (0, 4, 1)},
    "packed int4 on CUDA": {"dtype": (0, 4, 1), "device": (2, 0)},
    "packed float6, 0-d, NULL shape, legacy": {"versioned": False, "name": b"dltensor", "dtype": (15, 6, 1),
                                              "ndim": 0, "shape": None, "strides": None},
    "padded int4": {"dtype": (0, 4, 1), "flags": 4},
    "float4, legacy": {"versioned": False, "name": b"dltensor", "dtype": (17, 4, 1)},
    "float4 pairs": {"dtype": (17, 4, 2)},
    "bits 0": {"dtype": (2, 0, 1)},
    "lanes 0": {"dtype": (2, 32, 0)},
    "lanes 4": {"dtype": (2, 32, 4)},
    "bool 1 bit": {"dtype": (6, 1, 1)},
    "CUDA": {"device": (2, 0)},
    "unknown device": {"device": (99, 0)},
    "negative device": {"device": (-1, 0)},
    "CUDA host": {"device": (3, 0)},
    "major 0": {"version": (0, 9)},
    "major 2": {"version": (2, 0)},
    "unknown flags": {"flags": 1 << 40 | 1},
    "wrong name": {"name": b"DLTensor"},
    "NULL name": {"name": None},
    "used versioned": {"name": b"used_dltensor_versioned"},
    "used legacy": {"versioned": False, "name": b"used_dltensor"},
    "NULL deleter": {"deleter": False},
    "NULL deleter, refused": {"deleter": False, "dtype": (100, 32, 1)},
    "producer object": {"route": "producer"},
    "asdlpack, CUDA": {"route": "asdlpack", "device": (2, 0)},
    "asdlpack, unknown device": {"route": "asdlpack", "device": (99, 0)},
    "exchange": {"route": "exchange"},
    "exchange, refused": {"route": "exchange", "dtype": (6, 1, 1)},
    "exchange, major 2": {"route": "exchange", "version": (2, 0)},
    "exchange, complex": {"route": "exchange", "dtype": (5, 64, 1), "shape": (2, 1), "strides": (1, 1)},
}


@pytest.mark.parametrize("fields", PINNED.values(), ids=PINNED.keys())
def test_pinned_cases(fields: dict[str, Any]) -> None:
    check_import(_spec(**fields))


@pytest.mark.parametrize("versioned", [True, False])
def test_capsule_consumed_twice(versioned: bool) -> None:
    """The second import of one capsule is refused; the one deletion happens
    when the first import's array dies."""
    s = _spec(versioned=versioned, name=VERSIONED if versioned else LEGACY)
    b = Built(s)
    cap = _capsule(b.address, s.name, versioned)
    a = ma.from_dlpack(cap)
    with pytest.raises(BufferError, match="already consumed"):
        ma.from_dlpack(cap)
    with pytest.raises(BufferError, match="already consumed"):
        ma.from_dlpack(CapsuleProducer(cap))
    assert b.calls == 0
    v = a[1:]
    del a, cap
    assert b.calls == 0  # the view keeps the memory
    del v
    assert b.calls == 1


def test_packed_import_too_large_to_unpack() -> None:
    """A packed tensor whose zero strides describe 2**45 elements over one
    byte of memory: its unpacked copy (a byte per element) cannot be
    allocated, and the MemoryError names the size; the producer's tensor
    is released all the same."""
    s = _spec(versioned=False, name=LEGACY, dtype=(15, 6, 1), ndim=45, shape=(2,) * 45, strides=(0,) * 45)
    b = Built(s)
    cap = _capsule(b.address, s.name, s.versioned)
    with pytest.raises(MemoryError, match=r"unable to allocate 32\.00 TiB .* 1-byte elements"):
        ma.from_dlpack(cap)
    assert _PyCapsule_GetName(cap) == b"used_dltensor"
    assert b.calls == 1


def test_refused_capsule_keeps_pending_exception() -> None:
    """A refused capsule dying inside from_dlpack's error path runs the
    producer's destructor with an exception pending: the error raised is
    still minarray's, and the tensor is deleted once."""
    s = _spec(dtype=(100, 32, 1), route="producer")
    b = Built(s)
    producer = CapsuleProducer(_capsule(b.address, s.name, True))
    with pytest.raises(BufferError, match="code 100"):
        ma.from_dlpack(producer)
    del producer
    assert b.calls == 1
