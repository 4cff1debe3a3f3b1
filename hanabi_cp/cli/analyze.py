"""``hanabi-cp analyze``: the post-mortem of a game, or of a folder of games."""

from __future__ import annotations

import os

import click

from ..core.errors import UsageError
from ..io.outputs import check_outputs
from .common import command, command_deadline, echo_json, force_option, time_limit_option
from .execution_options import execution_options
from .numbers import MAX_PLAYERS, MIN_PLAYERS, Integer, Seconds


@command("analyze")
@click.argument("game", metavar="GAME")
@click.option("--deck", "deck_path", default=None, metavar="DECK",
              help="The deck, for a GAME that is a bare list of actions.")
@click.option("--players", type=Integer(MIN_PLAYERS, MAX_PLAYERS), default=None, metavar="P",
              help="Players, for a GAME that does not list them.")
@click.option("--method", default="auto", show_default=True, metavar="NAME",
              help="Real-rules method for each position (auto: search, then the "
                   "encodings on its hard tail).")
@click.option("--position-limit", type=Seconds(), default=10.0,
              show_default=True, metavar="S",
              help="Seconds at most for one position (an undecided one is shown so).")
@time_limit_option("Seconds for the whole command; positions not reached are not shown "
                   "as decided.")
@click.option("--json", "as_json", is_flag=True, help="Print the post-mortem as JSON.")
@click.option("--csv", "csv_path", default=None, metavar="OUT.csv",
              help="One row per position (the deal first); with a folder GAME, per game "
                   "(its path in the folder) and position, appended as each game is done "
                   "(a rerun resumes).")
@click.option("--figure", "figure_path", default=None, metavar="OUT",
              help="Also draw the post-mortem as `show GAME -o OUT` does (.svg, .png or "
                   "an .html replay).")
@click.option("--refutations", "refutations_dir", default=None, metavar="DIR",
              help="Write the search's refutation of each lost position (no game scores "
                   "more than its best) into DIR, each walked again by the checker; "
                   "`verify GAME FILE --rules live` walks one again.")
@click.option("--verbose", "-v", is_flag=True,
              help="Also show how each position was decided (search, certificate, ...).")
@click.option("--summary", is_flag=True,
              help="With a folder: the table of its games per player count and subfolder "
                   "(mean score, mean best, perfect %, the points lost split into "
                   "unavoidable / visible / hidden / tempo, median turn lost).")
@click.option("--progress/--no-progress", default=True, show_default=True,
              help="With a folder: a progress bar on stderr.")
@click.option("--any-deck", is_flag=True,
              help="Take a game whose deck its variant does not deal (refused otherwise); "
                   "the output says so.")
