"""Checked by mypy (tests/dlpack/test_dlpack_typing.py), never run: PyTorch
tensors satisfy minarray.dlpack's protocols."""

from __future__ import annotations

import enum

import torch

import minarray as ma
from minarray._array_object import NDArray
from minarray.dlpack import CanDLPack, CanDLPackDevice, DLDeviceType


def exchange(x: CanDLPack[DLDeviceType, int]) -> CanDLPackDevice[enum.IntEnum, int] | None:
    return None


t: torch.Tensor = torch.zeros(3)
# torch types dl_device as tuple[IntEnum, int], which DLDeviceType fits
p1: CanDLPack[DLDeviceType, int] = t
p2: CanDLPackDevice[int, int] = t
p3: CanDLPackDevice[enum.IntEnum, int] = t
exchange(t)
exchange(ma.zeros(3))
back: NDArray = ma.dlpack.from_dlpack(t)
