"""Benchmark families in the MiniZinc, PB and MaxSAT communities' layouts
(``generate family ... --format mzn|opb|wcnf``; apps/families.py makes the decks).

- mzn, the MiniZinc Challenge's: one model ``solitaire.mzn`` for the whole family,
  one ``.dzn`` data file per deck, the expected answer in each data file's header and
  in MANIFEST.csv;
- opb, the PB competition's: one ``.opb`` file per deck (the compact CNF as PB
  constraints, decision), the header in ``*`` comments;
- wcnf, the MaxSAT Evaluation's: one ``.wcnf`` per deck (the score model; a win is
  optimum cost 0), the header in ``c`` comments.

The expected answer is a label, as in the DIMACS families.
"""

from __future__ import annotations

from ..core.model import Deck
from ..core.status import DECIDED, Status

FAMILY_FORMATS = ("dimacs", "mzn", "opb", "wcnf")
SUFFIX = {"mzn": ".dzn", "opb": ".opb", "wcnf": ".wcnf"}


def expected_label(fmt: str, verdict: str) -> str:
    """The expected answer in the format's own words (``verdict``: WINNABLE, ...)."""
    if verdict not in DECIDED:
        return "unknown"
    won = verdict == Status.WINNABLE.value
    if fmt == "wcnf":
        return "OPTIMUM cost 0" if won else "OPTIMUM cost > 0"
    if fmt == "mzn":
        return "score = n * c (a win)" if won else "UNSATISFIABLE"
    return "SAT" if won else "UNSAT"


def model_file(fmt: str, deck: Deck, h: int, comments: list[str]) -> tuple[str, str, str]:
    """(suffix, text, size) of ``deck``'s file in ``fmt``."""
    from ..solitaire.exports import export
    made = export(fmt, deck, h, False, comments)
    files = dict(made.files)
    text = files["data"] if fmt == "mzn" else files["model"]
    assert isinstance(text, str)
    return SUFFIX[fmt], text, made.summary


def shared_model() -> tuple[str, str]:
    """The one model of an mzn family: (file name, text)."""
    from ..solitaire.encoders.mzn import MODEL_NAME, model_text
    return MODEL_NAME, model_text()
