"""The storage types: float8, float6, float4, complex32 and the sub-byte
integers (minarray/_dtypes.py, csrc/core/minifloat.c).

ml_dtypes is the oracle: every bit pattern of every 8-bit and narrower type
is cast to every dtype and compared, and the rounding into each type is
checked on float32 values around every representable value's midpoints.
PyTorch and NumPy (with ml_dtypes) are the exchange peers."""

from __future__ import annotations

import gc
import warnings
from typing import Any

import numpy as np
import pytest

import minarray as ma

ml_dtypes = pytest.importorskip("ml_dtypes", reason="ml_dtypes is the oracle for the storage types")

# The oracles are NumPy casts of NaN, infinity and out-of-range values, on
# purpose: NumPy's warnings about them say nothing about minarray.
pytestmark = [pytest.mark.filterwarnings("ignore:.*encountered in:RuntimeWarning"),
              pytest.mark.filterwarnings("ignore::minarray.exceptions.ComplexWarning")]  # values compared, not warnings

NARROW_FLOATS = ["float8_e3m4", "float8_e4m3", "float8_e4m3b11fnuz", "float8_e4m3fn", "float8_e4m3fnuz",
                 "float8_e5m2", "float8_e5m2fnuz", "float8_e8m0fnu", "float6_e2m3fn", "float6_e3m2fn",
                 "float4_e2m1fn"]
SUBBYTE_INTS = ["int1", "int2", "int4", "uint1", "uint2", "uint4"]
STORAGE = [*NARROW_FLOATS, "complex32", *SUBBYTE_INTS]
# every dtype NumPy can represent (bfloat16 and the storage types through ml_dtypes)
TARGETS = [d.name for d in ma._dtypes.ALL]
WIDTH = {"float6_e2m3fn": 6, "float6_e3m2fn": 6, "float4_e2m1fn": 4, "int1": 1, "int2": 2, "int4": 4,
         "uint1": 1, "uint2": 2, "uint4": 4}


def np_dtype(name: str) -> Any:
    return np.dtype(getattr(ml_dtypes, name)) if hasattr(ml_dtypes, name) else np.dtype(name)


def patterns(name: str) -> np.ndarray:
    """Every bit pattern of a one-byte storage type: all 256 for 8-bit ones,
    the 2**bits canonical ones (upper bits zero) for the narrower."""
    return np.arange(2 ** WIDTH.get(name, 8), dtype=np.uint8)


def same_bits(a: np.ndarray, b: np.ndarray) -> bool:
    """Equal element for element, NaN equal to NaN, the sign of zero kept."""
    if a.dtype.kind in "fc" or a.dtype.kind == "V":
        a64, b64 = a.astype(np.complex128 if a.dtype.kind == "c" else np.float64), \
            b.astype(np.complex128 if b.dtype.kind == "c" else np.float64)
        parts = [(a64.real, b64.real), (a64.imag, b64.imag)] if a64.dtype.kind == "c" else [(a64, b64)]
        for x, y in parts:
            nan = np.isnan(x)
            if not np.array_equal(nan, np.isnan(y)):
                return False
            if not np.array_equal(x[~nan], y[~nan]) or not np.array_equal(np.signbit(x[~nan]), np.signbit(y[~nan])):
                return False
        return True
    return bool(np.array_equal(a, b))


@pytest.mark.parametrize("name", [*NARROW_FLOATS, *SUBBYTE_INTS])
def test_every_bit_pattern_casts_as_ml_dtypes(name: str) -> None:
    src = patterns(name).view(np_dtype(name))
    x = ma.asarray(src)
    assert x.dtype == getattr(ma, name)
    f = src.astype(np.float64)
    for target in TARGETS:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            try:
                want = src.astype(np_dtype(target))
            except TypeError:
                # a cast ml_dtypes refuses (float6 to float8_e8m0fnu, int4
                # to uint2...): every source value is exact in float32 and
                # int64, from which ml_dtypes converts
                wide = np.float32 if name in NARROW_FLOATS else np.int64
                want = src.astype(wide).astype(np_dtype(target))
        got = np.asarray(x.astype(getattr(ma, target)))
        if target in SUBBYTE_INTS or want.dtype.kind in "iu":
            # NaN, infinity and values beyond an integer target's range have
            # no integer: C leaves that conversion undefined, and minarray
            # gives NumPy's answer (as it does from float32), not
            # ml_dtypes'.  Every value in range must agree.
            bits = ma._dtypes.as_dtype(target).bits
            lo, hi = (-(2 ** (bits - 1)), 2 ** bits - 1) if target != "bool" else (0, 1)
            ok = np.isfinite(f) & (f > lo - 1) & (f < hi + 1)
            got, want = got[ok], want[ok]
        if target in STORAGE or target == "bfloat16":
            assert np.array_equal(got.view(np.uint8), want.view(np.uint8)), (name, target)
        else:
            assert same_bits(got, want), (name, target)


