"""Every code example in the documentation runs here, so the docs cannot rot.

The collector reads each page of ``docs/`` (and the README), takes its
```` ```python ```` blocks in order and runs them in one namespace per page:

* a block whose first line starts with ``>>>`` is a doctest: its shown
  output is checked (ELLIPSIS and NORMALIZE_WHITESPACE are on, so ``...``
  stands for addresses that change from run to run);
* any other block is executed as a script and must not raise.  When a
  ```` ```text output ```` block follows it (nothing but blank lines in
  between), that is the script's expected standard output, checked like a
  doctest's (ELLIPSIS, NORMALIZE_WHITESPACE); it suits long output with
  blank lines, which a doctest cannot show.  Without one, a script block
  shows no output;
* a block containing ``# requires: torch`` (any importable module names,
  comma separated, each optionally with a least version: ``numpy>=2.1``)
  needs those modules; when one is missing or older, the rest of the page is
  skipped with a reason, since later blocks build on earlier ones.

Tables whose header starts ``| NumPy | minarray |`` (the cheat sheet) are
checked too: each row's two inline-code cells are evaluated in the page's
namespace after its blocks ran (``np`` naming NumPy as current NumPy
defines it, tests/numpy_oracle.py), and the results must agree: same dtype
(compared by name), same shape, equal values (floating results within a few
ulps, since libm implementations differ in the last bits).
"""

from __future__ import annotations

import builtins
import contextlib
import doctest
import gc
import importlib.metadata
import importlib.util
import io
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"

FENCE = re.compile(r"^(?P<indent> {0,3})(?P<fence>`{3,}|~{3,})\s*(?P<info>[^`]*)$")
REQUIREMENT = r"[\w.]+(?:>=[\d.]+)?"
REQUIRES = re.compile(rf"#\s*requires:\s*(?P<mods>{REQUIREMENT}(?:\s*,\s*{REQUIREMENT})*)")
DOCTEST_FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE


@dataclass
class Block:
    """One fenced ```python block: its source and the page line it starts on."""

    source: str
    line: int  # 1-based line of the first code line
    output: str | None = None  # the ```text output block that follows, if any

    @property
    def is_doctest(self) -> bool:
        first = next((ln for ln in self.source.splitlines() if ln.strip()), "")
        return first.lstrip().startswith(">>>")

    @property
    def requires(self) -> list[str]:
        mods: list[str] = []
        for m in REQUIRES.finditer(self.source):
            mods += [s.strip() for s in m.group("mods").split(",")]
        return mods


def python_blocks(text: str) -> list[Block]:
    """The ```python blocks of a MyST page, in order.

    Directive fences (```` ```{note} ````) are transparent: MyST parses their
    body as Markdown, so code blocks inside them count.  Blocks in any other
    language (sh, c, text) are skipped whole."""
    lines = text.splitlines()
    blocks: list[Block] = []
    directives: list[str] = []  # fences of the open directives, innermost last
    last_python_end: int | None = None  # line of the last python block's closing fence
    i = 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if m is None:
            i += 1
            continue
        fence, info = m.group("fence"), m.group("info").strip()
        if not info and directives and fence[0] == directives[-1][0] and len(fence) >= len(directives[-1]):
            directives.pop()  # the closing fence of a directive
            i += 1
            continue
        if info.startswith("{") and not info.startswith("{code"):
            directives.append(fence)
            i += 1
            continue
        # A code block: find its closing fence (same character, at least as long).
        body: list[str] = []
        j = i + 1
        while j < len(lines):
            c = FENCE.match(lines[j])
            if c and not c.group("info").strip() and c.group("fence")[0] == fence[0] \
                    and len(c.group("fence")) >= len(fence):
                break
            body.append(lines[j])
            j += 1
        words = info.split()
        if words and words[0] in ("python", "py", "python3"):
            blocks.append(Block("\n".join(body) + "\n", i + 2))
            last_python_end = j
        elif words == ["text", "output"] and blocks and last_python_end is not None \
                and all(not ln.strip() for ln in lines[last_python_end + 1:i]):
            blocks[-1].output = "\n".join(body) + "\n"
        i = j + 1
    return blocks


