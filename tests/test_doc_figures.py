"""The documentation's figures are drawn from the running library.

docs/_ext/figures.py draws them at every docs build; here it draws them into
a temporary folder, and the SVGs must carry the numbers minarray reports now:
the struct offsets cffi gives for the compiled module, the strides of live
views, the capsule names of a real export.
"""

from __future__ import annotations

import importlib.util
import json
import re
import sys
from html import unescape
from pathlib import Path
from types import ModuleType

import pytest

import minarray as ma
from minarray._native import ffi

pytest.importorskip("matplotlib", reason="matplotlib (the docs extra) draws the figures")

ROOT = Path(__file__).resolve().parent.parent


def _load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("doc_figures", ROOT / "docs" / "_ext" / "figures.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


figures = _load()


@pytest.fixture(scope="module")
def drawn(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    out = tmp_path_factory.mktemp("figures")
    paths = figures.generate(out)
    return {p.name: p.read_text() for p in paths}


def _texts(svg: str) -> str:
    """The SVG's text, one label a line (its text is kept as text)."""
    return "\n".join(unescape(t) for t in re.findall(r"<text[^>]*>(.*?)</text>", svg, re.S))


def test_every_figure_is_an_svg(drawn: dict[str, str]) -> None:
    expected = {f"strides-{k}.svg" for k in range(1, 6)} | {
        "struct-DLTensor.svg", "struct-DLManagedTensorVersioned.svg", "struct-DLPackExchangeAPI.svg",
        "capsule-life.svg", "ownership.svg", "streams.svg", "subbyte.svg"}
    assert expected <= set(drawn)
    for name, svg in drawn.items():
        assert svg.lstrip().startswith("<?xml") and "<svg" in svg, name


@pytest.mark.parametrize("struct", ["DLTensor", "DLManagedTensorVersioned", "DLPackExchangeAPI"])
def test_struct_figures_show_the_offsets_cffi_reports(drawn: dict[str, str], struct: str) -> None:
    text = _texts(drawn[f"struct-{struct}.svg"])
    assert f"{struct}: {ffi.sizeof(struct)} bytes, aligned to {ffi.alignof(struct)}" in text
    for name, field in ffi.typeof(struct).fields:
        if field.type.kind == "struct":
            continue  # drawn as its own fields, under a bracket
        offset, size = ffi.offsetof(struct, name), ffi.sizeof(field.type)
        assert re.search(rf"(offset |@){offset} · {size} B", text), (struct, name, offset, size)
        assert name in text


def test_struct_layout_reads_nested_offsets_from_the_module() -> None:
    size, _, fields, groups = figures.struct_layout("DLManagedTensorVersioned")
    assert size == ffi.sizeof("DLManagedTensorVersioned")
    code = next(f for f in fields if f.path == ("dl_tensor", "dtype", "code"))
    assert code.offset == ffi.offsetof("DLManagedTensorVersioned", "dl_tensor", "dtype", "code")
    assert {g.path for g in groups} >= {("version",), ("dl_tensor",), ("dl_tensor", "device")}
    # the leaves tile the struct: no byte twice, none left over on a 64-bit build
    covered = sorted(b for f in fields for b in range(f.offset, f.offset + f.size))
    assert len(covered) == len(set(covered))


def test_strides_figures_show_live_strides(drawn: dict[str, str]) -> None:
    a = ma.arange(12.0).reshape(3, 4)
    views = [a, a[:, ::2], a.T, a[::-1], ma.broadcast_to(ma.arange(4.0), (3, 4))]
    for k, v in enumerate(views, 1):
        text = _texts(drawn[f"strides-{k}.svg"])
        assert str(v.strides) in text
        assert str(ma.dlpack.describe(v).tensor.dl_tensor.strides) in text
    assert "data: element 0" in _texts(drawn["strides-4.svg"])
    assert "read 3x" in _texts(drawn["strides-5.svg"])


def test_capsule_figure_shows_what_a_live_run_saw(drawn: dict[str, str]) -> None:
    facts = figures.capsule_facts()
    assert facts["export_name"] == "dltensor_versioned"
    assert facts["import_name"] == "used_dltensor_versioned"
    assert facts["refused_name"] == "dltensor_versioned"  # a refused capsule keeps its name
    assert (facts["refused_calls_before"], facts["refused_calls_after"]) == (0, 1)
    assert facts["consumer_done_live"] == facts["unconsumed_live_after"] == 0
    text = " ".join(_texts(drawn["capsule-life.svg"]).split())
    assert '"used_dltensor_versioned"' in text and "BufferError" in text


def test_performance_plots_name_their_run(tmp_path: Path) -> None:
    meta = {"cpu_model": "Test CPU 9000", "cpu_count": 2, "date": "2026-01-01T00:00:00", "numpy": "2.4.6",
            "python": "3.11.7"}
    results = [
        {"group": "elementwise", "name": "elementwise: add float64 contiguous", "size": n, "vs": "numpy",
         "status": "ok", "minarray": {"median": 1e-6 * n}, "reference": {"median": 2e-6 * n}}
        for n in (100, 10_000)
    ]
    figures.draw_performance("elementwise", "elementwise", "elements", meta, results, tmp_path / "p.svg")
    text = _texts((tmp_path / "p.svg").read_text())
    assert "Test CPU 9000" in text and "2026-01-01" in text and "NumPy 2.4.6" in text
    assert "no PyTorch timings" in text  # says so when a library is missing
    assert "add float64 / NumPy" in text  # the legend names the line: case and library
    assert figures.perf_ratios("elementwise", results) == {("add float64", "NumPy"): [(100, 0.5), (10_000, 0.5)]}


def test_dlpack_bars_show_nanoseconds_per_call(tmp_path: Path) -> None:
    meta = {"cpu_model": "Test CPU 9000", "cpu_count": 2, "date": "2026-01-01T00:00:00"}
    results = [{"group": "dlpack", "name": "ma.from_dlpack(np)", "size": 1000, "vs": "np.from_dlpack(np)",
                "status": "ok", "minarray": {"median": 250e-9}, "reference": {"median": 300e-9}}]
    figures.draw_dlpack_bars(meta, results, tmp_path / "d.svg")
    text = _texts((tmp_path / "d.svg").read_text())
    assert "ma.from_dlpack(np): 250 ns" in text and "np.from_dlpack(np): 300 ns" in text
    assert "Test CPU 9000" in text and "2026-01-01" in text


def test_streams_figure_shows_what_minarray_does(drawn: dict[str, str]) -> None:
    facts = figures.stream_facts()
    assert facts == {"cpu_none": "dltensor_versioned", "cpu_one": "ValueError", "forwarded": 7,
                     "work_stream": "NULL"}
    text = " ".join(_texts(drawn["streams.svg"]).split())
    assert "stream=7 arrived as 7" in text and "raises ValueError" in text
    assert "ROCm: 0 the default stream" in text


def test_subbyte_figure_shows_live_padded_bytes(drawn: dict[str, str]) -> None:
    facts = figures.subbyte_facts()
    a = ma.asarray(facts["values"], dtype=ma.int4)
    assert facts["padded"] == list(a.tobytes()) == [1, 14, 7, 8]
    assert facts["packed"] == [0xE1, 0x87] and facts["flags"] == 4 and facts["bits"] == 4
    text = _texts(drawn["subbyte.svg"])
    assert "0xe1: e0 = 1, e1 = -2" in text and "0x0e: e1 = -2" in text


def test_recorded_benchmarks_name_their_cpu() -> None:
    data = ROOT / "docs" / "_data" / "benchmarks.json"
    meta = json.loads(data.read_text())["meta"]
    assert meta.get("cpu_model")


def test_figures_are_deterministic(tmp_path: Path, drawn: dict[str, str]) -> None:
    again = figures.generate(tmp_path)
    for p in again:
        assert p.read_text() == drawn[p.name], p.name
