"""Results: running a case, the table, the JSON file, comparing two runs."""

from __future__ import annotations

import json
import os
import platform
import sys
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, TextIO

from benchmarks import timing
from benchmarks.cases import Case, Missing, Unavailable

# What a row's status means (the table prints it where a time would be).
OK = "ok"
MISSING = "missing"  # minarray lacks the function: the reference is still timed
NO_REFERENCE = "no reference"  # the reference library is not installed
ERROR = "error"  # a side raised: the note says what

FORMAT_VERSION = 1


@dataclass
class Side:
    """One side's timing: per-call seconds of each block."""

    median: float
    spread: float
    loops: int
    samples: list[float]

    @classmethod
    def of(cls, t: timing.Timing) -> Side:
        return cls(t.median, t.spread, t.loops, t.samples)


@dataclass
class Result:
    id: str
    group: str
    name: str
    size: int
    unit: str
    vs: str
    status: str
    note: str = ""
    minarray: Side | None = None
    reference: Side | None = None
    torch: Side | None = None  # the second reference, PyTorch, where the case has one

    @property
    def ratio(self) -> float | None:
        """minarray time over reference time (below 1: minarray is faster)."""
        if self.minarray is None or self.reference is None or self.reference.median <= 0:
            return None
        return self.minarray.median / self.reference.median

    @property
    def torch_ratio(self) -> float | None:
        """minarray time over PyTorch's time."""
        if self.minarray is None or self.torch is None or self.torch.median <= 0:
            return None
        return self.minarray.median / self.torch.median

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Result:
        def side(key: str) -> Side | None:
            return Side(**d[key]) if d.get(key) else None

        return cls(d["id"], d["group"], d["name"], d["size"], d["unit"], d["vs"], d["status"], d.get("note", ""),
                   side("minarray"), side("reference"), side("torch"))

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["ratio"] = self.ratio
        d["torch_ratio"] = self.torch_ratio
        return d


def _short(exc: BaseException) -> str:
    text = f"{type(exc).__name__}: {exc}"
    return text if len(text) <= 160 else text[:157] + "..."


def run_case(case: Case, repeats: int, min_time: float, rest: float = 0.0) -> Result:
    """Time one case.  Never raises for a failing side: the row says why."""
    res = Result(case.id, case.group, case.name, case.size, case.unit, case.vs, OK)
    inputs = case.setup()
    fa: timing.Call | None = None
    fb: timing.Call | None = None
    try:
        fa = case.minarray(inputs)
    except Missing as e:
        res.status, res.note = MISSING, f"{e} does not exist"
    except Exception as e:  # a defect to report, not to hide
        res.status, res.note = ERROR, "minarray setup: " + _short(e)
    try:
        fb = case.reference(inputs)
    except Unavailable as e:
        if res.status == OK:
            res.status = NO_REFERENCE
        res.note = res.note or str(e)
    fc: timing.Call | None = None
    if case.torch is not None and fa is not None:
        try:
            fc = case.torch(inputs)
        except Unavailable:
            fc = None  # no PyTorch: the column stays empty
        except Exception as e:
            res.note = res.note or "torch setup: " + _short(e)
    try:
        if fa is not None and fb is not None and fc is not None:
            ta, tb, tc = timing.compare_many([fa, fb, fc], repeats, min_time, rest, case.settle)
            res.minarray, res.reference, res.torch = Side.of(ta), Side.of(tb), Side.of(tc)
        elif fa is not None and fb is not None:
            ta, tb = timing.compare(fa, fb, repeats, min_time, rest, case.settle)
            res.minarray, res.reference = Side.of(ta), Side.of(tb)
        elif fb is not None:
            res.reference = Side.of(timing.measure(fb, repeats, min_time, rest, case.settle))
        elif fa is not None:
            res.minarray = Side.of(timing.measure(fa, repeats, min_time, rest, case.settle))
    except Exception as e:
        res.status, res.note = ERROR, _short(e)
        res.minarray = res.reference = res.torch = None
    return res


# ---- formatting ----------------------------------------------------------------


def fmt_time(s: float | None) -> str:
    if s is None:
        return "-"
    for unit, scale in (("s", 1.0), ("ms", 1e-3), ("µs", 1e-6)):
        if s >= scale:
            return f"{s / scale:.3g} {unit}"
    return f"{s / 1e-9:.3g} ns"


def fmt_size(n: int, unit: str) -> str:
    """16000000 elements -> "16M", 100000000 bytes -> "100 MB"."""
    for tag, scale in (("G", 10**9), ("M", 10**6), ("k", 10**3)):
        if n >= scale:
            v = f"{n / scale:.3g}"
            return f"{v} {tag}B" if unit == "bytes" else f"{v}{tag}"
    return f"{n} B" if unit == "bytes" else str(n)


