"""The thread sweep: the large cases at several thread counts, in one process.

``python -m benchmarks --threads 1,2,4,8,16`` times each selected case at
every count, minarray and PyTorch on as many threads, NumPy on one thread
for its own kernels (it has no others) and on as many for its BLAS, so the
matrix products compare like with like.  Each case's inputs are built once
and serve every count; at each count the three sides run in interleaved
blocks (timing.compare_many), as in the main suite.

The result is a table (case by thread count) and a plot (time against
threads, one line per library, one panel per case), written into the
"Scaling with threads" section of docs/performance.md between its
scaling markers, the CPU named.  Sized to finish in a few minutes on a
16-core machine: a machine that size is lent only now and then, and the
run must fit in what it is lent for.
"""

from __future__ import annotations

import ctypes
import gc
import json
import os
import re
import sys
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from benchmarks import report, timing
from benchmarks.cases import Case, Missing, Unavailable, all_cases, ma_get, ref_module
from benchmarks.plot import save_figure

# The cases the sweep runs when no --filter is given: those that scaled
# worst against PyTorch on 16 cores, the large elementwise and reduction
# cases beside them (and exp of 10^6 doubles with out=: a job of a few
# hundred microseconds, where starting the pool's workers shows), and the
# matrix products (OpenBLAS on every side).
SWEEP_FILTER = (
    r"elementwise (add float32 contiguous out=|add float64 contiguous|exp float32 contiguous( out=)?"
    r"|exp float64 contiguous|sin float64 contiguous( out=)?) 16000000"
    r"|elementwise exp float64 contiguous out= 1000000"
    r"|elementwise add float32 transposed A\.T with B \(4000,4000\)"
    r"|reduction (sum|max) float64 all 16000000"
    r"|reduction sum float32 \(4000,4000\) axis=[01]"
    r"|reduction sum float64 \(2000,500\) axis=0"
    r"|linalg matmul float(32|64) \(2048,2048\)"
)

# Blocks per side at each count (the main suite takes 9): the sweep runs
# every case five times over and must fit in a few minutes.
REPEATS = 7

BEGIN = "<!-- scaling:begin -->"
END = "<!-- scaling:end -->"
SIDES = ("minarray", "pytorch", "numpy")


@dataclass
class Point:
    """One case at one thread count: each side's median seconds per call
    (None where a side did not run) and its spread."""

    threads: int
    minarray: float | None = None
    pytorch: float | None = None
    numpy: float | None = None
    spread: dict[str, float] = field(default_factory=dict)
    note: str = ""
    # minarray's pool during one more call, per thread that took part (the
    # calling thread first): [chunks, first chunk started, busy, last chunk
    # ended] in microseconds from the job's start, then the CPUs its first
    # chunk started and its last ended on (-1: unknown) and how often it
    # was preempted while running chunks; empty when the call ran no job on
    # the pool (one thread, or too small to split)
    pool: list[list[float]] = field(default_factory=list)


@dataclass
class Sweep:
    """One case at every thread count."""

    group: str
    name: str
    size: int
    unit: str
    points: list[Point] = field(default_factory=list)

    @property
    def label(self) -> str:
        return f"{self.group} {self.name} {self.size}"


def parse_counts(text: str) -> list[int]:
    """'1,2,4' -> [1, 2, 4]: positive, without repeats, in the order given."""
    counts: list[int] = []
    for part in text.split(","):
        part = part.strip()
        if not part.isdigit() or int(part) < 1:
            raise ValueError(f"--threads: {part!r} is not a positive thread count")
        if int(part) not in counts:
            counts.append(int(part))
    if not counts:
        raise ValueError("--threads: no thread count given")
    return counts


# ---- NumPy's BLAS ------------------------------------------------------------------


@dataclass
class BlasCount:
    """The thread-count calls of one OpenBLAS library."""

    path: str
    set: Callable[[int], None]
    get: Callable[[], int]


