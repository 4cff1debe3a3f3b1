"""The HTML replay of `hanabi-cp show` in a real headless browser (Debian's chromium).

The pages are opened from disk (file://) in one headless chromium driven over the
DevTools pipe (tests/cdp.py): they must log nothing (console, uncaught exceptions,
browser warnings), show at ``#step=K`` the state the Python timeline computes after
K cards, move when the arrow keys and buttons are pressed, pass their own self-test
(``#selftest``: every step against the timeline), and render to a screenshot that
is not blank.  Installs nothing: without ``chromium`` on PATH the tests are skipped
(CI installs it, see .ci/run).
"""

import io
import shutil

import pytest

from hanabi_cp.formats import read_deck
from hanabi_cp.show import scene
from hanabi_cp.show.html import page
from hanabi_cp.solvers import solve

from cdp import Browser, Page
from test_cli import LOSE, WIN, run

CHROMIUM = shutil.which("chromium")
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed "
                                "(apt-get install chromium); the HTML replay is not checked")
STATE = """JSON.stringify({step: +document.getElementById("step").textContent,
  piles: document.getElementById("piles").dataset.levels,
  hand: +document.getElementById("hand").dataset.count,
  decision: document.getElementById("decision").textContent})"""


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    b = Browser(CHROMIUM, str(tmp_path_factory.mktemp("profile")))
    yield b
    b.close()


@pytest.fixture(scope="module")
def pages(tmp_path_factory):
    """name -> (file URL, scene) of the replays under test."""
    folder = tmp_path_factory.mktemp("replay")
    deck = read_deck(WIN).deck
    plays = solve(deck, 2).plays

    def write(name, path, h, plays=None, status=None, reason=None, lo=0, hi=None):
        d = read_deck(path).deck
        view = scene.make(d, h, name, None, lo, d.N if hi is None else hi, plays, "its certificate",
                          status, reason)
        (folder / f"{name}.html").write_text(page(view))
        return (folder / f"{name}.html").as_uri(), view

    out = {"won": write("won", WIN, 2, plays),
           "illegal": write("illegal", WIN, 1, plays),      # h = 1: the second store overflows
           "window": write("window", WIN, 2, plays, lo=10, hi=35),
           "lost": write("lost", LOSE, 2, None, "UNWINNABLE", solve(read_deck(LOSE).deck, 2).reason)}
    cert = folder / "win.plays"
    cert.write_text(plays.actions + "\n")
    assert run(["show", WIN, "--certificate", cert, "-o", folder / "cli.html"]).exit_code == 0
    out["cli"] = ((folder / "cli.html").as_uri(), out["won"][1])
    bad = folder / "bad.html"
    bad.write_text("<!DOCTYPE html><html><body><script>notDefined();</script></body></html>")
    out["bad"] = (bad.as_uri(), None)
    return out


def state(tab: Page) -> dict:
    import json
    return json.loads(tab.evaluate(STATE))


def test_a_failing_script_is_noticed(browser, pages):
    # The empty consoles below only mean something if a broken page shows up.
    tab = Page(browser, pages["bad"][0])
    tab.evaluate("1")
    assert any("notDefined" in line for line in tab.console())


def test_step_fragment_shows_the_timeline_state(browser, pages):
    url, view = pages["cli"]
    seen = set()
    for k in (12, 40):
        tab = Page(browser, f"{url}#step={k}")
        shown = state(tab)
        assert shown["step"] == k
        assert shown["piles"] == " ".join(map(str, view.timeline.piles_after(k - 1)))
        assert shown["hand"] == view.timeline.hand[k - 1]
        assert tab.console() == []
        seen.add(shown["piles"])
    assert len(seen) == 2


def test_keys_and_buttons_step_card_by_card(browser, pages):
    url, view = pages["won"]
    tab = Page(browser, url)
    assert state(tab)["step"] == 0
    tab.evaluate('document.dispatchEvent(new KeyboardEvent("keydown", {key: "ArrowRight", shiftKey: true}))')
    assert state(tab)["step"] == 10 and tab.evaluate("location.hash") == "#step=10"
    tab.evaluate('document.getElementById("next").click()')
    after = state(tab)
    assert after["step"] == 11 and after["decision"].startswith("card #11: ")
    assert after["piles"] == " ".join(map(str, view.timeline.piles_after(10)))
    tab.evaluate('document.dispatchEvent(new KeyboardEvent("keydown", {key: "ArrowLeft"}))')
    assert state(tab)["step"] == 10
    tab.evaluate('document.dispatchEvent(new KeyboardEvent("keydown", {key: "End"}))')
    assert state(tab)["piles"] == "5 5 5 5 5"
    assert tab.console() == []


@pytest.mark.parametrize("name", ["won", "illegal", "window", "lost"])
def test_self_test_passes(browser, pages, name):
    tab = Page(browser, f"{pages[name][0]}#selftest")
    assert tab.evaluate("document.body.dataset.selftest") == "ok"
    assert tab.console() == []


def test_illegal_step_is_shown(browser, pages):
    url, view = pages["illegal"]
    stop = view.timeline.stop
    tab = Page(browser, f"{url}#step={stop + 1}")
    assert "illegal: " in state(tab)["decision"] and "cannot store" in state(tab)["decision"]


def test_screenshot_is_not_blank(browser, pages):
    from PIL import Image
    tab = Page(browser, f"{pages['won'][0]}#step=20")
    with Image.open(io.BytesIO(tab.screenshot())) as im:
        colors = im.convert("RGB").getcolors(maxcolors=1 << 20)
    assert colors is not None and len(colors) > 50
    assert tab.console() == []