def fmt_ratio(r: float | None) -> str:
    return "-" if r is None else f"{r:.2f}x"


def _row(r: Result) -> list[str]:
    ma = fmt_time(r.minarray.median) if r.minarray else r.status
    ref = fmt_time(r.reference.median) if r.reference else ("-" if r.status != NO_REFERENCE else r.status)
    pt = fmt_time(r.torch.median) if r.torch else "-"
    sides = (r.minarray, r.reference, r.torch) if r.torch else (r.minarray, r.reference)
    spread = "/".join(f"{s.spread * 100:.0f}%" if s else "-" for s in sides)
    return [f"{r.group}: {r.name}", fmt_size(r.size, r.unit), ma, ref, fmt_ratio(r.ratio), pt,
            fmt_ratio(r.torch_ratio), spread, r.vs]


def _align(header: list[str], rows: list[list[str]], label_last: bool = True) -> list[str]:
    """Header, rule and rows; the first column left-aligned, the others right
    (the last too when it is a label)."""
    widths = [max([len(h)] + [len(row[i]) for row in rows]) for i, h in enumerate(header)]
    last = len(header) - 1 if label_last else 0

    def line(cells: list[str]) -> str:
        return "  ".join(c.ljust(w) if i in (0, last) else c.rjust(w)
                         for i, (c, w) in enumerate(zip(cells, widths, strict=True))).rstrip()

    return [line(header), "  ".join("-" * w for w in widths), *(line(row) for row in rows)]


HEADER = ["case", "size", "minarray", "reference", "ratio", "pytorch", "vs-pytorch", "spread", "vs"]


def table(results: list[Result], markdown: bool = False) -> str:
    """The results as an aligned text table, or a Markdown table."""
    rows = [_row(r) for r in results]
    if markdown:
        lines = ["| " + " | ".join(HEADER) + " |", "|" + "|".join(["---"] * len(HEADER)) + "|"]
        lines += ["| " + " | ".join(c.replace("|", "\\|") for c in row) + " |" for row in rows]
        return "\n".join(lines)
    out = _align(HEADER, rows)
    notes = [f"  {r.id}: {r.note}" for r in results if r.note and r.status == ERROR]
    if notes:
        out += ["", "errors:", *notes]
    return "\n".join(out)


BEGIN = "<!-- benchmarks:begin -->"
END = "<!-- benchmarks:end -->"


def markdown_section(meta: dict[str, Any], results: list[Result]) -> str:
    """The generated part of docs/performance.md: the run's conditions and
    one table per group."""
    load = meta.get("loadavg") or [None]
    opts = meta.get("options", {})

    def one(x: Any) -> str:
        return "?" if x is None else f"{x:.1f}"

    dates = meta.get("merged_dates") or [meta.get("date", "?")]
    when = (f"Run of {dates[0]}" if len(dates) == 1
            else f"{len(dates)} runs from {dates[0]} to {dates[-1]} (settings and load of the first)")
    lines = [
        f"{when}: {meta.get('cpu_model', '?')} ({meta.get('cpu_isa') or 'instruction sets unknown'}; "
        f"{code_paths(meta)}), "
        f"{meta.get('cpu_count')} CPUs, {meta.get('platform', '?')}, "
        f"Python {meta.get('python')}, NumPy {meta.get('numpy')}, PyTorch {meta.get('torch')}; "
        f"minarray threads: {meta.get('minarray_threads')}, PyTorch threads: {meta.get('torch_threads', '?')}; "
        f"{opts.get('repeats')} repeats; "
        f"1-minute load average {one(meta.get('loadavg_before'))} before, {one(load[0])} after; "
        f"scheduler {meta.get('scheduler')}.",
        "",
    ]
    groups: dict[str, list[Result]] = {}
    for r in results:
        groups.setdefault(r.group, []).append(r)
    for group, rows in groups.items():
        lines += [f"### {group}", "", table(rows, markdown=True), ""]
    return "\n".join(lines)


def code_paths(meta: dict[str, Any]) -> str:
    """Which kernels each library ran: on one CPU a run may be told to
    keep to AVX2 (``--isa avx2``), and older runs record minarray's only."""
    text = f"minarray's vector math: {meta.get('minarray_vector_isa', '?')}"
    if meta.get("numpy_dispatch") is not None:
        text += f"; NumPy's dispatch: {' '.join(meta['numpy_dispatch']) or 'baseline only'}"
    if meta.get("torch_isa"):
        text += f"; PyTorch's kernels: {meta['torch_isa']}"
    if meta.get("isa_limit"):
        text += f"; every library kept to {meta['isa_limit'].upper()} (--isa {meta['isa_limit']})"
    return text


