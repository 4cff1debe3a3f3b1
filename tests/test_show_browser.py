"""The HTML replays of `hanabi-cp show` in a real headless browser (Debian's chromium).

The pages are opened from disk (file://) in one headless chromium driven over the
DevTools pipe (tests/cdp.py): they must log nothing (console, uncaught exceptions,
browser warnings), show at ``#step=K`` the state the Python timeline computes after
K cards (for a real game: the referee's state after K actions), move when the arrow
keys and buttons are pressed, pass their own self-test (``#selftest``: every step
against the timeline or the referee), and render to a screenshot that is not blank.  Installs nothing: without ``chromium`` on PATH the tests are skipped
(CI installs it, see .ci/run).
"""

import io
import shutil

import pytest

from hanabi_cp.io import read_deck_file
from hanabi_cp.show import scene
from hanabi_cp.show.html import page
from hanabi_cp.solitaire.solve import solve

from cdp import Browser, Page
from test_cli import LOSE, WIN, run
from test_show_cli import write_game, write_variant_game

CHROMIUM = shutil.which("chromium")
# One chromium per module: under pytest-xdist the module stays on one worker.
pytestmark = [pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed "
                                 "(apt-get install chromium); the HTML replay is not checked"),
              pytest.mark.xdist_group("browser")]
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
    deck = read_deck_file(WIN).deck
    plays = solve(deck, 2).plays

    def write(name, path, h, plays=None, status=None, reason=None, lo=0, hi=None):
        d = read_deck_file(path).deck
        view = scene.make(d, h, name, None, lo, d.N if hi is None else hi, plays, "its certificate",
                          status, reason)
        (folder / f"{name}.html").write_text(page(view))
        return (folder / f"{name}.html").as_uri(), view

    out = {"won": write("won", WIN, 2, plays),
           "illegal": write("illegal", WIN, 1, plays),      # h = 1: the second store overflows
           "window": write("window", WIN, 2, plays, lo=10, hi=35),
           "lost": write("lost", LOSE, 2, None, "UNWINNABLE", solve(read_deck_file(LOSE).deck, 2).reason)}
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


# ---- real games ---------------------------------------------------------------------

GAME_STATE = """JSON.stringify({step: +document.getElementById("step").textContent,
  hands: JSON.parse(document.getElementById("hands").dataset.hands),
  piles: document.getElementById("piles").dataset.levels,
  clues: document.getElementById("clues").dataset.count,
  strikes: +document.getElementById("strikes").dataset.count,
  left: +document.getElementById("deckleft").dataset.count,
  lost: JSON.parse(document.getElementById("discards").dataset.lost),
  mover: document.getElementById("mover").dataset.player,
  now: document.getElementById("now").textContent,
  lossShown: document.getElementById("now").className === "lost",
  why: [...document.querySelectorAll("#why li")].map((li) => li.textContent)})"""


@pytest.fixture(scope="module")
def games(tmp_path_factory):
    """name -> (file URL, (deck, rules, actions, names)) of the game replays under test:
    our players' games on the winnable deck (4 players: one drop; 2: nine drops; 6: a
    strike) and a won game of "Rainbow (6 Suits)"."""
    from hanabi_cp.apps.studies.postmortems import load_game
    folder = tmp_path_factory.mktemp("games")
    paths = {name: write_game(folder, f"{name}.json", players)
             for name, players in (("four", 4), ("two", 2), ("six", 6))}
    paths["rainbow"] = write_variant_game(folder)[0]
    # families whose tokens or piles follow other rules: the page must step them too
    for stem, variant in (("starved", "Clue Starved (5 Suits)"), ("reversed", "Reversed (5 Suits)"),
                          ("hole", "Throw It in a Hole (5 Suits)")):
        paths[stem] = write_variant_game(folder, variant, stem, 4)[0]
    out = {}
    for name, path in paths.items():
        page = folder / f"{name}.html"
        assert run(["show", path, "-o", page]).exit_code == 0
        out[name] = (page.as_uri(), load_game(str(path)))
    return out


def game_state(tab: Page) -> dict:
    import json
    return json.loads(tab.evaluate(GAME_STATE))


def referee_state(game, k: int) -> dict:
    from hanabi_cp.real.referee import Game
    deck, rules, actions, _ = game
    g = Game.after(deck, rules, actions[:k])
    over = g.over and k == len(actions)
    return {"step": k, "hands": g.hands, "piles": " ".join(map(str, g.piles)),
            "clues": str(g.clues), "strikes": g.strikes, "left": deck.N - g.drawn,
            "lost": g.lost_cards, "mover": "" if over else str(g.player)}


def assert_shows_the_referee_state(tab: Page, game, k: int) -> None:
    shown, expected = game_state(tab), referee_state(game, k)
    assert {key: shown[key] for key in expected} == expected


