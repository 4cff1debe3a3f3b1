"""A deck's model in each community's format, and each solver's answer read back.

``encode --format F`` and ``decode --format F`` (cli/encode.py) and the benchmark
families (apps/families.py) go through here; DIMACS keeps its own path in cli/encode.py
(the CNF of ``cnf_encoding``, its answers read by ``solvers.dimacs.parse_answer``).

| format | file | solver | its answer |
|---|---|---|---|
| cpsat | CpModelProto, text or binary (``.pb``, ``.bin``) | OR-Tools CP-SAT | CpSolverResponse, text or binary |
| mzn | ``solitaire.mzn`` + one ``.dzn`` per deck | MiniZinc (Gecode, ...) | MiniZinc's output |
| opb | PB competition OPB | minisat+, RoundingSat, ... | ``s``/``o``/``v`` lines |
| wcnf | MaxSAT Evaluation WCNF | RC2, ... | ``s``/``o``/``v`` lines |

Reading an answer back is solitaire/answers.py's: it never trusts the solver.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from ..core.registry import Registry
from ..core.model import Deck
from ..core.status import Status

FORMATS = ("dimacs", "cpsat", "mzn", "opb", "wcnf")
BINARY_SUFFIXES = (".pb", ".bin", ".binpb")


@dataclass
class Written:
    """The files of one export: (role, content) with role "model", "data" (mzn) or
    "varmap"; content is text, or bytes for a binary CP-SAT proto."""

    files: list[tuple[str, str | bytes]]
    summary: str                       # "N variables, M constraints"
    status: Status | None = None       # UNWINNABLE when preprocessing decided
    reason: str | None = None
    varmap: dict = field(default_factory=dict)


    def placed(self, model: str, data: str | None = None) -> list[tuple[str, str | bytes]]:
        """Each file by the path it goes to: the model to ``model``; MiniZinc's data to
        ``data``, or after the model in the same stream when ``data`` is None."""
        contents = dict(self.files)
        if "data" not in contents:
            return [(model, contents["model"])]
        text, facts = contents["model"], contents["data"]
        assert isinstance(text, str) and isinstance(facts, str)    # MiniZinc's: text
        if data is None:          # one self-contained model
            return [(model, text + "\n" + facts)]
        return [(model, text), (data, facts)]


def binary(path: str) -> bool:
    return path.endswith(BINARY_SUFFIXES)


def mzn_data_path(model: str) -> str | None:
    """Where MiniZinc's data goes when no path is given: beside the model, as .dzn;
    None (after the model, in the same stream) for stdout and for an existing output
    that is no regular file (/dev/null, a FIFO), which is written in place and gives
    no name to make one from (/dev/null.dzn)."""
    import os
    if model == "-" or (os.path.exists(model) and not os.path.isfile(model)):
        return None
    return os.path.splitext(model)[0] + ".dzn"


def cnf_encoding(deck: Deck, h: int):
    """The compact CNF of ``deck`` at ``h`` (``encode``, ``decode``: encodings/cnf.md)."""
    from ..runtime.limits import effective_hand
    from .encoders.cnf import build
    # h >= N encodes the same instance as h = N; only the latter keeps bounds small.
    return build(deck, effective_hand(h, deck.N))


def cnf_notes(enc, deck: Deck, h: int) -> list[str]:
    """What the DIMACS file of ``encode`` says of its formula after the provenance:
    the deck, h, the sizes, and when preprocessing decided, that the formula is one
    empty clause and why."""
    cnf = enc.cnf
    notes = [f"deck: {deck.N} cards, n = {deck.n}, c = {deck.c}, r = {deck.r}", f"h = {h}",
             f"variables = {cnf.num_vars}, clauses = {cnf.num_clauses}"]
    if enc.status is Status.UNWINNABLE:
        notes += [f"preprocessing proved UNWINNABLE: {enc.reason}",
                  "the formula is one empty clause (unsatisfiable)"]
    return notes


def varmap_text(names: dict, path: str) -> str:
    """A variable map, ``VAR NAME`` per line, or JSON if ``path`` ends in .json.

    >>> print(varmap_text({1: "play(0)", 2: "store(0)"}, "deck.map"), end="")
    1 play(0)
    2 store(0)
    """
    if path.endswith(".json"):
        import json
        return json.dumps({str(v): nm for v, nm in names.items()}, sort_keys=True, indent=1) + "\n"
    return "".join(f"{v} {nm}\n" for v, nm in names.items())


def cpsat_encoding(deck: Deck, h: int, maximize: bool):
    """The model method "cpsat" would solve first (encodings/cpsat.md)."""
    from .encoders.cpsat import build_decide, build_maximize
    from .encoders.residual import RESIDUAL_FROM_CARDS
    if maximize:
        return build_maximize(deck, h)
    if deck.N >= RESIDUAL_FROM_CARDS:
        from .encoders.cpsat_residual import build_residual
        return build_residual(deck, h)
    return build_decide(deck, h)


def export(fmt: str, deck: Deck, h: int, maximize: bool, comments: Sequence[str],
           binary_proto: bool = False) -> Written:
    """The model files of ``deck`` at ``h`` in format ``fmt`` (not dimacs)."""
    return WRITERS.lookup(fmt)(deck, h, maximize, comments, binary_proto)


def _mzn(deck: Deck, h: int, maximize: bool, comments: Sequence[str],
         binary_proto: bool) -> Written:
    from .encoders.mzn import build, model_text
    enc = build(deck, h, maximize=maximize, comments=comments)
    return Written([("model", model_text()), ("data", enc.formula)],
                   f"{deck.N} cards, {enc.stats['groups']} capacity groups", enc.status, enc.reason)


def _head(deck: Deck, h: int, comments: Sequence[str]) -> list[str]:
    return [*comments, f"deck: {deck.N} cards, n = {deck.n}, c = {deck.c}", f"h = {h}"]


def _opb(deck: Deck, h: int, maximize: bool, comments: Sequence[str],
         binary_proto: bool) -> Written:
    from .encoders import pbmodels
    head = _head(deck, h, comments)
    if not maximize:
        cnf, text = pbmodels.opb_win(deck, h, [*head, "the compact CNF as PB constraints: "
                                               "satisfiable iff the deck is winnable"])
        return Written([("model", text)], f"{cnf.num_vars} variables, {len(cnf.clauses)} "
                       "constraints", cnf.status, cnf.reason, cnf.varmap())
    sc, text = pbmodels.opb_score(deck, h, [*head, "the Boolean score model: the "
                                             "objective is minus the cards played"])
    return Written([("model", text)], f"{sc.num_vars} variables, "
                   f"{len(sc.clauses) + len(sc.atmost)} constraints", varmap=sc.varmap())


def _wcnf(deck: Deck, h: int, maximize: bool, comments: Sequence[str],
          binary_proto: bool) -> Written:
    from .encoders import pbmodels
    head = _head(deck, h, comments)
    sc, text, top = pbmodels.wcnf(deck, h, [*head, "the Boolean score model: one soft "
                                            "clause per playable card; cost 0 iff won"])
    return Written([("model", text)], f"{top} variables, {len(sc.played)} soft clauses",
                   varmap=sc.varmap())


def _cpsat(deck: Deck, h: int, maximize: bool, comments: Sequence[str],
           binary_proto: bool) -> Written:
    """The CP-SAT model, as a text proto (``#`` comments) or binary."""
    from ortools.sat.python import cp_model
    enc = cpsat_encoding(deck, h, maximize)
    model = enc.formula
    if model is None:
        # Preprocessing decided: an infeasible model (x and not x), so that every
        # CP-SAT run on the file says what the deck is.
        model = cp_model.CpModel()
        x = model.new_bool_var("x")
        model.add_bool_or([x])
        model.add_bool_or([~x])
    proto = model.Proto()
    if binary_proto:
        from google.protobuf import text_format
        from ortools.sat import cp_model_pb2
        msg = cp_model_pb2.CpModelProto()
        text_format.Parse(str(proto), msg)
        content: str | bytes = msg.SerializeToString()
    else:
        # Text format: '#' comment lines name where it came from.
        content = "".join(f"# {c}\n" for c in comments) + str(proto) + "\n"
    size = f"{len(proto.variables)} variables, {len(proto.constraints)} constraints"
    return Written([("model", content)], size, enc.status, enc.reason, enc.varmap())


# The writer of each format but dimacs (cli/encode.py writes DIMACS itself):
# (deck, h, maximize, comments, binary_proto) -> Written.
WRITERS: Registry[Callable[[Deck, int, bool, Sequence[str], bool], Written]] = Registry("format", [
    ("cpsat", "hanabi_cp.solitaire.exports:_cpsat"),
    ("mzn", "hanabi_cp.solitaire.exports:_mzn"),
    ("opb", "hanabi_cp.solitaire.exports:_opb"),
    ("wcnf", "hanabi_cp.solitaire.exports:_wcnf"),
])