def _midpoints(name: str) -> np.ndarray:
    """float32 values that decide the rounding into a narrow float: every
    representable value, the midpoints between neighbours and one float32
    step either side of each, and the values beyond the largest."""
    vals = patterns(name).view(np_dtype(name)).astype(np.float32)
    vals = np.unique(vals[np.isfinite(vals)])
    mids = (vals[:-1].astype(np.float64) + vals[1:]) / 2
    mids32 = mids.astype(np.float32)
    edge = np.array([vals.max() * 1.0625, vals.max() * 2, vals.max() * 1e30, np.inf, -np.inf, np.nan, 0.0, -0.0,
                     vals[vals > 0].min() / 2, vals[vals > 0].min() / 4, 1e-45, -1e-45], dtype=np.float32)
    out = np.concatenate([vals, mids32, np.nextafter(mids32, np.float32(np.inf)),
                          np.nextafter(mids32, np.float32(-np.inf)), edge, -vals, -mids32])
    return out.astype(np.float32)


@pytest.mark.parametrize("name", NARROW_FLOATS)
@pytest.mark.parametrize("source", ["float32", "float64", "float16", "bfloat16"])
def test_rounding_into_narrow_floats_matches_ml_dtypes(name: str, source: str) -> None:
    values = _midpoints(name)
    src = values.astype(np_dtype(source)) if source != "float64" else values.astype(np.float64)
    if source == "float64":
        # doubles between float32s: ml_dtypes rounds through float32, so must minarray
        src = np.concatenate([src, src + np.abs(src) * 2.0 ** -30, src - np.abs(src) * 2.0 ** -30])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        want = src.astype(np_dtype(name)).view(np.uint8)
    got = np.asarray(ma.asarray(src).astype(getattr(ma, name))).view(np.uint8)
    assert np.array_equal(got, want), src[got != want][:8]


@pytest.mark.parametrize("name", SUBBYTE_INTS)
def test_integers_and_floats_into_subbyte_integers(name: str) -> None:
    ints = np.arange(-300, 300, dtype=np.int64)
    floats = np.array([-9.5, -3.7, -0.5, 0.0, 0.9, 2.5, 7.9, 15.5, 300.7, np.nan, np.inf], dtype=np.float64)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        for src in (ints, ints.astype(np.int8), floats, floats.astype(np.float32)):
            want = src.astype(np_dtype(name))
            got = np.asarray(ma.asarray(src).astype(getattr(ma, name)))
            assert np.array_equal(got.view(np.uint8), want.view(np.uint8)), (name, src.dtype)


def test_complex32_every_half_pattern() -> None:
    halves = np.arange(2 ** 16, dtype=np.uint16)
    src = np.stack([halves, halves[::-1]], axis=-1).reshape(-1).view(ml_dtypes.complex32)
    x = ma.asarray(src)
    assert x.dtype == ma.complex32
    for target in ("complex64", "complex128", "float32", "float16", "bool"):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", np.exceptions.ComplexWarning)
            # (ml_dtypes 0.6 casts every complex32 to False; NumPy's rule,
            # non-zero is True, is taken from complex64)
            want = src.astype(np.complex64).astype(bool) if target == "bool" else src.astype(np.dtype(target))
        assert same_bits(np.asarray(x.astype(getattr(ma, target))), want), target
    c = np.array([1 + 2j, 1.0009765625 + 1e-5j, 65520 + 0j, np.nan - 1j], dtype=np.complex128)
    for src2 in (c, c.astype(np.complex64)):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            want = src2.astype(ml_dtypes.complex32)
        assert np.array_equal(np.asarray(ma.asarray(src2).astype(ma.complex32)).view(np.uint16), want.view(np.uint16))


