"""DLPack device types: a leaf module, so that both ``ndarray`` (for
``__dlpack_device__``) and ``dlpack`` can import it without a cycle.
Public spelling: ``minarray.DLDeviceType`` / ``minarray.dlpack.DLDeviceType``."""

from __future__ import annotations

import enum
from typing import Final

from minarray._native import core

__all__ = ["DLDeviceType", "CPU_DEVICE"]


class DLDeviceType(enum.IntEnum):
    """``DLDeviceType`` of the DLPack 1.3 header (dlpack.h), every value."""

    CPU = 1
    CUDA = 2
    CUDA_HOST = 3  # pinned host memory (cudaMallocHost): CPU-accessible
    OPENCL = 4
    VULKAN = 7
    METAL = 8
    VPI = 9
    ROCM = 10
    ROCM_HOST = 11  # pinned host memory (hipMallocHost): CPU-accessible
    EXT_DEV = 12
    CUDA_MANAGED = 13  # unified memory (cudaMallocManaged): CPU-accessible
    ONE_API = 14
    WEBGPU = 15
    HEXAGON = 16
    MAIA = 17
    TRN = 18


# What __dlpack_device__ returns for every minarray array.
CPU_DEVICE: Final[tuple[DLDeviceType, int]] = (DLDeviceType.CPU, 0)

# Memory the CPU can address directly; minarray can view these in place.
CPU_ACCESSIBLE: Final[frozenset[int]] = frozenset(
    {DLDeviceType.CPU, DLDeviceType.CUDA_HOST, DLDeviceType.ROCM_HOST, DLDeviceType.CUDA_MANAGED}
)

# NDArray.__dlpack_device__ is core.dlpack_device: CPU_DEVICE itself for
# CPU arrays, (DLDeviceType, id) for device arrays (csrc/py/dlpack_device.c).
core.dlpack_device_setup(CPU_DEVICE, DLDeviceType)
