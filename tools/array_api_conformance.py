"""Run the Array API conformance suite against minarray.

The suite (data-apis/array-api-tests) is not on the package index, so it
is not a test dependency: check it out, with the specification repository
(data-apis/array-api) at the commit the suite pins, in its ``array-api/``
folder, then give this script the checkout::

    git clone https://github.com/data-apis/array-api-tests
    git -C array-api-tests submodule update --init
    python tools/array_api_conformance.py array-api-tests

It runs every test file of the suite for the standard version minarray
declares (``ma.__array_api_version__``) with a fixed seed and at least 100
examples per test (both extensions, linalg and fft, included), and prints
the suite's totals.  Further arguments go to pytest (``-k``, ``-x``...).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

import minarray


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("checkout", type=Path, help="a checkout of data-apis/array-api-tests")
    parser.add_argument("--max-examples", type=int, default=100, help="hypothesis examples per test (100)")
    parser.add_argument("--seed", type=int, default=0, help="hypothesis seed (0)")
    args, extra = parser.parse_known_args(argv)
    suite = args.checkout.resolve()
    if not (suite / "array_api_tests").is_dir():
        parser.error(f"{suite} is not a checkout of array-api-tests (no array_api_tests/ in it)")
    if not any((suite / "array-api").iterdir()) if (suite / "array-api").is_dir() else True:
        parser.error(f"{suite}/array-api is empty: check out the specification submodule "
                     "(git submodule update --init)")
    env = dict(os.environ, ARRAY_API_TESTS_MODULE="minarray",
               ARRAY_API_TESTS_VERSION=minarray.__array_api_version__)
    cmd = [sys.executable, "-m", "pytest", "array_api_tests", "-p", "no:cacheprovider", "-q", "-rfE",
           f"--max-examples={args.max_examples}", f"--hypothesis-seed={args.seed}", *extra]
    print(f"minarray {minarray.__version__}, Array API {minarray.__array_api_version__}: {' '.join(cmd[1:])}",
          flush=True)
    return subprocess.call(cmd, cwd=suite, env=env)


if __name__ == "__main__":
    sys.exit(main())
