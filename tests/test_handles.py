"""An NDArray's handle (``_h``): a small object of minarray's own type that
owns the array's C metadata.  It cannot be made or forged from Python, it
is freed (and its memory given back) with the last reference whichever
side dies first, and a device array's handle refuses every read."""

from __future__ import annotations

import ctypes
import gc

import numpy as np
import pytest

import minarray as ma
from minarray._native import core

_PyCapsule_New = ctypes.PYFUNCTYPE(ctypes.py_object, ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p)(
    ("PyCapsule_New", ctypes.pythonapi))
_NAME = b"minarray.array"  # the name handles once had, alive as long as the process


def test_a_handle_is_its_own_type() -> None:
    h = ma.arange(3.0)._h
    assert type(h).__name__ == "Handle" and type(h).__module__ == "minarray._core"
    with pytest.raises(TypeError):
        type(h)()
    assert "Handle" not in vars(core)  # reachable as type(x._h) only


def test_a_capsule_is_not_a_handle() -> None:
    """A capsule under the old handle name, around any address, is refused
    wherever a handle is expected: nothing reads through it."""
    x = ma.arange(4.0)
    cap = _PyCapsule_New(x.data_ptr, _NAME, None)
    for call in (lambda: core.copyto(cap, x._h), lambda: core.copyto(x._h, cap), lambda: core.fill(cap, 1),
                 lambda: core.data_ptr(cap), lambda: core.ndarray_wrap(cap, None, None, None)):
        with pytest.raises(TypeError, match="handle"):
            call()
    assert x.tolist() == [0.0, 1.0, 2.0, 3.0]


def test_handles_are_reused_and_give_memory_back() -> None:
    """Dead handles are kept for reuse (a free list): arrays made and
    dropped in any order, views outliving their array and foreign memory
    included, free every buffer exactly once."""
    before = ma.allocator_stats()
    owner = np.arange(64.0)
    kept = []
    for i in range(500):
        x = ma.zeros(8) if i % 3 else ma.asarray(owner)
        v = x[1:][::2]
        if i % 7 == 0:
            kept.append(v)  # outlives x
        del x
        if i % 11 == 0:
            kept.clear()
        assert v.shape == ((4,) if i % 3 else (32,))
    del v, kept
    gc.collect()
    after = ma.allocator_stats()
    assert after["live_buffers"] == before["live_buffers"]
    assert after["live_foreign"] == before["live_foreign"]


def test_a_device_handle_still_refuses_reads() -> None:
    """The guard is a mark on the handle: set when the memory's device is not
    CPU-addressable, and it follows set_device both ways."""
    h = core.empty((3,), 2, 64, True)
    x = core.ndarray_wrap(h, None, None, None)
    assert x.tolist() == [0.0, 0.0, 0.0]
    core.dlpack_set_device(h, 2, 0)  # CUDA
    with pytest.raises(RuntimeError, match="cuda:0"):
        x.tolist()
    with pytest.raises(RuntimeError, match="cuda:0"):
        core.fill(h, 1.0)
    assert core.dlpack_device(h)[1] == 0 and x[1:].shape == (2,)  # metadata only: allowed
    core.dlpack_set_device(h, 3, 0)  # pinned host memory: the CPU reads it
    assert x.tolist() == [0.0, 0.0, 0.0]


# ---- NDArray objects are reused too (csrc/py/ndarray.c) ------------------------

def test_ndarray_objects_are_reused_cleanly() -> None:
    """A dead NDArray goes on a free list: the class keeps its reference
    count, a reused object carries nothing of its past (weak references,
    shape, base), and weak references die with their array."""
    import sys
    import weakref

    x = ma.arange(12.0).reshape(3, 4)
    counts = []
    for _ in range(4):  # the first round may fill caches that refer to the class
        counts.append(sys.getrefcount(ma.NDArray))
        for _ in range(1000):
            v = x[1:, ::2]
            del v
    assert counts[1] == counts[2] == counts[3]
    v = x[:2]
    w = weakref.ref(v)
    assert w() is v
    del v
    assert w() is None
    for _ in range(100):  # some of these reuse v's object
        u = ma.zeros(3)
        assert u.base is None and u.shape == (3,) and u.tolist() == [0.0, 0.0, 0.0]
        assert weakref.getweakrefcount(u) == 0


