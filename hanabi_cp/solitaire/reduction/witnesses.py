"""Witnesses both ways between a formula and its deck (encodings/reduction-readback.md).

- ``play_from_assignment``: a satisfying assignment -> the winning play sequence of
  the proof of Theorem 5.6, built gadget by gadget (no solver): store the value-2
  card of the chosen color in each variable gadget, both early cards of a low color
  in part 2, the first part-4 card of each false literal's color, every dummy card
  that is not playable; play every playable card; discard the rest.
- ``assignment_from_play``: any winning play sequence -> an assignment of the
  ORIGINAL formula, by the read-back rule x_i = (color 2i-1 reached level >= 2
  during sigma_1), mapped back through to_exact3.
"""

from __future__ import annotations

from collections.abc import Mapping

from ...core.errors import CertificateError
from ..play_sequence import DISCARD, PLAY, STORE, PlaySequence
from ..referee import replay
from .sat3 import Reduction


class ReadbackFailure(Exception):
    """The read-back rule produced a falsifying assignment from a winning play: a
    counterexample to the theorem of encodings/reduction-readback.md (our bug, never
    the user's)."""


class _Game:
    """A forward simulation: levels per color and the multiset of stored cards."""

    def __init__(self, c: int):
        self.top = [0] * (c + 1)
        self.hand: dict[tuple[int, int], int] = {}
        self.held = 0

    def act(self, card, action: str) -> None:
        a, k = card
        if action == STORE and self.top[k] + 1 != a:
            self.hand[card] = self.hand.get(card, 0) + 1
            self.held += 1
            return
        if action == DISCARD:
            return
        self.top[k] = a
        while self.hand.get((self.top[k] + 1, k)):
            self.hand[(self.top[k] + 1, k)] -= 1
            self.held -= 1
            self.top[k] += 1


def _stores(red: Reduction, seg, game: _Game, assignment: Mapping[int, bool],
            lows: dict[int, tuple[int, ...]]) -> set[int]:
    """Base-deck indices the proof stores in segment ``seg``, given the current levels."""
    cards = red.base.cards
    idx = range(seg.start, seg.end)
    if seg.kind == "var":
        t, f = seg.colors
        want = t if assignment.get((t + 1) // 2, False) else f
        return {i for i in idx if cards[i] == (2, want)}
    if seg.kind == "part2":
        level = game.top[seg.colors[0]]
        # A low color keeps the cards above its next three values until they play.
        return {i for i in idx if level + 2 <= cards[i].value <= level + 5}
    if seg.kind in ("part4", "part4x"):
        if seg.kind == "part4":
            lows[seg.clause] = tuple(c for c, o in zip(seg.colors, seg.offsets)
                                     if game.top[c] == o + 1)
        low = lows[seg.clause]
        if len(low) == 3:
            raise CertificateError(f"the assignment falsifies clause {seg.clause}")
        if red.h == 1:   # one slot: the first false literal in part 4, the second in the extension
            low = low[:1] if seg.kind == "part4" else low[1:2]
        elif seg.kind == "part4x":
            low = ()
        first: dict[int, int] = {}
        for i in idx:
            first.setdefault(cards[i].color, i)
        return {first[c] for c in low}
    return set()


def play_from_assignment(red: Reduction, assignment: Mapping[int, bool],
                         original: bool = True) -> PlaySequence:
    """The proof's winning play for a satisfying assignment (of the original formula,
    or of ``red.formula.cnf`` with original=False); checked by the referee."""
    if original:
        if not red.formula.original.satisfied_by(assignment):
            j = red.formula.original.first_falsified(dict(assignment))
            raise CertificateError(f"the assignment falsifies clause {j} of the formula")
        assignment = red.formula.lift(assignment)
    dummy = set(range(2 * red.num_vars + 1, red.deck.c + 1))
    game = _Game(red.base.c)
    lows: dict[int, tuple[int, ...]] = {}
    actions = [DISCARD] * red.base.N
    for seg in red.segments:
        stores = _stores(red, seg, game, assignment, lows)
        for i in range(seg.start, seg.end):
            card = red.base.cards[i]
            if game.top[card.color] + 1 == card.value:
                act = PLAY
            elif i in stores or card.color in dummy:
                act = STORE
            else:
                act = DISCARD
            actions[i] = act
            game.act(card, act)
    # Extra copies (r > default) are never needed: discard them.
    plays = PlaySequence("".join(DISCARD if x else actions[s]
                                 for s, x in zip(red.source, red.extra)))
    result = replay(red.deck, red.h, plays)
    if not result.won:
        raise CertificateError(f"the proof's play does not win: {result.error}")
    return plays


def readback(red: Reduction, plays: PlaySequence) -> dict[int, bool]:
    """x_i of the exact 3-CNF: color 2i-1 reached level >= 2 during sigma_1."""
    game = _Game(red.deck.c)
    start, end = red.sigma1
    for i in range(end):
        game.act(red.deck.cards[i], plays[i])
    return {i: game.top[2 * i - 1] >= 2 for i in range(1, red.num_vars + 1)}


def assignment_from_play(red: Reduction, plays: PlaySequence) -> dict[int, bool]:
    """A winning play -> an assignment of the original formula (checked: a failure is a
    counterexample to the read-back theorem and raises)."""
    result = replay(red.deck, red.h, plays)
    if not result.won:
        raise CertificateError(f"not a winning play sequence: {result.error}")
    back = red.formula.to_original(readback(red, plays))
    if not red.formula.original.satisfied_by(back):
        raise ReadbackFailure("read-back produced an assignment that falsifies clause "
                             f"{red.formula.original.first_falsified(back)}: the read-back "
                             "theorem fails on this play")
    return back
