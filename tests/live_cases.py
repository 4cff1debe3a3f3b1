"""Random tiny real-rules instances for the encoding tests: decks, rules with
hanab.live's options, a tiny variant with untouchable cards, and positions
reached by random legal play."""

from __future__ import annotations

import random
from dataclasses import dataclass

from ortools.sat.python import cp_model

from hanabi_cp.real.encoders.cnf import LiveCnf
from hanabi_cp.real.encoders.cpsat import LiveCpModel
from hanabi_cp.real.referee import Game
from hanabi_cp.real.rules import Rules
from hanabi_cp.core.model import Deck
from hanabi_cp.solvers.sat_backend import sat_solve


@dataclass(frozen=True)
class TinyVariant:
    """A stand-in for ``variants.Variant`` on decks of up to 2 colors and 3 values
    (the catalogue is still No Variant only): a clue touches by own color or rank,
    except the ``null`` suits, which no clue touches (like hanab.live's Null
    suit); ``always`` makes color / rank clues legal without touching."""

    name: str = "Tiny"
    null: frozenset[int] = frozenset()
    always: tuple[bool, bool] = (False, False)
    suits: tuple[str, ...] = ("A", "B")
    clue_colors: tuple[str, ...] = ("A", "B")
    clue_ranks: tuple[int, ...] = (1, 2, 3)
    stack_size: int = 3
    up_or_down: bool = False       # piles in one fixed order, as ``Variant``'s rule flags say
    sudoku: bool = False

    @property
    def deck_n(self) -> int:
        return self.stack_size

    def live_rank(self, value: int) -> int:
        return value

    def touches(self, color_clue: bool, value: int, suit_index: int, rank: int) -> bool:
        if suit_index in self.null:
            return False
        return suit_index == value if color_clue else rank == value

    def clue_values(self, color_clue: bool) -> tuple[int, ...]:
        return tuple(range(len(self.clue_colors))) if color_clue else self.clue_ranks

    def always_legal(self, color_clue: bool) -> bool:
        return self.always[0 if color_clue else 1]

    def unsupported(self) -> str | None:
        return None


NULL_B = TinyVariant("Tiny Null", null=frozenset({1}))     # color 2 cannot be clued


def random_deck(rng: random.Random, max_cards: int) -> Deck:
    """n <= 3, c <= 2, some cards doubled, now and then one missing."""
    n, c = rng.randint(1, 3), rng.randint(1, 2)
    cards = [(a, k) for a in range(1, n + 1) for k in range(1, c + 1)]
    cards += rng.sample(cards, rng.randint(0, len(cards)))
    if rng.random() < 0.1 and len(cards) > 1:
        cards.remove(rng.choice(cards))
    rng.shuffle(cards)
    return Deck(tuple(cards[:max_cards]), n, c)


def random_options(rng: random.Random) -> dict:
    """hanab.live's options the encodings model, each now and then: the tiny
    variant (untouchable suits, clue types legal without touching), empty clues,
    the first player, deck plays, speedrun."""
    out: dict = {}
    if rng.random() < 0.4:
        out["variant"] = TinyVariant(null=frozenset(k for k in range(2) if rng.random() < 0.5),
                                     always=(rng.random() < 0.15, rng.random() < 0.15))
    if rng.random() < 0.15:
        out["empty_clues"] = True
    if rng.random() < 0.3:
        out["first_player"] = 1
    if rng.random() < 0.2:
        out["deck_plays"] = True
    if rng.random() < 0.15:
        out["speedrun"] = True
    return out


def random_case(rng: random.Random, max_cards: int, options: bool = True) -> tuple[Deck, Rules]:
    """A tiny deck and rules with 2-3 players, H 1-2, 0-3 or unlimited tokens, 1-3
    strikes, mostly with the final round, and (``options``) random options."""
    deck = random_deck(rng, max_cards)
    rules = Rules(rng.randint(2, 3), rng.randint(1, 2), rng.choice([0, 1, 2, 3, None]),
                  rng.randint(1, 3), rng.random() < 0.75,
                  **(random_options(rng) if options else {}))
    return deck, rules


def random_position(rng: random.Random, deck: Deck, rules: Rules, tries: int = 5) -> Game:
    """The position after 1 to N random legal moves from the deal, the first of
    ``tries`` such walks that leaves the game going (else the last, over)."""
    for _ in range(tries):
        g = Game.start(deck, rules)
        for _ in range(rng.randint(1, max(deck.N, 1))):
            if g.over:
                break
            g.apply(rng.choice(list(g.legal_actions())))
        if not g.over:
            break
    return g


def random_games(rng: random.Random, start: Game, count: int):
    """Complete games of random legal moves from ``start`` (given up after 60 moves):
    (actions, final state)."""
    for _ in range(count):
        g, acts = start.copy(), []
        while not g.over and len(acts) < 60:
            act = rng.choice(list(g.legal_actions()))
            g.apply(act)
            acts.append(act)
        if g.over:
            yield acts, g


def assert_encodings_accept(start: Game, order, fates, runs, score: int, won: bool,
                            what: tuple) -> None:
    """Completeness: the game from ``start`` given as its schedule (order, fates,
    runs) is a solution of the CP-SAT model and of the CNF, scoring ``score``
    (maximizing; and as a decision when it wins).  ``what`` names the case."""
    for maximize in (True, False) if won else (True,):
        why = (*what, maximize)
        cp = LiveCpModel(start, maximize)
        for var, value in cp.values(order, fates, runs):
            cp.m.add(var == value)
        solver = cp_model.CpSolver()
        assert solver.solve(cp.m) in (cp_model.OPTIMAL, cp_model.FEASIBLE), why
        assert round(solver.objective_value) == score or not maximize, why
        cnf = LiveCnf(start, maximize)
        ok, model, _ = sat_solve(cnf.clauses, assumptions=cnf.literals(order, fates, runs))
        assert ok, why
        assert sum(x in set(model) for x in cnf.played) == score, why
