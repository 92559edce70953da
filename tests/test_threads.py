"""The thread pool and the threaded, tiled iterator.

Every kernel that goes through the iterator must give bit-identical results
whatever the thread count: these tests lower the size from which work is
split (so small arrays take the threaded paths) and compare the bytes of
runs on 1, 2, 3 and 7 threads, with NumPy as the oracle for the values.
They also run kernels from several Python threads at once, change the
thread count while kernels run, and fork.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import threading
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy_oracle import sum_bits

import minarray as ma
from minarray import _threads

# Special values are the point of these tests; which warnings they give is
# test_errstate.py's subject (NumPy as the oracle).
pytestmark = pytest.mark.filterwarnings("ignore:.* encountered in :RuntimeWarning")

COUNTS = (1, 2, 3, 7)


@pytest.fixture(autouse=True)
def restore_threads() -> Iterator[None]:
    """Leave the process-wide settings as the test found them."""
    n, pmin, span = ma.get_num_threads(), _threads._get_parallel_min(), _threads._get_tile_min_span()
    yield
    ma.set_num_threads(n)
    _threads._set_parallel_min(pmin)
    _threads._set_tile_min_span(span)


def _bytes(a: ma.NDArray) -> bytes:
    return bytes(np.asarray(a).tobytes())


def per_thread_count(fn: Callable[[], ma.NDArray], counts: tuple[int, ...] = COUNTS, *, split: bool = True,
                     tiled: bool = False, pooled: bool = False) -> list[np.ndarray]:
    """fn() run with each thread count, split from 1 element on; the results
    as NumPy copies.  `split` / `tiled`: check that the multi-threaded runs
    did go through the threaded (tiled) walk, so a test cannot pass by
    never reaching it; `pooled`: that they reached the pool (kernels that
    split their work themselves, not through the iterator)."""
    _threads._set_parallel_min(1)
    _threads._set_tile_min_span(1)
    out = []
    for n in counts:
        ma.set_num_threads(n)
        before, jobs = _threads._iterate_counts(), _threads._pool_jobs()
        r = fn()
        after = _threads._iterate_counts()
        if split and n > 1:
            assert after[0] > before[0], f"{n} threads: the work was not split"
        if pooled and n > 1:
            assert _threads._pool_jobs() > jobs, f"{n} threads: the work did not reach the pool"
        if tiled:
            assert after[1] > before[1], "the walk was not tiled"
        out.append(np.array(np.asarray(r), copy=True))
        del r
    return out


def assert_identical(results: list[np.ndarray]) -> None:
    first = results[0]
    for r in results[1:]:
        assert r.dtype == first.dtype and r.shape == first.shape
        assert r.tobytes() == first.tobytes()


# ---- the Python API -----------------------------------------------------------


def test_set_and_get_num_threads() -> None:
    ma.set_num_threads(3)
    assert ma.get_num_threads() == 3
    ma.set_num_threads(1)
    assert ma.get_num_threads() == 1
    ma.set_num_threads(None)
    assert ma.get_num_threads() == _threads._default_num_threads() >= 1


@pytest.mark.parametrize("bad", [0, -1, _threads.MAX_THREADS + 1])
def test_set_num_threads_rejects_out_of_range(bad: int) -> None:
    with pytest.raises(ValueError, match="1 to 256"):
        ma.set_num_threads(bad)


@pytest.mark.parametrize("bad", [2.0, "2", True])
def test_set_num_threads_rejects_non_integers(bad: Any) -> None:
    with pytest.raises(TypeError, match="int or None"):
        ma.set_num_threads(bad)


def _python(code: str, env_value: str | None, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    """Run `code` in a fresh interpreter; one that is still running after
    `timeout` seconds is killed and fails the calling test."""
    env = dict(os.environ)
    env.pop(_threads.ENV_VAR, None)
    if env_value is not None:
        env[_threads.ENV_VAR] = env_value
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    env["PYTHONPATH"] = os.pathsep.join([root, env.get("PYTHONPATH", "")])
    try:
        return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], env=env, capture_output=True,
                              text=True, timeout=timeout)
    except subprocess.TimeoutExpired as e:
        err = e.stderr.decode(errors="replace") if isinstance(e.stderr, bytes) else e.stderr or ""
        pytest.fail(f"the child process hung (killed after {timeout} s); its stderr:\n{err}")


def test_environment_variable_sets_the_default() -> None:
    proc = _python("import minarray as ma; print(ma.get_num_threads())", "3")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "3"


def test_malformed_environment_variable_warns_and_is_ignored() -> None:
    code = """
        import warnings
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            import minarray as ma
        print(ma.get_num_threads(), ma._threads._default_num_threads())
        print(any("MINARRAY_NUM_THREADS" in str(x.message) for x in w))
    """
    proc = _python(code, "lots")
    assert proc.returncode == 0, proc.stderr
    counts, warned = proc.stdout.split("\n")[:2]
    n, default = counts.split()
    assert n == default and warned == "True"


def test_exported_names() -> None:
    assert "set_num_threads" in ma.__all__ and "get_num_threads" in ma.__all__


# ---- bit-identical results over thread counts -----------------------------------

CASTS = [("float64", "float32"), ("float64", "int32"), ("float32", "float16"), ("float32", "bfloat16"),
         ("int64", "float64"), ("complex128", "complex64"), ("float64", "bool")]


@pytest.mark.parametrize(("src", "dst"), CASTS)
def test_casts_identical_over_thread_counts(src: str, dst: str) -> None:
    rng = np.random.default_rng(1)
    xn = (rng.standard_normal(5003) * 1000).astype(src)
    x = ma.asarray(xn, copy=True)
    if dst == "bfloat16":  # NumPy has no bfloat16: compare it widened (exact)
        results = per_thread_count(lambda: x.astype(ma.bfloat16).astype(ma.float32))
    else:
        results = per_thread_count(lambda: x.astype(getattr(ma, dst)))
    assert_identical(results)
    if dst != "bfloat16":  # NumPy has no bfloat16
        np.testing.assert_array_equal(results[0], xn.astype(dst))


LAYOUTS: dict[str, Callable[[Any], Any]] = {
    "contiguous": lambda a: a,
    "every other": lambda a: a[::2, ::3],
    "reversed": lambda a: a[::-1, ::-1],
    "transposed": lambda a: a.T,
    "transposed slice": lambda a: a.T[5:, ::-2],
}


@pytest.mark.parametrize("layout", list(LAYOUTS))
@pytest.mark.parametrize("dtype", ["float64", "float32", "int16", "complex128", "bool"])
def test_copies_of_views_identical_over_thread_counts(layout: str, dtype: str) -> None:
    rng = np.random.default_rng(2)
    an = (rng.standard_normal((600, 700)) * 100).astype(dtype)
    a = ma.asarray(an, copy=True)
    view = LAYOUTS[layout]
    # Tiles are TILE_BYTES (512) of the output's rows wide: narrower rows
    # are not tiled.
    tiled = layout.startswith("transposed") and view(an).shape[-1] > 512 // an.itemsize
    results = per_thread_count(lambda: view(a).copy(), tiled=tiled)
    assert_identical(results)
    np.testing.assert_array_equal(results[0], view(an))


def test_tiled_walk_of_3d_transposes() -> None:
    rng = np.random.default_rng(3)
    an = rng.standard_normal((70, 130, 97))
    a = ma.asarray(an, copy=True)
    for axes in [(0, 2, 1), (2, 1, 0), (1, 2, 0), (2, 0, 1)]:
        results = per_thread_count(lambda axes=axes: ma.permute_dims(a, axes).copy(), tiled=True)
        assert_identical(results)
        np.testing.assert_array_equal(results[0], an.transpose(axes))


def test_broadcast_assignment_identical_over_thread_counts() -> None:
    rng = np.random.default_rng(4)
    rown = rng.standard_normal(777)
    row = ma.asarray(rown, copy=True)

    def fill() -> ma.NDArray:
        out = ma.empty((301, 777), dtype=ma.float32)
        out[...] = row  # casts float64 -> float32 and broadcasts
        return out

    results = per_thread_count(fill)
    assert_identical(results)
    np.testing.assert_array_equal(results[0], np.broadcast_to(rown.astype(np.float32), (301, 777)))


def test_overlapping_assignment_matches_numpy() -> None:
    # Overlap that is not element for element must not be split (or be
    # copied first): a[1:] = a[:-1] shifts by one.
    base = np.arange(10_000, dtype=np.float64)

    def shift() -> ma.NDArray:
        a = ma.asarray(base, copy=True)
        a[1:] = a[:-1]
        return a

    results = per_thread_count(shift)
    assert_identical(results)
    expected = base.copy()
    expected[1:] = base[:-1]
    np.testing.assert_array_equal(results[0], expected)


def test_in_place_same_layout_assignment() -> None:
    base = np.arange(20_000, dtype=np.int64).reshape(100, 200)

    def same() -> ma.NDArray:
        a = ma.asarray(base, copy=True)
        a[...] = a
        a.T[...] = a.T
        return a

    results = per_thread_count(same)
    assert_identical(results)
    np.testing.assert_array_equal(results[0], base)


@settings(max_examples=60, deadline=None)
@given(
    shape=st.tuples(st.integers(1, 90), st.integers(1, 90), st.integers(1, 4)),
    perm=st.permutations([0, 1, 2]),
    steps=st.tuples(st.sampled_from([1, 2, -1, -3]), st.sampled_from([1, 2, -1]), st.sampled_from([1, -1])),
    dtype=st.sampled_from(["float64", "float32", "int8", "complex64"]),
)
def test_any_strided_copy_identical_over_thread_counts(shape: tuple[int, int, int], perm: list[int],
                                                       steps: tuple[int, int, int], dtype: str) -> None:
    an = np.arange(int(np.prod(shape)), dtype=np.int64).reshape(shape).astype(dtype)
    a = ma.asarray(an, copy=True)
    key = tuple(slice(None, None, s) for s in steps)

    def run() -> ma.NDArray:
        return ma.permute_dims(a[key], tuple(perm)).copy()

    results = per_thread_count(run, counts=(1, 2, 3), split=False)
    assert_identical(results)
    np.testing.assert_array_equal(results[0], an[key].transpose(perm))


ELEMENTWISE = [("add", 2), ("multiply", 2), ("sqrt", 1), ("exp", 1), ("sin", 1)]


@pytest.mark.parametrize(("name", "arity"), ELEMENTWISE)
@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("layout", ["contiguous", "every other", "transposed", "broadcast"])
def test_elementwise_identical_over_thread_counts(name: str, arity: int, dtype: str, layout: str) -> None:
    fn = getattr(ma, name)
    rng = np.random.default_rng(5)
    args_np = [rng.uniform(0.1, 3.0, (301, 301)).astype(dtype) for _ in range(arity)]
    if layout == "transposed":  # A.T (op B): the tiled walk
        ops_np = [args_np[0].T, *args_np[1:]]
    elif layout == "every other":
        ops_np = [a[::2, ::3] for a in args_np]
    elif layout == "broadcast":
        ops_np = [args_np[0], *(a[0] for a in args_np[1:])]
    else:
        ops_np = args_np
    bases = [ma.asarray(a, copy=True) for a in args_np]
    if layout == "transposed":
        ops = [bases[0].T, *bases[1:]]
    elif layout == "every other":
        ops = [b[::2, ::3] for b in bases]
    elif layout == "broadcast":
        ops = [bases[0], *(b[0] for b in bases[1:])]
    else:
        ops = bases
    # A unary result follows its transposed input's layout (NumPy's order
    # K), so only a binary A.T op B has conflicting strides to tile.
    results = per_thread_count(lambda: fn(*ops), tiled=layout == "transposed" and arity == 2)
    assert_identical(results)
    np.testing.assert_allclose(results[0], getattr(np, name)(*ops_np), rtol=2e-7 if dtype == "float64" else 2e-6)


# ---- concurrency ----------------------------------------------------------------


def test_two_python_threads_at_once() -> None:
    """Kernels from two Python threads (the GIL is released in C) share one
    pool: one gets it, the other runs serially; both must be right."""
    ma.set_num_threads(2)
    _threads._set_parallel_min(1)
    rng = np.random.default_rng(6)
    an = rng.standard_normal((400, 500))
    a = ma.asarray(an, copy=True)
    expected = [an.T.astype(np.float32), an[::-1].astype(np.int32)]
    errors: list[BaseException] = []
    barrier = threading.Barrier(2)

    def work(which: int) -> None:
        try:
            barrier.wait()
            for _ in range(100):
                r = a.T.astype(ma.float32) if which == 0 else a[::-1].astype(ma.int32)
                if not np.array_equal(np.asarray(r), expected[which]):
                    raise AssertionError(f"thread {which}: wrong result")
                del r
        except BaseException as e:  # reported below
            errors.append(e)

    ts = [threading.Thread(target=work, args=(i,)) for i in range(2)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    assert not errors, errors


def test_changing_thread_count_while_kernels_run() -> None:
    _threads._set_parallel_min(1)
    ma.set_num_threads(2)
    an = np.arange(300_000, dtype=np.float64)
    a = ma.asarray(an, copy=True)
    stop = threading.Event()
    errors: list[BaseException] = []

    def work() -> None:
        try:
            while not stop.is_set():
                r = a[::-1].copy()
                if np.asarray(r)[0] != an[-1] or np.asarray(r)[-1] != an[0]:
                    raise AssertionError("wrong result")
                del r
        except BaseException as e:
            errors.append(e)

    t = threading.Thread(target=work)
    t.start()
    try:
        for n in [1, 3, 2, 1, 4, 2] * 5:
            ma.set_num_threads(n)
    finally:
        stop.set()
        t.join()
    assert not errors, errors


def test_fork_child_recreates_the_pool() -> None:
    code = """
        import os, numpy as np, minarray as ma
        from minarray import _threads as threads
        threads._set_parallel_min(1)
        ma.set_num_threads(2)
        an = np.arange(100_000, dtype=np.float64).reshape(200, 500)
        a = ma.asarray(an, copy=True)
        assert np.array_equal(np.asarray(a.T.copy()), an.T)  # the parent's pool now exists
        pid = os.fork()
        if pid == 0:
            ok = all(np.array_equal(np.asarray(a.T.copy()), an.T) for _ in range(20))
            os._exit(0 if ok and ma.get_num_threads() == 2 else 3)
        _, status = os.waitpid(pid, 0)
        assert np.array_equal(np.asarray(a[::-1].copy()), an[::-1])
        print(os.waitstatus_to_exitcode(status))
    """
    proc = _python(code, None)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "0"


def test_environment_variable_and_none_reach_blas() -> None:
    """OpenBLAS gets the count from MINARRAY_NUM_THREADS at import, and the
    default back from set_num_threads(None)."""
    code = """
        import minarray as ma
        from minarray import _blas
        print(ma.get_num_threads(), _blas.info()["num_threads"])
        ma.set_num_threads(5)
        print(ma.get_num_threads(), _blas.info()["num_threads"])
        ma.set_num_threads(None)
        print(ma.get_num_threads(), _blas.info()["num_threads"])
    """
    proc = _python(code, "3")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split("\n")[:3] == ["3 3", "5 5", "3 3"]


# Two threads changing the count while four others multiply 256 x 256
# matrices: OpenBLAS deadlocked when its count changed under a running call,
# in a trial or when the process exited (before the change, about one child
# in five hung, mostly at exit).  50 trials, two in each of 25 fresh
# children: a trial that outlasts TRIAL_LIMIT seconds prints every thread's
# stack and ends its child; the parent's timeout catches a hang at exit.
BLAS_STRESS = """
    import faulthandler, threading
    import numpy as np
    import minarray as ma
    from minarray import _blas

    TRIALS, TRIAL_LIMIT, SETS = 2, 30, 9
    COUNTS = [1, 2, 3, 4, 8, 16, 32, 64, None]
    rng = np.random.default_rng(7)
    an, bn = rng.standard_normal((256, 256)), rng.standard_normal((256, 256))
    a, b = ma.asarray(an, copy=True), ma.asarray(bn, copy=True)
    expected = an @ bn
    errors = []
    setting = threading.Event()

    def setter(first):
        try:
            for i in range(SETS):
                ma.set_num_threads(COUNTS[(first + i) % len(COUNTS)])
        except BaseException as e:
            errors.append(e)

    def multiply():
        try:
            while True:
                if not np.allclose(np.asarray(a @ b), expected):
                    raise AssertionError("wrong product")
                if not setting.is_set():
                    return
        except BaseException as e:
            errors.append(e)

    for trial in range(TRIALS):
        faulthandler.dump_traceback_later(TRIAL_LIMIT, exit=True)
        setting.set()
        setters = [threading.Thread(target=setter, args=(k * 4,)) for k in range(2)]
        products = [threading.Thread(target=multiply) for _ in range(4)]
        for t in products + setters:
            t.start()
        for t in setters:
            t.join()
        setting.clear()
        for t in products:
            t.join()
        faulthandler.cancel_dump_traceback_later()
        assert not errors, (trial, errors)
        # Both setters are done: the pool and OpenBLAS agree (OpenBLAS caps
        # the count at its build's maximum).
        assert _blas.info()["num_threads"] == min(ma.get_num_threads(), 64), trial
    print("ok")
