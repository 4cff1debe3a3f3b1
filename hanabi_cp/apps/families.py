"""Named benchmark families for SAT solvers (and deck solvers), cnfgen-style.

Two families, each a folder of files with provenance headers and a MANIFEST.csv:

- ``hard``: the compact CNF (solitaire/encoders/cnf.py, as ``hanabi-cp encode`` writes it)
  of every deck file in a folder, e.g. the hardest decks ``study hard`` found.
  The formula is satisfiable iff the deck is winnable at the file's ``h``.
- ``images``: seeded uniform random 3-CNF formulas and their reduction images
  (decks of journal §5, h = 2, with role lines), winnable iff satisfiable.

Each file's header names the generator, version, family, seed or source file
(with its SHA-256), parameters and the expected answer.  The expected answer is
a LABEL for the people running solvers: copied from the deck file's ``# verdict:``
comment (``hard``) or decided by CaDiCaL on the formula (``images``); nothing
here reads it back to decide anything.
"""

from __future__ import annotations

import csv
import hashlib
import io
import os
from dataclasses import dataclass

from ..core.errors import DeckError, FileError
from ..core.status import Status

MANIFEST = "MANIFEST.csv"
MANIFEST_FIELDS = ["file", "kind", "family", "source", "seed", "parameters", "N", "h",
                   "variables", "clauses", "expected"]
EXPECTED = {Status.WINNABLE.value: "SAT", Status.UNWINNABLE.value: "UNSAT"}


@dataclass
class Member:
    """One file of a family: its name inside the folder, text and manifest row."""

    name: str
    text: str
    row: dict


def labels(text: str) -> dict[str, str]:
    """The ``# key: value`` comment lines of a deck file (labels, never instance data).

    >>> labels("# verdict: WINNABLE\\n# seed: 3\\nn 1\\nc 1\\n1r\\n")["verdict"]
    'WINNABLE'
    """
    out: dict[str, str] = {}
    for line in text.splitlines():
        if line.startswith("# ") and ": " in line:
            key, _, value = line[2:].partition(": ")
            out.setdefault(key.strip(), value.strip())
    return out


def deck_files(folder: str) -> list[str]:
    if not os.path.isdir(folder):
        raise FileError(f"{folder}: not a directory ({{decks}} names a folder of deck files)", "decks")
    names = sorted(f for f in os.listdir(folder) if f.endswith((".txt", ".json")))
    if not names:
        raise FileError(f"{folder}: no deck files (*.txt, *.json) in it")
    return [os.path.join(folder, f) for f in names]


def format_member(fmt: str, deck, h: int, stem: str, comments: list[str], verdict: str,
                  row: dict) -> Member:
    """The deck's file in ``fmt`` (apps/family_formats.py), with its manifest row."""
    from .family_formats import expected_label, model_file
    expected = expected_label(fmt, verdict)
    suffix, text, size = model_file(fmt, deck, h, [*comments, f"expected: {expected} "
                                                  f"(label: the deck is {verdict or 'unknown'})"])
    name = stem + suffix
    return Member(name, text, {**row, "file": name, "kind": fmt, "expected": expected,
                               "variables": size, "clauses": ""})


def with_model(fmt: str, members: list[Member], family: str) -> list[Member]:
    """An mzn family's shared model, first."""
    if fmt != "mzn":
        return members
    from .family_formats import shared_model
    name, text = shared_model()
    return [Member(name, text, {"file": name, "kind": "mzn-model", "family": family,
                                "source": "", "seed": "", "parameters": "", "N": "", "h": "",
                                "variables": "", "clauses": "", "expected": ""}), *members]


