"""Checked by mypy (tests/dlpack/test_dlpack_typing.py), never run: minarray and
NumPy arrays satisfy minarray.dlpack's protocols, which carry optype's
signatures.  PyTorch's tensors: dlpack_protocols_torch.py."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

import minarray as ma
from minarray._array_object import NDArray
from minarray.dlpack import CanDLPack, CanDLPackDevice, DLDeviceType


def exchange(x: CanDLPack[int, int]) -> CanDLPackDevice[int, int] | None:
    return None


a: NDArray = ma.dlpack.from_numpy(np.zeros(3))
n: npt.NDArray[np.float64] = np.zeros(3)
d = ma.asdlpack(b"abc")

p1: CanDLPack[DLDeviceType, int] = a
p2: CanDLPackDevice[DLDeviceType, int] = a
p3: CanDLPack[int, int] = n
p4: CanDLPackDevice[int, int] = n
p5: CanDLPack[DLDeviceType, int] = d
p6: CanDLPackDevice[DLDeviceType, int] = d
p7: CanDLPack[int, int] = a  # covariant, as optype: DLDeviceType is an int
exchange(a)
exchange(n)

device: tuple[DLDeviceType, int] = a.__dlpack_device__()
back: NDArray = ma.dlpack.from_dlpack(n, device="cpu", copy=None)
