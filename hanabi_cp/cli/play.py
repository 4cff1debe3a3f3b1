"""``hanabi-cp play``: hidden-information strategies play real-rules games; and
``hanabi-cp study strategies``: every strategy against each deck's exact bound."""

from __future__ import annotations

import functools

import click

from ..runtime.deadline import TimeUp, ambient
from ..core.errors import UsageError
from ..runtime.limits import clip
from .execution_options import execution_options, get_execution
from ..io.outputs import check_outputs
from .common import command, command_deadline, deck_summary, force_option, load_deck, time_limit_option
from .study import StudyCommand, _outputs, _names
from .numbers import MAX_COUNT, MAX_HAND_SIZE, MAX_PLAYERS, MAX_STRIKES, MIN_PLAYERS, SEED, Integer, Sweep, count


def _counts(ctx, param, value: str):
    """``2000,5=10000`` -> players -> decks (2000 unless named)."""
    default, special = None, {}
    for part in value.split(","):
        key, eq, number = part.strip().rpartition("=")
        n, p = count().parse(number), Integer(MIN_PLAYERS, MAX_PLAYERS).parse(key)
        if n is None or not 0 <= n <= MAX_COUNT or (eq and (p is None or not MIN_PLAYERS <= p <= MAX_PLAYERS)):
            raise click.BadParameter(f"expected N or P=N (P 2 to 6, N from 0 to {MAX_COUNT:,}), "
                                     f"found {clip(part.strip())!r}", param=param)
        if eq and p is not None:
            special[p] = n
        else:
            default = n
    return lambda p: special.get(p, 200 if default is None else default)


@command("play")
@click.argument("deck", metavar="[DECK]", required=False)
@click.option("--strategy", default="recommendation", show_default=True, metavar="NAME",
              help="The strategy every player follows (see the list below).")
@click.option("--players", type=Integer(MIN_PLAYERS, MAX_PLAYERS), default=5, show_default=True,
              metavar="P", help="Players, 2 to 6 (hanab.live's hand sizes).")
@click.option("--hand-size", type=Integer(1, MAX_HAND_SIZE), default=None, metavar="H",
              help="Cards per player [default: 5 for 2-3 players, 4 for 4-5, 3 for 6].")
@click.option("--strikes", type=Integer(1, MAX_STRIKES), default=3, show_default=True,
              help="Strikes that end the game with score 0.")
@click.option("--variant", default=None, metavar="NAME",
              help="A hanab.live variant: the strategies read what its clues touch "
                   "(rainbow, pink, prism, ... suits) where every card takes a clue of each "
                   "type (not white, brown, null); --games then plays its decks.")
@click.option("--any-deck", is_flag=True,
              help="With DECK and --variant: take a deck that the variant does not deal "
                   "(refused otherwise); the output says so.")
@click.option("--replay", "replay_path", default=None, metavar="OUT.json",
              help="With DECK: write the game as hanab.live's JSON game (importable there; "
                   "`hanabi-cp verify --rules live` replays it).")
@click.option("--games", type=count(low=1), default=None, metavar="N",
              help="Instead of DECK: play N seeded games (game i on the shuffled standard "
                   "deck of seed S + i).")
@click.option("--seed", type=SEED, default=1, show_default=True, metavar="S",
              help="With --games: the first deck's seed.")
@click.option("--bound", is_flag=True,
              help="Also the deck's exact best score with open hands (best, winnable); a "
                   "game above it is reported as a bug.")
@time_limit_option("With DECK: seconds for the whole command (the game and the bound); with "
                   "--games: per deck for the bound (an undecided deck is counted as such).",
                   default=10.0)
@click.option("--csv", "csv_path", default=None, metavar="OUT.csv",
              help="With --games: one row per game, appended as it is played; rows already "
                   "there are skipped (a rerun resumes).")
@click.option("--progress/--no-progress", default=True, show_default=True,
              help="With --games: a progress bar on stderr.")
