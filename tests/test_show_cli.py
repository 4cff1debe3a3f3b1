"""`hanabi-cp show` through CliRunner: SVG, PNG and HTML outputs, the reduction image
with its gadget labels, the aggregated picture of a wide deck, errors and --force."""

import os

import pytest

from hanabi_cp.solvers.formula import CNF
from hanabi_cp.io import write_deck
from hanabi_cp.apps.generators import random_deck
from hanabi_cp.solitaire.reduction import reduce_cnf

from test_cli import LOSE, WIN, run


def one_line_error(res, *words):
    assert res.exit_code == 2, res.output
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("hanabi-cp: error: "), res.stderr
    for w in words:
        assert w in lines[0], (w, lines[0])


def test_svg_of_a_won_deck_has_the_grid_and_the_verdict(tmp_path):
    out = tmp_path / "win.svg"
    res = run(["show", WIN, "--solve", "-o", out])
    assert res.exit_code == 0, res.output
    assert "card by card" in res.stderr and "wins with h = 2" in res.stderr
    text = out.read_text()
    assert text.startswith("<?xml") and "<svg" in text
    assert "checked by the referee" in text and "hand 2" in text and "5 w" in text


def test_png_of_a_lost_deck_and_refusal_to_overwrite(tmp_path):
    out = tmp_path / "lost.png"
    res = run(["show", LOSE, "--solve", "-o", out])
    assert res.exit_code == 0 and "UNWINNABLE" in res.stderr
    data = out.read_bytes()
    assert data.startswith(b"\x89PNG\r\n\x1a\n")
    one_line_error(run(["show", LOSE, "--solve", "-o", out]), "refusing to overwrite", "--force")
    assert out.read_bytes() == data
    assert run(["show", LOSE, "-o", out, "--force"]).exit_code == 0
    assert out.read_bytes() != data


def test_lost_deck_svg_marks_the_witness(tmp_path):
    out = tmp_path / "lost.svg"
    assert run(["show", LOSE, "--solve", "-o", out]).exit_code == 0
    text = out.read_text()
    assert "after card #32 every win must hold 3 cards" in text      # the solver's reason
    assert "a win must hold 3 &gt; h = 2 cards" in text              # drawn at position 32


def test_html_is_self_contained_and_carries_the_replay(tmp_path):
    out = tmp_path / "replay.html"
    assert run(["show", WIN, "--solve", "-o", out]).exit_code == 0
    page = out.read_text()
    assert page.startswith("<!DOCTYPE html>") and "hanabiSelfTest" in page
    assert "http" not in page and "<link" not in page and "src=" not in page


def test_illegal_certificate_is_drawn_up_to_its_first_illegal_step(tmp_path):
    cert = tmp_path / "bad.plays"
    cert.write_text("D" * 49 + "P\n")          # the last card (3r) is not playable
    res = run(["show", WIN, "--certificate", cert, "-o", tmp_path / "bad.svg"])
    assert res.exit_code == 0, res.output
    assert "illegal at card #50" in res.stderr
    assert "illegal step" in (tmp_path / "bad.svg").read_text()


def test_legal_losing_certificate_is_drawn_with_the_referee_reason(tmp_path):
    cert = tmp_path / "lazy.plays"
    cert.write_text("D" * 50 + "\n")
    res = run(["show", WIN, "--certificate", cert, "-o", tmp_path / "d.html"])
    assert res.exit_code == 0 and "legal but does not win" in res.stderr
    assert "color 1 stands at 0 of 5" in (tmp_path / "d.html").read_text()


def test_reduction_window_labels_the_gadgets(tmp_path):
    red = reduce_cnf(CNF.of([(1, -2, 3), (1, 2, -3)]))
    deck = tmp_path / "fig2.deck"
    write_deck(str(deck), red.deck, h=red.h, roles=red.roles)
    out = tmp_path / "fig2.svg"
    res = run(["show", deck, "--solve", "--from", 1, "--to", 95, "-o", out])
    assert res.exit_code == 0, res.output
    text = out.read_text()
    for label in ("σ1", "C1", "dump", "var 1 gadget", "var 3 gadget", "A = x1", "B = ¬x2", "¬x1 (other)", "¬x3"):
        assert label in text, label
    assert "C2" not in text and "cards 1..95 of 183" in text


