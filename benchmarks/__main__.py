"""python -m benchmarks: time minarray against its references, print a table.

Examples:
  python -m benchmarks                          # every case (a few minutes)
  python -m benchmarks --quick --filter 'add float64 contiguous'
  python -m benchmarks --json new.json --compare old.json
  python -m benchmarks --compare old.json new.json   # no run: compare two files
  python -m benchmarks --load new.json --plot perf.png
  python -m benchmarks --threads 1,2,4,8,16 --update-doc docs/performance.md   # the thread sweep
"""

from __future__ import annotations

import argparse
import gc
import os
import re
import sys
from pathlib import Path

from benchmarks import report
from benchmarks.cases import Case, all_cases


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m benchmarks",
        description="Time minarray and its reference (NumPy, PyTorch, pydlpack) side by side, interleaved, "
        "in one process.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=report.legend(),
    )
    p.add_argument("--filter", metavar="REGEX", help="only cases whose 'group name size' matches (re.search)")
    p.add_argument("--max-size", type=int, metavar="N", help="only cases of at most N elements (bytes)")
    p.add_argument("--quick", action="store_true", help="3 repeats of short blocks: a smoke run, not a measurement")
    p.add_argument("--repeats", type=int, metavar="N", help="blocks per side (default 9, --quick 3)")
    p.add_argument("--min-time", type=float, metavar="S",
                   help="seconds one block of calls lasts at least (default 0.02, --quick 0.002)")
    p.add_argument("--threads", metavar="N[,N...]",
                   help="call minarray.set_num_threads(N) first (PyTorch gets as many threads as minarray); "
                   "several counts (1,2,4,8,16) run the thread sweep instead: the large cases (or those --filter "
                   "selects) at each count, in this process, a table of minarray / PyTorch / NumPy; with "
                   "--update-doc it fills the scaling markers of the page and draws the plot next to it")
    p.add_argument("--rest", type=float, default=0.0, metavar="F",
                   help="sleep F times each block's length after it (keeps a real-time-priority run, "
                   "e.g. under chrt, below the kernel's real-time budget)")
    p.add_argument("--json", type=Path, metavar="PATH", help="save the results as JSON")
    p.add_argument("--load", type=Path, nargs="+", metavar="PATH",
                   help="read results from JSON files (concatenated, the first one's metadata) instead of running")
    p.add_argument("--compare", type=Path, nargs="+", metavar="JSON",
                   help="OLD: compare this run with OLD; OLD NEW: compare two files without running")
    p.add_argument("--plot", type=Path, metavar="PATH", help="draw time per element against size (needs matplotlib)")
    p.add_argument("--markdown", action="store_true", help="print the table as Markdown")
    p.add_argument("--update-doc", type=Path, metavar="MD",
                   help="write the tables between the benchmark markers of this page (docs/performance.md)")
    p.add_argument("--list", action="store_true", help="list the selected cases and exit")
    p.add_argument("--isa", choices=("native", "avx2"), default="native",
                   help="avx2: minarray, NumPy, PyTorch and OpenBLAS all run the kernels they pick on a CPU "
                   "without AVX-512 (the code paths of an AVX2-only machine, on this one)")
    return p


# How each library is told to run its AVX2 kernels on a CPU that has
# AVX-512: what an AVX2-only machine runs, short of the machine itself.
AVX2_ENVIRONMENT = {
    "MINARRAY_NO_AVX512": "1",  # minarray's vector math (its other kernels are AVX2 already)
    "ATEN_CPU_CAPABILITY": "avx2",  # PyTorch's CPU kernels
    "OPENBLAS_CORETYPE": "Haswell",  # OpenBLAS (matrix products, both sides)
}


def _rerun_with_avx2_only() -> None:
    """Start this run again in a process whose libraries stick to AVX2:
    NumPy and PyTorch read their settings when they load, hence the new
    process.  NumPy's AVX-512 dispatch targets are named by the NumPy
    installed (X86_V4, AVX512_ICL... in NumPy 2.4; AVX512F... before)."""
    from numpy._core._multiarray_umath import __cpu_dispatch__

    env = dict(os.environ, **AVX2_ENVIRONMENT, MINARRAY_BENCH_ISA="avx2")
    env["NPY_DISABLE_CPU_FEATURES"] = " ".join(t for t in __cpu_dispatch__ if "512" in t or t == "X86_V4")
    os.execve(sys.executable, [sys.executable, "-m", "benchmarks", *sys.argv[1:]], env)