@pytest.mark.parametrize("name", STORAGE)
def test_numpy_round_trip_shares_memory(name: str) -> None:
    n = np.zeros((3, 4), dtype=np_dtype(name))
    x = ma.asarray(n)
    assert x.dtype == getattr(ma, name) and x.shape == (3, 4) and x.itemsize == n.itemsize
    back = np.asarray(x)
    assert back.dtype == n.dtype and np.shares_memory(back, n)
    assert np.shares_memory(np.asarray(x[1:, ::2]), n)
    assert x.dtype.numpy == n.dtype
    assert ma._dtypes.as_dtype(n.dtype) is getattr(ma, name)


@pytest.mark.parametrize("name", STORAGE)
def test_views_slices_copies_keep_bits(name: str) -> None:
    src = (np.arange(24) * 7 % (2 ** WIDTH.get(name, 8))).astype(np.uint8)
    if name == "complex32":
        src = np.arange(24, dtype=np.uint16).view(np.uint8)
    n = src.view(np_dtype(name)).reshape(2, -1)
    x = ma.asarray(n)
    for view, ref in ((x.T, n.T), (x[:, ::-2], n[:, ::-2]), (x[1], n[1]), (x.reshape(-1), n.reshape(-1))):
        assert view.dtype == x.dtype
        assert np.array_equal(np.asarray(view.copy()).view(np.uint8), np.ascontiguousarray(ref).view(np.uint8))
    y = ma.empty_like(x)
    y[...] = x
    assert np.array_equal(np.asarray(y).view(np.uint8), n.view(np.uint8))
    z = ma.concat([x, x])
    assert z.dtype == x.dtype and np.array_equal(np.asarray(z).view(np.uint8), np.concatenate([n, n]).view(np.uint8))


def test_repr_and_items() -> None:
    x = ma.asarray([1.0, 2.5, -0.25, 448.0], dtype=ma.float8_e4m3fn)
    # printed as NumPy prints ml_dtypes' arrays (tests/test_printing.py checks every option)
    ref = np.array([1.0, 2.5, -0.25, 448.0]).astype(np_dtype("float8_e4m3fn"))
    assert repr(x) == repr(ref)
    assert str(x[:3]) == str(ref[:3])
    assert x.tolist() == [1.0, 2.5, -0.25, 448.0]
    assert float(x[1]) == 2.5 and x[3].item() == 448.0
    assert repr(ma.asarray([3, -2], dtype=ma.int4)) == repr(np.array([3, -2]).astype(np_dtype("int4")))
    assert ma.asarray([3, -2], dtype=ma.int4).tolist() == [3, -2]
    assert repr(ma.asarray([1 + 2j], dtype=ma.complex32)) == "array([1.+2.j], dtype=complex32)"
    assert ma.asarray([1 + 2j], dtype=ma.complex32).item() == 1 + 2j
    with pytest.raises(OverflowError, match="int4"):
        ma.asarray([8], dtype=ma.int4)


@pytest.mark.parametrize("name", [*NARROW_FLOATS, "complex32", "int4", "uint2"])
def test_elementwise_runs_in_the_wide_type_and_rounds_back(name: str) -> None:
    dt = getattr(ma, name)
    rng = np.random.default_rng(0)
    vals = rng.standard_normal(64) * 4 if dt.kind in "fc" else rng.integers(-2, 2, 64)
    if name.startswith("uint"):
        vals = np.abs(vals)
    n = vals.astype(np_dtype(name)) if dt.kind != "c" else (vals + 1j * vals[::-1]).astype(ml_dtypes.complex32)
    x = ma.asarray(n)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        for op in ("add", "multiply", "subtract"):
            got = getattr(ma, op)(x, x)
            want = getattr(np, op)(n, n) if dt.kind != "c" else \
                getattr(np, op)(n.astype(np.complex64), n.astype(np.complex64)).astype(ml_dtypes.complex32)
            assert got.dtype == dt, op
            assert np.array_equal(np.asarray(got).view(np.uint8), want.view(np.uint8)), op
        if dt.kind == "f":
            want = np.sqrt(np.abs(n))
            assert np.array_equal(np.asarray(ma.sqrt(ma.abs(x))).view(np.uint8), want.view(np.uint8))
            assert np.array_equal(np.asarray(x < 1), n.astype(np.float32) < 1)
            assert (x + 1.5).dtype == dt  # Python scalars are weak
            assert (x + ma.ones(64, dtype=ma.float16)).dtype == ma.float32  # no common narrow type
            assert (x + ma.ones(64, dtype=ma.int8)).dtype == dt  # ml_dtypes: narrow floats absorb integers


