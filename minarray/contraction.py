"""``einsum`` and ``einsum_path``: Einstein summation over minarray's own
products.

The order in which to contract the operands comes from opt_einsum (a pure
Python, well-kept library that finds good contraction paths: greedy,
optimal, dynamic programming); every step it chooses runs here, on one or
two operands, through minarray's functions: repeated subscripts become
strided diagonal views, subscripts no later step needs are summed away,
and a pair of operands becomes one batched matrix product
(:func:`minarray.matmul`, the one C dispatch for BLAS and minarray's
kernels) between views reordered as (batch, free, contracted).
"""

from __future__ import annotations

import math
from typing import Any

from minarray import dtypes as _dt
from minarray.creation import as_operand
from minarray.ndarray import NDArray
from minarray.products import matmul
from minarray.reductions import sum as _sum
from minarray.views import broadcast_to

__all__ = ["einsum", "einsum_path"]


def _diagonal(x: NDArray, term: str) -> tuple[NDArray, str]:
    """Repeated subscripts of one operand (``"ii"``) as a diagonal view."""
    while len(set(term)) != len(term):
        c = next(ch for ch in term if term.count(ch) > 1)
        i, j = term.index(c), term.index(c, term.index(c) + 1)
        if x.shape[i] != x.shape[j]:
            raise ValueError(f"einsum: dimensions in operand for collapsing index '{c}' don't match "
                             f"({x.shape[i]} != {x.shape[j]})")
        shape = [s for k, s in enumerate(x.shape) if k != j]
        strides = [s for k, s in enumerate(x._strides) if k != j]
        strides[i] = x._strides[i] + x._strides[j]
        x = x._view(0, tuple(shape), tuple(strides))
        term = term[:j] + term[j + 1:]
    return x, term


def _sum_out(x: NDArray, term: str, keep: str) -> tuple[NDArray, str]:
    """Sum over the subscripts of ``term`` not in ``keep`` (in x's dtype, as
    NumPy's einsum accumulates)."""
    gone = tuple(i for i, c in enumerate(term) if c not in keep)
    if not gone:
        return x, term
    out = _sum(x, axis=gone, dtype=x.dtype)
    return out, "".join(c for c in term if c in keep)


def _sizes(ops: list[tuple[NDArray, str]]) -> dict[str, int]:
    sizes: dict[str, int] = {}
    for x, term in ops:
        for c, n in zip(term, x.shape, strict=True):
            m = sizes.get(c, 1)
            if n != 1 and m != 1 and n != m:
                raise ValueError(f"einsum: operands could not be broadcast together: subscript '{c}' has "
                                 f"sizes {m} and {n}")
            sizes[c] = max(m, n) if n != 1 and m != 1 else (n if m == 1 else m)
    return sizes


def _arrange(x: NDArray, term: str, order: str, sizes: dict[str, int]) -> NDArray:
    """``x`` with its axes in ``order`` and broadcast to the common sizes."""
    y = x.transpose(tuple(term.index(c) for c in order)) if term != order else x
    shape = tuple(sizes[c] for c in order)
    return broadcast_to(y, shape) if y.shape != shape else y


def _step(spec: str, operands: list[NDArray]) -> NDArray:
    """One contraction of opt_einsum's path: one or two operands, explicit
    output subscripts."""
    inputs, out = spec.split("->")
    terms = inputs.split(",")
    ops = [_diagonal(x, t) for x, t in zip(operands, terms, strict=True)]
    if len(ops) == 1:
        x, term = _sum_out(*ops[0], out)
        return x.transpose(tuple(term.index(c) for c in out)) if term != out else x
    (a, ta), (b, tb) = ops
    a, ta = _sum_out(a, ta, out + tb)
    b, tb = _sum_out(b, tb, out + ta)
    sizes = _sizes([(a, ta), (b, tb)])
    batch = "".join(c for c in out if c in ta and c in tb)
    a_only = "".join(c for c in ta if c not in tb)
    b_only = "".join(c for c in tb if c not in ta)
    contracted = "".join(c for c in ta if c in tb and c not in out)
    a2 = _arrange(a, ta, batch + a_only + contracted, sizes)
    b2 = _arrange(b, tb, batch + contracted + b_only, sizes)
    bs = tuple(sizes[c] for c in batch)
    m, k, n = (math.prod(sizes[c] for c in s) for s in (a_only, contracted, b_only))
    prod = matmul(a2.reshape((*bs, m, k)), b2.reshape((*bs, k, n)))
    res_term = batch + a_only + b_only
    res = prod.reshape(tuple(sizes[c] for c in res_term))
    return res.transpose(tuple(res_term.index(c) for c in out)) if res_term != out else res


def _parse(subscripts: Any, operands: tuple[Any, ...]) -> tuple[str, list[NDArray]]:
    if not isinstance(subscripts, str):
        raise TypeError("einsum: minarray takes the subscripts as a string (\"ij,jk->ik\"), "
                        "not NumPy's interleaved operand, sublist form")
    arrays = [as_operand(x, "einsum") for x in operands]
    if not arrays:
        raise ValueError("einsum: no operands given")
    return subscripts.replace(" ", ""), arrays


def _path(subscripts: str, arrays: list[NDArray], optimize: Any) -> tuple[list[Any], Any]:
    import opt_einsum

    if optimize is False:  # left to right, as NumPy's default
        optimize = [(0, 1)] * (len(arrays) - 1) if len(arrays) > 1 else [(0,)]
    elif optimize is True:
        optimize = "auto"
    try:
        path, info = opt_einsum.contract_path(subscripts, *(a.shape for a in arrays), shapes=True,
                                              optimize=optimize)
    except ValueError as e:
        raise ValueError(f"einsum: {e}") from None
    return list(path), info


def einsum(subscripts: str, *operands: Any, dtype: Any = None, optimize: Any = True) -> NDArray:
    """Einstein summation (NumPy's ``einsum``, subscripts as a string with
    ``->`` and ``...`` as NumPy reads them).  ``optimize``: True (the
    default; NumPy's is False, which changes only speed and rounding
    order) picks the contraction order with opt_einsum's ``"auto"``;
    False contracts left to right; opt_einsum's strategy names
    (``"greedy"``, ``"optimal"``...) and explicit paths are passed to it.
    ``dtype`` casts the operands first.  Each pairwise step is one batched
    :func:`minarray.matmul`."""
    spec, arrays = _parse(subscripts, operands)
    if dtype is not None:
        dt = _dt.as_dtype(dtype)
        arrays = [a.astype(dt) for a in arrays]
    _, info = _path(spec, arrays, optimize)
    work = list(arrays)
    for inds, _removed, step, _remaining, _blas in info.contraction_list:
        picked = [work.pop(i) for i in sorted(inds, reverse=True)]
        # contract_inds come sorted as opt_einsum popped them: its einsum
        # string lists the operands in that same order
        work.append(_step(step, picked))
    (result,) = work
    want = _dt.result_type(*arrays) if len(arrays) > 1 else arrays[0].dtype
    return result if result.dtype is want else result.astype(want)


def einsum_path(subscripts: str, *operands: Any, optimize: Any = "greedy") -> tuple[list[Any], str]:
    """The contraction order :func:`einsum` would take, as NumPy's
    ``einsum_path`` returns it: ``(["einsum_path", (i, j), ...], report)``."""
    spec, arrays = _parse(subscripts, operands)
    path, info = _path(spec, arrays, optimize)
    return ["einsum_path", *path], str(info)
