"""Infobot: the generalized hat-guessing strategy of the "Hatgame strategies in
Hanabi" blog post (Jeff Wu's bot in hanabi.rs), for 2 to 6 players.

A hint carries one number modulo sum(k): each other player p has a *hint
strategy* of k_p distinct clues (``Common.hint_room``: rank or color of p's
*hint card*, or a clue missing it, split by rank and color when common knowledge
allows), and the hinter's choice among all of them names the number.  The number
is the sum modulo sum(k) of every other player's packed answers to their
prioritized *questions* (``knowledge.questions``; packed mixed-radix,
``knowledge.modular``).  Each receiver subtracts the answers it sees and unpacks
its own.  A discard of one of several publicly useless cards carries a number the
same way (which of them), and a discard with tokens left tells the others that
nobody needed a hint.  Moves follow hanabi.rs's rules (play the known playable
card that matters most, a risky play when safe enough, hint when someone needs
it, discard what is useless or least risky).  See docs/strategies/infobot.md.
"""

from __future__ import annotations

from ...knowledge.cards import CardSpace
from ...knowledge.common import Common
from ...real.actions import Action, Kind
from ...real.rules import Rules
from ...core.model import Card
from ..strategy import Strategy
from ..view import Turn, View
from .information import hand_sizes, kinds_seen, need_clue_tokens, space_of

# A risky play needs at least this chance (hanabi.rs's figure).
RISK = 0.75
# Hint rather than discard while more tokens than this are left.
SPARE_TOKENS = 4


def _useless(tables: tuple[int, ...], dead: int) -> list[int]:
    """Slots known dead, and both slots of a kind identified twice in the hand."""
    out: set[int] = set()
    first: dict[int, int] = {}
    for slot, t in enumerate(tables):
        if t & ~dead == 0:
            out.add(slot)
        elif not t & (t - 1):
            if t in first:
                out.update((slot, first[t]))
            else:
                first[t] = slot
    return sorted(out)


class _Chances:
    """Chances over my own cards from what I see: public tables narrowed to the
    kinds with a copy left unseen, each weighted by those copies."""

    def __init__(self, common: Common, me: int, seen: list[tuple[int, ...] | None]):
        counts = list(common.weights.counts)
        for hand in seen:
            for k in hand or ():
                counts[k] -= 1
        self.counts = counts
        alive = sum(1 << k for k, c in enumerate(counts) if c > 0)
        self.tables = tuple(t & alive for t in common.tables[me])

    def mean(self, t: int, score) -> float:
        total = acc = 0.0
        counts = self.counts
        while t:
            low = t & -t
            k = low.bit_length() - 1
            total += counts[k]
            acc += counts[k] * score(k)
            t ^= low
        return acc / total

    def chance(self, t: int, mask: int) -> float:
        return self.mean(t, lambda k: mask >> k & 1)


