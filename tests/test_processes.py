"""minarray arrays across processes: a dask.distributed cluster of worker
processes, and one array shared through multiprocessing.shared_memory.
Both run the examples the documentation shows (docs/examples/), NumPy as
the oracle."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np
import pytest

import minarray as ma

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "docs" / "examples"


def load_example(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"example_{name}", EXAMPLES / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_chunks_are_pickled_out_of_band_without_a_copy() -> None:
    """What dask.distributed does to a chunk it sends: pickle protocol 5,
    the elements as a frame that is the array's own memory."""
    pytest.importorskip("distributed", reason="dask.distributed is not installed")
    from distributed.protocol import deserialize, serialize

    x = ma.arange(12_000.0).reshape(100, 120)
    for chunk in (x, x[10:20], x.T):
        header, frames = serialize(chunk)
        assert header["serializer"] == "pickle"
        big = [f for f in frames if memoryview(f).nbytes == chunk.nbytes]
        assert len(big) == 1 and sum(memoryview(f).nbytes for f in frames) < chunk.nbytes + 400
        assert np.frombuffer(big[0], np.uint8).ctypes.data == chunk.data_ptr
        back = deserialize(header, frames)
        assert isinstance(back, ma.NDArray) and back.tolist() == chunk.tolist()


def test_dask_distributed_with_worker_processes() -> None:
    pytest.importorskip("dask.array", reason="Dask is not installed")
    pytest.importorskip("distributed", reason="dask.distributed is not installed")
    from dask.distributed import Client, LocalCluster

    example = load_example("dask_processes")
    with LocalCluster(processes=True, n_workers=2, threads_per_worker=1, dashboard_address=None) as cluster, \
            Client(cluster) as client:
        total = example.run(client)  # checks itself against NumPy
        assert isinstance(total, ma.NDArray) and total.shape == (800,)
        workers: dict[str, Any] = client.run(lambda: (os.getpid(), "minarray.dask" in sys.modules))
        pids = {pid for pid, _ in workers.values()}
        assert len(pids) == 2 and os.getpid() not in pids  # really other processes
        assert all(registered for _, registered in workers.values())  # they registered minarray themselves
        del total


def test_shared_memory_example() -> None:
    """Two spawned processes double halves of one shared array in place."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), env.get("PYTHONPATH", "")])
    proc = subprocess.run([sys.executable, str(EXAMPLES / "shared_memory.py")], env=env, capture_output=True,
                          text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    n = 1_000_000
    assert float(proc.stdout) == 2 * float(np.arange(n, dtype=np.float64).sum())


def test_frombuffer_over_shared_memory_in_this_process() -> None:
    """The sharing itself, without processes: two views of one block see
    each other's writes, and the block closes once the views are gone."""
    from multiprocessing import shared_memory

    block = shared_memory.SharedMemory(create=True, size=80)
    try:
        other = shared_memory.SharedMemory(name=block.name)
        x = ma.frombuffer(block.buf, dtype=ma.int64)
        y = ma.frombuffer(other.buf, dtype=ma.int64, count=5, offset=40)
        x[5:] = ma.arange(5)
        assert y.tolist() == [0, 1, 2, 3, 4]
        y[0] = 42
        assert x[5] == 42
        with pytest.raises(BufferError):  # exported: the block cannot close under the array
            other.close()
        del x, y
        other.close()
    finally:
        block.close()
        block.unlink()
