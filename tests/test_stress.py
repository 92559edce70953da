"""Lifetimes under threads: memory shared across libraries is never freed
early or twice.

Eight threads share a pool of arrays for a bounded time (a few seconds;
MINARRAY_STRESS_SECONDS).  Each one repeatedly, in random order: creates
minarray arrays, exports them to NumPy and PyTorch, imports NumPy and
PyTorch arrays (and tensors from a C fake producer, csrc/py/testing.c) into
minarray, passes memory on from one library to the next, slices, reduces,
checks the values of a random array against what they must be, and drops
arrays.  A thread only drops arrays whose memory other threads brought in,
so deleters run on threads other than the one that exported or imported
the memory.  At the end: no thread saw a wrong value or an exception, every
fake tensor was deleted exactly once, and the allocator's statistics are
back to the start.
"""

from __future__ import annotations

import ctypes
import gc
import os
import random
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import pytest
from numpy_oracle import DLPACK_VERSIONED

import minarray as ma
from minarray._native import core, ffi, lib

try:
    import torch
except ImportError:  # pragma: no cover - torch is a test extra
    torch = None

THREADS = 8
SECONDS = float(os.environ.get("MINARRAY_STRESS_SECONDS", "3"))


@dataclass
class Item:
    """An array of any library, what it must hold, and the threads whose
    imports and exports brought its memory to it."""

    obj: Any
    expected: list[Any]
    origins: frozenset[int]


