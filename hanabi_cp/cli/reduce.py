"""``reduce`` turns a CNF formula into the deck of the NP-hardness proof;
``roundtrip`` checks reduction, solver and read-back against a SAT solver."""

from __future__ import annotations

import os
import sys

import click

from ..core.errors import FileError
from ..runtime.limits import BYTES_PER_CARD, MAX_CARDS
from ..core.options import SolveOptions
from ..io.outputs import check_outputs, provenance
from .common import MethodChoice, command, flag_names, force_option, time_limit_option
from .execution_options import execution_options, get_execution
from .numbers import Integer


def _variant_options(func):
    func = click.option("--max-cards", type=Integer(1), default=MAX_CARDS,
                        show_default=True, metavar="N",
                        help="Refuse a formula whose deck would have more than N cards "
                             f"(computed before building; ~{BYTES_PER_CARD} bytes per card "
                             "to solve).")(func)
    func = click.option("--kappa", is_flag=True,
                        help="Constant-n variant: occurrences bounded to 5 per variable, one "
                             "dummy color per gadget, n = 30 at most.")(func)
    func = click.option("--copies", type=Integer(1), default=None, metavar="R",
                        help="Multiplicity r: extra copies next to each card's first copy "
                             "(default 2, or 3 for h = 1).")(func)
    func = click.option("--hand", "hand", type=Integer(1), default=2,
                        show_default=True, metavar="H", help="Hand size h of the deck.")(func)
    return func


def _read(path: str):
    from ..solvers.dimacs import read_dimacs
    return read_dimacs(path)


@command("reduce")
@click.argument("formula", metavar="FORMULA.cnf")
@click.option("-o", "--output", default="-", show_default=True, metavar="DECK",
              help="Deck file (text, or JSON if it ends in .json); `-` for stdout.")
@_variant_options
@click.option("--as-written", is_flag=True,
              help="Reproduce the paper's text literally (padding from o_m+6, n = 6m+2, "
                   "h = 1 gadgets unchanged): to see its errata fail.")
@click.option("--read-back", "plays_path", default=None, metavar="PLAYS",
              help="Instead of the deck, write the assignment of FORMULA read back from "
                   "PLAYS, a winning play sequence of the deck made with the same options "
                   "(`decode`'s or `solve`'s certificate): the referee replays it, every "
                   "clause is checked, and the assignment is printed as a SAT solver's "
                   "`s`/`v` lines.")
@force_option
def reduce_cmd(formula, output, hand, copies, kappa, max_cards, as_written, plays_path, force):
    """Reduce a DIMACS CNF formula to a deck winnable iff it is satisfiable (Baffier et al. 2017, §5).

    Any CNF is accepted: it is first made an equisatisfiable exact 3-CNF.  Every card
    of the deck is annotated with the gadget and role it comes from.  A summary
    (cards, n, c, r, h) goes to stderr.  FORMULA may be `-` for stdin.

    With --read-back PLAYS, the way back: a winning play of the deck (found by any
    method or solver, checked by `decode`) becomes a satisfying assignment of FORMULA.

    \b
    Example (run from a clone's root: instances/ is the repository's):
      hanabi-cp reduce instances/satlib/uf20-91/uf20-01.cnf -o uf20-01.deck
      hanabi-cp solve uf20-01.deck --method sat --certificate uf20-01.plays
      hanabi-cp reduce instances/satlib/uf20-91/uf20-01.cnf --read-back uf20-01.plays
    """
    from ..io import write_deck
    from ..solitaire.reduction import reduce_cnf

    check_outputs("reduce", {"-o": output}, force, {"FORMULA": formula, "--read-back": plays_path})
    cnf = _read(formula)
    red = reduce_cnf(cnf, h=hand, copies=copies, kappa=kappa, as_written=as_written,
                     max_cards=max_cards)
    if plays_path is not None:
        from ..apps.roundtrip import read_back_model
        from ..io.outputs import write_text
        write_text(output, read_back_model(red, plays_path, os.path.basename(formula)), force)
        click.echo(f"reduce: read back an assignment satisfying all "
                   f"{red.formula.original.num_clauses} clauses", err=True)
        return
    argv = ["hanabi-cp", "reduce", os.path.basename(formula), "--hand", hand]
    if copies is not None:
        argv += ["--copies", copies]
    argv += ["--kappa"] * kappa + ["--as-written"] * as_written
    comments = provenance("reduction of journal §5", argv) + red.notes()
    write_deck(output, red.deck, h=red.h, roles=red.roles, comments=comments, force=force)
    click.echo(f"reduce: {red.summary()}", err=True)


