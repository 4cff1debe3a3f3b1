"""Pile plans (encodings/variants.md, 8.2): the forbidden-play rule and the renaming
against pile_rules, and the search's plan games against an exhaustive search of the
real rules written here from pile_rules alone (tiny decks, both families)."""

from __future__ import annotations

import random
from functools import cache
from itertools import product

import pytest

from hanabi_cp.live import referee
from hanabi_cp.live.actions import Action, Kind
from hanabi_cp.live.clue_rules import OwnClues
from hanabi_cp.live.methods.search import LiveSearch, _plans, start_plans
from hanabi_cp.live.pile_plans import DEAD, Plan, plans_from, rank_of, real_max
from hanabi_cp.live.pile_rules import next_values, plans
from hanabi_cp.live.referee import Game
from hanabi_cp.live.rules import Rules
from hanabi_cp.live.variants import Variant, variant
from hanabi_cp.model import Deck

UP = variant("Up or Down (5 Suits)")
SU = variant("Sudoku (5 Suits)")
SU4 = variant("Sudoku (4 Suits)")


@pytest.mark.parametrize("v,c", [(UP, 2), (SU, 3), (SU4, 4)])
def test_forbid_rule_is_the_definition(v: Variant, c: int) -> None:
    """``forbid_rule``'s condition holds exactly where the real rules accept a card
    that is not the plan's next, at every combination of heights."""
    n = v.stack_size
    rng = random.Random(4)
    every = plans(v, tuple(() for _ in range(c)))
    for orders_ in rng.sample(every, min(12, len(every))):
        plan = Plan(v, orders_)
        for k in range(c):
            for rank in v.ranks:
                h, j = plan.forbid_rule(k, rank)
                for heights in product(range(n + 1), repeat=c):
                    want = plan.forbidden(heights, k, rank)
                    got = heights[k] == h and (j < 0 or heights[j] == 0)
                    assert got == want, (orders_, k, rank, heights)


@pytest.mark.parametrize("v,c", [(UP, 3), (SU, 5), (SU4, 4)])
def test_real_piles_are_plan_games(v: Variant, c: int) -> None:
    """Random real play on the piles: in the game of any plan the piles realise, each
    real success is the plan's next card, each real misplay a misplay of the plan game
    (never a forbidden play); and in Up or Down each plan leaves one rank of a suit
    dead."""
    rng = random.Random(7)
    n = v.stack_size
    for _ in range(200):
        piles: list[tuple[int, ...]] = [() for _ in range(c)]
        moves = []
        for _ in range(rng.randrange(1, 3 * n)):
            k, rank = rng.randrange(c), rng.choice(v.ranks)
            ok = rank in next_values(v, tuple(piles), k)
            moves.append((k, rank, ok, tuple(len(p) for p in piles)))
            if ok:
                piles[k] += (rank,)
        for plan in plans_from(v, piles):
            if v.up_or_down:
                assert all(sum(plan.height(k, r) == DEAD for r in v.ranks) == 1 for k in range(c))
            heights = [0] * c
            for k, rank, ok, before in moves:
                assert tuple(heights) == before
                h = plan.height(k, rank)
                assert not plan.forbidden(heights, k, rank)
                assert (h == heights[k] + 1) == ok
                heights[k] += ok


# ---- the real rules, exhaustively, from pile_rules alone --------------------------

