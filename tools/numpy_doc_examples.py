"""Run NumPy's own docstring examples with ``np`` bound to minarray.

For every name minarray exports that NumPy also has (the top level,
``linalg``, ``fft``, ``random`` and ``testing``), the ``Examples`` section
of NumPy's docstring is parsed with ``doctest`` and run twice, each time
in a fresh namespace: first with ``np`` bound to NumPy, recording what
every statement prints or raises, then with ``np`` bound to minarray
(``import numpy as np`` and ``from numpy... import`` lines inside the
examples import minarray too), checking it prints the same.  What NumPy
prints, not the docstring's text, is the oracle: NumPy's doctest tool
compares numbers with a tolerance, so its docstrings may be off by a digit
or a scalar's repr (the summary says how often).

The unit is the *example*: a docstring's whole ``Examples`` block, run in
one namespace statement by statement.  An example **runs** when none of
its statements raises where NumPy raised nothing, and **matches** when
besides every statement prints what NumPy printed (or raises NumPy's
exception with NumPy's message), under doctest's output checker with
NumPy's own options (``NORMALIZE_WHITESPACE | ELLIPSIS``, as NumPy's
conftest sets them; objects' addresses are not compared).  Statements that
NumPy marks as random (``# random``, ``# may vary``...) and plotting calls
must run, but their output is not compared, as NumPy's doctest tool does.
Examples that NumPy itself cannot run here (an optional package missing)
are left out and listed.  Statement counts are reported beside.

An example that stops on minarray's refusal of what it does not hold (a
TypeError that names a structured, string, bytes, object, date or
extended-precision dtype, or a byte order, and points to NumPy) stops
where minarray says it stops: the table counts those apart, and gives the
share that runs of the examples within minarray's scope.

Each module's examples run in a child process with a time limit per
example; a child that hangs or crashes is killed, the example it was on is
recorded as such, and a new child carries on with the rest::

    python tools/numpy_doc_examples.py                 # everything
    python tools/numpy_doc_examples.py --json out.json --markdown out.md
    python tools/numpy_doc_examples.py --names numpy.sum numpy.linalg.norm
"""

from __future__ import annotations

import argparse
import collections
import contextlib
import doctest
import importlib
import inspect
import json
import os
import queue
import re
import signal
import subprocess
import sys
import tempfile
import threading
import time
import traceback
import types
import warnings
from collections.abc import Iterator
from typing import IO, Any

# the minarray of the checkout this script is in, not another one installed
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

MODULES = ("", "linalg", "fft", "random", "testing")
OPTIONFLAGS = doctest.NORMALIZE_WHITESPACE | doctest.ELLIPSIS
# NumPy's doctest tool (scipy_doctest) runs these statements without
# comparing what they print; NumPy's conftest adds the last two.
RANDOM_MARKERS = ("# random", "# Random", "#random", "#Random", "# may vary", "#uninitialized",
                  "# uninitialized")
# ... and does not compare what plotting calls print (matplotlib's objects)
STOPWORDS = ("plt.", ".hist", ".show", ".ylim", ".subplot(", "set_title", "imshow", ".axis(", ".plot(", ".bar(",
             ".title", ".ylabel", ".xlabel", "set_ylim", "set_xlim", ".set_xlabel(", ".set_ylabel(", ".xlim(")
_ANY_OUTPUT = "<any output: marked random>\n"
_ADDRESS = re.compile(r"\b0x[0-9a-fA-F]{6,}\b")
_HEADING = re.compile(r"^[ \t]*([A-Z][A-Za-z ]*)\n[ \t]*-{3,}[ \t]*$", re.MULTILINE)
_NUMPY_IMPORT = re.compile(r"^(\s*(?:import|from)\s+)numpy\b", re.MULTILINE)

Job = dict[str, Any]  # {"name": "numpy.linalg.norm", "module": "linalg", "doc": "..."}
Result = dict[str, Any]


