"""The manual's text as its rules see it (tests/test_docs_rules.py): sections between
headings, prose outside code blocks, page mentions, and shown outputs matched
against what a command printed (tests/test_docs_walk.py).

Definitions, the same for every page:

- a *section* is the text between two headings of any level (``#`` to ``######``);
  its *words* are the prose's whitespace-separated tokens holding a letter or a
  digit, tables and lists included, fenced code blocks not;
- a *mention of another page* is the file name of a page of the site
  (``postmortem.md``, ``encodings/cnf.md``, ``docs/limits.md``), in prose or inline
  code, that is not inside a Markdown link ``[text](target)``; or the nav title of a
  page, two words or more, in quotation marks (``"Encoding for external
  solvers"``);
- a *shown output* is a fenced block ``text title="Output"`` right after a shell
  block: its lines are what the shell block printed; a line ``...`` stands for any
  number of lines, ``…`` inside a line for any text.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterator
from dataclasses import dataclass

from docs_blocks import ROOT, FENCE, nav_pages

HEADING = re.compile(r"^#{1,6}\s+(.*?)\s*#*\s*$")
LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\([^)]*\)")
WORD = re.compile(r"\S*[^\W_]\S*")
MD_NAME = re.compile(r"(?<![\w/.-])[\w/.-]+\.md\b")
# 7 to 40 hex digits holding a digit and a letter: "deadbeef" or "2026" are words
HASH = re.compile(r"\b(?=[0-9a-f]*[0-9])(?=[0-9a-f]*[a-f])[0-9a-f]{7,40}\b")
HARNESS = re.compile(r"docs?[ _-]walk|test_docs|docs_blocks|docs_prose|HANABI_DOCS_FULL", re.I)
SKIP_LINK_URL = re.compile(r"\]\([^)]*\)")


@dataclass(frozen=True)
class Section:
    page: str
    line: int          # 1-based line of its heading (1 for the text before the first)
    heading: str
    words: int

    def __str__(self) -> str:
        return f"{self.page}:{self.line} \"{self.heading}\": {self.words} words"


def _lines(page: str) -> Iterator[tuple[int, str, str | None]]:
    """Every line of ``page`` but the fences, with its 1-based number and the indent
    of the fenced code block it is in (None outside one)."""
    fence: str | None = None
    for n, line in enumerate((ROOT / page).read_text(encoding="utf-8").splitlines(), 1):
        m = FENCE.match(line)
        if fence is None and m:
            fence = m.group("indent")
        elif fence is not None and line.strip() == "```":
            fence = None
        else:
            yield n, line, fence


def prose(page: str) -> Iterator[tuple[int, str]]:
    """Every line of ``page`` outside fenced code blocks, with its 1-based number."""
    return ((n, line) for n, line, fence in _lines(page) if fence is None)


def code_lines(page: str) -> Iterator[tuple[int, str]]:
    """Every line inside a fenced code block of ``page`` (the fences' indent removed)."""
    return ((n, line[len(fence):] if line.startswith(fence) else line)
            for n, line, fence in _lines(page) if fence is not None)


def sections(page: str) -> list[Section]:
    found: list[Section] = []
    line, heading, words = 1, "(before the first heading)", 0
    for n, text in prose(page):
        m = HEADING.match(text)
        if m:
            if words or found or line != 1:
                found.append(Section(page, line, heading, words))
            line, heading, words = n, m.group(1), 0
        else:
            words += len(WORD.findall(text))
    found.append(Section(page, line, heading, words))
    return found


def _site_names() -> dict[str, str]:
    """Every way a page of the site is named in the text -> its page."""
    names: dict[str, str] = {}
    for page in nav_pages():
        parts = page.split("/")                     # docs/encodings/cnf.md
        for i in range(len(parts)):
            names.setdefault("/".join(parts[i:]), page)
    return names


def nav_titles() -> list[str]:
    """The nav's titles of two words or more."""
    titles = []
    for line in (ROOT / "mkdocs.yml").read_text(encoding="utf-8").splitlines():
        m = re.match(r"^\s*-\s+([^:]+):\s+\S+\.md\s*$", line)
        if m and len(m.group(1).split()) >= 2:
            titles.append(m.group(1).strip())
    return titles


def plain_mentions(page: str) -> list[tuple[int, str]]:
    """The mentions of other pages (see the module docstring) not made as links."""
    names = _site_names()
    titles = nav_titles()
    quoted = re.compile(r"[\"“](" + "|".join(re.escape(t) for t in titles) + r")[\"”]", re.I)
    found = []
    for n, line in prose(page):
        bare = LINK.sub("", line)
        for m in MD_NAME.finditer(bare):
            name = m.group(0).removeprefix("./").removeprefix("../")
            if name in names and names[name] != page:
                found.append((n, m.group(0)))
        found += [(n, f'"{m.group(1)}"') for m in quoted.finditer(bare)]
    return found


def commit_hashes(page: str) -> list[tuple[int, str]]:
    """Hex strings that read as commit hashes, outside link targets (a link may cite
    an upstream file at a fixed commit; the reader sees its text, not the hash)."""
    text = (ROOT / page).read_text(encoding="utf-8").splitlines()
    return [(n, m.group(0)) for n, line in enumerate(text, 1)
            for m in HASH.finditer(SKIP_LINK_URL.sub("]()", line))]


def harness_wording(page: str) -> list[tuple[int, str]]:
    text = (ROOT / page).read_text(encoding="utf-8").splitlines()
    return [(n, m.group(0)) for n, line in enumerate(text, 1) for m in HARNESS.finditer(line)]


def output_mismatch(shown: str, printed: str) -> str | None:
    """None if ``printed`` matches the shown output, else a diff of the two.

    Each shown line matches one printed line; ``…`` in a shown line matches any text
    (also none), a shown line ``...`` any number of printed lines (also none).
    Trailing spaces and trailing blank lines are ignored on both sides."""
    want = [line.rstrip() for line in shown.rstrip("\n").split("\n")]
    got = [line.rstrip() for line in printed.rstrip("\n").split("\n")] if printed.strip() else []
    patterns = [None if w == "..." else re.compile("".join(".*" if part == "…" else re.escape(part)
                                                           for part in re.split("(…)", w)))
                for w in want]

    def match(i: int, j: int) -> bool:
        # memo on (i, j): a page's block has tens of lines, a few "..." at most
        key = (i, j)
        if key in memo:
            return memo[key]
        if i == len(patterns):
            ok = j == len(got)
        elif patterns[i] is None:
            ok = any(match(i + 1, k) for k in range(j, len(got) + 1))
        else:
            ok = j < len(got) and patterns[i].fullmatch(got[j]) is not None and match(i + 1, j + 1)
        memo[key] = ok
        return ok

    memo: dict[tuple[int, int], bool] = {}
    if match(0, 0):
        return None
    diff = difflib.unified_diff(want, got, "shown", "printed", lineterm="", n=1)
    return "\n".join(list(diff)[:40])