def test_subclass_instances_are_freed_with_their_class_reference() -> None:
    import sys

    class Sub(ma.NDArray):
        __slots__ = ()

    x = ma.arange(4.0)
    counts = []
    for _ in range(3):
        counts.append(sys.getrefcount(Sub))
        for _ in range(100):
            s = x.view(Sub)
            tail = s[1:]  # a view of a Sub is a Sub: freed with its class reference too
            assert type(tail) is Sub and tail.tolist() == [1.0, 2.0, 3.0]
            del s, tail
    assert counts[1] == counts[2]
    assert x.tolist() == [0.0, 1.0, 2.0, 3.0]


def test_ndarray_setup_refuses_what_the_free_list_cannot_keep() -> None:
    """The class C builds NDArrays of may have no fields, __dict__ or
    finalizer of its own (its deallocator is replaced by one that keeps
    dead objects); a refused class changes nothing."""
    import minarray._dtypes as dt

    class WithDict(core.NDArrayBase):
        pass

    class WithDel(core.NDArrayBase):
        __slots__ = ()

        def __del__(self) -> None:
            pass

    class Grandchild(ma.NDArray):
        __slots__ = ()

    for cls in (WithDict, WithDel, Grandchild):
        with pytest.raises(TypeError, match="must subclass NDArrayBase directly"):
            core.ndarray_setup(cls, dt.ALL)
    assert type(ma.arange(2.0)) is ma.NDArray


# ---- the producer-type cache of from_dlpack (csrc/py/dlpack_import.c) -----------

def test_from_dlpack_follows_a_producer_type_that_changes() -> None:
    """from_dlpack keeps what it looked up on the last producer type (its
    __dlpack__, exchange API, lazy bits) under the type's version: a class
    changed between calls, or an instance attribute shadowing the method,
    is seen as a fresh look-up would see it."""
    src = ma.arange(4.0)  # takes every keyword on any NumPy (2.0's __dlpack__ takes only stream)
    calls: list[str] = []

    class Producer:
        __slots__ = ()

        def __dlpack__(self, **kw: object) -> object:
            calls.append("first")
            return src.__dlpack__(**kw)

        def __dlpack_device__(self) -> tuple[int, int]:
            return (1, 0)

    assert ma.from_dlpack(Producer()).tolist() == [0.0, 1.0, 2.0, 3.0]
    assert ma.from_dlpack(Producer()).tolist() == [0.0, 1.0, 2.0, 3.0]

    def second(self: object, **kw: object) -> object:
        calls.append("second")
        return (src * 2).__dlpack__(**kw)

    Producer.__dlpack__ = second  # type: ignore[method-assign]
    assert ma.from_dlpack(Producer()).tolist() == [0.0, 2.0, 4.0, 6.0]
    del Producer.__dlpack__
    with pytest.raises(TypeError, match="needs an object with __dlpack__"):
        ma.from_dlpack(Producer())
    assert calls == ["first", "first", "second"]

    class WithDict:
        def __dlpack__(self, **kw: object) -> object:
            return src.__dlpack__(**kw)

    w = WithDict()
    assert ma.from_dlpack(w).tolist() == [0.0, 1.0, 2.0, 3.0]
    w.__dlpack__ = lambda **kw: (src + 1).__dlpack__(**kw)  # type: ignore[method-assign]
    assert ma.from_dlpack(w).tolist() == [1.0, 2.0, 3.0, 4.0]  # the instance's, as a method call finds it


# ---- arrays of up to four dims live in their handle ---------------------------