def test_in_place_and_out_into_storage_types() -> None:
    x = ma.asarray([1.0, 2.0, 3.0], dtype=ma.float8_e5m2)
    x += 1
    assert x.dtype == ma.float8_e5m2 and x.tolist() == [2.0, 3.0, 4.0]
    out = ma.zeros(3, dtype=ma.float8_e4m3fn)
    r = ma.add(ma.asarray([1.0, 2.0, 3.0]), 0.5, out=out)
    assert r is out and out.tolist() == [1.5, 2.5, 3.5]
    with pytest.raises(TypeError, match="same_kind"):
        ma.add(ma.asarray([1.0]), 1.0, out=ma.zeros(1, dtype=ma.int4))
    i = ma.asarray([7, -8], dtype=ma.int4)
    assert (i + 1).tolist() == [-8, -7]  # wraps, as ml_dtypes


def test_reductions_sorting_searching() -> None:
    n = np.array([3.0, -1.0, 2.5, 0.25, 2.5], dtype=ml_dtypes.float8_e4m3fn)
    x = ma.asarray(n)
    assert ma.sum(x).dtype == ma.float8_e4m3fn and float(ma.sum(x)) == 7.0
    assert float(ma.max(x)) == 3.0 and float(ma.min(x)) == -1.0
    assert int(ma.argmax(x)) == 0
    assert ma.sort(x).tolist() == [-1.0, 0.25, 2.5, 2.5, 3.0] and ma.sort(x).dtype == ma.float8_e4m3fn
    assert ma.argsort(x).tolist() == np.argsort(n.astype(np.float32), kind="stable").tolist()
    assert ma.unique_values(x).tolist() == [-1.0, 0.25, 2.5, 3.0]
    assert ma.cumulative_sum(x).dtype == ma.float8_e4m3fn
    assert float(x.mean()) == float(n.astype(np.float32).mean().astype(ml_dtypes.float8_e4m3fn))
    i = ma.asarray([3, -1, 7], dtype=ma.int4)
    assert int(i.sum()) == 9 and ma.sort(i).tolist() == [-1, 3, 7]


try:
    import torch
except ImportError:  # only the PyTorch exchanges below need it
    torch = None
needs_torch = pytest.mark.skipif(torch is None, reason="PyTorch is the exchange peer for float8 and complex32")

TORCH_TYPES = ["float8_e4m3fn", "float8_e5m2", "float8_e4m3fnuz", "float8_e5m2fnuz", "float8_e8m0fnu", "complex32"]


@needs_torch
@pytest.mark.parametrize("name", TORCH_TYPES)
def test_torch_exchange_both_ways_zero_copy(name: str) -> None:
    if not hasattr(torch, name):
        pytest.skip(f"PyTorch {torch.__version__} has no {name}")  # older than the extras' newest
    tdt = getattr(torch, name)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # PyTorch: complex32 is experimental
        t = (torch.arange(12, dtype=torch.float32).reshape(3, 4) / 4).to(tdt)
        x = ma.from_dlpack(t)
        assert x.dtype == getattr(ma, name) and x.shape == (3, 4)
        ref = t.view(torch.uint8 if t.element_size() == 1 else torch.int32).numpy()
        assert np.array_equal(np.asarray(x).view(ref.dtype), ref)
        back = torch.from_dlpack(x[1:, ::2])
        assert back.dtype == tdt and back.data_ptr() == t[1:, ::2].data_ptr()
        # and a minarray array PyTorch never saw
        y = ma.asarray(np.arange(6, dtype=np.float32).astype(np_dtype(name)))
        ty = torch.from_dlpack(y)
        assert ty.dtype == tdt
        assert np.array_equal(ty.view(torch.uint8 if ty.element_size() == 1 else torch.int32).numpy(),
                              np.asarray(y).view(np.uint8 if ty.element_size() == 1 else np.int32))