# ---- the examples ---------------------------------------------------------

def examples_section(doc: str) -> str:
    """The text of a NumPy docstring's ``Examples`` section ('' if none)."""
    doc = inspect.cleandoc(doc)
    for m in _HEADING.finditer(doc):
        if m.group(1).strip() == "Examples":
            rest = doc[m.end():]
            nxt = _HEADING.search(rest)
            return rest[: nxt.start()] if nxt else rest
    return ""


def parse(section: str) -> list[doctest.Example]:
    """The statements of an Examples section."""
    return doctest.DocTestParser().get_examples(section)


def is_random(ex: doctest.Example) -> bool:
    """A statement whose output NumPy's doctest tool does not compare: a
    random marker on the statement or its shown output, or a plot."""
    return any(marker in ex.source or marker in ex.want for marker in RANDOM_MARKERS) or any(
        word in ex.source for word in STOPWORDS)


def to_minarray(source: str) -> str:
    """``import numpy as np``, ``from numpy.linalg import ...``: minarray."""
    return _NUMPY_IMPORT.sub(r"\1minarray", source)


class _Checker(doctest.OutputChecker):
    """doctest's checker, except that the recording run accepts anything
    and a random statement's output is not compared."""

    def __init__(self, record: bool) -> None:
        self.record = record

    def check_output(self, want: str, got: str, optionflags: int) -> bool:
        if self.record or want == _ANY_OUTPUT:
            return True
        # an object's address is no property of the library
        return super().check_output(_ADDRESS.sub("0x...", want), _ADDRESS.sub("0x...", got), optionflags)


class _Timeout(KeyboardInterrupt):
    """Raised by the alarm: a KeyboardInterrupt so that doctest lets it
    through instead of recording it as the statement's exception."""


class _Recorder(doctest.DocTestRunner):
    """A runner that records each statement's outcome instead of printing
    a report: 'ok' with what it printed, 'differs' (printed something else,
    or raised another exception than NumPy, or none where NumPy raised) or
    'error' (raised where NumPy did not), with the exception's last line
    as doctest compares it."""

    def __init__(self, record: bool) -> None:
        super().__init__(checker=_Checker(record), optionflags=OPTIONFLAGS, verbose=False)
        self.outcomes: list[dict[str, str]] = []

    def report_start(self, out: Any, test: doctest.DocTest, example: doctest.Example) -> None:
        pass

    def report_success(self, out: Any, test: doctest.DocTest, example: doctest.Example, got: str) -> None:
        self.outcomes.append({"status": "ok", "got": got})

    def report_failure(self, out: Any, test: doctest.DocTest, example: doctest.Example, got: str) -> None:
        want = example.want if example.exc_msg is None else "Traceback ...\n" + example.exc_msg
        if example.exc_msg is not None and "Traceback (most recent call last)" in got:
            got = "Traceback ...\n" + got.split("\n  File ")[-1].split("\n", 2)[-1]
        self.outcomes.append({"status": "differs", "source": example.source, "want": want, "got": got})

    def report_unexpected_exception(self, out: Any, test: doctest.DocTest, example: doctest.Example,
                                    exc_info: Any) -> None:
        self.outcomes.append({"status": "error", "source": example.source,
                              "error": traceback.format_exception_only(*exc_info[:2])[-1]})


@contextlib.contextmanager
def _alarm(seconds: float) -> Iterator[None]:
    def ring(signum: int, frame: Any) -> None:
        raise _Timeout

    old = signal.signal(signal.SIGALRM, ring)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


@contextlib.contextmanager
def _settings_kept(module: Any) -> Iterator[None]:
    """An example's set_printoptions or seterr does not leak into the
    next one."""
    saved = [(getattr(module, setter), getattr(module, getter)())
             for getter, setter in (("get_printoptions", "set_printoptions"), ("geterr", "seterr"))
             if callable(getattr(module, getter, None))]
    try:
        yield
    finally:
        for setter, values in saved:
            setter(**values)


