"""The one shape of a method, for both wings, and the table that names them.

A method decides one kind of problem and returns that wing's ``Decision``:

- solitaire (``solitaire.solve``): the problem is ``(deck, h)``; ``run(deck, h,
  options) -> Outcome``, ``refuses(deck, h)``;
- real rules (``real.solve``): the problem is a position, a referee ``Game``;
  ``run(start, options) -> LiveOutcome``, ``refuses(start)``.

Each wing lists its methods in a ``Methods`` table in its ``methods/__init__.py``
(one module per method, whose ``METHOD`` is the method); its ``solve.py`` runs one
and has the referee replay the certificate.  ``methods/TEMPLATE.py`` in each wing is
a method to copy.

>>> from hanabi_cp.core.options import SolveOptions
>>> from hanabi_cp.core.status import Decision, Status
>>> def run(n, options):
...     return Status.WINNABLE if n > 0 else Status.UNKNOWN
>>> def refuses(n):
...     return "n < 0" if n < 0 else None
>>> m = Method("toy", run, "says yes to every positive n", refuses=refuses)
>>> m.run(3, SolveOptions()), m.refuses(-1), m.maximizes
(<Status.WINNABLE: 'WINNABLE'>, 'n < 0', False)
>>> Methods("toy method", []).check(m, -1, maximize=False)
Traceback (most recent call last):
...
hanabi_cp.core.errors.MethodRefused: toy method 'toy' does not apply: n < 0
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from .errors import MethodRefused
from .registry import Registry

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable

O = TypeVar("O")


def accepts_all(*problem: Any) -> str | None:
    """The ``refuses`` of a method that decides every problem of its wing."""
    return None


def nothing() -> None:
    """The ``prepare`` of a method that imports nothing costly."""
    return None


def always() -> bool:
    """The ``ready`` of a method whose ``prepare`` has nothing to do."""
    return True


@dataclass(frozen=True)
class Method(Generic[O]):
    """A decision method: ``run`` decides the problem (its certificate is checked by
    the wing's referee afterwards, never by the method itself), ``refuses`` says in
    one line why it cannot (or None), before anything is built.

    ``run``, ``refuses`` and ``prepare`` are top-level functions, never lambdas:
    the harness pickles methods to its worker processes.
    """

    name: str
    # (problem..., options) -> the wing's outcome: (deck, h, options) or (start, options)
    run: Callable[..., O]
    summary: str                        # one line, for listings (``--help``, docs)
    # (problem...) -> None if the method can decide it, else a one-line reason why not
    refuses: Callable[..., str | None] = accepts_all
    maximizes: bool = False             # supports SolveOptions.maximize (the best score)
    # Imports what ``run`` needs (OR-Tools: half a second) before the clock starts.
    prepare: Callable[[], object] = nothing
    # False while ``prepare`` still has its import to do: a portfolio stage with less
    # time than that import takes is skipped rather than overrun its share.
    ready: Callable[[], bool] = always
    # Starts another program per call (MiniZinc, minisat+, RC2): the harness
    # cross-checks it, but sweeps that default to "every method" leave it out
    # unless named.
    external: bool = False


class Methods(Registry[Method[O]]):
    """A wing's methods by name, in its table's order, each ``"module:METHOD"``
    imported on first use; each method's ``name`` is the one it is listed under."""

    def __init__(self, kind: str, entries: Iterable[tuple[str, str]]):
        super().__init__(kind, entries, named=True)

    def maximizing(self) -> list[str]:
        """The names of the methods that maximize, sorted."""
        return sorted(name for name, m in self.load_all().items() if m.maximizes)

    def check(self, method: Method[O], *problem: Any, maximize: bool,
              why: str | None = None) -> None:
        """MethodRefused unless ``method`` can answer ``problem`` (its best score,
        with ``maximize``); ``why``: the wing's own refusal, after the method's."""
        if maximize and not method.maximizes:
            raise MethodRefused(f"{self.kind} {method.name!r} cannot maximize; use one of "
                                + ", ".join(self.maximizing()))
        why = method.refuses(*problem) or why
        if why is not None:
            raise MethodRefused(f"{self.kind} {method.name!r} does not apply: {why}")
