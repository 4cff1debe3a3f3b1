"""The residual of an encoding: its CNF after bounded variable elimination, with
the map of a residual model back to a model of the whole CNF.

On reduction images almost every variable of the compact CNF (solitaire/encoders/cnf.py)
describes a card whose decision is forced once the windows analysis has run: such a
variable occurs in a handful of clauses, and eliminating it by resolution (Davis and
Putnam; the "bounded" rule of Een and Biere 2005: never more resolvents than
removed clauses; a pure variable has none) leaves the formula the deck was reduced
from.  The uf20-01 image (37,461 cards, 10,693 variables, 14,094 clauses) leaves 20
variables and 91 ternary clauses.  Nothing here reads roles or comments: it is the
CNF of the deck.  Proofs in encodings/cnf-images.md §6.

``simplify`` runs CaDiCaL's bounded variable elimination (pysat's ``Processor``
with every other technique off: 0.2 s on a uf50 image); ``eliminate`` is the same
rule in Python (several times slower), the reference the tests hold the other to and the
fallback for a python-sat without ``pysat.process``.

>>> r = eliminate([[1, 2], [-2, 3], [-3, 4], [-4, -1], [1, 5]], 5)
>>> r.clauses, r.unsat
([], False)
>>> m = set(r.literals([]))
>>> all(any(l in m for l in c) for c in [[1, 2], [-2, 3], [-3, 4], [-4, -1], [1, 5]])
True
"""

from __future__ import annotations

import inspect
import re
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial

from ...runtime.deadline import EVERY, NEVER, Deadline

PHASE = "simplifying the CNF (variable elimination)"
# Decks from this size on are solved through their residual.  Below it elimination
# costs more than it saves: about 1.5 ms per standard deck, whose whole CNF CaDiCaL
# decides in 0.2-0.4 ms; from a few thousand cards on (reduction images) it is what
# keeps the solve phase the formula's size.  "cpsat" uses the same threshold.
RESIDUAL_FROM_CARDS = 5_000
MAX_OCCURRENCES = 16     # a variable in more clauses is kept (resolution is quadratic)


@dataclass
class Residual:
    """What is left of a CNF after elimination, and how to undo it.

    ``clauses`` keep the original numbering; ``unsat`` is True when elimination
    derived the empty clause (``clauses`` is then ``[[]]``).  ``restore`` maps a
    model of the residual (literals of its variables, pysat style) to a model of
    the whole CNF (a literal for each of its variables).
    """

    clauses: list
    num_vars: int
    unsat: bool
    restore: Callable[[list], list]
    seconds: float = 0.0
    engine: str = "python"

    @property
    def variables(self) -> int:
        """Variables occurring in the residual clauses."""
        return len({abs(lit) for c in self.clauses for lit in c})

    def literals(self, model) -> list[int]:
        """The whole CNF's model, from one of the residual (what ``decode`` reads)."""
        return self.restore(list(model))


def residual_stats(res: Residual) -> dict:
    """Sizes of the residual CNF, for the stats of every method that solves it."""
    return {"residual_variables": res.variables, "residual_clauses": len(res.clauses),
            "residual_seconds": round(res.seconds, 6), "residual_engine": res.engine}


def simplify(clauses, num_vars: int, deadline: Deadline = NEVER) -> Residual:
    """The residual by CaDiCaL's bounded variable elimination (see the module
    docstring); ``eliminate`` when this python-sat has no ``pysat.process``."""
    if not processor_is_trusted():
        return eliminate(clauses, num_vars, deadline=deadline)
    from pysat.process import Processor

    from ...solvers.sat_backend import built_whole
    deadline.check(PHASE)
    t0 = time.perf_counter()
    proc = built_whole(Processor, bootstrap_with=clauses)
    # Elimination only: the rule proved in encodings/cnf-images.md §6.
    out = proc.process(rounds=1, elim=True, **_others_off(proc.process))
    deadline.check(PHASE)
    rest = [list(c) for c in out.clauses]
    unsat = not proc.status

    def restore(model: list) -> list:
        # Every variable given a value before the extension runs: the literals below
        # read a missing one as False, and the extension must decide each eliminated
        # variable under that same assignment (older python-sat releases read a
        # missing variable otherwise).
        given = {abs(lit) for lit in model}
        model = list(model) + [-v for v in range(1, num_vars + 1) if v not in given]
        full = proc.restore(model) or []
        value = {abs(lit): lit > 0 for lit in full}
        return [v if value.get(v, False) else -v for v in range(1, num_vars + 1)]

    return Residual([[]] if unsat else rest, num_vars, unsat, restore,
                    time.perf_counter() - t0, "cadical")


OTHER_TECHNIQUES = ("backbone", "block", "condition", "congruence", "cover", "decompose",
                    "probe", "probehbr", "subsume", "sweep", "ternary", "transred", "vivify")


# python-sat releases whose Processor this module was checked against: 1.9.dev17's
# restore() crashed (a segmentation fault) on models naming every variable and
# extended models the CNF rejected when given only the residual's variables.
TRUSTED_PYSAT = (1, 9, 22)


