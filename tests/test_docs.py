"""The manual's shape, fast: README within 400 lines with the CI contract, no
development log in any page, one spelling of the command, the module map in step
with the tree, few blocks the docs walk cannot run, CITATION.cff's required keys.
(The site itself is built with --strict by `make docs`; the blocks are run by
tests/test_docs_walk.py.)"""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest
from docs_blocks import ROOT, blocks, manual, nav_pages, shell_blocks

DEV_LOG = re.compile(r"this round|\bissue \d|\bissues? #?\d|owned by|main before|targets of issue|"
                     r"other engineers|previous round|earlier round", re.I)


def test_readme_is_short_and_keeps_the_ci_contract():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(text.splitlines()) <= 400
    # The two set-up commands, exactly as the Makefile and .ci/run know them.
    assert "make demo   #" in text and "make test   #" in text


def test_every_nav_page_exists_and_every_page_is_in_the_nav():
    pages = nav_pages()
    assert len(pages) == len(set(pages))
    for page in pages:
        assert (ROOT / page).is_file(), page
    # Every Markdown page of the site is in the nav (mkdocs --strict also warns).
    # (docs/encodings is a link to encodings/: walked through, as mkdocs does)
    on_disk = {os.path.relpath(os.path.join(folder, name), ROOT)
               for folder, _, names in os.walk(ROOT / "docs", followlinks=True)
               for name in names if name.endswith(".md")}
    assert on_disk <= set(pages), on_disk - set(pages)


@pytest.mark.parametrize("page", manual())
def test_no_development_log_in_user_docs(page):
    text = (ROOT / page).read_text(encoding="utf-8")
    found = [(n, line) for n, line in enumerate(text.splitlines(), 1) if DEV_LOG.search(line)]
    assert found == [], f"{page}: development log belongs in CHANGELOG.md: {found}"
    assert "<!-- section owned" not in text


@pytest.mark.parametrize("page", manual())
def test_one_spelling_of_the_command(page):
    """`hanabi-cp` and `python`, after `source .venv/bin/activate`; never the path
    into the venv in one example and the bare name in the next."""
    for block in blocks(page):
        if block.lang in {"sh", "bash", "shell", "console"}:
            assert ".venv/bin/" not in block.code, f"{block}: spell it hanabi-cp / python"


def test_blocks_the_walk_cannot_run_are_few_and_say_why():
    skipped = [b for b in shell_blocks() if b.kind == "skip"]
    assert len(skipped) <= 5, [str(b) for b in skipped]
    # the title tells the reader what it needs (a cluster, a fresh clone)
    unsaid = [f"{b}: {b.title!r}" for b in skipped if not re.match(r"Needs \S", b.title)]
    assert unsaid == [], unsaid
    full = [b for b in shell_blocks() if b.kind == "full"]
    assert len(full) <= 20, [str(b) for b in full]
    # No example talks to an address outside the loopback.
    for b in shell_blocks():
        for host in re.findall(r"tcp://([^:/\s]+)", b.code):
            assert host in {"127.0.0.1", "localhost", "HOST"}, (str(b), host)


def test_each_run_block_writes_fresh_names():
    """Walking the manual top to bottom in one folder never meets "refusing to
    overwrite": no example passes --force."""
    for b in shell_blocks():
        if b.kind == "run":
            assert "--force" not in b.code, f"{b}: write a fresh name instead of --force"


def test_module_map_matches_the_tree():
    result = subprocess.run([sys.executable, str(ROOT / "docs" / "gen_module_map.py"), "--check"],
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


def test_citation_cff_names_the_software_and_the_paper():
    text = (ROOT / "CITATION.cff").read_text(encoding="utf-8")
    for key in ("cff-version: 1.2.0", "message:", "title:", "authors:", "type: software"):
        assert key in text, key
    assert "doi: 10.1016/j.tcs.2017.02.024" in text


def test_changelog_keeps_a_changelog():
    text = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    assert text.startswith("# Changelog")
    assert re.search(r"^## \[0\.1\.0\] - unreleased$", text, re.M)


def test_readme_links_point_into_the_clone():
    """mkdocs --strict checks the pages' links; README.md is not a page, so here."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    links = re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", text)
    local = [link for link in links if not re.match(r"[a-z]+://", link)]
    assert local, "README links into the manual"
    missing = [link for link in local if not (ROOT / link).exists()]
    assert missing == [], missing


def test_the_cli_reference_sees_every_command():
    # mkdocs-click reads group.commands; the hook loads the lazy tables first.
    import importlib.util

    from hanabi_cp.cli.main import main
    spec = importlib.util.spec_from_file_location("docs_hooks", ROOT / "docs" / "hooks.py")
    hooks = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(hooks)
    paths = hooks.load_all(main)
    assert {"solve", "study strategies", "study hle", "generate family"} <= set(paths)
    assert set(main.commands) == {p for p in paths if " " not in p}


def test_the_cli_reference_keeps_the_unwrapped_paragraphs():
    # click's \b paragraphs (command lists, examples) must reach Markdown fenced,
    # or their lines run into one line of prose.
    import importlib.util

    from hanabi_cp.cli.main import main
    spec = importlib.util.spec_from_file_location("docs_hooks", ROOT / "docs" / "hooks.py")
    hooks = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(hooks)
    lines = list(hooks.unwrapped_as_code(main.help))
    assert "\b" not in "\n".join(lines)
    fence = lines.index("```text")
    assert lines[fence + 1].startswith("Players of hanab.live")
    assert lines[fence + 2].lstrip().startswith("analyze GAME")
    assert lines[lines.index("```", fence):][0] == "```"
    assert lines[0].startswith("Judge real Hanabi games")   # prose stays prose


def test_the_api_reference_shows_every_function_once():
    """docs/api.md's reference lists hanabi_cp.api's functions by wing (``members:``
    of each ``::: hanabi_cp.api``): a new function is placed in a wing, not lost."""
    import inspect

    import hanabi_cp.api as api
    text = (ROOT / "docs" / "api.md").read_text(encoding="utf-8")
    listed = [name for members in re.findall(r"^::: hanabi_cp\.api\n(?:\s+.*\n)*?\s+members: "
                                              r"\[([^\]]*)\]", text, re.M)
              for name in re.split(r",\s*", members)]
    public = {name for name, f in inspect.getmembers(api, inspect.isfunction)
              if f.__module__ == api.__name__ and not name.startswith("_")}
    assert sorted(listed) == sorted(public), (set(public) - set(listed), set(listed) - public)


def test_the_api_reference_shows_doctests_as_code():
    """docs/doctest_fences.py (mkdocs.yml's Griffe extension): a docstring's
    doctest becomes a code block, Sphinx roles code, a wrapped ">=" no quote."""
    import importlib.util
    spec = importlib.util.spec_from_file_location("doctest_fences", ROOT / "docs" / "doctest_fences.py")
    fences = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(fences)
    text = ("Returns a :class:`~hanabi_cp.Deck` (r >= 2,\n>= 3 for h = 1).\n\n"
            ">>> [1, 2][:1]\n[1]\n\nAfter.")
    assert fences.fence_doctests(text).split("\n") == [
        "Returns a `hanabi_cp.Deck` (r >= 2,", "\\>= 3 for h = 1).", "",
        "```pycon", ">>> [1, 2][:1]", "[1]", "```", "", "After."]
