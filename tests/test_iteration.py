"""nditer (minarray/_iteration.py) against NumPy's: the elements and their
order for every layout and order, multi_index and the flat indices,
external_loop's chunks, several broadcast operands, writes through
readwrite operands, allocated outputs, and the errors (unsupported flags
name themselves)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from numpy_errors import raises_as_numpy
from numpy_oracle import same

import minarray as ma

BASE = np.arange(24).reshape(2, 3, 4)
LAYOUTS: dict[str, Any] = {
    "c": lambda x: x, "transposed": lambda x: x.T, "reversed": lambda x: x[:, ::-1],
    "reversed-stepped": lambda x: x[::-1, ::2], "permuted": lambda x: x.transpose((1, 0, 2)),
    "slice-last": lambda x: x[..., 1], "0d": lambda x: x[1, 2, 3], "1d-stepped": lambda x: x.reshape(-1)[::-5],
    "broadcast": lambda x: (np if isinstance(x, np.ndarray) else ma).broadcast_to(x[:, :1], (2, 3, 4)),
}
FLAGS = [[], ["external_loop"], ["multi_index"], ["c_index"], ["f_index"]]


def _walk(it: Any, flags: list[str]) -> list[tuple[Any, Any]]:
    out = []
    for v in it:
        where = it.multi_index if "multi_index" in flags else it.index if it.has_index else None
        out.append((np.asarray(v).tolist(), where))
    return out


@pytest.mark.parametrize("layout", sorted(LAYOUTS))
@pytest.mark.parametrize("order", ["K", "C", "F", "A"])
@pytest.mark.parametrize("flags", FLAGS, ids=lambda f: "-".join(f) or "plain")
def test_elements_order_and_indices_match_numpy(layout: str, order: str, flags: list[str]) -> None:
    x = LAYOUTS[layout](BASE)
    m = LAYOUTS[layout](ma.asarray(BASE))
    assert _walk(ma.nditer(m, flags=flags, order=order), flags) == _walk(np.nditer(x, flags=flags, order=order),
                                                                          flags)


def test_fortran_array_runs_in_memory_order() -> None:
    x = np.asfortranarray(BASE)
    m = ma.asarray(BASE).T.copy().T
    for flags in FLAGS:
        assert _walk(ma.nditer(m, flags=flags), flags) == _walk(np.nditer(x, flags=flags), flags)


def test_values_are_0d_views_read_only_by_default() -> None:
    x = ma.arange(6.0).reshape(2, 3)
    got = list(ma.nditer(x))
    assert all(isinstance(v, ma.NDArray) and v.shape == () for v in got)
    assert not got[0].flags.writeable
    with pytest.raises(ValueError, match="read-only"):
        got[0][...] = 1.0
    same(x, np.arange(6.0).reshape(2, 3))


@pytest.mark.parametrize("flag", ["readwrite", "writeonly"])
def test_readwrite_writes_back(flag: str) -> None:
    x, expected = ma.arange(6.0).reshape(2, 3)[:, ::-1], np.arange(6.0).reshape(2, 3)[:, ::-1].copy()
    with ma.nditer(x, op_flags=[flag]) as it:
        for v in it:
            v[...] = 2 * v + 1
    with np.nditer(expected, op_flags=[flag]) as it:
        for v in it:
            v[...] = 2 * v + 1
    same(x, expected)
    chunked = ma.arange(6.0)
    for chunk in ma.nditer(chunked, flags=["external_loop"], op_flags=["readwrite"]):
        chunk[...] = chunk * 10
    same(chunked, np.arange(6.0) * 10)


def test_two_broadcast_operands_and_an_allocated_output() -> None:
    a, b = np.arange(3), np.arange(6).reshape(2, 3)
    got = [(int(x), int(y)) for x, y in ma.nditer([ma.asarray(a), ma.asarray(b)])]
    assert got == [(int(x), int(y)) for x, y in np.nditer([a, b])]
    for dtypes in (None, [None, np.float32]):
        it = ma.nditer([ma.asarray(b), None], op_dtypes=None if dtypes is None else [None, ma.float32])
        nit = np.nditer([b, None], op_dtypes=dtypes)
        with it, nit:
            for (x, y), (nx, ny) in zip(it, nit, strict=True):
                y[...] = x * x
                ny[...] = nx * nx
            same(it.operands[1], nit.operands[1])
    same(ma.nditer(([1, 2],)).operands[0], np.array([1, 2]))  # array-likes


def test_while_loop_with_iternext_finished_and_multi_index() -> None:
    def walk(m: Any, x: Any) -> list[Any]:
        it = m.nditer(x, flags=["multi_index"])
        seen = []
        while not it.finished:
            seen.append((it.multi_index, int(it[0]), int(it.value)))
            it.iternext()
        assert it.iternext() is False
        return seen

    a = np.arange(6).reshape(2, 3)
    assert walk(ma, ma.asarray(a)) == walk(np, a)
    it, nit = ma.nditer(ma.asarray(a), flags=["multi_index"]), np.nditer(a, flags=["multi_index"])
    assert it.iternext() == nit.iternext() and it.multi_index == nit.multi_index
    assert [it.multi_index for _ in it] == [nit.multi_index for _ in nit]  # after iternext: no extra step
    it.reset()
    nit.reset()
    assert next(it).item() == next(nit).item()


def test_attributes_match_numpy() -> None:
    a = np.arange(6).reshape(2, 3)
    for flags in ([], ["multi_index"]):
        it, nit = ma.nditer(ma.asarray(a), flags=flags), np.nditer(a, flags=flags)
        assert (it.itersize, it.shape, it.ndim, it.nop, len(it), it.has_multi_index, it.has_index) == \
            (nit.itersize, nit.shape, nit.ndim, nit.nop, len(nit), nit.has_multi_index, nit.has_index)
    empty = ma.nditer(ma.zeros((0, 3)), flags=["zerosize_ok"])
    assert empty.finished and list(empty) == [] and empty.itersize == 0


def test_closed_iterator() -> None:
    it = ma.nditer(ma.arange(3))
    with it:
        pass
    with pytest.raises(ValueError, match="closed"):
        _ = it.value
    assert list(it) == []


def test_errors_match_numpy() -> None:
    a = np.arange(6).reshape(2, 3)

    def on(m: Any) -> Any:
        return a if m is np else ma.asarray(a)

    raises_as_numpy(lambda m: m.nditer(on(m), flags=["multi_index", "external_loop"]), "EXTERNAL_LOOP")
    raises_as_numpy(lambda m: m.nditer(on(m), flags=["bogus"]), "bogus")
    raises_as_numpy(lambda m: m.nditer(on(m), op_flags=["bogus"]), "bogus")
    raises_as_numpy(lambda m: m.nditer(m.zeros((0, 3))), "zero-sized")
    raises_as_numpy(lambda m: m.nditer([on(m), m.arange(2)]), "broadcast")
    raises_as_numpy(lambda m: m.nditer([m.arange(3), on(m)], op_flags=[["readwrite"], ["readonly"]]),
                    "broadcast|reduction")
    raises_as_numpy(lambda m: m.nditer(on(m), op_dtypes=[m.float64]), "copying or buffering")
    raises_as_numpy(lambda m: m.nditer(on(m), flags=["c_index", "f_index"]), "C_INDEX")
    raises_as_numpy(lambda m: m.nditer(on(m)).multi_index, "multi-index")
    raises_as_numpy(lambda m: m.nditer(on(m)).index, "index")
    raises_as_numpy(lambda m: m.nditer(on(m), order="Z"), "order")
    raises_as_numpy(lambda m: m.nditer(on(m), op_flags=["readonly", "readwrite"]), "Only one")
    raises_as_numpy(lambda m: m.nditer(m.broadcast_to(m.ones(3), (2, 3)), op_flags=["readwrite"]), "read-only")
    raises_as_numpy(lambda m: m.nditer(on(m), op_flags=["readonly", "copy"], op_dtypes=[m.int8]),
                    "according to the rule")
    raises_as_numpy(lambda m: m.nditer(on(m), op_flags=["copy"]), "READWRITE, READONLY, or WRITEONLY")
    raises_as_numpy(lambda m: m.nditer([on(m), None], op_flags=[["readonly"], ["writeonly"]]), "allocate")


def test_op_dtypes_with_copy_casts_a_readonly_operand() -> None:
    a = np.arange(4)
    got = [v.item() for v in ma.nditer(ma.asarray(a), op_flags=["readonly", "copy"], op_dtypes=[ma.float64])]
    expected = [v.item() for v in np.nditer(a, op_flags=["readonly", "copy"], op_dtypes=[np.float64])]
    assert got == expected and all(type(v) is float for v in got)


@pytest.mark.parametrize(("kwargs", "name"), [({"flags": ["delay_bufalloc"]}, "delay_bufalloc"),
                                              ({"flags": ["reduce_ok"]}, "reduce_ok"),
                                              ({"op_flags": ["arraymask"]}, "arraymask"),
                                              ({"itershape": (2,)}, "itershape")])
def test_unsupported_flags_name_themselves(kwargs: dict[str, Any], name: str) -> None:
    with pytest.raises(ValueError, match=name):
        ma.nditer(ma.arange(3), **kwargs)


def _lambda_ufunc(xp: Any, fn: Any, *args: Any) -> Any:
    # NumPy's docstring's "lambda ufunc": buffered chunks, written by it[0] = ...
    it = xp.nditer((None, *args), ["buffered", "external_loop"],
                   [["writeonly", "allocate", "no_broadcast"]] + [["readonly", "nbo", "aligned"]] * len(args))
    while not it.finished:
        it[0] = fn(*it[1:])
        it.iternext()
    return it.operands[0]


def test_buffered_lambda_ufunc_matches_numpy() -> None:
    a, b = np.arange(5), np.ones(5)
    same(_lambda_ufunc(ma, lambda i, j: i * i + j / 2, ma.asarray(a), ma.asarray(b)),
         _lambda_ufunc(np, lambda i, j: i * i + j / 2, a, b))


@pytest.mark.parametrize("closing", ["with", "exhausted"])
def test_buffered_casts_and_writes_back(closing: str) -> None:
    # buffered lets op_dtypes cast a written operand: the values reach it
    # cast back when the iteration ends or the iterator closes
    results = []
    for xp in (np, ma):
        a = xp.asarray(np.arange(6, dtype=np.int32))
        it = xp.nditer(a, ["buffered"], [["readwrite"]], op_dtypes=[xp.float32], casting="unsafe")
        if closing == "with":
            with it:
                for x in it:
                    x[...] = x * 2.5
        else:
            for x in it:
                x[...] = x * 2.5
        results.append(a)
    same(results[1], results[0])
    raises_as_numpy(lambda m: m.nditer(m.asarray(np.arange(3)), ["buffered"], [["readwrite"]],
                                       op_dtypes=[m.float32], casting="safe"), "according to the rule")
    raises_as_numpy(lambda m: m.nditer(m.asarray(np.arange(3)), [], [["readwrite"]], op_dtypes=[m.float32],
                                       casting="unsafe"), "buffering")


def test_updateifcopy_writes_back_on_closing() -> None:
    # NumPy's docstring example: the operand is a cast copy, and the operand
    # changes only when the iterator closes
    seen = []
    for xp in (np, ma):
        a = xp.asarray(np.arange(6, dtype="i4"))[::-2]
        with xp.nditer(a, [], [["writeonly", "updateifcopy"]], casting="unsafe", op_dtypes=[xp.float32]) as it:
            x = it.operands[0]
            x[:] = [-1, -2, -3]
            seen.append(np.asarray(a).tolist())
        seen.append((np.asarray(a).tolist(), str(x.dtype)))
    assert seen[:2] == seen[2:] and seen[1] == ([-1, -2, -3], "float32")


def test_setitem_writes_the_current_element() -> None:
    results = []
    for xp in (np, ma):
        a = xp.zeros(3)
        with xp.nditer(a, op_flags=[["writeonly"]]) as it:
            while not it.finished:
                it[0] = 7
                it.iternext()
        results.append(a)
    same(results[1], results[0])

    def write_readonly(m: Any) -> None:
        m.nditer(m.zeros(3))[0] = 1

    raises_as_numpy(write_readonly, "not writeable")


def _outer_it(xp: Any, x: Any, y: Any) -> Any:
    # NumPy's docstring's outer product, through op_axes
    it = xp.nditer([x, y, None], ["external_loop"], [["readonly"], ["readonly"], ["writeonly", "allocate"]],
                   op_axes=[list(range(x.ndim)) + [-1] * y.ndim, [-1] * x.ndim + list(range(y.ndim)), None])
    with it:
        for a, b, c in it:
            xp.multiply(a, b, out=c)
        return it.operands[2]


@pytest.mark.parametrize(("x_shape", "y_shape"), [((2,), (3,)), ((2, 3), (4,)), ((2,), (3, 2))])
def test_op_axes_outer_product_matches_numpy(x_shape: tuple[int, ...], y_shape: tuple[int, ...]) -> None:
    x = np.arange(1, 1 + int(np.prod(x_shape))).reshape(x_shape)
    y = np.arange(2, 2 + int(np.prod(y_shape))).reshape(y_shape)
    same(_outer_it(ma, ma.asarray(x), ma.asarray(y)), _outer_it(np, x, y))


def test_op_axes_permutes_and_writes_through() -> None:
    n = np.arange(6.0).reshape(2, 3)
    x = ma.asarray(n.copy())
    col = np.array([10.0, 20.0, 30.0])
    for xp, a, c in ((np, n, col), (ma, x, ma.asarray(col))):
        with xp.nditer([a, c], ["multi_index"], [["readwrite"], ["readonly"]], op_axes=[[1, 0], [0, -1]]) as it:
            for v, w in it:
                v[...] = v + w
    np.testing.assert_array_equal(np.asarray(x), n)


# ---- broadcast -------------------------------------------------------------------------------

BROADCAST: dict[str, Any] = {
    "two": lambda m: (m.arange(3), m.ones((2, 1))),
    "one": lambda m: (m.arange(4.0).reshape(2, 2),),
    "scalar-and-list": lambda m: (1, [1, 2]),
    "three": lambda m: (m.arange(2).reshape(2, 1, 1), m.ones((3, 1)), m.arange(4)),
    "empty": lambda m: (m.ones((0, 3)), m.arange(3)),
    "none": lambda m: (),
}


@pytest.mark.parametrize("case", BROADCAST)
def test_broadcast_as_numpy(case: str) -> None:
    want = np.broadcast(*BROADCAST[case](np))
    got = ma.broadcast(*BROADCAST[case](ma))
    for attr in ("shape", "nd", "ndim", "numiter", "size", "index"):
        assert getattr(got, attr) == getattr(want, attr), attr
    assert len(got.iters) == len(want.iters)
    rows_want, rows_got = list(want), list(got)
    assert len(rows_got) == len(rows_want)
    for g, w in zip(rows_got, rows_want, strict=True):
        assert [x.item() for x in g] == [x.item() for x in w]
    assert got.index == want.index == want.size


def test_broadcast_index_reset_and_iters_as_numpy() -> None:
    want = np.broadcast(np.arange(3), np.ones((2, 1)))
    got = ma.broadcast(ma.arange(3), ma.ones((2, 1)))
    for _ in range(4):
        assert [x.item() for x in next(got)] == [x.item() for x in next(want)]
    assert got.index == want.index == 4
    got.reset()
    want.reset()
    assert got.index == want.index == 0
    assert [x.item() for x in next(got)] == [x.item() for x in next(want)]
    assert isinstance(got.iters[0], ma.flatiter)
    assert next(got.iters[0]).item() == next(want.iters[0]).item()


def test_broadcast_errors_as_numpy() -> None:
    raises_as_numpy(lambda m: m.broadcast(m.ones(2), m.ones(3)), "broadcast")
    raises_as_numpy(lambda m: m.broadcast(*[m.ones(1)] * 65), "at most 64")
