"""The information strategy's public possibility tables, with its deductions.

One table (a kind mask, see ``cards``) per card in every hand, built only from
what everyone saw: clues (touched cards are that color or rank, the others are
not), hint values (the hint set a card's value names), and counting (once every
copy of a kind is played, discarded or publicly identified in a hand, no other
card can be it; this repeats until nothing changes, as the paper's simulator
does).  Because every player keeps the same tables, every player can compute every
other player's target card and hint sets.

>>> from hanabi_cp.knowledge.cards import CardSpace
>>> space = CardSpace(5)
>>> t = Possibilities(space, [4] * 5)
>>> t.clue(1, True, 3, {0, 2}); space.name(next(iter(bits(t.tables[1][0] & space.rank_masks[1]))))
'1:3'
>>> t.tables[1][1] & space.color_masks[3]
0
"""

from __future__ import annotations

from collections.abc import Sequence

from .cards import Board, CardSpace, bits


class Possibilities:
    """Public tables ``tables[p][slot]``, the board, and the copies used so far
    (played or lost) per kind."""

    def __init__(self, space: CardSpace, hand_sizes: Sequence[int]):
        self.space = space
        self.board = Board.start(space)
        self.used = [0] * space.kinds
        self.tables = [[space.full] * h for h in hand_sizes]

    # ---- what the tables say ---------------------------------------------------

    def known_kind(self, p: int, slot: int) -> int | None:
        t = self.tables[p][slot]
        return t.bit_length() - 1 if t and not t & (t - 1) else None

    def _observed(self) -> list[int]:
        """Copies used or publicly identified in a hand, per kind."""
        seen = list(self.used)
        for hand in self.tables:
            for t in hand:
                if t and not t & (t - 1):
                    seen[t.bit_length() - 1] += 1
        return seen

    def play_chance(self, p: int, slot: int, seen: Sequence[int]) -> float:
        """The chance card ``slot`` of p is playable, each possibility weighted by
        the copies not yet seen (``seen`` from ``_observed``)."""
        copies, playable = self.space.copies, self.board.playable
        total = good = 0
        for k in bits(self.tables[p][slot]):
            w = copies[k] - seen[k]
            total += w
            if playable >> k & 1:
                good += w
        return good / total if total > 0 else 0.0

    def target(self, p: int) -> int:
        """The slot a hint aims at: the unidentified card likeliest playable (the
        first on ties; slot 0 if none has a chance)."""
        seen = self._observed()
        best, best_slot = 0.0, 0
        for slot, t in enumerate(self.tables[p]):
            if t & (t - 1):
                chance = self.play_chance(p, slot, seen)
                if chance > best:
                    best, best_slot = chance, slot
        return best_slot

    def critical(self, kind: int) -> bool:
        """The last copy not yet used."""
        return self.space.copies[kind] - self.used[kind] == 1

    # ---- updates ---------------------------------------------------------------

    def narrow(self, p: int, slot: int, mask: int) -> None:
        self.tables[p][slot] &= mask

    def clue(self, p: int, is_color: bool, value: int, touched: set[int] | frozenset[int]) -> None:
        """A clue to p naming ``value`` (a color 1..C or a rank) touched ``touched`` slots."""
        mask = self.space.color_masks[value] if is_color else self.space.rank_masks[value]
        hand = self.tables[p]
        for slot in range(len(hand)):
            hand[slot] &= mask if slot in touched else ~mask

    def remove(self, p: int, slot: int, kind: int, played: bool, drew: bool) -> None:
        """p's card in ``slot``, of ``kind``, left the hand: onto its pile if
        ``played``, else to the discards; a fresh card is appended if one was drawn."""
        if not self.tables[p][slot] >> kind & 1:
            raise AssertionError(f"public table of player {p} slot {slot} excluded its card")
        self.board = self.board.after_play(kind) if played else self.board.after_discard(kind)
        del self.tables[p][slot]
        if drew:
            self.tables[p].append(self.space.full)
        self.used[kind] += 1

    def settle(self) -> None:
        """Count copies out until no table changes."""
        copies, kinds = self.space.copies, self.space.kinds
        while True:
            seen = self._observed()
            gone = 0
            for k in range(kinds):
                if seen[k] >= copies[k]:
                    gone |= 1 << k
            newly_known = False
            for hand in self.tables:
                for slot, t in enumerate(hand):
                    if t & (t - 1) and t & gone:
                        t &= ~gone
                        hand[slot] = t
                        newly_known |= not t & (t - 1)
            if not newly_known:
                return

    def private(self, me: int, others: Sequence[Sequence[int] | None]) -> list[int]:
        """My tables narrowed by what I see: ``others[p]`` the kinds of p's cards."""
        copies, kinds = self.space.copies, self.space.kinds
        mine = list(self.tables[me])
        base = list(self.used)
        for hand in others:
            if hand is not None:
                for k in hand:
                    base[k] += 1
        while True:
            seen = list(base)
            for t in mine:
                if t and not t & (t - 1):
                    seen[t.bit_length() - 1] += 1
            gone = 0
            for k in range(kinds):
                if seen[k] >= copies[k]:
                    gone |= 1 << k
            newly_known = False
            for slot, t in enumerate(mine):
                if t & (t - 1) and t & gone:
                    t &= ~gone
                    mine[slot] = t
                    newly_known |= not t & (t - 1)
            if not newly_known:
                return mine