def _run(examples: list[doctest.Example], library: Any, record: bool, timeout: float) -> Result:
    test = doctest.DocTest(examples, {"np": library, "__name__": "__main__"}, "example", None, 0, None)
    runner = _Recorder(record)
    status = "done"
    with _settings_kept(library), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            with _alarm(timeout):
                runner.run(test, out=lambda s: None, clear_globs=True)
        except _Timeout:
            status = "timeout"
        finally:
            # doctest swaps stdout while a statement runs: restore it when
            # the alarm rang inside one
            sys.stdout = sys.__stdout__
    return {"status": status, "statements": len(examples), "outcomes": runner.outcomes}


def run_example(section: str, numpy: Any, minarray: Any, timeout: float) -> Result:
    """Run one Examples section with NumPy, recording what each statement
    prints (or raises), then with minarray, checking it prints the same.

    NumPy's own run is the oracle rather than the docstring's text, which
    NumPy's doctest tool compares with numeric tolerance (so it can be
    stale by a digit or a scalar's repr).  An example NumPy itself cannot
    run here (it raises where its docstring shows no exception: an
    optional package missing) is reported as such and left out."""
    statements = parse(section)
    reference = _run([doctest.Example(ex.source, "", exc_msg=None) for ex in statements], numpy, True, timeout)
    result: Result = {"numpy": reference["status"], "statements": len(statements)}
    if reference["status"] != "done":
        return result
    checked = []
    for ex, ref in zip(statements, reference["outcomes"], strict=True):
        if ref["status"] == "error" and ex.exc_msg is None:
            result["numpy"] = "raises: " + ref["error"].strip()
            return result
        want = _ANY_OUTPUT if is_random(ex) else ref.get("got", "")
        exc_msg = ref["error"] if ref["status"] == "error" else None
        checked.append(doctest.Example(to_minarray(ex.source), want, exc_msg=exc_msg))
    result["numpy_matches_docstring"] = all(
        is_random(ex) or (ref["status"] == "ok" and _Checker(False).check_output(ex.want, ref["got"], OPTIONFLAGS))
        or (ref["status"] == "error" and ex.exc_msg is not None)
        for ex, ref in zip(statements, reference["outcomes"], strict=True))
    result["minarray"] = _run(checked, minarray, False, timeout)
    return result


def worker() -> None:
    """The child: jobs as one JSON list on stdin, one result per line out."""
    import matplotlib

    matplotlib.use("Agg")  # examples that plot must not open windows
    import numpy

    import minarray

    for sub in MODULES[1:]:  # np.linalg... reachable as attributes, as in NumPy
        importlib.import_module(f"minarray.{sub}")
    jobs = json.loads(sys.stdin.read())
    timeout = float(os.environ.get("DOC_EXAMPLES_TIMEOUT", "30"))
    # results go out on a copy of stdout; what examples write to the file
    # descriptor itself (C code, subprocesses) goes nowhere
    out = os.fdopen(os.dup(1), "w")
    os.dup2(os.open(os.devnull, os.O_WRONLY), 1)
    for job in jobs:
        result = {"name": job["name"], **run_example(job["doc"], numpy, minarray, timeout)}
        out.write(json.dumps(result) + "\n")
        out.flush()


# ---- the parent: children, their deaths, and the figures ------------------

def _lines(stream: IO[str], into: queue.Queue[str | None]) -> None:
    for line in stream:
        into.put(line)
    into.put(None)


def _home() -> str:
    """The folder the minarray this process imports lives in: the child,
    started in a scratch folder, imports the same one."""
    import minarray

    return os.path.dirname(os.path.dirname(os.path.abspath(minarray.__file__)))