def numpy_blas() -> list[BlasCount]:
    """The OpenBLAS copies NumPy loaded (NumPy bundles its own, apart from
    minarray's), found among the mapped libraries: NumPy offers no call for
    their thread count, and threadpoolctl may be absent."""
    import numpy as np

    root = str(Path(np.__file__).resolve().parent.parent)
    paths: set[str] = set()
    try:
        for line in Path("/proc/self/maps").read_text().splitlines():
            parts = line.split(maxsplit=5)
            path = parts[5] if len(parts) == 6 else ""
            if "openblas" in Path(path).name.lower() and path.startswith(root + "/numpy"):
                paths.add(path)
    except OSError:
        return []
    found: list[BlasCount] = []
    # the names of the scipy-openblas builds NumPy 2 ships, then plain OpenBLAS
    names = (("scipy_openblas_set_num_threads64_", "scipy_openblas_get_num_threads64_"),
             ("openblas_set_num_threads64_", "openblas_get_num_threads64_"),
             ("openblas_set_num_threads", "openblas_get_num_threads"))
    for path in sorted(paths):
        try:
            lib = ctypes.CDLL(path)
        except OSError:
            continue
        for set_name, get_name in names:
            setter, getter = getattr(lib, set_name, None), getattr(lib, get_name, None)
            if setter is not None and getter is not None:
                setter.argtypes, setter.restype = [ctypes.c_int], None
                getter.argtypes, getter.restype = [], ctypes.c_int
                found.append(BlasCount(path, setter, getter))
                break
    return found


def set_threads(n: int, blas: list[BlasCount]) -> None:
    """minarray (its OpenBLAS too), PyTorch and NumPy's BLAS on `n` threads.
    minarray's last: it also waits for BLAS calls in flight (none here)."""
    for b in blas:
        b.set(n)
    ma_get("set_num_threads")(n)
    try:
        torch = ref_module("torch")
    except Unavailable:
        return
    if torch.get_num_threads() != n:
        torch.set_num_threads(n)


# ---- the pool's trace -------------------------------------------------------------


def pool_trace(call: timing.Call) -> list[list[float]]:
    """One more call with the pool's trace on (csrc/core/threads.h): per
    thread of the call's last job, [chunks, first start, busy, last end] in
    microseconds, then [first CPU, last CPU, preemptions].  Where a threaded
    call loses its time -- a split into too few chunks, threads that join
    late, threads that run slower than one thread alone, threads sharing a
    core or preempted by other work -- shows in these, not in the call's
    time."""
    try:
        from minarray._native import ffi, lib
    except ImportError:
        return []
    if not hasattr(lib, "ma_pool_set_trace"):
        return []
    before = lib.ma_pool_jobs()
    lib.ma_pool_set_trace(1)
    try:
        call()
    finally:
        lib.ma_pool_set_trace(0)
    if lib.ma_pool_jobs() == before:
        return []
    k = lib.MA_TRACE_FIELDS
    buf = ffi.new("int64_t[]", k * 256)
    n = lib.ma_pool_last_trace(buf, 256)
    return [[float(buf[k * i]), buf[k * i + 1] / 1e3, buf[k * i + 2] / 1e3, buf[k * i + 3] / 1e3,
             float(buf[k * i + 4]), float(buf[k * i + 5]), float(buf[k * i + 6])] for i in range(n)]


def pool_summary(pool: list[list[float]], cores: dict[str, str] | None = None) -> str:
    """'4 thr., chunks 4/4/4/4, last joined at 12 µs, busy 3.10-3.30 ms of
    3.40 ms, idle 4%, CPUs 0,1,8,9 (2 cores), preempted 0 times'; `cores`
    maps a CPU to its core (report.cpu_topology), so that threads sharing
    a core show.  Traces of older runs carry no CPUs and print without."""
    if not pool:
        return ""
    chunks = "/".join(str(int(t[0])) for t in pool)
    joined = max(t[1] for t in pool if t[0] > 0)
    busy = [t[2] for t in pool]
    wall = max(t[3] for t in pool)
    idle = 1 - sum(busy) / (len(pool) * wall) if wall > 0 else 0.0
    text = (f"{len(pool)} thr., chunks {chunks}, last joined at {joined:.0f} µs, "
            f"busy {min(busy) / 1e3:.2f}-{max(busy) / 1e3:.2f} ms of {wall / 1e3:.2f} ms, idle {idle:.0%}")
    if all(len(t) >= 7 for t in pool):
        cpus = [int(c) for t in pool for c in (t[4], t[5]) if c >= 0]
        if cpus:
            text += f", CPUs {','.join(str(int(t[4])) for t in pool)}"
            moved = sum(1 for t in pool if t[5] != t[4])
            if moved:
                text += f" (ended on {','.join(str(int(t[5])) for t in pool)})"
            if cores:
                used = {cores.get(str(c), str(c)) for c in cpus}
                text += f" on {len(used)} core{'s' if len(used) != 1 else ''}"
        text += f", preempted {int(sum(t[6] for t in pool))} times"
    return text


