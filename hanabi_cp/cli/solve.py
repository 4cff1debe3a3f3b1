"""``solve`` decides a deck with any registered method; ``verify`` replays a play sequence."""

from __future__ import annotations

import click

from ..runtime.deadline import TimeUp, ambient
from ..core.errors import UsageError
from ..core.options import DEFAULT_SOLVER
from ..core.options import MAX_WORKERS, SEED_RANGE, SolveOptions
from ..solitaire.solve import Outcome, prepare, solve
from ..core.status import Status
from ..solitaire.referee import replay
from ..io.outputs import check_outputs
from ..core.status import spelled
from .common import (REASON_FLAGS, command, command_deadline, deck_argument, echo_json, force_option, hand_option,
                     load_instance, print_outcome, time_limit_option)
from .live_commands import solve_live_cmd, verify_live_cmd
from .live_options import AnyMethodChoice, check_solitaire, live_options
from .numbers import Integer
from .proof_lines import echo_proof, no_proof, proof_outputs


@command("solve")
@deck_argument
@hand_option
@click.option("--method", default="auto", show_default=True, type=AnyMethodChoice(),
              help="Decision method; `auto` picks greedy (r = 1), lazy (c = 1), "
                   "else the first applicable exact method.")
@time_limit_option("Seconds for the whole command: reading, preprocessing, building, "
                   "solving, writing and checking a proof.  On expiry `s UNKNOWN` (exit 0), "
                   "never a guess.")
@click.option("--seed", type=Integer(*SEED_RANGE), default=0, show_default=True,
              help="Random seed for solvers that use one (CP-SAT: an int32).")
@click.option("--workers", type=Integer(1, MAX_WORKERS), default=1, show_default=True,
              help="Solver threads (cpsat); with --proof in Up or Down and Sudoku, "
                   "processes checking the plans' proofs.")
@click.option("--solver", default=DEFAULT_SOLVER, show_default=True, metavar="NAME",
              help="pysat solver for CNF methods (e.g. cadical195, glucose4, minisat22).")
@click.option("--proof", default=None, metavar="FILE",
              help="Write a DRUP proof of UNWINNABLE to FILE (and its CNF to FILE.cnf), "
                   "checked by drup (method sat).  In Up or Down and Sudoku FILE is a "
                   "folder: one CNF and proof per pile plan and manifest.json, checked "
                   "again by `verify DECK FILE --rules live`.")
@click.option("--refutation", default=None, metavar="FILE",
              help="With --rules live: write the search's refutation of an UNWINNABLE "
                   "answer (or of one card more than the best score) to FILE, walked "
                   "again by the checker first; `verify DECK FILE --rules live` checks it.")
@click.option("--maximize", is_flag=True,
              help="Report the largest number of cards that can be played.")
@click.option("--json", "as_json", is_flag=True,
              help="Print the outcome as JSON (sorted keys) instead of c/s/v lines.")
@click.option("--certificate", default=None, metavar="FILE",
              help="Write the play sequence to FILE; `-` prints it as a `v` line.")
