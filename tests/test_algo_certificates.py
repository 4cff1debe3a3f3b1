"""Certificates of greedy, lazy, dp and search under mutation: flip one action of a winning
play sequence and the registry must reject it unless it still wins, judged by an
independent simulator written here (it rescans the whole hand after every action
instead of following one color's cascade)."""

from __future__ import annotations

import random

import pytest

from hanabi_cp.core.errors import SolverBug
from hanabi_cp.apps.generators import random_deck
from hanabi_cp.core.model import Deck
from hanabi_cp.solitaire.play_sequence import PlaySequence
from hanabi_cp.solitaire.solve import Outcome, certify, solve
from hanabi_cp.core.status import Status
from hanabi_cp.solitaire.referee import replay


def simulate(deck: Deck, h: int, actions: str) -> bool:
    level = {k: 0 for k in range(1, deck.c + 1)}
    hand: list = []
    for (a, k), act in zip(deck.cards, actions):
        if act == "P":
            if level[k] != a - 1:
                return False
            level[k] = a
        elif act == "S":
            if len(hand) >= h:
                return False
            hand.append((a, k))
        progress = True
        while progress:
            progress = False
            for card in list(hand):
                if level[card[1]] == card[0] - 1:
                    hand.remove(card)
                    level[card[1]] = card[0]
                    progress = True
    return len(actions) == deck.N and all(v == deck.n for v in level.values())


def winning_certificates(method: str, shapes: dict, count: int):
    found = 0
    for seed in range(5_000):
        rng = random.Random(seed)
        deck = random_deck(rng, rng.randint(*shapes.get("n", (1, 4))),
                           rng.randint(*shapes.get("c", (1, 3))),
                           rng.randint(*shapes.get("r", (1, 3))))
        h = rng.randint(1, 3)
        out = solve(deck, h, method)
        if out.status is Status.WINNABLE:
            yield deck, h, out.plays.actions
            found += 1
            if found == count:
                return


@pytest.mark.parametrize("method,shapes", [
    ("greedy", {"r": (1, 1)}), ("lazy", {"c": (1, 1), "n": (1, 7)}), ("dp", {}),
    ("search", {})])
def test_mutated_certificates(method, shapes):
    rejected = accepted = 0
    for deck, h, actions in winning_certificates(method, shapes, 120):
        assert simulate(deck, h, actions)
        for i, old in enumerate(actions):
            for new in "PSD".replace(old, ""):
                bad = actions[:i] + new + actions[i + 1:]
                wins = simulate(deck, h, bad)
                assert replay(deck, h, PlaySequence(bad)).won == wins, (str(deck), h, bad)
                claim = Outcome(Status.WINNABLE, PlaySequence(bad), method=method)
                if wins:
                    accepted += 1
                    assert certify(deck, h, claim).verified
                else:
                    rejected += 1
                    with pytest.raises(SolverBug):
                        certify(deck, h, claim)
    assert rejected > 0 and accepted > 0


def test_truncated_certificate_rejected():
    deck = Deck.of([(1, 1), (2, 1)])
    with pytest.raises(SolverBug, match="play sequence has 1 actions"):
        certify(deck, 0, Outcome(Status.WINNABLE, PlaySequence("P"), method="dp"))
