"""minarray/_core.pyi is the one place the core's Python-facing functions
are written down for mypy: it must name exactly the functions the compiled
module has, with as many positional parameters as they take."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from minarray._native import core

STUB = Path(__file__).resolve().parent.parent / "minarray" / "_core.pyi"


def _stub_functions() -> dict[str, ast.FunctionDef]:
    tree = ast.parse(STUB.read_text())
    return {n.name: n for n in tree.body if isinstance(n, ast.FunctionDef)}


def _stub_classes() -> set[str]:
    """Types the module defines (Handle, the type of an NDArray's _h, is not
    in the module's namespace; _Lib is the type of cffi's lib)."""
    tree = ast.parse(STUB.read_text())
    return {n.name for n in tree.body if isinstance(n, ast.ClassDef)} - {"Handle", "_Lib"}


def _installed() -> set[str]:
    return {k for k in dir(core) if not k.startswith("_") and k not in ("ffi", "lib") and callable(getattr(core, k))}


def test_stub_names_every_installed_function_and_no_other() -> None:
    stub, installed = set(_stub_functions()) | _stub_classes(), _installed()
    assert stub - installed == set(), "in the stub, not in the core"
    assert installed - stub == set(), "in the core, not in the stub"
    assert all(isinstance(getattr(core, name), type) for name in _stub_classes())


FIXED = sorted(name for name, fn in _stub_functions().items() if fn.args.vararg is None)


@pytest.mark.parametrize("name", FIXED)
def test_stub_arity_matches_the_c_function(name: str) -> None:
    """Calling with one argument too many raises TypeError naming the count
    the C side expects (MA_NARGS, or "N or M" with optional trailing
    arguments); the stub must say the same count."""
    fn = _stub_functions()[name]
    positional = len(fn.args.posonlyargs) + len(fn.args.args)
    least = positional - len(fn.args.defaults)
    counts = f"{positional}" if least == positional else f"{least} or {positional}"
    with pytest.raises(TypeError, match=rf"takes {counts} argument"):
        getattr(core, name)(*([None] * (positional + 1)))


def test_variadic_functions_refuse_too_few_arguments() -> None:
    variadic = sorted(set(_stub_functions()) - set(FIXED))
    assert variadic == ["ew_call"]
    for name in variadic:
        with pytest.raises(TypeError):
            getattr(core, name)(0)


# ---- cffi's lib ---------------------------------------------------------------


def _lib_stub() -> ast.ClassDef:
    tree = ast.parse(STUB.read_text())
    return next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "_Lib")


def _py_kind(ct: object) -> str:
    """The stub's annotation for a cffi type: int, float, None or CData."""
    kind, cname = ct.kind, ct.cname  # type: ignore[attr-defined]
    if kind == "primitive":
        return "float" if cname in ("double", "float") else "int"
    return "None" if kind == "void" else "CData"


def test_lib_stub_names_every_cffi_function_and_constant() -> None:
    from minarray._native import lib

    stub = {n.name if isinstance(n, ast.FunctionDef) else n.target.id  # type: ignore[union-attr]
            for n in _lib_stub().body if isinstance(n, (ast.FunctionDef, ast.AnnAssign))}
    assert stub == {n for n in dir(lib) if not n.startswith("_")}


def test_lib_stub_signatures_are_cffis() -> None:
    """Each function's parameters and result, as the stub types them, are
    what cffi compiled (so mypy checks calls against the real C)."""
    from minarray._native import ffi, lib

    for fn in (n for n in _lib_stub().body if isinstance(n, ast.FunctionDef)):
        ct = ffi.typeof(getattr(lib, fn.name))
        params = [ast.unparse(a.annotation) for a in fn.args.posonlyargs[1:] if a.annotation is not None]
        assert params == [_py_kind(a) for a in ct.args], fn.name
        assert fn.returns is not None and ast.unparse(fn.returns) == _py_kind(ct.result), fn.name
