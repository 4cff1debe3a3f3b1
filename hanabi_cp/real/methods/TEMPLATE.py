"""A method to copy: "template", a small correct real-rules method that is not registered.

Its strategy: play the greedy game of ``real.hint`` from the position (with open
hands: play the lowest playable card, else discard a spare card, else clue, ...).
When that game is won, the position can be won and the game is the certificate;
otherwise it proves nothing, so the answer is UNKNOWN, never a guess.

How to add a method (docs/methods.md, "Adding a method"):

1. Copy this file to ``hanabi_cp/real/methods/NAME.py``; ``METHOD``'s name is ``NAME``.
2. ``run(start, options) -> LiveOutcome``: ``start`` is a referee ``Game`` (the
   deal or any later position), which ``run`` reads and never changes (``copy`` it).
   WINNABLE comes with ``actions``, the rest of a game that ends won (with
   ``maximize``: the best ``score`` and a game reaching it); ``solve_position``
   replays it from ``start`` with the referee, and a game that does not back the
   claim is a SolverBug, never an answer.  UNWINNABLE comes with a ``reason`` a
   reader can check (or a checked proof); else UNKNOWN with why.  A position whose
   game is over is answered by ``decided_now``.  Look at ``options.clock()`` in
   every loop that may run long: its ``check`` raises TimeUp.
3. ``refuses(start)``: None, or one line saying why the method cannot decide this
   position (rules it does not model, a size above its limit); asked first, it
   becomes a MethodRefused.  ``maximizes=True`` only if ``run`` honours
   ``options.maximize``.
4. Add one row ``("NAME", "hanabi_cp.real.methods.NAME:METHOD")`` to ``METHODS``
   in ``methods/__init__.py``; for ``auto`` to run it too, add it to
   ``real.solve.AUTO_ORDER`` (the stages ``auto`` runs while undecided).  The CLI's
   ``--method NAME`` (``solve`` under real rules, ``analyze``), ``hc.solve_live``
   and the harness see it from there.
5. Test it against the oracle: ``hanabi-cp harness --rules live --methods NAME,brute``
   cross-checks it with ``brute`` on small decks; tests/test_method_templates.py
   shows how a test registers a method for its own run.

>>> from hanabi_cp.core.model import Deck
>>> from hanabi_cp.core.options import SolveOptions
>>> from hanabi_cp.real.rules import Rules
>>> deal = Game.start(Deck.of([(2, 1), (1, 1), (1, 1)]), Rules.for_players(2, hand_size=1))
>>> out = run(deal, SolveOptions())
>>> out.status.value, [str(a) for a in out.actions]
('WINNABLE', ['clue player 1 rank 1', 'play #1', 'play #0'])
"""

from __future__ import annotations

from ...core.options import SolveOptions
from ...core.status import Status
from ..hint import greedy_game
from ..referee import Game
from ..solve import LiveMethod, LiveOutcome, decided_now


def run(start: Game, options: SolveOptions) -> LiveOutcome:
    """The greedy game from ``start``: WINNABLE when it wins, else UNKNOWN."""
    over = decided_now(start, options.maximize)
    if over is not None:
        return over
    options.clock().check("the template's game")   # one game: linear in the deck
    actions = greedy_game(start)
    game = start.copy()                # where the game ends: its score
    for act in actions:
        game.apply(act)
    stats = {"turns": len(actions), "score": game.score}
    if game.won:
        return LiveOutcome(Status.WINNABLE, actions, stats=stats)
    return LiveOutcome(Status.UNKNOWN, stats=stats,
                       reason=f"the greedy game scores {game.score} of {start.target}; "
                              "another game may score more")


def refuses(start: Game) -> str | None:
    """A method refuses in one line what it does not model (here: All or Nothing,
    where the greedy game's discards end the game with 0)."""
    if start.rules.all_or_nothing and not start.over:
        return "all or nothing: the template's game discards, which scores 0 there; use search"
    return None


METHOD = LiveMethod("template", run, "the greedy game of real.hint (wins or says nothing: "
                    "a method to copy)", refuses=refuses)