def run_jobs(jobs: list[Job], timeout: float = 30.0) -> list[Result]:
    """Run jobs in child processes, one at a time in order; a child that
    stops answering (a hang in C code the alarm cannot break) or dies
    (a crash) costs the job it was on, and a new child takes the rest."""
    results: list[Result] = []
    pending = list(jobs)
    with tempfile.TemporaryDirectory() as scratch:  # examples that write files write here
        while pending:
            env = dict(os.environ, DOC_EXAMPLES_TIMEOUT=str(timeout), MPLBACKEND="Agg")
            env["PYTHONPATH"] = os.pathsep.join(filter(None, [_home(), env.get("PYTHONPATH")]))
            child = subprocess.Popen([sys.executable, os.path.abspath(__file__), "--worker"], cwd=scratch, env=env,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                     text=True)
            assert child.stdin is not None and child.stdout is not None
            child.stdin.write(json.dumps(pending))
            child.stdin.close()
            lines: queue.Queue[str | None] = queue.Queue()
            threading.Thread(target=_lines, args=(child.stdout, lines), daemon=True).start()
            startup = 60.0
            while pending:
                try:
                    line = lines.get(timeout=2 * timeout + 10 + startup)
                except queue.Empty:
                    line, fate = None, "timeout"
                    child.kill()
                else:
                    fate = "crash"
                startup = 0.0
                if line is None:
                    child.kill()
                    child.wait()
                    lost = pending.pop(0)
                    # (NumPy's run comes first in the child but is quick and
                    # sound: the example lost is minarray's)
                    results.append({"name": lost["name"], "numpy": "done", "statements": 0,
                                    "numpy_matches_docstring": False,
                                    "minarray": {"status": fate, "statements": 0, "outcomes": []}})
                    break
                results.append(json.loads(line))
                pending.pop(0)
            else:
                child.wait()
    return results


def public_names(module: Any) -> list[str]:
    names = getattr(module, "__all__", None) or [n for n in dir(module) if not n.startswith("_")]
    return sorted(set(names))


def collect_jobs(modules: tuple[str, ...] = MODULES, only: set[str] | None = None) -> tuple[list[Job], int]:
    """The names minarray and NumPy share and NumPy's Examples for each;
    also how many shared names have no Examples section."""
    import numpy

    import minarray

    jobs: list[Job] = []
    without = 0
    for sub in modules:
        ma_mod = importlib.import_module(f"minarray.{sub}") if sub else minarray
        np_mod = importlib.import_module(f"numpy.{sub}") if sub else numpy
        for name in public_names(ma_mod):
            qual = f"numpy.{sub}.{name}" if sub else f"numpy.{name}"
            if only is not None and qual not in only:
                continue
            obj = getattr(np_mod, name, None)
            if obj is None or isinstance(obj, types.ModuleType):
                continue
            section = examples_section(getattr(obj, "__doc__", None) or "")
            if not doctest.DocTestParser().get_examples(section):
                without += 1
                continue
            jobs.append({"name": qual, "module": sub or "numpy", "doc": section})
    return jobs, without


def _runs(run: Result) -> bool:
    return bool(run["status"] == "done" and all(o["status"] != "error" for o in run["outcomes"]))


# minarray's refusals of what it does not hold (minarray/_dtypes.py's
# out_of_scope, value_out_of_scope and _non_native): TypeErrors that say so
_OUT_OF_SCOPE = re.compile(r"^TypeError: .*(use NumPy for \w+|minarray holds native byte order only)")


def _out_of_scope(run: Result) -> bool:
    """Whether the example stops on minarray's refusal of a dtype it does
    not hold (and on nothing before it)."""
    first = next((o for o in run["outcomes"] if o["status"] == "error"), None)
    return first is not None and bool(_OUT_OF_SCOPE.match(first["error"].strip()))


def _matches(run: Result) -> bool:
    return bool(run["status"] == "done" and all(o["status"] == "ok" for o in run["outcomes"]))


_QUOTED = re.compile(r"'[^']*'|\"[^\"]*\"")
_NUMBER = re.compile(r"\b\d+(\.\d+)?\b")
_FUNCTION = re.compile(r"\b[A-Za-z_][\w.]*\(\)")


