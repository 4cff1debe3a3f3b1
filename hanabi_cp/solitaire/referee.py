"""The referee: replays a play sequence on a deck, independent of every solver.

It trusts nothing a solver says: it re-simulates the game card by card, plays
stored cards as soon as they become playable, and names the first illegal step
(``card #17 (3:2): not playable, color 2 stands at 1``) or the cards never played.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import islice

from ..core.errors import CertificateError
from ..core.model import Deck, check_hand
from .play_sequence import PLAY, STORE, DISCARD, PlaySequence


@dataclass(frozen=True)
class Replay:
    """What a replay established.

    >>> r = replay(Deck.of([(2, 1), (1, 1)]), 1, PlaySequence("SP"))
    >>> r.won, r.score, r.error, r.step, r.max_hand, r.legal
    (True, 2, None, None, 1, True)
    """

    won: bool
    score: int                 # cards played in total (from the deck and the hand)
    error: str | None          # first illegal step, or why the game is not won
    step: int | None = None    # 1-based index of the illegal card, if any
    max_hand: int = 0          # the largest number of cards held at once

    @property
    def legal(self) -> bool:
        return self.step is None

    def to_json(self, deck: Deck, h: int) -> dict:
        """The replay as ``verify --json`` prints it, with the deck's target and ``h``."""
        return {"won": self.won, "score": self.score, "target": deck.target,
                "error": self.error, "step": self.step, "max_hand": self.max_hand, "h": h}


def replay(deck: Deck, h: int, plays: PlaySequence) -> Replay:
    """Replay ``plays`` on ``deck`` with hand size ``h``; never raises for a bad play."""
    check_hand(h)
    if len(plays) != deck.N:
        return Replay(False, 0, f"play sequence has {len(plays)} actions, deck has {deck.N} cards", 0)
    top = [0] * (deck.c + 1)
    hand: dict[tuple[int, int], int] = {}
    held = most = score = 0
    # Over the value and color arrays: no Card tuple per card on a compact deck.
    for i, a, k, act in zip(range(1, deck.N + 1), deck.values, deck.colors, plays.actions):
        if act == PLAY:
            if top[k] + 1 != a:
                return Replay(False, score, f"card #{i} ({a}:{k}): not playable, color {k} stands at {top[k]}", i, most)
        elif act == STORE:
            if held >= h:
                return Replay(False, score, f"card #{i} ({a}:{k}): cannot store, hand is full ({held} of {h})", i, most)
            if top[k] + 1 != a:
                hand[(a, k)] = hand.get((a, k), 0) + 1
                held += 1
                most = max(most, held)
                continue
            # A stored card that is playable is played at once (fact 1).
            most = max(most, held + 1)
        else:
            assert act == DISCARD
            continue
        top[k] = a
        score += 1
        # Cascade: only color k can have advanced (fact 4).
        nxt = (a + 1, k)
        while hand.get(nxt):
            hand[nxt] -= 1
            held -= 1
            top[k] += 1
            score += 1
            nxt = (top[k] + 1, k)
    # Counted, not listed: c may be far above N on a deck that lacks cards.
    unfinished = (k for k in range(1, deck.c + 1) if top[k] < deck.n)
    short = [(k, top[k]) for k in islice(unfinished, 5)]
    if short:
        parts = ", ".join(f"color {k} stands at {t} of {deck.n}" for k, t in short)
        rest = sum(1 for _ in unfinished)
        more = f" and {rest} more colors" if rest else ""
        return Replay(False, score, f"not won: {parts}{more}", None, most)
    return Replay(True, score, None, None, most)


def check_win(deck: Deck, h: int, plays: PlaySequence) -> Replay:
    """Replay and raise CertificateError unless the sequence wins."""
    result = replay(deck, h, plays)
    if not result.won:
        raise CertificateError(result.error)
    return result
