"""Infobot's common knowledge: every player's possibility tables, weighted.

Each card in a hand has a table (a kind mask, see ``cards``) narrowed by clues,
by the answers hat hints gave about it (``questions``) and by inferences from
moves; each possible kind weighs as many copies as are not yet played or
discarded (``Weights``).  Every player keeps an identical copy, built only from
public events, so each can work out the questions any other player asks and, from
the cards it sees, their answers.

``hat_value`` packs player p's answers under a modulus (the hinter's side, and the
other receivers' side for the hands they see); ``learn_hat`` unpacks one's own.
Both are pure functions of public numbers and the hand looked at, so their
results are cached and shared between seats without any seat learning more.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from .cards import Board, CardSpace, Weights
from .modular import Modular
from .questions import next_question


class CommonKnowledge:
    """``tables[p][slot]`` for every player; ``board`` and public ``weights``."""

    def __init__(self, space: CardSpace, hand_sizes: Sequence[int]):
        self.space = space
        self.board = Board.start(space)
        self.tables = [[space.full] * h for h in hand_sizes]

    def copy(self) -> CommonKnowledge:
        twin = CommonKnowledge.__new__(CommonKnowledge)
        twin.space, twin.board = self.space, self.board
        twin.tables = [list(h) for h in self.tables]
        return twin

    @property
    def weights(self) -> Weights:
        """Copies not yet played or discarded, per kind (a function of the board)."""
        return public_weights(self.board)

    def state(self) -> tuple:
        """Everything the tables hold, for comparing two seats' copies."""
        return (self.board.piles, self.board.lost, tuple(tuple(h) for h in self.tables))

    # ---- questions of the hint code ------------------------------------------

    def hint_room(self, p: int) -> int:
        """How many distinct hints the code can give p (the blog's k): 3 (rank of
        the hint card, its color, or a clue missing it), 4 when p's hand has two
        colors and two ranks by common knowledge (a missing clue by rank or by
        color), 2 when every card might be a copy of one kind (then no clue can
        miss the hint card: only possible for hands of at most 3 cards)."""
        hand = self.tables[p]
        space = self.space
        if len(hand) <= max(space.copies):
            both = space.full
            for t in hand:
                both &= t
            for k in range(space.kinds):
                if both >> k & 1 and self.weights.counts[k] >= len(hand):
                    return 2
        one_color = any(all(t & cm for t in hand) for cm in space.color_masks[1:])
        one_rank = any(all(t & rm for t in hand) for rm in space.rank_masks[1:])
        return 3 if one_color or one_rank else 4

    def hint_slot(self, p: int) -> int:
        """The card the hint code is about: the one with most left to learn (color
        and rank unknown first), never a card known dead or identified."""
        best_score, best = -1, 0
        space, dead = self.space, self.board.dead
        for slot, t in enumerate(self.tables[p]):
            if t & ~dead == 0 or not t & (t - 1):
                score = 0
            else:
                score = 1 + (not _within_one(t, space.color_masks)) + (not _within_one(t, space.rank_masks))
            if score > best_score:
                best_score, best = score, slot
        return best

    def knows_playable(self, p: int) -> bool:
        playable = self.board.playable
        return any(t & ~playable == 0 for t in self.tables[p])

    # ---- hat sums --------------------------------------------------------------

    def hat_value(self, p: int, hand: Sequence[int], limit: int) -> tuple[int, tuple[int, ...]]:
        """p's packed answers under ``limit`` given p's cards ``hand``, and p's
        tables once everyone knows them."""
        return _hat_value(tuple(self.tables[p]), tuple(hand), limit, self.board)

    def learn_hat(self, p: int, value: int, limit: int) -> None:
        """p learns its own packed answers ``value``."""
        tables = list(self.tables[p])
        code = Modular(limit, value)
        while (q := next_question(tables, code.modulus, self.board, self.weights)) is not None:
            q.learn(code.split(q.amount).value, tables)
        if code.value != 0:
            raise AssertionError("hat value left over after the last question")
        self.tables[p] = tables

    def hat_sum(self, limit: int, source: int, hands: Sequence[Sequence[int] | None]) -> int:
        """The number ``source`` announces: every other player's packed answers
        summed modulo ``limit``; the tables learn them all."""
        total = 0
        for p, hand in enumerate(hands):
            if p != source:
                assert hand is not None
                value, tables = self.hat_value(p, hand, limit)
                total += value
                self.tables[p] = list(tables)
        return total % limit

    def learn_hat_sum(self, limit: int, number: int, source: int, me: int,
                      hands: Sequence[Sequence[int] | None]) -> None:
        """``source`` announced ``number``: ``me`` (who sees ``hands`` of everyone
        else) subtracts the answers it sees and learns its own."""
        if me == source:
            if self.hat_sum(limit, source, hands) != number:
                raise AssertionError("the source's announced hat sum does not match its own")
            return
        learned: list[tuple[int, tuple[int, ...]]] = []
        for p, hand in enumerate(hands):
            if p not in (source, me):
                assert hand is not None
                value, tables = self.hat_value(p, hand, limit)
                number -= value
                learned.append((p, tables))
        self.learn_hat(me, number % limit, limit)
        for p, tables in learned:
            self.tables[p] = list(tables)

    # ---- public events ---------------------------------------------------------

    def nobody_needed_hint(self, mover: int) -> None:
        """The mover discarded with tokens left, which it does only when every
        other player who knows no playable card has none: they learn so."""
        playable = self.board.playable
        for p, hand in enumerate(self.tables):
            if p != mover and not self.knows_playable(p):
                self.tables[p] = [t & ~playable for t in hand]

    def clue(self, p: int, is_color: bool, value: int, touched: set[int] | frozenset[int]) -> None:
        mask = self.space.color_masks[value] if is_color else self.space.rank_masks[value]
        hand = self.tables[p]
        for slot in range(len(hand)):
            hand[slot] &= mask if slot in touched else ~mask

    def remove(self, p: int, slot: int, kind: int, played: bool, drew: bool) -> None:
        """p's card in ``slot``, of ``kind``, was played (onto its pile if ``played``)
        or discarded; a fresh table is appended if a card was drawn."""
        if not self.tables[p][slot] >> kind & 1:
            raise AssertionError(f"common table of player {p} slot {slot} excluded its card")
        before = self.board
        self.board = self.board.after_play(kind) if played else self.board.after_discard(kind)
        del self.tables[p][slot]
        if drew:
            self.tables[p].append(public_weights(before).alive)
        alive = self.weights.alive
        for hand in self.tables:
            for i, t in enumerate(hand):
                hand[i] = t & alive


def _within_one(t: int, masks: Sequence[int]) -> bool:
    return any(t & ~m == 0 for m in masks[1:])


@lru_cache(maxsize=1 << 12)
def public_weights(board: Board) -> Weights:
    space = board.space
    counts = [space.copies[k] - board.lost[k] - (board.played >> k & 1) for k in range(space.kinds)]
    return Weights(space, counts)


@lru_cache(maxsize=1 << 14)
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