# ---- running -----------------------------------------------------------------------


def _sides(case: Case, inputs: dict[str, Any]) -> tuple[list[tuple[str, timing.Call]], str]:
    """The callables of the sides that can run, and a note on those that cannot."""
    sides: list[tuple[str, timing.Call]] = []
    notes: list[str] = []
    makers: list[tuple[str, Callable[[dict[str, Any]], timing.Call] | None]] = [
        ("minarray", case.minarray), ("pytorch", case.torch), ("numpy", case.reference)]
    for name, make in makers:
        if make is None:
            continue
        try:
            sides.append((name, make(inputs)))
        except (Missing, Unavailable) as e:
            notes.append(f"{name}: {e}")
        except Exception as e:  # a defect to report, not to hide
            notes.append(f"{name} setup: {report._short(e)}")
    return sides, "; ".join(notes)


def run(cases: list[Case], counts: list[int], repeats: int, min_time: float, rest: float = 0.0,
        progress: Callable[[str], None] | None = None) -> list[Sweep]:
    """Each case at each count: inputs built once per case, the callables
    made again at each count (PyTorch reads its count when a call starts,
    minarray too, but a factory may size something by it)."""
    blas = numpy_blas()
    sweeps: list[Sweep] = []
    for i, case in enumerate(cases, 1):
        sweep = Sweep(case.group, case.name, case.size, case.unit)
        inputs = case.setup()
        for n in counts:
            if progress:
                progress(f"[{i}/{len(cases)}] {case.label} @ {n} threads")
            set_threads(n, blas)
            point = Point(n)
            sides, point.note = _sides(case, inputs)
            try:
                if sides:
                    times = timing.compare_many([fn for _, fn in sides], repeats, min_time, rest, case.settle)
                    for (name, _), t in zip(sides, times, strict=True):
                        setattr(point, name, t.median)
                        point.spread[name] = t.spread
                if sides and sides[0][0] == "minarray" and n > 1:
                    point.pool = pool_trace(sides[0][1])
            except Exception as e:
                point.note = report._short(e)
            del sides
            sweep.points.append(point)
        del inputs
        gc.collect()  # drop the case's inputs before the next one allocates
        sweeps.append(sweep)
    return sweeps


# ---- reporting ---------------------------------------------------------------------


def _ratio(a: float | None, b: float | None) -> str:
    return "-" if a is None or b is None or b <= 0 else f"{a / b:.2f}"


def table(sweeps: list[Sweep], counts: list[int]) -> str:
    """Markdown: one row per case, per thread count minarray's time over
    PyTorch's (and over NumPy's, after the slash)."""
    head = ["case", "size", *(f"{n} thr." for n in counts)]
    lines = ["| " + " | ".join(head) + " |", "|" + "|".join(["---"] * len(head)) + "|"]
    for s in sweeps:
        by_n = {p.threads: p for p in s.points}
        cells = []
        for n in counts:
            p = by_n.get(n)
            if p is None or p.minarray is None:
                cells.append("-")
            else:
                cells.append(f"{_ratio(p.minarray, p.pytorch)} / {_ratio(p.minarray, p.numpy)} "
                             f"({report.fmt_time(p.minarray)})")
        name = f"{s.group}: {s.name}".replace("|", "\\|")
        lines.append("| " + " | ".join([name, report.fmt_size(s.size, s.unit), *cells]) + " |")
    return "\n".join(lines)