def hard_family(folder: str, family: str, command: str, fmt: str = "dimacs") -> list[Member]:
    """The CNF (or ``fmt``'s file) of every deck file in ``folder`` (each must say its
    hand size)."""
    from ..io.outputs import provenance
    from ..solitaire.encoders.cnf import build
    from ..solvers.dimacs import dimacs_text
    from ..io import read_deck_file
    from ..io.textio import read_text
    from ..runtime.limits import effective_hand

    members = []
    for path in deck_files(folder):
        text = read_text(path)
        df = read_deck_file(path)
        if df.h is None:
            raise DeckError(f"{path}: no hand size (an `h H` line); the family needs one per deck")
        deck, h = df.deck, df.h
        tags = labels(text)
        verdict = tags.get("verdict", "").split(" ")[0]
        expected = EXPECTED.get(verdict, "unknown")
        stem = os.path.splitext(os.path.basename(path))[0]
        name = stem + ".cnf"
        digest = hashlib.sha256(text.encode()).hexdigest()
        params = f"N = {deck.N}, n = {deck.n}, c = {deck.c}, r = {deck.r}, h = {h}"
        if fmt != "dimacs":
            head = [*provenance(f"generate family hard {family} --format {fmt}: the model of "
                                "a deck"), f"command: {command}", f"family: {family}",
                    f"source: {os.path.basename(path)} (sha256 {digest})",
                    f"parameters: {params}", f"seed: {tags.get('seed', 'unknown')}"]
            members.append(format_member(fmt, deck, effective_hand(h, deck.N), stem, head,
                                         verdict, {"family": family,
                                                   "source": os.path.basename(path),
                                                   "seed": tags.get("seed", ""),
                                                   "parameters": params, "N": deck.N, "h": h}))
            continue
        enc = build(deck, effective_hand(h, deck.N))
        cnf = enc.cnf
        comments = [*provenance(f"generate family hard {family}: compact CNF of a deck, "
                                "satisfiable iff it is winnable"),
                    f"command: {command}", f"family: {family}",
                    f"source: {os.path.basename(path)} (sha256 {digest})",
                    f"parameters: {params}", f"seed: {tags.get('seed', 'unknown')}",
                    f"expected: {expected} (label: the deck file says verdict "
                    f"{verdict or 'nothing'}; not used to build the formula)",
                    f"variables = {cnf.num_vars}, clauses = {cnf.num_clauses}"]
        if enc.status is Status.UNWINNABLE:
            comments.append(f"preprocessing proved UNWINNABLE: {enc.reason}; the formula is "
                            "one empty clause")
        members.append(Member(name, dimacs_text(cnf, comments=comments), {
            "file": name, "kind": "cnf", "family": family, "source": os.path.basename(path),
            "seed": tags.get("seed", ""), "parameters": params, "N": deck.N, "h": h,
            "variables": cnf.num_vars, "clauses": cnf.num_clauses, "expected": expected}))
    return with_model(fmt, members, family)


def image_family(num_vars: int, ratio: float, count: int, seed: int, family: str,
                 command: str, fmt: str = "dimacs") -> list[Member]:
    """``count`` random 3-CNF formulas (seeds seed..seed+count-1) and their images."""
    from ..io.outputs import provenance
    from ..io import deck_to_text
    from ..solvers.dimacs import dimacs_text
    from .generators import random_kcnf
    from ..solitaire.reduction import reduce_cnf
    from ..solvers.sat_backend import sat_solve

    m = max(1, round(ratio * num_vars))
    members = []
    for s in range(seed, seed + count):
        cnf = random_kcnf(s, num_vars, m, 3)
        expected = "SAT" if sat_solve([list(c) for c in cnf.clauses])[0] else "UNSAT"
        verdict = (Status.WINNABLE.value if expected == "SAT" else Status.UNWINNABLE.value)
        red = reduce_cnf(cnf, h=2)
        stem = f"img-v{num_vars}-m{m}-s{s}"
        params = f"random 3-CNF, {num_vars} variables, {m} clauses"
        head = [*provenance(f"generate family images {family}: a random 3-CNF formula and "
                            "its reduction image"), f"command: {command}",
                f"family: {family}", f"seed: {s}", f"parameters: {params}"]
        f_text = dimacs_text(cnf, comments=[*head, f"expected: {expected} (label: CaDiCaL "
                                            "on this formula)"])
        d_text = deck_to_text(red.deck, h=red.h, roles=red.roles, comments=[
            *head, f"image of {stem}.cnf under the reduction of journal §5: {red.summary()}",
            f"verdict: {verdict} (label: the formula is {expected} by CaDiCaL)"])
        members.append(Member(f"{stem}.cnf", f_text, {
            "file": f"{stem}.cnf", "kind": "cnf", "family": family, "source": "", "seed": s,
            "parameters": params, "N": "", "h": "", "variables": num_vars, "clauses": m,
            "expected": expected}))
        members.append(Member(f"{stem}.txt", d_text, {
            "file": f"{stem}.txt", "kind": "deck", "family": family, "source": f"{stem}.cnf",
            "seed": s, "parameters": params, "N": red.deck.N, "h": red.h, "variables": "",
            "clauses": "", "expected": verdict}))
        if fmt != "dimacs":
            members.append(format_member(fmt, red.deck, red.h, stem, [
                *head, f"the model of the image {stem}.txt (--format {fmt})"], verdict, {
                "family": family, "source": f"{stem}.txt", "seed": s, "parameters": params,
                "N": red.deck.N, "h": red.h}))
    return with_model(fmt, members, family)


def manifest(members: list[Member]) -> str:
    buf = io.StringIO()
    w = csv.DictWriter(buf, MANIFEST_FIELDS, lineterminator="\n")
    w.writeheader()
    for m in members:
        w.writerow(m.row)
    return buf.getvalue()
