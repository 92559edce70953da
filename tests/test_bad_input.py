"""Bad Python input across the public API: the right exception type, and a
message that names what was wrong.

One table, one row per mistake a user can make: creation (shapes, dtypes,
devices, fill values), asarray (ragged, non-numeric, too deep, too big),
arange/linspace (NaN, infinity, zero step, bool or complex bounds),
elementwise (dtypes, shapes, operands), reductions (axes), indexing (out of
range, bad index types, masks), reshape, astype, manipulation, linear
algebra and DLPack (max_version, dl_device, stream, copy, devices).  Types
follow NumPy where NumPy has a convention (IndexError for axes and
indices, OverflowError for a Python integer that does not fit its dtype)
and the Array API standard otherwise.  After each error the arrays used
are unchanged and nothing is leaked (the leak fixture checks).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import pytest

import minarray as ma

NAN = float("nan")


def a() -> ma.NDArray:
    """The 3x4 float64 array most rows use: 0, 1, ... 11."""
    return ma.arange(12.0).reshape(3, 4)


def i() -> ma.NDArray:
    return ma.arange(6)


@dataclass
class Case:
    call: Callable[[], Any]
    exc: type[BaseException]
    match: str  # a regular expression the message must contain


# NumPy's words for a key that is no index
_INVALID_INDEX = (r"^only integers, slices \(`:`\), ellipsis \(`\.\.\.`\), numpy\.newaxis \(`None`\) and integer or "
                  r"boolean arrays are valid indices$")

CASES: dict[str, Case] = {
    # ---- creation: shapes -----------------------------------------------------
    "zeros: str shape": Case(lambda: ma.zeros("3"), TypeError, r"shape entry must be an integer: 'str' .*\(got '3'\)"),
    "zeros: float dim": Case(lambda: ma.zeros((2.5, 3)), TypeError, r"must be an integer: 'float' .*\(got 2\.5\)"),
    "zeros: NaN dim": Case(lambda: ma.zeros(NAN), TypeError, r"must be an integer: 'float' .*\(got nan\)"),
    "zeros: None shape": Case(lambda: ma.zeros(None), TypeError, r"must be an integer: 'NoneType' .*\(got None\)"),
    "empty: list of str": Case(lambda: ma.empty(["a"]), TypeError, r"must be an integer: 'str' .*\(got 'a'\)"),
    "zeros: negative dim": Case(lambda: ma.zeros((2, -1)), ValueError, r"negative dimensions.*\(2, -1\)"),
    "zeros: dim beyond 64 bits": Case(lambda: ma.zeros((2**64,)), ValueError, r"18446744073709551616.*64 bits"),
    "zeros: 65 dims": Case(lambda: ma.zeros((1,) * 65), ValueError, r"65 dimensions.*at most 64"),
    "zeros: bytes overflow": Case(lambda: ma.zeros((2**32, 2**32)), ValueError, r"too large"),
    "empty: empty but huge": Case(lambda: ma.empty((0, 2**40, 2**40)), ValueError, r"too large"),
    "empty: beyond memory": Case(lambda: ma.empty(2**57), MemoryError, r"unable to allocate.*\(144115188075855872,\)"),
    "eye: negative": Case(lambda: ma.eye(-1), ValueError, r"negative dimensions"),
    "eye: float": Case(lambda: ma.eye(2.5), TypeError, r"must be an integer: 'float' .*\(got 2\.5\)"),
    # ---- creation: dtypes, devices, values ------------------------------------
    "zeros: unknown dtype name": Case(lambda: ma.zeros(3, dtype="float99"), TypeError,
                                      r"unknown dtype 'float99': expected one of bool, int8"),
    "zeros: long double": Case(lambda: ma.zeros(3, dtype="float128"), TypeError,
                               r"no dtype 'float128' \(extended precision\): minarray's widest types are float64"),
    "zeros: dtype object": Case(lambda: ma.zeros(3, dtype=object), TypeError, r"no dtype 'object'.*use NumPy"),
    "zeros: dtype int": Case(lambda: ma.zeros(3, dtype=5), TypeError, r"cannot interpret 5 as a minarray dtype"),
    "zeros: NumPy str dtype": Case(lambda: ma.zeros(3, dtype=np.str_), TypeError, r"no dtype '<U0' \(str\).*use NumPy"),
    "zeros: device cuda": Case(lambda: ma.zeros(3, device="cuda"), ValueError, r"unsupported device 'cuda'"),
    "full: str value": Case(lambda: ma.full(3, "x"), TypeError, r"cannot convert str 'x'"),
    "full: out of range": Case(lambda: ma.full(3, 300, dtype=ma.uint8), OverflowError, r"300 out of bounds for uint8"),
    "full: NaN to int": Case(lambda: ma.full(3, NAN, dtype=ma.int32), ValueError, r"NaN to integer \(int32\)"),
    "full: inf to int": Case(lambda: ma.full(3, math.inf, dtype=ma.int8), OverflowError, r"infinity to integer"),
    "full: complex to float": Case(lambda: ma.full(3, 1j, dtype=ma.float64), TypeError,
                                   r"complex number 1j in an array of float64"),
    # ---- arange, linspace -------------------------------------------------------
    "arange: NaN step": Case(lambda: ma.arange(0, 10, NAN), ValueError, r"must be finite.*step=nan"),
    "arange: NaN start": Case(lambda: ma.arange(NAN, 10), ValueError, r"must be finite.*start=nan"),
    "arange: inf stop": Case(lambda: ma.arange(0, math.inf), ValueError, r"must be finite.*stop=inf"),
    "arange: zero step": Case(lambda: ma.arange(0, 10, 0), ValueError, r"step must not be zero"),
    "arange: str": Case(lambda: ma.arange("10"), TypeError, r"stop must be an int or a float, got str"),
    "arange: complex": Case(lambda: ma.arange(1j), TypeError, r"stop must be an int or a float, got complex"),
    "arange: bool": Case(lambda: ma.arange(True), TypeError, r"not a bool"),
    "arange: length beyond 64 bits": Case(lambda: ma.arange(0, 2**70), ValueError, r"64 bits"),
    "linspace: NaN num": Case(lambda: ma.linspace(0, 1, NAN), TypeError, r"'float' .* integer"),
    "linspace: negative num": Case(lambda: ma.linspace(0, 1, -1), ValueError, r"number of samples.*-1"),
    "linspace: str bound": Case(lambda: ma.linspace("a", 1, 3), TypeError, r"start must be an int or a float"),
    # ---- asarray ------------------------------------------------------------------
    "asarray: ragged lengths": Case(lambda: ma.asarray([[1, 2], [3]]), ValueError, r"inhomogeneous shape"),
    "asarray: ragged depths": Case(lambda: ma.asarray([[1, 2], 3]), ValueError, r"inhomogeneous shape"),
    "asarray: ragged arrays": Case(lambda: ma.asarray([np.ones(2), np.ones(3)]), ValueError,
                                   r"inhomogeneous shape after 1 dimensions\. The detected shape was \(2,\)"),
    "asarray: str": Case(lambda: ma.asarray("abc"), TypeError, r"cannot convert str 'abc'.*'<U3' \(str\).*use NumPy"),
    "asarray: str in list": Case(lambda: ma.asarray([1, "b"]), TypeError, r"cannot convert str 'b'"),
    "asarray: None": Case(lambda: ma.asarray(None), TypeError, r"cannot convert NoneType None"),
    "asarray: None in list": Case(lambda: ma.asarray([1.0, None]), TypeError, r"cannot convert NoneType"),
    "asarray: dict": Case(lambda: ma.asarray({1: 2}), TypeError, r"cannot convert dict"),
    "asarray: set": Case(lambda: ma.asarray({1, 2}), TypeError, r"cannot convert set"),
    "asarray: object": Case(lambda: ma.asarray(object()), TypeError, r"cannot convert object"),
    "asarray: NumPy object array": Case(lambda: ma.asarray(np.array([1, "a"], dtype=object)), TypeError,
                                        r"no dtype '\|O' \(object\).*use NumPy"),
    "asarray: NumPy str array": Case(lambda: ma.asarray(np.array(["a"])), TypeError,
                                     r"no dtype '<U1' \(str\).*use NumPy"),
    "asarray: int beyond 64 bits": Case(lambda: ma.asarray([2**70]), OverflowError, r"does not fit in 64 bits"),
    "asarray: too deep": Case(lambda: ma.asarray(_nested(70)), ValueError, r"deeper than 64"),
    "asarray: out of range": Case(lambda: ma.asarray([300], dtype=ma.int8), OverflowError, r"300 out of bounds"),
    "asarray: unknown dtype": Case(lambda: ma.asarray([1], dtype="int128"), TypeError, r"unknown dtype 'int128'"),
    "asarray: copy=False of a list": Case(lambda: ma.asarray([1, 2], copy=False), ValueError,
                                          r"copy=False is impossible for a list"),
    "asarray: copy=False with a cast": Case(lambda: ma.asarray(i(), dtype=ma.float32, copy=False), ValueError,
                                            r"int64 to float32 needs a copy"),
    # ---- elementwise --------------------------------------------------------------
    "add: str operand": Case(lambda: a() + "x", TypeError, r"unsupported operand.*'str'"),
    "add: None operand": Case(lambda: a() + None, TypeError, r"unsupported operand.*'NoneType'"),
    "add: object": Case(lambda: ma.add(a(), object()), TypeError, r"expected an array or a Python scalar, got object"),
    "add: shape mismatch": Case(lambda: a() + ma.ones((3, 5)), ValueError, r"\(3, 4\), \(3, 5\) cannot be broadcast"),
    "where: shape mismatch": Case(lambda: ma.where(ma.ones(2) > 0, ma.ones(3), 0.0), ValueError,
                                  r"\(2,\), \(3,\) cannot be broadcast"),
    "bitwise_and: floats": Case(lambda: ma.bitwise_and(a(), a()), TypeError, r"bitwise_and .*float64"),
    "invert: float": Case(lambda: ~a(), TypeError, r"bitwise_invert .*float64"),
    "left shift: float": Case(lambda: a() << 1, TypeError, r"bitwise_left_shift .*float64"),
    "iadd: float into int": Case(lambda: _iadd(i(), 1.5), TypeError,
                                 r"Cannot cast ufunc 'add' output from dtype\('float64'\) to dtype\('int64'\) "
                                 r"with casting rule 'same_kind'"),
    "iadd: broadcast grows": Case(lambda: _iadd(ma.ones(3), ma.ones((2, 3))), ValueError,
                                  r"non-broadcastable output operand with shape \(3,\) doesn't match the "
                                  r"broadcast shape \(2,3\)"),
    "clip: str bound": Case(lambda: ma.clip(a(), "a", 1), TypeError, r"got str"),
    # ---- reductions -----------------------------------------------------------------
    "sum: axis out of range": Case(lambda: ma.sum(a(), axis=2), ma.AxisError, r"axis 2 is out of bounds.*dimension 2"),
    "sum: negative axis out of range": Case(lambda: ma.sum(a(), axis=-3), ma.AxisError, r"axis -3 is out of bounds"),
    "sum: float axis": Case(lambda: ma.sum(a(), axis=1.0), TypeError, r"axis must be an integer: 'float' .*got 1\.0"),
    "sum: NaN axis": Case(lambda: ma.sum(a(), axis=NAN), TypeError, r"axis must be an integer: 'float' .*\(got nan\)"),
    "sum: str axis": Case(lambda: ma.sum(a(), axis="0"), TypeError, r"axis must be an integer: 'str'"),
    "sum: repeated axis": Case(lambda: ma.sum(a(), axis=(0, 0)), ValueError, r"repeated axis"),
    "sum: repeated negative axis": Case(lambda: ma.sum(a(), axis=(1, -1)), ValueError, r"repeated axis"),
    "sum: unknown dtype": Case(lambda: ma.sum(a(), dtype="foo"), TypeError, r"unknown dtype 'foo'"),
    "mean: axis out of range": Case(lambda: ma.mean(a(), axis=5), ma.AxisError, r"axis 5"),
    "std: str correction": Case(lambda: ma.std(a(), correction="1"), TypeError, r"correction must be a real number"),
    "argmax: tuple axis": Case(lambda: ma.argmax(a(), axis=(0, 1)), TypeError, r"axis must be an integer: 'tuple'"),
    "argmax: empty": Case(lambda: ma.argmax(ma.zeros((0,))), ValueError, r"argmax of an empty array"),
    "max: empty": Case(lambda: ma.max(ma.zeros((0,))), ValueError, r"zero-size array to reduction operation max"),
    "cumulative_sum: axis": Case(lambda: ma.cumulative_sum(a(), axis=3), ma.AxisError, r"axis 3"),
    "diff: negative n": Case(lambda: ma.diff(a(), n=-1), ValueError, r"n must be non-negative"),
    # ---- indexing --------------------------------------------------------------------
    "getitem: out of range": Case(lambda: a()[3], IndexError, r"index 3 is out of bounds for axis 0 with size 3"),
    "getitem: negative out of range": Case(lambda: a()[-4], IndexError, r"index -4 is out of bounds"),
    "getitem: beyond 64 bits": Case(lambda: a()[2**70], IndexError, _INVALID_INDEX),
    "getitem: second axis": Case(lambda: a()[0, 4], IndexError, r"index 4 is out of bounds for axis 1 with size 4"),
    "getitem: too many": Case(lambda: a()[0, 0, 0], IndexError, r"too many indices.*2-dimensional.*3"),
    "getitem: float": Case(lambda: a()[1.0], IndexError, _INVALID_INDEX),
    "getitem: NaN": Case(lambda: a()[NAN], IndexError, _INVALID_INDEX),
    "getitem: str": Case(lambda: a()["x"], IndexError, _INVALID_INDEX),
    "getitem: two ellipses": Case(lambda: a()[..., ...], IndexError, r"single ellipsis"),
    "getitem: float array": Case(lambda: a()[ma.asarray([1.0])], IndexError,
                                 r"^arrays used as indices must be of integer \(or boolean\) type$"),
    "getitem: array out of range": Case(lambda: a()[ma.asarray([5])], IndexError, r"index 5 is out of bounds"),
    "getitem: list of str": Case(lambda: a()[["a"]], IndexError, _INVALID_INDEX),
    "getitem: mask shape": Case(lambda: a()[ma.ones(5) > 0], IndexError,
                                r"boolean index.*axis is 3 .*boolean axis is 5"),
    "getitem: float slice": Case(lambda: a()[1.5:], TypeError, r"slice indices must be integers"),
    "getitem: zero step": Case(lambda: a()[::0], ValueError, r"slice step cannot be zero"),
    "setitem: read-only": Case(lambda: _set(ma.broadcast_to(ma.ones(3), (2, 3)), 0, 1.0), ValueError,
                               r"assignment destination is read-only"),
    "setitem: shape": Case(lambda: _set(a(), 0, ma.ones(3)), ValueError, r"from shape \(3,\) into shape \(4,\)"),
    "setitem: str": Case(lambda: _set(a(), 0, "x"), TypeError, r"cannot convert str 'x'"),
    "setitem: NaN into int": Case(lambda: _set(i(), 0, NAN), ValueError, r"NaN to integer \(int64\)"),
    "setitem: out of range": Case(lambda: _set(ma.zeros(3, dtype=ma.int8), 0, 1000), OverflowError,
                                  r"1000 out of bounds for int8"),
    "setitem: index out of range": Case(lambda: _set(a(), (0, 9), 1.0), IndexError, r"index 9 is out of bounds"),
    "take: out of range": Case(lambda: ma.take(a(), ma.asarray([7]), axis=0), IndexError, r"index 7 is out of bounds"),
    "nonzero: 0-d": Case(lambda: ma.nonzero(ma.asarray(1.0)), ValueError, r"nonzero is not defined for 0-d"),
    # ---- reshape, astype, manipulation ------------------------------------------------
    "reshape: wrong size": Case(lambda: a().reshape(5, 3), ValueError, r"size 12 into shape \(5, 3\)"),
    "reshape: two -1": Case(lambda: a().reshape(-1, -1), ValueError, r"only specify one unknown dimension"),
    "reshape: negative": Case(lambda: a().reshape(-2, 6), ValueError, r"negative dimensions.*\(-2, 6\)"),
    "reshape: empty but huge": Case(lambda: ma.zeros(0).reshape(0, 2**40, 2**40), ValueError,
                                    r"shape \(0, 1099511627776, 1099511627776\) and 8-byte items is too large"),
    "reshape: huge times zero": Case(lambda: ma.zeros(0).reshape(2**62, 0), ValueError, r"too large"),
    "reshape: huge, copy=True": Case(lambda: ma.zeros(0).reshape((2**62, 0), copy=True), ValueError, r"too large"),
    "reshape: huge view of a view": Case(lambda: ma.zeros((0, 3)).T.reshape(2**61, 0), ValueError,
                                         r"too large"),
    "reshape: float": Case(lambda: a().reshape(2.0, 6), TypeError, r"'float' .* integer"),
    "reshape: NaN": Case(lambda: a().reshape(NAN), TypeError, r"'float' .* integer"),
    "reshape: str": Case(lambda: a().reshape("12"), TypeError, r"'str' .* integer"),
    "reshape: copy=False needs a copy": Case(lambda: a().T.reshape(12, copy=False), ValueError,
                                             r"without copying \(copy=False\)"),
    "astype: unknown name": Case(lambda: a().astype("float99"), TypeError, r"unknown dtype 'float99'"),
    "astype: int": Case(lambda: a().astype(3), TypeError, r"cannot interpret 3"),
    "astype: device": Case(lambda: a().astype(ma.float32, device="gpu"), ValueError, r"unsupported device 'gpu'"),
    "permute_dims: repeated": Case(lambda: ma.permute_dims(a(), (0, 0)), ValueError, r"not a permutation"),
    "permute_dims: out of range": Case(lambda: ma.permute_dims(a(), (0, 2)), ma.AxisError, r"axis 2"),
    "expand_dims: out of range": Case(lambda: ma.expand_dims(a(), axis=5), ma.AxisError, r"axis 5"),
    "squeeze: not size 1": Case(lambda: ma.squeeze(a(), axis=0), ValueError, r"cannot select an axis to squeeze out"),
    "broadcast_to: incompatible": Case(lambda: ma.broadcast_to(a(), (2, 4)), ValueError,
                                       r"shape \(3, 4\) to shape \(2, 4\)"),
    "broadcast_to: negative": Case(lambda: ma.broadcast_to(a(), (-1, 4)), ValueError, r"negative dimensions"),
    "concat: shape mismatch": Case(lambda: ma.concat([a(), ma.ones((2, 3))], axis=0), ValueError,
                                   r"along dimension 1, the array at index 0 has size 4 and the array at index 1 "
                                   r"has size 3"),
    "concat: axis": Case(lambda: ma.concat([a(), a()], axis=2), ma.AxisError, r"axis 2"),
    "concat: nothing": Case(lambda: ma.concat([]), ValueError, r"at least one array"),
    "stack: shape mismatch": Case(lambda: ma.stack([a(), ma.ones(3)]), ValueError, r"same shape"),
    "repeat: negative": Case(lambda: ma.repeat(a(), -1), ValueError, r"repeats must be non-negative"),
    "roll: float shift": Case(lambda: ma.roll(a(), 1.5), TypeError, r"shift must be an integer"),
    "tile: negative": Case(lambda: ma.tile(a(), (-1,)), ValueError, r"repetitions must be non-negative"),
    "tril: 1-d": Case(lambda: ma.tril(i()), ValueError, r"at least 2 dimensions, got 1"),
    "meshgrid: indexing": Case(lambda: ma.meshgrid(i(), indexing="xx"), ValueError, r"'xy' or 'ij', got 'xx'"),
    "sort: axis": Case(lambda: ma.sort(a(), axis=2), ma.AxisError, r"axis 2"),
    "searchsorted: 2-d": Case(lambda: ma.searchsorted(a(), 1.0), ValueError, r"1-d sorted array"),
    # ---- linear algebra ---------------------------------------------------------------
    "matmul: inner mismatch": Case(lambda: a() @ a(), ValueError, r"last dimension of x1 \(4"),
    "matmul: 0-d": Case(lambda: ma.matmul(ma.asarray(1.0), a()), ValueError,
                        r"operand 0 does not have enough dimensions"),
    "vecdot: mismatch": Case(lambda: ma.vecdot(a(), ma.ones(3)), ValueError, r"size 4 in x1.*3 in x2"),
    "tensordot: too many axes": Case(lambda: ma.tensordot(a(), a(), axes=3), ValueError, r"cannot contract 3 axes"),
    # ---- scalars and protocols ------------------------------------------------------------
    "item: size 12": Case(lambda: a().item(), ValueError, r"can only convert an array of size 1 to a Python scalar"),
    "int: size 12": Case(lambda: int(a()), TypeError, r"only 0-dimensional arrays can be converted to Python scalars"),
    "bool: size 12": Case(lambda: bool(a()), ValueError, r"ambiguous"),
    "bool: empty": Case(lambda: bool(ma.ones(0)), ValueError, r"truth value of an empty array is ambiguous"),
    "add: result beyond memory": Case(lambda: ma.broadcast_to(ma.ones(1), (2**40,)) + 1, MemoryError,
                                      r"unable to allocate 8\.00 TiB for an array of shape \(1099511627776,\)"),
    "repeat: result beyond memory": Case(lambda: ma.repeat(ma.ones(2**20), 2**22), MemoryError,
                                         r"unable to allocate 32\.00 TiB"),
    "len: 0-d": Case(lambda: len(ma.asarray(1.0)), TypeError, r"unsized object"),
    "index: float array": Case(lambda: [1, 2][ma.asarray(1.0)], TypeError,
                                r"only integer scalar arrays can be converted to a scalar index"),
    "NDArray()": Case(lambda: ma.NDArray(), TypeError, r"shape"),
    "to_device: cuda": Case(lambda: a().to_device("cuda"), ValueError, r"unsupported device 'cuda'"),
    "result_type: nothing": Case(lambda: ma.result_type(), ValueError, r"at least one array or dtype"),
    "isdtype: unknown kind": Case(lambda: ma.isdtype(ma.float64, "floaty"), ValueError, r"unknown dtype kind 'floaty'"),
    "set_num_threads: 0": Case(lambda: ma.set_num_threads(0), ValueError, r"1 to .* threads, got 0"),
    "set_num_threads: str": Case(lambda: ma.set_num_threads("2"), TypeError, r"got str"),
    "finfo: int": Case(lambda: ma.finfo(ma.int32), ValueError, r"int32 is not a floating-point dtype"),
    "iinfo: float": Case(lambda: ma.iinfo(ma.float32), ValueError, r"float32 is not an integer dtype"),
    # ---- DLPack ------------------------------------------------------------------------------
    "__dlpack__: max_version str": Case(lambda: a().__dlpack__(max_version="1.0"), TypeError,
                                        r"max_version must be a tuple of two integers or None, got '1\.0'"),
    "__dlpack__: max_version 3-tuple": Case(lambda: a().__dlpack__(max_version=(1, 0, 0)), TypeError,
                                            r"max_version must be a tuple of two integers"),
    "__dlpack__: max_version floats": Case(lambda: a().__dlpack__(max_version=(1.0, 0)), TypeError,
                                           r"max_version must be a tuple of two integers or None, got \(1\.0, 0\)"),
    "__dlpack__: max_version huge": Case(lambda: a().__dlpack__(max_version=(2**70, 0)), ValueError,
                                         r"max_version entries are out of range"),
    "__dlpack__: dl_device CUDA": Case(lambda: a().__dlpack__(dl_device=(2, 0)), BufferError,
                                       r"cannot export to device \(2, 0\).*CPU"),
    "__dlpack__: dl_device CPU 1": Case(lambda: a().__dlpack__(dl_device=(1, 1)), BufferError,
                                        r"cannot export to device \(1, 1\)"),
    "__dlpack__: dl_device str": Case(lambda: a().__dlpack__(dl_device="cpu"), TypeError,
                                      r"dl_device must be a tuple of two integers or None, got 'cpu'"),
    "__dlpack__: dl_device huge": Case(lambda: a().__dlpack__(dl_device=(2**70, 0)), ValueError,
                                       r"dl_device entries are out of range"),
    "__dlpack__: stream 1": Case(lambda: a().__dlpack__(stream=1), ValueError, r"stream must be None .* CPU"),
    "__dlpack__: stream -1": Case(lambda: a().__dlpack__(stream=-1), ValueError, r"stream must be None .*got -1"),
    "__dlpack__: positional": Case(lambda: a().__dlpack__(None), TypeError, r"positional argument"),
    "__dlpack__: read-only legacy": Case(lambda: ma.broadcast_to(a(), (2, 3, 4)).__dlpack__(copy=False), BufferError,
                                         r"read-only array as a legacy DLPack capsule"),
    "from_dlpack: int": Case(lambda: ma.from_dlpack(3), TypeError, r"needs an object with __dlpack__.*got int"),
    "from_dlpack: list": Case(lambda: ma.from_dlpack([1.0]), TypeError, r"got list"),
    "from_dlpack: device cuda": Case(lambda: ma.from_dlpack(np.ones(3), device="cuda"), ValueError,
                                     r"unsupported device 'cuda'"),
    "from_dlpack: used capsule": Case(lambda: _used_capsule(), BufferError, r"already consumed"),
    "from_dlpack: a handle": Case(lambda: ma.from_dlpack(a()._h), TypeError,
                                  r"needs an object with __dlpack__.*got minarray\._core\.Handle"),
    "from_dlpack: NumPy str array": Case(lambda: ma.from_dlpack(np.array(["a"])), BufferError, r"DLPack"),
    "from_pointer: str": Case(lambda: ma.from_pointer("x", (3,), ma.float64), TypeError,
                              r"cannot read an address from str"),
    "from_pointer: NULL": Case(lambda: ma.from_pointer(0, (3,), ma.float64), ValueError, r"NULL pointer"),
    "from_pointer: device": Case(lambda: ma.from_pointer(8, (1,), ma.float64, device=(99, 0)), BufferError,
                                 r"unknown DLPack device type 99"),
    "device array: compute": Case(lambda: ma.from_pointer(8, (1,), ma.float64, device=(2, 0)) + 1, RuntimeError,
                                  r"this array lives on cuda:0; minarray computes on the CPU only"),
    "from_pointer: negative address": Case(lambda: ma.from_pointer(-8, (1,), ma.float64), ValueError,
                                           r"never negative, got -8"),
    "from_pointer: span wraps": Case(lambda: ma.from_pointer(2**64 - 8, (2,), ma.float64), BufferError,
                                     r"reaches beyond the address space"),
    "from_pointer: strides overflow": Case(lambda: ma.from_pointer(_ptr(), (3,), ma.float64, strides=(2**62,)),
                                           BufferError, r"strides overflow"),
    "from_pointer: misaligned": Case(lambda: ma.from_pointer(_ptr() + 1, (1,), ma.float64), BufferError,
                                     r"not aligned to its 8-byte elements"),
    "from_pointer: float stride": Case(lambda: ma.from_pointer(_ptr(), (1,), ma.float64, strides=(1.5,)),
                                       TypeError, r"strides entries must be integers, got float 1\.5"),
    "from_pointer: float shape": Case(lambda: ma.from_pointer(_ptr(), (2.0,), ma.float64), TypeError,
                                      r"shape entries must be integers"),
    "from_pointer: size overflow": Case(lambda: ma.from_pointer(_ptr(), (2**40, 2**40), ma.float64), BufferError,
                                        r"too large"),
    "from_pointer: device (1,)": Case(lambda: ma.from_pointer(_ptr(), (1,), ma.float64, device=(1,)), ValueError,
                                      r"device must be a \(device_type, device_id\) pair, got \(1,\)"),
    "from_pointer: device 'cpu'": Case(lambda: ma.from_pointer(_ptr(), (1,), ma.float64, device="cpu"),
                                       ValueError, r"device must be a \(device_type, device_id\) pair"),
    "asarray: misaligned buffer, copy=False": Case(
        lambda: ma.asarray(memoryview(bytearray(129))[1:].cast("d"), copy=False), ValueError,
        r"not aligned to its 8-byte elements.*copy=False"),
    "asdlpack: misaligned buffer": Case(lambda: ma.asdlpack(memoryview(bytearray(129))[1:].cast("d")), BufferError,
                                        r"not aligned to its 8-byte elements"),
    "asdlpack: object": Case(lambda: ma.asdlpack(object()), TypeError, r"asdlpack\(\) needs __dlpack__"),
    "describe: int": Case(lambda: ma.describe(3), TypeError, r"describe\(\) needs a DLPack capsule"),
}


_KEEP = ma.zeros(8)  # memory the from_pointer rows point at (never read: they are refused)


def _ptr() -> int:
    return _KEEP.data_ptr


def _nested(depth: int) -> Any:
    x: Any = 1
    for _ in range(depth):
        x = [x]
    return x


def _iadd(x: ma.NDArray, y: Any) -> ma.NDArray:
    x += y
    return x


def _set(x: ma.NDArray, key: Any, value: Any) -> None:
    x[key] = value


def _used_capsule() -> Any:
    cap = a().__dlpack__(max_version=(1, 0))
    ma.from_dlpack(cap)
    return ma.from_dlpack(cap)


@pytest.mark.parametrize("case", CASES.values(), ids=CASES.keys())
def test_bad_input(case: Case) -> None:
    with pytest.raises(case.exc, match=case.match) as info:
        case.call()
    assert type(info.value) is case.exc, f"a subclass: {type(info.value).__name__}: {info.value}"


def test_inputs_survive_errors() -> None:
    """A failed operation leaves its operands as they were and the library
    working."""
    x = a()
    before = x.tolist()
    for bad in (lambda: x + ma.ones((3, 5)), lambda: x.reshape(5, 3), lambda: ma.sum(x, axis=7),
                lambda: _set(x, (0, 9), 1.0), lambda: _iadd(x, ma.ones((2, 3, 4))), lambda: x[ma.ones(5) > 0]):
        with pytest.raises((ValueError, IndexError)):
            bad()
    assert x.tolist() == before
    assert (x + 1).tolist() == [[v + 1 for v in row] for row in before]