# ---- the NumPy -> minarray tables -------------------------------------------

ROW = re.compile(r"^\|\s*`(?P<np>[^`]+)`\s*\|\s*`(?P<ma>[^`]+)`\s*\|")
HEADER = re.compile(r"^\|\s*NumPy\s*\|\s*minarray\s*\|")


def table_rows(text: str) -> list[tuple[int, str, str]]:
    """(line, numpy expression, minarray expression) of every row of the
    tables headed ``| NumPy | minarray |``."""
    rows: list[tuple[int, str, str]] = []
    in_table = False
    for n, line in enumerate(text.splitlines(), 1):
        if HEADER.match(line):
            in_table = True
            continue
        if in_table and not line.startswith("|"):
            in_table = False
        if in_table:
            m = ROW.match(line)
            if m:
                rows.append((n, m.group("np"), m.group("ma")))
    return rows


SAME_SPELLING = re.compile(r"^Also as in NumPy: (?P<list>.*?)(?:\n\s*\n|\Z)", re.M | re.S)
INLINE = re.compile(r"`([^`]+)`")
# The page's rule for "Also as in NumPy": np. becomes ma., and the NumPy
# arrays n, v, f become the minarray arrays a, w, g (not an f-string's f).
SPELLING = ((re.compile(r"\bnp\."), "ma."), (re.compile(r"\bn\b(?![\'\"])"), "a"),
            (re.compile(r"\bv\b(?![\'\"])"), "w"), (re.compile(r"\bf\b(?![\'\"])"), "g"))


def as_minarray(numpy_expr: str) -> str:
    """The minarray spelling of an expression listed "as in NumPy"."""
    for pattern, repl in SPELLING:
        numpy_expr = pattern.sub(repl, numpy_expr)
    return numpy_expr


def same_spelling_rows(text: str) -> list[tuple[int, str, str]]:
    """(line, numpy expression, minarray expression) of every expression
    listed after "Also as in NumPy:" (the cheat sheet's folded rows)."""
    rows = []
    for m in SAME_SPELLING.finditer(text):
        line = text.count("\n", 0, m.start()) + 1
        rows += [(line, e, as_minarray(e)) for e in INLINE.findall(m.group("list"))]
    return rows


def _comparable(value: Any) -> Any:
    """A NumPy value (or plain Python value) to compare two table results."""
    import numpy as np

    import minarray as ma

    if isinstance(value, (ma.DType, np.dtype)) or (isinstance(value, type) and issubclass(value, np.generic)):
        return ("dtype", str(np.dtype(value)) if not isinstance(value, ma.DType) else value.name)
    if isinstance(value, ma.NDArray):
        return np.asarray(value)
    if isinstance(value, (list, tuple)):  # named tuples (unique_counts) compare as tuples
        return [_comparable(v) for v in value] if isinstance(value, list) else tuple(_comparable(v) for v in value)
    return value


def _assert_same(np_value: Any, ma_value: Any, where: str) -> None:
    import numpy as np

    a, b = _comparable(np_value), _comparable(ma_value)
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        a, b = np.asarray(a), np.asarray(b)
        assert a.dtype == b.dtype, f"{where}: dtypes differ: NumPy {a.dtype}, minarray {b.dtype}"
        assert a.shape == b.shape, f"{where}: shapes differ: NumPy {a.shape}, minarray {b.shape}"
        if a.dtype.kind in "fc":
            # Transcendental functions may differ from NumPy's in the last
            # bits (different libm paths); a few ulps is agreement.
            eps = np.finfo(a.dtype).eps
            np.testing.assert_allclose(b, a, rtol=8 * eps, atol=0, err_msg=where)
        else:
            np.testing.assert_array_equal(b, a, err_msg=where)
    elif isinstance(a, (list, tuple)):
        assert len(a) == len(b), f"{where}: lengths differ"
        for x, y in zip(a, b, strict=True):
            _assert_same(x, y, where)
    else:
        assert a == b, f"{where}: NumPy gives {a!r}, minarray {b!r}"


