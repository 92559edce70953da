"""One minarray array shared by several processes, with no copy.

The memory is a ``multiprocessing.shared_memory`` block; each process views
it with ``ma.frombuffer`` (zero-copy) and works on its part in place.  Run
it with ``python shared_memory.py``.
"""

from __future__ import annotations

from multiprocessing import get_context, shared_memory

import minarray as ma

N = 1_000_000


def double_part(name: str, start: int, stop: int) -> None:
    """In a worker process: attach to the block and double elements start:stop."""
    block = shared_memory.SharedMemory(name=name)
    try:
        x = ma.frombuffer(block.buf, dtype=ma.float64, count=N)  # no copy
        x[start:stop] *= 2.0
        del x  # release the view before closing the block (close() refuses while it is exported)
    finally:
        block.close()


def main() -> float:
    block = shared_memory.SharedMemory(create=True, size=N * 8)
    try:
        x = ma.frombuffer(block.buf, dtype=ma.float64, count=N)
        x[...] = ma.arange(N, dtype=ma.float64)
        ctx = get_context("spawn")  # the same on Linux, macOS and Windows
        half = N // 2
        workers = [ctx.Process(target=double_part, args=(block.name, i * half, (i + 1) * half)) for i in range(2)]
        for w in workers:
            w.start()
        for w in workers:
            w.join()
        assert all(w.exitcode == 0 for w in workers)
        total = float(ma.sum(x))  # the workers' writes, seen here without a copy
        del x
    finally:
        block.close()
        block.unlink()
    return total


if __name__ == "__main__":
    print(main())  # 2 * (0 + 1 + ... + 999999)
