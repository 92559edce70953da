"""Interop both ways with NumPy, PyTorch (CPU), JAX (CPU) and pydlpack:
the conformance matrix of minarray.testing.dlpack (every dtype x layout x
capsule kind), plus each library's particular paths and lifetimes."""

from __future__ import annotations

import gc
import importlib
import threading
from typing import Any

import numpy as np
import pytest

import minarray as ma
from minarray.testing import dlpack as conf

LIBS = {lib.name: lib for lib in conf.libraries()}
OTHERS = [name for name in ("numpy", "torch", "jax", "pydlpack") if name in LIBS]
PAIRS = [("minarray", "minarray")] + [("minarray", o) for o in OTHERS if o != "pydlpack"] + [
    (o, "minarray") for o in OTHERS]


def test_every_installed_library_is_in_the_matrix() -> None:
    import importlib.util

    for name, module in (("numpy", "numpy"), ("torch", "torch"), ("jax", "jax"), ("pydlpack", "dlpack")):
        assert (name in LIBS) == (importlib.util.find_spec(module) is not None)


@pytest.mark.parametrize(("producer", "consumer"), PAIRS, ids=[f"{p}->{c}" for p, c in PAIRS])
def test_conformance_matrix(producer: str, consumer: str) -> None:
    results = [conf.check(LIBS[producer], LIBS[consumer], case, dtype, legacy)
               for case in conf.CASES for dtype in conf.DTYPES for legacy in (False, True)]
    fails = [f"[{r.case}, {r.dtype}, {r.protocol}] {r.detail}" for r in results if r.status == "FAIL"]
    assert not fails, "\n".join(fails[:20])
    assert any(r.status == "ok" for r in results)
    gc.collect()


def test_matrix_main_prints_a_table(capsys: pytest.CaptureFixture[str]) -> None:
    libs = [LIBS["minarray"], LIBS["numpy"]]
    results = list(conf.run(libs))
    table = conf._table(results)
    assert "minarray -> numpy" in table and "numpy -> minarray" in table
    assert all(r.status != "FAIL" for r in results)
    del results
    gc.collect()


# ---- PyTorch ----------------------------------------------------------------

torch: Any = importlib.import_module("torch") if "torch" in LIBS else None
needs_torch = pytest.mark.skipif(torch is None, reason="PyTorch is not installed")


