"""``encode`` writes the compact CNF of a deck as DIMACS, ``decode`` turns an external
solver's model back into a checked play sequence, ``min-hand`` finds the least
winning hand size."""

from __future__ import annotations

import click

from ..core.errors import UsageError
from ..core.options import DEFAULT_SOLVER
from ..core.status import Status
from ..io.outputs import check_outputs, provenance
from .common import (MethodChoice, command, deck_argument, deck_summary, echo_json, force_option, hand_option,
                     load_instance, time_limit_option, write_plays_to)
from .numbers import HAND


def format_option(what: str):
    from ..solitaire.exports import FORMATS
    return click.option("--format", "fmt", type=click.Choice(FORMATS), default="dimacs",
                        show_default=True, help=what)


def maximize_option(what: str):
    return click.option("--maximize", is_flag=True, help=what)


@command("encode")
@deck_argument
@hand_option
@click.option("-o", "--output", default="-", show_default=True, metavar="FILE",
              help="Output (`-` = stdout); with --format mzn the model, with --format "
                   "cpsat a binary proto if FILE ends in .pb or .bin.")
@click.option("--varmap", default=None, metavar="FILE",
              help="Also write the variable map: `VAR NAME` per line, or JSON if FILE ends in .json.")
@format_option("dimacs: the compact CNF; cpsat: the CP-SAT CpModelProto; mzn: the MiniZinc "
               "model and its data (--data); opb: pseudo-Boolean; wcnf: MaxSAT, the most "
               "cards played (encodings/formats.md).")
@maximize_option("cpsat, mzn, opb: the largest score instead of a win (wcnf always asks it).")
@click.option("--data", default=None, metavar="FILE",
              help="With --format mzn: the .dzn data file [default: -o with .dzn; with -o - "
                   "the data follows the model on stdout].")
@force_option
def encode_cmd(deck, hand, output, varmap, fmt, maximize, data, force):
    """Write the compact CNF of DECK with hand size H as DIMACS, or the deck's model
    in another solver community's format (--format).

    The formula is satisfiable iff the deck is winnable; solve it with any SAT
    solver and turn the model into a play sequence with `hanabi-cp decode`.  If
    preprocessing already proves the deck lost, the CNF is a single empty clause.

    \b
    Example (run from a clone's root: instances/ is the repository's):
      hanabi-cp encode instances/standard-winnable-h2.txt --hand 2 -o deck.cnf --varmap deck.map
      hanabi-cp encode instances/standard-winnable-h2.txt --hand 2 --format mzn -o solitaire.mzn --data deck.dzn
      hanabi-cp encode instances/standard-winnable-h2.txt --hand 2 --format wcnf -o deck.wcnf
    """
    if fmt != "dimacs":
        from .model_formats import encode_other
        encode_other(deck, hand, output, varmap, fmt, maximize, data, force)
        return
    if maximize or data is not None:
        raise UsageError(f"encode: {'--maximize' if maximize else '--data'} does not go with "
                         "--format dimacs")
    check_outputs("encode", {"-o": output, "--varmap": varmap}, force, {"DECK": deck})
    the_deck, h = load_instance(deck, hand)
    from ..solitaire.exports import cnf_encoding, cnf_notes, varmap_text
    enc = cnf_encoding(the_deck, h)
    cnf = enc.cnf
    comments = [*provenance("encode: compact CNF, satisfiable iff the deck is winnable",
                            ["hanabi-cp", "encode", deck, "--hand", h]),
                *cnf_notes(enc, the_deck, h)]
    from ..solvers.dimacs import dimacs_text
    from ..io.outputs import write_texts
    files = [(output, dimacs_text(cnf, comments=comments))]
    if varmap is not None:
        files.append((varmap, varmap_text(enc.varmap(), varmap)))
    write_texts(files, force)   # both or neither
    note = click.echo if output != "-" else (lambda s: click.echo(s, err=True))
    if enc.status is Status.UNWINNABLE:
        note(f"c preprocessing proved UNWINNABLE ({enc.reason}); wrote an empty clause")
    if output != "-":
        note(f"c wrote {cnf.num_vars} variables, {cnf.num_clauses} "
             f"clause{'s' if cnf.num_clauses != 1 else ''} to {output}")


@command("decode")
@deck_argument
@click.argument("model", metavar="MODEL")
@hand_option
@click.option("--certificate", default="-", show_default=True, metavar="FILE",
              help="Where the play sequence goes; `-` prints it as a `v` line.")
@format_option("The format MODEL answers: dimacs (a SAT solver's model), cpsat (a "
               "CpSolverResponse, binary if it ends in .pb or .bin), mzn (MiniZinc's "
               "output), opb (a PB solver's), wcnf (a MaxSAT solver's).")
@maximize_option("The file was encoded with --maximize (cpsat, opb; mzn and wcnf say it "
                 "in the answer).")
@click.option("--proof", default=None, metavar="FILE",
              help="With --format dimacs and an UNSATISFIABLE answer: the solver's DRUP or "
                   "DRAT proof (text), checked by drup against the rebuilt CNF; without it "
                   "UNWINNABLE is reported as the solver's claim.")
@click.option("--json", "as_json", is_flag=True, help="Print the verdict as JSON (sorted keys).")
@time_limit_option("Seconds for the whole command: reading, rebuilding the encoding, "
                   "checking the answer and the proof; on expiry `s UNKNOWN` (exit 0).")