def replace_between(path: Path, begin: str, end: str, text: str) -> None:
    """Replace what lies between the markers `begin` and `end` of `path`."""
    content = path.read_text()
    if begin not in content or end not in content:
        raise SystemExit(f"{path} has no {begin} ... {end} markers to fill")
    head, rest = content.split(begin, 1)
    _, tail = rest.split(end, 1)
    path.write_text(f"{head}{begin}\n{text}\n{end}{tail}")


def update_doc(path: Path, meta: dict[str, Any], results: list[Result]) -> None:
    """Replace the results section between the BEGIN and END markers of `path`."""
    replace_between(path, BEGIN, END, markdown_section(meta, results))


def legend() -> str:
    return ("ratio = minarray median / reference median (below 1: minarray is faster); "
            "pytorch = PyTorch's CPU median on the same inputs and thread count, vs-pytorch = minarray / that; "
            "spread = interquartile range / median, minarray/reference[/pytorch]; "
            "'missing' = minarray lacks the function, the reference is still timed.")


# ---- JSON ------------------------------------------------------------------------


# The instruction-set extensions that decide which kernels run (minarray's
# and its references'), as /proc/cpuinfo names them.
ISA_FLAGS = ("sse4_2", "avx", "avx2", "fma", "avx512f", "avx512dq", "avx512bw", "avx512vl", "avx512_vnni",
             "avx512_bf16", "avx512_fp16", "amx_tile", "asimd", "sve")


def cpu_description() -> tuple[str, str]:
    """(model name, the ISA_FLAGS it has, space-separated): a table is only
    meaningful with the CPU named (a figure on one CPU may not hold on
    another).  From /proc/cpuinfo where there is one."""
    model, flags = platform.processor() or platform.machine(), ""
    try:
        text = Path("/proc/cpuinfo").read_text()
    except OSError:
        return model, flags
    have: set[str] = set()
    for line in text.splitlines():
        key, _, value = line.partition(":")
        key = key.strip()
        if key in ("model name", "Model") and value.strip():
            model = value.strip()
        elif key in ("flags", "Features"):
            have |= set(value.split())
    return model, " ".join(f for f in ISA_FLAGS if f in have)


def cpu_topology() -> tuple[dict[str, str], int | None]:
    """Which core each CPU the process may run on belongs to ({"3":
    "0:1"}: CPU 3 is core 1 of package 0), and how many NUMA nodes the
    system has; empty and None where /sys does not say.  Two CPUs of one
    core are hyperthreads that share its vector units, so a pool whose
    threads land on them scales like one of half the size (the sweep's
    pool trace names the CPUs each thread ran on)."""
    cores: dict[str, str] = {}
    cpus = os.sched_getaffinity(0) if hasattr(os, "sched_getaffinity") else set(range(os.cpu_count() or 1))
    for cpu in sorted(cpus):
        top = Path(f"/sys/devices/system/cpu/cpu{cpu}/topology")
        try:
            cores[str(cpu)] = (f"{(top / 'physical_package_id').read_text().strip()}:"
                               f"{(top / 'core_id').read_text().strip()}")
        except OSError:
            return {}, None
    try:
        nodes = len([d for d in Path("/sys/devices/system/node").iterdir()
                     if d.name.startswith("node") and d.name[4:].isdigit()])
    except OSError:
        nodes = 0
    return cores, nodes or None


def topology_summary(meta: dict[str, Any]) -> str:
    """'16 CPUs on 8 cores of 1 package, 1 NUMA node', from cpu_topology's
    record in `meta`; empty when it was not recorded."""
    cores: dict[str, str] = meta.get("cpu_cores") or {}
    if not cores:
        return ""
    packages = {v.split(":")[0] for v in cores.values()}
    nodes = meta.get("numa_nodes")
    return (f"{len(cores)} CPUs on {len(set(cores.values()))} cores of {len(packages)} "
            f"package{'s' if len(packages) != 1 else ''}"
            + (f", {nodes} NUMA node{'s' if nodes != 1 else ''}" if nodes else ""))