@needs_torch
def test_torch_exchange_api_is_used(monkeypatch: pytest.MonkeyPatch) -> None:
    assert torch is not None
    t = torch.arange(12.0).reshape(3, 4)[:, 1:]

    def refuse(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("__dlpack__ called: the C exchange API should have been used")

    monkeypatch.setattr(torch.Tensor, "__dlpack__", refuse)
    a = ma.from_dlpack(t)
    assert a.data_ptr == t.data_ptr()
    assert a.shape == (3, 3) and a.strides == (16, 4)
    a[0, 0] = -1
    assert t[0, 0].item() == -1


@needs_torch
def test_torch_lifetimes() -> None:
    assert torch is not None
    t = torch.arange(6.0)
    a = ma.from_dlpack(t)
    del t
    gc.collect()
    np.testing.assert_array_equal(np.asarray(a), np.arange(6.0))  # producer died first
    b = ma.arange(5, dtype=ma.float32)
    u = torch.from_dlpack(b)
    del b
    gc.collect()
    assert u.tolist() == [0, 1, 2, 3, 4]  # consumer outlives minarray's array
    u[0] = 9
    assert u[0].item() == 9


@needs_torch
def test_torch_refusals_come_from_torch() -> None:
    assert torch is not None
    conj = (torch.arange(3.0) + 1j).conj()
    with pytest.raises(BufferError, match="conjugate"):
        ma.from_dlpack(conj)  # the C API would export wrong values: __dlpack__ refuses
    with pytest.raises(BufferError, match="strided"):
        ma.from_dlpack(torch.arange(3.0).to_sparse())


def _torch_kinds() -> list[tuple[str, Any]]:
    """Every kind of CPU tensor we can build: dtypes, views of each layout,
    and the states DLPack cannot describe (gradient, lazy bits, sparse)."""
    assert torch is not None
    base = torch.arange(24.0).reshape(4, 6)
    z = torch.tensor([1 + 2j, 3 - 4j, -5 + 0.5j])
    kinds: list[tuple[str, Any]] = [
        (f"dtype {dt}", torch.arange(6).to(dt))
        for dt in (torch.bool, torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64, torch.float16,
                   torch.bfloat16, torch.float32, torch.float64, torch.complex64, torch.complex128)
    ]
    kinds += [
        ("0-d", torch.tensor(3.5)),
        ("empty", torch.empty(0, 3)),
        ("sliced", base[1:, ::2]),
        ("transposed", base.T),
        ("offset", base.flatten()[5:]),
        ("expanded", torch.arange(3.0).expand(4, 3)),
        ("channels_last", torch.arange(48.0).reshape(1, 3, 4, 4).to(memory_format=torch.channels_last)),
        ("complex view", z[::2]),
        ("real of complex", z.real),
        ("detached", torch.ones(3, requires_grad=True).detach()),
        ("resolved conj", z.conj().resolve_conj()),
        ("resolved neg", z.conj().imag.resolve_neg()),
        ("requires grad", torch.ones(3, requires_grad=True)),
        ("conjugate bit", z.conj()),
        ("negative bit", z.conj().imag),
        ("negative bit, real", torch.arange(3.0)._neg_view()),
        ("sparse", torch.arange(3.0).to_sparse()),
    ]
    return kinds


def _outcome(f: Any) -> tuple[str, Any]:
    try:
        a = f()
    except (BufferError, TypeError, RuntimeError, ValueError) as e:
        return "raises", type(e).__name__
    return "gives", (a.dtype, a.shape, a.strides, a.flags.writeable, a.tolist())


@needs_torch
def test_torch_fast_path_gives_what_dunder_dlpack_would() -> None:
    """The C exchange API route and the __dlpack__ capsule route agree on
    every kind of tensor: the same array, or the same refusal.  Where
    __dlpack__ itself would export wrong values (the negative bit), both
    refuse; where it refuses (gradient, conjugate bit), both refuse."""
    assert torch is not None
    refused = {"requires grad", "conjugate bit", "negative bit", "negative bit, real", "sparse"}
    for name, t in _torch_kinds():
        fast = _outcome(lambda t=t: ma.from_dlpack(t))
        slow = _outcome(lambda t=t: ma.from_dlpack(_Capsules(t)))
        assert fast == slow, name
        assert fast[0] == ("raises" if name in refused else "gives"), (name, fast)
        if fast[0] == "gives":
            assert fast[1][4] == t.tolist(), name


class _Capsules:
    """A tensor seen only through __dlpack__: its type has no exchange API,
    so minarray takes the capsule route, after asking the same questions
    (gradient, lazy bits) it asks a tensor."""

    def __init__(self, t: Any) -> None:
        self.t = t

    @property
    def requires_grad(self) -> bool:
        return bool(self.t.requires_grad)

    def is_conj(self) -> bool:
        return bool(self.t.is_conj())

    def is_neg(self) -> bool:
        return bool(self.t.is_neg())

    def __dlpack__(self, **kwargs: Any) -> Any:
        return self.t.__dlpack__(**kwargs)

    def __dlpack_device__(self) -> Any:
        return self.t.__dlpack_device__()


@needs_torch
def test_torch_gradient_and_lazy_bits_are_refused_with_a_clear_error() -> None:
    assert torch is not None
    with pytest.raises(BufferError, match="require gradient"):
        ma.from_dlpack(torch.ones(3, requires_grad=True))
    z = torch.tensor([1 + 2j, 3 - 4j])
    with pytest.raises(BufferError, match=r"conjugate bit.*resolve_conj"):
        ma.from_dlpack(z.conj())
    with pytest.raises(BufferError, match=r"negative bit.*resolve_neg"):
        ma.from_dlpack(z.conj().imag)  # the memory holds [2, -4]; the tensor [-2, 4]
    assert ma.from_dlpack(z.conj().imag.resolve_neg()).tolist() == [-2.0, 4.0]


@needs_torch
def test_torch_legacy_capsule_and_device_request() -> None:
    assert torch is not None
    from torch.utils.dlpack import to_dlpack

    t = torch.arange(4, dtype=torch.int16)
    a = ma.from_dlpack(to_dlpack(t))
    assert not a.flags.writeable and a.data_ptr == t.data_ptr()
    b = ma.from_dlpack(t, device="cpu", copy=False)
    assert b.data_ptr == t.data_ptr()
    c = ma.from_dlpack(t, copy=True)
    assert c.data_ptr != t.data_ptr() and c.tolist() == [0, 1, 2, 3]


@needs_torch
def test_torch_takes_reversed_views_as_copies() -> None:
    """PyTorch cannot hold negative strides (importing them aborts the
    process in 2.13, see docs/dlpack/pitfalls.md); copy=True asks minarray
    for a C-contiguous copy, which it takes."""
    assert torch is not None
    a = ma.arange(12.0).reshape(3, 4)
    for view in (a[::-1], a[:, ::-2], ma.flip(a)):
        t = torch.from_dlpack(view, copy=True)
        assert t.is_contiguous() and t.data_ptr() != a.data_ptr
        assert t.tolist() == view.tolist()


@needs_torch
def test_torch_round_trip_keeps_identity_of_memory() -> None:
    assert torch is not None
    a = ma.zeros((2, 3), dtype=ma.bfloat16)
    t = torch.from_dlpack(a)
    assert t.dtype == torch.bfloat16 and t.data_ptr() == a.data_ptr
    t += 1.5
    back = ma.from_dlpack(t)
    assert back.data_ptr == a.data_ptr
    assert a.astype(ma.float32).tolist() == [[1.5] * 3] * 2


@needs_torch
def test_torch_threads_import_and_drop() -> None:
    assert torch is not None
    t = torch.arange(1000.0)
    errors: list[BaseException] = []

    def work() -> None:
        try:
            for _ in range(200):
                a = ma.from_dlpack(t)
                u = torch.from_dlpack(a[::2])
                assert u[3].item() == 6.0
                del a, u
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=work) for _ in range(4)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert not errors


