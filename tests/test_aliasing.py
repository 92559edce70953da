"""As if inputs were read first: every operation behaves as if all of its
inputs (operands, index arrays, masks, values) were read before anything is
written, whatever aliases what, as NumPy's operations do.

The regressions are the cases that once gave wrong answers (a 0-d view of
the output as an operand, an index array that is the destination); the
property tests draw random views of one buffer as inputs, indices and
outputs and compare every result, and the whole buffer after it, with
NumPy doing the same on a copy of the buffer."""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import numpy as np
from array_strategies import examples
from hypothesis import given
from hypothesis import strategies as st
from numpy_oracle import SETITEM_READS_INDEX_FIRST

import minarray as ma

SETTINGS = examples(150)

# ---- the regressions -----------------------------------------------------


def test_zero_d_view_of_the_output_is_read_first() -> None:
    x = ma.arange(1.0, 25.0).reshape(4, 6)[:, :5]
    n = np.arange(1.0, 25.0).reshape(4, 6)[:, :5]
    x -= x[0, 0]
    n -= n[0, 0]
    np.testing.assert_array_equal(np.from_dlpack(x), n)


def test_zero_d_view_as_operand_of_a_comparison_into_its_own_array() -> None:
    y = ma.arange(2000.0, 0.0, -1.0)
    n = np.arange(2000.0, 0.0, -1.0)
    ma.less(y, y[5], out=y)
    np.less(n, n[5], out=n)
    assert float(ma.sum(y)) == n.sum() == 1994.0


def test_index_array_that_is_the_destination_is_read_first() -> None:
    x = ma.asarray([1, 0, 0, 0])
    x[x] = ma.asarray([2, 3, 1, 1])
    assert x.tolist() == [1, 2, 0, 0]
    x = ma.asarray([1, 0, 0, 0])
    x[x] = 7
    assert x.tolist() == [7, 7, 0, 0]


def test_index_view_of_the_destination_on_the_general_path() -> None:
    # a tuple key with a slice beside the array goes through minarray._indexing
    x = ma.asarray([[1, 0, 0, 0], [0, 1, 0, 0]])
    n = np.asarray([[1, 0, 0, 0], [0, 1, 0, 0]])
    x[:, x[0]] = 5
    # NumPy 2.0 reads the index as it writes: here index 5 of a row of 4,
    # written past the array's end (so it gets a copy, the rule minarray keeps)
    n[:, n[0] if SETITEM_READS_INDEX_FIRST else n[0].copy()] = 5
    assert x.tolist() == n.tolist()


def test_mask_that_is_the_destination_is_read_first() -> None:
    x = ma.asarray([True, False, True, True])
    x[x] = ma.asarray([False, True, False])
    assert x.tolist() == [False, False, True, False]


def test_copy_and_deepcopy_copy_the_data() -> None:
    x = ma.arange(6.0).reshape(2, 3).T
    for c in (copy.copy(x), copy.deepcopy(x)):
        assert c.base is None
        assert c.shape == x.shape and c.strides == x.strides  # axes keep their memory order
        c[0, 0] = 99.0
        assert float(x[0, 0]) == 0.0
    frozen = np.arange(3.0)
    frozen.flags.writeable = False
    ro = ma.from_numpy(frozen)
    assert not ro.flags.writeable
    assert copy.deepcopy(ro).flags.writeable
    assert copy.deepcopy({"a": x})["a"].tolist() == x.tolist()


# ---- random views of one buffer --------------------------------------------

ROWS, COLS = 4, 6


def _axis_picks(length: int, size: int) -> list[slice]:
    """Every slice of an axis of `size` elements with step ±1 or ±2 that
    selects `length` of them."""
    out = []
    for step in (1, 2, -1, -2):
        for start in range(size):
            last = start + (length - 1) * step
            if 0 <= last < size:
                stop = start + length * step
                out.append(slice(start, None if stop < 0 else stop, step))
    return out


def _views(shape: tuple[int, int]) -> list[Callable[[Any], Any]]:
    """Ways to take a view of `shape` from the (ROWS, COLS) buffer, each a
    function that does it the same way to a minarray and a NumPy array."""
    r, c = shape
    views: list[Callable[[Any], Any]] = []
    for rs in _axis_picks(r, ROWS):
        for cs in _axis_picks(c, COLS):
            views.append(lambda b, rs=rs, cs=cs: b[rs, cs])
    for rs in _axis_picks(r, COLS):  # through the transpose
        for cs in _axis_picks(c, ROWS):
            views.append(lambda b, rs=rs, cs=cs: b.T[rs, cs])
    return views


def _inputs(shape: tuple[int, int]) -> list[Callable[[Any], Any]]:
    """Views that broadcast to `shape`: of that shape, 0-d views of one
    element, rows, and stride-0 broadcasts of a row."""
    c = shape[1]
    out = _views(shape)
    for i in range(ROWS):
        for j in range(COLS):
            out.append(lambda b, i=i, j=j: b[i, j, ...])
    for i in range(ROWS):
        for cs in _axis_picks(c, COLS):
            out.append(lambda b, i=i, cs=cs: b[i, cs])
            out.append(lambda b, i=i, cs=cs: _broadcast(b[i, cs], shape))
    return out