@force_option
@live_options
@click.pass_context
def solve_cmd(ctx, deck, hand, method, time_limit, seed, workers, solver, proof, refutation,
              maximize, as_json, certificate, force, rules, **live):
    """Decide whether DECK can be won with hand size H.

    Prints `s WINNABLE`, `s UNWINNABLE` or `s UNKNOWN` and exits with 10, 20 or 0
    (SAT-competition codes; also with --json).  Every certificate is replayed by the
    referee before it is printed.  DECK may be `-` for stdin.  With --rules live the
    question is whether --players can win DECK in a real game (hanab.live's rules,
    everyone sees every card); the certificate is a game hanab.live can import.

    \b
    Example (run from a clone's root: instances/ is the repository's):
      hanabi-cp solve instances/standard-winnable-h2.txt --hand 2 --certificate -
      hanabi-cp solve instances/standard-winnable-h2.txt --rules live --players 3
    """
    deadline = command_deadline(time_limit)     # reading the deck counts too
    if proof == "-":
        raise UsageError("solve: --proof - is not possible: a DRUP proof is written with the "
                         "CNF it refutes, FILE and FILE.cnf; give a file name")
    if rules == "live":
        options = SolveOptions(time_limit=time_limit, seed=seed, workers=workers,
                               solver=solver, maximize=maximize, deadline=deadline,
                               proof=proof)
        try:
            with ambient(deadline):         # reading the deck and the lost-deck reasons
                return solve_live_cmd(ctx, deck, method, options, as_json, certificate,
                                      force, live, hand, proof, refutation)
        except TimeUp as exc:
            _time_up(ctx, Outcome(Status.UNKNOWN, reason=str(exc), method=method), as_json,
                     proof is not None)
    check_solitaire(live)
    if refutation is not None:
        raise UsageError("--refutation needs --rules live")
    check_outputs("solve", proof_outputs(proof, certificate), force, {"DECK": deck})
    prepare(method, maximize)
    try:
        with ambient(deadline):
            the_deck, h = load_instance(deck, hand)
    except TimeUp as exc:
        _time_up(ctx, Outcome(Status.UNKNOWN, reason=str(exc), method=method), as_json,
                 proof is not None)
    # The report prints r, a count over every card (half a second per 10^6 cards):
    # counted now, within the time limit, rather than after it has run out.
    _ = the_deck.r
    options = SolveOptions(time_limit=time_limit, seed=seed, workers=workers, solver=solver,
                           proof=proof, maximize=maximize, deadline=deadline)
    out = solve(the_deck, h, method, options)
    if as_json:
        echo_json(out.to_json())
        if certificate not in (None, "-") and out.plays is not None:
            from ..solitaire.play_text import write_plays
            write_plays(certificate, out.plays, force=force)
    else:
        print_outcome(out, the_deck, h, certificate, force, chosen=method)
        echo_proof(out, proof)
    ctx.exit(out.status.exit_code)


def _time_up(ctx, out: Outcome, as_json: bool, proof: bool = False) -> None:
    """The report of a command whose time ran out before a method answered."""
    if as_json:
        echo_json(out.to_json())
    else:
        click.echo(f"c method: {out.method}")
        click.echo(f"s {out.status.value}")
        click.echo(f"c reason: {spelled(out.reason, REASON_FLAGS)}")
        if proof:
            click.echo(f"c no proof written: {no_proof(out)}")
    ctx.exit(out.status.exit_code)


@command("verify")
@deck_argument
@click.argument("plays", metavar="PLAYS")
@hand_option
@click.option("--json", "as_json", is_flag=True, help="Print the replay as JSON.")
@live_options
@click.pass_context
def verify_cmd(ctx, deck, plays, hand, as_json, rules, **live):
    """Replay a play sequence (or, with --rules live, a game) on DECK, every step checked.

    Exit code 0 and `s VERIFIED` if the sequence wins; otherwise exit code 1,
    `s REJECTED` and the first illegal step (or the colors left unfinished).
    PLAYS is a play-sequence file (one of DECK and PLAYS may be `-` for stdin),
    or the letters themselves (P play, S store, D discard) if no such file exists.
    With --rules live, PLAYS is a game as JSON (`solve --rules live --certificate`
    or a hanab.live export); `s VERIFIED` means every action is legal and the game
    is over after the last one.

    \b
    Example (run from a clone's root: instances/ is the repository's):
      hanabi-cp solve instances/standard-winnable-h2.txt --certificate plays.txt
      hanabi-cp verify instances/standard-winnable-h2.txt plays.txt --hand 2
      hanabi-cp verify instances/lazy-c1.txt DDDDDDDDSSPSPPP --hand 3
      hanabi-cp solve instances/standard-winnable-h2.txt --rules live --players 3 --certificate game.json
      hanabi-cp verify instances/standard-winnable-h2.txt game.json --rules live
    """
    if rules == "live":
        return verify_live_cmd(ctx, deck, plays, as_json, live, hand)
    check_solitaire(live)
    from ..solitaire.play_text import plays_given
    if deck == "-" and plays == "-":
        raise UsageError("verify: DECK and PLAYS cannot both be `-` (stdin)")
    the_deck, h = load_instance(deck, hand)
    rep = replay(the_deck, h, plays_given(plays))
    if as_json:
        echo_json(rep.to_json(the_deck, h))
    else:
        click.echo(f"c deck: {the_deck.N} cards, n = {the_deck.n}, c = {the_deck.c}; "
                   f"hand size h = {h}")
        click.echo("s VERIFIED" if rep.won else "s REJECTED")
        if rep.error:
            click.echo(f"c reason: {rep.error}")
        click.echo(f"c score: {rep.score} of {the_deck.target}")
        click.echo(f"c max hand: {rep.max_hand} of {h}")
    ctx.exit(0 if rep.won else 1)
