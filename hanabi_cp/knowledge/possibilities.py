"""The information strategy's public possibility tables, with its deductions.

One table (a kind mask, see ``cards``) per card in every hand, built only from
what everyone saw: clues (touched cards are that color or rank, the others are
not), hint values (the hint set a card's value names), and counting (once every
copy of a kind is played, discarded or publicly identified in a hand, no other
card can be it; this repeats until nothing changes, as the paper's simulator
does).  Because every player keeps the same tables, every player can compute every
other player's target card and hint sets.

A state is immutable and its transitions are cached: the seats of a game, who see
the same public events, walk through the very same state objects, so each update
is computed once per game instead of once per seat (the inputs are public numbers
and the values a hint announced; nothing private enters a shared result).

>>> from hanabi_cp.knowledge.cards import CardSpace
>>> space = CardSpace(5)
>>> t = Public.start(space, (4,) * 5).after_hint(8, (-1, -1, -1, -1, -1), 1, True, 3, (0, 2))
>>> [space.name(k) for k in bits(t.tables[1][0] & space.rank_masks[1])]
['1:3']
>>> t.tables[1][1] & space.color_masks[3]
0
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from .cards import Board, CardSpace, TRANSITIONS, bits, planes_of
from .partition import hint_sets

Tables = tuple[tuple[int, ...], ...]


@lru_cache(maxsize=1 << 15)
def cached_sets(table: int, played: int, m: int) -> tuple[tuple[int, ...], dict[int, int]]:
    """The hint sets of a table and each kind's value (a pure function)."""
    sets = tuple(hint_sets(table, played, m))
    return sets, {k: v for v, s in enumerate(sets) for k in bits(s)}


@dataclass(frozen=True, eq=False)
class Public:
    """Public tables ``tables[p][slot]``, the board, the copies used so far
    (played or lost) and the copies neither used nor identified in a hand, per kind;
    ``left`` (copies not used) and ``spent`` (the kinds with none left) follow
    ``used`` from transition to transition."""

    space: CardSpace
    board: Board
    used: tuple[int, ...]
    tables: Tables
    unseen: tuple[int, ...]
    left: tuple[int, ...]
    spent: int
    _memo: dict = field(default_factory=dict, repr=False)

    @staticmethod
    @lru_cache(maxsize=64)
    def start(space: CardSpace, hand_sizes: tuple[int, ...]) -> Public:
        spent = 0
        for k, c in enumerate(space.copies):
            if c <= 0:
                spent |= 1 << k
        return _settle(space, Board.start(space), (0,) * space.kinds, space.copies, spent,
                       tuple((space.full,) * h for h in hand_sizes))

    # ---- what the tables say ---------------------------------------------------

    def known_kind(self, p: int, slot: int) -> int | None:
        t = self.tables[p][slot]
        return t.bit_length() - 1 if t and not t & (t - 1) else None

    def targets(self) -> tuple[int, ...]:
        """Per player, the slot a hint aims at: the unidentified card likeliest
        playable, each possibility weighted by its copies neither used nor
        identified in a hand (the first on ties; slot 0 if none has a chance)."""
        out = self._memo.get("targets")
        if out is None:
            playable, planes = self.board.playable, _planes(self.unseen)
            out = self._memo["targets"] = tuple([_target(hand, planes, playable) for hand in self.tables])
        return out

    def target(self, p: int) -> int:
        return self.targets()[p]

    def values(self, m: int) -> tuple[dict[int, int], ...]:
        """Per player, the hint value of their target card for each kind it may be."""
        table = self._memo.get(m)
        if table is None:
            played = self.board.played
            table = self._memo[m] = tuple([cached_sets(hand[slot], played, m)[1] if hand else {}
                                           for hand, slot in zip(self.tables, self.targets())])
        return table

    def value(self, p: int, kind: int, m: int) -> int:
        """The hint value of p's target card if it is ``kind``."""
        return self.values(m)[p][kind]

    def critical(self, kind: int) -> bool:
        """The last copy not yet used."""
        return self.left[kind] == 1

    def private(self, others: Sequence[Sequence[int] | None], me: int) -> tuple[int, ...]:
        """My tables narrowed by what I see: ``others[p]`` the kinds of p's cards."""
        left = list(self.left)
        gone = self.spent
        for hand in others:
            if hand is not None:
                for k in hand:
                    left[k] -= 1
                    if left[k] <= 0:
                        gone |= 1 << k
        mine, _ = _eliminate_from((self.tables[me],), left, gone)
        return mine[0]

    # ---- transitions (cached, see the module docstring) ------------------------

    @lru_cache(maxsize=TRANSITIONS)  # noqa: B019 - shared states, bounded cache (see TRANSITIONS)
    def after_removal(self, p: int, slot: int, kind: int, played: bool, drew: bool) -> Public:
        """p's card in ``slot``, of ``kind``, left the hand: onto its pile if
        ``played``, else to the discards; a fresh card is appended if one was drawn."""
        hand = list(self.tables[p])
        if not hand[slot] >> kind & 1:
            raise AssertionError(f"public table of player {p} slot {slot} excluded its card")
        board = self.board.after_play(kind) if played else self.board.after_discard(kind)
        del hand[slot]
        if drew:
            hand.append(self.space.full)
        used = list(self.used)
        used[kind] += 1
        left = list(self.left)
        left[kind] -= 1
        spent = self.spent | 1 << kind if left[kind] <= 0 else self.spent
        tables = list(self.tables)
        tables[p] = tuple(hand)
        return _settle(self.space, board, tuple(used), tuple(left), spent, tuple(tables))

    @lru_cache(maxsize=TRANSITIONS)  # noqa: B019
    def after_hint(self, m: int, values: tuple[int, ...], receiver: int, is_color: bool, value: int,
                   touched: tuple[int, ...]) -> Public:
        """A hint announced ``values`` (each player's target narrowed to the hint set
        of that value; -1 for the giver, whose hand it says nothing about), and as a
        clue to ``receiver`` naming ``value`` (a color 1..C or a rank) it touched the
        ``touched`` slots."""
        tables = list(self.tables)
        targets = self.targets()
        for p, v in enumerate(values):
            if v < 0:
                continue
            slot = targets[p]
            sets = cached_sets(tables[p][slot], self.board.played, m)[0]
            if v >= len(sets):
                raise AssertionError(f"hint value {v} names no hint set of player {p}")
            hand = list(tables[p])
            hand[slot] &= sets[v]
            tables[p] = tuple(hand)
        mask = self.space.clue_mask(is_color, value)
        tables[receiver] = tuple(t & mask if slot in touched else t & ~mask
                                 for slot, t in enumerate(tables[receiver]))
        return _settle(self.space, self.board, self.used, self.left, self.spent, tuple(tables))


