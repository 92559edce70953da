"""``python -m minarray``: a one-screen tour of DLPack exchange.

An array goes to NumPy and (if installed) PyTorch and back without a copy,
with the DLPack fields a consumer reads printed by ``ma.dlpack.describe``.
"""

from __future__ import annotations

import importlib.util
import sys

import minarray as ma


def _fields(obj: object) -> str:
    info = ma.dlpack.describe(obj)
    t = info.tensor
    assert t is not None
    d = t.dl_tensor
    return (f"    capsule {info.capsule_name!r}, DLPack {t.version}, flags {int(t.flags)}\n"
            f"    data {d.data:#x}, device {d.device}, dtype {d.dtype}\n"
            f"    shape {d.shape}, strides {d.strides} (elements), byte_offset {d.byte_offset}")


def main() -> int:
    print(f"minarray {ma.__version__}: arrays that speak DLPack {'.'.join(map(str, ma.dlpack.DLPACK_VERSION))}\n")
    a = ma.arange(6, dtype="float32").reshape(2, 3)
    print(f"a = ma.arange(6, dtype=ma.float32).reshape(2, 3)  at {a.data_ptr:#x}")
    print("  what a DLPack consumer sees:")
    print(_fields(a))
    if importlib.util.find_spec("numpy") is None:
        print("\n(install NumPy to see the exchange: pip install 'minarray[numpy]')")
        return 0
    import numpy as np  # optional: NumPy is not a dependency of minarray

    n = np.from_dlpack(a)
    print(f"\nn = np.from_dlpack(a)      at {n.__array_interface__['data'][0]:#x}  (same memory)")
    if n.flags.writeable:
        n[0, 0] = 42
        print(f"n[0, 0] = 42  ->  a[0, 0] = {a[0, 0].item()}")
    else:
        # NumPy before 2.1 takes only legacy capsules, which cannot say
        # whether writing is allowed: it imports every one read-only
        a[0, 0] = 42
        print(f"a[0, 0] = 42  ->  n[0, 0] = {n[0, 0]}  (NumPy {np.__version__} imports DLPack read-only)")
    t_view = a.T
    print(f"a.T goes as strides {np.from_dlpack(t_view).strides} bytes, still no copy")

    if importlib.util.find_spec("torch") is not None:
        # optional: PyTorch is not a dependency of minarray
        from torch.utils.dlpack import from_dlpack as torch_from_dlpack

        t = torch_from_dlpack(a)
        t += 1
        back = ma.from_dlpack(t)  # through PyTorch's C exchange API
        print(f"\nt = torch.from_dlpack(a); t += 1   at {t.data_ptr():#x}")
        print(f"ma.from_dlpack(t)          at {back.data_ptr:#x}: {back.tolist()}")
        print("  PyTorch's export, as minarray reads it:")
        print(_fields(t))
    else:
        print("\n(PyTorch not installed: skipping the torch leg)")

    x = np.linspace(0, 1, 4)
    v = ma.from_numpy(x)
    print(f"\nma.from_numpy(x): no capsule, same memory {v.data_ptr == x.__array_interface__['data'][0]}, "
          f"writeable {v.flags.writeable}")
    print(f"ma.asdlpack(b'Hi!') -> np.from_dlpack: {np.from_dlpack(ma.asdlpack(b'Hi!')).tolist()} (read-only)")
    print("\nMore: python -m minarray.testing.dlpack runs the conformance matrix.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
