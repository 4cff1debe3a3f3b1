"""The manual as a reader opens it: built by mkdocs (--strict) and opened from disk
(file://) in headless chromium, its links lead to pages (not directory listings) and
the post-mortem page shows its pictures.  Skipped without chromium on PATH (CI
installs it, see .ci/run)."""

import json
import shutil
import subprocess
import sys

import pytest

from cdp import Browser, Page
from docs_blocks import ROOT

CHROMIUM = shutil.which("chromium")
pytestmark = [pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed "
                                 "(apt-get install chromium); the built manual is not opened"),
              pytest.mark.xdist_group("browser")]


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    out = tmp_path_factory.mktemp("site")
    subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--quiet", "-d",
                    str(out)], cwd=ROOT, check=True, env={"NO_MKDOCS_2_WARNING": "1",
                                                          "PATH": "/usr/bin:/bin"})
    return out


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    b = Browser(CHROMIUM, str(tmp_path_factory.mktemp("profile")))
    yield b
    b.close()


def test_the_home_page_links_to_pages_that_open_from_disk(site, browser):
    tab = Page(browser, (site / "index.html").as_uri())
    hrefs = tab.evaluate("JSON.stringify([...document.querySelectorAll('article a[href]')]"
                         ".map((a) => a.getAttribute('href')))")
    links = [h for h in json.loads(hrefs) if not h.startswith(("http", "#", "mailto"))]
    assert "postmortem.html" in links
    for href in links:
        target = site / href.split("#")[0]
        assert target.is_file(), href       # a file, never a folder to list


def test_the_post_mortem_page_shows_its_pictures(site, browser):
    tab = Page(browser, (site / "postmortem.html").as_uri())
    assert "hanab.live/export/" in tab.evaluate("document.body.innerText")
    sizes = tab.evaluate("JSON.stringify([...document.images].filter((i) => "
                         "i.src.includes('figures/')).map((i) => [i.src, i.naturalWidth]))")
    shown = json.loads(sizes)
    assert {src.rsplit("/", 1)[1] for src, _ in shown} >= {"postmortem-replay.png",
                                                          "show-postmortem.png"}
    assert all(width > 500 for _, width in shown), shown
    assert tab.console() == []