def test_subbyte_capsules_say_padded_and_legacy_is_refused() -> None:
    x = ma.asarray([1, -2, 7], dtype=ma.int4)
    cap = x.__dlpack__(max_version=(1, 3))
    assert "IS_SUBBYTE_TYPE_PADDED" in str(ma.dlpack.describe(cap))
    assert ma.from_dlpack(cap).tolist() == [1, -2, 7]
    with pytest.raises(BufferError, match="IS_SUBBYTE_TYPE_PADDED"):
        x.__dlpack__()  # a legacy capsule cannot say it


@pytest.mark.parametrize(("code", "bits", "name"), [(0, 4, "int4"), (1, 2, "uint2"), (17, 4, "float4_e2m1fn"),
                                                    (15, 6, "float6_e2m3fn")])
def test_padded_capsules_import_as_views(code: int, bits: int, name: str) -> None:
    from dlpack_producer import Producer

    mem = np.array([1, 2, 3, 0], dtype=np.uint8)
    padded = Producer(mem, dtype=(code, bits, 1), flags=4)
    x = ma.from_dlpack(padded.capsule())
    assert x.dtype == getattr(ma, name) and x.data_ptr == mem.ctypes.data
    assert np.array_equal(np.asarray(x).view(np.uint8), mem)
    del x
    gc.collect()
    assert padded.deleted == 1


def _packed_reference(mem: np.ndarray, bits: int, n: int) -> np.ndarray:
    """n elements of `bits` read from packed little bit-endian memory."""
    as_bits = np.unpackbits(mem, bitorder="little")
    return np.array([int("".join(str(b) for b in as_bits[i * bits:(i + 1) * bits][::-1]), 2) for i in range(n)],
                    dtype=np.uint8)


@pytest.mark.parametrize(("code", "bits", "name"), [(0, 4, "int4"), (1, 2, "uint2"), (1, 1, "uint1"),
                                                    (17, 4, "float4_e2m1fn"), (15, 6, "float6_e2m3fn"),
                                                    (16, 6, "float6_e3m2fn")])
