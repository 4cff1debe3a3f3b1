"""The referee against a second statement of hanab.live's server, in the server's own
terms (a stack holds the rank of its top card; Up or Down keeps a direction per
stack, Sudoku the stacks' first ranks), on random games of whole decks: after every
action the plays and misplays, the tokens, the server's max score and whether the
game is over must agree.

Written from the facts of server/src/variants_reversible.go, variants_sudoku.go,
game_player.go (PlayCard) and game.go (CheckEnd, GetMaxScore) at commit 8503cd84;
no line of it is hanab.live's."""

from __future__ import annotations

import random
from itertools import permutations

import pytest

from hanabi_cp.real.variants.pile_score import max_score
from hanabi_cp.real.referee import Game
from hanabi_cp.real.rules import Rules
from hanabi_cp.real.variants.catalogue import START, variant
from hanabi_cp.core.model import Deck

UNDECIDED, UP, DOWN, FINISHED = range(4)


class Server:
    """The piles, the max score and the end test as the server keeps them."""

    def __init__(self, v, c):
        self.v, self.n = v, v.stack_size
        self.stack = [0] * c               # rank of the top card, 0: empty
        self.way = [UNDECIDED] * c
        self.first = [0] * c               # Sudoku: the stack's first rank
        self.max = self.n * c

    def fails(self, rank, s):
        """Play ``rank`` on stack ``s``: True when it misplays (else the stack moves)."""
        top, n = self.stack[s], self.n
        if self.v.sudoku:
            if top == 0:
                if rank in self.first:
                    return True
                self.first[s] = rank
            else:
                if self.way[s] == FINISHED or rank != top % n + 1:
                    return True
                if rank == (self.first[s] - 2) % n + 1:
                    self.way[s] = FINISHED
            self.stack[s] = rank
            return False
        w = self.way[s]
        if w == UNDECIDED and top == 0:
            ok = rank in (1, n, START)
            new = UP if rank == 1 else DOWN if rank == n else UNDECIDED
        elif w == UNDECIDED:                  # on START
            ok = rank in (2, n - 1)
            new = UP if rank == 2 else DOWN
        elif w == UP:
            ok, new = rank == top + 1, FINISHED if rank == n else UP
        elif w == DOWN:
            ok, new = rank == top - 1, FINISHED if rank == 1 else DOWN
        else:
            ok, new = False, w
        if ok:
            self.stack[s], self.way[s] = rank, new
        return not ok

    def finished(self, s):
        return self.way[s] == FINISHED

    def max_score(self, dead):
        """GetMaxScore; ``dead(s, rank)``: every copy lost (or none dealt)."""
        n = self.n
        if self.v.up_or_down:
            total = 0
            for s, w in enumerate(self.way):
                up = 0 if dead(s, 1) and dead(s, START) else 1 + _run(dead, s, range(2, n + 1))
                down = 0 if dead(s, n) and dead(s, START) else 1 + _run(dead, s, range(n - 1, 0, -1))
                total += n if w == FINISHED else up if w == UP else down if w == DOWN else max(up, down)
            return total
        total, open_suits = 0, []
        for s in range(len(self.stack)):
            whole, runs = _sweep([dead(s, r) for r in range(1, n + 1)], n)
            if whole:
                total += n
            elif self.first[s]:
                total += runs[self.first[s] - 1]
            else:
                open_suits.append(runs)
        free = [r for r in range(1, n + 1) if r not in self.first]
        best = max((sum(runs[r - 1] for runs, r in zip(open_suits, pick))
                    for pick in permutations(free, len(open_suits))), default=0)
        return total + best

    def needed(self, s):
        """The ranks stack ``s`` takes next (CheckAllDead)."""
        n, top = self.n, self.stack[s]
        if self.way[s] == FINISHED:
            return []
        if self.v.sudoku:
            return [top % n + 1] if top else [r for r in range(1, n + 1) if r not in self.first]
        if self.way[s] == UNDECIDED:
            return [1, n, START] if top == 0 else [2, n - 1]
        return [top + 1] if self.way[s] == UP else [top - 1]


