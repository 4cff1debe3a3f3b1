"""The manual as a reader opens it: built by mkdocs (--strict) and opened from disk
(file://) in headless chromium, every page of the nav opens, every link of every
page leads to a file (not a directory listing, not a path from the server's root)
and to an anchor that is there, no code block is wider than its column, and the
post-mortem page shows its pictures.

mkdocs --strict checks the links it writes from Markdown (``[x](page.md)``); not
those the browser gets from elsewhere: the API reference's and the CLI reference's
generated HTML, raw HTML in a page, a link to a folder or from the server's root
(``/page.html``, which from disk is the file system's root).  So every link is
checked here as the browser resolved it.  Skipped without chromium on PATH (CI
installs it, see .ci/run)."""

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest

from cdp import Browser, Page
from docs_blocks import ROOT, nav_pages

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


def _html(page: str) -> str:
    """docs/encodings/cnf.md -> encodings/cnf.html"""
    return page.removeprefix("docs/").removesuffix(".md") + ".html"


LINKS = ("JSON.stringify([...document.querySelectorAll('a[href], img[src], link[href], "
         "script[src]')].map((e) => e.href || e.src))")
# a code block wider than its column: its text scrolls sideways (or spills over)
WIDE_CODE = ("JSON.stringify([...document.querySelectorAll('article pre > code')]"
             ".filter((c) => c.scrollWidth > c.clientWidth + 1)"
             ".map((c) => [c.scrollWidth, c.clientWidth, c.innerText.slice(0, 60)]))")


def test_every_page_opens_from_disk_and_its_links_lead_to_files(site, browser):
    """Each nav page, opened from file://: an article, its links (as the browser
    resolved them) to files that exist, the anchors they name present in the target
    page.  Every broken link of every page is reported at once."""
    ids: dict[Path, set[str]] = {}

    def anchors(target: Path) -> set[str]:
        if target not in ids:
            text = target.read_text(encoding="utf-8", errors="replace")
            ids[target] = set(re.findall(r'\b(?:id|name)="([^"]*)"', text))
        return ids[target]

    broken = []
    for page in nav_pages():
        tab = Page(browser, (site / _html(page)).as_uri())
        try:
            assert tab.evaluate("document.querySelector('article h1') !== null"), page
            urls = json.loads(tab.evaluate(LINKS))
        finally:
            tab.close()
        for url in urls:
            parts = urlsplit(url)
            if parts.scheme != "file":
                continue                    # http(s), mailto: not this test's to reach
            target = Path(unquote(parts.path))
            if not target.is_file():
                what = "a folder" if target.is_dir() else "no such file"
                broken.append(f"{_html(page)}: {url} ({what})")
            elif not target.is_relative_to(site):
                broken.append(f"{_html(page)}: {url} (outside the site)")
            elif parts.fragment and target.suffix == ".html" and \
                    unquote(parts.fragment) not in anchors(target):
                broken.append(f"{_html(page)}: {url} (no such anchor)")
    assert broken == [], "\n".join(sorted(set(broken)))


def test_code_blocks_fit_their_column(site, browser):
    """The reader sees the whole of every line (long lines wrap, see
    docs/stylesheets/extra.css), on the pages with the widest blocks."""
    wide = []
    for page in ("cli.html", "api.html", "encodings.html", "deciding.html", "index.html"):
        tab = Page(browser, (site / page).as_uri())
        try:
            wide += [f"{page}: {w}" for w in json.loads(tab.evaluate(WIDE_CODE))]
        finally:
            tab.close()
    assert wide == [], "\n".join(map(str, wide))


def test_every_reference_directive_is_rendered(site):
    """Each ``::: object`` of docs/api.md became the object's documentation (an
    anchor named after it, one per listed member), none is left as text."""
    text = (ROOT / "docs" / "api.md").read_text(encoding="utf-8")
    html = (site / "api.html").read_text(encoding="utf-8")
    ids = set(re.findall(r'\bid="([^"]*)"', html))
    wanted = []
    for target, options in re.findall(r"^::: (\S+)\n((?:[ \t]+.*\n)*)", text, re.M):
        members = re.search(r"members: \[([^\]]*)\]", options)
        if members:
            wanted += [f"{target}.{m}" for m in re.split(r",\s*", members.group(1))]
        elif "show_root_heading: false" not in options:
            wanted.append(target)
        else:
            wanted.append(next((i for i in ids if i.startswith(target + ".")), target + ".*"))
    assert wanted and [w for w in wanted if w not in ids] == []
    assert ":::" not in re.sub(r"<[^>]*>", "", html)


@pytest.fixture(scope="module")
def server(site):
    """The built site served over HTTP on a free loopback port, as a reader's server
    would (python -m http.server)."""
    import functools
    import http.server
    import threading

    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(site))
    handler.log_message = lambda *args: None            # type: ignore[attr-defined]
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()
    httpd.server_close()


def test_the_site_works_from_a_server(server, browser):
    """From a server too, the links of a page at the top and of pages in folders
    answer 200 (relative links resolve the same way from disk and over HTTP)."""
    statuses = ("Promise.all([...new Set([...document.querySelectorAll('a[href], img[src]')]"
                ".map((e) => (e.href || e.src).split('#')[0]))].filter((u) => "
                "u.startsWith(location.origin)).map((u) => fetch(u).then((r) => [u, r.status])))"
                ".then(JSON.stringify)")
    bad = []
    for page in ("index.html", "encodings/cnf.html", "strategies/cheat.html", "api.html"):
        tab = Page(browser, f"{server}/{page}")
        try:
            result = browser.call("Runtime.evaluate", tab.session, expression=statuses,
                                  awaitPromise=True, returnByValue=True)
            answers = json.loads(result["result"]["value"])
        finally:
            tab.close()
        assert answers, page
        bad += [f"{page}: {url} -> {status}" for url, status in answers if status != 200]
    assert bad == [], "\n".join(bad)