class FakeTensor:
    """A managed tensor from the C fake producer over a NumPy array, with
    its exact deletion counter (the deleters are C: no GIL needed)."""

    def __init__(self, values: np.ndarray) -> None:
        self.values = values
        self.counter = ffi.new("ma_test_counter *")
        self.shape = ffi.new("int64_t[]", list(values.shape))
        self.strides = ffi.new("int64_t[]", [s // values.itemsize for s in values.strides])
        m = self.struct = ffi.new("DLManagedTensorVersioned *")
        m.version.major, m.version.minor = 1, 3
        m.manager_ctx = self.counter
        m.deleter = ffi.addressof(lib, "ma_test_deleter_versioned")
        t = m.dl_tensor
        t.data = ffi.cast("void *", values.__array_interface__["data"][0])
        t.device.device_type, t.device.device_id = 1, 0
        t.ndim = values.ndim
        t.dtype.code, t.dtype.bits, t.dtype.lanes = 2, 64, 1
        t.shape, t.strides = self.shape, self.strides
        self.importer = threading.get_ident()

    @property
    def calls(self) -> int:
        return int(lib.ma_test_calls(self.counter))

    @property
    def deleter_thread(self) -> int:
        return int(self.counter.last_thread)


class ExchangeProducer:
    """Hands the fake tensor to minarray through the DLPack C exchange API."""

    __dlpack_c_exchange_api__ = None  # set below, once ctypes has made the capsule

    def __init__(self, t: FakeTensor) -> None:
        self._ma_test_tensor = int(ffi.cast("uintptr_t", t.struct))

    def __dlpack__(self, **kwargs: Any) -> Any:
        raise BufferError("exchange API only")


_PyCapsule_New = ctypes.PYFUNCTYPE(ctypes.py_object, ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p)(
    ("PyCapsule_New", ctypes.pythonapi))
# capsule names must outlive their capsules
VERSIONED, EXCHANGE_API = b"dltensor_versioned", b"dlpack_exchange_api"
ExchangeProducer.__dlpack_c_exchange_api__ = _PyCapsule_New(
    int(ffi.cast("uintptr_t", lib.ma_test_exchange_api())), EXCHANGE_API, None)


def _strides(x: Any) -> tuple[int, ...]:
    return tuple(x.stride()) if use_torch_tensor(x) else tuple(x.strides)


def use_torch_tensor(x: Any) -> bool:
    return torch is not None and isinstance(x, torch.Tensor)


def _values(x: Any) -> list[Any]:
    if isinstance(x, ma.NDArray):
        return x.tolist()  # type: ignore[no-any-return]
    return x.tolist()  # type: ignore[no-any-return]


class Pool:
    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.items: list[Item] = []
        self.fakes: list[FakeTensor] = []
        self.errors: list[BaseException] = []
        self.iterations = 0

    def put(self, item: Item) -> None:
        with self.lock:
            self.items.append(item)

    def pick(self, rng: random.Random) -> Item | None:
        with self.lock:
            return rng.choice(self.items) if self.items else None

    def take_any(self, rng: random.Random) -> None:
        with self.lock:
            item = self.items.pop(rng.randrange(len(self.items)))
        del item

    def take_foreign(self, rng: random.Random, me: int) -> Item | None:
        """Remove a random item whose memory another thread brought in."""
        with self.lock:
            others = [i for i, it in enumerate(self.items) if me not in it.origins]
            if not others:
                return None
            return self.items.pop(rng.choice(others))


def _worker(pool: Pool, seed: int, deadline: float, use_torch: bool) -> None:
    rng = random.Random(seed)
    me = threading.get_ident()

    def create() -> None:
        n = rng.randint(0, 40)
        a = ma.arange(n, dtype=ma.float64) * rng.choice([1.0, -0.5, 3.0])
        pool.put(Item(a, a.tolist(), frozenset({me})))

    def from_numpy() -> None:
        x = np.arange(rng.randint(1, 30), dtype=np.float64).reshape(-1, 1) * 2.0
        a = ma.from_dlpack(x) if rng.random() < 0.5 else ma.from_numpy(x)
        pool.put(Item(a, x.tolist(), frozenset({me})))

    def from_torch() -> None:
        t = torch.arange(rng.randint(1, 30), dtype=torch.float64) - 7.0
        a = ma.from_dlpack(t)  # PyTorch's C exchange API
        pool.put(Item(a, t.tolist(), frozenset({me})))

    def from_fake() -> None:
        values = np.linspace(-1.0, 1.0, rng.randint(1, 20))
        t = FakeTensor(values)
        with pool.lock:
            pool.fakes.append(t)
        if rng.random() < 0.5:
            a = ma.from_dlpack(ExchangeProducer(t))
        else:  # a bare capsule (no destructor: it is always consumed here)
            a = ma.from_dlpack(_PyCapsule_New(int(ffi.cast("uintptr_t", t.struct)), VERSIONED, None))
        pool.put(Item(a, values.tolist(), frozenset({me})))

    def exchange() -> None:
        it = pool.pick(rng)
        if it is None:
            return
        targets: list[Callable[[Any], Any]] = [ma.from_dlpack, np.from_dlpack]
        if use_torch and all(x >= 0 for x in _strides(it.obj)):
            targets.append(torch.from_dlpack)  # PyTorch has no negative strides
        if isinstance(it.obj, np.ndarray) and not it.obj.flags.writeable and not DLPACK_VERSIONED:
            targets = [ma.from_numpy]  # NumPy 2.0 exports no read-only array through DLPack
        out = rng.choice(targets)(it.obj)
        pool.put(Item(out, it.expected, it.origins | {me}))

    def slice_() -> None:
        it = pool.pick(rng)
        if it is None or not it.expected:
            return
        step = rng.choice([1, 2] if use_torch_tensor(it.obj) else [1, 2, -1, -3])
        pool.put(Item(it.obj[::step], it.expected[::step], it.origins | {me}))

    def check() -> None:
        it = pool.pick(rng)
        if it is None:
            return
        got = _values(it.obj)
        assert got == it.expected, f"wrong values in {type(it.obj).__name__}: {got} != {it.expected}"
        if isinstance(it.obj, ma.NDArray) and it.obj.size:
            total = float(ma.sum(it.obj))
            assert abs(total - float(np.sum(np.asarray(it.expected)))) <= 1e-9 * max(1.0, abs(total))

    def drop() -> bool:
        it = pool.take_foreign(rng, me)
        found = it is not None
        del it  # the last reference may go here: then the deleter runs on this thread
        return found

    actions: list[Callable[[], Any]] = [
        create, from_numpy, from_fake, exchange, exchange, slice_, check, check, drop, drop, drop,
    ]
    if use_torch:
        actions.append(from_torch)
    try:
        while time.monotonic() < deadline:
            # keep the pool around 100 arrays: most memory dies while the
            # threads are running, not in the main thread's final cleanup
            if len(pool.items) < 100:
                rng.choice(actions)()
            elif not drop():  # (many arrays carry every thread's exports)
                pool.take_any(rng)
            with pool.lock:
                pool.iterations += 1
    except BaseException as exc:  # reported by the main thread
        with pool.lock:
            pool.errors.append(exc)


def _run(use_torch: bool) -> Pool:
    pool = Pool()
    deadline = time.monotonic() + SECONDS
    workers = [threading.Thread(target=_worker, args=(pool, seed, deadline, use_torch)) for seed in range(THREADS)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    return pool


def _check(pool: Pool, start: dict[str, int]) -> None:
    assert not pool.errors, f"{len(pool.errors)} thread errors, first: {pool.errors[0]!r}"
    assert pool.iterations >= THREADS
    # the main thread drops what is left: again not the importing threads
    pool.items.clear()
    gc.collect()
    assert pool.fakes, "no fake tensor was imported"
    calls = [t.calls for t in pool.fakes]
    assert calls == [1] * len(calls), f"fake tensors deleted {sorted(set(calls))} times"
    # Threads drop only arrays other threads brought in, but a thread that
    # still holds a picked array for a moment may drop the last reference
    # itself: most deletions, not all, run on a thread other than the importer.
    foreign = sum(t.deleter_thread != t.importer for t in pool.fakes)
    assert foreign > 0, "no deleter ran on a thread other than its importer"
    end = ma.allocator_stats()
    for key in ("live_buffers", "live_bytes", "live_foreign"):
        assert end[key] == start[key], f"{key}: {start[key]} -> {end[key]}"


def test_threads_exchange_with_numpy() -> None:
    gc.collect()
    start = ma.allocator_stats()
    _check(_run(use_torch=False), start)


@pytest.mark.skipif(torch is None, reason="PyTorch is not installed")
def test_threads_exchange_with_numpy_and_torch() -> None:
    gc.collect()
    start = ma.allocator_stats()
    threads = torch.get_num_threads()
    torch.set_num_threads(1)  # eight Python threads already share two cores
    try:
        _check(_run(use_torch=True), start)
    finally:
        torch.set_num_threads(threads)


@pytest.mark.filterwarnings("error::pytest.PytestUnhandledThreadExceptionWarning")  # the scribbler must run
def test_keys_written_by_another_thread_never_reach_outside_x() -> None:
    """Large gathers, scatters and mask picks release the GIL.  Another
    thread that writes the index array or the mask meanwhile (a race in
    the program, not minarray's to order) may change which elements are
    taken, but every access stays inside x and the result: each call
    returns or raises IndexError, and x keeps its size-n values."""
    n = 200_000
    x = ma.arange(float(n))
    idx = ma.asarray(np.arange(0, n, 2, dtype=np.int64))
    mask = ma.asarray(np.arange(n) % 3 == 0)
    # writable NumPy views of the same memory (a legacy DLPack import is read-only before NumPy 2.1)
    idx_np, mask_np = np.asarray(idx), np.asarray(mask)
    stop = threading.Event()

    def scribble() -> None:
        rng = np.random.default_rng(5)
        while not stop.is_set():
            at = rng.integers(0, idx_np.size, 64)
            idx_np[at] = rng.choice([0, n - 1, n, -n - 1, 2**40], 64)  # out of bounds too
            mask_np[rng.integers(0, n, 4096)] = rng.random(4096) < 0.5
            idx_np[at] = at * 2

    t = threading.Thread(target=scribble)
    t.start()
    try:
        deadline = time.monotonic() + 1.0
        while time.monotonic() < deadline:
            for op in (lambda: x[idx], lambda: x.__setitem__(idx, -1.0), lambda: x[mask],
                       lambda: x.__setitem__(mask, -2.0), lambda: x[:, None][idx]):
                try:
                    r = op()
                except IndexError:
                    continue
                if r is not None:
                    assert r.shape[0] <= n
    finally:
        stop.set()
        t.join()
    values = np.from_dlpack(x)
    assert values.shape == (n,)
    assert np.all((values == -1.0) | (values == -2.0) | (values == np.arange(n)))


@pytest.mark.filterwarnings("error::pytest.PytestUnhandledThreadExceptionWarning")  # the scribbler must run
def test_kernels_that_release_the_gil_use_what_they_checked() -> None:
    """Every kernel that validates caller memory (repeat counts, gather
    indices, sort keys, needles, masks) and then works without the GIL
    reads it once, or re-checks it where it uses it: another thread that
    writes it meanwhile may change the answer, never the bounds.  Each call
    returns a result of a size its inputs allow, or raises a clear error.
    (docs/reliability.md lists the paths; repeat crashed before it took a
    snapshot of its counts.)"""
    src = ma.ones((3, 1 << 16))
    counts = ma.asarray([600, 1, 1])
    counts_np = np.asarray(counts)
    n = 1 << 16
    big = ma.arange(float(n))
    along = ma.asarray(np.zeros((1, n), dtype=np.int64))
    along_np = np.asarray(along)
    needles = ma.asarray(np.linspace(0, n, n))
    needles_np = np.asarray(needles)
    keys = ma.asarray(np.random.default_rng(1).random(n))
    keys_np = np.asarray(keys)
    mask = ma.asarray(np.arange(n) % 2 == 0)
    mask_np = np.asarray(mask)
    # partition's positions, handed to the C entry point directly (the
    # public functions pass it a private array): checked, then used
    kth = ma.asarray(np.array([10, n // 2, n - 1], dtype=np.int64))
    kth_np = np.asarray(kth)
    parted = ma.empty(n)
    stop = threading.Event()

    def scribble() -> None:
        rng = np.random.default_rng(9)
        while not stop.is_set():
            counts_np[1:] = rng.choice([1, 100_000, -5, 2**40], 2)
            kth_np[1] = rng.choice([-2**40, 2**40, n // 2])
            along_np[0, rng.integers(0, n, 256)] = rng.choice([0, n - 1, n, -n - 1, 2**40], 256)
            needles_np[rng.integers(0, n, 256)] = rng.choice([np.nan, -np.inf, np.inf, 5.0], 256)
            keys_np[rng.integers(0, n, 256)] = rng.random(256)
            mask_np[rng.integers(0, n, 256)] = rng.random(256) < 0.5
            counts_np[1:] = 1
            time.sleep(0)

    t = threading.Thread(target=scribble)
    t.start()
    ops: list[Callable[[], Any]] = [
        lambda: ma.repeat(src, counts, axis=0),
        lambda: ma.take_along_axis(big[None, :], along, axis=1),
        lambda: ma.searchsorted(big, needles),
        lambda: ma.sort(keys),
        lambda: ma.argsort(keys),
        lambda: ma.unique_values(keys),
        lambda: ma.nonzero(mask),
        lambda: core.partition(keys._h, parted._h, kth._h, False),
    ]
    try:
        deadline = time.monotonic() + 1.0
        while time.monotonic() < deadline:
            for op in ops:
                try:
                    r = op()
                except (IndexError, ValueError, MemoryError):  # MemoryError: counts of 100_000 x 2**16 rows
                    continue
                for a in () if r is None else r if isinstance(r, tuple) else (r,):
                    assert a.size <= 3 * n * 100_001
    finally:
        stop.set()
        t.join()
    assert np.all(np.from_dlpack(src) == 1.0)