@execution_options
@force_option
def analyze(game, deck_path, players, method, position_limit, time_limit, as_json, csv_path,
            figure_path, refutations_dir, verbose, summary, progress, any_deck, jobs, dask,
            force):
    """The post-mortem of GAME: the best score still reachable after every action.

    GAME is a hanab.live export, a certificate of `solve --rules live` or a game of
    `play --replay`; every position (the deal, then after each action) is solved
    exactly with open hands, and the actions that lowered the best score are named,
    beside hanab.live's own "max score" indicator (from the discards alone).

    GAME may be a folder: every *.json file under it, subfolders too, each keyed by
    its path relative to the folder; --csv is the result (one row per position of
    every game, a rerun resumes) and --summary the table; --jobs / --dask share
    the games out.  A game that cannot be read or replayed is a row of status
    REFUSED with its one-line reason, the others go on, and the command ends
    naming each refused file, with exit code 3.  --time-limit bounds the whole
    folder: games it cuts short are not written, a rerun does them.

    \b
    Examples:
      hanabi-cp play instances/standard-winnable-h2.txt --players 4 --replay game.json
      hanabi-cp analyze game.json
      hanabi-cp analyze game.json --csv positions.csv
      hanabi-cp analyze game.json --figure postmortem.png
      hanabi-cp analyze game.json --refutations proofs/
      hanabi-cp analyze instances/games --summary
      hanabi-cp verify game.json proofs/game.position-33.refutation.json --rules live
    """
    from ..real.postmortem import report as pm_mod
    from .refutation_files import check_refutation_dir, refutations_line, write_refutations
    deadline = command_deadline(time_limit)
    if os.path.isdir(game):
        from .analyze_folder import analyze_folder
        analyze_folder(game, csv_path, summary, method, position_limit, deadline, progress,
                       jobs, dask, players, force,
                       {"--json": as_json, "--deck": deck_path is not None,
                        "--figure": figure_path is not None,
                        "--refutations": refutations_dir is not None, "--verbose": verbose,
                        "--any-deck": any_deck})
        return
    if summary:
        raise UsageError("analyze: --summary goes with a folder of games")
    fmt = None
    if figure_path is not None:
        from ..show.render import format_of
        fmt = format_of(figure_path)
    if csv_path == "-" and as_json:
        raise UsageError("analyze: --csv - and --json cannot both go to stdout")
    check_outputs("analyze", {"--csv": csv_path, "--figure": figure_path}, force,
                  {"GAME": game, "--deck": deck_path})
    stem = os.path.splitext(os.path.basename(game))[0]
    if refutations_dir is not None:
        check_refutation_dir(refutations_dir, stem, force)
    from ..apps.studies.postmortems import load_game
    deck, rules, actions, names = load_game(game, deck_path, players, any_deck)
    from .live_options import any_deck_line, deck_misfit
    odd_deck = deck_misfit(deck, rules)
    result = pm_mod.analyze(deck, rules, actions, names, method, position_limit, deadline)
    refuted = None
    if refutations_dir is not None:
        refuted = write_refutations(refutations_dir, stem, deck, rules, actions, result,
                                    position_limit, deadline, force)
    if csv_path is not None:
        from ..apps.studies.postmortems import write_rows
        write_rows(csv_path, os.path.basename(game), result, force)
    if figure_path is not None and fmt is not None:
        from ..show.game import GameView
        from ..show.render import render_game, write_bytes
        view = GameView(os.path.basename(game), deck, rules, actions, tuple(names), result)
        write_bytes(figure_path, render_game(view, fmt), force)
    if csv_path == "-":         # stdout is the CSV: no report around it
        return
    if as_json:
        drops = result.drops
        rows = [r.as_dict() for r in result.rows]
        for d in drops:             # a drop's row carries its reason and alternatives
            rows[d.position].update(d.explained())
        echo_json({"game": game, "rules": rules.describe(), "variant": rules.variant_name,
                   "final_score": result.final_score, "end": result.end,
                   "target": result.target, "rows": rows,
                   "drops": [{"position": d.position, "before": d.before, "after": d.after,
                              "text": d.text, **d.explained()} for d in drops],
                   **({} if refuted is None else {"refutations": refuted}),
                   **({} if odd_deck is None else {"any_deck": odd_deck}),
                   "as_recorded": _today_end(deck, rules, actions)})
        return
    click.echo(f"c game: {game}: {len(actions)} actions; {rules.describe()} "
               f"(hanab.live {rules.variant_name}, open hands)")
    if odd_deck is not None:
        click.echo(any_deck_line(deck, rules))
    older = _today_end(deck, rules, actions)
    if older is not None:
        click.echo(f"c as recorded: {older}; every action is analyzed as played")
    click.echo(f"c final score: {result.final_score} of {result.target} (end: {result.end})")
    for line in table(result, verbose):
        click.echo(line)
    for drop in result.drops:
        click.echo(f"c lost: {drop.text}")
        for line in pm_mod.drop_lines(drop, result.rows[drop.position], names):
            click.echo(f"c   {line}")
    closing = closing_line(result)
    if closing is not None:
        click.echo(closing)
    undecided = sum(r.best is None for r in result.rows)
    if undecided:
        click.echo(f"c undecided: {undecided} positions (best shown as lower..upper bound)")
    if refuted is not None:
        click.echo(refutations_line(refutations_dir, refuted, rules))
    if csv_path is not None:
        click.echo(f"c wrote {csv_path}")
    if figure_path is not None:
        click.echo(f"c wrote {figure_path}")


def _today_end(deck, rules, actions) -> str | None:
    """Where today's end rules would have ended an older game read as recorded."""
    if rules.last_turn_unplayable:
        return None
    from dataclasses import replace

    from ..real.older_games import as_recorded
    return as_recorded(deck, replace(rules, last_turn_unplayable=True), actions).text


def table(result, verbose: bool = False) -> list[str]:
    """The post-mortem as a text table, one line per position: hanab.live's turn,
    the action, the score, the best score still reachable, hanab.live's max score
    and pace; with ``verbose``, how each position was decided."""
    width = max([len(r.text) for r in result.rows] + [6])
    lines = [f"{'turn':>4}  {'action':<{width}}  {'score':>5} {'best':>6} {'max':>4} "
             f"{'pace':>4}" + ("  method" if verbose else "")]
    for r in result.rows:
        if r.best is not None:
            best = str(r.best)
        else:
            best = f"{'' if r.lower is None else r.lower}..{'' if r.upper is None else r.upper}"
        turn = "" if r.turn is None else str(r.turn)
        pace = "" if r.pace is None else str(r.pace)
        line = (f"{turn:>4}  {r.text:<{width}}  {r.score:>5} {best:>6} {r.hanablive_max:>4} "
                f"{pace:>4}")
        lines.append(line + (f"  {r.method or r.status.lower()}" if verbose else ""))
    return lines


def closing_line(result) -> str | None:
    """The line for a game whose best score never fell (none if it did, or if some
    position is undecided)."""
    if result.drops or not result.decided or not result.rows:
        return None
    deal = result.rows[0].best
    if result.final_score == result.target:
        return f"c won: {result.final_score} of {result.target}; the best score never fell"
    return (f"c no points lost by play: the best score stayed {deal} from the deal to "
            f"the end (final score {result.final_score} of {result.target})")
