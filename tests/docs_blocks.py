"""The shell blocks of the manual (README.md, then the pages of mkdocs.yml's nav in
order), for tests/test_docs_walk.py and tests/test_docs.py.

A fenced block in ``sh``, ``bash``, ``shell`` or ``console`` is run by the docs walk,
in order, in one scratch folder.  Its ``title="..."`` (shown above the block on the
site) may say otherwise, to the reader:

- ``title="Full size: ..."``: a long run (minutes to an hour): the walk runs it only
  with ``HANABI_DOCS_FULL=1`` (and ``--runslow``); the page gives a smaller version
  of it in an ordinary block before it.
- ``title="Needs ..."``: it needs what a test does not have (``Needs a dask
  cluster``, ``Needs a fresh clone: it makes the .venv``); the walk reports it, and
  tests/test_docs.py bounds how many there are.

What a block prints, when the page shows it, is the block right after it (blank
lines between at most): a ``text`` block titled ``Output``.  The walk checks it
against what the block printed (tests/docs_prose.py says how it matches;
``python tests/docs_outputs.py PAGE`` prints what a page's blocks print).

A block that expects a command to fail says so in the command (``|| test $? -eq 20``),
as ``make demo`` does: ``solve`` exits 10 (WINNABLE) or 20 (UNWINNABLE) on purpose.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SHELL = {"sh", "bash", "shell", "console"}
FENCE = re.compile(r"^(?P<indent>[ \t]*)```(?P<lang>[\w+-]*)(?P<info>[^\n]*)$")
TITLE = re.compile(r'title="([^"]*)"')


@dataclass(frozen=True)
class Block:
    page: str          # path relative to the root
    line: int          # 1-based line of the opening fence
    lang: str
    title: str
    code: str
    end: int = 0       # 1-based line of the closing fence
    output: str | None = None   # the shown output after it (a text block titled Output)

    @property
    def kind(self) -> str:
        """``run``, ``full`` or ``skip`` (see the module docstring)."""
        if self.title.lower().startswith(("needs ", "not run")):
            return "skip"
        if self.title.lower().startswith("full size"):
            return "full"
        return "run"

    def __str__(self) -> str:
        return f"{self.page}:{self.line}"


def nav_pages() -> list[str]:
    """The pages of mkdocs.yml's nav, in order, as paths relative to the root."""
    pages: list[str] = []
    for line in (ROOT / "mkdocs.yml").read_text(encoding="utf-8").splitlines():
        m = re.match(r"^\s*-\s+(?:[^:]+:\s+)?(\S+\.md)\s*$", line)
        if m:
            pages.append("docs/" + m.group(1))
    return pages


def manual() -> list[str]:
    """README.md, then every page of the site in nav order."""
    return ["README.md", *nav_pages()]


def blocks(page: str) -> list[Block]:
    """Every fenced block of a page, with its language and title."""
    found: list[Block] = []
    lines = (ROOT / page).read_text(encoding="utf-8").splitlines()
    i = 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        indent, lang, info = m.group("indent"), m.group("lang"), m.group("info")
        title = TITLE.search(info)
        body: list[str] = []
        j = i + 1
        while j < len(lines) and lines[j].strip() != "```":
            body.append(lines[j][len(indent):] if lines[j].startswith(indent) else lines[j])
            j += 1
        found.append(Block(page, i + 1, lang, title.group(1) if title else "", "\n".join(body) + "\n",
                           end=j + 1))
        i = j + 1
    return [_with_output(b, found[k + 1] if k + 1 < len(found) else None, lines)
            for k, b in enumerate(found)]


def _with_output(block: Block, after: Block | None, lines: list[str]) -> Block:
    if (block.lang in SHELL and after is not None and after.lang == "text"
            and after.title == "Output"
            and all(not line.strip() for line in lines[block.end:after.line - 1])):
        return replace(block, output=after.code)
    return block


def shell_blocks() -> list[Block]:
    return [b for page in manual() for b in blocks(page) if b.lang in SHELL]
