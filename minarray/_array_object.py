"""NDArray: a dtype, a shape, element strides and a data pointer over a
reference-counted buffer.

The metadata lives in C (an ``ma_array``, i.e. a DLTensor plus a buffer
reference) behind an opaque handle; Python keeps copies of shape and
strides as tuples for cheap view arithmetic.  ``.strides`` reports bytes, as
NumPy does; internally strides count elements, as DLPack does.
"""

from __future__ import annotations

import builtins
import ctypes
import operator
import os
import pickle
import warnings
from collections.abc import Iterator, Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, ClassVar, SupportsIndex

from minarray import _dtypes as _dt
from minarray import _subclass
from minarray._dldevice import DLDeviceType
from minarray._dtypes import DType
from minarray._errstate import _user_stacklevel
from minarray._native import core
from minarray.exceptions import ComplexWarning

if TYPE_CHECKING:
    from types import ModuleType

    from typing_extensions import CapsuleType

    from minarray._flatiter import flatiter

__all__ = [
    "NDArray", "Flags",
]


Shape = tuple[int, ...]


class Flags:
    """Memory-layout flags, like ``numpy.ndarray.flags``."""

    __slots__ = ("_a",)

    def __init__(self, a: NDArray) -> None:
        self._a = a

    @property
    def c_contiguous(self) -> bool:
        return core.is_contiguous(self._a._h, False)

    @property
    def f_contiguous(self) -> bool:
        return core.is_contiguous(self._a._h, True)

    @property
    def writeable(self) -> bool:
        return not core.is_readonly(self._a._h)

    @writeable.setter
    def writeable(self, value: bool) -> None:
        a = self._a
        if value and not _may_write(a):
            raise ValueError("cannot set WRITEABLE flag to True of this array")
        core.set_readonly(a._h, not value)

    @property
    def owndata(self) -> bool:
        return self._a._base is None

    @property
    def aligned(self) -> bool:
        """Always true: minarray's arrays hold aligned elements (it refuses
        memory that is not)."""
        return True

    @property
    def writebackifcopy(self) -> bool:
        """Always false: no minarray array is a copy to be written back."""
        return False

    @property
    def fnc(self) -> bool:
        """Fortran-contiguous and not C-contiguous (NumPy's ``fnc``)."""
        return self.f_contiguous and not self.c_contiguous

    @property
    def forc(self) -> bool:
        """C-contiguous or Fortran-contiguous (NumPy's ``forc``)."""
        return self.c_contiguous or self.f_contiguous

    @property
    def contiguous(self) -> bool:
        """NumPy's older name of ``c_contiguous``."""
        return self.c_contiguous

    @property
    def fortran(self) -> bool:
        """NumPy's older name of ``f_contiguous``."""
        return self.f_contiguous

    @property
    def behaved(self) -> bool:
        """Aligned and writeable (NumPy's ``behaved``)."""
        return self.aligned and self.writeable

    @property
    def carray(self) -> bool:
        """Behaved and C-contiguous (NumPy's ``carray``)."""
        return self.behaved and self.c_contiguous

    @property
    def farray(self) -> bool:
        """Behaved, Fortran-contiguous and not C-contiguous (NumPy's ``farray``)."""
        return self.behaved and self.fnc

    # NumPy's keys: upper case only, each long name and its short form
    _KEYS: ClassVar[Mapping[str, str]] = MappingProxyType({
        "C_CONTIGUOUS": "c_contiguous", "C": "c_contiguous", "CONTIGUOUS": "c_contiguous",
        "F_CONTIGUOUS": "f_contiguous", "F": "f_contiguous", "FORTRAN": "f_contiguous",
        "WRITEABLE": "writeable", "W": "writeable", "OWNDATA": "owndata", "O": "owndata",
        "ALIGNED": "aligned", "A": "aligned", "WRITEBACKIFCOPY": "writebackifcopy", "X": "writebackifcopy",
        "FNC": "fnc", "FORC": "forc", "BEHAVED": "behaved", "B": "behaved", "CARRAY": "carray", "CA": "carray",
        "FARRAY": "farray", "FA": "farray"})

    def __getitem__(self, key: str) -> bool:
        if key not in self._KEYS:
            raise KeyError("Unknown flag")
        return bool(getattr(self, self._KEYS[key]))

    def __setitem__(self, key: str, value: bool) -> None:
        # NumPy takes "WRITEABLE" and its one-letter "W"; its other flags
        # (the contiguity, OWNDATA) are facts of the layout, not settable
        if key not in ("WRITEABLE", "W"):
            raise KeyError("Unknown flag")
        self.writeable = value

    def __repr__(self) -> str:
        return (f"  C_CONTIGUOUS : {self.c_contiguous}\n  F_CONTIGUOUS : {self.f_contiguous}\n"
                f"  OWNDATA : {self.owndata}\n  WRITEABLE : {self.writeable}\n  ALIGNED : {self.aligned}\n"
                f"  WRITEBACKIFCOPY : {self.writebackifcopy}\n")


class CtypesView:
    """``x.ctypes``: the address, shape and strides (in bytes) of an
    array's memory as ctypes objects, for C functions called through
    ctypes.  Holds the array: a pointer taken from it stays valid while
    this object (or the array) lives; ``data_as`` ties the pointer it
    returns to the array too, as NumPy's does."""

    __slots__ = ("_a",)

    def __init__(self, a: NDArray) -> None:
        self._a = a

    @property
    def data(self) -> int:
        """The address of element 0 (a device array's raises)."""
        return int(core.host_ptr(self._a._h))

    def data_as(self, obj: Any) -> Any:
        """The address cast to ctypes type ``obj`` (a pointer type)."""
        ptr = ctypes.cast(self.data, obj)
        ptr._arr = self._a  # the array lives as long as the pointer
        return ptr

    def shape_as(self, obj: Any) -> Any:
        """The shape as a ctypes array of ``obj``."""
        return (obj * self._a.ndim)(*self._a.shape)

    def strides_as(self, obj: Any) -> Any:
        """The strides in bytes as a ctypes array of ``obj``."""
        item = self._a.itemsize
        return (obj * self._a.ndim)(*(s * item for s in self._a._strides))

    @property
    def shape(self) -> Any:
        """The shape as a ctypes array of ``c_ssize_t`` (NumPy's ``c_intp``)."""
        return self.shape_as(ctypes.c_ssize_t)

    @property
    def strides(self) -> Any:
        """The strides in bytes as a ctypes array of ``c_ssize_t``."""
        return self.strides_as(ctypes.c_ssize_t)

    @property
    def _as_parameter_(self) -> Any:
        """What ctypes passes when the object itself is an argument: the address."""
        return ctypes.c_void_p(self.data)


def _may_write(a: NDArray) -> bool:
    """NumPy's rule for turning write permission back on: the memory's
    owner must allow writes.  Following the bases to the array that owns
    the memory: minarray's own memory may be written when that owner is
    writeable (or is ``a`` itself); foreign memory when its producer's
    buffer says so (an object without the buffer protocol cannot say, and
    stays read-only)."""
    owner = a
    while isinstance(owner._base, NDArray):
        owner = owner._base
    if type(owner) is _dt.scalar_class:
        # a scalar is immutable, as NumPy's: its operators hand out shared
        # np.True_ and np.False_ (csrc/py/scalar_math.c)
        return False
    if owner is not a and core.is_readonly(owner._h):
        return False
    if owner._base is None:
        return True
    try:
        with memoryview(owner._base) as m:
            return not m.readonly
    except TypeError:
        return False