def test_packed_capsules_are_unpacked_into_a_copy(code: int, bits: int, name: str) -> None:
    from dlpack_producer import Producer

    mem = np.random.default_rng(bits).integers(0, 256, 12, dtype=np.uint8)
    n = 12 * 8 // bits
    want = _packed_reference(mem, bits, n)  # the elements' bit patterns
    dt = getattr(ma, name)
    sign = dt.kind == "i"

    def patterns(x: ma.NDArray) -> np.ndarray:
        raw = np.asarray(x).view(np.uint8)
        return raw & ((1 << bits) - 1) if sign else raw

    p = Producer(mem, dtype=(code, bits, 1), flags=0, ndim=1, shape=(n,), strides=(1,))
    x = ma.from_dlpack(p.capsule())
    assert x.dtype == dt and x.shape == (n,) and x.data_ptr != mem.ctypes.data
    assert np.array_equal(patterns(x), want)
    gc.collect()
    assert p.deleted == 1  # unpacked: the producer's tensor is released at once
    # a 2-d view with a step and a reversed axis, in a legacy capsule (which
    # cannot say padded: legacy sub-byte tensors are packed)
    rows = n // 4
    q = Producer(mem, versioned=False, dtype=(code, bits, 1), ndim=2, shape=(rows // 2, 4),
                 strides=(8, -1), byte_offset=(3 * bits) // 8 if (3 * bits) % 8 == 0 else 0)
    if (3 * bits) % 8:
        return  # element 3 does not start on a byte: the reversed view needs a byte-aligned start
    y = ma.from_dlpack(q.capsule())
    ref = want[3:].tolist()
    expect = np.array([[ref[r * 8 - c] for c in range(4)] for r in range(rows // 2)], dtype=np.uint8)
    assert y.shape == (rows // 2, 4) and np.array_equal(patterns(y), expect)
    # copy=False forbids the unpacked copy
    r = Producer(mem, dtype=(code, bits, 1), flags=0, ndim=1, shape=(n,), strides=(1,))
    with pytest.raises(BufferError, match="packed"):
        ma.from_dlpack(r.capsule(), copy=False)


@needs_torch
def test_vector_types_are_refused_with_their_lanes() -> None:
    t = torch.zeros(2, 3, dtype=torch.uint8).view(torch.float4_e2m1fn_x2)
    with pytest.raises(BufferError, match="lanes"):
        ma.from_dlpack(t)


def test_storage_arrays_give_their_memory_back() -> None:
    gc.collect()
    before = ma.allocator_stats()["live_bytes"]
    for name in STORAGE:
        x = ma.zeros((256,), dtype=getattr(ma, name))
        y = x[::2].copy() + x[1::2] if x.dtype.kind != "c" else x[::2].copy()
        cap = y.__dlpack__(max_version=(1, 3))
        z = ma.from_dlpack(cap)
        del x, y, cap, z
    gc.collect()
    assert ma.allocator_stats()["live_bytes"] == before


def test_creation_products_and_limits() -> None:
    f8 = ml_dtypes.float8_e5m2
    want = np.arange(0, 2, 0.3, dtype=np.float32).astype(f8)
    got = ma.arange(0, 2, 0.3, dtype=ma.float8_e5m2)
    assert got.dtype == ma.float8_e5m2 and np.array_equal(np.asarray(got).view(np.uint8), want.view(np.uint8))
    assert ma.full(3, 2.5, dtype=ma.float4_e2m1fn).tolist() == [2.0, 2.0, 2.0]  # a tie: to even
    a = np.array([[1.0, 2.0], [3.0, 0.5]], dtype=f8)
    prod = ma.matmul(ma.asarray(a), ma.asarray(a))
    assert prod.dtype == ma.float8_e5m2
    assert np.array_equal(np.asarray(prod).view(np.uint8), (a.astype(np.float32) @ a.astype(np.float32)).astype(f8)
                          .view(np.uint8))
    for name in NARROW_FLOATS:
        mine, theirs = ma.finfo(getattr(ma, name)), ml_dtypes.finfo(np_dtype(name))
        assert (mine.max, mine.min, mine.eps, mine.smallest_normal) == \
            (float(theirs.max), float(theirs.min), float(theirs.eps), float(theirs.smallest_normal)), name
    assert ma.finfo(ma.complex32).max == 65504.0
    assert (ma.iinfo(ma.int4).min, ma.iinfo(ma.int4).max, ma.iinfo(ma.uint2).max) == (-8, 7, 3)
    with pytest.raises(BufferError, match="no buffer-protocol format"):
        memoryview(ma.zeros(2, dtype=ma.float8_e4m3fn))


@pytest.mark.parametrize("name", STORAGE)
def test_pickle_and_npy_round_trips(name: str) -> None:
    import io
    import pickle

    x = ma.asarray(np.arange(6, dtype=np.uint8).view(np_dtype(name)) if name != "complex32"
                   else np.arange(6, dtype=np.complex64).astype(ml_dtypes.complex32))
    for protocol in (2, 5):
        y = pickle.loads(pickle.dumps(x, protocol=protocol))
        assert y.dtype == x.dtype and np.array_equal(np.asarray(y).view(np.uint8), np.asarray(x).view(np.uint8))
    f = io.BytesIO()
    ma.save(f, x)
    f.seek(0)
    y = ma.load(f)
    assert y.dtype == x.dtype and np.array_equal(np.asarray(y).view(np.uint8), np.asarray(x).view(np.uint8))
    f.seek(0)
    n = np.load(f)  # NumPy reads the file too, by the dtype's name (ml_dtypes is imported)
    assert n.dtype == np_dtype(name) and np.array_equal(n.view(np.uint8), np.asarray(x).view(np.uint8))


def test_python_ints_beyond_a_subbyte_type_raise() -> None:
    # NEP 50, as for int8: the Python int must fit the array's type
    i = ma.asarray([1, 2], dtype=ma.int4)
    assert (i + 5).tolist() == [6, 7] and (i - 7).tolist() == [-6, -5]
    for bad in (8, -9, 100):
        with pytest.raises(OverflowError, match="out of bounds for int4"):
            i + bad
    assert (i == 100).tolist() == [False, False]  # a comparison has its answer without a cast
    with pytest.raises(OverflowError, match="uint2"):
        ma.asarray([1], dtype=ma.uint2) + 4
