"""Time per element against size, minarray against NumPy, on log axes.

Small sizes show per-call overhead (time per element falls as 1/n), large
ones show memory bandwidth or arithmetic (a flat floor): the plot shows
where one regime ends and the other begins for each library.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

from benchmarks.report import OK, Result

# Panels: (title, group, predicate on the case name).
PANELS: tuple[tuple[str, str, Callable[[str], bool]], ...] = (
    ("elementwise float32, contiguous", "elementwise", lambda n: "float32 contiguous" in n),
    ("elementwise float64, contiguous", "elementwise", lambda n: "float64 contiguous" in n),
    ("reductions over all elements", "reduction", lambda n: n.endswith(" all")),
    ("allocation (time per byte)", "allocation", lambda n: True),
)


def plot(results: list[Result], path: Path) -> None:
    """Write the figure to `path` (format from its suffix: .png, .svg...)."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise SystemExit(
            "--plot needs matplotlib, which is not installed; install the 'bench' extra "
            "(pip install 'minarray[bench]') or matplotlib itself"
        ) from None

    fig, axes = plt.subplots(2, 2, figsize=(11, 8), constrained_layout=True)
    for ax, (title, group, keep) in zip(axes.flat, PANELS, strict=True):
        series: dict[str, list[Result]] = defaultdict(list)
        for r in results:
            if r.group == group and keep(r.name):
                series[r.name].append(r)
        colors = plt.rcParams["axes.prop_cycle"].by_key()["color"]
        for i, (name, rows) in enumerate(sorted(series.items())):
            rows.sort(key=lambda r: r.size)
            label = name.removesuffix(" all") if group == "reduction" else name.split()[0]
            color = colors[i % len(colors)]
            for side, style in (("minarray", "-o"), ("reference", "--x")):
                pts = [(r.size, getattr(r, side).median / r.size) for r in rows
                       if getattr(r, side) is not None and r.status in (OK, "missing")]
                if pts:
                    xs, ys = zip(*pts, strict=True)
                    ax.plot(xs, ys, style, color=color, markersize=4,
                            label=f"{label} ({'minarray' if side == 'minarray' else 'numpy'})")
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_title(title, fontsize=10)
        ax.set_xlabel("bytes" if group == "allocation" else "elements")
        ax.set_ylabel("seconds per byte" if group == "allocation" else "seconds per element")
        ax.grid(True, which="major", alpha=0.3)
        if series:
            ax.legend(fontsize=7, ncol=2)
        else:
            ax.text(0.5, 0.5, "no data", ha="center", va="center", transform=ax.transAxes)
    fig.suptitle("minarray (solid) vs NumPy (dashed): time per element", fontsize=11)
    save_figure(fig, path)


def save_figure(fig: Any, path: Path) -> None:
    """Write `fig` to `path` and close it; a PNG gets a 64-colour palette,
    which keeps the file small enough to commit with the docs (Pillow comes
    with matplotlib)."""
    import matplotlib.pyplot as plt

    if path.suffix.lower() == ".png":
        from io import BytesIO

        from PIL import Image

        buf = BytesIO()
        fig.savefig(buf, format="png", dpi=72)
        with Image.open(buf) as im:
            im.convert("RGB").quantize(colors=64).save(path, optimize=True)
    else:
        fig.savefig(path, dpi=72)
    plt.close(fig)
