"""Infobot's common knowledge: every player's possibility tables, weighted.

Each card in a hand has a table (a kind mask, see ``cards``) narrowed by clues,
by the answers hat hints gave about it (``questions``) and by inferences from
moves; each possible kind weighs as many copies as are not yet played or
discarded (``public_weights``).  Every player holds the same state, built only
from public events, so each can work out the questions any other player asks and,
from the cards it sees, their answers.

States are immutable and their transitions cached, as in ``possibilities``: the
seats of a game walk through the very same state objects.  The inputs of every
shared result are public numbers, the packed answers a hint announced (which every
receiver knows once it has decoded its own), or a hand looked at by a seat that
sees it (``hat_value``, whose result is the same whoever computes it).

>>> from hanabi_cp.knowledge.cards import CardSpace
>>> c = Common.start(CardSpace(5), (5, 5))
>>> c.hint_room(1), c.hint_slot(1)
(3, 0)
>>> value, tables = c.hat_value(1, (0, 5, 10, 15, 20), 3)
>>> c.after_hat(3, 0, (-1, value)).tables[1] == tables
True
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from .cards import Board, CardSpace, TRANSITIONS, Weights, bits
from .modular import Modular
from .questions import next_question

Tables = tuple[tuple[int, ...], ...]


@lru_cache(maxsize=TRANSITIONS)    # asked for by every seat, about one game's boards at a time
def public_weights(board: Board) -> Weights:
    """Copies not yet played or discarded, per kind (shared: never to be changed)."""
    space = board.space
    return Weights(space, [space.copies[k] - board.lost[k] - (board.played >> k & 1)
                           for k in range(space.kinds)])


@dataclass(frozen=True, eq=False)
class Common:
    """``tables[p][slot]`` for every player, and the board."""

    space: CardSpace
    board: Board
    tables: Tables
    _memo: dict = field(default_factory=dict, repr=False)

    @staticmethod
    @lru_cache(maxsize=64)
    def start(space: CardSpace, hand_sizes: tuple[int, ...]) -> Common:
        return Common(space, Board.start(space), tuple((space.full,) * h for h in hand_sizes))

    @property
    def weights(self) -> Weights:
        return public_weights(self.board)

    # ---- the hint code ---------------------------------------------------------

    def hint_room(self, p: int) -> int:
        """How many distinct hints the code can give p (the blog's k): 3 (rank of
        the hint card, its color, or a clue missing it), 4 when p's hand has two
        colors and two ranks by common knowledge (a missing clue by rank or by
        color), 2 when every card might be a copy of one kind (then no clue can
        miss the hint card: possible only for hands of at most 3 cards), 0 for an
        empty hand (only in the last round of one-card hands)."""
        key = ("room", p)
        if key not in self._memo:
            self._memo[key] = self._hint_room(p)
        return self._memo[key]

    def _hint_room(self, p: int) -> int:
        hand, space = self.tables[p], self.space
        if not hand:
            return 0                 # nobody can clue an empty hand
        if space.clue_masks:
            return self._variant_hint_room(p)
        if len(hand) <= max(space.copies):
            both = space.full
            for t in hand:
                both &= t
            counts = self.weights.counts
            if any(both >> k & 1 and counts[k] >= len(hand) for k in range(space.kinds)):
                return 2
        one_color = any(all(t & cm for t in hand) for cm in space.color_masks[1:])
        one_rank = any(all(t & rm for t in hand) for rm in space.rank_masks[1:])
        return 3 if one_color or one_rank else 4

    def _variant_hint_room(self, p: int) -> int:
        """``hint_room`` where clues touch as a hanab.live variant says (rainbow, pink,
        prism, ... suits): a clue that misses the hint card (a card of kind a) surely
        exists unless, for some kind a it may be, every other card may be of a kind
        that no clue missing a touches (its clues all touch a too).  Every card takes
        a clue of each type (``players.game.check_clues``), so clues that touch it
        always exist."""
        hand, space = self.tables[p], self.space
        x = self.hint_slot(p)
        colors, ranks = space.clue_masks
        clues = [m for m in colors[1:] if m], [m for m in ranks[1:] if m]

        def misses(kinds_other: int, a: int, masks: list[int]) -> bool:
            # some clue of ``masks`` touches a kind of ``kinds_other`` but not a, for
            # every kind the other card may be
            return all(any(m >> b & 1 and not m >> a & 1 for m in masks) for b in bits(kinds_other))

        def possibly_none(masks: list[int]) -> bool:
            return any(all(not misses(t, a, masks) for y, t in enumerate(hand) if y != x)
                       for a in bits(hand[x]))
        if possibly_none(clues[0] + clues[1]):
            return 2
        if possibly_none(clues[0]) or possibly_none(clues[1]):
            return 3
        return 4

    def hint_slot(self, p: int) -> int:
        """The card the hint code is about: the one with most left to learn (color
        and rank both open first), never one known dead or identified if another
        is neither; the first on ties."""
        key = ("slot", p)
        if key not in self._memo:
            best_score, best = -1, 0
            space, dead = self.space, self.board.dead
            for slot, t in enumerate(self.tables[p]):
                if t & ~dead == 0 or not t & (t - 1):
                    score = 0
                else:
                    score = (1 + (not _within_one(t, space.color_masks))
                             + (not _within_one(t, space.rank_masks)))
                if score > best_score:
                    best_score, best = score, slot
            self._memo[key] = best
        return self._memo[key]

    def knows_playable(self, p: int) -> bool:
        playable = self.board.playable
        return any(t & ~playable == 0 for t in self.tables[p])

    # ---- hat values ------------------------------------------------------------

    def hat_value(self, p: int, hand: Sequence[int], limit: int) -> tuple[int, tuple[int, ...]]:
        """p's answers packed under ``limit`` when p holds the kinds ``hand``, and
        p's tables once everyone knows them."""
        return _hat_value(self.tables[p], tuple(hand), limit, self.board)

    def answers(self, limit: int, source: int, hands: Sequence[Sequence[int] | None]) -> tuple[int, ...]:
        """Every other player's packed answers as ``source``, who sees their
        ``hands``, works them out (-1 for ``source``)."""
        values = [-1] * len(self.tables)
        for p, hand in enumerate(hands):
            if p != source:
                assert hand is not None
                values[p] = self.hat_value(p, hand, limit)[0]
        return tuple(values)

    def hat_sum(self, limit: int, source: int, hands: Sequence[Sequence[int] | None]) -> int:
        """The number ``source`` announces: the others' packed answers summed
        modulo ``limit``."""
        return sum(v for v in self.answers(limit, source, hands) if v >= 0) % limit

    def hat_values(self, limit: int, number: int, source: int, me: int,
                   hands: Sequence[Sequence[int] | None]) -> tuple[int, ...]:
        """Everyone's packed answers when ``source`` announced ``number``, as ``me``
        (who sees the ``hands`` of everyone else) works them out: the others' from
        their cards, its own by subtraction (-1 for ``source``)."""
        values = [-1] * len(self.tables)
        for p, hand in enumerate(hands):
            if p not in (source, me):
                assert hand is not None
                values[p] = self.hat_value(p, hand, limit)[0]
        rest = (number - sum(v for v in values if v >= 0)) % limit
        if me != source:
            values[me] = rest
        elif rest != 0:
            raise AssertionError("the source's announced hat sum does not match its own")
        return tuple(values)

    # ---- transitions (cached; see the module docstring) -------------------------

    @lru_cache(maxsize=TRANSITIONS)  # noqa: B019 - shared states, bounded cache (see TRANSITIONS)
    def after_hat(self, limit: int, source: int, values: tuple[int, ...]) -> Common:
        """Every player but ``source`` learns its packed answers ``values[p]``."""
        tables = list(self.tables)
        for p, v in enumerate(values):
            if p != source:
                tables[p] = _learn_hat(self.tables[p], v, limit, self.board)
        return Common(self.space, self.board, tuple(tables))

    @lru_cache(maxsize=TRANSITIONS)  # noqa: B019
    def after_clue(self, p: int, is_color: bool, value: int, touched: tuple[int, ...]) -> Common:
        """A clue to p naming ``value`` (a color 1..C or a rank) touched ``touched`` slots."""
        mask = self.space.clue_mask(is_color, value)
        tables = list(self.tables)
        tables[p] = tuple(t & mask if slot in touched else t & ~mask for slot, t in enumerate(tables[p]))
        return Common(self.space, self.board, tuple(tables))

    @lru_cache(maxsize=TRANSITIONS)  # noqa: B019
    def after_nobody_needed_hint(self, mover: int) -> Common:
        """The mover discarded with tokens left, which it does only when every
        other player who knows no playable card has none: they learn so."""
        playable = self.board.playable
        tables = tuple(hand if p == mover or self.knows_playable(p) else tuple(t & ~playable for t in hand)
                       for p, hand in enumerate(self.tables))
        return Common(self.space, self.board, tables)

    @lru_cache(maxsize=TRANSITIONS)  # noqa: B019
    def after_removal(self, p: int, slot: int, kind: int, played: bool, drew: bool) -> Common:
        """p's card in ``slot``, of ``kind``, left the hand (onto its pile if
        ``played``, else discarded); a fresh table is appended if a card was drawn;
        the kind's weight drops everywhere (to nothing once its copies are gone)."""
        hand = list(self.tables[p])
        if not hand[slot] >> kind & 1:
            raise AssertionError(f"common table of player {p} slot {slot} excluded its card")
        board = self.board.after_play(kind) if played else self.board.after_discard(kind)
        del hand[slot]
        if drew:
            hand.append(self.space.full)
        tables = list(self.tables)
        tables[p] = tuple(hand)
        alive = public_weights(board).alive
        return Common(self.space, board, tuple(tuple(t & alive for t in h) for h in tables))


def _within_one(t: int, masks: Sequence[int]) -> bool:
    return any(t & ~m == 0 for m in masks[1:])


@lru_cache(maxsize=1 << 13)
def _hat_value(tables: tuple[int, ...], hand: tuple[int, ...], limit: int,
               board: Board) -> tuple[int, tuple[int, ...]]:
    work = list(tables)
    code = Modular.none()
    weights = public_weights(board)
    while (q := next_question(work, code.room(limit), board, weights)) is not None:
        answer = q.answer(hand)
        q.learn(answer, work)
        code.combine(Modular(q.amount, answer), limit)
    return code.value, tuple(work)


@lru_cache(maxsize=1 << 13)
def _learn_hat(tables: tuple[int, ...], value: int, limit: int, board: Board) -> tuple[int, ...]:
    work = list(tables)
    code = Modular(limit, value)
    weights = public_weights(board)
    while (q := next_question(work, code.modulus, board, weights)) is not None:
        q.learn(code.split(q.amount).value, work)
    if code.value != 0:
        raise AssertionError("hat value left over after the last question")
    return tuple(work)
