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
    from ..real.postmortem.report import analyze as post_mortem
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
    _check_one(game, deck_path, summary, csv_path, as_json, figure_path, refutations_dir, force)
    from ..apps.studies.postmortems import load_game
    deck, rules, actions, names = load_game(game, deck_path, players, any_deck)
    result = post_mortem(deck, rules, actions, names, method, position_limit, deadline)
    refuted = None
    if refutations_dir is not None:
        from ..real.refutation_files import write_refutations
        refuted = write_refutations(refutations_dir, _stem(game), deck, rules, actions, result,
                                    position_limit, deadline, force)
    if csv_path is not None:
        from ..apps.studies.postmortems import write_rows
        write_rows(csv_path, os.path.basename(game), result, force)
    if figure_path is not None:
        from ..show.game import GameView
        from ..show.render import format_of, render_game, write_bytes
        view = GameView(os.path.basename(game), deck, rules, actions, tuple(names), result)
        write_bytes(figure_path, render_game(view, format_of(figure_path)), force)
    if csv_path == "-":         # stdout is the CSV: no report around it
        return
    if as_json:
        echo_json({"game": game, **result.to_json()}
                  | ({} if refuted is None else {"refutations": refuted}))
        return
    for line in result.lines(game, verbose):
        click.echo(line)
    if refuted is not None:
        click.echo(refutations_line(refutations_dir, refuted, rules))
    for path in (csv_path, figure_path):
        if path is not None:
            click.echo(f"c wrote {path}")


def _stem(game: str) -> str:
    return os.path.splitext(os.path.basename(game))[0]


def _check_one(game, deck_path, summary, csv_path, as_json, figure_path, refutations_dir,
               force) -> None:
    """Refuse, before any work, options that do not go together for one GAME file,
    and outputs that exist (without --force) or cannot be written."""
    if summary:
        raise UsageError("analyze: --summary goes with a folder of games")
    if figure_path is not None:
        from ..show.render import format_of
        format_of(figure_path)
    if csv_path == "-" and as_json:
        raise UsageError("analyze: --csv - and --json cannot both go to stdout")
    check_outputs("analyze", {"--csv": csv_path, "--figure": figure_path}, force,
                  {"GAME": game, "--deck": deck_path})
    if refutations_dir == "-":
        raise UsageError("analyze: --refutations - is not possible: --refutations names a "
                         "folder (one file per lost position), not stdout")
    if refutations_dir is not None:
        from ..real.refutation_files import check_refutation_dir
        check_refutation_dir(refutations_dir, _stem(game), force)


def refutations_line(folder: str, rows: list[dict], rules) -> str:
    """What ``write_refutations`` did, in one line."""
    from ..real.refutation import refuses_rules
    why = refuses_rules(rules)
    if why is not None:
        return f"c no refutations: {why}"
    if not rows:
        return "c no refutations: no decided position is lost"
    written = [r["position"] for r in rows if r["file"]]
    late = [r["position"] for r in rows if not r["file"]]
    line = f"c refutations: {len(written)} written to {folder}, each walked again"
    if late:
        line += f"; not within the position limit: positions {_span(late)}"
    return line


def _span(ks: list[int]) -> str:
    return ", ".join(map(str, ks)) if len(ks) <= 6 else f"{ks[0]}, {ks[1]}, ... {ks[-1]}"