def processor_is_trusted(version: str | None = None) -> bool:
    """Whether this python-sat's ``pysat.process`` may be used (else ``eliminate``).

    >>> processor_is_trusted("1.9.dev17"), processor_is_trusted("1.9.dev22"), processor_is_trusted("1.10")
    (False, True, True)
    """
    if version is None:
        try:
            import pysat
            from pysat.process import Processor  # noqa: F401
        except ImportError:         # python-sat < 1.8.dev13
            return False
        version = getattr(pysat, "__version__", "")
    m = re.match(r"(\d+)\.(\d+)(?:\.(\d+))?(?:\.?dev(\d+))?", version)
    if m is None:
        return False
    major, minor, micro, dev = (int(g) if g is not None else None for g in m.groups())
    if (major, minor) != TRUSTED_PYSAT[:2]:
        return (major, minor) > TRUSTED_PYSAT[:2]
    return micro is not None or dev is None or dev >= TRUSTED_PYSAT[2]


def _others_off(process: Callable) -> dict[str, bool]:
    """``OTHER_TECHNIQUES`` switched off, those this python-sat's ``process`` knows:
    older releases have fewer switches (and fewer techniques).  Any technique CaDiCaL
    runs keeps satisfiability and ``restore`` extends its models, so a verdict does
    not depend on the release, only the residual's size could."""
    try:
        known = inspect.signature(process).parameters
    except (TypeError, ValueError):      # a builtin without a signature: ask for nothing
        return {}
    if any(p.kind is inspect.Parameter.VAR_KEYWORD for p in known.values()):
        return dict.fromkeys(OTHER_TECHNIQUES, False)
    return {name: False for name in OTHER_TECHNIQUES if name in known}


def _extend(num_vars: int, eliminated: list, model: list) -> list[int]:
    """Undo ``eliminate``: residual variables from ``model``, the others False, then
    each eliminated variable, in reverse order, True iff one of its clauses with it
    positive has no other true literal (the BVE model extension)."""
    value = [False] * (num_vars + 1)
    for lit in model:
        if abs(lit) <= num_vars:
            value[abs(lit)] = lit > 0
    for v, removed in reversed(eliminated):
        need = False
        for c in removed:
            if v in c and not any(lit != v and value[abs(lit)] == (lit > 0) for lit in c):
                need = True
                break
        value[v] = need
    return [v if value[v] else -v for v in range(1, num_vars + 1)]


def eliminate(clauses, num_vars: int, max_occurrences: int = MAX_OCCURRENCES,
              deadline: Deadline = NEVER) -> Residual:
    """Eliminate every variable whose resolvents are no more than its clauses.

    A pure variable (one sign only) has no resolvent: its clauses just go.  Clauses
    are never strengthened or subsumed, only removed and replaced by resolvents, so
    each step keeps the formula satisfiable iff it was (see ``Residual.extend``).
    """
    t0 = time.perf_counter()
    eliminated: list = []
    restore = partial(_extend, num_vars, eliminated)
    # Each clause once per literal in the occurrence lists: repeated literals merged,
    # tautologies (always true) left out.
    cls: list = []
    for c in clauses:
        if len({abs(lit) for lit in c}) != len(c):
            c = list(dict.fromkeys(c))
            if any(-lit in c for lit in c):
                continue
        cls.append(c)
    if any(not c for c in cls):
        return Residual([[]], num_vars, True, restore, time.perf_counter() - t0)
    off = num_vars
    occ: list[list[int]] = [[] for _ in range(2 * num_vars + 1)]   # by literal + off
    count = [0] * (2 * num_vars + 1)
    for i, c in enumerate(cls):
        for lit in c:
            occ[lit + off].append(i)
            count[lit + off] += 1
    live = bytearray(b"\x01") * len(cls)
    queued = bytearray(b"\x01") * (num_vars + 1)
    queue = list(range(num_vars, 0, -1))      # popped from the end: 1, 2, ...

    def remove(i: int) -> None:
        live[i] = 0
        for lit in cls[i]:
            count[lit + off] -= 1
            u = lit if lit > 0 else -lit
            if not queued[u]:
                queued[u] = 1
                queue.append(u)

    steps = 0
    while queue:
        steps += 1
        if not steps & EVERY:
            deadline.check(PHASE)
        v = queue.pop()
        queued[v] = 0
        p, n = count[v + off], count[off - v]
        if p + n == 0 or (p and n and p + n > max_occurrences):
            continue
        pos = [i for i in occ[v + off] if live[i]]
        neg = [i for i in occ[off - v] if live[i]]
        occ[v + off], occ[off - v] = pos, neg
        resolvents = []
        budget = p + n
        for i in pos:
            rest = [lit for lit in cls[i] if lit != v]
            for j in neg:
                r = rest[:]      # clauses are short: lists beat sets here
                for lit in cls[j]:
                    if lit == -v or lit in r:
                        continue
                    if -lit in r:
                        break
                    r.append(lit)
                else:
                    if not r:
                        return Residual([[]], num_vars, True, restore,
                                        time.perf_counter() - t0)
                    resolvents.append(r)
            if len(resolvents) > budget:
                break
        if len(resolvents) > budget:
            continue
        eliminated.append((v, [cls[i] for i in pos] + [cls[i] for i in neg]))
        for i in pos:
            remove(i)
        for i in neg:
            remove(i)
        for r in resolvents:
            i = len(cls)
            cls.append(r)
            live.append(1)
            for lit in r:
                occ[lit + off].append(i)
                count[lit + off] += 1
    rest = [c for i, c in enumerate(cls) if live[i]]
    return Residual(rest, num_vars, False, restore, time.perf_counter() - t0)
