"""Compile the plain-C core with a cross compiler (aarch64 by default), the
check that the Linux aarch64 wheel's C code builds where no aarch64 machine
is at hand.

Every core unit and every generated loop file is compiled with the project's
own flags (csrc/build_ffi.py's), warnings as errors; the x86 vector kernels
sit behind `__x86_64__` guards and their run-time dispatch, so on another
architecture they must compile away and leave the plain loops.  The objects
are then linked into one shared object with `--no-undefined` against libm,
libdl and libpthread: a function only one architecture defines would fail
there.  The bindings (csrc/py) are not compiled: they need the target's
Python headers, and hold nothing architecture-specific.

    python .ci/cross_compile.py [--cc aarch64-linux-gnu-gcc]
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import shutil
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parent.parent


def _build_ffi() -> ModuleType:
    spec = importlib.util.spec_from_file_location("build_ffi", ROOT / "csrc" / "build_ffi.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cc", default="aarch64-linux-gnu-gcc", help="the cross compiler (default: %(default)s)")
    args = parser.parse_args()
    if shutil.which(args.cc) is None:
        print(f"cross_compile: {args.cc} is not on PATH (Debian: apt-get install gcc-aarch64-linux-gnu)",
              file=sys.stderr)
        return 1
    ffi = _build_ffi()
    units = ffi.core_units()
    # The core's own headers and dlpack.h; not csrc/py, so a core unit that
    # reached for Python.h fails here too.
    includes = [f"-I{ROOT / 'csrc'}", f"-I{ROOT / 'csrc' / 'core'}"]
    flags = [*ffi.compile_args, "-fPIC", "-Werror", *includes]
    start = time.perf_counter()
    with tempfile.TemporaryDirectory() as out:

        def compile_one(unit: str) -> tuple[str, subprocess.CompletedProcess[str]]:
            obj = os.path.join(out, unit.replace("/", "_") + ".o")
            proc = subprocess.run([args.cc, *flags, "-c", str(ROOT / unit), "-o", obj],
                                  capture_output=True, text=True)
            return obj, proc

        with ThreadPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
            results = list(pool.map(compile_one, units))
        failed = [(unit, proc) for unit, (_, proc) in zip(units, results, strict=True) if proc.returncode]
        for unit, proc in failed:
            print(f"cross_compile: {unit} failed:\n{proc.stderr}", file=sys.stderr)
        if failed:
            return 1
        lib = os.path.join(out, "libcore.so")
        link = subprocess.run([args.cc, "-shared", "-Wl,--no-undefined", "-o", lib,
                               *(obj for obj, _ in results), "-lm", "-ldl", "-lpthread"],
                              capture_output=True, text=True)
        if link.returncode:
            print(f"cross_compile: the link failed:\n{link.stderr}", file=sys.stderr)
            return 1
    print(f"cross_compile: {len(units)} core units compiled and linked with {args.cc} "
          f"in {time.perf_counter() - start:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
