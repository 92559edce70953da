"""minarray chunks in a Dask cluster of worker processes.

Run it with ``python dask_processes.py``: it starts two worker processes,
sends them a Dask array whose chunks are minarray arrays, and gets a
minarray array back, equal to NumPy's result for the same computation.
"""

from __future__ import annotations

import dask.array as da
import numpy as np
from dask.distributed import Client, LocalCluster

import minarray as ma
import minarray.dask  # registers minarray with Dask in this process


def run(client: Client) -> ma.NDArray:
    """A map_blocks, a matrix product and a reduction on the cluster."""
    a = np.random.default_rng(0).random((800, 600))
    x = ma.asarray(a)
    d = da.from_array(x, chunks=(200, 300))   # 8 minarray chunks
    y = d.map_blocks(ma.sqrt) @ d.T           # each task runs minarray's kernels
    total = y.sum(axis=0).compute()           # chunks travel pickled, out of band
    assert isinstance(total, ma.NDArray)
    np.testing.assert_allclose(np.asarray(total), (np.sqrt(a) @ a.T).sum(axis=0), rtol=1e-12)
    return total


def main() -> None:
    with LocalCluster(processes=True, n_workers=2, threads_per_worker=1, dashboard_address=None) as cluster, \
            Client(cluster) as client:
        total = run(client)
        print(type(total).__name__, total.shape, total.dtype)


if __name__ == "__main__":
    main()
