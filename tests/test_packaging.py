"""The package as it is published: one version, read from the metadata; an
sdist that holds every file a build needs and nothing a build made; a wheel
built from that sdist alone, offline, that imports and runs.

The wheel's own tests (the suite run against an installed, repaired wheel)
are .ci/test_wheel's, which .ci/run and cibuildwheel call."""

from __future__ import annotations

import importlib.metadata
import os
import shutil
import subprocess
import sys
import sysconfig
import tarfile
import zipfile
from pathlib import Path

import pytest

import minarray as ma

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10: pytest's own TOML reader
    import tomli as tomllib

ROOT = Path(__file__).resolve().parent.parent
PYPROJECT = ROOT / "pyproject.toml"


def _project_version() -> str:
    return str(tomllib.loads(PYPROJECT.read_text())["project"]["version"])


def test_version_is_the_metadata_version() -> None:
    try:
        installed = importlib.metadata.version("minarray")
    except importlib.metadata.PackageNotFoundError:
        pytest.skip("minarray is not installed here: there is no metadata to read the version from")
    assert ma.__version__ == installed
    if PYPROJECT.is_file():  # the suite runs from a checkout, or a copy of one beside a wheel
        assert installed == _project_version(), "pyproject.toml's version changed: reinstall (pip install -e .)"


def _git_files(*which: str) -> set[str]:
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("the sdist is checked against git's list of the project's files: not a git checkout")
    out = subprocess.run(["git", "ls-files", "-z", *which], cwd=ROOT, capture_output=True, check=True).stdout
    return {name for name in out.decode().split("\0") if name and (ROOT / name).is_file()}


@pytest.mark.slow  # the wheel's build compiles the whole C core: 1-2 minutes on 2 cores
def test_sdist_builds_a_wheel_offline(tmp_path: Path) -> None:
    pytest.importorskip("build", reason="the build package (the test extra) makes the sdist and the wheel")
    # The project's files: tracked, or new and not ignored (what a commit
    # would hold); the sdist must hold every tracked one.
    files = sorted(_git_files("--cached", "--others", "--exclude-standard"))
    tracked = _git_files("--cached")
    version = _project_version()

    # A copy of the project's files, so that nothing a previous build left in
    # the checkout (objects, generated C, the module) can reach the sdist.
    src = tmp_path / "src"
    for name in files:
        (src / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / name, src / name)

    # `python -m build` makes the sdist, then the wheel from the unpacked
    # sdist alone.  No isolation: the backend installed here, no network.
    dist = tmp_path / "dist"
    proc = subprocess.run([sys.executable, "-m", "build", "--no-isolation", "--outdir", str(dist), str(src)],
                          capture_output=True, text=True, check=False)
    assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-4000:]

    # The sdist: every tracked file but the CI scripts and git's own, and
    # beside the project's files only the metadata setuptools writes.
    with tarfile.open(dist / f"minarray-{version}.tar.gz") as sdist:
        prefix = f"minarray-{version}/"
        held = {m.name.removeprefix(prefix) for m in sdist.getmembers() if m.isfile()}
    metadata = {name for name in held if name in ("PKG-INFO", "setup.cfg") or name.startswith("minarray.egg-info/")}
    for needed in ("csrc/build_ffi.py", "csrc/dlpack.h", "setup.py", "pyproject.toml", "csrc/core/gen/codegen.py"):
        assert needed in held, f"the sdist lacks {needed}"
    made = sorted(n for n in held if n.endswith((".so", ".o", ".args")) or n.startswith("build/")
                  or n == "minarray/_core.c")
    assert made == [], f"the sdist holds what a build made: {made}"
    expected = {name for name in tracked if not name.startswith(".ci/") and name != ".gitignore"}
    assert sorted(expected - held) == [], "tracked files missing from the sdist (MANIFEST.in)"
    assert sorted(held - metadata - set(files)) == [], "the sdist holds files that are not the project's"

    # The wheel: the package's Python files and data, the compiled module,
    # the metadata; none of the C sources.
    tag = sysconfig.get_config_var("EXT_SUFFIX")
    (wheel_path,) = dist.glob(f"minarray-{version}-*.whl")
    with zipfile.ZipFile(wheel_path) as wheel:
        names = set(wheel.namelist())
        site = tmp_path / "site"
        wheel.extractall(site)
    package = {n for n in held if n.startswith("minarray/") and n.endswith((".py", ".pyi", "py.typed"))}
    info = {n for n in names if n.startswith(f"minarray-{version}.dist-info/")}
    assert names - info == package | {f"minarray/_core{tag}"}

    # It imports from where it was unpacked (not the checkout), with its
    # version from its own metadata, and computes: the tour runs.
    env = {**os.environ, "PYTHONPATH": str(site)}
    probe = ("import minarray as ma; print(ma.__file__); print(ma.__version__); "
             "print(float((ma.arange(12.0).reshape(3, 4) @ ma.arange(12.0).reshape(4, 3)).sum()))")
    out = subprocess.run([sys.executable, "-c", probe], cwd=tmp_path, env=env, capture_output=True, text=True,
                         check=False)
    assert out.returncode == 0, out.stderr
    where, got_version, total = out.stdout.split()
    assert Path(where).resolve() == (site / "minarray" / "__init__.py").resolve()
    assert got_version == version
    a = [[4.0 * i + k for k in range(4)] for i in range(3)]
    b = [[3.0 * k + j for j in range(3)] for k in range(4)]
    assert float(total) == sum(a[i][k] * b[k][j] for i in range(3) for j in range(3) for k in range(4))
    tour = subprocess.run([sys.executable, "-m", "minarray"], cwd=tmp_path, env=env, capture_output=True,
                          text=True, check=False)
    assert tour.returncode == 0, tour.stdout + tour.stderr
