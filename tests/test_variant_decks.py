"""A deck given with a variant must be one that variant deals (issue 45, item 3):
refused in one line naming the first card out of place, or taken with --any-deck
and said so."""

from __future__ import annotations

import json
import random

import pytest
from click.testing import CliRunner

from hanabi_cp.cli import main
from hanabi_cp.real.variants.catalogue import variant

BLACK6 = "Black (6 Suits)"


def run(args):
    return CliRunner().invoke(main, [str(a) for a in args])


@pytest.fixture
def six_colors(tmp_path):
    """hanab.live's 6 Suits deck: 60 cards, three 1s of the sixth suit."""
    path = tmp_path / "six.txt"
    assert run(["generate", "standard", "--colors", 6, "--seed", 4, "-o", path]).exit_code == 0
    return path


def test_misfit_names_the_first_card_out_of_place():
    v = variant(BLACK6)
    cards = v.deck_cards()
    assert v.misfit(cards) is None
    shuffled = cards[:]
    random.Random(1).shuffle(shuffled)
    assert v.misfit(shuffled) is None                       # any order
    assert v.misfit([(1, 6), (2, 6), (1, 6)]) == (2, "card #2 is a second Black 1, but "
                                                     "Black (6 Suits) deals 1")
    assert v.misfit([(1, 1), (6, 1)])[1] == "card #1 is Red 6, which Black (6 Suits) does not deal"
    assert v.misfit([(1, 7)])[1].startswith("card #0 is a card of suit index 6, rank 1")
    missing = v.misfit(cards[:-1])
    assert missing == (-1, "the deck has no Black 5, but Black (6 Suits) deals 1 (54 cards, not 55)")


def test_scarce_ones_refuses_a_no_variant_deck():
    no_variant = variant("No Variant").deck_cards()
    assert variant("Scarce Ones (5 Suits)").misfit(no_variant) == (
        2, "card #2 is a third Red 1, but Scarce Ones (5 Suits) deals 2")


@pytest.mark.parametrize("name", ["Scarce Ones (5 Suits)", "Scarce Ones & Dark Null (6 Suits)",
                                  BLACK6, "Critical Fours & Gray (6 Suits)"])
def test_generated_variant_decks_are_the_variants(name, tmp_path):
    path = tmp_path / "deck.txt"
    assert run(["generate", "standard", "--variant", name, "--seed", 5, "-o", path]).exit_code == 0
    res = run(["solve", path, "--rules", "live", "--players", 4, "--variant", name, "--json"])
    assert res.exit_code in (10, 20), res.output
    assert "any_deck" not in json.loads(res.stdout)


def test_solve_refuses_a_deck_the_variant_does_not_deal(six_colors):
    res = run(["solve", six_colors, "--rules", "live", "--players", 3, "--variant", BLACK6])
    assert res.exit_code == 2 and res.stderr.count("\n") == 1
    assert ("not a deck that the variant 'Black (6 Suits)' deals: card #18 is a second Black 1, "
            "but Black (6 Suits) deals 1 (--any-deck takes it anyway)") in res.stderr


def test_any_deck_solves_it_and_says_so(six_colors, tmp_path):
    cert = tmp_path / "game.json"
    res = run(["solve", six_colors, "--rules", "live", "--players", 3, "--variant", BLACK6,
               "--any-deck", "--certificate", cert])
    assert res.exit_code == 10, res.output
    assert ("c any deck: not a deck that Black (6 Suits) deals (card #18 is a second Black 1, "
            "but Black (6 Suits) deals 1); taken as given (--any-deck)") in res.stdout
    assert "c note: hanab.live cannot replay it: its deck is not the 55-card deck" in res.stdout
    res = run(["solve", six_colors, "--rules", "live", "--players", 3, "--variant", BLACK6,
               "--any-deck", "--json"])
    assert json.loads(res.stdout)["any_deck"].startswith("card #18 is a second Black 1")
    # the certificate names its variant: reading it again needs --any-deck again
    res = run(["verify", six_colors, cert, "--rules", "live"])
    assert res.exit_code == 2 and res.stderr.count("\n") == 1
    assert "expected a deck that the variant 'Black (6 Suits)' deals (55 cards" in res.stderr
    assert "found card #18 is a second Black 1" in res.stderr
    res = run(["verify", cert, cert, "--rules", "live", "--any-deck", "--json"])
    got = json.loads(res.stdout)
    assert res.exit_code == 0 and got["verified"] and got["any_deck"].startswith("card #18")
    res = run(["analyze", cert, "--position-limit", 5])
    assert res.exit_code == 2 and "found card #18 is a second Black 1" in res.stderr
    res = run(["analyze", cert, "--position-limit", 5, "--any-deck"])
    assert res.exit_code == 0 and "c any deck: not a deck that Black (6 Suits) deals" in res.stdout


def test_no_variant_takes_any_deck(tmp_path):
    # hanabi-cp's own decks of any size play under No Variant's clue rule
    path = tmp_path / "small.txt"
    path.write_text("n 2\nc 2\n1r 1y 2r 2y\n")
    res = run(["solve", path, "--rules", "live", "--players", 2, "--hand-size", 1, "--json"])
    assert res.exit_code == 10 and "any_deck" not in json.loads(res.stdout)


def test_play_refuses_a_deck_the_variant_does_not_deal(six_colors):
    res = run(["play", six_colors, "--players", 3, "--variant", BLACK6])
    assert res.exit_code == 2 and res.stderr.count("\n") == 1
    assert "card #18 is a second Black 1" in res.stderr
    res = run(["play", six_colors, "--players", 3, "--variant", BLACK6, "--any-deck"])
    assert res.exit_code == 0 and "c any deck: not a deck that Black (6 Suits) deals" in res.stdout
    res = run(["play", "--games", 2, "--csv", "x.csv", "--variant", BLACK6, "--any-deck"])
    assert res.exit_code == 2 and "--any-deck goes with DECK" in res.stderr


def test_any_deck_needs_rules_live(six_colors):
    res = run(["solve", six_colors, "--any-deck"])
    assert res.exit_code == 2 and "--any-deck needs --rules live" in res.stderr