def test_wide_deck_is_aggregated_and_says_so(tmp_path):
    deck = tmp_path / "wide.txt"
    write_deck(str(deck), random_deck(3, 30, 10, 2, exact_copies=True), h=3)
    out = tmp_path / "wide.svg"
    res = run(["show", deck, "--hand", 120, "--solve", "--method", "cpsat", "-o", out])   # least h: 117
    assert res.exit_code == 0 and "aggregated" in res.stderr and "wins with h = 120" in res.stderr
    text = out.read_text()
    assert "aggregated: 600 bins of 1 card" in text and "most held in the bin" in text
    res = run(["show", deck, "--from", 101, "--to", 140, "-o", tmp_path / "window.svg"])
    assert res.exit_code == 0 and "40 of 600 cards, card by card" in res.stderr


@pytest.mark.parametrize("args, words", [
    (["-o", "x.jpg"], ["x.jpg", ".svg, .png or .html"]),
    (["-o", "-"], ["not to stdout"]),
    (["--solve", "--certificate", WIN, "-o", "x.svg"], ["not both"]),
    (["--method", "dp", "-o", "x.svg"], ["go with --solve"]),
    (["--from", 30, "--to", 20, "-o", "x.svg"], ["--from 30 is after --to 20"]),
    (["--to", 51, "-o", "x.svg"], ["--to 51", "1 to 50"]),
])
def test_bad_options_are_one_line_errors(tmp_path, args, words):
    os.chdir(tmp_path)
    one_line_error(run(["show", WIN, *args]), *words)
    assert os.listdir(tmp_path) == []


def test_bad_inputs_are_one_line_errors(tmp_path):
    short = tmp_path / "short.plays"
    short.write_text("PPP\n")
    one_line_error(run(["show", WIN, "--certificate", short, "-o", tmp_path / "a.svg"]),
                   "play sequence has 3 actions, deck has 50 cards")
    garbage = tmp_path / "garbage.plays"
    garbage.write_text("PX\n")
    one_line_error(run(["show", WIN, "--certificate", garbage, "-o", tmp_path / "a.svg"]),
                   "garbage.plays:1: expected an action")
    nohand = tmp_path / "nohand.txt"
    nohand.write_text("1r 2r\n")
    one_line_error(run(["show", nohand, "--solve", "-o", tmp_path / "a.svg"]), "no hand size")
    assert run(["show", nohand, "-o", tmp_path / "a.svg"]).exit_code == 0   # the deck alone
    one_line_error(run(["show", tmp_path / "missing.txt", "-o", tmp_path / "b.svg"]), "missing.txt")
    assert sorted(os.listdir(tmp_path)) == ["a.svg", "garbage.plays", "nohand.txt", "short.plays"]


def test_wide_reduction_image_has_a_level_map_and_merged_gadgets(tmp_path):
    # 6 variables: 13 colors, more than the pile lines the aggregated view draws.
    red = reduce_cnf(CNF.of([(1, 2, 3), (-1, 4, 5), (2, -4, 6), (-3, -5, -6)]))
    assert red.deck.N > 240 and red.deck.c > 12
    deck = tmp_path / "six.deck"
    write_deck(str(deck), red.deck, h=red.h, roles=red.roles)
    out = tmp_path / "six.svg"
    res = run(["show", deck, "--solve", "-o", out])
    assert res.exit_code == 0 and "aggregated" in res.stderr, res.output
    text = out.read_text()
    assert "pile level" in text and "cards per bin" in text and "padding" in text
    assert "x6" in text and "¬x6" in text
    page = tmp_path / "six.html"
    assert run(["show", deck, "--solve", "-o", page]).exit_code == 0
    assert '"gadgets":[[0,' in page.read_text() and "clause 4 part 4" in page.read_text()


# ---- real games: `show GAME` draws a game and its post-mortem ---------------------

RAINBOW = "Rainbow (6 Suits)"


def write_game(folder, name="game.json", players=4, strategy="recommendation"):
    """A game of our own players on the standard winnable deck, as `play --replay`
    writes it (the manual's picture, docs/pictures.md, is drawn from the 2-player one)."""
    path = folder / name
    res = run(["play", WIN, "--players", players, "--strategy", strategy, "--replay", path])
    assert res.exit_code == 0, res.output
    return path


