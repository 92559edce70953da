"""The C ABI of csrc/dlpack.h against the DLPack 1.3 layout (x86-64 / any
LP64 target: sizes and offsets from the spec's structs), and the Python
enums against the C enums."""

from __future__ import annotations

import pytest

import minarray as ma
from minarray._native import ffi, lib
from minarray.dlpack import DLDataTypeCode, DLDeviceType, DLPackFlags

# (struct, size, {field: offset}) as the DLPack header lays them out.
LAYOUT = [
    ("DLPackVersion", 8, {"major": 0, "minor": 4}),
    ("DLDevice", 8, {"device_type": 0, "device_id": 4}),
    ("DLDataType", 4, {"code": 0, "bits": 1, "lanes": 2}),
    ("DLTensor", 48, {"data": 0, "device": 8, "ndim": 16, "dtype": 20, "shape": 24, "strides": 32,
                      "byte_offset": 40}),
    ("DLManagedTensor", 64, {"dl_tensor": 0, "manager_ctx": 48, "deleter": 56}),
    ("DLManagedTensorVersioned", 80, {"version": 0, "manager_ctx": 8, "deleter": 16, "flags": 24,
                                      "dl_tensor": 32}),
    ("DLPackExchangeAPIHeader", 16, {"version": 0, "prev_api": 8}),
    ("DLPackExchangeAPI", 56, {"header": 0, "managed_tensor_allocator": 16,
                               "managed_tensor_from_py_object_no_sync": 24,
                               "managed_tensor_to_py_object_no_sync": 32,
                               "dltensor_from_py_object_no_sync": 40, "current_work_stream": 48}),
]


@pytest.mark.skipif(ffi.sizeof("void *") != 8, reason="offsets are those of 64-bit targets")
@pytest.mark.parametrize(("struct", "size", "offsets"), LAYOUT, ids=[s for s, _, _ in LAYOUT])
def test_struct_layout(struct: str, size: int, offsets: dict[str, int]) -> None:
    assert ffi.sizeof(struct) == size
    for name, off in offsets.items():
        assert ffi.offsetof(struct, name) == off, f"{struct}.{name}"


def _width(struct: str, field: str) -> int:
    return int(ffi.sizeof(dict(ffi.typeof(struct).fields)[field].type))


def test_field_widths() -> None:
    assert ffi.sizeof("DLDeviceType") == 4  # an int32 inside DLDevice
    assert _width("DLTensor", "ndim") == 4 and _width("DLTensor", "byte_offset") == 8
    assert [_width("DLDataType", f) for f in ("code", "bits", "lanes")] == [1, 1, 2]
    assert _width("DLManagedTensorVersioned", "flags") == 8
    assert _width("DLPackVersion", "major") == 4


def test_version() -> None:
    assert (lib.DLPACK_MAJOR_VERSION, lib.DLPACK_MINOR_VERSION) == (1, 3)
    assert ma.dlpack.DLPACK_VERSION == (1, 3)


DEVICE_TYPES = {
    "kDLCPU": 1, "kDLCUDA": 2, "kDLCUDAHost": 3, "kDLOpenCL": 4, "kDLVulkan": 7, "kDLMetal": 8, "kDLVPI": 9,
    "kDLROCM": 10, "kDLROCMHost": 11, "kDLExtDev": 12, "kDLCUDAManaged": 13, "kDLOneAPI": 14,
    "kDLWebGPU": 15, "kDLHexagon": 16, "kDLMAIA": 17, "kDLTrn": 18,
}
TYPE_CODES = {
    "kDLInt": 0, "kDLUInt": 1, "kDLFloat": 2, "kDLOpaqueHandle": 3, "kDLBfloat": 4, "kDLComplex": 5,
    "kDLBool": 6, "kDLFloat8_e3m4": 7, "kDLFloat8_e4m3": 8, "kDLFloat8_e4m3b11fnuz": 9,
    "kDLFloat8_e4m3fn": 10, "kDLFloat8_e4m3fnuz": 11, "kDLFloat8_e5m2": 12, "kDLFloat8_e5m2fnuz": 13,
    "kDLFloat8_e8m0fnu": 14, "kDLFloat6_e2m3fn": 15, "kDLFloat6_e3m2fn": 16, "kDLFloat4_e2m1fn": 17,
}


def test_device_types_match_c_and_spec() -> None:
    for name, value in DEVICE_TYPES.items():
        assert getattr(lib, name) == value, name
    assert sorted(int(d) for d in DLDeviceType) == sorted(DEVICE_TYPES.values())
    assert ma.DLDeviceType is DLDeviceType


def test_type_codes_match_c_and_spec() -> None:
    for name, value in TYPE_CODES.items():
        assert getattr(lib, name) == value, name
    assert sorted(int(c) for c in DLDataTypeCode) == sorted(TYPE_CODES.values())
    assert DLDataTypeCode is ma._dtypes.DLDataTypeCode  # one table


def test_flags() -> None:
    assert lib.DLPACK_FLAG_BITMASK_READ_ONLY == DLPackFlags.READ_ONLY == 1
    assert lib.DLPACK_FLAG_BITMASK_IS_COPIED == DLPackFlags.IS_COPIED == 2
    assert lib.DLPACK_FLAG_BITMASK_IS_SUBBYTE_TYPE_PADDED == DLPackFlags.IS_SUBBYTE_TYPE_PADDED == 4


def test_dtype_codes_follow_the_spec() -> None:
    assert ma.bool.dlpack == (6, 8, 1)
    assert ma.complex64.dlpack == (5, 64, 1)
    assert ma.bfloat16.dlpack == (4, 16, 1)
    assert ma.float32.dlpack == (2, 32, 1)
    assert ma.uint16.dlpack == (1, 16, 1)
    assert ma.int64.dlpack == (0, 64, 1)
