"""Infobot's questions about a hand, and the rule that picks them.

A question about player p's hand has ``amount`` possible answers; ``answer``
reads it off the cards (which the asker's teammates see) and ``learn`` narrows
p's possibility tables to what the answer says.  ``next_question`` chooses, from
common knowledge only, what p most wants to know given the room left in the
hint's number; questions are asked until the room is 1 (see ``modular``).

The choice follows the blog's description of Jeff Wu's bot with the details of
its public implementation: a player who knows no playable card asks "which of
these cards is the first playable one (or dead one)?" as one combined question;
otherwise a card whose chance of being playable is near 70 % is asked about
directly; otherwise the card least likely dead is asked "which group of kinds is
it in?", its possibilities dealt round-robin over the groups, the dead ones in a
group of their own.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from .cards import Board, Weights, bits


@dataclass(frozen=True)
class HasProperty:
    """Is card ``index`` in ``mask`` (playable, or dead)?  0 no, 1 yes."""

    index: int
    mask: int
    amount: int = 2

    def answer(self, hand: Sequence[int]) -> int:
        return self.mask >> hand[self.index] & 1

    def learn(self, answer: int, tables: list[int]) -> None:
        if answer:
            tables[self.index] &= self.mask
        else:
            tables[self.index] &= ~self.mask


@dataclass(frozen=True)
class FirstYes:
    """Which of ``parts`` is the first answered yes (1-based), 0 if none is."""

    parts: tuple[HasProperty, ...]

    @property
    def amount(self) -> int:
        return len(self.parts) + 1

    def answer(self, hand: Sequence[int]) -> int:
        for i, q in enumerate(self.parts, start=1):
            if q.answer(hand):
                return i
        return 0

    def learn(self, answer: int, tables: list[int]) -> None:
        for i, q in enumerate(self.parts, start=1):
            if answer and i == answer:
                q.learn(1, tables)
                return
            q.learn(0, tables)


@dataclass(frozen=True)
class WhichGroup:
    """Which of ``groups`` (masks partitioning the table of card ``index``) holds it."""

    index: int
    groups: tuple[int, ...]

    @property
    def amount(self) -> int:
        return len(self.groups)

    def answer(self, hand: Sequence[int]) -> int:
        kind = hand[self.index]
        for i, g in enumerate(self.groups):
            if g >> kind & 1:
                return i
        raise ValueError(f"card {self.index} is not in its own possibility table")

    def learn(self, answer: int, tables: list[int]) -> None:
        tables[self.index] &= self.groups[answer]


Question = HasProperty | FirstYes | WhichGroup


def groups_of(table: int, room: int, dead: int, colors: int) -> tuple[int, ...]:
    """Deal the live possibilities round-robin over ``room`` groups (one fewer if
    some are dead), color by color and rank by rank within a color (so a group
    tends to hold one rank in several colors), the dead ones together in a last
    group."""
    live = table & ~dead
    width = room - 1 if table & dead else room
    groups = [0] * width
    for i, k in enumerate(sorted(bits(live), key=lambda k: (k % colors, k))):
        groups[i % width] |= 1 << k
    out = [g for g in groups if g]
    if table & dead:
        out.append(table & dead)
    return tuple(out)


@lru_cache(maxsize=1 << 15)
def _chances(t: int, planes: tuple[int, ...], playable: int, dead: int) -> tuple[float, float]:
    """(chance playable, chance dead) of a table, weighted by the counts' planes."""
    total = play = gone = 0
    for i, plane in enumerate(planes):
        w = t & plane
        total += w.bit_count() << i
        play += (w & playable).bit_count() << i
        gone += (w & dead).bit_count() << i
    return play / total, gone / total


def next_question(tables: Sequence[int], room: int, board: Board, weights: Weights) -> Question | None:
    """The question a player with possibility ``tables`` asks next, given ``room``
    answers left; None when nothing more fits or nothing is worth asking."""
    if room <= 1:
        return None
    playable, dead = board.playable, board.dead
    info = []                                   # (index, p_play, p_dead)
    know_playable = know_dead = False
    planes = weights.planes
    for i, t in enumerate(tables):
        p_play, p_dead = _chances(t, planes, playable, dead)
        know_playable |= p_play == 1.0
        know_dead |= p_dead == 1.0
        if p_dead < 1.0 and t & (t - 1):        # neither dead nor determined
            info.append((i, p_play, p_dead))
    if not know_playable:
        asks = [(False, i, p) for i, p, _ in info if p > 0.0]
        if not know_dead:
            asks += [(True, i, p) for i, _, p in info if p > 0.0]
        if len(asks) > room - 1:               # keep the likeliest yes answers
            asks.sort(key=lambda a: (a[0], -a[2]))
            del asks[room - 1:]
        # the less likely yes first: past the first yes the later cards learn nothing
        asks.sort(key=lambda a: (a[0], a[2]))
        if asks:
            return FirstYes(tuple(HasProperty(i, dead if is_dead else playable) for is_dead, i, _ in asks))
    near = [(abs(p - 0.7), i) for i, p, _ in info if abs(p - 0.7) < 0.2]
    if near:
        return HasProperty(min(near)[1], playable)
    if info:
        _, i = min((p_dead, i) for i, _, p_dead in info)
        groups = groups_of(tables[i], room, dead, board.space.colors)
        return WhichGroup(i, groups) if len(groups) > 1 else None
    return None
