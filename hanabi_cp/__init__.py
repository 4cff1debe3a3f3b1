"""hanabi-cp: a SAT/CP-backed verifier for the complexity of Solitaire Hanabi.

The public API, for scripts and notebooks::

    >>> import hanabi_cp as hc
    >>> deck = hc.read_deck("instances/standard-winnable-h2.txt")
    >>> out = hc.solve(deck, h=2)
    >>> out.status.value, hc.check_win(deck, 2, out.plays).won
    ('WINNABLE', True)

Every name in ``__all__`` has a docstring with an example (``help(hc.solve)``).
The package imports only its errors with itself; every other name is imported on
first use, and OR-Tools, python-sat's solvers and matplotlib only when a function
needs them, so ``import hanabi_cp`` stays cheap.
"""

from __future__ import annotations

import sys
import types

from .core.errors import (CertificateError, DeckError, FileError, FormulaError, HanabiError, InputError,
                          InvalidParameter, LimitError, MethodRefused, SolverBug, UsageError)
from .core.registry import Registry
from .core.version import __version__

# Not ``from typing import TYPE_CHECKING``: importing typing costs more than the rest
# of this file (mypy knows the name either way).
TYPE_CHECKING = False


def _at(module: str, *names: str) -> list[tuple[str, str]]:
    return [(name, f"hanabi_cp.{module}:{name}") for name in names]


# Every name of the API but the errors, and where it is; loaded by __getattr__ on
# first use.
_EXPORTS: Registry[Any] = Registry("name", [
    # the model
    *_at("core.model", "Card", "Deck"), *_at("solitaire.play_sequence", "PlaySequence"),
    *_at("solvers.formula", "CNF"),
    # solving and checking
    *_at("core.status", "Status"), *_at("solitaire.solve", "Outcome"),
    *_at("core.options", "SolveOptions"), *_at("solitaire.referee", "Replay"),
    *_at("solitaire.min_hand", "MinHand"), *_at("solitaire.encoders.encoding", "Encoding"),
    *_at("api", "solve", "methods", "replay", "check_win", "min_hand", "encode"),
    # files
    *_at("io.decks", "DeckFile", "write_deck"), *_at("api", "parse_deck", "read_deck", "read_deck_file"),
    *_at("solitaire.play_text", "read_plays", "write_plays"),
    *_at("solvers.dimacs", "read_dimacs", "parse_dimacs", "write_dimacs", "dimacs_text"),
    # generators
    *_at("apps.generators", "random_deck", "standard_deck", "random_kcnf"),
    # the reduction from SAT
    *_at("solitaire.reduction.sat3", "Reduction"),
    *_at("api", "reduce_cnf", "play_from_assignment", "assignment_from_play"),
    # real rules, pictures, cross-checking
    *_at("real.rules", "Rules", "RulesError"), *_at("real.solve", "LiveOutcome"),
    *_at("api", "solve_live", "analyze"), *_at("real.postmortem.report", "PostMortem"),
    *_at("api", "draw", "cross_check", "study"), *_at("apps.harness.runner", "Report"),
    *_at("runtime.deadline", "TimeUp"),
    # other engines' games: a module (DeepMind's Hanabi Learning Environment)
    *_at("interop", "hle"),
])

# Spelled out for readers and linters; tests/test_api.py checks it against _EXPORTS.
__all__ = [
    "__version__",
    # the model
    "Card", "Deck", "PlaySequence", "CNF",
    # solving and checking
    "Status", "Outcome", "SolveOptions", "Replay", "MinHand", "Encoding",
    "solve", "methods", "replay", "check_win", "min_hand", "encode",
    # files
    "DeckFile", "parse_deck", "read_deck", "read_deck_file", "write_deck", "read_plays",
    "write_plays", "read_dimacs", "parse_dimacs", "write_dimacs", "dimacs_text",
    # generators
    "random_deck", "standard_deck", "random_kcnf",
    # the reduction from SAT
    "Reduction", "reduce_cnf", "play_from_assignment", "assignment_from_play",
    # real rules, pictures, cross-checking
    "Rules", "RulesError", "LiveOutcome", "solve_live", "analyze", "PostMortem", "draw",
    "cross_check", "Report",
    "study",
    # other engines' games
    "hle",
    # errors
    "HanabiError", "InputError", "FileError", "InvalidParameter", "UsageError", "DeckError",
    "FormulaError", "CertificateError", "LimitError", "MethodRefused", "SolverBug", "TimeUp",
]


def __getattr__(name: str) -> Any:
    if name not in _EXPORTS:
        raise AttributeError(f"module 'hanabi_cp' has no attribute {name!r}")
    value = _EXPORTS.load(name)
    globals()[name] = value          # next time without __getattr__
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_EXPORTS))


# Names that are both an API function and a submodule (hanabi_cp/solitaire/min_hand.py, the
# package hanabi_cp/solitaire/methods/).
_SHADOWED = frozenset({"min_hand", "methods"})


class _Package(types.ModuleType):
    """This package.  The import system sets a submodule as an attribute of its
    package when it is first imported, which would turn ``hc.min_hand`` (or
    ``hc.methods``) from the function into the module at the first solve; here the
    function keeps the name.  (``from hanabi_cp.solitaire.min_hand import ...`` reaches the
    module as always.)"""

    def __setattr__(self, name: str, value: Any) -> None:
        if name in _SHADOWED and isinstance(value, types.ModuleType):
            return
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Package


if TYPE_CHECKING:
    from typing import Any

    from .api import (analyze, assignment_from_play, check_win, cross_check, draw, encode, methods, min_hand,
                      parse_deck, play_from_assignment, read_deck, read_deck_file, reduce_cnf, replay, solve,
                      solve_live, study)
    from .solvers.formula import CNF
    from .runtime.deadline import TimeUp
    from .solitaire.encoders.encoding import Encoding
    from .io.decks import DeckFile, write_deck
    from .solvers.dimacs import dimacs_text, parse_dimacs, read_dimacs, write_dimacs
    from .solitaire.play_text import read_plays, write_plays
    from .apps.generators import random_deck, random_kcnf, standard_deck
    from .apps.harness.runner import Report
    from .interop import hle
    from .real.postmortem.report import PostMortem
    from .real.rules import Rules, RulesError
    from .real.solve import LiveOutcome
    from .solitaire.min_hand import MinHand
    from .core.model import Card, Deck
    from .solitaire.play_sequence import PlaySequence
    from .solitaire.reduction.sat3 import Reduction
    from .solitaire.solve import Outcome
    from .core.options import SolveOptions
    from .core.status import Status
    from .solitaire.referee import Replay