@pytest.mark.parametrize("name", ["four", "six", "rainbow"])
def test_game_step_fragment_shows_the_referee_state(browser, games, name):
    url, game = games[name]
    last = len(game[2])
    for k in (0, 7, last // 2, last):
        tab = Page(browser, f"{url}#step={k}")
        assert_shows_the_referee_state(tab, game, k)
        assert tab.console() == []


def test_game_shows_the_actions_that_lost_points(browser, games):
    from hanabi_cp.real.postmortem.report import analyze
    from hanabi_cp.show.game import explanation
    url, game = games["two"]
    drops = analyze(*game).drops
    assert len(drops) > 3
    for d in drops[:3]:
        shown = game_state(Page(browser, f"{url}#step={d.position}"))
        assert shown["lossShown"] and shown["now"].endswith(f"best score {d.before} \u2192 {d.after}")
        assert shown["why"] == explanation(view_of(game, url), d) and shown["why"]
    before = game_state(Page(browser, f"{url}#step={drops[0].position - 1}"))
    assert not before["lossShown"] and before["why"] == []


def view_of(game, url):
    from hanabi_cp.real.postmortem.report import analyze
    from hanabi_cp.show.game import GameView
    deck, rules, actions, names = game
    return GameView(url, deck, rules, actions, tuple(names),
                    analyze(deck, rules, actions, names))


def test_game_keys_buttons_and_chart_move(browser, games):
    url, game = games["four"]
    tab = Page(browser, url)
    assert game_state(tab)["step"] == 0 and game_state(tab)["now"] == "the deal"
    tab.evaluate('document.dispatchEvent(new KeyboardEvent("keydown", {key: "ArrowRight", shiftKey: true}))')
    assert game_state(tab)["step"] == 10 and tab.evaluate("location.hash") == "#step=10"
    tab.evaluate('document.getElementById("next").click()')
    assert_shows_the_referee_state(tab, game, 11)
    assert game_state(tab)["now"].startswith("turn 11: ")
    tab.evaluate('document.dispatchEvent(new KeyboardEvent("keydown", {key: "ArrowLeft"}))')
    assert game_state(tab)["step"] == 10
    tab.evaluate('document.dispatchEvent(new KeyboardEvent("keydown", {key: "End"}))')
    assert game_state(tab)["step"] == len(game[2])
    # a click on the chart's column 20 (the viewBox is 1000 units wide)
    tab.evaluate("""(() => { const svg = document.getElementById("chart"), r = svg.getBoundingClientRect();
      const x = +svg.dataset.left + 20.5 * +svg.dataset.unit;
      svg.dispatchEvent(new MouseEvent("click", {clientX: r.left + x * r.width / 1000,
                                                  clientY: r.top + 20, bubbles: true})); })()""")
    assert game_state(tab)["step"] == 20
    assert tab.console() == []


@pytest.mark.parametrize("name", ["four", "two", "six", "rainbow", "starved", "reversed", "hole"])
def test_game_self_test_passes(browser, games, name):
    tab = Page(browser, f"{games[name][0]}#selftest")
    assert tab.evaluate("document.body.dataset.selftest") == "ok"
    assert tab.console() == []


def test_game_self_test_notices_a_wrong_state(browser, games, tmp_path):
    # The self-test only means something if it fails on a page that shows another
    # state than the referee's: here one clue token too many after the deal.
    import re
    from urllib.parse import unquote, urlparse
    url, _ = games["four"]
    page = tmp_path / "broken.html"
    text = open(unquote(urlparse(url).path), encoding="utf-8").read()
    page.write_text(re.sub(r'("check":\[\{.*?"clues":)8', r"\g<1>9", text, count=1, flags=re.S))
    tab = Page(browser, f"{page.as_uri()}#selftest")
    assert tab.evaluate("document.body.dataset.selftest") == "FAIL: state at position 0"


def test_game_screenshot_is_not_blank(browser, games):
    from PIL import Image
    tab = Page(browser, f"{games['rainbow'][0]}#step=30")
    with Image.open(io.BytesIO(tab.screenshot())) as im:
        colors = im.convert("RGB").getcolors(maxcolors=1 << 20)
    assert colors is not None and len(colors) > 50
    assert tab.console() == []


@pytest.mark.parametrize("name, cards, actions", [
    # Up or Down: START, then 4 (the pile goes down), a misplayed 2, then 3
    ("Up or Down (5 Suits)", [(6, 1), (4, 1), (2, 1), (3, 1), (1, 1), (5, 1)], "P0 P1 P2 P3"),
    # Sudoku: a pile starts at 3 and wraps round from 4 to 1
    ("Sudoku (4 Suits)", [(3, 1), (4, 1), (1, 1), (2, 1), (1, 1), (3, 1)], "P0 P1 P2 P3"),
])
def test_game_self_test_passes_where_the_piles_choose_their_order(browser, tmp_path, name, cards, actions):
    # (tiny decks: until the exact methods play these families, brute analyzes them)
    from hanabi_cp.real.actions import Action
    from hanabi_cp.real.postmortem.report import analyze
    from hanabi_cp.real.rules import Rules
    from hanabi_cp.real.variants.catalogue import variant
    from hanabi_cp.core.model import Deck
    from hanabi_cp.show.game import GameView
    from hanabi_cp.show.game_html import page as game_page
    v = variant(name)
    deck = Deck.of(cards, v.deck_n, 1)
    rules = Rules.for_players(2, hand_size=1, variant=v)
    moves = [Action.play(int(word[1:])) for word in actions.split()]
    names = ("Alice", "Bob")
    view = GameView("tiny", deck, rules, moves, names, analyze(deck, rules, moves, names))
    path = tmp_path / "tiny.html"
    path.write_text(game_page(view))
    tab = Page(browser, f"{path.as_uri()}#selftest")
    assert tab.evaluate("document.body.dataset.selftest") == "ok"
    assert tab.console() == []
