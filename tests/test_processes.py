"""minarray arrays across processes: a dask.distributed cluster of worker
processes, and one array shared through multiprocessing.shared_memory.
Both run the examples the documentation shows (docs/examples/), NumPy as
the oracle."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import minarray as ma

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "docs" / "examples"


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


DRIVER = """
import importlib.util, json, os, sys
from dask.distributed import Client, LocalCluster

spec = importlib.util.spec_from_file_location("dask_processes", sys.argv[1])
example = importlib.util.module_from_spec(spec)
spec.loader.exec_module(example)

if __name__ == "__main__":
    with LocalCluster(processes=True, n_workers=2, threads_per_worker=1, dashboard_address=None) as cluster, \\
            Client(cluster) as client:
        total = example.run(client)  # checks itself against NumPy
        workers = client.run(lambda: (os.getpid(), "minarray.dask" in sys.modules))
    print(json.dumps({"type": type(total).__name__, "shape": total.shape, "pid": os.getpid(),
                      "workers": list(workers.values())}))
"""


def run_script(path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), env.get("PYTHONPATH", "")])
    return subprocess.run([sys.executable, str(path), *args], env=env, capture_output=True, text=True, timeout=180)


def test_dask_distributed_with_worker_processes(tmp_path: Path) -> None:
    """The documented example on a LocalCluster of two worker processes.
    It runs in a process of its own: the cluster's scheduler lives in the
    process that starts it, and distributed keeps it (with the graph's
    data) after the cluster closes, which would read as a leak here."""
    pytest.importorskip("dask.array", reason="Dask is not installed")
    pytest.importorskip("distributed", reason="dask.distributed is not installed")
    driver = tmp_path / "driver.py"
    driver.write_text(DRIVER)
    proc = run_script(driver, str(EXAMPLES / "dask_processes.py"))
    assert proc.returncode == 0, proc.stderr[-3000:]
    out = json.loads(proc.stdout.strip().splitlines()[-1])
    assert out["type"] == "NDArray" and out["shape"] == [800]
    pids = {pid for pid, _ in out["workers"]}
    assert len(pids) == 2 and out["pid"] not in pids  # really other processes
    assert all(registered for _, registered in out["workers"])  # they registered minarray themselves


def test_shared_memory_example() -> None:
    """Two spawned processes double halves of one shared array in place."""
    proc = run_script(EXAMPLES / "shared_memory.py")
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
