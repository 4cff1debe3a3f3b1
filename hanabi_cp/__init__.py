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

import importlib
import sys
import types

from .core.errors import (CertificateError, DeckError, FileError, FormulaError, HanabiError, InputError,
                          InvalidParameter, LimitError, MethodRefused, SolverBug, UsageError)
from .core.version import __version__

# Not ``from typing import TYPE_CHECKING``: importing typing costs more than the rest
# of this file (mypy knows the name either way).
TYPE_CHECKING = False

# name -> module that defines it; loaded by __getattr__ on first use.
_LAZY = {
    # the model
    "Card": "core.model", "Deck": "core.model", "PlaySequence": "solitaire.play_sequence", "CNF": "solvers.formula",
    # solving and checking
    "Status": "core.status", "Outcome": "solitaire.solve", "SolveOptions": "core.options",
    "Replay": "solitaire.referee",
    "MinHand": "solitaire.min_hand", "Encoding": "solitaire.encoders.encoding",
    "solve": "api", "methods": "api", "replay": "api", "check_win": "api", "min_hand": "api",
    "encode": "api",
    # files
    "DeckFile": "io.decks", "parse_deck": "api", "read_deck": "api", "read_deck_file": "api",
    "write_deck": "io.decks", "read_plays": "solitaire.play_text", "write_plays": "solitaire.play_text",
    "read_dimacs": "solvers.dimacs", "parse_dimacs": "solvers.dimacs", "write_dimacs": "solvers.dimacs",
    "dimacs_text": "solvers.dimacs",
    # generators
    "random_deck": "apps.generators", "standard_deck": "apps.generators", "random_kcnf": "apps.generators",
    # the reduction from SAT
    "Reduction": "solitaire.reduction.sat3", "reduce_cnf": "api", "play_from_assignment": "api",
    "assignment_from_play": "api",
    # real rules, pictures, cross-checking
    "Rules": "real.rules", "RulesError": "real.rules", "LiveOutcome": "real.solve", "solve_live": "api",
    "analyze": "api", "PostMortem": "real.postmortem.report",
    "draw": "api", "cross_check": "api", "Report": "apps.harness.runner",
    "study": "api",
    "TimeUp": "runtime.deadline",
    # other engines' games: a module (DeepMind's Hanabi Learning Environment)
    "hle": "interop.hle",
}
# Names in _LAZY that are a module themselves, not a name defined in one.
_MODULES = frozenset({"hle"})

# Spelled out for readers and linters; tests/test_api.py checks it against _LAZY.
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
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'hanabi_cp' has no attribute {name!r}")
    loaded = importlib.import_module(f".{module}", __name__)
    value = loaded if name in _MODULES else getattr(loaded, name)
    globals()[name] = value          # next time without __getattr__
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))


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
