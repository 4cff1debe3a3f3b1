"""One search table per game (``search.Memory``): a search handed the tables of
earlier searches on the same deal and rules, from other positions and for other
goals, answers as a search from empty tables does (brute force on tiny decks, the
best-score search on bot games), in whatever order the questions come."""

from __future__ import annotations

import random
from contextvars import ContextVar
from dataclasses import replace
from types import SimpleNamespace

from hanabi_cp.apps.generators import random_deck, standard_deck
from hanabi_cp.core.options import SolveOptions
from hanabi_cp.players.game import play_game
from hanabi_cp.players.strategy import strategies
from hanabi_cp.real.methods import search as S, search_core
from hanabi_cp.real.methods.brute import BestScore
from hanabi_cp.real.postmortem.alternatives import every_legal_action
from hanabi_cp.real.postmortem import report
from hanabi_cp.real.postmortem.report import analyze
from hanabi_cp.real.referee import Game, replay, typed_clues
from hanabi_cp.real.rules import Rules
from tests.test_drop_reasons import random_rules


def game_positions(rng: random.Random, g: Game) -> list[Game]:
    """The positions of a random game from ``g`` and, beside each, the position
    after every other legal action (a drop's alternatives)."""
    out = []
    while not g.over:
        acts = every_legal_action(g)
        for act in acts:
            h = g.copy()
            h.apply(act)
            out.append(h)
        out.append(g.copy())
        g = g.copy()
        g.apply(rng.choice(acts))
    return out


def ask(g: Game, goal: int, memory: S.Memory | None, hard: bool) -> bool:
    """Whether the search finds a game from ``g`` scoring ``goal`` (its game
    replayed by the referee); ``hard``: the relaxations at every state."""
    s = S.LiveSearch(g, None, None, memory)
    if hard:
        s.deep, s.exact_after = True, 0
    got = s.game(goal)
    if got is None:
        return False
    rest = typed_clues(g, got[0]) if g.rules.alternating_clues else got[0]
    rep = replay(g.deck, g.rules, rest, g)
    assert rep.legal and rep.complete and rep.score >= goal
    return True


def test_shared_tables_answer_as_brute_force_in_any_order():
    rng = random.Random(4401)
    asked = hits = 0
    for _ in range(100):
        deck = random_deck(rng, rng.randint(2, 3), rng.randint(2, 3), 2, exact_copies=True)
        if deck.N > 10:
            continue
        rules = random_rules(rng)
        oracle = BestScore(Game.start(deck, rules))
        games = game_positions(rng, Game.start(deck, rules))
        questions = [(g, goal) for g in games
                     for goal in rng.sample(range(g.target + 1), min(3, g.target + 1))]
        memory = S.Memory()
        for order in (questions, rng.sample(questions, len(questions)), questions[::-1]):
            for g, goal in order:
                best = oracle.value(g.copy())
                assert ask(g, goal, memory, rng.random() < 0.5) == (goal <= best), \
                    (str(deck), rules, g.turn, goal, best)
                asked += 1
        tt, _, _ = memory.tables(Game.start(deck, rules))
        hits += len(tt) > 0
    assert asked >= 5000 and hits >= 15, (asked, hits)


def test_tables_are_kept_per_deal_and_rules():
    deck = standard_deck(3)
    rules = Rules.for_players(3)
    memory = S.Memory()
    g = Game.start(deck, rules)
    older = g.copy()
    older.rules = replace(rules, last_turn_unplayable=False)
    assert memory.tables(g) is memory.tables(g.copy())
    assert memory.tables(older) is not memory.tables(g)
    assert memory.tables(Game.start(standard_deck(4), rules)) is not memory.tables(g)


def bot_game(p: int, seed: int):
    names = [n for n, cls in sorted(strategies().items())
             if cls.min_players <= p <= cls.max_players]
    deck, rules = standard_deck(seed), Rules.for_players(p)
    return deck, rules, play_game(deck, rules, names[seed % len(names)], seed).actions


def test_best_scores_of_bot_games_with_one_table_equal_those_from_empty_tables():
    """Every position's best score (the search's maximize) with the game's tables,
    asked from the last position back and then from the deal on, equals the one
    from empty tables; on a 3-player game the second pass visits fewer states."""
    core = search_core()
    for p, seed in ((2, 5), (3, 7), (4, 11), (5, 2), (6, 9)):
        deck, rules, actions = bot_game(p, seed)
        positions = [Game.after(deck, rules, actions[:k]) for k in range(len(actions) + 1)]
        positions = [g for g in positions if not g.over]
        alone = [core.search(g, SolveOptions(maximize=True)) for g in positions]
        token = core.MEMORY.set(core.Memory())
        try:
            back = [core.search(g, SolveOptions(maximize=True)) for g in positions[::-1]]
            on = [core.search(g, SolveOptions(maximize=True)) for g in positions]
        finally:
            core.MEMORY.reset(token)
        for g, a, b, c in zip(positions, alone, back[::-1], on):
            assert (a.status, a.score) == (b.status, b.score) == (c.status, c.score), \
                (p, seed, g.turn)
        if (p, seed) == (3, 7):
            assert sum(out.stats["nodes"] for out in on) < \
                sum(out.stats["nodes"] for out in alone)


def test_analyze_lends_its_searches_one_memory(monkeypatch):
    """``analyze`` hands its searches one ``Memory`` for the whole game, filled by
    them, and none after it; the post-mortem with it equals the one without."""
    deck, rules, actions = bot_game(3, 7)     # (every position decided at once)
    core = report.search_core()
    lent: list[object] = []
    with_memory = analyze(deck, rules, actions, progress=lambda k: lent.append(core.MEMORY.get()))
    assert lent and lent[0] is not None and all(m is lent[0] for m in lent)
    assert any(tt for tt, _, _ in lent[0].deals.values())
    assert core.MEMORY.get() is None
    # without: analyze sets a variable no search reads
    monkeypatch.setattr(report, "search_core", lambda: SimpleNamespace(
        MEMORY=ContextVar("unread", default=None), Memory=object))
    without = analyze(deck, rules, actions)
    assert [r.best for r in with_memory.rows] == [r.best for r in without.rows]
    assert [(d.position, d.keep) for d in with_memory.drops] == \
        [(d.position, d.keep) for d in without.drops]