def select(cases: list[Case], pattern: str | None, max_size: int | None) -> list[Case]:
    rx = re.compile(pattern) if pattern else None
    return [c for c in cases if (rx is None or rx.search(c.label)) and (max_size is None or c.size <= max_size)]


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    if args.isa == "avx2" and os.environ.get("MINARRAY_BENCH_ISA") != "avx2" and not args.load:
        _rerun_with_avx2_only()
    if args.compare and len(args.compare) > 2:
        raise SystemExit("--compare takes OLD.json or OLD.json NEW.json")
    if args.compare and len(args.compare) == 2:
        _, old = report.load(args.compare[0])
        _, new = report.load(args.compare[1])
        report.compare(old, new, sys.stdout)
        return 0

    counts = None
    if args.threads is not None:
        from benchmarks import scaling

        try:
            counts = scaling.parse_counts(args.threads)
        except ValueError as e:
            raise SystemExit(str(e)) from None
    if counts is not None and len(counts) > 1:
        if args.load or args.compare:
            raise SystemExit("--threads with several counts runs the sweep: no --load or --compare")
        return scaling.main(args, select(all_cases(), args.filter, args.max_size)
                            if args.filter or args.max_size else None, counts)
    if args.load and len(args.load) == 1:
        from benchmarks import scaling

        saved = scaling.load(args.load[0])
        if saved is not None:  # a thread sweep's results
            scaling.render(args, *saved)
            return 0
    if args.load:
        meta, results = report.load(args.load[0])
        dates = [meta.get("date", "?")]
        for more in args.load[1:]:
            more_meta, more_results = report.load(more)
            results += more_results
            dates.append(more_meta.get("date", "?"))
        if len(args.load) > 1:
            meta["merged_dates"] = sorted(set(dates))
    else:
        cases = select(all_cases(), args.filter, args.max_size)
        if args.list:
            for c in cases:
                print(c.label)
            return 0
        if not cases:
            raise SystemExit("no case matches the filter")
        repeats = args.repeats or (3 if args.quick else 9)
        min_time = args.min_time if args.min_time is not None else (0.002 if args.quick else 0.02)
        if counts is not None:
            import minarray

            setter = getattr(minarray, "set_num_threads", None)
            if setter is None:
                raise SystemExit("--threads: this minarray has no set_num_threads")
            setter(counts[0])
        options = {"filter": args.filter, "max_size": args.max_size, "quick": args.quick,
                   "repeats": repeats, "min_time": min_time, "threads": counts[0] if counts else None,
                   "rest": args.rest}
        load_before = os.getloadavg()[0] if hasattr(os, "getloadavg") else None
        results = []
        tty = sys.stderr.isatty()
        for i, case in enumerate(cases, 1):
            if tty:
                print(f"\r[{i}/{len(cases)}] {case.label}\033[K", end="", file=sys.stderr, flush=True)
            results.append(report.run_case(case, repeats, min_time, args.rest))
            gc.collect()  # drop the case's inputs before the next one allocates
        if tty:
            print("\r\033[K", end="", file=sys.stderr, flush=True)
        meta = report.metadata(options)
        meta["loadavg_before"] = load_before

    print(report.table(results, markdown=args.markdown))
    print()
    print(report.legend())
    threads = meta.get("minarray_threads")
    print(f"minarray threads: {threads}; pytorch threads: {meta.get('torch_threads', '-')}; "
          f"numpy {meta.get('numpy')}; python {meta.get('python')}; {meta.get('cpu_count')} CPUs")
    print(f"CPU: {meta.get('cpu_model', '?')} ({meta.get('cpu_isa') or '?'}); {report.code_paths(meta)}")
    busy = [x for x in (meta.get("loadavg_before"), (meta.get("loadavg") or [None])[0]) if x is not None]
    cpus = meta.get("cpu_count") or 1
    if busy and max(busy) > 0.5 * cpus:
        print(f"warning: the machine was busy (1-minute load average up to {max(busy):.1f} on {cpus} CPUs): "
              "times are inflated and threaded ones most; rerun on a quiet machine")
    if args.json and not args.load:
        report.save(args.json, meta, results)
    if args.compare:
        _, old = report.load(args.compare[0])
        print()
        report.compare(old, results, sys.stdout)
    if args.plot:
        from benchmarks.plot import plot

        plot(results, args.plot)
    if args.update_doc:
        report.update_doc(args.update_doc, meta, results)
    return 0


if __name__ == "__main__":
    sys.exit(main())