"""


@pytest.mark.slow  # 25 to 60 s on two shared cores: 25 interpreters, OpenBLAS at up to 64 threads
def test_set_num_threads_during_blas_products_never_deadlocks() -> None:
    for child in range(25):
        proc = _python(BLAS_STRESS, None, timeout=60)
        assert proc.returncode == 0, (child, proc.stderr)
        assert proc.stdout.strip() == "ok", child


def test_no_warning_at_import_without_the_variable() -> None:
    proc = _python("import warnings; warnings.simplefilter('error'); import minarray", None)
    assert proc.returncode == 0, proc.stderr


# ---- reductions -------------------------------------------------------------------


def _reduction_input(dtype: str, shape: tuple[int, ...]) -> np.ndarray:
    rng = np.random.default_rng(7)
    x = rng.standard_normal(shape) * 1000
    if dtype.startswith("complex"):
        x = x + 1j * rng.standard_normal(shape)
    return x.astype(dtype)


@pytest.mark.parametrize("dtype", ["float32", "float64", "complex64", "complex128"])
@pytest.mark.parametrize("view", ["contiguous", "every third"])
def test_sum_of_one_run_has_numpys_bits_for_every_thread_count(dtype: str, view: str) -> None:
    """The run is cut along the pairwise tree: NumPy's exact bits whatever
    the thread count."""
    xn = _reduction_input(dtype, (300_007,))
    x = ma.asarray(xn, copy=True)
    if view == "every third":
        xn, x = xn[::3], x[::3]
    before = _threads._pool_jobs()
    results = per_thread_count(lambda: ma.sum(x), split=False)
    assert _threads._pool_jobs() > before
    assert_identical(results)
    assert results[0].tobytes() == np.asarray(sum_bits(xn)).tobytes()
    means = per_thread_count(lambda: ma.mean(x), split=False)
    assert_identical(means)


@pytest.mark.parametrize("op", ["sum", "mean", "var", "std", "max", "min", "prod"])
@pytest.mark.parametrize("axis", [None, 0, 1])
def test_reductions_identical_over_thread_counts(op: str, axis: int | None) -> None:
    xn = _reduction_input("float64", (700, 900)) / (1000 if op == "prod" else 1)
    x = ma.asarray(xn, copy=True)
    results = per_thread_count(lambda: getattr(ma, op)(x, axis=axis), split=False)
    assert_identical(results)
    np.testing.assert_allclose(results[0], getattr(np, op)(xn, axis=axis), rtol=1e-10)


@pytest.mark.parametrize("op", ["sum", "max", "min", "prod", "all", "any"])
def test_integer_and_bool_reductions_over_thread_counts(op: str) -> None:
    rng = np.random.default_rng(8)
    xn = rng.integers(-(2**40), 2**40, 400_001) if op not in ("all", "any") else rng.random(400_001) > 1e-6
    x = ma.asarray(xn, copy=True)
    results = per_thread_count(lambda: getattr(ma, op)(x), split=False)
    assert_identical(results)
    expected = getattr(np, op)(xn)
    assert results[0] == expected  # integer arithmetic wraps like NumPy's


def test_nan_propagates_through_split_max() -> None:
    xn = np.arange(500_000, dtype=np.float64)
    xn[123_456] = np.nan
    x = ma.asarray(xn, copy=True)
    for r in per_thread_count(lambda: ma.max(x), split=False):
        assert np.isnan(r)


@pytest.mark.parametrize("name", ["exp", "sin", "log", "tanh"])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_transcendental_result_does_not_depend_on_layout(name: str, dtype: str) -> None:
    """Contiguous, strided and transposed (tiled) inputs go through the same
    vector code: equal inputs give equal bits wherever they sit."""
    rng = np.random.default_rng(9)
    an = rng.uniform(0.1, 3.0, (300, 400)).astype(dtype)
    a = ma.asarray(an, copy=True)
    f = getattr(ma, name)
    whole = np.asarray(f(a))
    _threads._set_tile_min_span(1)
    for n in (1, 2):
        ma.set_num_threads(n)
        assert np.asarray(f(a[::2, ::3])).tobytes() == np.ascontiguousarray(whole[::2, ::3]).tobytes()
        assert np.asarray(f(a.T)).tobytes() == np.ascontiguousarray(whole.T).tobytes()


def test_expensive_operations_split_from_fewer_elements() -> None:
    """exp splits over threads from 16384 doubles; add waits for 65536."""
    ma.set_num_threads(2)
    x = ma.asarray(np.linspace(0.0, 1.0, 20_000), copy=True)
    before = _threads._iterate_counts()[0]
    ma.add(x, x)
    assert _threads._iterate_counts()[0] == before
    ma.exp(x)
    assert _threads._iterate_counts()[0] == before + 1


# ---- gathers and scatters -----------------------------------------------------------


@pytest.mark.parametrize("key", ["idx", "rows, cols", "rows, cols, planes", ":, cols", "mask"])
def test_gathers_identical_over_thread_counts(key: str) -> None:
    rng = np.random.default_rng(10)
    xn = rng.standard_normal((40, 30, 20))
    x = ma.asarray(xn, copy=True)
    r, c, p = (rng.integers(-d, d, 5000) for d in (40, 30, 20))
    keys: dict[str, tuple[Any, Any]] = {
        "idx": (ma.asarray(r), r),
        "rows, cols": ((ma.asarray(r), ma.asarray(c)), (r, c)),
        "rows, cols, planes": ((ma.asarray(r), ma.asarray(c), ma.asarray(p)), (r, c, p)),
        ":, cols": ((slice(None), ma.asarray(c)), (slice(None), c)),
        "mask": (ma.asarray(xn[:, :, 0] > 0), xn[:, :, 0] > 0),
    }
    mkey, nkey = keys[key]
    results = per_thread_count(lambda: x[mkey], split=False, pooled=True)
    assert_identical(results)
    assert results[0].tobytes() == np.ascontiguousarray(xn[nkey]).tobytes()


@pytest.mark.parametrize("key", ["idx", "rows, cols", "mask over rows"])
def test_one_value_scatters_identical_over_thread_counts(key: str) -> None:
    """x[key] = scalar splits over threads, repeated indices included (they
    all write the same bytes)."""
    rng = np.random.default_rng(11)
    xn = rng.standard_normal((300, 200))
    r, c = rng.integers(-300, 300, 30000), rng.integers(-200, 200, 30000)  # with repeats
    keys: dict[str, tuple[Any, Any]] = {
        "idx": (ma.asarray(r), r),
        "rows, cols": ((ma.asarray(r), ma.asarray(c)), (r, c)),
        "mask over rows": (ma.asarray(xn[:, 0] > 0), xn[:, 0] > 0),
    }
    mkey, nkey = keys[key]

    def scatter() -> ma.NDArray:
        x = ma.asarray(xn, copy=True)
        x[mkey] = -7.5
        return x

    results = per_thread_count(scatter, split=False, pooled=True)
    assert_identical(results)
    ref = xn.copy()
    ref[nkey] = -7.5
    assert results[0].tobytes() == ref.tobytes()


def test_scatter_of_several_values_keeps_numpys_last_write() -> None:
    """Values that differ are written in index order on any thread count:
    for a repeated index the last one wins, as in NumPy."""
    _threads._set_parallel_min(1)
    idx = np.repeat(np.arange(100), 300)[::-1].copy()  # each index 300 times
    values = np.arange(idx.size, dtype=np.float64)
    ref = np.zeros(100)
    ref[idx] = values
    for n in COUNTS:
        ma.set_num_threads(n)
        x = ma.zeros(100)
        x[ma.asarray(idx)] = ma.asarray(values)
        assert np.asarray(x).tobytes() == ref.tobytes()


def test_split_gather_reports_the_first_bad_index() -> None:
    """Each chunk stops at its own first bad index; the error names the
    first of all, as a serial walk does, and a scatter writes nothing."""
    _threads._set_parallel_min(1)
    xn = np.arange(1000.0)
    idx = np.arange(40000) % 1000
    idx[25000], idx[31000], idx[39000] = 5000, -3000, 7000
    for n in COUNTS:
        ma.set_num_threads(n)
        x = ma.asarray(xn, copy=True)
        with pytest.raises(IndexError, match=r"^index 5000 is out of bounds for axis 0 with size 1000$"):
            x[ma.asarray(idx)]
        with pytest.raises(IndexError, match=r"^index 5000 is out of bounds for axis 0 with size 1000$"):
            x[ma.asarray(idx)] = 1.0
        assert np.asarray(x).tobytes() == xn.tobytes()
