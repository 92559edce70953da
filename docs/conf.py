"""Sphinx configuration for the minarray documentation.

Prose is MyST Markdown; the API reference comes from the docstrings through
autodoc.  Nothing here reaches the network (no intersphinx), so the build
works offline and `sphinx-build -W` fails only on problems in this tree.
Autodoc imports minarray from the checkout, so build the C core first
(`pip install -e .` or `python csrc/build_ffi.py`).

The figures are drawn at every build by docs/_ext/figures.py from the
running library (and the recorded benchmark results in docs/_data/), into
docs/_generated/, which is not committed: a figure cannot go stale.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "docs" / "_ext"))

project = "minarray"
author = "The minarray developers"
copyright = "the minarray developers"

import minarray  # noqa: E402 - after the path is set

release = minarray.__version__
version = release

extensions = [
    "myst_parser",
    "sphinx.ext.autodoc",
    # numpydoc, as NumPy's reference uses: it renders a docstring as written
    # (napoleon read a property's "What it is: ..." first line as a type).
    "numpydoc",
    "figures",  # docs/_ext/figures.py: the SVG figures, drawn from live data
    "apisummary",  # docs/_ext/apisummary.py: a table of each API page's entries
    "layers",  # docs/_ext/layers.py: the architecture figure, read from the source
]

# .rst too: numpydoc loads autosummary, which writes reST stubs (it warns,
# and -W fails, when it may not).
source_suffix = {".md": "markdown", ".rst": "restructuredtext"}
root_doc = "index"
exclude_patterns = ["_build", "_data", "_ext"]

# Headings get anchors so pages can link to sections: [text](page.md#slug).
myst_heading_anchors = 3
myst_enable_extensions = ["colon_fence"]

autodoc_default_options = {
    "members": True,
    # Public functions without a docstring are still listed (with their
    # signature), so the reference is complete even where prose is missing.
    "undoc-members": True,
}
autodoc_member_order = "bysource"
# The page's contents (right) nest members under their class already: show
# `CPU`, not `DLDeviceType.CPU`, so long names fit the column whole.
toc_object_entries_show_parents = "hide"
# minarray.dask registers minarray with Dask when it is imported, so its API
# page needs dask importable; the `docs` extra does not install Dask (the
# page documents minarray's functions, not Dask's), so autodoc stands in a
# mock for it while it imports the module.
autodoc_mock_imports = ["dask"]
autodoc_typehints = "signature"
# autodoc lists the members (":members:" on each page); numpydoc's own
# member tables would list them twice.
numpydoc_show_class_members = False
numpydoc_xref_param_type = False

# NumPy's own theme, so the pages look like the rest of the ecosystem's.
html_theme = "pydata_sphinx_theme"
html_title = f"minarray {release}"
html_static_path = ["_static"]
html_css_files = ["minarray.css"]
html_theme_options = {
    # Nothing that needs the network: no icon links, no version switcher.
    "navbar_end": ["theme-switcher", "navbar-icon-links"],
    # The search as a button: with the full field the bar takes two rows at 1280 px.
    "navbar_persistent": ["search-button"],
    "show_toc_level": 2,
    # Four titles fit the navigation bar on one line at 1280 px; the rest
    # go under "More".
    "header_links_before_dropdown": 4,
    "navigation_with_keys": False,
    "footer_start": ["copyright"],
    "footer_end": ["sphinx-version", "theme-version"],
    "secondary_sidebar_items": ["page-toc"],
}
# Pages with no sub-pages have no section navigation to show: no left
# sidebar there, and the article gets its width.
html_sidebars: dict[str, list[str]] = {
    page: []
    for page in ("index", "getting-started", "cheatsheet", "io", "worked-example", "conformance", "performance",
                 "reliability")
}
