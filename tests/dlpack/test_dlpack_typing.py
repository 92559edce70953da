"""Static typing: the protocols accept minarray, NumPy and PyTorch arrays
under mypy --strict, and work as runtime-checkable protocols."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import minarray as ma
from minarray.dlpack import CanDLPack, CanDLPackDevice

HERE = Path(__file__).resolve().parent
needs_mypy = pytest.mark.skipif(importlib.util.find_spec("mypy") is None, reason="mypy is not installed")


def test_runtime_checkable() -> None:
    a = ma.zeros(3)
    assert isinstance(a, CanDLPack) and isinstance(a, CanDLPackDevice)
    assert isinstance(np.zeros(3), CanDLPack)
    assert isinstance(ma.asdlpack(b"x"), CanDLPackDevice)
    assert not isinstance([1, 2], CanDLPack)


def _mypy(name: str) -> None:
    # A subprocess: mypy's heap would otherwise stay in this process.
    # follow-imports=silent: only the typing file itself is judged.
    proc = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-incremental", "--follow-imports=silent",
         "--config-file=", str(HERE / "typing" / name)],
        cwd=HERE.parent.parent, capture_output=True, text=True, check=False,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr


@needs_mypy
def test_protocols_pass_mypy_numpy() -> None:
    _mypy("dlpack_protocols.py")


@pytest.mark.slow  # mypy reads all of PyTorch's annotations: about a minute
@needs_mypy
@pytest.mark.skipif(importlib.util.find_spec("torch") is None, reason="PyTorch is not installed")
def test_protocols_pass_mypy_torch() -> None:
    _mypy("dlpack_protocols_torch.py")
