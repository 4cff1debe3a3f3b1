"""The model, the referee and the registry's certificate check."""

import pytest

from hanabi_cp.core.errors import DeckError, SolverBug
from hanabi_cp.core.model import Card, Deck
from hanabi_cp.solitaire.play_sequence import PlaySequence
from hanabi_cp.solitaire.solve import Outcome, certify, solve
from hanabi_cp.core.status import Status
from hanabi_cp.solitaire.referee import replay


def test_deck_parameters():
    d = Deck.of([(1, 1), (2, 1), (1, 2), (1, 1)])
    assert (d.n, d.c, d.N, d.r) == (2, 2, 4, 2)
    assert d.missing() == [Card(2, 2)]


@pytest.mark.parametrize("cards,msg", [
    ([(0, 1)], "card #1 (0:1): value must be in 1..3"),
    ([(1, 1), (1, 4)], "card #2 (1:4): color must be in 1..3"),
])
def test_deck_rejects_out_of_range(cards, msg):
    with pytest.raises(DeckError, match=msg.replace("(", r"\(").replace(")", r"\)")):
        Deck(tuple(cards), 3, 3)


def test_replay_cascade_and_win():
    d = Deck.of([(2, 1), (3, 1), (1, 1)])
    rep = replay(d, 2, PlaySequence("SSP"))
    assert rep.won and rep.score == 3 and rep.max_hand == 2


def test_replay_names_first_illegal_step():
    d = Deck.of([(1, 1), (3, 1), (2, 1), (3, 1)])
    rep = replay(d, 1, PlaySequence("PPPP"))
    assert not rep.won and rep.step == 2
    assert rep.error == "card #2 (3:1): not playable, color 1 stands at 1"


def test_replay_hand_full():
    d = Deck.of([(3, 1), (2, 1), (1, 1)])
    rep = replay(d, 1, PlaySequence("SSP"))
    assert rep.error == "card #2 (2:1): cannot store, hand is full (1 of 1)"


def test_replay_reports_unfinished_colors():
    d = Deck.of([(1, 1), (1, 2), (2, 2)])
    rep = replay(d, 0, PlaySequence("PPD"))
    assert rep.legal and not rep.won
    assert rep.error == "not won: color 1 stands at 1 of 2, color 2 stands at 1 of 2"


def test_wrong_length_rejected():
    d = Deck.of([(1, 1)])
    assert "1 cards" in replay(d, 0, PlaySequence("")).error


def test_certify_catches_lying_solver():
    d = Deck.of([(2, 1), (1, 1)])
    with pytest.raises(SolverBug):
        certify(d, 0, Outcome(Status.WINNABLE, PlaySequence("PP"), method="liar"))


def test_brute_small():
    d = Deck.of([(2, 1), (1, 1)])
    assert solve(d, 0, "brute").status is Status.UNWINNABLE
    out = solve(d, 1, "brute")
    assert out.status is Status.WINNABLE and out.verified