@force_option
@click.pass_context
def decode_cmd(ctx, deck, model, hand, certificate, fmt, maximize, proof, as_json, time_limit,
               force):
    """Turn an external solver's MODEL of `hanabi-cp encode DECK --hand H` into a
    play sequence, and check it with the referee.

    The encoding is rebuilt from DECK and H, and the model must satisfy every clause
    of it.  An answer is evidence, not a verdict: one that says "no solution" and
    gives a model, or whose cost line is not what its assignment scores, is an
    error; a "no" or an optimum that a greedy game beats is an error; a "no" without
    a checked proof (--proof) is reported as the solver's claim (`c claim:`).  Exit
    codes as for solve: 10 verified win, 20 unwinnable (proved, or the solver's
    claim; or, for an optimum, that the verified best play is all there is).

    \b
    Example (run from a clone's root: instances/ is the repository's):
      hanabi-cp encode instances/standard-winnable-h2.txt --hand 2 -o deck.cnf
      cadical deck.cnf > deck.model   # any DIMACS solver (not part of hanabi-cp)
      hanabi-cp decode instances/standard-winnable-h2.txt deck.model --hand 2
    """
    from ..runtime.deadline import TimeUp, ambient
    from .common import command_deadline
    from .model_formats import decode_other, report
    deadline = command_deadline(time_limit)
    if proof is not None and fmt != "dimacs":
        raise UsageError(f"decode: --proof goes with --format dimacs (a DRUP/DRAT proof "
                         f"refutes a CNF), not --format {fmt}")
    if maximize and fmt == "dimacs":
        raise UsageError("decode: --maximize does not go with --format dimacs")
    check_outputs("decode", {"--certificate": certificate}, force,
                  {"DECK": deck, "MODEL": model, "--proof": proof})
    try:
        with ambient(deadline):
            if fmt != "dimacs":
                ctx.exit(decode_other(deck, model, hand, certificate, fmt, maximize, force,
                                      as_json))
            from ..solitaire.answers import dimacs_verdict
            from ..solitaire.exports import cnf_encoding
            from ..solvers.dimacs import read_answer
            from ..io.textio import display_name
            the_deck, h = load_instance(deck, hand)
            answer = read_answer(model)
            enc = cnf_encoding(the_deck, h)
            verdict = dimacs_verdict(the_deck, h, enc, answer, display_name(model), proof,
                                     deadline)
    except TimeUp as exc:
        # Undecided: nothing is claimed when the answer could not be checked in time.
        from ..solitaire.answers import Verdict
        undecided = Verdict.undecided(str(exc))
        if as_json:
            echo_json(undecided.to_json())
        else:
            click.echo(f"s {undecided.status.value}")
            click.echo(f"c reason: {undecided.reason}")
        ctx.exit(undecided.status.exit_code)
    ctx.exit(report(the_deck, h, verdict, as_json, certificate, force))


@command("min-hand")
@deck_argument
@click.option("--method", default="sat", show_default=True, type=MethodChoice(),
              help="sat: one incremental CNF; any other method: binary search over h.")
@click.option("--max-hand", type=HAND, default=None, metavar="H",
              help="Look no higher than H.")
@time_limit_option("Seconds for the whole command (every hand size together); on expiry "
                   "`s UNKNOWN` (exit 0).")
@click.option("--solver", default=DEFAULT_SOLVER, show_default=True, metavar="NAME",
              help="pysat solver for the sat method.")
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON (sorted keys).")
@click.option("--certificate", default=None, metavar="FILE",
              help="Write a win with the least hand to FILE; `-` prints a `v` line.")
@force_option
@click.pass_context
def min_hand_cmd(ctx, deck, method, max_hand, time_limit, solver, as_json, certificate, force):
    """Find the least hand size that wins DECK, with a certificate.

    Prints `s MIN-HAND H` (exit code 10), or `s UNWINNABLE` (exit code 20) when no
    hand size wins (a missing card) or none up to --max-hand does, or `s UNKNOWN`
    (exit code 0) when --time-limit runs out first.

    \b
    Example (run from a clone's root: instances/ is the repository's):
      hanabi-cp min-hand instances/standard-unwinnable-h2.txt --certificate -
    """
    from ..runtime.deadline import TimeUp, ambient
    from ..solitaire.min_hand import MinHand, min_hand
    from ..core.options import SolveOptions
    from ..solitaire.solve import prepare
    from .common import command_deadline, load_deck
    deadline = command_deadline(time_limit)
    check_outputs("min-hand", {"--certificate": certificate}, force, {"DECK": deck})
    prepare(method)
    try:
        with ambient(deadline):
            the_deck = load_deck(deck).deck
        res = min_hand(the_deck, method, SolveOptions(time_limit=time_limit, solver=solver,
                                                      deadline=deadline), max_hand)
    except TimeUp as exc:
        res = MinHand.timed_out(method, str(exc))
    if as_json:
        echo_json(res.to_json())
        if certificate not in (None, "-") and res.plays is not None:
            from ..solitaire.play_text import write_plays
            write_plays(certificate, res.plays, force=force)
    elif res.undecided is not None:
        click.echo(f"c method: {res.method}")
        click.echo(f"s {res.verdict}")
        click.echo(f"c reason: {res.undecided}")
    else:
        click.echo(f"c method: {res.method}")
        click.echo(f"c deck: {deck_summary(the_deck)}")
        if res.h is None:
            click.echo(f"s {res.verdict}")
            click.echo(f"c reason: {res.below}")
        else:
            # every certificate of min_hand was replayed by the referee before it
            # returned (min_hand._checked)
            click.echo(f"s {res.verdict} {res.h}")
            if res.h > 0:
                click.echo(f"c h = {res.h - 1} does not win: {res.smaller_loses()}")
            click.echo("c certificate verified by the referee")
            if certificate is not None:
                write_plays_to(certificate, res.plays, force)
    ctx.exit(res.exit_code)
