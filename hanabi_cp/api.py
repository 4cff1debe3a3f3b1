"""The facade of ``import hanabi_cp as hc``: thin functions over the modules that do
the work, with the argument forms a script reaches for (a play sequence as a
string, solver options as keywords, a deck without its file).

Each function here only adapts arguments and calls one module; the logic (and
its tests) stays there.  ``hanabi_cp/__init__.py`` loads this module on first use,
so ``import hanabi_cp`` stays cheap.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from .core.model import Deck
from .solitaire.play_sequence import PlaySequence

if TYPE_CHECKING:
    from .solvers.formula import CNF
    from .solitaire.encoders.encoding import CnfEncoding
    from .io.decks import DeckFile
    from .apps.harness.runner import Report
    from .apps.studies.catalogue import Study
    from .real.actions import Action
    from .real.postmortem.report import PostMortem
    from .real.rules import Rules
    from .real.solve import LiveOutcome
    from .solitaire.min_hand import MinHand
    from .solitaire.reduction.sat3 import Reduction
    from .solitaire.solve import Outcome
    from .core.options import SolveOptions
    from .solitaire.referee import Replay


def _plays(plays: PlaySequence | str) -> PlaySequence:
    return plays if isinstance(plays, PlaySequence) else PlaySequence(str(plays).upper())


def _options(options: SolveOptions | None, settings: dict[str, Any]) -> SolveOptions:
    from .core.options import SolveOptions
    options = options or SolveOptions()
    return dataclasses.replace(options, **settings) if settings else options


def parse_deck(text: str) -> Deck:
    """The deck written in ``text``: the text format (``1r 2y ...``, ``n``/``c``
    lines), our JSON, or a hanab.live export.

    >>> import hanabi_cp as hc
    >>> deck = hc.parse_deck("1r 2r 1y 2y")
    >>> deck.n, deck.c, deck.N, deck.cards[1]
    (2, 2, 4, Card(value=2, color=1))
    """
    from .io.decks import parse_deck_file as parse
    return parse(text).deck


def read_deck(path: str) -> Deck:
    """The deck of a file (``-``: stdin): text, our JSON or a hanab.live export.
    :func:`read_deck_file` also gives the file's hand size and card roles.

    >>> import hanabi_cp as hc
    >>> deck = hc.read_deck("instances/hanablive-standard.json")
    >>> deck.N, deck.n, deck.c, deck.r
    (50, 5, 5, 3)
    """
    return read_deck_file(path).deck


def read_deck_file(path: str) -> DeckFile:
    """A deck file with what it says besides the cards: ``h`` (the hand size of an
    ``h H`` line, else None) and ``roles`` (one per card in decks that ``reduce``
    wrote, else None).

    >>> import hanabi_cp as hc
    >>> f = hc.read_deck_file("instances/standard-winnable-h2.txt")
    >>> f.deck.N, f.h, f.roles
    (50, 2, None)
    """
    from .io.decks import read_deck_file as read
    return read(path)


def solve(deck: Deck, h: int, method: str = "auto", options: SolveOptions | None = None,
          **settings: Any) -> Outcome:
    """Decide whether ``deck`` can be won with hand size ``h``.

    ``method`` is ``auto`` or one of :func:`methods`; ``settings`` are fields of
    :class:`SolveOptions` (``time_limit``, ``seed``, ``workers``, ``solver``,
    ``proof``, ``maximize``), applied over ``options``.  Every certificate has been
    replayed by the referee (``outcome.verified``) before it is returned; when the
    time limit runs out the status is UNKNOWN, never a guess.

    >>> import hanabi_cp as hc
    >>> deck = hc.read_deck("instances/standard-winnable-h2.txt")
    >>> out = hc.solve(deck, 2, time_limit=60)
    >>> out.status, out.verified, len(out.plays)
    (<Status.WINNABLE: 'WINNABLE'>, True, 50)
    >>> hc.solve(deck, 1, method="sat").status
    <Status.UNWINNABLE: 'UNWINNABLE'>
    """
    from .solitaire.solve import solve as decide
    return decide(deck, h, method, _options(options, settings))


def methods() -> dict[str, str]:
    """The registered methods of :func:`solve`, each with its one-line summary.

    >>> import hanabi_cp as hc
    >>> {"sat", "cpsat", "dp", "search", "greedy", "lazy", "brute"} <= set(hc.methods())
    True
    """
    from .solitaire.solve import methods as table
    return {name: m.summary for name, m in sorted(table().items())}


def replay(deck: Deck, h: int, plays: PlaySequence | str) -> Replay:
    """The referee's judgement of a play sequence (``"PSD..."`` or a PlaySequence):
    whether it wins, its score, the largest hand it holds, and the first illegal
    step.  It never raises for a bad play; :func:`check_win` does.

    >>> import hanabi_cp as hc
    >>> deck = hc.parse_deck("2r 1r 1y 2y")
    >>> hc.replay(deck, 1, "SPPP").won
    True
    >>> r = hc.replay(deck, 0, "SPPP")
    >>> r.won, r.step, r.error
    (False, 1, 'card #1 (2:1): cannot store, hand is full (0 of 0)')
    """
    from .solitaire.referee import replay as referee
    return referee(deck, h, _plays(plays))


def check_win(deck: Deck, h: int, plays: PlaySequence | str) -> Replay:
    """Like :func:`replay`, but raise :class:`CertificateError` unless the play
    sequence wins (``hanabi-cp verify``).

    >>> import hanabi_cp as hc
    >>> hc.check_win(hc.parse_deck("2r 1r"), 1, "SP").score
    2
    >>> hc.check_win(hc.parse_deck("2r 1r"), 1, "DP")
    Traceback (most recent call last):
    ...
    hanabi_cp.core.errors.CertificateError: not won: color 1 stands at 1 of 2
    """
    from .solitaire.referee import check_win
    return check_win(deck, h, _plays(plays))


def min_hand(deck: Deck, method: str = "sat", options: SolveOptions | None = None,
             max_hand: int | None = None, **settings: Any) -> MinHand:
    """The least hand size that wins ``deck``, with a winning play for it and the
    reason the next smaller one does not win (``h`` is None if no hand size wins).
    ``settings`` are fields of :class:`SolveOptions`, as for :func:`solve`.

    >>> import hanabi_cp as hc
    >>> least = hc.min_hand(hc.read_deck("instances/standard-unwinnable-h2.txt"))
    >>> least.h, hc.replay(hc.read_deck("instances/standard-unwinnable-h2.txt"), 3, least.plays).won
    (3, True)
    """
    from .solitaire.min_hand import min_hand as least
    return least(deck, method, _options(options, settings), max_hand)


def encode(deck: Deck, h: int) -> CnfEncoding:
    """The compact CNF of (deck, h): satisfiable iff the deck is winnable, as an
    :class:`Encoding` (``CnfEncoding``).  ``.cnf`` is the formula (write it with
    :func:`write_dimacs`), ``.decode(model)`` turns a model of any SAT solver into a
    play sequence, ``.varmap()`` names the variables, ``.status`` is UNWINNABLE when
    preprocessing already decided (the formula is then one empty clause).

    >>> import hanabi_cp as hc
    >>> deck = hc.read_deck("instances/standard-winnable-h2.txt")
    >>> enc = hc.encode(deck, 2)
    >>> enc.cnf.num_vars > 0, hc.dimacs_text(enc.cnf).startswith("p cnf")
    (True, True)
    >>> hc.check_win(deck, 2, enc.decode(enc.solve_model())).won
    True
    """
    from .solitaire.encoders.cnf import build
    from .runtime.limits import effective_hand
    return build(deck, effective_hand(h, deck.N))


def reduce_cnf(cnf: CNF, h: int = 2, copies: int | None = None, kappa: bool = False,
               as_written: bool = False) -> Reduction:
    """The deck of the journal's reduction from SAT for any CNF formula: winnable
    with hand size ``red.h`` iff the formula is satisfiable.  ``red.deck`` is the
    deck, ``red.roles`` names every card's gadget; ``copies`` (r >= 2 for h >= 2,
    >= 3 for h = 1) and ``kappa`` pick the variants, ``as_written`` the paper's
    text without our fixes.

    >>> import hanabi_cp as hc
    >>> red = hc.reduce_cnf(hc.read_dimacs("instances/formulas/figure2.cnf"))
    >>> red.deck.N, red.h, red.roles[1]
    (183, 2, 'var 1 gadget')
    >>> hc.reduce_cnf(hc.CNF.of([(1, 2, 3)]), copies=1)
    Traceback (most recent call last):
    ...
    hanabi_cp.core.errors.InvalidParameter: copies 1: the reduction needs r >= 2 for h = 2
    """
    from .solitaire.reduction.sat3 import reduce_cnf as reduction
    return reduction(cnf, h, copies, kappa, as_written)


def play_from_assignment(red: Reduction, assignment: Mapping[int, bool] | Sequence[int]) -> PlaySequence:
    """The winning play of the reduction's deck that the proof builds from a
    satisfying assignment of the formula: a map variable -> bool, or a list of
    literals as SAT solvers give models.  Checked by the referee; an assignment
    that falsifies a clause raises :class:`CertificateError`.

    >>> import hanabi_cp as hc
    >>> red = hc.reduce_cnf(hc.read_dimacs("instances/formulas/figure2.cnf"))
    >>> plays = hc.play_from_assignment(red, [1, 2, 3])
    >>> hc.replay(red.deck, red.h, plays).won
    True
    """
    from .solitaire.reduction.witnesses import play_from_assignment as build
    if not isinstance(assignment, Mapping):
        assignment = {abs(lit): lit > 0 for lit in assignment}
    return build(red, assignment)


def assignment_from_play(red: Reduction, plays: PlaySequence | str) -> dict[int, bool]:
    """A satisfying assignment of the formula read back from any winning play of
    the reduction's deck (the read-back of the proof); a play that does not win
    raises :class:`CertificateError`.

    >>> import hanabi_cp as hc
    >>> cnf = hc.read_dimacs("instances/formulas/figure2.cnf")
    >>> red = hc.reduce_cnf(cnf)
    >>> found = hc.assignment_from_play(red, hc.solve(red.deck, red.h, "sat").plays)
    >>> cnf.satisfied_by(found)
    True
    """
    from .solitaire.reduction.witnesses import assignment_from_play as back
    return back(red, _plays(plays))


def solve_live(deck: Deck, rules: Rules | int, method: str = "auto",
               options: SolveOptions | None = None, **settings: Any) -> LiveOutcome:
    """Decide a deck under the real (hanab.live) rules, all hands open: ``rules``
    is a :class:`Rules` or a number of players (hanab.live's defaults for it).
    The certificate (``.actions``) is a complete game replayed by the real-rules
    referee; with ``maximize=True``, ``.score`` is the best score.

    >>> import hanabi_cp as hc
    >>> deck = hc.read_deck("instances/hanablive-standard.json")
    >>> out = hc.solve_live(deck, 3, time_limit=60)
    >>> out.status, out.verified
    (<Status.WINNABLE: 'WINNABLE'>, True)
    >>> hc.solve_live(deck, hc.Rules.for_players(3, clues=None)).status.value
    'WINNABLE'
    """
    from .real.rules import Rules
    from .real.solve import solve_live as decide
    if not isinstance(rules, Rules):
        rules = Rules.for_players(rules)
    return decide(deck, rules, method, _options(options, settings))


def analyze(game: str | Deck, rules: Rules | int | None = None,
            actions: Sequence[Action] | None = None, *, deck: str | None = None,
            players: int | None = None, method: str = "auto", position_limit: float | None = 10.0,
            time_limit: float | None = None, any_deck: bool = False) -> PostMortem:
    """The post-mortem of a real game, as ``hanabi-cp analyze``: the best score still
    reachable (open hands, exact) after every action, the actions that lowered it
    (``drops``: each with its ``reason``, ``reason_kind`` and the actions that would
    have kept the best score, ``keep``), and for each play and discard its slot, what
    its holder could know the card was (``knew``) and whether the loss was
    ``visible``, ``hidden`` or ``tempo``.

    ``game`` is a game file (a hanab.live export, a certificate of ``solve --rules
    live``, a game of ``play --replay``; ``deck=`` and ``players=`` for a bare list
    of actions), or a :class:`Deck` with ``rules`` (a :class:`Rules` or a number of
    players) and ``actions``.  ``position_limit`` bounds each position's solve,
    ``time_limit`` the whole; ``any_deck`` takes a game file whose deck its variant
    does not deal (``pm.any_deck`` says how).  ``pm.lines(game)`` is the report
    ``hanabi-cp analyze`` prints, ``pm.to_json()`` its ``--json``.

    >>> import hanabi_cp as hc
    >>> pm = hc.analyze("instances/games/standard-winnable-4p.json")
    >>> pm.final_score, pm.target, [r.best for r in pm.rows][:2]
    (23, 25, [25, 25])
    >>> drop = pm.drops[0]
    >>> print(drop.text)
    turn 33, Alice discards slot 4 (b4), the last copy: best 25 -> 23
    >>> drop.reason_kind, drop.reason
    ('last_copy', 'the last b4 is discarded, so b4, b5 can no longer be played')
    >>> row = pm.rows[drop.position]
    >>> row.slot, row.card, row.seen, len(row.knew)
    (4, 'b4', 'hidden', 12)
    >>> pm.lines("game.json")[1]
    'c final score: 23 of 25 (end: normal: the score reached the best score still reachable)'
    >>> from hanabi_cp.real.actions import Action
    >>> deck = hc.parse_deck("1r 2r 1y 2y 1r 1y")
    >>> rules = hc.Rules.for_players(2, hand_size=2, clues=1)
    >>> [r.best for r in hc.analyze(deck, rules, [Action.rank_clue(1, 1), Action.discard(3)]).rows]
    [4, 4, 3]
    """
    from .real.postmortem.report import analyze as post_mortem
    from .real.rules import Rules
    from .runtime.deadline import Deadline
    from .core.errors import InvalidParameter
    if isinstance(game, Deck):
        if rules is None or actions is None:
            raise InvalidParameter("analyze of a Deck needs rules and actions")
        the_rules = rules if isinstance(rules, Rules) else Rules.for_players(rules)
        the_deck, moves, names = game, list(actions), None
    else:
        if rules is not None or actions is not None:
            raise InvalidParameter("rules and actions go with a Deck, not a game file")
        from .apps.studies.postmortems import load_game
        the_deck, the_rules, moves, names = load_game(str(game), deck, players, any_deck)
    deadline = None if time_limit is None else Deadline.after(time_limit)
    return post_mortem(the_deck, the_rules, moves, names, method, position_limit, deadline)


def draw(path: str, deck: Deck, h: int | None = None, plays: PlaySequence | str | Outcome | None = None,
         roles: Sequence[str] | None = None, first: int | None = None, last: int | None = None,
         name: str | None = None, force: bool = False) -> None:
    """Draw ``deck`` to ``path`` as ``hanabi-cp show`` does: ``.svg`` or ``.png``
    (a picture) or ``.html`` (a self-contained step-through replay).

    ``plays`` is a play sequence (judged by the referee first) or an
    :class:`Outcome` of :func:`solve` (its certificate, or the reason of a loss);
    ``roles`` label the gadgets of a reduction's deck; ``first``/``last`` (1-based,
    inclusive) pick a window; ``name`` is what the title calls the deck (default:
    the output's file name).  An existing file is kept unless ``force``.

    >>> import os, tempfile
    >>> import hanabi_cp as hc
    >>> deck = hc.read_deck("instances/standard-winnable-h2.txt")
    >>> path = os.path.join(tempfile.mkdtemp(), "win.html")
    >>> hc.draw(path, deck, 2, hc.solve(deck, 2))
    >>> "<html" in open(path, encoding="utf-8").read()
    True
    >>> hc.draw(path, deck, 2, first=30, last=20, force=True)
    Traceback (most recent call last):
    ...
    hanabi_cp.core.errors.UsageError: first 30 is after last 20
    """
    import os

    from .runtime.limits import effective_hand
    from .show import render, scene
    from .solitaire.solve import Outcome

    fmt = render.format_of(path)
    if h is not None:
        h = effective_hand(h, deck.N)
    lo, hi = scene.window(deck, first, last)
    name = name or os.path.basename(path)
    roles = tuple(roles) if roles is not None else None
    if isinstance(plays, Outcome):
        status = f"{plays.status.value} (method {plays.method})"
        view = scene.make(deck, h, name, roles, lo, hi, plays.plays,
                          source="its certificate" if plays.plays is not None else "",
                          status=status, reason=plays.reason)
    elif plays is not None:
        view = scene.make(deck, h, name, roles, lo, hi, _plays(plays), source="the play sequence")
    else:
        view = scene.make(deck, h, name, roles, lo, hi)
    render.write_bytes(path, render.render(view, fmt), force)


def cross_check(count: int = 1000, seed: int = 0, methods: Sequence[str] | None = None,
            max_n: int = 4, max_c: int = 3, max_r: int = 3, max_h: int = 3,
            maximize: bool = True, options: SolveOptions | None = None, **settings: Any) -> Report:
    """Cross-check every method (or those named) against every other on ``count``
    seeded random instances, as ``hanabi-cp harness`` does; each failure in
    ``report.failures`` is shrunk to a small counterexample.  ``settings`` are
    fields of :class:`SolveOptions` (``time_limit`` is per instance and method).

    >>> import hanabi_cp as hc
    >>> report = hc.cross_check(count=30, seed=1, methods=["brute", "dp", "sat"])
    >>> report.instances, report.ok, sorted(report.tallies)
    (30, True, ['brute', 'brute+max', 'dp', 'dp+max', 'sat'])
    """
    from .apps.harness.runner import cross_check as run, select_checks
    from .apps.harness.space import Space
    space = Space(max_n, max_c, max_r, max_h)
    checks = select_checks(methods, maximize=maximize)
    return run(seed, count, space, checks, options=_options(options, {"seed": seed, **settings}))


def study(name: str) -> Study:
    """The study ``name`` as ``hanabi-cp study NAME`` runs it: ``standard``,
    ``random``, ``reduction``, ``live``, ``hard``, ``hle`` or ``strategies``.
    ``.run(csv_path, ...)`` appends the rows not yet in the CSV (a rerun resumes;
    the keywords are the command's options) and returns the sweep: ``.rows`` the
    CSV, ``.mine`` this sweep's rows; ``.summary(rows)`` is the table the command
    prints, ``.plot(rows, stem)`` writes STEM.png and STEM.svg.

    >>> import os, tempfile
    >>> import hanabi_cp as hc
    >>> random = hc.study("random")
    >>> csv = os.path.join(tempfile.mkdtemp(), "random.csv")
    >>> sweep = random.run(csv, count=2, points=[1, 2], n=2, c=2, r=2, methods=["dp"])
    >>> len(sweep.mine), sweep.new, sweep.fields
    (4, 4, {'seed': 1, 'param': 'h', 'n': 2, 'c': 2, 'r': 2})
    >>> print(random.summary(sweep.mine).splitlines()[0])
    x  decks  winnable  undecided  dp med/p95 ms  dp pre/model/unknown
    >>> random.run(csv, count=2, points=[1, 2], n=2, c=2, r=2, methods=["dp"]).new
    0
    >>> hc.study("chess")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    hanabi_cp.core.errors.InvalidParameter: no study 'chess'; choose from standard, random, ...
    """
    from .apps.studies.catalogue import study as named
    return named(name)
