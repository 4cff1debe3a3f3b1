"""Proof bundles: the DRUP proofs of an Up or Down or Sudoku loss, one per pile plan
(encodings/variants.md, 8.5, "What a "no" carries").

There a "no" of the SAT method is one unsatisfiable CNF per pile plan whose caps
reach the goal, so ``solve --proof DIR`` writes a folder: per refuted plan its CNF
(``plan-I.cnf``, DIMACS, a comment naming the plan) and its DRUP proof
(``plan-I.drup``), and ``manifest.json`` (the deck, the rules, the claim, each
plan's orders and files with their sha256).  Any DRUP checker re-checks a pair
(``drat-trim plan-1.cnf plan-1.drup``).

``check_bundle`` is the product's own check, made before the answer is given and
again by ``verify DECK DIR --rules live``.  It trusts nothing the manifest says of
itself: it lists the plans from the position (``pile_plans.plans_from``, not the
solver's loop), and each must be covered: by its caps (a win plays every planned
card: caps' sum below the target; for "no game scores more than B", at most B, or
its ``late_cap``), or by a proof whose CNF is the plan's own, built again from the
position and compared clause for clause, and that drup accepts.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import shutil
import tempfile
from dataclasses import dataclass
from functools import partial

from ..core.errors import FileError, SolverBug
from ..runtime import interrupts
from ..runtime.deadline import NEVER, Deadline
from ..solvers.proofs import first_rejected_within, refutation, write_lines
from .encoders.plans import late_cap
from .pile_plans import Plan, copies_left, order_cap, plans_from
from .referee import Game
from .variants.catalogue import START

FORMAT = "hanabi-cp pile plan proofs 1"
MANIFEST = "manifest.json"


def plan_text(plan: Plan) -> str:
    """The plan's orders, pile by pile (``1: 5 4 3 2 1``)."""
    return ", ".join(f"{k + 1}: " + " ".join("START" if r == START else str(r) for r in o)
                     for k, o in enumerate(plan.orders))


def claim_text(best: int | None, target: int) -> str:
    return "no game wins" if best is None or best >= target else \
        f"no game scores more than {best}"


def plan_cnf(start: Game, plan: Plan, more_than: int | None,
             deadline: Deadline = NEVER) -> tuple[list[list[int]], int]:
    """(clauses, variables) of the plan's CNF that the SAT method refutes: for a win
    (``more_than`` None) the plan's encoding; for the best score the encoding with
    ``maximize``, the totalizer over the piles and, for ``more_than`` >= 0, the unit
    clause "more than ``more_than`` cards played" (``sat._maximize``'s last call)."""
    from .encoders.cnf import LiveCnf
    if more_than is None:
        enc = LiveCnf(start, False, deadline, plan)
        clauses = enc.clauses
    else:
        from pysat.card import ITotalizer

        from ..solvers.sat_backend import built_whole, release
        enc = LiveCnf(start, True, deadline, plan)
        target = len(enc.played)
        tot = built_whole(ITotalizer, [-x for x in enc.played], ubound=target,
                          top_id=enc.pool.top)
        clauses = enc.clauses + tot.cnf.clauses + (
            [[-tot.rhs[target - more_than - 1]]] if 0 <= more_than < target else [])
        release(tot)
    return clauses, max((abs(x) for c in clauses for x in c), default=0)


def dimacs_body(clauses: list[list[int]], variables: int) -> str:
    return f"p cnf {variables} {len(clauses)}\n" + "".join(
        " ".join(map(str, c)) + " 0\n" for c in clauses)


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def _file_sha(path: str) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def _body_sha(path: str) -> str:
    """The sha256 of a DIMACS file without its comment lines."""
    h = hashlib.sha256()
    with open(path) as f:
        for line in f:
            if not line.startswith("c"):
                h.update(line.encode())
    return h.hexdigest()


@dataclass(frozen=True)
class BundleCheck:
    """What ``check_bundle`` found: ``error`` None when the bundle proves its claim."""

    claim: str
    best: bool = False      # the claim bounds the best score (not a win)
    plans: int = 0          # the position's plans
    proved: int = 0         # covered by a checked proof
    capped: int = 0         # covered by their caps (or late cap)
    error: str | None = None

    @property
    def text(self) -> str:
        return (f"{self.claim}: {self.proved} of the {self.plans} pile plans refuted by "
                f"DRUP proofs checked by drup, the other {self.capped} by their caps"
                + (" or deal order" if self.best else ""))


def read_manifest(path: str) -> dict:
    """The manifest of the bundle folder ``path`` (a FileError if it is none)."""
    name = os.path.join(path, MANIFEST)
    try:
        with open(name) as f:
            data = json.load(f)
    except FileNotFoundError:
        raise FileError(f"{path}: not a proof bundle (no {MANIFEST})") from None
    except (OSError, ValueError) as exc:
        raise FileError(f"{name}: cannot read the proof bundle's manifest: {exc}") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise FileError(f"{name}: not a manifest of hanabi-cp's pile plan proofs "
                        f"(\"format\": \"{FORMAT}\")")
    return data


