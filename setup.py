"""The cffi extension cannot be declared in pyproject.toml alone: cffi's
setuptools hook reads `cffi_modules` from setup().

build_ext is setuptools' own, with one step before the link: the C units
(core, bindings, generated loops) are compiled by csrc/build_ffi.py's
compile_units, side by side and only those that are stale, and linked into
the module as extra objects."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Any

from setuptools import setup
from setuptools.command.build_ext import build_ext

_spec = importlib.util.spec_from_file_location("build_ffi", Path(__file__).parent / "csrc" / "build_ffi.py")
assert _spec is not None and _spec.loader is not None
build_ffi = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(build_ffi)


class BuildExt(build_ext):
    def build_extension(self, ext: Any) -> None:
        if ext.name == "minarray._core":
            objects = build_ffi.compile_units(self.compiler)
            ext.extra_objects = objects
            ext.depends = [*ext.depends, *objects]  # a fresh object relinks the module
        super().build_extension(ext)


setup(cffi_modules=["csrc/build_ffi.py:ffi"], cmdclass={"build_ext": BuildExt})