def error_class(text: str) -> str:
    """An exception with its message's particulars blanked: function
    names, quoted names and numbers."""
    return _NUMBER.sub("N", _QUOTED.sub("'*'", _FUNCTION.sub("*()", text)))[:100]


def difference_class(o: dict[str, str]) -> str:
    """Why a statement's output differs, in a few words."""
    want, got = o["want"].strip(), o["got"].strip()
    if want.startswith("Traceback"):
        return "NumPy's exception not raised" if "Traceback" not in got else "raises with another type or message"
    if not got:
        return "prints nothing where NumPy prints"
    if re.match(r"^np\.(float|int|uint|complex|bool|str)\w*\(", want) and got.startswith("array("):
        return "0-d array where NumPy returns a scalar (np.float64(...))"
    if re.match(r"^\(?np\.", want) and "array(" in got and "np." not in got:
        return "0-d arrays where NumPy returns scalars, in a tuple or list"
    if want.replace(", dtype=int64", "") == got.replace(", dtype=int64", "") or re.sub(
            r",\s*dtype=\w+", "", want) == re.sub(r",\s*dtype=\w+", "", got):
        return "dtype differs"
    if re.sub(r"\s+", "", want) == re.sub(r"\s+", "", got):
        return "whitespace or line breaks differ"
    if re.sub(r"[\d.e+-]+", "N", want) == re.sub(r"[\d.e+-]+", "N", got):
        return "numbers differ (digits, rounding or values)"
    if want.startswith("array(") and got.startswith("array("):
        return "array printed differently (shape or layout)"
    if want.startswith("dtype(") or got.startswith("dtype("):
        return "dtype object prints differently"
    return "other"


def _module_of(name: str) -> str:
    parts = name.split(".")
    return parts[1] if len(parts) > 2 else "numpy"


def summarise(results: list[Result], without: int) -> dict[str, Any]:
    """Per module and overall: examples, how many run and match with
    minarray (and how many NumPy's own run matches its docstring), the same
    per statement, and the classes of the first error or difference."""
    per: dict[str, collections.Counter[str]] = collections.defaultdict(collections.Counter)
    errors: collections.Counter[str] = collections.Counter()
    samples: dict[str, collections.Counter[str]] = collections.defaultdict(collections.Counter)
    diffs: collections.Counter[str] = collections.Counter()
    broken: dict[str, str] = {}
    for r in results:
        if r["numpy"] != "done":
            broken[r["name"]] = r["numpy"]
            for key in (_module_of(r["name"]), "overall"):
                per[key]["numpy_cannot_run"] += 1
            continue
        run = r["minarray"]
        outcomes = run["outcomes"]
        for key in (_module_of(r["name"]), "overall"):
            c = per[key]
            c["examples"] += 1
            c["runs"] += _runs(run)
            c["out_of_scope"] += run["status"] == "done" and _out_of_scope(run)
            c["matches"] += _matches(run)
            c["numpy_matches_docstring"] += r["numpy_matches_docstring"]
            c["statements"] += r["statements"]
            c["statements_run"] += sum(o["status"] != "error" for o in outcomes)
            c["statements_match"] += sum(o["status"] == "ok" for o in outcomes)
            c["timeouts_or_crashes"] += run["status"] != "done"
        first_error = next((o for o in outcomes if o["status"] == "error"), None)
        first_diff = next((o for o in outcomes if o["status"] == "differs"), None)
        if run["status"] != "done":
            errors[f"<{run['status']}>"] += 1
        elif first_error is not None:
            text = first_error["error"].strip()
            errors[error_class(text)] += 1
            samples[error_class(text)][_NUMBER.sub("N", text)[:100]] += 1
        elif first_diff is not None:
            diffs[difference_class(first_diff)] += 1
    return {
        "unit": "example: the whole Examples block of one docstring, run in one namespace statement by statement",
        "oracle": "what NumPy prints running the same statements (doctest checker, NORMALIZE_WHITESPACE | ELLIPSIS)",
        "names_without_examples": without,
        "modules": {k: dict(v) for k, v in per.items()},
        "top_errors": [(text, n, samples[text].most_common(4)) for text, n in errors.most_common(30)],
        "top_differences": diffs.most_common(20),
        "numpy_cannot_run": broken,
        "examples": {r["name"]: {"runs": _runs(r["minarray"]), "matches": _matches(r["minarray"]),
                                 "first_problem": next((o for o in r["minarray"]["outcomes"] if o["status"] != "ok"),
                                                       None) or (None if r["minarray"]["status"] == "done"
                                                                 else r["minarray"]["status"])}
                     for r in results if r["numpy"] == "done"},
    }


