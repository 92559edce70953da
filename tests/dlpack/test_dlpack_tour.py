"""``python -m minarray`` (the tour) and ``python -m minarray.testing.dlpack``
(the conformance matrix) run and print what they promise."""

from __future__ import annotations

import gc
import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest
from numpy_oracle import DLPACK_VERSIONED

import minarray.__main__ as tour

ROOT = Path(__file__).resolve().parents[2]


def test_tour_runs(capsys: pytest.CaptureFixture[str]) -> None:
    assert tour.main() == 0
    out = capsys.readouterr().out
    assert "np.from_dlpack(a)" in out and "(same memory)" in out
    # the write goes through NumPy where NumPy imports it writable (2.1 and later)
    assert ("a[0, 0] = 42.0" if DLPACK_VERSIONED else "n[0, 0] = 42.0") in out
    assert "capsule 'dltensor_versioned', DLPack 1.3" in out
    if importlib.util.find_spec("torch") is not None:
        assert "torch.from_dlpack(a)" in out
    gc.collect()


def test_tour_without_torch(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "torch" else real(name, *a))
    assert tour.main() == 0
    out = capsys.readouterr().out
    assert "PyTorch not installed" in out and "ma.from_numpy(x)" in out
    gc.collect()


@pytest.mark.slow  # imports every DLPack library in a fresh interpreter
def test_conformance_cli() -> None:
    proc = subprocess.run([sys.executable, "-m", "minarray.testing.dlpack"], cwd=ROOT, capture_output=True,
                          text=True, check=False)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "minarray -> numpy" in proc.stdout and " 0 failed" in proc.stdout