@pytest.mark.parametrize("nd", [0, 1, 4, 5, 7])
def test_views_and_results_of_every_rank_give_memory_back(nd: int) -> None:
    """A handle holds an array of up to MA_HANDLE_DIMS (4) dims in itself
    and allocates larger ones apart: views, results and reductions of
    either kind read right and free their buffers, in any order."""
    shape = (2,) * nd
    before = ma.allocator_stats()
    ref = np.arange(2.0 ** nd).reshape(shape)
    x = ma.asarray(ref)
    rev = (slice(None, None, -1),) * nd
    for _ in range(3):
        v = x[rev] if nd else x[()]
        r = v + x
        s = ma.sum(r, axis=0) if nd else ma.sum(r)
        e = ma.empty(shape)
        assert e.shape == shape
        np.testing.assert_array_equal(np.asarray(r), ref[rev] + ref)
        np.testing.assert_array_equal(np.asarray(s), (ref[rev] + ref).sum(axis=0 if nd else None))
        del x  # the views outlive their array
        x = ma.asarray(np.asarray(r) - ref[rev])
        del v, r, s, e
    np.testing.assert_array_equal(np.asarray(x), ref)
    del x
    after = ma.allocator_stats()
    assert after["live_buffers"] == before["live_buffers"]


# ---- which NDArrays the garbage collector tracks (ndarray.c) -------------------

class _Producer:
    """A DLPack producer (a Python object the collector tracks) that keeps
    what was imported from it: a reference cycle through an NDArray."""

    def __init__(self) -> None:
        self.a = np.arange(4.0)
        self.imported: list[object] = []

    def __dlpack__(self, **kw: object) -> object:
        return self.a.__dlpack__(**kw)

    def __dlpack_device__(self) -> tuple[int, int]:
        return (1, 0)


def test_cycles_through_ndarrays_are_collected() -> None:
    """NDArrays over tracked bases are tracked, so the collector frees a
    cycle through them: the producer's memory comes back."""
    import weakref

    p = _Producer()
    x = ma.from_dlpack(p)
    v = x[1:]  # its base is x
    p.imported += [x, v]
    assert gc.is_tracked(x) and gc.is_tracked(v)
    w = weakref.ref(p)
    before = ma.allocator_stats()["live_foreign"]
    del p, x, v
    gc.collect()
    assert w() is None
    assert ma.allocator_stats()["live_foreign"] == before - 1


def test_ndarrays_over_untracked_bases_are_not_tracked() -> None:
    """Fresh arrays, views of them and imports of NumPy arrays lead to no
    tracked object (a cycle through them could never be collected), so the
    collector skips them, as it skips NumPy's arrays; storing a tracked
    object as _base or _dtype tracks the array from then on."""
    x = ma.arange(6.0)
    for a in (x, x[1:], x.reshape(2, 3).T, x + 1, ma.from_dlpack(np.arange(3.0)), ma.asarray(np.arange(3.0))[1:]):
        assert not gc.is_tracked(a)
    y = x[1:]
    y._base = _Producer()
    assert gc.is_tracked(y)
    assert isinstance(y._base, _Producer)
    del y._base
    with pytest.raises(AttributeError, match="_base"):
        _ = y._base


@pytest.mark.parametrize("nd", [0, 1, 4, 5, 6])
@pytest.mark.parametrize("copy", [None, True])
def test_imports_of_every_rank_give_memory_back(nd: int, copy: bool | None) -> None:
    """An import builds its array in the new handle's room when it has at
    most four dims, and allocates it otherwise (or for a copy): either
    way the values are the producer's and the producer's memory comes back
    when the array dies."""
    ref = np.arange(2.0 ** nd).reshape((2,) * nd)
    before = ma.allocator_stats()
    for _ in range(3):
        x = ma.from_dlpack(ref, copy=copy)
        v = x[(slice(None, None, -1),) * nd] if nd else x
        np.testing.assert_array_equal(np.asarray(v), ref[(slice(None, None, -1),) * nd] if nd else ref)
        assert (x.base is ref) == (copy is None)
        del x, v
    after = ma.allocator_stats()
    assert after["live_foreign"] == before["live_foreign"]
    assert after["live_buffers"] == before["live_buffers"]