def _stride_perm(strides: Shape) -> list[int]:
    """The axes from the largest |stride| to the smallest, ties in axis
    order: NumPy's PyArray_CreateSortedStridePerm, which decides the memory
    order of an ``order="K"`` copy of an array that is neither C- nor
    Fortran-contiguous."""
    return sorted(range(len(strides)), key=lambda i: -abs(strides[i]))


_ONE_STRIDE: tuple[Shape, Shape] = ((), (1,))


def c_strides(shape: Shape) -> Shape:
    """Element strides of a C-contiguous array of ``shape``."""
    if len(shape) < 2:  # the results of most reductions and 1-d calls: no loop
        return _ONE_STRIDE[len(shape)]
    out = [0] * len(shape)
    s = 1
    for i in range(len(shape) - 1, -1, -1):
        out[i] = s
        s *= shape[i] or 1
    return tuple(out)



def _warn_complex_discarded() -> None:
    """NumPy's ComplexWarning for a cast of complex values to a real type."""
    warnings.warn("Casting complex values to real discards the imaginary part", ComplexWarning,
                  stacklevel=_user_stacklevel())

class NDArray(core.NDArrayBase):
    """An N-dimensional array over minarray's own (or foreign) memory."""

    # the fields (_h, _shape, _strides, _dtype, _base) and weak-reference
    # support are the C base type's (csrc/py/ndarray.c); no __dict__
    __slots__ = ()

    _h: Any  # the handle: an opaque object owning the C metadata (csrc/py/pyapi.h)
    _shape: Shape
    _strides: Shape  # in elements
    _dtype: DType
    _base: Any  # the object owning the memory, or None

    def __new__(cls, shape: Any, dtype: Any = float, buffer: Any = None, offset: SupportsIndex = 0,
                strides: Any = None, order: str | None = None) -> NDArray:
        """NumPy's low-level constructor: an uninitialised array of
        ``shape``, or a view of ``buffer``'s memory (``offset`` and
        ``strides`` in bytes); minarray.empty, zeros or asarray are the
        usual ways.  (In __new__, not __init__: a subclass's own __new__,
        making its instance with asarray(...).view(cls) as NumPy's recipe
        does, is then followed by object's __init__.)"""
        from minarray._creation import ndarray_new  # cycle: _creation imports this module

        return ndarray_new(cls, shape, dtype, buffer, offset, strides, order)

    # ---- construction (internal) ---------------------------------------
    @staticmethod
    def _new(h: Any, shape: Shape | None, strides: Shape | None, base: Any) -> NDArray:
        """An NDArray over handle ``h``, whose shape and strides these tuples
        state (None: read from the handle when first asked); its dtype is
        the handle's.  Every NDArray is built by the one C builder
        (csrc/py/ndarray.c), from here or from C."""
        return core.ndarray_wrap(h, shape, strides, base)

    @staticmethod
    def _empty(shape: Shape, dtype: DType, zero: bool = False) -> NDArray:
        made: NDArray = core.ndarray_empty(shape, dtype, zero)
        return made

    def _widened(self) -> NDArray:
        """This array, or for a storage type (float8, int4, complex32...),
        which kernels do not read, a copy in its wide type (exact)."""
        return self if self._dtype.wide is None else self.astype(self._dtype.wide)

    def _view(self, offset: int, shape: Shape, strides: Shape, readonly: bool = False) -> NDArray:
        """A view sharing this array's buffer, ``offset`` elements from element 0."""
        # its base follows NumPy's rule (view_base in csrc/py/views.c)
        return core.ndarray_view(self, offset, shape, strides, readonly)

    # ---- attributes ----------------------------------------------------
    # dtype, shape, ndim, size, itemsize, nbytes and strides are C
    # descriptors of the base type (csrc/py/ndarray.c), the hottest reads
    # at a third of a property's cost; named here too, so that the class
    # documents them.
    if TYPE_CHECKING:
        @property
        def dtype(self) -> DType: ...

        @property
        def shape(self) -> Shape: ...

        @shape.setter
        def shape(self, value: Any) -> None: ...

        @property
        def ndim(self) -> int: ...

        @property
        def size(self) -> int: ...

        @property
        def itemsize(self) -> int: ...

        @property
        def nbytes(self) -> int: ...

        @property
        def strides(self) -> Shape: ...
    else:
        dtype = core.NDArrayBase.dtype
        shape = core.NDArrayBase.shape
        ndim = core.NDArrayBase.ndim
        size = core.NDArrayBase.size
        itemsize = core.NDArrayBase.itemsize
        nbytes = core.NDArrayBase.nbytes
        strides = core.NDArrayBase.strides


    @property
    def device(self) -> str:
        """Where the data lives: ``"cpu"``, or for a device array (memory
        minarray carries but never reads, see docs/dlpack/devices.md) the
        device as ``"cuda:0"``, ``"rocm:1"``..."""
        dev_type, dev_id = core.dlpack_device(self._h)
        if dev_type == 1:  # DLDeviceType.CPU
            return "cpu"
        name: str = _dlpack().device_name(dev_type, dev_id)
        return name

    def to_device(self, device: Any, /, *, stream: Any = None) -> NDArray:
        """This array on ``device``: itself on its own device; a device
        array to ``"cpu"`` is a copy its DLPack producer makes."""
        if core.dlpack_device(self._h)[0] != 1:  # a device array
            out: NDArray = _dlpack().to_device(self, device, stream)
            return out
        if device != "cpu":
            raise ValueError(f"unsupported device {device!r}: minarray arrays live on 'cpu'")
        if stream is not None:
            raise ValueError("stream must be None on the CPU")
        return self

    @property
    def flags(self) -> Flags:
        """Layout flags: ``c_contiguous``, ``f_contiguous``, ``writeable``, ``owndata``."""
        return Flags(self)

    @property
    def base(self) -> Any:
        """What this array views, or None when it owns its memory: as in
        NumPy, the array owning the memory, or the array that wraps a foreign
        owner (a view of ``ma.asarray(numpy_array)`` has that NDArray as
        base; the NDArray's own base is the NumPy array)."""
        return self._base

    if TYPE_CHECKING:  # NDArrayBase's getter (csrc/py/views.c)
        @property
        def T(self) -> NDArray:
            """The array with its axes reversed (a view)."""

    @property
    def mT(self) -> NDArray:
        """The array with its last two axes exchanged (a view; needs 2+ dimensions)."""
        if self.ndim < 2:
            raise ValueError(f"mT needs at least 2 dimensions, the array has {self.ndim}")
        return self.swapaxes(-1, -2)

    @property
    def real(self) -> NDArray:
        """The real part, as NumPy's: a view of a complex array's real
        parts, a real array itself."""
        return self._part(0)

    @real.setter
    def real(self, value: Any) -> None:
        # NumPy writes into the array: the real part of a complex array, the
        # whole of a real one (broadcast and cast as x[...] = value is)
        self._part(0)[...] = value

    @property
    def imag(self) -> NDArray:
        """The imaginary part, as NumPy's: a view of a complex array's
        imaginary parts; for a real array, new read-only zeros."""
        if self._dtype.kind == "c":
            return self._part(1)
        zeros: NDArray = core.ndarray_empty(self._shape, self._dtype, True)
        core.set_readonly(zeros._h, True)
        return zeros if type(self) is NDArray else _subclass.like(self, zeros)

    @imag.setter
    def imag(self, value: Any) -> None:
        if self._dtype.kind != "c":  # NumPy's error: a real array has no imaginary part to write
            raise TypeError("array does not have imaginary part to set")
        self._part(1)[...] = value

    def _part(self, which: int) -> NDArray:
        """A view of the real (0) or imaginary (1) parts of a complex array,
        as floats of half its element size (of this array's class); a real
        array itself."""
        if self._dtype.kind != "c":
            return self
        # complex32's parts are float16s: the float of half the width
        part = _dt.from_dlpack_code(int(_dt.float32.code), self._dtype.bits // 2)
        assert part is not None  # every complex dtype has its float
        strides = tuple(2 * s for s in self._strides)
        h = core.view(self._h, which, self._shape, strides, part.code, part.bits, core.is_readonly(self._h))
        view = NDArray._new(h, self._shape, strides, self if self._base is None else self._base)
        return view if type(self) is NDArray else _subclass.like(self, view)

    @property
    def flat(self) -> flatiter:
        """A flat iterator over the elements in C order, which can be indexed
        and assigned to as a 1-d array (NumPy's ``flatiter``)."""
        from minarray._flatiter import flatiter  # cycle: _flatiter builds on the chapters, which import this module

        return flatiter(self)

    @flat.setter
    def flat(self, value: Any) -> None:
        from minarray._flatiter import assign_all  # cycle: as above

        assign_all(self, value)

    @property
    def data_ptr(self) -> int:
        """Address of element 0."""
        return int(core.data_ptr(self._h))

    def __array_namespace__(self, /, *, api_version: str | None = None) -> ModuleType:
        if api_version not in (None, "2021.12", "2022.12", "2023.12", "2024.12", "2025.12"):
            raise ValueError(f"unsupported Array API version {api_version!r}")
        import minarray  # cycle: the package imports this module

        return minarray

    # ---- views and copies ------------------------------------------------
    def copy(self, order: str = "C") -> NDArray:
        """A copy that owns its memory: C-contiguous (``order="C"``, the
        default), Fortran-contiguous (``"F"``), Fortran when the array is
        Fortran- but not C-contiguous (``"A"``), or keeping the axes' memory
        order (``"K"``, as NumPy: the strides' order of the original)."""
        if order == "C":  # one C call (csrc/py/convert.c)
            made: NDArray = core.ndarray_copy(self, None)
            return made if type(self) is NDArray else _subclass.like(self, made)
        if order not in ("F", "A", "K"):
            raise ValueError(f"order must be one of 'C', 'F', 'A', 'K', not {order!r}")
        shape = self._shape
        c_contig = core.is_contiguous(self._h, False)
        f_contig = core.is_contiguous(self._h, True)
        if order == "A" or order == "K":
            if order == "A" or c_contig or f_contig:
                order = "F" if f_contig and not c_contig else "C"
        if order == "C" or len(shape) < 2:
            perm = list(range(len(shape)))
        elif order == "F":
            perm = list(range(len(shape) - 1, -1, -1))
        else:
            perm = _stride_perm(self._strides)
        if perm == list(range(len(shape))):  # C order after all
            same: NDArray = core.ndarray_copy(self, None)
            return same if type(self) is NDArray else _subclass.like(self, same)
        d = self._dtype
        # allocate in memory order, then view it back in the axes' order
        buf = NDArray._empty(tuple(shape[i] for i in perm), d)
        mem_strides = buf._strides
        strides = [0] * len(shape)
        for pos, axis in enumerate(perm):
            strides[axis] = mem_strides[pos]
        out = NDArray._new(core.view(buf._h, 0, shape, tuple(strides), d.code, d.bits, False),
                           shape, tuple(strides), None)
        core.copyto(out._h, self._h)
        return out if type(self) is NDArray else _subclass.like(self, out)

    def astype(self, dtype: Any, /, *, copy: bool = True, device: Any = None) -> NDArray:
        """A copy converted to ``dtype`` (C cast kernels for every pair); with ``copy=False``
        the array itself when the dtype already matches."""
        # NumPy reads dtype=None as its default type, float64
        dt = _dt.float64 if dtype is None else _dt.as_dtype(dtype)
        if device not in (None, "cpu"):
            raise ValueError(f"unsupported device {device!r}")
        if dt is self._dtype and not copy:
            return self
        if self._dtype.kind == "c" and dt.kind in "iuf":  # NumPy warns, even for no elements; not for bool
            _warn_complex_discarded()
        made: NDArray = core.ndarray_copy(self, dt)  # one C call (csrc/py/convert.c)
        return made if type(self) is NDArray else _subclass.like(self, made)

    def fill(self, value: Any) -> None:
        """Set every element to the Python scalar ``value`` (cast to the array's dtype)."""
        core.fill(self._h, value)

    def transpose(self, *axes: Any) -> NDArray:
        """A view with the axes permuted (reversed when none are given), as NumPy's
        ``transpose``."""
        return _transpose_view(self, axes)  # one C call, every spelling (csrc/py/views.c)

    def swapaxes(self, axis1: int, axis2: int) -> NDArray:
        """A view with ``axis1`` and ``axis2`` exchanged."""
        from minarray import _manipulation as _manip  # cycle: _manipulation imports this module

        return _manip.swapaxes(self, axis1, axis2)

    def reshape(self, *shape: Any, order: str = "C", copy: bool | None = None) -> NDArray:
        """The same elements in a new shape: a view when the strides allow one, else a copy
        (``copy=False`` raises ValueError then); one dimension may be -1.
        ``order="F"`` reads and places elements in Fortran order, as NumPy."""
        if order != "C":
            from minarray import _manipulation as _manip  # cycle: _manipulation imports this module

            return _manip.reshape_fortran(self, shape[0] if len(shape) == 1 else shape, order, copy)
        return _reshape_view(self, shape, copy)  # one C call, errors included (csrc/py/views.c)

    def setflags(self, write: bool | None = None, align: bool | None = None, uic: bool | None = None) -> None:
        """NumPy's ``setflags``: ``write`` sets ``flags.writeable`` (turning
        it back on only where the memory's owner allows it, ValueError
        otherwise).  minarray's memory is always aligned, so ``align``
        changes nothing; no array is a copy to write back (``uic=True``
        raises ValueError, as NumPy's does)."""
        if uic:
            raise ValueError("cannot set WRITEBACKIFCOPY flag to True")
        if write is not None:
            self.flags.writeable = bool(write)

    @property
    def data(self) -> memoryview:
        """The array's memory as a ``memoryview`` (the buffer protocol),
        as NumPy's ``ndarray.data``."""
        core.host_ptr(self._h)  # a device array: the device error, not the buffer protocol's
        return memoryview(self)

    @property
    def ctypes(self) -> CtypesView:
        """The array's memory for ctypes calls, as NumPy's
        ``ndarray.ctypes``: ``.data`` (the address), ``.shape``,
        ``.strides``, ``data_as(ctypes.POINTER(...))``; it holds the array,
        so the memory lives while it does."""
        return CtypesView(self)

    def byteswap(self, inplace: bool = False) -> NDArray:
        """The elements with their bytes in reverse order (each part's, for
        complex), as NumPy's ``byteswap``: values read from data of the
        other byte order.  A new array, or with ``inplace=True`` this array,
        changed."""
        item = self._dtype.itemsize
        part = item // 2 if self._dtype.kind == "c" else item
        if part == 1:
            return self if inplace else self.copy()
        flat = self.copy().reshape((-1,))
        u8 = flat.view(_dt.uint8).reshape((flat.size * item // part, part))
        swapped = u8[:, ::-1].copy().reshape((-1,)).view(self._dtype).reshape(self._shape)
        if not inplace:
            return core.scalar_result(swapped) if type(self).__name__ == "Scalar" else swapped
        self[...] = swapped
        return self

    def resize(self, *new_shape: Any, refcheck: bool = True) -> None:
        """Change this array's shape and size in place, as NumPy's
        ``ndarray.resize``: its elements in C order, cut short or followed
        by zeros.  Only for an array that owns its memory in one
        C-contiguous block and, with ``refcheck``, that nothing else views
        or exports (ValueError otherwise; ``minarray.resize`` makes a
        resized copy instead).  The old memory is freed with the array,
        not before: a kernel another thread runs on it may still read it."""
        if not new_shape:
            return  # NumPy's resize() without a shape changes nothing
        one = new_shape[0] if len(new_shape) == 1 else None
        dims = new_shape if one is None or hasattr(one, "__index__") else tuple(one)
        core.ndarray_resize(self, tuple(operator.index(d) for d in dims), refcheck)

    def ravel(self, order: str = "C") -> NDArray:
        """The elements as a 1-d array, in C order (``"C"``), Fortran order
        (``"F"``), Fortran order for a Fortran- but not C-contiguous array
        (``"A"``), or the order of the axes in memory (``"K"``: by
        decreasing stride, a reversed axis still read forwards, NumPy's
        rule): a view when the array is contiguous in that order, else a
        copy (``reshape(-1)`` gives a view in more cases)."""
        if order == "C" and core.is_contiguous(self._h, False):
            return _reshape_view(self, (-1,), None)  # the common call: one C call
        from minarray import _manipulation as _manip  # cycle: _manipulation imports this module

        if order not in ("C", "F", "A", "K"):
            raise ValueError(f"order must be one of 'C', 'F', 'A', or 'K' (got {order!r})")
        c_contig = core.is_contiguous(self._h, False)
        if order == "A":
            order = "F" if core.is_contiguous(self._h, True) and not c_contig else "C"
        if order == "K":
            perm = _stride_perm(self._strides)
            x = self if perm == sorted(perm) else _permute_view(self, tuple(perm))
        else:
            x = self if order == "C" or self.ndim < 2 else self.T
        if core.is_contiguous(x._h, False):
            return _manip.reshape(x, (-1,))
        return x.flatten()

    def flatten(self) -> NDArray:
        """A new 1-d C-contiguous copy that owns its memory (``base`` None)."""
        d = self._dtype
        out = NDArray._empty((self.size,), d)
        # copy in C order through a view of out's memory with self's shape
        h = core.view(out._h, 0, self._shape, c_strides(self._shape), d.code, d.bits, False)
        core.copyto(h, self._h)
        return out if type(self) is NDArray else _subclass.like(self, out)

    def squeeze(self, axis: int | tuple[int, ...] | None = None) -> NDArray:
        """A view without length-1 axes (those in ``axis``, or all)."""
        from minarray import _manipulation as _manip  # cycle: _manipulation imports this module

        return _manip.squeeze(self, axis)

    # ---- indexing --------------------------------------------------------
    # x[key] is NDArrayBase's C slot (csrc/py/views.c), which this class
    # inherits by not defining __getitem__: the key is parsed there once;
    # ints, slices, None and ... make views there, the common advanced keys
    # copies, and every other advanced key goes, parsed, through
    # minarray._indexing.getitem.
    if TYPE_CHECKING:
        def __getitem__(self, key: Any, /) -> NDArray: ...

    def __setitem__(self, key: Any, value: Any) -> None:
        # one C call: the key parsed once, then written in C, or handed
        # parsed to minarray._indexing.setitem (csrc/py/views.c)
        _setitem(self, key, value)

    # ---- Python protocols ---------------------------------------------------
    def tolist(self) -> Any:
        """The elements as nested Python lists of Python scalars (a scalar for 0-d)."""
        return core.tolist(self._h)

    if TYPE_CHECKING:  # NDArrayBase's method (csrc/py/scalars.c), NumPy's rules and errors
        def item(self, *args: Any) -> Any:
            """One element as a Python scalar: the only one, or the one at a
            flat index or index tuple."""

    if TYPE_CHECKING:  # NDArrayBase's sq_length (csrc/py/ndarray.c)
        def __len__(self) -> int: ...

    if TYPE_CHECKING:  # NDArrayBase's iteration (csrc/py/ndarray.c: x[0], x[1]... read one at a time)
        def __iter__(self) -> Iterator[NDArray]: ...

    # The conversions to Python scalars: ndarray_item (csrc/py/scalars.c)
    # reads the element and raises NumPy's error for each use (0 item,
    # 1 int/float/complex, 2 bool, 3 index).
    def __bool__(self) -> bool:
        return bool(core.ndarray_item(self, 2))

    def __contains__(self, value: Any) -> bool:
        """``value in x``: whether any element equals ``value``, compared
        with broadcasting as NumPy does, so ``[0, 1] in x`` asks about the
        rows of a 2-d ``x`` (Python's fallback would iterate the rows and
        ask each for one truth value)."""
        return bool((self == value).any())

    # ---- copying ------------------------------------------------------------
    def __copy__(self) -> NDArray:
        """``copy.copy(x)``: a new array with its own data, its axes laid out
        in memory as this one's (NumPy's ``__copy__`` keeps the order too)."""
        return self.copy("K")

    def __deepcopy__(self, memo: dict[int, Any]) -> NDArray:
        """``copy.deepcopy(x)``: a new array with its own data (elements are
        numbers, so there is nothing deeper to copy)."""
        return self.copy("K")

    def __reduce_ex__(self, protocol: SupportsIndex) -> Any:
        """Pickling (protocols 2 to 5): the elements, dtype, shape, memory
        order and read-only flag; with protocol 5 the elements go as a
        ``PickleBuffer`` over this array's memory, out of band when the
        pickler takes buffers (see :mod:`minarray._io`)."""
        from minarray import _io  # cycle: _io imports this module

        return _io.reduce(self, operator.index(protocol))

    # ---- bytes (minarray._io; the buffer protocol is the C type's) ----
    if TYPE_CHECKING:
        # PEP 688's spelling of the buffer protocol NDArrayBase implements in
        # C (bf_getbuffer): memoryview(x), bytes(x), PickleBuffer(x)...
        def __buffer__(self, flags: int, /) -> memoryview: ...

    def tobytes(self, order: str = "C") -> bytes:
        """The elements as bytes, in C order (``"C"``, and ``"K"``), Fortran
        order (``"F"``), or Fortran order when the array is Fortran- but not
        C-contiguous (``"A"``): NumPy's ``tobytes``."""
        from minarray import _io  # cycle: _io imports this module

        return _io.tobytes(self, order)

    def tofile(self, fid: Any, sep: str = "", format: str = "%s") -> None:
        """Write the elements in C order to ``fid`` (a path or a binary file):
        raw bytes, or text separated by ``sep`` (NumPy's ``tofile``)."""
        from minarray import _io  # cycle: _io imports this module

        _io.tofile(self, fid, sep, format)

    def __int__(self) -> int:
        # int() of the Python scalar raises Python's TypeError for a
        # complex one, as NumPy's does
        return int(core.ndarray_item(self, 1))

    def __float__(self) -> float:
        return float(core.ndarray_item(self, 1))

    def __complex__(self) -> complex:
        return complex(core.ndarray_item(self, 1))

    def __index__(self) -> int:
        v: int = core.ndarray_item(self, 3)
        return v

    def __repr__(self) -> str:
        from minarray import _printing  # cycle: _printing imports this module

        if core.dlpack_device(self._h)[0] != 1:  # a device array
            text: str = _dlpack().device_repr(self)  # the elements cannot be read
            return text
        return _printing.array_repr(self)

    def __str__(self) -> str:
        from minarray import _printing  # cycle: _printing imports this module

        if core.dlpack_device(self._h)[0] != 1:
            return repr(self)
        return _printing.array_str(self)

    # ---- NumPy interop -----------------------------------------------------
    @property
    def __array_interface__(self) -> dict[str, Any]:
        """NumPy's array interface (version 3): NumPy wraps the memory
        without copying.  bfloat16 and the storage types (float8...) have
        no typestr NumPy knows, so they have no interface (AttributeError:
        NumPy then calls ``__array__``)."""
        d = self._dtype
        if not d.typestr:
            raise AttributeError(f"{d} has no array-interface typestr; use np.asarray (needs ml_dtypes) or DLPack")
        return self._interface(d.typestr)

    def _interface(self, typestr: str) -> dict[str, Any]:
        n = self._dtype.itemsize
        # None means C order to NumPy: only when the strides are exactly C's
        # (a contiguous array may have other strides on size-1 axes)
        canonical = self._strides == c_strides(self._shape)
        return {
            "version": 3,
            "shape": self._shape,
            "typestr": typestr,
            # host_ptr, not data_ptr: NumPy will read it (a device array's raises)
            "data": (int(core.host_ptr(self._h)), bool(core.is_readonly(self._h))),
            "strides": None if canonical else tuple(s * n for s in self._strides),
            "descr": [("", typestr)],
        }

    def __array__(self, dtype: Any = None, copy: bool | None = None) -> Any:
        """``numpy.asarray(x)``: a NumPy array over the same memory (NumPy
        2's ``copy=`` keyword: True copies, False raises ValueError when a
        dtype conversion would need a copy).  bfloat16 and storage-type
        arrays (float8...) come back with ml_dtypes' dtype of the same name,
        still without a copy."""
        import numpy as np  # optional: NumPy is not a dependency of minarray

        if not self._dtype.typestr:
            # bfloat16 and the storage types: ml_dtypes' dtype of that name
            # (TypeError without ml_dtypes, saying so) over the raw bytes
            ml = self._dtype.numpy
            arr = np.asarray(_ArrayInterfaceView(self, f"<u{self._dtype.itemsize}")).view(ml)
        else:
            arr = np.asarray(_ArrayInterfaceView(self, self._dtype.typestr))
        if dtype is not None and np.dtype(dtype) != arr.dtype:
            if copy is False:
                raise ValueError(f"converting {self._dtype} to {np.dtype(dtype)} needs a copy, but copy=False")
            return arr.astype(dtype)
        if copy:
            return arr.copy()
        return arr

    # NumPy's dispatch protocols (NEP 18, NEP 13): np.sum(x), np.exp(x)...
    # run minarray's functions where they exist; see minarray/_numpy_dispatch.py.
    # The priority (above ndarray's 0.0) makes code that picks among mixed
    # chunk types by it, as Dask does, choose minarray's implementations.
    __array_priority__ = 1.0

    # NumPy's subclass protocol (minarray/_subclass.py calls both): a new
    # array of a subclass is finalized from the array it came from, and an
    # elementwise result goes through its input's __array_wrap__.
    def __array_finalize__(self, obj: Any) -> None:
        """Called on each new instance of a subclass, with the array it was
        made from (NumPy's hook: copy attributes from ``obj`` here)."""

    def __array_wrap__(self, arr: NDArray, context: Any = None, return_scalar: bool = False) -> NDArray:
        """``arr``, a result computed from this array, as this array's type
        (finalized from it); ``context`` is ``(function, inputs, 0)`` for an
        elementwise function, None for a reduction."""
        if type(arr) is type(self):
            return arr
        return _subclass.retype(arr, type(self), self)

    def __array_function__(self, func: Any, types: Any, args: Any, kwargs: Any) -> Any:
        from minarray._numpy_dispatch import array_function  # cycle: _numpy_dispatch imports this module

        return array_function(func, types, args, kwargs)

    def __array_ufunc__(self, ufunc: Any, method: str, *inputs: Any, **kwargs: Any) -> Any:
        from minarray._numpy_dispatch import array_ufunc  # cycle: _numpy_dispatch imports this module

        return array_ufunc(ufunc, method, inputs, kwargs)

    # ---- NumPy-style reduction methods: x.sum(axis=0), x.mean()... with
    # NumPy's signatures; see _numpy_dispatch.py.
    def sum(self, axis: Any = None, dtype: Any = None, out: NDArray | None = None, keepdims: bool = False,
            initial: Any = None, where: Any = True) -> NDArray:
        """NumPy's method spelling of :func:`minarray.sum`."""
        if type(self) is NDArray and out is None and initial is None and where is True:
            made: NDArray = _namespace().sum(self, axis, dtype, keepdims=keepdims)  # (the common call, direct)
            return made
        return _method("sum", self, axis=axis, dtype=dtype, out=out, keepdims=keepdims, initial=initial, where=where)

    def prod(self, axis: Any = None, dtype: Any = None, out: NDArray | None = None, keepdims: bool = False,
             initial: Any = None, where: Any = True) -> NDArray:
        """NumPy's method spelling of :func:`minarray.prod`."""
        if type(self) is NDArray and out is None and initial is None and where is True:
            made: NDArray = _namespace().prod(self, axis, dtype, keepdims=keepdims)
            return made
        return _method("prod", self, axis=axis, dtype=dtype, out=out, keepdims=keepdims, initial=initial,
                       where=where)

    def mean(self, axis: Any = None, dtype: Any = None, out: NDArray | None = None, keepdims: bool = False, *,
             where: Any = True) -> NDArray:
        """NumPy's method spelling of :func:`minarray.mean`."""
        if type(self) is NDArray and out is None and dtype is None and where is True:
            made: NDArray = _namespace().mean(self, axis, keepdims=keepdims)
            return made
        return _method("mean", self, axis=axis, dtype=dtype, out=out, keepdims=keepdims, where=where)

    def var(self, axis: Any = None, dtype: Any = None, out: NDArray | None = None, ddof: float = 0,
            keepdims: bool = False, *, where: Any = True, mean: Any = None,
            correction: float | None = None) -> NDArray:
        """NumPy's method spelling of :func:`minarray.var` (``ddof`` is the standard's ``correction``;
        either may be given)."""
        return _method("var", self, axis=axis, dtype=dtype, out=out, ddof=ddof, keepdims=keepdims, where=where,
                       mean=mean, correction=correction)

    def std(self, axis: Any = None, dtype: Any = None, out: NDArray | None = None, ddof: float = 0,
            keepdims: bool = False, *, where: Any = True, mean: Any = None,
            correction: float | None = None) -> NDArray:
        """NumPy's method spelling of :func:`minarray.std` (``ddof`` is the standard's ``correction``;
        either may be given)."""
        return _method("std", self, axis=axis, dtype=dtype, out=out, ddof=ddof, keepdims=keepdims, where=where,
                       mean=mean, correction=correction)

    def max(self, axis: Any = None, out: NDArray | None = None, keepdims: bool = False, initial: Any = None,
            where: Any = True) -> NDArray:
        """NumPy's method spelling of :func:`minarray.max`."""
        if type(self) is NDArray and out is None and initial is None and where is True:
            made: NDArray = _namespace().max(self, axis, keepdims=keepdims)
            return made
        return _method("max", self, axis=axis, out=out, keepdims=keepdims, initial=initial, where=where)

    def min(self, axis: Any = None, out: NDArray | None = None, keepdims: bool = False, initial: Any = None,
            where: Any = True) -> NDArray:
        """NumPy's method spelling of :func:`minarray.min`."""
        if type(self) is NDArray and out is None and initial is None and where is True:
            made: NDArray = _namespace().min(self, axis, keepdims=keepdims)
            return made
        return _method("min", self, axis=axis, out=out, keepdims=keepdims, initial=initial, where=where)

    def any(self, axis: Any = None, out: NDArray | None = None, keepdims: bool = False, *,
            where: Any = True) -> NDArray:
        """NumPy's method spelling of :func:`minarray.any`."""
        if type(self) is NDArray and out is None and where is True:
            made: NDArray = _namespace().any(self, axis, keepdims=keepdims)
            return made
        return _method("any", self, axis=axis, out=out, keepdims=keepdims, where=where)

    def all(self, axis: Any = None, out: NDArray | None = None, keepdims: bool = False, *,
            where: Any = True) -> NDArray:
        """NumPy's method spelling of :func:`minarray.all`."""
        if type(self) is NDArray and out is None and where is True:
            made: NDArray = _namespace().all(self, axis, keepdims=keepdims)
            return made
        return _method("all", self, axis=axis, out=out, keepdims=keepdims, where=where)

    def argmax(self, axis: int | None = None, out: NDArray | None = None, *, keepdims: bool = False) -> NDArray:
        """NumPy's method spelling of :func:`minarray.argmax`."""
        if type(self) is NDArray and out is None:
            if axis is None and not keepdims:
                # a contiguous array's index in one C call (None: anything else)
                found: NDArray | None = core.argreduce_all(1, self)
                if found is not None:
                    return found
            made: NDArray = _namespace().argmax(self, axis, keepdims=keepdims)
            return made
        return _method("argmax", self, axis=axis, out=out, keepdims=keepdims)

    def argmin(self, axis: int | None = None, out: NDArray | None = None, *, keepdims: bool = False) -> NDArray:
        """NumPy's method spelling of :func:`minarray.argmin`."""
        if type(self) is NDArray and out is None:
            if axis is None and not keepdims:
                found: NDArray | None = core.argreduce_all(0, self)
                if found is not None:
                    return found
            made: NDArray = _namespace().argmin(self, axis, keepdims=keepdims)
            return made
        return _method("argmin", self, axis=axis, out=out, keepdims=keepdims)

    def cumsum(self, axis: int | None = None, dtype: Any = None, out: NDArray | None = None) -> NDArray:
        """NumPy's method spelling of :func:`minarray.cumulative_sum`."""
        return _method("cumsum", self, axis=axis, dtype=dtype, out=out)

    def cumprod(self, axis: int | None = None, dtype: Any = None, out: NDArray | None = None) -> NDArray:
        """NumPy's method spelling of :func:`minarray.cumulative_prod`."""
        return _method("cumprod", self, axis=axis, dtype=dtype, out=out)

    # ---- NumPy's other methods: each the function of the namespace ---------
    def sort(self, axis: int = -1, kind: str | None = None, order: None = None, *,
             stable: bool | None = None) -> None:
        """Sort in place along ``axis`` (NumPy's method; the sort is always
        stable, whatever ``kind``).  :func:`minarray.sort` returns a copy."""
        if order is not None:
            raise ValueError("NDArray.sort: order= needs structured dtypes, which minarray does not have")
        from minarray._sorting import sort  # cycle: _sorting imports this module

        self[...] = sort(self, axis=axis)

    def argsort(self, axis: int = -1, kind: str | None = None, order: None = None, *,
                stable: bool | None = None) -> NDArray:
        """The indices that sort the array along ``axis`` (stable)."""
        if order is not None:
            raise ValueError("NDArray.argsort: order= needs structured dtypes, which minarray does not have")
        from minarray._sorting import argsort  # cycle: _sorting imports this module

        return argsort(self, axis=axis)

    def partition(self, kth: Any, axis: int = -1) -> None:
        """Partition in place around the positions ``kth`` (see
        :func:`minarray.partition`)."""
        from minarray._sorting import partition  # cycle: _sorting imports this module

        self[...] = partition(self, kth, axis=axis)

    def argpartition(self, kth: Any, axis: int = -1) -> NDArray:
        """The indices that partition the array (see :func:`minarray.argpartition`)."""
        from minarray._sorting import argpartition  # cycle: _sorting imports this module

        return argpartition(self, kth, axis=axis)

    def searchsorted(self, v: Any, side: str = "left", sorter: Any = None) -> NDArray:
        """Where ``v``'s elements would be inserted into this sorted 1-d array."""
        from minarray._sorting import _searchsorted  # cycle: _sorting imports this module

        return core.scalar_result(_searchsorted(self, v, side, sorter))

    def clip(self, min: Any = None, max: Any = None) -> NDArray:
        """:func:`minarray.clip` of this array."""
        from minarray import _elementwise as _ew  # cycle: _elementwise imports this module

        return _ew.clip(self, min, max)

    def round(self, decimals: int = 0, out: NDArray | None = None) -> NDArray:
        """:func:`minarray.round` of this array (halves to even; ``decimals``
        places, as NumPy)."""
        from minarray import _elementwise as _ew  # cycle: _elementwise imports this module

        return _ew.round(self, decimals, out=out)

    def conj(self) -> NDArray:
        """The complex conjugate (:func:`minarray.conj`)."""
        from minarray import _elementwise as _ew  # cycle: _elementwise imports this module

        return _ew.conj(self)

    def conjugate(self) -> NDArray:
        """NumPy's other name of :meth:`conj`."""
        return self.conj()

    def view(self, dtype: Any = None, type: Any = None) -> NDArray:
        """A view of the same memory, as the same dtype or reinterpreted as
        ``dtype``, of this array's class or of ``type`` (NDArray or a
        subclass; a class given as ``dtype`` is taken as ``type``, as NumPy
        does), finalized from this array.  A dtype of another size needs
        the last axis contiguous; its length scales by the ratio of the
        sizes."""
        cls = builtins.type(self)
        if isinstance(dtype, builtins.type) and issubclass(dtype, NDArray):
            dtype, type = None, dtype
        if type is not None:
            if not (isinstance(type, builtins.type) and issubclass(type, NDArray)):
                raise TypeError(f"Cannot specify output type: {type!r} is not a subclass of minarray.ndarray")
            cls = type
        plain = self if builtins.type(self) is NDArray else core.ndarray_view_as(self, NDArray)
        out = plain._dtype_view(dtype)
        return out if cls is NDArray else _subclass.retype(out, cls, self)

    def _dtype_view(self, dtype: Any) -> NDArray:
        """:meth:`view` of an NDArray itself, as ``dtype`` (None: its own)."""
        if dtype is None:
            return self._view(0, self._shape, self._strides, bool(core.is_readonly(self._h)))
        new = _dt.as_dtype(dtype)
        old = self._dtype
        shape, strides = list(self._shape), list(self._strides)
        if new.itemsize != old.itemsize:
            if not shape:
                raise ValueError("Changing the dtype of a 0d array is only supported if the itemsize is unchanged")
            if shape[-1] != 1 and strides[-1] != 1:
                raise ValueError("To change to a dtype of a different size, the last axis must be contiguous")
            nbytes = shape[-1] * old.itemsize
            if nbytes % new.itemsize:
                raise ValueError("When changing to a smaller dtype, its size must be a divisor of the size of "
                                 "original dtype" if new.itemsize < old.itemsize else
                                 "When changing to a larger dtype, its size must be a divisor of the total size "
                                 "in bytes of the last axis of the array.")
            shape[-1] = nbytes // new.itemsize
            for d in range(len(strides) - 1):
                if (strides[d] * old.itemsize) % new.itemsize:
                    raise ValueError(f"the strides of {self._shape} do not fit a {new} view")
                strides[d] = strides[d] * old.itemsize // new.itemsize
            strides[-1] = 1
        h = core.view(self._h, 0, tuple(shape), tuple(strides), new.code, new.bits, bool(core.is_readonly(self._h)))
        # the base by the views' rule (view_base in csrc/py/views.c)
        return NDArray._new(h, tuple(shape), tuple(strides), self._base if isinstance(self._base, NDArray) else self)

    def nonzero(self) -> tuple[NDArray, ...]:
        """The indices of the non-zero elements (:func:`minarray.nonzero`)."""
        from minarray._searching import nonzero  # cycle: _searching imports this module

        return nonzero(self)

    def dot(self, b: Any) -> NDArray:
        """:func:`minarray.dot` of this array and ``b``."""
        return _products().dot(self, b)  # type: ignore[no-any-return]

    def trace(self, offset: int = 0, axis1: int = 0, axis2: int = 1, dtype: Any = None) -> NDArray:
        """:func:`minarray.trace` (NumPy's: over ``axis1`` and ``axis2``)."""
        from minarray._statistical import trace  # cycle: _statistical imports this module

        return trace(self, offset, axis1, axis2, dtype)

    def diagonal(self, offset: int = 0, axis1: int = 0, axis2: int = 1) -> NDArray:
        """:func:`minarray.diagonal` (NumPy's: a read-only view, diagonal last)."""
        from minarray._manipulation import diagonal  # cycle: _manipulation imports this module

        return diagonal(self, offset, axis1, axis2)

    def repeat(self, repeats: Any, axis: int | None = None) -> NDArray:
        """:func:`minarray.repeat` of this array."""
        from minarray._manipulation import repeat  # cycle: _manipulation imports this module

        return repeat(self, repeats, axis=axis)

    def take(self, indices: Any, axis: int | None = None) -> NDArray:
        """:func:`minarray.take` of this array (``indices`` may be a list)."""
        from minarray._indexing import take  # cycle: _indexing imports this module

        return take(self, indices, axis=axis)

    def put(self, indices: Any, values: Any, mode: str = "raise") -> None:
        """:func:`minarray.put`: write ``values`` at flat ``indices``, in place."""
        from minarray._indexing import put  # cycle: _indexing imports this module

        put(self, indices, values, mode)

    def choose(self, choices: Any, out: NDArray | None = None, mode: str = "raise") -> NDArray:
        """:func:`minarray.choose` with this array as the index array."""
        from minarray._indexing import choose  # cycle: _indexing imports this module

        return choose(self, choices, out=out, mode=mode)

    def dumps(self) -> bytes:
        """The array pickled (protocol 2, as NumPy's ``dumps``):
        ``pickle.loads`` gives it back."""
        return pickle.dumps(self, protocol=2)

    def dump(self, file: Any) -> None:
        """Pickle the array to ``file``, a path or an open binary file
        (NumPy's ``dump``): ``pickle.load`` reads it back."""
        if isinstance(file, (str, os.PathLike)):
            with open(file, "wb") as f:
                pickle.dump(self, f, protocol=2)
        else:
            pickle.dump(self, file, protocol=2)

    def compress(self, condition: Any, axis: int | None = None) -> NDArray:
        """:func:`minarray.compress` of this array."""
        from minarray._indexing import compress  # cycle: _indexing imports this module

        return compress(condition, self, axis)

    def __divmod__(self, other: Any) -> tuple[NDArray, NDArray]:
        from minarray import _elementwise as _ew  # cycle: _elementwise imports this module

        return _ew.floor_divide(self, other), _ew.remainder(self, other)

    def __rdivmod__(self, other: Any) -> tuple[NDArray, NDArray]:
        from minarray import _elementwise as _ew  # cycle: _elementwise imports this module

        return _ew.floor_divide(other, self), _ew.remainder(other, self)

    def __format__(self, spec: str) -> str:
        """``f"{x:.2f}"``: a 0-d array formats as its Python scalar; other
        arrays only with an empty spec (their ``str``), as NumPy's."""
        if not self._shape:
            return format(self.item(), spec)
        if spec:
            raise TypeError(f"unsupported format string passed to NDArray.__format__ (an array of shape "
                            f"{self._shape}; format its elements, or a 0-d array)")
        return str(self)

    # ---- operators ---------------------------------------------------------
    # The arithmetic, comparison, bitwise and unary operators (and their
    # reflected and in-place forms) are the elementwise functions themselves,
    # installed on this class by minarray._elementwise at import; these
    # declarations only tell type checkers they exist.
    if TYPE_CHECKING:
        def __pos__(self) -> NDArray: ...
        def __neg__(self) -> NDArray: ...
        def __abs__(self) -> NDArray: ...
        def __invert__(self) -> NDArray: ...
        def __add__(self, other: Any) -> NDArray: ...
        def __radd__(self, other: Any) -> NDArray: ...
        def __iadd__(self, other: Any) -> NDArray: ...
        def __sub__(self, other: Any) -> NDArray: ...
        def __rsub__(self, other: Any) -> NDArray: ...
        def __isub__(self, other: Any) -> NDArray: ...
        def __mul__(self, other: Any) -> NDArray: ...
        def __rmul__(self, other: Any) -> NDArray: ...
        def __imul__(self, other: Any) -> NDArray: ...
        def __truediv__(self, other: Any) -> NDArray: ...
        def __rtruediv__(self, other: Any) -> NDArray: ...
        def __itruediv__(self, other: Any) -> NDArray: ...
        def __floordiv__(self, other: Any) -> NDArray: ...
        def __rfloordiv__(self, other: Any) -> NDArray: ...
        def __ifloordiv__(self, other: Any) -> NDArray: ...
        def __mod__(self, other: Any) -> NDArray: ...
        def __rmod__(self, other: Any) -> NDArray: ...
        def __imod__(self, other: Any) -> NDArray: ...
        def __pow__(self, other: Any) -> NDArray: ...
        def __rpow__(self, other: Any) -> NDArray: ...
        def __ipow__(self, other: Any) -> NDArray: ...
        def __and__(self, other: Any) -> NDArray: ...
        def __rand__(self, other: Any) -> NDArray: ...
        def __iand__(self, other: Any) -> NDArray: ...
        def __or__(self, other: Any) -> NDArray: ...
        def __ror__(self, other: Any) -> NDArray: ...
        def __ior__(self, other: Any) -> NDArray: ...
        def __xor__(self, other: Any) -> NDArray: ...
        def __rxor__(self, other: Any) -> NDArray: ...
        def __ixor__(self, other: Any) -> NDArray: ...
        def __lshift__(self, other: Any) -> NDArray: ...
        def __rlshift__(self, other: Any) -> NDArray: ...
        def __ilshift__(self, other: Any) -> NDArray: ...
        def __rshift__(self, other: Any) -> NDArray: ...
        def __rrshift__(self, other: Any) -> NDArray: ...
        def __irshift__(self, other: Any) -> NDArray: ...
        def __lt__(self, other: Any) -> NDArray: ...
        def __le__(self, other: Any) -> NDArray: ...
        def __gt__(self, other: Any) -> NDArray: ...
        def __ge__(self, other: Any) -> NDArray: ...
        def __eq__(self, other: Any) -> NDArray: ...  # type: ignore[override]
        def __ne__(self, other: Any) -> NDArray: ...  # type: ignore[override]

    # ---- DLPack (csrc/py/dlpack_*.c do the work; minarray/dlpack.py explains) -
    def __dlpack__(
        self,
        /,
        *,
        stream: int | None = None,
        max_version: tuple[int, int] | None = None,
        dl_device: tuple[int, int] | None = None,
        copy: bool | None = None,
    ) -> CapsuleType:
        """Export as a DLPack capsule (Array API ``array.__dlpack__``).

        ``max_version`` None (or major 0) gives a legacy ``"dltensor"``
        capsule, major >= 1 a ``"dltensor_versioned"`` one carrying DLPack
        1.3.  ``stream`` must be None (CPU).  ``dl_device`` other than
        ``(1, 0)`` raises BufferError.  ``copy=True`` exports a fresh copy
        (flag IS_COPIED); otherwise the capsule shares this array's memory
        and keeps it alive.  A read-only array exports with READ_ONLY; asked
        for a legacy capsule (which cannot say read-only) with
        ``copy=None`` it exports a copy, with ``copy=False`` BufferError.

        A device array (imported from a CUDA, ROCm... producer) is
        re-exported through that producer, asked with the consumer's
        ``stream``; a read-only one asked for a legacy capsule passes the
        request on, and raises BufferError only when the producer refuses
        it (docs/dlpack/devices.md)."""
        cap = core.dlpack_export(self._h, stream, max_version, dl_device, copy)
        if cap is NotImplemented:  # a device array: its producer synchronises
            cap = _dlpack().export_device(self, stream, max_version, dl_device, copy)
        return cap  # type: ignore[no-any-return]

    def __dlpack_device__(self) -> tuple[DLDeviceType, int]:
        """``(DLDeviceType.CPU, 0)``, or a device array's own device."""
        dev: tuple[DLDeviceType, int] = core.dlpack_device(self._h)  # CPU_DEVICE itself on the CPU
        return dev

    # The DLPack 1.3 C exchange API (a "dlpack_exchange_api" capsule): lets
    # C consumers export and import NDArrays without __dlpack__ or capsules.
    __dlpack_c_exchange_api__ = core.dlpack_exchange_api()

    # ---- matrix multiplication (minarray._linear_algebra) -------------------------
    def __matmul__(self, other: Any) -> NDArray:
        out: NDArray = _products().matmul(self, other)
        return out

    def __rmatmul__(self, other: Any) -> NDArray:
        out: NDArray = _products().matmul(other, self)
        return out

    def __imatmul__(self, other: Any) -> NDArray:
        """``x @= y``: the product written back into ``x`` (NumPy's rule: the
        result must have x's shape and cast to its dtype under same_kind)."""
        out: NDArray = _products().matmul(self, other)
        # the cast first, as NumPy checks it
        if not _dt.same_kind(out._dtype, self._dtype):
            raise _dt.ufunc_cast_error("matmul", "output", out._dtype, self._dtype, "same_kind")
        if out._shape != self._shape:
            raise ValueError(f"matmul: in-place product of shape {out._shape} does not fit the array of "
                             f"shape {self._shape}")
        self[...] = out
        return self


_products_module: Any = None


def _products() -> Any:
    """minarray._linear_algebra, imported on first use (it imports this
    module).  A function-level import costs ~0.4 us per call, as much as a
    small matrix product."""
    global _products_module
    if _products_module is None:
        from minarray import _linear_algebra  # cycle: _linear_algebra imports this module

        _products_module = _linear_algebra
    return _products_module


_namespace_module: Any = None
_array_method: Any = None


def _namespace() -> Any:
    """The package, imported on first use (it imports this module): the
    reduction methods' common calls go straight to its functions, a fifth
    of the cost of the general route below (an import statement inside a
    function costs about a microsecond a call)."""
    global _namespace_module
    if _namespace_module is None:
        import minarray  # cycle: the package imports this module

        _namespace_module = minarray
    return _namespace_module


def _method(name: str, x: NDArray, **kwargs: Any) -> NDArray:
    global _array_method
    if _array_method is None:
        from minarray._numpy_dispatch import array_method  # cycle: _numpy_dispatch imports this module

        _array_method = array_method
    array_method = _array_method
    if type(x) is NDArray:
        result: NDArray = array_method(name, x, **kwargs)
        return result
    # An instance of a subclass: computed on a plain view, then NumPy's wrap
    # of a reduction's result (no context; "return_scalar" for a 0-d one).
    result = array_method(name, core.ndarray_view_as(x, NDArray), **kwargs)
    if type(result) is _dt.scalar_class and _dt.scalar_class is not type(x):
        # NumPy hands the subclass's __array_wrap__ the 0-d array itself
        result = core.ndarray_copy(result, None)
    return x.__array_wrap__(result, None, result.ndim == 0) if type(result) is NDArray else result


class _ArrayInterfaceView:
    """Presents an NDArray's array interface to NumPy while keeping the
    array alive (NumPy stores this object as the result's base)."""

    __slots__ = ("__array_interface__", "_a")

    def __init__(self, a: NDArray, typestr: str) -> None:
        self._a = a
        self.__array_interface__ = a._interface(typestr)


_dlpack_module: Any = None


def _dlpack() -> Any:
    """minarray.dlpack (imported on first use: it imports this module)."""
    global _dlpack_module
    if _dlpack_module is None:
        from minarray import dlpack  # cycle: dlpack imports this module

        _dlpack_module = dlpack
    return _dlpack_module


_indexing_module: Any = None


def _indexing() -> Any:
    """minarray._indexing (imported on first use: it imports this module)."""
    global _indexing_module
    if _indexing_module is None:
        from minarray import _indexing  # cycle: _indexing imports this module

        _indexing_module = _indexing
    return _indexing_module


NDArray.__hash__ = None  # type: ignore[assignment]


# C builds NDArrays itself (imports, elementwise results, new arrays: no
# Python constructor on those paths): tell it the class and the dtype of
# each kernel type, in the order of csrc/core/array.h's ma_type enum.
core.ndarray_setup(NDArray, _dt.ALL)


def _getitem_general(x: NDArray, parsed: tuple[Any, ...]) -> NDArray:
    """x[key] for the advanced keys C leaves, the key parsed: minarray._indexing's."""
    out: NDArray = _indexing().getitem(x, parsed)
    return out


def _setitem_general(x: NDArray, parsed: tuple[Any, ...], value: Any) -> None:
    """x[key] = value for the keys and values C leaves, the key parsed."""
    _indexing().setitem(x, parsed, value)


# The general route of NDArray's indexing (csrc/py/views.c).
core.getitem_setup(_getitem_general, _setitem_general)

# Where C hands the results made from an instance of a subclass (csrc/py/ndarray.c).
core.subclass_setup(_subclass.like, _subclass.wrap)


# The views C builds directly (csrc/py/views.c), as globals: a global lookup
# is cheaper than an attribute of `core` on these short paths.
_setitem = core.ndarray_setitem


_permute_view = core.ndarray_permute


_transpose_view = core.ndarray_transpose


_reshape_view = core.ndarray_reshape
