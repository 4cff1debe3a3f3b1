"""`hanabi-cp show` through CliRunner: SVG, PNG and HTML outputs, the reduction image
with its gadget labels, the aggregated picture of a wide deck, errors and --force."""

import os

import pytest

from hanabi_cp.cnf import CNF
from hanabi_cp.formats import write_deck
from hanabi_cp.generators import random_deck
from hanabi_cp.reduction import reduce_cnf

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
