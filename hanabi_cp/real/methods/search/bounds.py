"""Upper bounds on the final score of every game from the search's state: the
colors' reach, pace, the bottom card and hand size (``bound``), and near the end
the most plays the remaining turns can make (``turns_bound``, ``endgame_bound``,
``final_round_bound``, ``most_plays``)."""

from __future__ import annotations

from ...pile_plans import Plan
from ...referee import Game
from .state import FREE, after_last
from .table import Table


class Bounds(Table):
    """The cheap upper bounds, asked at every state."""

    # Deck cards left at most for the exact (relaxed) endgame bound.
    ENDGAME = 2

    def __init__(self, start: Game, deadline: float | None = None, plan: Plan | None = None):
        super().__init__(start, deadline, plan)
        # per color, the highest value that can still be played (``bound`` fills it)
        self.reach = [0] * self.c
        # the plays an upper bound allows after the last draw: one per player in the
        # final round, else every card still held; one more with a deck play (which
        # draws and plays at once)
        self.after_last = after_last(self.rules)
        # a deck play takes the last card without holding it: the rules that count
        # on every card passing through a hand (bottom card, hand size, the last
        # draws' relaxations) rest
        self.simple_draws = self.final_round and not self.deck_plays

    def bound(self, goal: int | None = None) -> int:
        """An upper bound on the final score of every game from here; fills
        ``self.reach`` (per color, the highest value that can still be played).
        With a ``goal``, a cheaper (weaker) bound may be returned when it is
        already below the goal."""
        n, N, drawn, held, positions = self.n, self.N, self.drawn, self.held, self.positions
        seen, simple_draws = self.seen, self.simple_draws
        bottom_rule = simple_draws and drawn < N
        late: list[int] = []        # per needed card: the deck position that must be drawn first
        # per needed card that must be held for a while: the first and the last draw
        # during which it is (two lists of ints: no tuples to make and sort)
        held_from: list[int] = []
        held_to: list[int] = []
        total = 0
        for k in range(self.c):
            top = self.piles[k]
            v, base, gate = top + 1, k * n - 1, -1
            while v <= n:
                pos = positions[base + v]
                j = seen[base + v]
                if held[base + v]:
                    first = -1
                elif j < len(pos):
                    first = pos[j]
                else:
                    break
                if first > gate:
                    gate = first
                if gate >= 0:
                    late.append(gate)
                    last = pos[-1] if j < len(pos) else -1
                    if last < gate:
                        held_from.append(max(last + 1, drawn))
                        held_to.append(gate)
                v += 1
                if bottom_rule and first == N - 1:
                    break       # drawn last, played on the last turn: nothing can follow
            self.reach[k] = v - 1
            total += v - 1
        # with a goal, the plays the relaxations below need to reach it: a count of
        # plays at or below ``floor`` is all they must tell apart (see endgame_bound)
        floor = 0 if goal is None else goal - self.score - 1
        if drawn == N:
            return self.final_round_bound(total, floor) if self.end_turn is not None \
                else total
        loss = 0
        if late:
            # the gates counted per deck position (each is one still to be drawn),
            # then walked from the bottom: at each, the cards gated there or later
            gated = [0] * (N - drawn)
            for gate in late:
                gated[gate - drawn] += 1
            room = N - 1 + self.after_last
            count = 0
            for at in range(N - drawn - 1, -1, -1):
                if gated[at]:
                    count += gated[at]
                    excess = count - (room - drawn - at)
                    if excess > loss:
                        loss = excess
        if not loss and simple_draws and len(held_from) >= self.p * self.H \
                and self.hand_overflow(held_from, held_to):
            loss = 1
        if drawn >= N - self.ENDGAME and simple_draws and loss < total - self.score:
            if goal is not None:
                quick = self.turns_bound(total)
                if quick < goal:
                    return min(total - loss, quick)
            return min(total - loss, self.endgame_bound(total, floor))
        return total - loss

    def turns_bound(self, total: int) -> int:
        """The relaxation of ``endgame_bound`` without the order of the plays: each
        player plays at most once per turn it has (one per draw turn it makes, one
        in the final round) and at most once per distinct card it can still play
        (held now or drawn), maximised over who draws the cards left."""
        N, p, col, val, reach, piles = self.N, self.p, self.col, self.val, self.reach, self.piles
        cards = [len({(col[o], val[o]) for o in hand
                      if piles[col[o]] < val[o] <= reach[col[o]]}) for hand in self.hands]
        now = sum(1 for x in cards if x)
        # per deck position from ``drawn`` on: 1 if its card can still be played
        useful = [1 if piles[col[o]] < val[o] <= reach[col[o]] else 0
                  for o in range(self.drawn, N)]
        best = self._turns(self.turn % p, 0, self.clues, now, [1] * p, cards, useful,
                           total - self.score, 0)
        return min(total, self.score + best)

    def _turns(self, turn: int, at: int, tokens: int, plays: int, turns: list[int],
               cards: list[int], useful: list[int], most: int, best: int) -> int:
        """``turns_bound``'s search over who draws ``useful[at:]``; the most plays
        found, at least ``best`` (a method, not a closure: compiled, much faster)."""
        if at == len(useful):
            return plays if plays > best else best
        got, p = useful[at], self.p
        for s in range(min(tokens, p - 1) + 1):
            if best >= most:
                return best
            x = (turn + s) % p
            t, c = turns[x], cards[x]
            gain = min(t + 1, c + got) - min(t, c)
            turns[x], cards[x] = t + 1, c + got
            best = self._turns(x + 1, at + 1, min(tokens - s + 1, self.max_clues),
                               plays + gain, turns, cards, useful, most, best)
            turns[x], cards[x] = t, c
        return best

    def hand_overflow(self, held_from: list[int], held_to: list[int]) -> bool:
        """Whether, when some deck position is drawn, more cards must be held than the
        p*H - 1 places the hands have just before that draw; card i must be held
        while positions ``held_from[i]`` to ``held_to[i]`` are drawn."""
        # per deck position from ``drawn`` on, the cards that must be held from its
        # draw on less those that need not be any more: the count held at a draw is
        # the sum up to it (a card let go at a draw makes room for one taken there)
        drawn = self.drawn
        change = [0] * (self.N - drawn + 1)
        for i in range(len(held_from)):
            change[held_from[i] - drawn] += 1
            change[held_to[i] + 1 - drawn] -= 1
        now, limit = 0, self.p * self.H - 1
        for step in change:
            now += step
            if now > limit:
                return True
        return False

    def final_round_bound(self, total: int, floor: int = 0) -> int:
        """After the last draw: the most plays the remaining turns can make, each
        turn's player playing one card of their own or none (tokens ignored); a
        count at or below ``floor`` only says that the most is at or below it."""
        left = self.end_turn - self.turn if self.end_turn is not None else 0
        order = [(self.turn + d) % self.p for d in range(left)]
        return min(total, self.score + most_plays(order, self.useful_cards(), self.piles,
                                                  floor=max(floor, 0)))

    def endgame_bound(self, total: int, floor: int = 0) -> int:
        """With few cards left to draw (at most ``ENDGAME``): before each draw, some
        clues (at most p - 1 count, and no more than the tokens), then a play or
        discard that draws the next card; after the last draw, the final round.  The
        most plays over all of these, with every player keeping every card (more
        cards never play fewer) and a draw turn always given a token back.

        A count at or below ``floor`` only says that the most is at or below it:
        the search starts from ``floor`` as if a relaxed game had made that many
        plays, so it drops every branch that cannot make more (it decides "more
        than floor?" without the exact count below it)."""
        hands, piles = self.useful_cards(), list(self.piles)
        best = self._endgame(self.turn % self.p, self.drawn, self.clues, 0, hands, piles,
                             total - self.score, max(floor, 0))
        return min(total, self.score + best)

    def _endgame(self, turn: int, pos: int, tokens: int, gained: int,
                 hands: list[list[tuple[int, int]]], piles: list[int], most: int,
                 best: int) -> int:
        """``endgame_bound``'s search from deck position ``pos``: the most plays
        found, at least ``best`` (a method, not a closure: compiled, much faster)."""
        N, p, col, val, reach = self.N, self.p, self.col, self.val, self.reach
        # each draw turn plays at most one card, each final-round turn too
        if gained + N - pos + p <= best:
            return best
        if pos == N:
            # at most one card per player still holding a card above its pile
            holders = 0
            for h in hands:
                for c, a in h:
                    if piles[c] < a:
                        holders += 1
                        break
            if gained + holders <= best:
                return best
            order = [(turn + d) % p for d in range(p)]
            return max(best, gained + most_plays(order, hands, piles, most - gained,
                                                 best - gained))
        k, v = col[pos], val[pos]
        for s in range(min(tokens, p - 1) + 1):
            if best >= most:
                return best
            x = (turn + s) % p
            mine = hands[x]
            if piles[k] < v <= reach[k]:
                hands[x] = mine + [(k, v)]
            after = min(tokens - s + 1, self.max_clues)
            playable = [(c, a) for c, a in mine if piles[c] + 1 == a]
            for c, a in playable:
                piles[c] = a
                best = self._endgame(x + 1, pos + 1, after, gained + 1, hands, piles, most, best)
                piles[c] = a - 1
            if not playable:     # else playing one now is never worse (note, 3.5)
                best = self._endgame(x + 1, pos + 1, after, gained, hands, piles, most, best)
            hands[x] = mine
        return best

    def useful_cards(self) -> list[list[tuple[int, int]]]:
        """Per player, the (color index, value) of each card that can still be played."""
        piles, reach, col, val = self.piles, self.reach, self.col, self.val
        return [[(col[o], val[o]) for o in hand if piles[col[o]] < val[o] <= reach[col[o]]]
                for hand in self.hands]