@execution_options
@force_option
def play(deck, strategy, players, hand_size, strikes, variant, any_deck, replay_path, games, seed,
         bound, time_limit, csv_path, progress, jobs, dask, force):
    """Play real-rules games with a hidden-information strategy.

    Every player follows --strategy and sees the other hands, the clues, piles,
    discards and tokens, never their own cards; the referee of `solve --rules live`
    rules every move.  One game on DECK, or --games N seeded games to a CSV.

    \b
    Examples:
      hanabi-cp play instances/standard-winnable-h2.txt --players 5 --bound --replay game.json
      hanabi-cp verify instances/standard-winnable-h2.txt game.json --rules live
      hanabi-cp play --games 20 --seed 1 --players 5 --bound --csv results/play.csv
    """
    from ..players.strategy import get_strategy
    from ..real.game_setup import variant_rules
    cls = get_strategy(strategy)
    if games is None:
        if deck is None:
            raise UsageError("play: give a DECK or --games N (see 'hanabi-cp play --help')")
        if csv_path is not None:
            raise UsageError("play: --csv goes with --games")
        _play_one(deck, cls, variant_rules(players, hand_size, strikes, variant), replay_path,
                  bound, time_limit, force, any_deck)
        return
    if any_deck:
        raise UsageError("play: --any-deck goes with DECK (--games deals the variant's decks)")
    if deck is not None:
        raise UsageError("play: give a DECK or --games N, not both")
    if replay_path is not None:
        raise UsageError("play: --replay goes with DECK (one game)")
    if csv_path is None:
        raise UsageError("play: --games needs --csv OUT.csv (the rows are the result)")
    if hand_size is not None:
        raise UsageError("play: --games plays hanab.live's hand sizes (no --hand-size)")
    if csv_path == "-":
        raise UsageError("play: --csv - is not possible: a run resumes from its CSV file")
    check_outputs("play", {"--csv": csv_path}, force, appended=["--csv"], dirs_made=["--csv"])
    from ..apps.studies import strategies as study_mod
    execution = get_execution(jobs, dask)
    click.echo(f"c play: {games} games, seeds {seed}..{seed + games - 1}, strategy "
               f"{cls.name}, {players} players" + (", with the bound" if bound else ""))
    rules = variant_rules(players, None, strikes, variant)     # refuses a variant up front
    from ..players.game import check_clues
    check_clues(study_mod.deck_of(rules, seed), rules, cls)
    rows = study_mod.run(csv_path, seed, games, [players], [cls.name], bound, time_limit,
                         progress, strikes, execution, rules.variant_name)
    from ..apps.studies.catalogue import STRATEGIES
    mine = STRATEGIES.games(rows.rows, seed, lambda _: games, [players], [cls.name], strikes,
                            rules.variant_name)
    click.echo(f"c rows: {len(rows.rows)} in {rows.path} ({rows.added} new)")
    click.echo(study_mod.summary(mine))