class Real:
    """The real game on a deal by the pile rules of ``pile_rules`` alone, with
    hanab.live's ends read on the real state (a state: hands, drawn, piles, tokens,
    strikes, turn, end turn, lost copies per (pile, rank))."""

    def __init__(self, start: Game):
        v, r, deck = start.rules.variant, start.rules, start.deck
        assert v is not None and start.tables is not None and r.clues is not None
        self.v, self.r, self.max_clues = v, r, r.clues
        self.n, self.c, self.N, self.p = v.stack_size, deck.c, deck.N, r.players
        self.ranks = [(k - 1, rank_of(v, a)) for a, k in deck.cards]
        self.touchable = start.tables.touchable
        self.totals: dict[tuple[int, int], int] = {}
        for x in self.ranks:
            self.totals[x] = self.totals.get(x, 0) + 1
        H, N, p = r.hand_size, self.N, self.p
        drawn = min(p * H, N)
        self.start = (tuple(tuple(range(i * H, min((i + 1) * H, N))) for i in range(p)), drawn,
                      tuple(() for _ in range(self.c)), r.clues, 0, 0,
                      p + 1 if drawn == N else None, ())

    def ended(self, state: tuple) -> int | None:
        """The final score if the game is over, else None."""
        hands, drawn, piles, clues, strikes, turn, end_turn, lost = state
        v, p, score = self.v, self.p, sum(map(len, piles))
        if strikes >= self.r.strikes:
            return 0
        if end_turn is not None and turn >= end_turn:
            return score
        if score == self.n * self.c:
            return score
        left = {x: t - dict(lost).get(x, 0) for x, t in self.totals.items()}
        if score == real_max(v, piles, left):
            return score
        if end_turn is not None:
            done = {t % p for t in range(end_turn - p, turn)}
            live = [o for q, h in enumerate(hands) if q not in done for o in h] \
                + list(range(drawn, self.N))
            if not any(self.ranks[o][1] in next_values(v, piles, self.ranks[o][0]) for o in live):
                return score
        return None

    def moves(self, state: tuple) -> list[tuple[str, int]]:
        hands, _, _, clues, _, turn, _, _ = state
        me = turn % self.p
        out = [("play", o) for o in hands[me]]
        if clues < self.max_clues:
            out += [("discard", o) for o in hands[me]]
        if clues >= 1 and any(self.touchable[o] for q, h in enumerate(hands) if q != me for o in h):
            out.append(("clue", -1))
        return out

    def step(self, state: tuple, kind: str, o: int) -> tuple:
        hands, drawn, piles, clues, strikes, turn, end_turn, lost = state
        if kind == "clue":
            return (hands, drawn, piles, clues - 1, strikes, turn + 1, end_turn, lost)
        me, n = turn % self.p, self.n
        new_piles, new_lost = list(piles), dict(lost)
        k, rank = self.ranks[o]
        if kind == "play" and rank in next_values(self.v, piles, k):
            new_piles[k] += (rank,)
            clues += len(new_piles[k]) == n and clues < self.max_clues
        else:
            new_lost[(k, rank)] = new_lost.get((k, rank), 0) + 1
            strikes += kind == "play"
            clues += kind == "discard"
        hand = [x for x in hands[me] if x != o]
        if drawn < self.N:
            hand.append(drawn)
            drawn += 1
            if drawn == self.N:
                end_turn = turn + self.p + 1
        hands = tuple(tuple(hand) if q == me else h for q, h in enumerate(hands))
        return (hands, drawn, tuple(new_piles), clues, strikes, turn + 1, end_turn,
                tuple(sorted(new_lost.items())))


def real_best(start: Game) -> int:
    """The best final score of the real game from the deal ``start`` (-1: none ends)."""
    g = Real(start)

    @cache
    def value(state: tuple) -> int:
        end = g.ended(state)
        if end is not None:
            return end
        return max((value(g.step(state, *m)) for m in g.moves(state)), default=-1)

    return value(g.start)


def replay_real(start: Game, actions: list[Action]) -> int:
    """The final score of ``actions`` from the deal by the same real rules, asserting
    each legal and the game over exactly after the last."""
    g = Real(start)
    state = g.start
    for act in actions:
        assert g.ended(state) is None
        kind = {Kind.PLAY: "play", Kind.DISCARD: "discard"}.get(act.kind, "clue")
        move = (kind, act.target if kind != "clue" else -1)
        assert move in g.moves(state), (move, state)
        state = g.step(state, *move)
    end = g.ended(state)
    assert end is not None
    return end


def deal(v: Variant, cards: list[tuple[int, int]], players: int = 2, hand: int = 2,
         clues: int = 2) -> Game:
    top = max(a for a, _ in cards)
    return Game.start(Deck.of(cards, max(top, v.stack_size), max(k for _, k in cards)),
                      Rules.for_players(players, hand_size=hand, clues=clues, variant=v))


