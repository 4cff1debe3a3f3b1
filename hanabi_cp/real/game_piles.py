"""The piles' side of a real-rules game: what each pile takes now and later, which
values some game may still play, and hanab.live's max score as cards are lost.

``GamePiles`` holds no state of its own: ``referee.Game`` inherits it and holds the
fields it reads (the piles, the values played on them in Up or Down and Sudoku, the
cards lost, the caps and the shared ``Tables``).  Kept apart so that the referee's
moves and end rules read in one place and the pile arithmetic, with its three
shapes (plain, reversed suits, piles whose order is chosen in play), in another.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache
from typing import TYPE_CHECKING

from ..core.model import Deck
from .variants.catalogue import START, Variant
from .variants.pile_rules import next_values, orders, pile_next
from .variants.pile_score import max_score, up_or_down_cap

if TYPE_CHECKING:
    from .referee import Tables


class GamePiles:
    """The pile arithmetic of ``referee.Game`` (see the module docstring)."""

    deck: Deck
    piles: list[int]
    played: list[tuple[int, ...]]
    lost_cards: list[int]
    lost_counts: list[int]
    caps: list[int]
    best: int
    dead_colors: frozenset[int]
    tables: Tables | None
    needs: tuple[object, tuple[frozenset[int], ...], tuple[int, ...], int]

    @property
    def chosen(self) -> Variant | None:
        """The variant when it is Up or Down or Sudoku (``Tables.chosen``), else None."""
        assert self.tables is not None
        return self.tables.chosen

    def card(self, order: int) -> tuple[int, int]:
        c = self.deck.cards[order]
        return c.value, c.color

    def real(self, a: int) -> int:
        """A deck value as hanab.live's rank (START for the Up or Down value n)."""
        v = self.chosen
        return a if v is None else v.live_rank(a)

    def complete(self, k: int) -> bool:
        """Whether color index k's pile takes no more card."""
        v = self.chosen
        return self.piles[k] >= (self.deck.n if v is None else v.stack_size)

    def next_values(self, k: int) -> frozenset[int]:
        """The deck values color index k's pile takes next (none once complete): in
        Up or Down and Sudoku those of ``pile_rules.next_values``, else ``next_value``."""
        v = self.chosen
        if v is None:
            return frozenset() if self.piles[k] >= self.deck.n \
                else frozenset((self.next_value(k),))
        played = self.played[k]
        if v.sudoku and not played:
            return next_values(v, self.played, k)
        return _model_next(v.up_or_down, v.stack_size, played)

    def takes(self, k: int, a: int) -> bool:
        """Whether color index k's pile takes the deck value ``a`` now."""
        return a in self._next_now()[k] if self.played else self.next_value(k) == a

    def needed(self, k: int, a: int) -> bool:
        """Whether some order of color index k's pile that extends it takes the deck
        value ``a`` later (losses aside)."""
        v = self.chosen
        if v is None:
            return self.piles[k] < self.height_of(k, a)
        r, done = v.live_rank(a), len(self.played[k])
        return any(r in o[done:] for o in self._orders(k))

    def reachable(self, k: int, a: int) -> bool:
        """Whether some game may still play the deck value ``a`` on color index k's
        pile: an order of the pile that extends it takes ``a`` after values that each
        still have a copy not lost (in Sudoku, an empty pile's first value not
        another pile's)."""
        v = self.chosen
        if v is None:
            return self.piles[k] < self.height_of(k, a) <= self.caps[k]
        assert self.tables is not None
        r, done, n = v.live_rank(a), len(self.played[k]), self.deck.n
        totals, lost = self.tables.totals, self.lost_counts
        for o in self._orders(k):
            rest = o[done:]
            if r in rest and all(v.model_value(x) <= n and lost[k * n + v.model_value(x) - 1]
                                 < totals[k * n + v.model_value(x) - 1]
                                 for x in rest[:rest.index(r)]):
                return True
        return False

    def _orders(self, k: int) -> tuple[tuple[int, ...], ...]:
        """Up or Down, Sudoku: the complete orders of color index k's pile that extend
        it (in Sudoku an empty pile may not start at another pile's first value)."""
        v = self.chosen
        assert v is not None
        played = self.played[k]
        found = orders(v, played)
        if v.sudoku and not played:
            taken = {p[0] for p in self.played if p}
            found = tuple(o for o in found if o[0] not in taken)
        return found

    def _server_max(self, changed: int | None = None) -> None:
        """Up or Down and Sudoku: lower ``best`` to the server's max score now, counted
        again only where it can have changed: the count reads a pile's contents and
        which of its kinds are dead (every copy lost), so only after a move that grew
        pile ``changed`` or killed a kind of its color (None: every pile).  Up or Down
        sums independent piles (``caps`` keeps each one's part); Sudoku's count reads
        a pile's first value only, so a pile grown past it changes nothing (the
        caller does not ask then).  While the piles it reads (Up or Down: pile
        ``changed``; Sudoku: all) have no kind dead, it counts each its stack size,
        as it did before the move: nothing to count."""
        v, n = self.chosen, self.deck.n
        assert v is not None and self.tables is not None
        if changed is not None and (changed not in self.dead_colors if v.up_or_down
                                    else not self.dead_colors):
            return
        lost, totals, ranks = self.lost_counts, self.tables.totals, v.ranks
        # per pile read, per rank: dead (every copy lost, or none dealt: a deck with
        # fewer values), each counted once
        rows: dict[int, dict[int, bool]] = {}
        for k in range(len(self.played)) if changed is None or not v.up_or_down else (changed,):
            rows[k] = row = {}
            for r in ranks:
                a = v.model_value(r)
                row[r] = a > n or lost[k * n + a - 1] >= totals[k * n + a - 1]
        if changed is None:
            self.dead_colors = frozenset(k for k, row in rows.items() if any(row.values()))
            if not self.dead_colors:      # each pile counts its stack size (the deal)
                if v.up_or_down:
                    self.caps = [v.stack_size] * len(self.played)
                self.best = min(self.best, v.stack_size * len(self.played))
                return
        if v.up_or_down:
            if changed is None:
                self.caps = [0] * len(self.played)
            for k, row in rows.items():
                self.caps[k] = up_or_down_cap(v, self.played[k], row.__getitem__)
            self.best = min(self.best, sum(self.caps))
        else:
            self.best = min(self.best, max_score(v, tuple(self.played),
                                                 lambda k, r: rows[k][r]))

    @property
    def _max_reads(self) -> int:
        """How many of a pile's first cards the server's max score reads: Sudoku's
        count its first value, Up or Down's its first two (they fix its direction),
        so a pile grown past them leaves the count as it was (a pile completed then
        counts its stack size, as the walk in its direction did before: each of its
        values is on the pile or is the card played, none dead)."""
        return 1 if self.chosen.sudoku else 2  # type: ignore[union-attr]

    def value_at(self, k: int, height: int) -> int:
        """The value of the ``height``-th card (from 1) of color index k's pile (in a
        variant whose piles have one order: not Up or Down nor Sudoku)."""
        assert self.tables is not None
        return self.deck.n + 1 - height if self.tables.down[k] else height

    def height_of(self, k: int, value: int) -> int:
        """The pile height (from 1) at which color index k's pile takes ``value``: the
        value itself, or n + 1 - value in a reversed suit (``value_at``'s inverse,
        which is the same map)."""
        return self.value_at(k, value)

    def next_value(self, k: int) -> int:
        """The value color index k's pile takes next (n + 1 or 0 once complete)."""
        return self.value_at(k, self.piles[k] + 1)

    def _lose(self, order: int) -> int | None:
        """Lose the card; in Up or Down and Sudoku, its color index if that was its
        kind's last copy (the server's max score may fall: ``_server_max``), else None."""
        a, k = self.card(order)
        self.lost_cards.append(order)
        x = (k - 1) * self.deck.n + a - 1
        self.lost_counts[x] += 1
        assert self.tables is not None
        if self.tables.chosen is not None:
            if self.lost_counts[x] != self.tables.totals[x]:
                return None
            self.dead_colors = self.dead_colors | {k - 1}
            return k - 1
        height = self.height_of(k - 1, a)
        if self.lost_counts[x] == self.tables.totals[x] and height <= self.caps[k - 1]:
            self.caps[k - 1] = height - 1
        return None

    def _cap(self, k: int) -> int:
        """Color index k's pile heights 1.. whose values each have a copy not lost."""
        n = self.deck.n
        assert self.tables is not None
        totals, base = self.tables.totals, k * n
        h = 0
        while h < n and totals[base + self.value_at(k, h + 1) - 1] \
                > self.lost_counts[base + self.value_at(k, h + 1) - 1]:
            h += 1
        return h

    def _needed_now(self) -> frozenset:
        """The cards (value, color) the piles take next."""
        return frozenset((a, k + 1) for k, vals in enumerate(self._next_now()) for a in vals)

    def _next_now(self) -> tuple[frozenset[int], ...]:
        """Per pile, the deck values it takes next (``next_values``).  Kept in
        ``needs`` and updated by ``_pile_grew`` as piles grow (a pile's next values
        read that pile only, and in Sudoku an empty pile's also the others' first
        values); counted afresh for a game whose tables are not the ones it was
        counted with (``pile_order`` renames a position's deck)."""
        if self.needs[0] is not self.tables:
            self._count_needs(range(self.deck.c), fresh=True)
        return self.needs[1]

    def _pile_grew(self, k: int) -> None:
        """Pile k took a card: count its next values again (in Sudoku, a pile that
        has just started also changes what the empty piles may start with)."""
        if self.needs[0] is not self.tables:
            return                  # counted afresh on the next ask
        if self.played and self.chosen.sudoku and len(self.played[k]) == 1:  # type: ignore[union-attr]
            self._count_needs([j for j, p in enumerate(self.played) if not p or j == k])
        else:
            self._count_needs((k,))

    def _count_needs(self, piles: Iterable[int], fresh: bool = False) -> None:
        tables = self.tables
        assert tables is not None
        c, n, last = self.deck.c, self.deck.n, tables.last_at
        got = [frozenset()] * c if fresh else list(self.needs[1])
        latest = [-1] * c if fresh else list(self.needs[2])
        for k in piles:
            got[k] = vals = self.next_values(k)
            late, base = -1, k * n - 1
            for a in vals:
                if 0 < a <= n and last[base + a] > late:
                    late = last[base + a]
            latest[k] = late
        self.needs = tables, tuple(got), tuple(latest), max(latest) if c else -1

@cache
def _model_next(up_or_down: bool, n: int, played: tuple[int, ...]) -> frozenset[int]:
    # pile_next as deck values: Up or Down's START is n + 1 (Variant.model_value)
    got = pile_next(up_or_down, n, played)
    return frozenset(n + 1 if r == START else r for r in got) if up_or_down else got