def notes(sweeps: list[Sweep]) -> list[str]:
    out = []
    for s in sweeps:
        for p in s.points:
            if p.note:
                out.append(f"{s.label} @ {p.threads}: {p.note}")
    return out


def plot(sweeps: list[Sweep], counts: list[int], path: Path, cpu: str) -> None:
    """Time per call against threads, log-log, one panel per case and one
    line per library."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise SystemExit("the scaling plot needs matplotlib (pip install 'minarray[bench]')") from None
    cols = 4
    rows = max(1, (len(sweeps) + cols - 1) // cols)
    fig, axes = plt.subplots(rows, cols, figsize=(3.1 * cols, 2.5 * rows), constrained_layout=True, squeeze=False)
    styles = {"minarray": ("-o", "C0"), "pytorch": ("--s", "C1"), "numpy": (":x", "C2")}
    for ax, s in zip(axes.flat, sweeps, strict=False):
        for side in SIDES:
            pts = [(p.threads, getattr(p, side)) for p in s.points if getattr(p, side) is not None]
            if pts:
                xs, ys = zip(*pts, strict=True)
                style, color = styles[side]
                ax.plot(xs, [y * 1e3 for y in ys], style, color=color, markersize=3, label=side)
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        ax.set_xticks(counts)
        ax.set_xticklabels([str(n) for n in counts])
        ax.set_title(f"{s.name} {report.fmt_size(s.size, s.unit)}", fontsize=8)
        ax.tick_params(labelsize=7)
        ax.set_xlabel("threads", fontsize=7)
        ax.set_ylabel("ms per call", fontsize=7)
        ax.grid(True, which="major", alpha=0.3)
    for ax in list(axes.flat)[len(sweeps):]:
        ax.axis("off")
    if sweeps:
        axes[0][0].legend(fontsize=7)
    fig.suptitle(f"Time against threads: minarray, PyTorch, NumPy ({cpu})", fontsize=9)
    save_figure(fig, path)


def section(meta: dict[str, Any], sweeps: list[Sweep], counts: list[int], figure: str | None,
            seconds: float) -> str:
    """What goes between the scaling markers."""
    opts = meta.get("options", {})
    lines = [
        f"Run of {meta.get('date', '?')}: {meta.get('cpu_model', '?')} "
        f"({meta.get('cpu_isa') or 'instruction sets unknown'}; {report.code_paths(meta)}), "
        f"{report.topology_summary(meta) or str(meta.get('cpu_count')) + ' CPUs'}, "
        f"Python {meta.get('python')}, NumPy {meta.get('numpy')}, "
        f"PyTorch {meta.get('torch')}; threads {', '.join(map(str, counts))}; "
        f"{opts.get('repeats')} repeats{' (--quick: a smoke run, not a measurement)' if opts.get('quick') else ''}; "
        f"1-minute load average {meta.get('loadavg_before', 0) or 0:.1f} before, "
        f"{(meta.get('loadavg') or [0])[0]:.1f} after; {seconds:.0f} s in all.",
        "",
        "Each cell: minarray's time over PyTorch's / over NumPy's (below 1: minarray is faster), "
        "then minarray's median time per call. PyTorch runs on as many threads as minarray, "
        "NumPy on one for its own kernels and "
        + ("on as many for its BLAS." if meta.get("numpy_blas_set", True) else
           "on its default count for its BLAS (its OpenBLAS was not found to set)."),
        "",
        table(sweeps, counts),
        "",
    ]
    bad = notes(sweeps)
    if bad:
        lines += ["Not measured:", "", *(f"- {b}" for b in bad), ""]
    if figure:
        lines += [f"```{{figure}} {figure}", ":alt: Time per call against the thread count, one panel per case, "
                  "minarray, PyTorch and NumPy.", ":width: 100%", "```", ""]
    return "\n".join(lines)


def update_doc(doc: Path, text: str) -> None:
    """Replace what lies between the scaling markers of `doc`."""
    report.replace_between(doc, BEGIN, END, text)


def save(path: Path, meta: dict[str, Any], sweeps: list[Sweep]) -> None:
    doc = {"meta": meta, "sweeps": [asdict(sw) for sw in sweeps]}
    path.write_text(json.dumps(doc, indent=1) + "\n")


def load(path: Path) -> tuple[dict[str, Any], list[Sweep]] | None:
    """A saved sweep, or None when `path` holds another kind of results."""
    doc = json.loads(path.read_text())
    if not isinstance(doc, dict) or "sweeps" not in doc:
        return None
    sweeps = [Sweep(d["group"], d["name"], d["size"], d["unit"], [Point(**pt) for pt in d["points"]])
              for d in doc["sweeps"]]
    return doc.get("meta", {}), sweeps


def _busy(meta: dict[str, Any]) -> str:
    loads = [x for x in (meta.get("loadavg_before"), (meta.get("loadavg") or [None])[0]) if x is not None]
    cpus = meta.get("cpu_count") or 1
    if loads and max(loads) > 0.5 * cpus:
        return (f"warning: the machine was busy (1-minute load average up to {max(loads):.1f} on {cpus} CPUs): "
                "threaded times are inflated; rerun on a quiet machine")
    return ""


def render(args: Any, meta: dict[str, Any], sweeps: list[Sweep]) -> None:
    """Print the table; save, plot and fill the page as the options ask."""
    counts = list(meta.get("options", {}).get("threads") or sorted({p.threads for s in sweeps for p in s.points}))
    seconds = float(meta.get("seconds") or 0.0)
    print(table(sweeps, counts))
    for b in notes(sweeps):
        print("not measured:", b)
    print("\nminarray's pool in one traced call (threads, chunks each, when the last joined, busy range, idle share):")
    for sw in sweeps:
        for pt in sw.points:
            if pt.pool:
                print(f"  {sw.label} @ {pt.threads}: {pool_summary(pt.pool, meta.get('cpu_cores'))}")
    print(f"\nCPU: {meta.get('cpu_model', '?')} ({meta.get('cpu_isa') or '?'}); "
          f"{report.topology_summary(meta) or str(meta.get('cpu_count')) + ' CPUs'}; "
          f"{report.code_paths(meta)}; {seconds:.0f} s")
    if _busy(meta):
        print(_busy(meta))
    if args.json and not args.load:
        save(args.json, meta, sweeps)
    figure_path: Path | None = args.plot
    if args.update_doc and figure_path is None:
        figure_path = args.update_doc.parent / "_static" / "scaling-threads.png"
    figure_ref: str | None = None
    if figure_path is not None:
        figure_path.parent.mkdir(parents=True, exist_ok=True)
        plot(sweeps, counts, figure_path, meta.get("cpu_model", "?"))
        if args.update_doc:
            try:
                figure_ref = "/" + figure_path.resolve().relative_to(args.update_doc.resolve().parent).as_posix()
            except ValueError:
                figure_ref = None  # outside the documentation: not linked
    if args.update_doc:
        update_doc(args.update_doc, section(meta, sweeps, counts, figure_ref, seconds))


def main(args: Any, cases: list[Case] | None, counts: list[int]) -> int:
    """The sweep half of ``python -m benchmarks`` (see __main__): run, then render."""
    if cases is None:
        cases = [c for c in all_cases() if re.search(SWEEP_FILTER, c.label)]
    if not cases:
        raise SystemExit("no case matches the filter")
    repeats = args.repeats or (3 if args.quick else REPEATS)
    min_time = args.min_time if args.min_time is not None else (0.002 if args.quick else 0.02)
    load_before = os.getloadavg()[0] if hasattr(os, "getloadavg") else None
    tty = sys.stderr.isatty()

    def progress(msg: str) -> None:
        if tty:
            print(f"\r{msg}\033[K", end="", file=sys.stderr, flush=True)

    start = time.perf_counter()
    sweeps = run(cases, counts, repeats, min_time, args.rest, progress)
    if tty:
        print("\r\033[K", end="", file=sys.stderr, flush=True)
    meta = report.metadata({"filter": args.filter, "quick": args.quick, "repeats": repeats, "min_time": min_time,
                            "threads": counts, "rest": args.rest})
    meta["loadavg_before"] = load_before
    meta["seconds"] = time.perf_counter() - start
    meta["numpy_blas_set"] = bool(numpy_blas())
    render(args, meta, sweeps)
    return 0