@pytest.fixture
def supported(monkeypatch: pytest.MonkeyPatch) -> None:
    """Until the referee plays these variants' real rules: Rules accept them (the
    search and this file's exhaustive search read only pile_rules), and clues touch
    as No Variant's (the deck's START cards are value stack size + 1)."""
    monkeypatch.setattr(Variant, "unsupported", lambda self: None)
    monkeypatch.setattr(referee, "clue_rules", lambda rules, deck: OwnClues(deck.n, deck.c))


S = UP.stack_size + 1       # START as a deck value


@pytest.mark.usefixtures("supported")
@pytest.mark.parametrize("v,cards", [
    (UP, [(5, 1), (S, 1), (4, 1), (1, 1), (3, 1), (2, 1), (4, 1)]),
    (UP, [(S, 1), (4, 1), (2, 1), (5, 1), (3, 2), (S, 2), (1, 1), (2, 2)]),
    (UP, [(1, 1), (5, 1), (4, 1), (S, 1), (2, 1), (3, 1), (3, 1)]),
    (SU, [(3, 1), (2, 2), (4, 1), (3, 2), (5, 1), (2, 1), (1, 1)]),
    (SU, [(2, 1), (2, 2), (3, 2), (3, 1), (4, 2), (1, 2), (5, 2), (4, 1)]),
    (SU4, [(4, 1), (1, 1), (2, 2), (1, 2), (2, 1), (3, 1), (3, 2), (4, 2)]),
])
def test_search_over_plans_is_the_real_best(v: Variant, cards: list[tuple[int, int]]) -> None:
    start = deal(v, cards)
    want = real_best(start)
    out = _plans(start, True, None)
    assert out.score == want
    assert out.actions is not None and replay_real(start, out.actions) == want
    won = _plans(start, False, None)
    assert (won.status.value == "WINNABLE") == (want == start.deck.c * v.stack_size)


@pytest.mark.usefixtures("supported")
def test_random_tiny_decks_agree() -> None:
    rng = random.Random(11)
    for i in range(24):
        v = (UP, SU, SU4)[i % 3]
        c = rng.choice((1, 2))
        cards = [(a if a <= v.stack_size else S, k) for k in range(1, c + 1)
                 for a in v.ranks for _ in range(v.copies(k - 1, a))]
        rng.shuffle(cards)
        cards = cards[:rng.randrange(5, 9)]
        start = deal(v, cards, hand=rng.choice((1, 2)), clues=rng.choice((1, 2)))
        want = real_best(start)
        out = _plans(start, True, None)
        assert out.score == want, (v.name, cards)
        assert out.actions is not None and replay_real(start, out.actions) == want


@pytest.mark.usefixtures("supported")
def test_search_real_max_is_pile_plans() -> None:
    """The search's incremental ``real_max`` against ``pile_plans.real_max`` after
    losses, on Sudoku (an assignment of starts) and Up or Down."""
    for v in (SU, UP):
        cards = [(a if a <= v.stack_size else S, k) for k in (1, 2, 3)
                 for a in v.ranks for _ in range(v.copies(k - 1, a))]
        random.Random(3).shuffle(cards)
        start = deal(v, cards, players=3, hand=3)
        for _, plan in start_plans(start)[:5]:
            s = LiveSearch(start, None, plan)
            left = {(k - 1, rank_of(v, a)): v.copies(k - 1, rank_of(v, a)) for a, k in cards}
            for o in range(0, 9, 2):
                a, k = cards[o]
                s.lost_counts[s.cid[o]] += 1
                left[(k - 1, rank_of(v, a))] -= 1
                assert s.real_max() == real_max(v, [()] * 3, left)


@pytest.mark.usefixtures("supported")
def test_a_plan_game_ends_where_the_real_game_does() -> None:
    """The plan with both suits going up can score only 1:1 (no 2 of Red, no 1 of
    Yellow), but Yellow is undecided and could still go down from its 5: the real game
    goes on after the 1 is played, and so does the plan game's certificate."""
    start = deal(UP, [(1, 1), (4, 1), (5, 2), (2, 2), (3, 2)], hand=1, clues=1)
    up = tuple(range(1, 6))
    s = LiveSearch(start, None, Plan(UP, (up, up)))
    assert s.capsum == 1
    got = s.game(1)
    assert got is not None and got[1] == 1 and len(got[0]) > 1
    assert replay_real(start, got[0]) == 1