# ---- running a page ---------------------------------------------------------

def pages() -> list[Path]:
    found = [p for p in sorted(DOCS.rglob("*.md")) if "_build" not in p.parts]
    return [*found, ROOT / "README.md"]


def _page_id(p: Path) -> str:
    return str(p.relative_to(ROOT)) if p.is_relative_to(ROOT) else p.name


def _missing(requirements: list[str]) -> list[str]:
    """The requirements (``torch``, ``numpy>=2.1``) this interpreter lacks."""
    out = []
    for req in requirements:
        name, _, least = req.partition(">=")
        if importlib.util.find_spec(name) is None:
            out.append(name)
        elif least:
            have = importlib.metadata.version(name)
            if _release(have)[:len(_release(least))] < _release(least):
                out.append(f"{req} (installed: {have})")
    return out


def _release(version: str) -> tuple[int, ...]:
    """(2, 1) of "2.1", (2, 0, 2) of "2.0.2" (pre-release tags end it)."""
    return tuple(int(p) for p in re.findall(r"^\d+(?:\.\d+)*", version)[0].split("."))


def _run_doctest(block: Block, ns: dict[str, Any], path: Path) -> str | None:
    """Run one doctest block; the failure report, or None when it passed."""
    test = doctest.DocTestParser().get_doctest(block.source, ns, path.name, str(path), block.line - 1)
    test.globs = ns  # DocTest copies its globals; the page shares one namespace
    out = io.StringIO()
    runner = doctest.DocTestRunner(verbose=False, optionflags=DOCTEST_FLAGS)
    runner.run(test, out=out.write, clear_globs=False)
    return out.getvalue() if runner.failures else None


def _run_script(block: Block, ns: dict[str, Any], path: Path) -> str | None:
    # Pad with newlines so tracebacks name the page's own line numbers.
    code = compile("\n" * (block.line - 1) + block.source, str(path), "exec")
    out = io.StringIO()
    try:
        with contextlib.redirect_stdout(out):
            exec(code, ns)
    except Exception as exc:  # reported as the test failure
        import traceback

        return "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))
    if block.output is not None:
        checker = doctest.OutputChecker()
        if not checker.check_output(block.output, out.getvalue(), DOCTEST_FLAGS):
            example = doctest.Example(block.source, block.output)
            return checker.output_difference(example, out.getvalue(), DOCTEST_FLAGS)
    return None


def run_page(path: Path) -> Iterator[str]:
    """Run a page's blocks and tables; yields failure reports.  The page's
    namespace is cleared afterwards so the allocator check sees no leaks."""
    text = path.read_text()
    ns: dict[str, Any] = {"__name__": f"docs.{path.stem}"}
    saved_underscore = builtins.__dict__.get("_", None)
    as_current: dict[str, Any] = {}  # ns for the NumPy column of the tables
    skipped: str | None = None
    try:
        for block in python_blocks(text):
            missing = _missing(block.requires)
            if missing:
                skipped = f"{_page_id(path)}:{block.line}: needs {', '.join(missing)}"
                break
            run = _run_doctest if block.is_doctest else _run_script
            failure = run(block, ns, path)
            if failure:
                yield f"{_page_id(path)}, block at line {block.line}:\n{failure}"
                return
        if skipped is None:
            from numpy_oracle import NP

            as_current.update(ns, np=NP)
            for line, np_expr, ma_expr in table_rows(text) + same_spelling_rows(text):
                where = f"{_page_id(path)}:{line}: `{np_expr}` vs `{ma_expr}`"
                try:
                    _assert_same(eval(np_expr, as_current), eval(ma_expr, ns), where)
                except Exception as exc:  # reported as the test failure
                    yield f"{where}: {type(exc).__name__}: {exc}"
    finally:
        as_current.clear()
        ns.clear()
        # doctest prints results through sys.displayhook, which keeps the
        # last one in builtins._; drop it so no array outlives the page.
        if saved_underscore is None:
            builtins.__dict__.pop("_", None)
        else:
            builtins._ = saved_underscore  # type: ignore[attr-defined]
        gc.collect()
    if skipped:
        pytest.skip(skipped)


