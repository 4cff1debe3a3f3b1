"""The piles' side of a real-rules game: what each pile takes now and later, which
values some game may still play, and hanab.live's max score as cards are lost.

``GamePiles`` holds no state of its own: ``referee.Game`` inherits it and holds the
fields it reads (the piles, the values played on them in Up or Down and Sudoku, the
cards lost, the caps and the shared ``Tables``).  Kept apart so that the referee's
moves and end rules read in one place and the pile arithmetic, with its three
shapes (plain, reversed suits, piles whose order is chosen in play), in another.
"""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING

from ..core.model import Deck
from .variants.catalogue import Variant
from .variants.pile_rules import next_values, orders
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
    tables: Tables | None
    needs: tuple[object, tuple, tuple[frozenset, ...], frozenset]

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
        return frozenset(v.model_value(r) for r in next_values(v, tuple(self.played), k))

    def takes(self, k: int, a: int) -> bool:
        """Whether color index k's pile takes the deck value ``a`` now."""
        return (a, k + 1) in self._needed_now() if self.played else self.next_value(k) == a

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
        caller does not ask then)."""
        v, n, c = self.chosen, self.deck.n, self.deck.c
        assert v is not None and self.tables is not None
        lost, totals = self.lost_counts, self.tables.totals

        def dead(k: int, rank: int) -> bool:
            a = v.model_value(rank)
            if k >= c or a > n:
                return True             # a deck with fewer colours or values: none dealt
            x = k * n + a - 1
            return lost[x] >= totals[x]
        if v.up_or_down:
            if changed is None:
                self.caps = [0] * len(self.played)
            for k in range(len(self.played)) if changed is None else (changed,):
                self.caps[k] = up_or_down_cap(v, self.played[k], partial(dead, k))
            self.best = min(self.best, sum(self.caps))
        else:
            self.best = min(self.best, max_score(v, tuple(self.played), dead))

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
            return k - 1 if self.lost_counts[x] == self.tables.totals[x] else None
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
        """The cards (value, color) the piles take next, counted again only for the
        piles that changed since the last call on this game or the one it was copied
        from: a pile's next values read that pile, and in Sudoku an empty pile's
        also the first values of the others, which change only when a pile starts."""
        v, c = self.chosen, self.deck.c
        at: tuple = tuple(self.played) if v is not None else tuple(self.piles)
        tables, old, each, union = self.needs
        if tables is self.tables and old == at:
            return union
        fresh = tables is not self.tables or len(old) != c
        starts = not fresh and v is not None and v.sudoku \
            and any(bool(x) != bool(y) for x, y in zip(at, old))
        got = [frozenset()] * c if fresh else list(each)
        for k in range(c):
            if fresh or at[k] != old[k] or (starts and not at[k]):
                got[k] = frozenset((a, k + 1) for a in self.next_values(k))
        union = frozenset().union(*got)
        self.needs = self.tables, at, tuple(got), union
        return union