def most_plays(order: list[int], hands: list[list[tuple[int, int]]],
               piles: list[int], enough: int = FREE, floor: int = 0) -> int:
    """The most cards the turns of players ``order`` can play from ``hands``
    ((color index, value) pairs), one card or none per turn, from ``piles`` on;
    the search stops once ``enough`` is reached, and a result at or below ``floor``
    only says that the most is at or below it (branches that cannot play more
    than ``floor`` are dropped).  A turn that can play one of its cards is never
    better off passing (encodings/live-search.md, 3.5), so only turns that cannot
    play pass."""
    piles = list(piles)
    L = len(order)
    # per turn, the mover's distinct cards above their piles (piles only grow, so
    # the others never play); ``left[i]``: turns from i on whose mover has one
    # (the order of a turn's cards changes how fast, never what, the search finds)
    cards = [list({(k, v) for k, v in hands[x] if v > piles[k]}) for x in order]
    left = [0] * (L + 1)
    for i in range(L - 1, -1, -1):
        left[i] = left[i + 1] + (1 if cards[i] else 0)
    if left[0] == 0:
        return 0
    # (turn, piles) -> the most cards played on reaching it: the hands never change,
    # so a later visit with no more cards played cannot do better
    seen: dict[tuple, int] = {}
    return min(_most(0, 0, max(floor, 0), cards, left, piles, seen, enough), enough)


def _most(i: int, played: int, best: int, cards: list[list[tuple[int, int]]],
          left: list[int], piles: list[int], seen: dict[tuple, int], enough: int) -> int:
    """``most_plays``'s search from turn ``i``: the most cards played, at least
    ``best`` (a function, not a closure: compiled, much faster)."""
    if played > best:
        best = played
    if played + left[i] <= best or best >= enough:
        return best
    key = (i, *piles)
    if seen.get(key, -1) >= played:
        return best
    seen[key] = played
    passes = True
    for k, v in cards[i]:
        if piles[k] + 1 == v:
            passes = False      # a turn that can play never does better passing
            piles[k] = v
            best = _most(i + 1, played + 1, best, cards, left, piles, seen, enough)
            piles[k] = v - 1
    if passes:
        best = _most(i + 1, played, best, cards, left, piles, seen, enough)
    return best
