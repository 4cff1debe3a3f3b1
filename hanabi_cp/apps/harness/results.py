"""The harness's CSV (``hanabi-cp harness --csv``): one row per instance and check.

An instance is identified by the seed, its *stream* (which generator and bounds
drew it: instance ``i`` of a seed is only the same instance under the same bounds)
and its index; a row by that and the check's label.  Every row of an instance is
written once all its checks have run, with the instance's problems (empty when the
checks agree), so a rerun rebuilds the same report from the rows and only runs the
instances that have no rows yet: an interrupted harness resumes.
"""

from __future__ import annotations

from ...core.version import __version__
from ...core.errors import InputError
from ...io.results_csv import ResultsCSV
from ...io.textio import display_name
from ...core.model import Deck
from ...core.status import RunStatus
from .check import Result

FIELDS = ["seed", "stream", "instance", "source", "kind", "n", "c", "r", "N", "h", "formula",
          "method", "verdict", "score", "seconds", "detail", "problems", "version"]
KEY = ["seed", "stream", "instance", "method"]
SEPARATOR = " | "       # between an instance's problems in one cell


def deck_stream(max_n: int, max_c: int, max_r: int, max_h: int) -> str:
    return f"decks max-n={max_n} max-c={max_c} max-r={max_r} max-h={max_h}"


def cnf_stream(num_vars: int, cnf_dir: str | None, variants: bool) -> str:
    base = f"cnf-dir {cnf_dir}" if cnf_dir else f"cnf vars={num_vars}"
    return base + (" variants" if variants else "")


def stored(table: ResultsCSV | None, seed: int, stream: str, index: int,
           labels: list[str]) -> tuple[list[Result], list[str], dict] | None:
    """(results, problems, first row) of an instance whose every check has a row, else None."""
    if table is None or not labels:
        return None
    rows: dict[str, dict] = {}
    for label in labels:
        row = table.get(seed=seed, stream=stream, instance=index, method=label)
        if row is None:
            return None
        rows[label] = row
    results = [Result(label, verdict(table, rows[label]), float(rows[label]["seconds"] or 0),
                      rows[label]["detail"] or None,
                      int(rows[label]["score"]) if rows[label]["score"] else None)
               for label in labels]
    first = rows[labels[0]]
    found = first["problems"].split(SEPARATOR) if first["problems"] else []
    return results, found, first


def verdict(table: ResultsCSV, row: dict) -> RunStatus:
    """The ``verdict`` cell of a stored row, as the status it was written from."""
    try:
        return RunStatus(row["verdict"])
    except ValueError:
        raise InputError(display_name(table.path), None, "a verdict among "
                         + ", ".join(RunStatus), repr(row["verdict"])) from None


def store(table: ResultsCSV | None, seed: int, stream: str, index: int, source: str, kind: str,
          deck: Deck | None, N: int, h: int, formula: str, results: list[Result],
          found: list[str]) -> None:
    """One row per result, all carrying the instance's problems."""
    if table is None:
        return
    shape = {"n": deck.n, "c": deck.c, "r": deck.r} if deck is not None else {}
    for r in results:
        table.add({"seed": seed, "stream": stream, "instance": index, "source": source,
                   "kind": kind, **shape, "N": N, "h": h, "formula": formula, "method": r.label,
                   "verdict": r.status.value, "score": r.score, "seconds": round(r.seconds, 6),
                   "detail": r.detail, "problems": SEPARATOR.join(found), "version": __version__})
