"""A Griffe extension for the API reference (mkdocs.yml): the docstrings' doctest
examples (a ``>>>`` line up to the next blank line) are shown as Python console
code blocks, and Sphinx's cross-reference roles (``:class:`Deck```) as code.

The docstrings are plain text with doctests (``tests/test_api.py`` runs them); read
as Markdown, a ``>>>`` line is a nested quote and ``[x][:2]`` a reference link to an
anchor that does not exist, which ``mkdocs build --strict`` refuses.
"""

from __future__ import annotations

import re
from typing import Any

import griffe

FENCE = "```"
ROLE = re.compile(r":(?:func|class|meth|mod|attr|data|exc|obj):`~?([^`]+)`")


def fence_doctests(text: str) -> str:
    """``text`` with each doctest example (from a ``>>>`` line to the next blank
    line) inside a ``pycon`` fence, a prose line that starts with ``>`` escaped and
    a Sphinx role (``:func:`solve```) left as its code;
    text already inside a fence is left as it is."""
    out: list[str] = []
    in_fence = in_example = False
    for line in text.splitlines():
        stripped = line.strip()
        if in_example and not stripped:
            out.append(FENCE)
            in_example = False
        elif not in_example and not in_fence and stripped.startswith(">>>"):
            out.append(FENCE + "pycon")
            in_example = True
        elif not in_example and stripped.startswith(FENCE):
            in_fence = not in_fence
        elif not in_example and not in_fence and stripped.startswith(">"):
            line = line.replace(">", "\\>", 1)    # a wrapped "(r >= 2, >= 3 ...)", not a quote
        if not in_example and not in_fence:
            line = ROLE.sub(r"`\1`", line)
        out.append(line)
    if in_example:
        out.append(FENCE)
    return "\n".join(out)


class DoctestFences(griffe.Extension):
    def on_instance(self, *, node: Any, obj: griffe.Object, agent: Any, **kwargs: Any) -> None:
        if obj.docstring is not None:
            obj.docstring.value = fence_doctests(obj.docstring.value)