class Infobot(Strategy):
    name = "infobot"
    reads_variant_clues = True
    summary = "generalized hat guessing: k hints per player, prioritized questions, answers summed mod sum(k)"

    def __init__(self, me: int, rules: Rules, seed: int = 0) -> None:
        super().__init__(me, rules, seed)
        need_clue_tokens(rules, self.name)
        self.common: Common | None = None

    def _common(self, view: View, turn: Turn | None = None) -> Common:
        if self.common is None:
            self.common = Common.start(space_of(view), hand_sizes(view, turn))
        return self.common

    def knowledge_state(self) -> tuple:
        c = self.common
        return () if c is None else (c.board, c.tables)

    # ---- the hint code --------------------------------------------------------

    def _rooms(self, c: Common, giver: int) -> list[tuple[int, int]]:
        """(player, k) for the players after ``giver`` who hold cards, in seat order."""
        P = len(c.tables)
        rooms = [((giver + i) % P, c.hint_room((giver + i) % P)) for i in range(1, P)]
        return [(p, k) for p, k in rooms if k]

    def _decode(self, c: Common, giver: int, receiver: int, is_color: bool,
                touched: tuple[int, ...]) -> tuple[int, int]:
        """(sum(k), the number) a clue by ``giver`` announced."""
        rooms = self._rooms(c, giver)
        before = 0
        for p, k in rooms:
            if p == receiver:
                break
            before += k
        k = dict(rooms)[receiver]
        if c.hint_slot(receiver) in touched:
            kind = 1 if is_color else 0
        elif k == 3:
            kind = 2
        elif k == 4:
            kind = 3 if is_color else 2
        else:
            raise AssertionError("a clue missed the hint card of a player with 2 hints")
        return sum(k for _, k in rooms), before + kind

    def _hint(self, c: Common, view: View, seen: list[tuple[int, ...] | None]) -> Action:
        rooms = self._rooms(c, self.me)
        total = sum(k for _, k in rooms)
        number = c.hat_sum(total, self.me, seen)
        kind, j = number, 0
        while kind >= rooms[j][1]:
            kind -= rooms[j][1]
            j += 1
        receiver, k = rooms[j]
        cards = view.others[receiver]
        assert cards is not None
        x = cards[c.hint_slot(receiver)]
        options: list[tuple[bool, int]] = []          # (is_color, color or rank)
        if c.space.clue_masks:
            options = _variant_options(c.space, cards, x, kind, k)
        elif kind == 0:
            options = [(False, x.value)]
        elif kind == 1:
            options = [(True, x.color)]
        elif k == 3:
            for y in cards:
                if y.color != x.color:
                    options.append((True, y.color))
                if y.value != x.value:
                    options.append((False, y.value))
        elif kind == 2:
            options = [(False, y.value) for y in cards if y.value != x.value]
        else:
            options = [(True, y.color) for y in cards if y.color != x.color]
        options = list(dict.fromkeys(options))
        best = max(options, key=lambda o: (self._goodness(c, receiver, cards, *o), -options.index(o)))
        is_color, value = best
        return Action.color_clue(receiver, value - 1) if is_color else Action.rank_clue(receiver, value)

    @staticmethod
    def _goodness(c: Common, receiver: int, cards: tuple[Card, ...], is_color: bool, value: int) -> float:
        """How much a clue narrows the receiver's tables (weighted), doubled per card
        it identifies or shows dead (hanabi.rs's measure)."""
        space, dead, weights = c.space, c.board.dead, c.weights
        mask = space.clue_mask(is_color, value)
        goodness = 1.0
        for t, x in zip(c.tables[receiver], cards):
            if t & ~dead == 0 or not t & (t - 1):
                continue
            hit = bool(mask >> space.kind(x.value, x.color) & 1)
            narrowed = t & mask if hit else t & ~mask
            bonus = 2 if not narrowed & (narrowed - 1) or narrowed & ~dead == 0 else 1
            goodness *= bonus * weights.sum(t) / weights.sum(narrowed)
        return goodness

    # ---- moves ------------------------------------------------------------------

    def act(self, view: View) -> Action:
        c = self._common(view)
        space, board = c.space, c.board
        seen = kinds_seen(view, space)
        me, hand = self.me, view.my_hand
        mine = _Chances(c, me, seen)
        playable, dead = board.playable, board.dead

        sure = [slot for slot, t in enumerate(mine.tables) if t & ~playable == 0]
        if sure:
            return Action.play(hand[max(sure, key=lambda s: (self._play_score(mine, s, view, seen, space), -s))])

        threshold = space.total() - space.kinds - view.players * self.rules.hand_size
        strikes_left = self.rules.strikes - view.strikes
        if strikes_left > 1 and len(view.discards) <= threshold:
            risky = [(mine.chance(t, playable), slot) for slot, t in enumerate(mine.tables)
                     if t & ~(playable | dead) == 0]
            if risky:
                p, slot = max(risky, key=lambda r: (r[0], -r[1]))
                if p > RISK:
                    return Action.play(hand[slot])

        public_useless = _useless(c.tables[me], dead)
        useless = _useless(mine.tables, dead)
        clues, max_clues = view.clues, view.max_clues
        has_clue = clues is None or clues > 0
        if has_clue and self._someone_needs_hint(c, view, seen):
            will_hint = True
        elif len(view.discards) <= threshold and useless:
            will_hint = False
        elif has_clue and any(playable >> k & 1 for h in seen for k in h or ()):
            will_hint = True
        else:
            will_hint = clues is None or clues > SPARE_TOKENS
        can_hint = has_clue and bool(self._rooms(c, me))
        if can_hint and (will_hint or clues == max_clues or not hand):
            return self._hint(c, view, seen)      # hanab.live: no discard at the maximum
        if clues == max_clues:
            # nobody to clue and no discard at the maximum: only after the last draw
            # with one-card hands
            return Action.play(hand[max(range(len(hand)), key=lambda s: mine.chance(mine.tables[s], playable))])

        if has_clue:
            c = c.after_nobody_needed_hint(me)
        if len(public_useless) > 1:
            return Action.discard(hand[public_useless[c.hat_sum(len(public_useless), me, seen)]])
        if useless:
            return Action.discard(hand[useless[0]])
        visible = 0
        for h in seen:
            for k in h or ():
                visible |= 1 << k
        dispensable = board.dispensable
        scores = [20 * mine.chance(t, visible) + 10 * mine.chance(t, dispensable)
                  + mine.mean(t, space.rank_of) for t in mine.tables]
        return Action.discard(hand[max(range(len(scores)), key=lambda s: (scores[s], -s))])

    @staticmethod
    def _play_score(mine: _Chances, slot: int, view: View, seen: list[tuple[int, ...] | None],
                    space: CardSpace) -> float:
        """Play first the low ranks and the kinds no teammate also holds."""
        def score(k: int) -> float:
            holders = 1
            if view.deck_size > 0:
                holders += sum(1 for h in seen if h is not None and k in h)
            return (10 - space.rank_of(k)) / holders
        return mine.mean(mine.tables[slot], score)

    def _someone_needs_hint(self, c: Common, view: View, seen: list[tuple[int, ...] | None]) -> bool:
        playable = c.board.playable
        return any(h is not None and any(playable >> k & 1 for k in h) and not c.knows_playable(p)
                   for p, h in enumerate(seen))

    # ---- what everyone learns -----------------------------------------------------

    def observe(self, view: View, turn: Turn) -> None:
        c = self._common(view, turn)
        space = c.space
        mover = turn.player
        if turn.clue is not None:
            seen = kinds_seen(view, space)
            clue = turn.clue
            is_color = clue.kind is Kind.COLOR_CLUE
            slots = {o: i for i, o in enumerate(view.hands[clue.target])}
            touched = tuple(sorted(slots[o] for o in clue.touched))
            total, number = self._decode(c, mover, clue.target, is_color, touched)
            c = c.after_hat(total, mover, c.hat_values(total, number, mover, self.me, seen))
            c = c.after_clue(clue.target, is_color, clue.value + 1 if is_color else clue.value, touched)
        else:
            assert turn.card is not None and turn.slot is not None
            x = turn.card
            kind = (x.value - 1) * space.colors + x.color - 1
            if turn.action.kind is Kind.DISCARD:
                useless = _useless(c.tables[mover], c.board.dead)
                if view.clues is None or view.clues - 1 > 0:     # tokens left before the discard
                    c = c.after_nobody_needed_hint(mover)
                if len(useless) > 1:
                    n = len(useless)
                    seen = kinds_seen(view, space)
                    c = c.after_hat(n, mover, c.hat_values(n, useless.index(turn.slot), mover, self.me, seen))
            c = c.after_removal(mover, turn.slot, kind, bool(turn.success), turn.drawn is not None)
        self.common = c


def _variant_options(space: CardSpace, cards: tuple[Card, ...], x: Card, kind: int,
                     k: int) -> list[tuple[bool, int]]:
    """The clues (is_color, color number or rank) that carry hint ``kind`` about the
    hint card ``x`` where clues touch as a hanab.live variant says: 0 a rank clue
    that touches it, 1 a color clue that does, 2 (with 3 hints) any clue that misses
    it, 2 and 3 (with 4) a rank or a color clue that misses it; each touches some
    card (``Common.hint_room`` made sure one exists)."""
    colors, ranks = space.clue_masks
    kinds = [space.kind(y.value, y.color) for y in cards]
    a = space.kind(x.value, x.color)
    out = []
    for is_color, masks in ((True, colors), (False, ranks)):
        if kind < 2 and is_color != (kind == 1) or k == 4 and kind >= 2 and is_color != (kind == 3):
            continue
        for value, m in enumerate(masks):
            if m and any(m >> b & 1 for b in kinds) and bool(m >> a & 1) == (kind < 2):
                out.append((is_color, value))
    return out
