"""``hanabi-cp hle play``: DeepMind's Hanabi Learning Environment's own agents play,
one game file each; and ``hanabi-cp study hle``: those agents against each deal's
exact bound.  Both need the optional extra (``pip install '.[hle]'`` from a clone) and
refuse in one line without it."""

from __future__ import annotations

import os

import click

from ..core.errors import UsageError
from ..interop.hle_agents import AGENTS, MAX_SEED
from ..io.outputs import check_outputs
from .common import Group, NestedCommand, force_option, time_limit_option
from .execution_options import execution_options, get_execution
from .numbers import MIN_PLAYERS, Integer, Sweep, count
from .study import StudyCommand, _names

# HLE takes its seed as a C int (-1: a random one, which a reproducible run never asks)
HLE_SEED = Integer(0, MAX_SEED)
HLE_MAX_PLAYERS = 5


class HLECommand(NestedCommand):
    group = "hle"


@click.group("hle", cls=Group, context_settings={"help_option_names": ["-h", "--help"]})
def hle() -> None:
    """Games of DeepMind's Hanabi Learning Environment (HLE), in hanab.live's JSON
    game form marked with HLE's end rules, for `verify`, `analyze` and `solve`.

    Needs the optional extra: pip install '.[hle]' from a clone (with CMake 4, set
    CMAKE_POLICY_VERSION_MINIMUM=3.5 for its build).

    \b
    Example:
      hanabi-cp hle play --agent simple --players 3 --games 5 --seed 1 --out games/
      hanabi-cp analyze games/ --csv games/positions.csv
    """


@hle.command("play", cls=HLECommand)
@click.option("--agent", type=click.Choice(AGENTS.names()), default="simple", show_default=True,
              help="HLE's agent every player runs (agents/random_agent.py, "
                   "agents/simple_agent.py of its package).")
@click.option("--players", type=Integer(MIN_PLAYERS, HLE_MAX_PLAYERS), default=2, show_default=True,
              metavar="P", help="Players, 2 to 5 (HLE's range).")
@click.option("--games", type=count(low=1), default=10, show_default=True,
              metavar="N", help="Games: game i is HLE's game of seed S + i.")
@click.option("--seed", type=HLE_SEED, default=1, show_default=True, metavar="S",
              help="HLE's seed of the first game (also the agents' random generator's).")
@click.option("--out", "out_dir", required=True, metavar="DIR",
              help="Folder for the game files (created if missing) and games.csv.")
@click.option("--csv", "csv_path", default=None, metavar="FILE",
              help="One row per game [default: DIR/games.csv].")
@click.option("--progress/--no-progress", default=True, show_default=True,
              help="Progress bar on stderr.")
@force_option
def hle_play(agent, players, games, seed, out_dir, csv_path, progress, force):
    """HLE's own agents play N games of P players; each game is converted (the whole
    deck, recovered from the seed, and every action), replayed by our referee under
    HLE's end rules (its score must be HLE's) and written as DIR/AGENT-Pp-seedS.json,
    with a row in the CSV.

    \b
    Example:
      hanabi-cp hle play --agent random --players 2 --games 5 --out games/
      hanabi-cp verify games/random-2p-seed1.json games/random-2p-seed1.json --rules live
      hanabi-cp analyze games/ --csv games/positions.csv
    """
    from ..interop.hle import require
    from ..interop.hle_agents import check_seed
    from .common import not_stdout
    not_stdout("hle play", "--out", out_dir, "a folder (the game files and games.csv)")
    require()
    check_seed(seed, games)
    if os.path.exists(out_dir) and not os.path.isdir(out_dir):
        raise UsageError(f"hle play: --out {out_dir} is a file, not a folder")
    csv_path = csv_path or os.path.join(out_dir, "games.csv")
    if csv_path == "-":
        raise UsageError("hle play: --csv - is not possible: the CSV lists the game files "
                         "beside them; give a file name")
    from ..interop.hle_folder import game_paths, play_into, resumed
    files = game_paths(out_dir, agent, players, seed, games)
    # A folder that a run left incomplete (a full disk, an interrupt) says so in its
    # marker; the rerun overwrites that run's files without --force and finishes it.
    check_outputs("hle play", {"--csv": csv_path, **files}, force or resumed(out_dir),
                  dirs_made=["--csv", *files], locked=["--csv"])
    click.echo(f"c seed: {seed} (games use HLE's seeds {seed}..{seed + games - 1}); agent "
               f"{agent}, {players} players")
    run = play_into(out_dir, csv_path, agent, players, seed, games, progress)
    click.echo(f"c games: {games} in {out_dir}, each replayed by the referee under HLE's "
               f"end rules with HLE's score; mean score {run.mean_score:.2f}")
    click.echo(f"c wrote {csv_path}")


@click.command("hle", cls=StudyCommand)
@click.option("--agents", callback=_names, default="random,simple", show_default=True,
              metavar="A,B", help="HLE's agents: " + ", ".join(AGENTS) + ".")
@click.option("--players", type=Sweep(True, MIN_PLAYERS, HLE_MAX_PLAYERS), default="2-5",
              show_default=True,
              help="Player counts, 2 to 5, e.g. 2-5 or 2,4.")
@click.option("--count", type=count(), default=100, show_default=True,
              help="Games (HLE seeds) per player count; every agent plays each.")
@click.option("--seed", type=HLE_SEED, default=1, show_default=True,
              help="HLE's seed of the first game.")
@time_limit_option("Seconds per deck for the bound, and per position for the turn a "
                   "win was lost.", default=10.0)
@click.option("--csv", "csv_path", default="results/study-hle.csv", show_default=True,
              metavar="FILE", help="CSV to append each row to as soon as it is done; rows "
                                   "already there are skipped (a rerun resumes).")
@click.option("--progress/--no-progress", default=True, show_default=True,
              help="Progress bar on stderr.")
@execution_options
def study_hle(agents, players, count, seed, time_limit, csv_path, progress, jobs, dask):
    """HLE's agents against each deal's exact bound: per agent and player count
    HLE's mean score, the fireworks built, perfect games, unavoidable vs own losses,
    regret and the median turn a win was lost; the bound's mean best score and
    winnable share (95% CI).  Open hands: "unavoidable" means no legal game wins the
    deal at all.

    \b
    Example:
      hanabi-cp study hle --agents random,simple --players 2-5 --count 100
    """
    from ..apps.studies.catalogue import HLE
    from .study import _finish
    HLE.check(agents, players, seed, count)
    if csv_path == "-":
        raise UsageError("study hle: --csv - is not possible: a study resumes from its CSV file")
    check_outputs("study hle", {"--csv": csv_path}, True, appended=["--csv"],
                  dirs_made=["--csv"])
    click.echo(f"c seed: {seed} (HLE's seeds {seed}..{seed + count - 1} per player count); "
               f"agents {', '.join(agents)}; players {', '.join(map(str, players))}")
    sweep = HLE.run(csv_path, seed, count, players, agents, time_limit, progress,
                    get_execution(jobs, dask))
    _finish(HLE, sweep, "", False)