def _pct(n: int, d: int) -> str:
    return f"{n} ({100 * n / d:.1f}%)" if d else "0"


def markdown(summary: dict[str, Any]) -> str:
    """The figures as a Markdown table, a row per module."""
    rows = ["| module | examples | run | match NumPy's output | stop on a dtype minarray lacks "
            "| run, of those in scope | statements | statements run | statements match |",
            "|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
    order = [m for m in ("numpy", *MODULES[1:], "overall") if m in summary["modules"]]
    for m in order:
        c = collections.Counter(summary["modules"][m])
        n, s = c["examples"], c["statements"]
        label = {"numpy": "`numpy`", "overall": "**overall**"}.get(m, f"`numpy.{m}`")
        rows.append(f"| {label} | {n} | {_pct(c['runs'], n)} | {_pct(c['matches'], n)} | {c['out_of_scope']} "
                    f"| {_pct(c['runs'], n - c['out_of_scope'])} | {s} "
                    f"| {_pct(c['statements_run'], s)} | {_pct(c['statements_match'], s)} |")
    return "\n".join(rows) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--names", nargs="+", help="only these names (numpy.sum, numpy.linalg.norm...)")
    parser.add_argument("--timeout", type=float, default=30.0,
                        help="seconds per example (30: an example may import PyTorch)")
    parser.add_argument("--json", type=argparse.FileType("w"), help="write the summary here as JSON")
    parser.add_argument("--markdown", type=argparse.FileType("w"), help="write the table here")
    parser.add_argument("--top", type=int, default=15, help="error and difference classes to print (15)")
    args = parser.parse_args(argv)
    if args.worker:
        worker()
        return 0
    jobs, without = collect_jobs(only=set(args.names) if args.names else None)
    start = time.monotonic()
    by_module: dict[str, list[Job]] = collections.defaultdict(list)
    for job in jobs:
        by_module[job["module"]].append(job)
    results = [r for mod_jobs in by_module.values() for r in run_jobs(mod_jobs, args.timeout)]
    summary = summarise(results, without)
    table = markdown(summary)
    print(table)
    overall = collections.Counter(summary["modules"].get("overall", {}))
    print(f"{len(jobs)} NumPy docstrings with Examples ({without} shared names have none), "
          f"{time.monotonic() - start:.0f} s; {overall['numpy_cannot_run']} left out because NumPy itself "
          f"cannot run them here; NumPy's own output matches its docstring in "
          f"{_pct(overall['numpy_matches_docstring'], overall['examples'])}\n")
    print("Top error classes (first unexpected exception of an example):")
    for text, n, seen in summary["top_errors"][: args.top]:
        print(f"  {n:4d}  {text}")
        if len(seen) > 1 or (seen and seen[0][0] != text):
            for sample, k in seen:
                print(f"          {k:3d} x {sample}")
    print("Top difference classes (first differing statement of an example that runs):")
    for text, n in summary["top_differences"][: args.top]:
        print(f"  {n:4d}  {text}")
    if args.json:
        json.dump(summary, args.json, indent=1)
    if args.markdown:
        args.markdown.write(table)
    return 0


if __name__ == "__main__":
    sys.exit(main())
