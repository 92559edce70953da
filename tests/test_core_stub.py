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
    """Types the module defines (Handle is only a name for a capsule)."""
    tree = ast.parse(STUB.read_text())
    return {n.name for n in tree.body if isinstance(n, ast.ClassDef)} - {"Handle"}


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
    the C side expects (MA_NARGS); the stub must say the same count."""
    fn = _stub_functions()[name]
    positional = len(fn.args.posonlyargs) + len(fn.args.args)
    with pytest.raises(TypeError, match=rf"takes {positional} argument"):
        getattr(core, name)(*([None] * (positional + 1)))


def test_variadic_functions_refuse_too_few_arguments() -> None:
    variadic = sorted(set(_stub_functions()) - set(FIXED))
    assert variadic == ["ewfast", "ewise"]
    for name in variadic:
        with pytest.raises(TypeError):
            getattr(core, name)(0)