def write_variant_game(folder, variant=RAINBOW, stem="rainbow", seed=3):
    """A won game of hanab.live's "Rainbow (6 Suits)" (or ``variant``): a certificate
    of `solve --rules live`, 3 players."""
    import json
    deck = folder / f"{stem}-deck.json"
    assert run(["generate", "standard", "--variant", variant, "--seed", seed, "-o", deck]).exit_code == 0
    path = folder / f"{stem}.json"
    res = run(["solve", deck, "--rules", "live", "--players", 3, "--variant", variant,
               "--certificate", path])
    assert res.exit_code == 10, res.output
    return path, json.loads(path.read_text())


def view_of(path):
    from hanabi_cp.show import game
    return game.load(str(path), None, None, "auto", 10.0, None)


@pytest.fixture(scope="module")
def game_file(tmp_path_factory):
    return write_game(tmp_path_factory.mktemp("games"))


def test_png_of_a_game_and_refusal_to_overwrite(tmp_path, game_file):
    out = tmp_path / "game.png"
    res = run(["show", game_file, "-o", out])
    assert res.exit_code == 0, res.output
    view = view_of(game_file)
    drops = len(view.post.drops)
    assert drops >= 1
    assert res.stderr.strip() == (f"show: {out}: game.json: {len(view.actions)} actions, final score "
                                  f"{view.post.final_score} of 25; {drops} action"
                                  f"{'s' if drops > 1 else ''} lost points")
    data = out.read_bytes()
    assert data.startswith(b"\x89PNG\r\n\x1a\n")
    one_line_error(run(["show", game_file, "-o", out]), "refusing to overwrite", "--force")
    assert out.read_bytes() == data
    assert run(["show", game_file, "-o", out, "--force"]).exit_code == 0


def test_svg_of_a_game_has_the_lines_the_drops_and_the_title(tmp_path, game_file):
    from hanabi_cp.show.game import label
    out = tmp_path / "game.svg"
    assert run(["show", game_file, "-o", out]).exit_code == 0
    text = out.read_text()
    view = view_of(game_file)
    assert "game.json: Alice, Bob, Cathy, Donald; No Variant" in text
    assert f"final score {view.post.final_score} of 25 (normal: " in text
    for words in ("score (piles)", "best score still reachable",
                  "hanab.live's max score (discards only)", "lost points:", "deck empty"):
        assert words in text, words
    for d in view.post.drops:
        assert f"{label(view, d)}" in text and f"{d.before} → {d.after}" in text
    assert "undecided" not in text                       # every position decided


def test_the_figure_of_analyze_is_the_picture_of_show(tmp_path, game_file):
    shown, analysed = tmp_path / "show.svg", tmp_path / "analyze.svg"
    assert run(["show", game_file, "-o", shown]).exit_code == 0
    res = run(["analyze", game_file, "--figure", analysed])
    assert res.exit_code == 0 and f"c wrote {analysed}" in res.stdout
    assert shown.read_bytes() == analysed.read_bytes()
    one_line_error(run(["analyze", game_file, "--figure", analysed]), "refusing to overwrite")
    one_line_error(run(["analyze", game_file, "--figure", tmp_path / "x.jpg"]), ".svg, .png or .html")


def test_html_of_a_game_is_self_contained_and_carries_every_position(tmp_path, game_file):
    import json
    import re
    out = tmp_path / "game.html"
    assert run(["show", game_file, "-o", out]).exit_code == 0
    page = out.read_text()
    assert page.startswith("<!DOCTYPE html>") and "hanabiSelfTest" in page
    assert "http" not in page.replace('xmlns="http://www.w3.org/2000/svg"', "")
    assert "<link" not in page and "src=" not in page
    data = json.loads(re.search(r'<script type="application/json" id="data">(.*?)</script>',
                                page, re.S).group(1))
    view = view_of(game_file)
    assert len(data["check"]) == len(data["rows"]) == len(view.actions) + 1
    assert [s["name"] for s in data["suits"]] == ["Red", "Yellow", "Green", "Blue", "Purple"]
    assert sorted(map(int, data["drops"])) == [d.position for d in view.post.drops]
    assert page.count('class="drop"') == len(view.post.drops)


def test_a_variant_game_names_its_suits(tmp_path):
    import json
    path, game = write_variant_game(tmp_path)
    out = tmp_path / "rainbow.html"
    assert run(["show", path, "-o", out]).exit_code == 0
    page = out.read_text()
    assert '"name":"Rainbow","letter":"M","fill":"linear-gradient(' in page
    assert "Rainbow (6 Suits)" in page
    svg = tmp_path / "rainbow.svg"
    res = run(["show", path, "-o", svg])
    assert res.exit_code == 0 and "0 actions lost points" in res.stderr
    assert "no action lowered the best score" in svg.read_text()
    assert json.loads(path.read_text())["options"]["variant"] == RAINBOW == game["options"]["variant"]