def _settle(space: CardSpace, board: Board, used: tuple[int, ...], left: tuple[int, ...], spent: int,
            tables: Tables) -> Public:
    settled, unseen = _eliminate_from(tables, list(left), spent)
    return Public(space, board, used, settled, unseen, left, spent)


def _eliminate_from(tables: Tables, left: list[int], gone: int) -> tuple[Tables, tuple[int, ...]]:
    """``left[k]``: copies of kind k not used nor seen elsewhere; ``gone``: the kinds
    with none left.  Identified tables count too, and narrow the others, repeatedly.
    A hand no table of which changes keeps its tuple."""
    fresh = [t for h in tables for t in h if not t & (t - 1)]    # identified, not yet counted
    hands = tables
    while True:
        for t in fresh:
            k = t.bit_length() - 1
            left[k] -= 1
            if left[k] <= 0:
                gone |= t
        if not gone:
            return hands, tuple(left)
        fresh = []
        narrowed: list[tuple[int, ...]] | None = None
        for p, hand in enumerate(hands):
            for t in hand:
                if t & gone and t & (t - 1):
                    break
            else:
                continue
            out = []
            for t in hand:
                if t & (t - 1) and t & gone:
                    t &= ~gone
                    if not t & (t - 1):
                        fresh.append(t)
                out.append(t)
            if narrowed is None:
                narrowed = list(hands)
            narrowed[p] = tuple(out)
        if narrowed is not None:
            hands = tuple(narrowed)
        if not fresh:
            return hands, tuple(left)


def _target(hand: tuple[int, ...], planes: tuple[int, ...], playable: int) -> int:
    best, best_slot = 0.0, 0
    for slot, t in enumerate(hand):
        if t & (t - 1):
            total = good = 0
            for i, plane in enumerate(planes):
                total += (t & plane).bit_count() << i
                good += (t & plane & playable).bit_count() << i
            if total > 0:
                chance = good / total
                if chance > best:
                    best, best_slot = chance, slot
    return best_slot


_planes = lru_cache(maxsize=1 << 12)(planes_of)
