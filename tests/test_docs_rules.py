"""The manual's rules, on README.md and every page of mkdocs.yml's nav (the words
are defined in tests/docs_prose.py).  Each test checks every page and reports every
failure at once, page, line and what is wrong, so one run lists all there is to fix.

- a section (between two headings) holds at most 600 words of prose: a reader can
  navigate to what they need;
- no commit hash: the history of the code is in CHANGELOG.md;
- no wording of the test harness: the pages speak to a reader;
- every mention of another page is a link;
- no line of a code block is wider than 88 characters: it fits the column;
- a shown output (``text title="Output"``) follows a shell block, which the docs walk
  (tests/test_docs_walk.py) runs and matches against it.
"""

from __future__ import annotations

import pytest
from docs_blocks import SHELL, blocks, manual
from docs_prose import (Section, code_lines, commit_hashes, harness_wording, output_mismatch,
                        plain_mentions, sections)

MAX_WORDS = 600
MAX_CODE_WIDTH = 88


def _report(what: str, found: list[str]) -> None:
    if found:
        pytest.fail(f"{len(found)} {what}:\n  " + "\n  ".join(found), pytrace=False)


def test_no_section_is_over_600_words():
    long: list[Section] = [s for page in manual() for s in sections(page) if s.words > MAX_WORDS]
    _report(f"sections over {MAX_WORDS} words (split them under headings)",
                               [str(s) for s in long])


def test_no_commit_hash():
    found = [f"{page}:{n}: {h}" for page in manual() for n, h in commit_hashes(page)]
    _report("commit hashes (history goes to CHANGELOG.md)", found)


def test_no_harness_wording():
    found = [f"{page}:{n}: {w!r}" for page in manual() for n, w in harness_wording(page)]
    _report("test-harness words in user pages (a block that cannot run "
                                "says why to the reader: title=\"Needs ...\")", found)


def test_every_mention_of_a_page_is_a_link():
    found = [f"{page}:{n}: {m}" for page in manual() for n, m in plain_mentions(page)]
    _report("mentions of a page as plain text (make each a link: "
                                "[the CNF note](encodings/cnf.md))", found)


def test_code_blocks_fit_the_column():
    found = [f"{page}:{n}: {len(line)} characters" for page in manual()
             for n, line in code_lines(page) if len(line) > MAX_CODE_WIDTH]
    _report(f"code lines over {MAX_CODE_WIDTH} characters (wrap commands "
                                "with ' \\' lines; '…' shortens an output line)", found)


def test_every_shown_output_follows_a_command():
    """An Output block the walk would never compare is an unchecked claim."""
    found = []
    for page in manual():
        page_blocks = blocks(page)
        for before, block in zip([None, *page_blocks], page_blocks):
            if block.lang == "text" and block.title == "Output":
                if before is None or before.lang not in SHELL or before.output is None:
                    found.append(f"{block}: no shell block right before it")
                elif before.kind != "run":
                    found.append(f"{block}: after a block that is not run ({before.title})")
    _report("shown outputs that no command prints", found)


# The checks themselves, on made-up text: each must be able to fail.

@pytest.mark.parametrize("shown, printed, ok", [
    ("s WINNABLE\n", "s WINNABLE\n", True),
    ("s WINNABLE\n", "s UNWINNABLE\n", False),
    ("c time: … s\ns WINNABLE\n", "c time: 0.005 s\ns WINNABLE\n", True),
    ("c time: … s\n", "c time: 0.005 s\nextra\n", False),
    ("a\n...\nz\n", "a\nb\nc\nz\n", True),
    ("a\n...\nz\n", "a\nz\n", True),
    ("a\n...\nz\n", "a\nb\n", False),
    ("...\nlast\n", "first\nlast\n", True),
    ("nodes = 45\n", "nodes = 46\n", False),
    ("a complete game of 44 turns\n", "a complete game of 45 turns\n", False),
    ("x (1.5)\n", "x (1.5)  \n\n", True),               # trailing spaces and blank lines
    ("a.b\n", "aXb\n", False),                          # a shown line is text, not a pattern
])
def test_output_matching(shown, printed, ok):
    assert (output_mismatch(shown, printed) is None) == ok


def test_the_checks_see_what_they_look_for(tmp_path, monkeypatch):
    import docs_prose
    page = tmp_path / "docs" / "page.md"
    page.parent.mkdir()
    words = " ".join(["word"] * 601)
    page.write_text(f"# Title\n\n{words}\n\n```sh\n{'x' * 89}\n```\n\n## Next\n\nshort, see "
                    "encodings/cnf.md and [the CNF note](encodings/cnf.md), as \"Deciding a "
                    "deck\" says; fixed in 1a2b3c4d; not run by the docs walk\n",
                    encoding="utf-8")
    monkeypatch.setattr(docs_prose, "ROOT", tmp_path)
    monkeypatch.setattr(docs_prose, "nav_pages",
                        lambda: ["docs/page.md", "docs/encodings/cnf.md", "docs/deciding.md"])
    monkeypatch.setattr(docs_prose, "nav_titles", lambda: ["Deciding a deck"])
    assert [(s.heading, s.words) for s in sections("docs/page.md")] == [("Title", 601),
                                                                         ("Next", 21)]
    assert [len(line) for _, line in code_lines("docs/page.md")] == [89]
    assert plain_mentions("docs/page.md") == [(11, "encodings/cnf.md"), (11, '"Deciding a deck"')]
    assert commit_hashes("docs/page.md") == [(11, "1a2b3c4d")]
    assert [w.lower() for _, w in harness_wording("docs/page.md")] == ["docs walk"]