@command("roundtrip")
@click.argument("path", metavar="FORMULA.cnf|DIR")
@click.option("--method", default="sat", show_default=True, type=MethodChoice(),
              help="Method that decides the deck.")
@click.option("--csv", "csv_path", default=None, metavar="FILE",
              help="Append one CSV row per formula to FILE as soon as it is done; formulas "
                   "already there are skipped, so a rerun resumes (`-` for stdout).")
@time_limit_option("Seconds per instance (per formula: its reduction and deciding its "
                   "deck); on expiry the deck verdict is UNKNOWN.")
@_variant_options
@execution_options
def roundtrip_cmd(path, method, csv_path, time_limit, hand, copies, kappa, max_cards, jobs, dask):
    """Reduce, solve the deck, map the answer back and compare with CaDiCaL on the formula.

    For each formula: the deck verdict and the formula's must agree, a winning play
    must read back to an assignment satisfying the ORIGINAL formula, and the proof's
    play built from the SAT solver's model must win.  On a directory, every .cnf file
    is processed (progress bar on stderr); a file that cannot be read or reduced is
    an error row and the others go on.  Exit code 1 if anything disagrees, naming the
    formula, else 2 if a file was in error.

    \b
    Example (run from a clone's root: instances/ is the repository's):
      hanabi-cp roundtrip instances/satlib/uf20-91/uf20-01.cnf
      hanabi-cp roundtrip instances/satlib/uf20-91 --csv uf20.csv --jobs 2
    """
    from ..core.progress import write

    from ..io.results_csv import ResultsCSV
    from ..apps.roundtrip import KEY, RoundtripRow, run_roundtrips

    execution = get_execution(jobs, dask)
    flags = flag_names(click.get_current_context().command)
    if os.path.isdir(path):
        files = sorted(os.path.join(path, f) for f in os.listdir(path) if f.endswith(".cnf"))
        if not files:
            raise FileError(f"{path}: no .cnf files in this directory")
    else:
        files = [path]
    check_outputs("roundtrip", {"--csv": csv_path}, False, {f: f for f in files},
                  appended=["--csv"], dirs_made=["--csv"])
    table = ResultsCSV(csv_path, RoundtripRow.header(), KEY) if csv_path else None
    single = len(files) == 1

    def show(row: dict) -> None:
        if single and not row["error"]:
            click.echo(f"c {row['file']}: {row['vars']} variables, {row['clauses']} clauses -> "
                       f"{row['cards']} cards, n = {row['n']}, c = {row['c']}, r = {row['r']}, "
                       f"h = {row['h']}")
            click.echo(f"c deck ({method}): {row['deck_verdict']} in {row['solve_seconds']} s "
                       f"(reduction {row['reduce_seconds']} s); formula (CaDiCaL): "
                       f"{row['formula_verdict']} in {row['sat_seconds']} s")
            click.echo(f"c read-back checked: {row['readback_checked']}; proof's play checked: "
                       f"{row['witness_checked']}")

    def resumed(name: str) -> None:
        if single:
            click.echo(f"c {name}: already in {csv_path}, not run again")

    def warn(message: str) -> None:       # above the progress bar
        write(f"hanabi-cp: error: {message}")

    run = run_roundtrips(files, method, hand, copies, kappa, SolveOptions(time_limit=time_limit),
                         max_cards, table, execution, flags, progress=not single, on_row=show,
                         on_resumed=resumed, on_error=warn)
    rows = run.rows
    if table is not None and table.path != "-":
        click.echo(f"c rows: {len(rows)} of this run in {table.path} ({table.added} new)")
    bad, failed, unknown, agree = run.disagreeing, run.failed, run.undecided, run.agreeing
    click.echo(f"roundtrip: {agree} of {len(rows)} formulas agree"
               + (f", {unknown} undecided" if unknown else "")
               + (f", {len(failed)} in error ({', '.join(failed)})" if failed else "")
               + (f"; DISAGREEMENT on {', '.join(bad)}" if bad else ""))
    if bad:
        sys.exit(1)
    if failed:
        sys.exit(2)
