"""A summary table of an API page, built from what autodoc put on it.

``{api-summary}`` on a reference page becomes a table with one row per
function or class the page documents: its name, linked to its entry, and
the first sentence of its docstring.  The table is built after autodoc has
run (on ``doctree-read``), from the page's own entries, so it lists exactly
what the page shows, in the same order, and cannot disagree with it; the
entries' own docstrings are the only text.
"""

from __future__ import annotations

import re
from typing import Any

from docutils import nodes
from sphinx import addnodes
from sphinx.util.docutils import SphinxDirective

KINDS = ("function", "class", "exception", "data")
SENTENCE = re.compile(r"^(.+?[.!?])(?:\s|$)", re.S)


class api_summary(nodes.General, nodes.Element):  # docutils names its node classes in lower case
    """Where the table goes; replaced once the page's entries exist."""


class ApiSummary(SphinxDirective):
    has_content = False

    def run(self) -> list[nodes.Node]:
        return [api_summary()]


def _first_sentence(desc: addnodes.desc) -> str:
    content = next((c for c in desc.children if isinstance(c, addnodes.desc_content)), None)
    para = next((c for c in content.children if isinstance(c, nodes.paragraph)), None) if content else None
    if para is None:
        return ""
    text = " ".join(para.astext().split())
    m = SENTENCE.match(text)
    return m.group(1) if m else text


def _top_level(desc: addnodes.desc) -> bool:
    """Not a method or attribute inside a class's entry."""
    parent = desc.parent
    while parent is not None:
        if isinstance(parent, addnodes.desc_content):
            return False
        parent = parent.parent
    return True


def _entry(*children: nodes.Node) -> nodes.entry:
    entry = nodes.entry()
    entry += nodes.paragraph("", "", *children)
    return entry


def fill(app: Any, doctree: nodes.document) -> None:
    for placeholder in list(doctree.findall(api_summary)):
        rows = []
        for desc in doctree.findall(addnodes.desc):
            if desc.get("domain") != "py" or desc.get("objtype") not in KINDS or not _top_level(desc):
                continue
            sig = next((c for c in desc.children if isinstance(c, addnodes.desc_signature)), None)
            if sig is None or not sig.get("ids"):
                continue  # a :no-index: entry has no anchor to link to
            name = sig.get("fullname") or sig["ids"][0]
            link = nodes.reference("", "", nodes.literal(text=name), internal=True, refid=sig["ids"][0])
            row = nodes.row()
            row += _entry(link)
            row += _entry(nodes.Text(_first_sentence(desc)))
            rows.append(row)
        if not rows:
            placeholder.replace_self([])
            continue
        # colwidths-auto: the browser sizes the columns (the names take what they need)
        table = nodes.table(classes=["api-summary", "colwidths-auto"])
        group = nodes.tgroup(cols=2)
        table += group
        group += nodes.colspec(colwidth=30)
        group += nodes.colspec(colwidth=70)
        body = nodes.tbody()
        body.extend(rows)
        group += body
        placeholder.replace_self(table)


def setup(app: Any) -> dict[str, Any]:
    app.add_node(api_summary)
    app.add_directive("api-summary", ApiSummary)
    app.connect("doctree-read", fill)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