@pytest.mark.parametrize("path", [p for p in pages() if python_blocks(p.read_text()) or table_rows(p.read_text())],
                         ids=_page_id)
def test_page_examples_run(path: Path) -> None:
    failures = list(run_page(path))
    if failures:
        pytest.fail("\n\n".join(failures), pytrace=False)


# ---- references to the source tree -----------------------------------------

SOURCE_REF = re.compile(r"`((?:csrc|minarray|tests|benchmarks)/[\w/.-]+\.(?:py|c|h))(?:::(\w+))?`")


def test_cited_files_and_tests_exist() -> None:
    """Every `path` and `tests/file.py::test_name` the docs cite exists, so
    the guide cannot point at a file or a test that was renamed away."""
    problems = []
    for page in pages():
        for m in SOURCE_REF.finditer(page.read_text()):
            path, name = ROOT / m.group(1), m.group(2)
            if not path.is_file():
                problems.append(f"{_page_id(page)} cites {m.group(1)}, which does not exist")
            elif name and not re.search(rf"^\s*(?:async\s+)?(?:def|class)\s+{name}\b", path.read_text(), re.M):
                problems.append(f"{_page_id(page)} cites {m.group(0)}, which {m.group(1)} does not define")
    assert not problems, "\n".join(problems)


C_NAME_REF = re.compile(r"`(\w+)`,? in `((?:csrc|minarray)/[\w/.-]+\.(?:py|c|h))`")


def test_cited_c_and_python_names_exist() -> None:
    """"`name` in `csrc/file.c`": the file still defines or uses that name."""
    problems = []
    for page in pages():
        for m in C_NAME_REF.finditer(page.read_text()):
            name, path = m.group(1), ROOT / m.group(2)
            if not path.is_file() or not re.search(rf"\b{name}\b", path.read_text()):
                problems.append(f"{_page_id(page)}: {m.group(2)} has no {name}")
    assert not problems, "\n".join(problems)


C_BLOCK = re.compile(r"^```c\n(.*?)^```", re.M | re.S)
C_COMMENT = re.compile(r"/\*.*?\*/|//[^\n]*", re.S)


def _code_lines(c: str) -> list[str]:
    """C without comments, one statement-ish line each, white space folded."""
    return [" ".join(line.split()) for line in C_COMMENT.sub("", c).splitlines() if line.strip()]


def c_excerpts(text: str) -> list[tuple[str, str]]:
    """(cited file, excerpt) for every C block of a page: the file is the
    last source path the text names in the lines before the block."""
    out = []
    for m in C_BLOCK.finditer(text):
        before = text[: m.start()].splitlines()[-12:]
        cited = [c for line in before for c in SOURCE_REF.findall(line)]
        out.append((cited[-1][0] if cited else "", m.group(1)))
    return out


def excerpt_problem(excerpt: str, source_text: str) -> str | None:
    """Why a C excerpt is not a faithful piece of its source, or None.

    Comments aside, its lines appear in the source in order, and
    consecutive lines of the excerpt are consecutive in the source unless a
    `...` line between them says that something was left out: a listing
    cannot silently drop a field."""
    source = _code_lines(source_text)
    segments: list[list[str]] = [[]]
    for line in _code_lines(excerpt):
        if line == "...":
            segments.append([])
        else:
            segments[-1].append(line)
    at = 0
    for seg in (s for s in segments if s):
        n = len(seg)
        start = next((k for k in range(at, len(source) - n + 1) if source[k:k + n] == seg), None)
        if start is None:
            if all(line in source for line in seg):
                return f"has no run of the lines {seg!r} in this order and together (mark left-out lines with ...)"
            missing = next(line for line in seg if line not in source)
            return f"has no line {missing!r}"
        at = start + n
    return None