def metadata(args: dict[str, Any]) -> dict[str, Any]:
    """What a reader needs to judge whether two runs are comparable."""
    model, isa = cpu_description()
    meta: dict[str, Any] = {
        "format": FORMAT_VERSION,
        "date": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
        "python": sys.version.split()[0],
        "platform": platform.platform(),
        "machine": platform.machine(),
        "cpu_model": model,
        "cpu_isa": isa,
        "cpu_count": os.cpu_count(),
        "options": args,
        # A shared machine's other work skews times, threaded ones most.
        "loadavg": list(os.getloadavg()) if hasattr(os, "getloadavg") else None,
    }
    meta["cpu_cores"], meta["numa_nodes"] = cpu_topology()
    # How this process was scheduled: on a busy shared machine a run may be
    # given real-time priority (chrt) to stand in for a dedicated one.
    if hasattr(os, "sched_getscheduler"):
        policy = os.sched_getscheduler(0)
        names = {getattr(os, n): n for n in ("SCHED_OTHER", "SCHED_FIFO", "SCHED_RR", "SCHED_BATCH", "SCHED_IDLE")
                 if hasattr(os, n)}
        meta["scheduler"] = names.get(policy, str(policy))
        meta["nice"] = os.nice(0)
    # Installed versions, read without importing (a run may not need torch).
    from importlib import metadata as md

    for mod, dist in (("numpy", "numpy"), ("torch", "torch"), ("dlpack", "pydlpack")):
        try:
            meta[mod] = md.version(dist)
        except md.PackageNotFoundError:
            meta[mod] = None
    meta["isa_limit"] = os.environ.get("MINARRAY_BENCH_ISA")
    if "numpy" in sys.modules:  # the SIMD targets NumPy dispatches to on this CPU, as set up
        from numpy._core._multiarray_umath import __cpu_dispatch__, __cpu_features__

        meta["numpy_dispatch"] = [t for t in __cpu_dispatch__ if __cpu_features__.get(t)]
    try:
        import minarray

        meta["minarray"] = minarray.__version__
        get = getattr(minarray, "get_num_threads", None)
        meta["minarray_threads"] = get() if get else None
        # the exp/sin/log kernels pick AVX-512 or AVX2 at run time
        # (MINARRAY_NO_AVX512=1 forces AVX2); the others are AVX2 clones
        forced = os.environ.get("MINARRAY_NO_AVX512", "") not in ("", "0")
        meta["minarray_vector_isa"] = ("scalar" if "avx2" not in isa else
                                       "AVX2" if forced or "avx512f" not in isa else "AVX-512")
        if "torch" in sys.modules:
            torch = sys.modules["torch"]
            meta["torch_threads"] = torch.get_num_threads()
            meta["torch_isa"] = torch.backends.cpu.get_cpu_capability()
    except ImportError:  # pragma: no cover - the harness needs minarray
        meta["minarray"] = None
    return meta


def save(path: Path, meta: dict[str, Any], results: list[Result]) -> None:
    doc = {"meta": meta, "results": [r.to_dict() for r in results]}
    path.write_text(json.dumps(doc, indent=1) + "\n")


def load(path: Path) -> tuple[dict[str, Any], list[Result]]:
    doc = json.loads(path.read_text())
    if not isinstance(doc, dict) or "results" not in doc:
        raise ValueError(f"{path} is not a benchmark results file (no 'results' key)")
    return doc.get("meta", {}), [Result.from_dict(d) for d in doc["results"]]


# ---- comparing two runs ----------------------------------------------------------


def compare(old: list[Result], new: list[Result], out: TextIO) -> None:
    """Print, per case of `new`, both runs' ratios and how minarray's own time
    moved (new / old).  Ratios travel between machines better than times."""
    before = {r.id: r for r in old}
    header = ["case", "size", "old ratio", "new ratio", "minarray new/old", "reference new/old"]
    rows: list[list[str]] = []
    for r in new:
        o = before.get(r.id)
        if o is None:
            rows.append([f"{r.group}: {r.name}", fmt_size(r.size, r.unit), "(new)", fmt_ratio(r.ratio), "-", "-"])
            continue

        def rel(a: Side | None, b: Side | None) -> str:
            return f"{a.median / b.median:.2f}x" if a and b and b.median > 0 else "-"

        rows.append([f"{r.group}: {r.name}", fmt_size(r.size, r.unit),
                     fmt_ratio(o.ratio) if o.ratio is not None else o.status,
                     fmt_ratio(r.ratio) if r.ratio is not None else r.status,
                     rel(r.minarray, o.minarray), rel(r.reference, o.reference)])
    gone = [o for o in old if o.id not in {r.id for r in new}]
    print("\n".join(_align(header, rows, label_last=False)), file=out)
    if gone:
        print(f"\n{len(gone)} case(s) of the old run are not in the new one", file=out)