def test_a_bare_list_of_actions_needs_its_deck_and_players(tmp_path, game_file):
    import json
    bare = tmp_path / "bare.json"
    bare.write_text(json.dumps(json.loads(game_file.read_text())["actions"]))
    one_line_error(run(["show", bare, "-o", tmp_path / "a.png"]), "the game has no deck: give --deck")
    one_line_error(run(["show", bare, "--deck", WIN, "-o", tmp_path / "a.png"]),
                   "does not list its players: give --players")
    res = run(["show", bare, "--deck", WIN, "--players", 4, "-o", tmp_path / "a.svg"])
    assert res.exit_code == 0, res.output
    assert "bare.json: player 0, player 1, player 2, player 3; No Variant" in (tmp_path / "a.svg").read_text()
    one_line_error(run(["show", game_file, "--deck", LOSE, "-o", tmp_path / "b.png"]),
                   "its deck is not the --deck")
    assert sorted(os.listdir(tmp_path)) == ["a.svg", "bare.json"]


@pytest.mark.parametrize("args, words", [
    (["--hand", 2], ["--hand: for a DECK", "is a GAME"]),
    (["--solve", "--from", 3], ["--solve, --from: for a DECK"]),
    (["--method", "dp"], ["--method dp is not a real-rules method", "auto, brute"]),
    (["-o", "x.jpg"], [".svg, .png or .html"]),
])
def test_deck_options_with_a_game_are_one_line_errors(tmp_path, game_file, args, words):
    os.chdir(tmp_path)
    args = args if "-o" in args else [*args, "-o", "x.svg"]
    one_line_error(run(["show", game_file, *args]), *words)
    assert os.listdir(tmp_path) == []


def test_game_options_with_a_deck_are_one_line_errors(tmp_path):
    os.chdir(tmp_path)
    one_line_error(run(["show", WIN, "--players", 3, "-o", "x.svg"]),
                   "--players and --position-limit go with a GAME")
    one_line_error(run(["show", WIN, "--position-limit", 1, "-o", "x.svg"]), "go with a GAME")
    assert os.listdir(tmp_path) == []


def test_json_decks_are_still_decks(tmp_path):
    from hanabi_cp.show.game import is_game_file
    ours = tmp_path / "ours.json"
    write_deck(str(ours), random_deck(1, 3, 2, 2), h=1)
    export = tmp_path / "export.json"
    export.write_text('{"deck": [{"suitIndex": 0, "rank": 1}, {"suitIndex": 0, "rank": 2}]}')
    assert not is_game_file(str(ours)) and not is_game_file(str(export)) and not is_game_file(WIN)
    res = run(["show", export, "-o", tmp_path / "e.svg"])
    assert res.exit_code == 0 and "the deck alone" in res.stderr
    (tmp_path / "game.json").write_text('{"deck": [{"suitIndex": 0, "rank": 1}], "actions": []}')
    (tmp_path / "bare.json").write_text("[]")
    assert is_game_file(str(tmp_path / "game.json")) and is_game_file(str(tmp_path / "bare.json"))


def test_undecided_positions_are_drawn_as_bands(game_file):
    """A post-mortem whose middle positions are undecided (as a time limit leaves
    them): a band in the picture and in the replay's chart, never a best line."""
    import dataclasses

    from hanabi_cp.show import game_chart, render
    view = view_of(game_file)
    rows = list(view.post.rows)
    for k in range(10, 20):
        rows[k] = dataclasses.replace(rows[k], best=None, lower=None if k % 2 else 20,
                                      upper=None, status="UNKNOWN")
    view = dataclasses.replace(view, post=dataclasses.replace(view.post, rows=rows))
    assert view.undecided == 10
    svg = render.render_game(view, ".svg").decode()
    assert "undecided: lower..upper bound" in svg
    chart = game_chart.chart(view)
    assert chart.count('class="band"') == 10
    # no bound known: the game's own final score below, hanab.live's indicator above
    assert f"position 11: undecided, {view.post.final_score}..{rows[11].hanablive_max}" in chart
    assert f"position 10: undecided, 20..{rows[10].hanablive_max}" in chart