def _play_one(deck_path, cls, rules, replay_path, bound, time_limit, force,
              any_deck: bool = False) -> None:
    from ..real.replay_io import hanab_live_can_replay, write_replay
    from ..players.bound import check_bot, deck_bound
    from ..players.game import check_replays, play_game

    check_outputs("play", {"--replay": replay_path}, force, {"DECK": deck_path})
    # With --replay -, stdout is the game's JSON alone: the report goes to stderr.
    say = click.echo if replay_path != "-" else functools.partial(click.echo, err=True)
    deadline = command_deadline(time_limit)     # the whole command: reading, game, bound
    from ..real.game_setup import any_deck_line, deck_taken
    try:
        with ambient(deadline):
            deck = load_deck(deck_path).deck
            wrong = deck_taken(deck, rules, any_deck, deck_path)
            game = play_game(deck, rules, cls, 0)
    except TimeUp as exc:
        say(f"c strategy: {cls.name}")
        say(f"c game: unfinished: {exc} (no score; raise --time-limit)")
        return
    check_replays(game)
    say(f"c strategy: {cls.name}")
    say(f"c deck: {deck_summary(deck)}")
    say(f"c rules: {rules.describe()}")
    if wrong is not None:
        say(any_deck_line(deck, rules))
    say(f"c turns: {game.turns}, strikes: {game.strikes} (replayed by the referee)")
    if bound:
        b = deck_bound(deck, rules, max(deadline.remaining(), 1e-3))
        check_bot(game, b)
        if b.best is None:
            say(f"c bound: undecided within {time_limit} s (a game scoring "
                       f"{b.lower} was found)")
        else:
            say(f"c bound: best score {b.best} of {deck.target} with open hands "
                       f"({b.method}, {b.seconds:.3f} s, certificate replayed); regret "
                       f"{b.best - game.score}")
    say(f"score {game.score}")
    if replay_path is not None:
        why = hanab_live_can_replay(deck, rules)
        if why is not None:
            say(f"c note: hanab.live cannot import this game: {why}")
        write_replay(replay_path, deck, rules, list(game.actions), force)
        if replay_path != "-":
            say(f"c wrote {replay_path}")


@click.command("strategies", cls=StudyCommand)
@click.option("--seed", type=SEED, default=1, show_default=True, help="Seed of the first deck.")
@click.option("--count", "counts", callback=_counts, default="200", show_default=True,
              metavar="N[,P=N...]",
              help="Decks per player count (every strategy plays each); P=N sets player "
                   "count P apart, e.g. 2000,5=10000.")
@click.option("--players", type=Sweep(True, MIN_PLAYERS, MAX_PLAYERS), default="2-6", show_default=True,
              help="Player counts, e.g. 2-6 or 5.")
@click.option("--strategies", "names", callback=_names, default=None, metavar="A,B,...",
              help="Strategies (default: every registered one that plays the player count).")
@click.option("--bound/--no-bound", default=True, show_default=True,
              help="Each deck's exact best score with open hands.")
@time_limit_option("Seconds per deck for the bound.", default=10.0)
@click.option("--csv", "csv_path", default="results/study-strategies.csv", show_default=True,
              metavar="FILE", help="CSV to append each row to as soon as it is done; rows "
                                   "already there are skipped (a rerun resumes).")
@click.option("--figure", "stem", default=None, metavar="STEM",
              help="Write STEM.png and STEM.svg (default: the CSV's path without .csv).")
@click.option("--force", is_flag=True,
              help="Overwrite figure files that were not drawn from this CSV.")
@click.option("--progress/--no-progress", default=True, show_default=True,
              help="Progress bar on stderr.")
@execution_options
def study_strategies(seed, counts, players, names, bound, time_limit, csv_path, stem, force,
                     progress, jobs, dask):
    """Hidden-information strategies against each deck's exact bound: per strategy and
    player count the mean, perfect games, unavoidable vs own losses, regret; the
    bound's mean best score and winnable share (95% CI); score histograms.

    \b
    Example:
      hanabi-cp study strategies --count 20 --players 5 --csv results/strategies.csv
      hanabi-cp study strategies --count 200 --players 2-6 --csv results/study-strategies-200.csv
    """
    from ..apps.studies.catalogue import STRATEGIES
    from .study import _finish

    chosen = STRATEGIES.check(players, names)
    stem = _outputs("strategies", csv_path, stem, force)
    execution = get_execution(jobs, dask)
    click.echo(f"c decks: seeds {seed}.. per player count (" + ", ".join(
        f"{p}: {counts(p)}" for p in players) + "), strategies " + ", ".join(chosen))
    sweep = STRATEGIES.run(csv_path, seed, counts, players, chosen, bound, time_limit,
                           progress, execution)
    _finish(STRATEGIES, sweep, stem, force)