def test_c_excerpts_are_from_the_file_they_name() -> None:
    """Every C block in the docs names its file just before it, and its code
    is a faithful excerpt of that file (``excerpt_problem``): an excerpt
    cannot drift from the code it shows.  Whole structs and example files
    are better shown with a ``literalinclude``, which reads the file."""
    problems = []
    for page in pages():
        for cited, excerpt in c_excerpts(page.read_text()):
            if not cited:
                problems.append(f"{_page_id(page)}: a C block names no file before it:\n{excerpt}")
                continue
            why = excerpt_problem(excerpt, (ROOT / cited).read_text())
            if why:
                problems.append(f"{_page_id(page)}: {cited} {why}")
    assert not problems, "\n".join(problems)


def test_an_excerpt_that_drops_a_line_silently_fails() -> None:
    source = "struct s {\n  int a;\n  int b; /* why */\n  int c;\n};\n"
    assert excerpt_problem("struct s {\n  int a;\n  int b;\n  int c;\n};\n", source) is None
    assert excerpt_problem("struct s {\n  int a;\n  int c;\n};\n", source) is not None
    assert excerpt_problem("struct s {\n  int a;\n  ...\n  int c;\n};\n", source) is None
    assert excerpt_problem("int c;\n", source) is None  # an excerpt may start anywhere


LITERALINCLUDE = re.compile(r"^```\{literalinclude\}\s+(\S+)", re.M)


def test_literalincludes_name_files_that_exist() -> None:
    """Listings read from the source tree (``literalinclude``) point at real
    files, so a renamed file fails here as well as in the build."""
    problems = []
    for page in pages():
        for m in LITERALINCLUDE.finditer(page.read_text()):
            target = (page.parent / m.group(1)).resolve()
            if not target.is_file():
                problems.append(f"{_page_id(page)} includes {m.group(1)}, which does not exist")
    assert not problems, "\n".join(problems)


# ---- the collector itself ---------------------------------------------------

SAMPLE = """\
# Title

```python
x = 1
```

````{note}
```python
>>> x + 1
2
```
````

```sh
echo not python
```

```python
# requires: torch, numpy
y = 2
```
"""


def test_collector_finds_blocks_inside_directives_and_skips_other_languages() -> None:
    blocks = python_blocks(SAMPLE)
    assert [b.source for b in blocks] == ["x = 1\n", ">>> x + 1\n2\n", "# requires: torch, numpy\ny = 2\n"]
    assert [b.line for b in blocks] == [4, 9, 19]
    assert [b.is_doctest for b in blocks] == [False, True, False]
    assert blocks[2].requires == ["torch", "numpy"]


def test_a_text_output_block_is_the_expected_output(tmp_path: Path) -> None:
    page = tmp_path / "out.md"
    good = "```python\nprint('a')\nprint()\nprint('b 0x1234')\n```\n\n```text output\na\n\nb 0x...\n```\n"
    page.write_text(good)
    assert python_blocks(good)[0].output == "a\n\nb 0x...\n"
    assert list(run_page(page)) == []
    page.write_text(good.replace("print('a')", "print('c')"))
    failures = list(run_page(page))
    assert len(failures) == 1 and "Expected:" in failures[0]
    apart = "```python\nprint('a')\n```\n\nprose\n\n```text output\na\n```\n"
    assert python_blocks(apart)[0].output is None  # only directly after its block


def test_a_missing_optional_library_skips_the_rest_of_the_page(tmp_path: Path) -> None:
    page = tmp_path / "opt.md"
    page.write_text("```python\nx = 1\n```\n\n```python\nimport nosuchlib  # requires: nosuchlib\n```\n"
                    "\n```python\nraise AssertionError('not reached')\n```\n")
    with pytest.raises(pytest.skip.Exception, match="needs nosuchlib"):
        list(run_page(page))


def test_collector_reads_the_same_spelling_lists() -> None:
    text = "Also as in NumPy: `np.zeros(2)`, `n.T`, `f\"{n[0]}\"`,\n`np.abs(f)`.\n\nafter `np.x`\n"
    assert same_spelling_rows(text) == [(1, "np.zeros(2)", "ma.zeros(2)"), (1, "n.T", "a.T"),
                                        (1, 'f"{n[0]}"', 'f"{a[0]}"'), (1, "np.abs(f)", "ma.abs(g)")]