# ---- JAX ------------------------------------------------------------------------

needs_jax = pytest.mark.skipif("jax" not in LIBS, reason="JAX is not installed")


@needs_jax
def test_jax_both_ways() -> None:
    import jax.numpy as jnp

    x = jnp.arange(6.0, dtype=jnp.float32).reshape(2, 3)
    a = ma.from_dlpack(x)
    # JAX exports legacy capsules only, so the import is read-only (JAX
    # arrays are immutable anyway)
    assert not a.flags.writeable
    np.testing.assert_array_equal(np.asarray(a), np.asarray(x))
    y = jnp.from_dlpack(ma.arange(4, dtype=ma.int32))
    assert y.tolist() == [0, 1, 2, 3]
    del a, x, y
    gc.collect()


# ---- pydlpack --------------------------------------------------------------------

needs_pydlpack = pytest.mark.skipif("pydlpack" not in LIBS, reason="pydlpack is not installed")


@needs_pydlpack
def test_pydlpack_both_ways() -> None:
    import dlpack

    x = np.arange(6.0).reshape(2, 3)
    a = ma.from_dlpack(dlpack.asdlpack(x))
    assert a.data_ptr == x.__array_interface__["data"][0]
    np.testing.assert_array_equal(np.asarray(a), x)
    # pydlpack re-wraps producers: minarray as its source
    b = ma.arange(3, dtype=ma.float32)
    n = np.from_dlpack(dlpack.asdlpack(b))
    np.testing.assert_array_equal(n, [0, 1, 2])
    del a, n, b
    gc.collect()