def check_bundle(start: Game, path: str, deadline: Deadline = NEVER,
                 best: int | None = None, expect: bool = False,
                 workers: int = 1) -> BundleCheck:
    """Whether the bundle ``path`` proves its claim for the position ``start`` (see
    the module's docstring).  ``expect``: the claim must be ``best`` (None: no win);
    ``workers``: checker processes at most."""
    data = read_manifest(path)
    claimed = data.get("best")
    if claimed is not None and (not isinstance(claimed, int) or isinstance(claimed, bool)):
        raise FileError(f"{os.path.join(path, MANIFEST)}: \"best\" is not a score")
    target = start.target
    found = partial(BundleCheck, claim_text(claimed, target), claimed is not None)
    if claimed is not None and not -1 <= claimed < target:
        return found(error=f"the manifest's best score {claimed} is no loss")
    if expect and claimed != best:
        return found(error=f"the manifest claims {claim_text(claimed, target)!r}, not "
                           f"{claim_text(best, target)!r}")
    v = start.chosen
    if v is None:
        return found(error=f"{start.rules.variant_name} has no pile plans: its proofs are "
                           f"one file (solve --proof FILE)")
    wrong = _other_game(start, data)
    if wrong is not None:
        return found(error=wrong)
    listed = data.get("plans")
    if not isinstance(listed, list):
        return found(error=f"{os.path.join(path, MANIFEST)}: \"plans\" is not a list")
    entries = {}
    for i, e in enumerate(listed):
        try:
            entries[tuple(tuple(o) for o in e["orders"])] = e
        except (KeyError, TypeError):
            return found(error=f"the manifest's plan {i + 1} has no orders")
    plans = plans_from(v, start.played)
    found = partial(found, len(plans))
    known = {p.orders for p in plans}
    stray = [e for key, e in entries.items() if key not in known]
    if stray:
        return found(error=f"{stray[0].get('cnf')}: not a pile plan of this position")
    left, first = copies_left(start)
    pairs, capped = [], 0
    for plan in plans:
        e = entries.get(plan.orders)
        if e is None:
            caps = sum(order_cap(o, k, left) for k, o in enumerate(plan.orders))
            if caps < target if claimed is None else \
                    caps <= claimed or late_cap(start, plan, first) <= claimed:
                capped += 1
                continue
            return found(error=f"pile plan {plan_text(plan)}: no proof in the bundle, and "
                               f"its caps reach the goal")
        bad = _entry_error(start, plan, e, claimed, path, deadline)
        if bad is not None:
            return found(error=bad)
        pairs.append((os.path.join(path, e["cnf"]), os.path.join(path, e["proof"])))
    rejected = first_rejected_within(pairs, deadline, workers)
    if rejected is not None:
        return found(error=f"{pairs[rejected][1]}: drup does not accept it as a "
                           f"refutation of its CNF")
    return found(len(pairs), capped)


def _other_game(start: Game, data: dict) -> str | None:
    """Why the manifest was written for another deal (its deck, variant or rules), or
    None: only for the message, as the CNFs are compared with the position's own."""
    from ..io import deck_to_text
    rules = start.rules
    for key, mine in (("variant", rules.variant_name), ("rules", rules.describe()),
                      ("deck", deck_to_text(start.deck))):
        if data.get(key) != mine:
            said = str(data.get(key)).strip().replace("\n", " ")
            return (f"the bundle is of another {key} ({said}), not this one "
                    f"({mine.strip().replace(chr(10), ' ')})")
    return None


def _entry_error(start: Game, plan: Plan, e: dict, claimed: int | None, path: str,
                 deadline: Deadline) -> str | None:
    """Why the manifest's entry ``e`` does not prove that ``plan`` is refuted, or None
    when its files are there, as the manifest hashes them, and its CNF is the
    plan's own."""
    more = e.get("more_than")
    if claimed is None:
        wrong = more is not None
    else:
        wrong = not isinstance(more, int) or isinstance(more, bool) or not -1 <= more <= claimed
    if wrong:
        return f"plan {plan_text(plan)}: its CNF refutes more than {more} cards, not the claim"
    files = {}
    for kind in ("cnf", "proof"):
        name = e.get(kind)
        if not isinstance(name, str) or os.path.basename(name) != name:
            return f"plan {plan_text(plan)}: no {kind} file named in the manifest"
        files[kind] = os.path.join(path, name)
        if not os.path.isfile(files[kind]):
            return f"{files[kind]}: no such file"
        if _file_sha(files[kind]) != e.get(f"{kind}_sha256"):
            return f"{files[kind]}: its sha256 is not the manifest's (changed since written)"
    clauses, top = plan_cnf(start, plan, more, deadline)
    if _body_sha(files["cnf"]) != _sha(dimacs_body(clauses, top)):
        return f"{files['cnf']}: not the CNF of pile plan {plan_text(plan)} from this position"
    return None


def manifest_text(manifest: dict) -> str:
    """The manifest as JSON, one line per plan."""
    text = json.dumps({**manifest, "plans": []}, indent=1)
    plans = ",\n  ".join(json.dumps(e) for e in manifest["plans"])
    return text.replace('"plans": []', f'"plans": [\n  {plans}\n ]') + "\n"


