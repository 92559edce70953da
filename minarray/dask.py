"""minarray arrays as the chunks of Dask arrays.

The supported way::

    import dask.array as da
    import minarray as ma
    import minarray.dask  # registers minarray with Dask (needs dask installed)

    x = ma.reshape(ma.arange(1_000_000.0), (1000, 1000))
    d = da.from_array(x, chunks=(250, 250))     # chunks stay minarray arrays
    y = d.map_blocks(ma.sqrt) @ d.T              # matmul per block: minarray's kernel
    total = y.sum(axis=0).compute()              # a minarray array

What Dask needs from a chunk type, and where minarray provides it:

* ``shape``, ``ndim``, ``dtype`` (``np.dtype(chunk.dtype)`` must work: it
  does, through :attr:`DType.dtype`), slicing, ``astype``, ``copy``.
* ``__array_function__`` and ``__array_ufunc__`` (NEP 18/13, on
  :class:`NDArray`): Dask's reductions call ``np.sum``, ``np.max``,
  ``np.concatenate``... on the chunks, and ``from_array`` keeps chunks as
  they are (instead of converting them with ``np.asarray``) only for types
  that define ``__array_function__``.
* the dispatch tables in ``dask.array.dispatch``, registered for
  :class:`NDArray` by :func:`register` (run when this module is imported):
  ``concatenate_lookup`` (joining chunks in ``compute``), ``tensordot_lookup``
  (``@``, ``da.tensordot``), ``take_lookup``, ``empty_lookup``,
  ``divide_lookup`` (means), ``numel_lookup``/``nannumel_lookup`` (element
  counts in means and variances, as minarray arrays), ``to_numpy_dispatch``;
  and ``dask.array.register_chunk_type``, so that a Dask array and a
  minarray array combine into a Dask array.

* ``dask.sizeof``: a chunk's size is its ``nbytes`` (Dask's memory
  accounting and the distributed scheduler's data-transfer costs read it).

Across processes (``dask.distributed`` with worker processes): chunks
travel pickled with protocol 5, their memory out of band, sent from the
array's own memory with no copy (see :mod:`minarray._io`).  A worker
process registers minarray with Dask by itself when the first minarray
array reaches it (the unpickler imports this module when Dask is loaded),
so nothing needs to run on the workers first; a graph that makes minarray
chunks on the workers without ever sending one can run
``client.run(importlib.import_module, "minarray.dask")`` once.

Importing :mod:`minarray` never imports Dask; only this module does.
"""

from __future__ import annotations

import importlib
import math
from typing import Any

from minarray._array_object import NDArray
from minarray._numpy_dispatch import _dtype

__all__ = ["register"]

_registered = False


def _ma() -> Any:
    import minarray  # cycle: the package imports this module

    return minarray


def _concatenate(arrays: Any, axis: int = 0) -> Any:
    return _ma().concat([_ma().asarray(a) for a in arrays], axis=axis)


def _tensordot(a: Any, b: Any, axes: Any = 2) -> Any:
    return _ma().tensordot(_ma().asarray(a), _ma().asarray(b), axes=axes)


def _take(a: Any, indices: Any, axis: int = 0) -> Any:
    return _ma().take(a, _ma().asarray(indices), axis=axis)


def _empty(shape: Any, dtype: Any = None, **kwargs: Any) -> Any:
    return _ma().empty(shape, dtype=dtype if dtype is not None else _ma().float64)


def _divide(x1: Any, x2: Any, out: Any = None, dtype: Any = None) -> Any:
    if out is not None:
        raise ValueError("minarray's divide for Dask does not take out=")
    r = _ma().divide(x1, x2)
    return r if dtype is None else r.astype(_dtype(dtype))


def _numel(x: NDArray, **kwargs: Any) -> Any:
    """Element counts per reduced position, as minarray arrays (mirrors
    dask.array.backends._numel)."""
    ma = _ma()
    keepdims = kwargs.get("keepdims", False)
    axis = kwargs.get("axis")
    dtype = _dtype(kwargs.get("dtype")) or ma.float64
    if axis is None:
        prod = math.prod(x.shape)
        if keepdims is False:
            return ma.asarray(prod, dtype=dtype)
        return ma.full((1,) * x.ndim, prod, dtype=dtype)
    axes = axis if isinstance(axis, (tuple, list)) else [axis]
    axes = [a % x.ndim for a in axes]
    prod = math.prod(x.shape[d] for d in axes)
    if keepdims is True:
        shape = tuple(1 if d in axes else n for d, n in enumerate(x.shape))
    else:
        shape = tuple(n for d, n in enumerate(x.shape) if d not in axes)
    return ma.full(shape, prod, dtype=dtype)


def _nannumel(x: NDArray, **kwargs: Any) -> Any:
    ma = _ma()
    return ma.sum(ma.logical_not(ma.isnan(x)), axis=kwargs.get("axis"), dtype=_dtype(kwargs.get("dtype")),
                  keepdims=bool(kwargs.get("keepdims", False)))


def _to_numpy(x: NDArray, **kwargs: Any) -> Any:
    import numpy as np  # optional: NumPy is not a dependency of minarray

    return np.asarray(x)


def _sizeof(x: NDArray) -> int:
    return x.nbytes


def register() -> None:
    """Register :class:`NDArray` with Dask's chunk-type registry and
    dispatch tables.  Idempotent; runs when :mod:`minarray.dask` is
    imported."""
    global _registered
    if _registered:
        return
    # through Any: Dask's registries are untyped
    da: Any = importlib.import_module("dask.array")
    dispatch: Any = importlib.import_module("dask.array.dispatch")
    da.register_chunk_type(NDArray)
    dispatch.concatenate_lookup.register(NDArray, _concatenate)
    dispatch.tensordot_lookup.register(NDArray, _tensordot)
    dispatch.take_lookup.register(NDArray, _take)
    dispatch.empty_lookup.register(NDArray, _empty)
    dispatch.divide_lookup.register(NDArray, _divide)
    dispatch.numel_lookup.register(NDArray, _numel)
    dispatch.nannumel_lookup.register(NDArray, _nannumel)
    dispatch.to_numpy_dispatch.register(NDArray, _to_numpy)
    sizeof: Any = importlib.import_module("dask.sizeof")
    sizeof.sizeof.register(NDArray, _sizeof)
    _registered = True


register()