def test_collector_reads_the_cheatsheet_table_rows() -> None:
    text = "| NumPy | minarray | note |\n|---|---|---|\n| `np.zeros(2)` | `ma.zeros(2)` | x |\n\nafter\n"
    assert table_rows(text) == [(3, "np.zeros(2)", "ma.zeros(2)")]


def test_a_wrong_doctest_output_fails(tmp_path: Path) -> None:
    page = tmp_path / "bad.md"
    page.write_text("```python\n>>> 1 + 1\n3\n```\n")
    failures = list(run_page(page))
    assert len(failures) == 1 and "Expected:\n    3\nGot:\n    2" in failures[0]


def test_a_raising_script_block_fails(tmp_path: Path) -> None:
    page = tmp_path / "bad.md"
    page.write_text("text\n\n```python\nraise ValueError('boom')\n```\n")
    failures = list(run_page(page))
    assert len(failures) == 1 and "ValueError: boom" in failures[0] and "line 4" in failures[0]


def test_every_docs_page_has_examples_or_is_reference() -> None:
    """Prose pages teach with code; only the reference pages (autodoc) and
    the generated performance page may have none."""
    exempt = {"performance.md"}
    for p in pages():
        if p.parent == DOCS / "api" or p.name in exempt or p.name == "README.md":
            continue
        text = p.read_text()
        if p.name == "index.md":
            continue
        assert python_blocks(text), f"{_page_id(p)} has no runnable example"


# ---- numbers name their run ---------------------------------------------------

def _run_stamp(iso: str) -> str:
    """"2026-11-27 at 05:42 UTC" of "2026-11-27T05:42:00+0000"."""
    m = re.match(r"(\d{4}-\d\d-\d\d)T(\d\d:\d\d)", iso)
    assert m, iso
    return f"{m.group(1)} at {m.group(2)} UTC"


def test_performance_page_names_the_runs_its_numbers_come_from() -> None:
    """The page's prose names the two runs its numbers and plots come from,
    by the dates the runs themselves recorded: re-recording either run
    without updating the prose fails here."""
    import json

    page = (DOCS / "performance.md").read_text()
    results = re.search(r"<!-- benchmarks:begin -->\s*Run of (\S+): (.*)", page)
    assert results, "the Results section starts with the run's own description"
    for needed in ("NumPy", "PyTorch", "Python", "CPUs"):
        assert needed in results.group(2), f"the Results run does not name {needed}"
    assert _run_stamp(results.group(1)) in page.split("<!-- benchmarks:begin -->")[0], \
        "the prose does not name the Results run by its date"
    meta = json.loads((DOCS / "_data" / "benchmarks.json").read_text())["meta"]
    for key in ("date", "cpu_model", "python", "numpy", "torch"):
        assert meta.get(key), f"the plots run does not record its {key}"
    assert _run_stamp(meta["date"]) in page, "the prose does not name the plots run by its date"
    assert f"NumPy {meta['numpy']}" in page and f"PyTorch {meta['torch']}" in page


def test_no_number_of_the_guide_comes_from_an_unnamed_machine() -> None:
    """A timing in the guide's prose either cites where it was measured (an
    issue or pull request, `project#123`, in the same paragraph) or lives
    on the performance page, where each number names its run."""
    timing = re.compile(r"\b\d+(?:\.\d+)?\s?(?:ns|µs|us|ms)\b|\bin a (?:micro|nano)second\b")
    cited = re.compile(r"\b[\w.-]+#\d+\b")
    problems = []
    for page in [*sorted((DOCS / "dlpack").glob("*.md")), DOCS / "index.md"]:
        for para in re.split(r"\n\s*\n", page.read_text()):
            if timing.search(para) and not cited.search(para):
                problems.append(f"{_page_id(page)}: {' '.join(para.split())[:160]}")
    assert not problems, "timings that name no run or source:\n" + "\n".join(problems)
