"""The cffi extension cannot be declared in pyproject.toml alone: cffi's
setuptools hook reads `cffi_modules` from setup()."""

from setuptools import setup

setup(cffi_modules=["csrc/build_ffi.py:ffi"])