class BundleWriter:
    """A bundle being written: in a temporary folder beside ``path`` until it is
    checked, then renamed into place (``finish``); ``discard`` removes it."""

    def __init__(self, start: Game, path: str, solver: str, deadline: Deadline,
                 workers: int = 1):
        path = os.path.normpath(path)           # "out/" names the folder "out"
        if os.path.isdir(path) and os.listdir(path):
            if not os.path.isfile(os.path.join(path, MANIFEST)):
                raise FileError(f"{path}: a folder that holds other files; a proof bundle "
                                f"goes to a new folder (or replaces an older bundle)")
            read_manifest(path)         # a folder that is no bundle is never replaced
        self.start, self.path, self.solver, self.deadline = start, path, solver, deadline
        self.workers = workers
        self.entries: list[dict] = []
        self.registered: list[str] = []
        parent = os.path.dirname(os.path.abspath(path))
        try:
            self.tmp = tempfile.mkdtemp(prefix=os.path.basename(path) + ".", suffix=".part",
                                        dir=parent)
        except OSError as exc:
            raise FileError(f"{path}: cannot write: {exc.strerror or exc}") from None
        interrupts.register(self.tmp)
        self.registered.append(self.tmp)

    def _write(self, name: str, text_or_lines, lines: bool = False) -> str:
        full = os.path.join(self.tmp, name)
        interrupts.register(full)
        self.registered.append(full)
        try:
            if lines:
                write_lines(text_or_lines, full, self.deadline)
            else:
                with open(full, "w") as f:
                    f.write(text_or_lines)
        except OSError as exc:
            raise FileError(f"{self.path}: cannot write: {exc.strerror or exc}") from None
        return _file_sha(full)

    def prove(self, plan: Plan, more_than: int | None) -> None:
        """Refute the plan's CNF (``plan_cnf``) with proof logging and write both."""
        clauses, top = plan_cnf(self.start, plan, more_than, self.deadline)
        name = f"plan-{len(self.entries) + 1}"
        _, proof = refutation(clauses, self.solver, self.deadline, self.path)
        if proof is None:
            raise SolverBug(f"sat: pile plan {plan_text(plan)}'s CNF was unsatisfiable, "
                            f"then satisfiable with proof logging")
        what = "no game of the plan wins" if more_than is None else \
            f"no complete game of the plan plays more than {more_than} cards"
        head = (f"c hanabi-cp live CNF: {self.start.rules.describe()} "
                f"({self.start.rules.variant_name}), {self.start.deck.N} cards\n"
                f"c pile plan: {plan_text(plan)}\nc unsatisfiable: {what}\n")
        self.deadline.check("writing the proof's CNF")
        cnf, drup = name + ".cnf", name + ".drup"
        self.entries.append({"orders": [list(o) for o in plan.orders], "more_than": more_than,
                             "cnf": cnf, "proof": drup,
                             "cnf_sha256": self._write(cnf, head + dimacs_body(clauses, top)),
                             "proof_sha256": self._write(drup, proof, lines=True)})

    def finish(self, best: int | None) -> BundleCheck:
        """Write the manifest, check the bundle (``check_bundle``) and, when it proves
        its claim, rename it into place (over an older bundle or file)."""
        from ..io import deck_to_text
        start = self.start
        manifest = {"format": FORMAT, "deck": deck_to_text(start.deck),
                    "rules": start.rules.describe(), "variant": start.rules.variant_name,
                    "players": start.rules.players, "best": best,
                    "claim": claim_text(best, start.target), "plans": self.entries,
                    "recheck": "each plan: drat-trim plan-I.cnf plan-I.drup (or "
                               "python -m drup); all of it: hanabi-cp verify DECK DIR "
                               "--rules live with the rules solved"}
        self._write(MANIFEST, manifest_text(manifest))
        checked = check_bundle(start, self.tmp, self.deadline, best, expect=True,
                               workers=self.workers)
        if checked.error is None:
            self._place()
        return checked

    def _place(self) -> None:
        path, old = self.path, None
        if os.path.isdir(path) and os.listdir(path):
            read_manifest(path)             # a folder that is no bundle is never replaced
            old = tempfile.mkdtemp(prefix=os.path.basename(path) + ".", suffix=".old",
                                   dir=os.path.dirname(os.path.abspath(path)))
        with interrupts.critical():
            if old is not None:
                os.replace(path, old)
            elif os.path.isfile(path) or os.path.islink(path):
                os.remove(path)
            os.replace(self.tmp, path)
        self._forget()
        if old is not None:
            shutil.rmtree(old, ignore_errors=True)

    def _forget(self) -> None:
        for full in self.registered:
            interrupts.unregister(full)
        self.registered.clear()

    def discard(self) -> None:
        """Remove the temporary folder (a bundle not placed: no answer, or an error)."""
        if os.path.isdir(self.tmp):
            self._forget()
            with contextlib.suppress(OSError):
                shutil.rmtree(self.tmp)