def _broadcast(v: Any, shape: tuple[int, int]) -> Any:
    return ma.broadcast_to(v, shape) if not isinstance(v, np.ndarray) else np.broadcast_to(v, shape)


@st.composite
def aliased(draw: st.DrawFn) -> tuple[Callable[[Any], Any], Callable[[Any], Any], Callable[[Any], Any]]:
    shape = (draw(st.integers(1, ROWS)), draw(st.integers(1, COLS)))
    inputs = _inputs(shape)
    return draw(st.sampled_from(_views(shape))), draw(st.sampled_from(inputs)), draw(st.sampled_from(inputs))


def _pair(dtype: str) -> tuple[Any, np.ndarray]:
    n = np.arange(1, ROWS * COLS + 1).astype(dtype).reshape(ROWS, COLS)
    return ma.asarray(n.copy()), n


_BINARY: dict[str, Callable[..., Any]] = {"add": ma.add, "subtract": ma.subtract, "multiply": ma.multiply,
                                          "less": ma.less, "maximum": ma.maximum}


@SETTINGS
@given(views=aliased(), op=st.sampled_from(sorted(_BINARY)), dtype=st.sampled_from(["float64", "int32"]))
def test_binary_out_aliasing_any_view(views: tuple[Any, Any, Any], op: str, dtype: str) -> None:
    out_v, a_v, b_v = views
    m, n = _pair(dtype)
    getattr(np, op)(a_v(n), b_v(n), out=out_v(n), casting="unsafe")
    mo = out_v(m)
    r = _BINARY[op](a_v(m), b_v(m), out=mo)
    assert r is mo
    np.testing.assert_array_equal(np.from_dlpack(m), n)


@SETTINGS
@given(views=aliased(), dtype=st.sampled_from(["float64", "int16"]))
def test_unary_out_and_copies_aliasing_any_view(views: tuple[Any, Any, Any], dtype: str) -> None:
    out_v, a_v, b_v = views
    m, n = _pair(dtype)
    np.negative(a_v(n), out=out_v(n))
    ma.negative(a_v(m), out=out_v(m))
    np.testing.assert_array_equal(np.from_dlpack(m), n)
    out_v(n)[...] = b_v(n)
    out_v(m)[...] = b_v(m)
    np.testing.assert_array_equal(np.from_dlpack(m), n)


@st.composite
def scatter_case(draw: st.DrawFn) -> tuple[slice, slice, Any, bool]:
    """A 1-d destination view, an index view and a value (view or scalar)
    of one int64 buffer whose values are small indices."""
    size = ROWS * COLS
    length = draw(st.integers(1, size))
    dest = draw(st.sampled_from(_axis_picks(length, size)))
    n_idx = draw(st.integers(1, size))
    idx = draw(st.sampled_from(_axis_picks(n_idx, size)))
    value = draw(st.one_of(st.integers(-3, 3), st.sampled_from(_axis_picks(n_idx, size)),
                           st.integers(0, size - 1).map(lambda i: (i,))))
    return dest, idx, value, draw(st.booleans())


@SETTINGS
@given(case=scatter_case())
def test_scatter_with_indices_and_values_from_the_destination(case: tuple[slice, slice, Any, bool]) -> None:
    dest, idx, value, as_list = case
    base = np.random.default_rng(len(str(case))).integers(-4, 8, ROWS * COLS)
    m, n = ma.asarray(base.copy()), base.copy()

    def val(b: Any) -> Any:
        if isinstance(value, int):
            return value
        if isinstance(value, tuple):
            return b[value[0], ...]  # a 0-d view
        return b[value]

    errors = []
    for b in (n, m):
        key = b[idx].tolist() if as_list else b[idx]
        if b is n and not SETITEM_READS_INDEX_FIRST:
            # the rule minarray keeps: NumPy 2.0 reads the index as it writes,
            # past the destination's end when an index it wrote is too big
            key = np.copy(key)
        try:
            b[dest][key] = val(b)
        except IndexError:
            errors.append(type(b))
    assert len(errors) in (0, 2), errors  # both raise, or neither
    np.testing.assert_array_equal(np.from_dlpack(m), n)


@SETTINGS
@given(dest=st.sampled_from(_axis_picks(12, 24)), mask=st.sampled_from(_axis_picks(12, 24)),
       value=st.sampled_from(_axis_picks(12, 24)))
def test_mask_assignment_with_mask_and_values_from_the_destination(dest: slice, mask: slice,
                                                                   value: slice) -> None:
    """The oracle is the rule itself, NumPy on copies of the mask and the
    values: NumPy's own x[x] = x[:k] reads its mask as it writes (2.x gives
    all False where the copies give True)."""
    base = np.random.default_rng(7).random(24) < 0.5
    m, n = ma.asarray(base.copy()), base.copy()
    k = n[mask].copy()
    count = int(np.count_nonzero(k))
    n[dest][k] = n[value][:count].copy() if count else False
    m[dest][m[mask]] = m[value][:count] if count else False
    np.testing.assert_array_equal(np.from_dlpack(m), n)
