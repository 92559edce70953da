"""docs/architecture.md stays true: its figure's layering holds (no import
cycle, the floor below every chapter), and every step of its two data paths
names a function that is defined in the file the step names."""

from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PAGE = ROOT / "docs" / "architecture.md"
sys.path.insert(0, str(ROOT / "docs" / "_ext"))

import layers  # noqa: E402  (docs/_ext: the figure's own reading of the source)

STEP = re.compile(r"^\| \d+ \| `([^`]+)` \| `([^`]+)` \|", re.M)


def _defines(path: Path, name: str) -> bool:
    text = path.read_text()
    if path.suffix == ".py":
        return re.search(rf"^\s*def {re.escape(name)}\(", text, re.M) is not None
    # a C function definition (a type before the name, a body after the
    # parameter list) or the macro that defines a family of them
    return (re.search(rf"^\s*#\s*define {re.escape(name)}\(", text, re.M) is not None
            or re.search(rf"^[A-Za-z_][\w \t*]*\b{re.escape(name)}\([^;{{]*\)\s*\{{", text, re.M) is not None)


def test_every_step_of_the_data_paths_names_a_real_function() -> None:
    steps = STEP.findall(PAGE.read_text())
    assert len(steps) >= 12, f"found {len(steps)} steps: the table format changed and the test would check nothing"
    missing = [f"{file}: {name}" for file, name in steps if not _defines(ROOT / file, name)]
    assert not missing, f"architecture.md names functions its files do not define: {missing}"


def test_the_python_layers_have_no_cycle_and_the_floor_is_at_the_bottom() -> None:
    rows = layers.python_layers()  # raises on an import cycle
    row_of = {m: k for k, row in enumerate(rows) for m in row}
    chapters = [m for m in row_of if m.startswith("_") and m not in
                {"_dtypes", "_coerce", "_native", "_cuda", "_dldevice", "_blas", "_constants", "_errstate",
                 "_threads", "_array_object", "_array_interface", "_numpy_dispatch", "_printing",
                 "_printoptions", "_float_format", "_subclass", "_scalar"}]
    assert len(chapters) >= 12
    for floor in ("_dtypes", "_coerce", "_native"):
        above = [m for m in chapters if row_of[m] <= row_of[floor]]
        assert not above, f"{floor} should sit below every chapter; not below: {above}"
    assert row_of["__init__"] == max(row_of[m] for m in row_of if m != "testing")


def test_the_c_floors_are_the_files_on_disk() -> None:
    floors = layers.c_floors()
    assert "pyapi" in floors["py"] and "dlpack_core" in floors["core"]
    assert set(floors["core"]) == {p.stem for p in (ROOT / "csrc" / "core").glob("*.[ch]")}


def test_the_figure_is_drawn(tmp_path: Path) -> None:
    import pytest

    pytest.importorskip("matplotlib", reason="the docs' figures are drawn with matplotlib")
    (path,) = layers.generate(tmp_path)
    svg = path.read_text()
    for name in ("_coerce", "_creation", "dlpack_core", "pyapi"):
        assert name in svg, name