def _run(dead, s, ranks):
    count = 0
    for r in ranks:
        if dead(s, r):
            break
        count += 1
    return count


def _sweep(dead, n):
    """The server's sweep of runs from each first rank (one value per stretch)."""
    runs, last = [n] * n, -1
    for cur in range(n):
        if dead[cur]:
            for w in range(last + 1, cur):
                runs[w] = cur - last - 1
            runs[cur], last = 0, cur
    if last < 0:
        return True, runs
    for w in range(last + 1, n):
        runs[w] = min(runs[0] + n - w, n)
    return False, runs


def check_game(v, seed):
    rng = random.Random(seed)
    cards = v.model_cards()
    rng.shuffle(cards)
    c = len(v.suits)
    deck = Deck.of(cards, v.deck_n, c)
    players = rng.randint(2, 5)
    g = Game.start(deck, Rules.for_players(players, variant=v))
    srv, tokens, strikes, score, lost = Server(v, c), 8, 0, 0, []
    counted = v.stack_size * c          # the referee's own count in full, lowest so far
    total = {}
    for a, k in deck.cards:
        total[(a, k)] = total.get((a, k), 0) + 1

    def dead(s, rank):
        a = v.model_value(rank)
        return total.get((a, s + 1), 0) == sum(1 for o in lost if deck.cards[o] == (a, s + 1))

    while not g.over:
        moves = list(g.legal_actions())
        plays = [m for m in moves if m.kind == 0]
        act = rng.choice(plays if plays and rng.random() < 0.6 else moves)
        if act.kind == 0:
            a, k = g.card(act.target)
            if srv.fails(v.live_rank(a), k - 1):
                strikes += 1
                lost.append(act.target)
            else:
                score += 1
                if srv.finished(k - 1) and tokens < 8:
                    tokens += 1
        elif act.kind == 1:
            lost.append(act.target)
            tokens = min(8, tokens + 1)
        else:
            tokens -= 1
        srv.max = min(srv.max, srv.max_score(dead))
        g.apply(act)
        assert (g.strikes, g.clues, g.best) == (strikes, tokens, srv.max), (seed, g.turn)
        # the referee counts again only the piles a move can change: the count in
        # full after every action agrees (Up or Down: each pile's part now)
        full = max_score(v, tuple(g.played), dead)
        counted = min(counted, full)
        assert g.best == counted, (seed, g.turn)
        if v.up_or_down:
            assert sum(g.caps) == full, (seed, g.turn)
        assert g.score == (0 if strikes >= 3 else score)
        assert [p[-1] if p else 0 for p in g.played] == srv.stack
        # CheckEnd, in the server's order: the cards of a player whose last turn is
        # over count as unplayable
        live = set(range(g.drawn, deck.N))
        if g.end_turn is None:
            live |= {o for h in g.hands for o in h}
        else:
            drew = g.end_turn - players - 1
            done = {t % players for t in range(drew + 1, g.turn)}
            live |= {o for q, h in enumerate(g.hands) if q not in done for o in h}
        all_dead = not any(deck.cards[o] == (v.model_value(r), s + 1)
                           for s in range(c) for r in srv.needed(s) for o in live)
        ends = strikes >= 3 or g.turn == g.end_turn or score == srv.max or all_dead
        assert g.over == ends, (seed, g.turn, g.cause)


@pytest.mark.parametrize("name", ["Up or Down (5 Suits)", "Up or Down & Black (6 Suits)",
                                  "Sudoku (5 Suits)", "Sudoku (4 Suits)", "Sudoku & Gray (5 Suits)"])
def test_the_referee_plays_as_the_server(name):
    v = variant(name)
    for seed in range(40):
        check_game(v, seed)


def test_the_server_count_is_counted_again_only_where_it_can_change():
    """The referee's incremental max score against its count in full after every
    action, on random games that lose many cards (``check_game`` asserts it)."""
    for name in ("Up or Down (5 Suits)", "Sudoku (5 Suits)"):
        for seed in range(100, 160):
            check_game(variant(name), seed)
