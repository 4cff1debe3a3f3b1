"""The options of ``--rules live`` that ``solve`` and ``verify`` share (real games:
hanab.live's rules, open hands, instead of the solitaire model).

``live_options`` adds them; with ``--rules solitaire`` (the default) they must be
absent (``check_solitaire``).  The commands' bodies are in cli/live_commands.py, the
rules the options choose are made by ``real.game_setup``.
"""

from __future__ import annotations

import click

from ..core.errors import UsageError
from ..runtime.limits import clip
from ..real.game_setup import OPTION_FLAGS
from ..real.replay_io import END_RULES
from ..real.solve import live_methods
from .common import MethodChoice
from .numbers import MAX_CLUE_TOKENS, MAX_HAND_SIZE, MAX_PLAYERS, MAX_STRIKES, MIN_PLAYERS, Integer

LIVE_ONLY = ("players", "hand_size", "clues", "strikes", "variant", "first_player",
             "game_options", "end_rules", "any_deck")


class ClueCount(click.ParamType):
    """A number of clue tokens, or ``unlimited``."""

    name = "C"

    def convert(self, value, param, ctx):
        if value is None or value == "unlimited":
            return value
        count = Integer(0, MAX_CLUE_TOKENS).parse(value)
        if count is None:
            self.fail(f"{clip(str(value))!r} is neither a number nor 'unlimited'", param, ctx)
        if not 0 <= count <= MAX_CLUE_TOKENS:
            self.fail(f"expected 0 to {MAX_CLUE_TOKENS} clue tokens or 'unlimited', found "
                      f"{clip(str(value))}", param, ctx)
        return count


class AnyMethodChoice(MethodChoice):
    """The solitaire methods and the real-rules ones (each branch checks its own)."""

    @property
    def choices(self):
        from ..solitaire.solve import methods
        return (*self._extra, *sorted(set(methods()) | set(live_methods())))

    @choices.setter
    def choices(self, value) -> None:
        pass


def live_options(func):
    options = [
        click.option("--rules", type=click.Choice(["solitaire", "live"]), default="solitaire",
                     show_default=True,
                     help="solitaire: one player, hand size h (the paper's model); live: a "
                          "real game (hanab.live's rules, open hands) of --players."),
        click.option("--players", type=Integer(MIN_PLAYERS, MAX_PLAYERS), default=None, metavar="P",
                     help="With --rules live: the number of players, 2 to 6 (default from "
                          "a game file's players)."),
        click.option("--hand-size", type=Integer(1, MAX_HAND_SIZE), default=None, metavar="H",
                     help="With --rules live: cards per player [default: hanab.live's, "
                          "5 for 2-3 players, 4 for 4-5, 3 for 6]."),
        click.option("--clues", type=ClueCount(), default=None,
                     help="With --rules live: clue tokens, the start and the maximum "
                          "(a number or `unlimited`) [default: 8]."),
        click.option("--strikes", type=Integer(1, MAX_STRIKES), default=None, metavar="S",
                     help="With --rules live: the strikes that end the game [default: 3]."),
        click.option("--variant", default=None, metavar="NAME",
                     help="With --rules live: a hanab.live variant by its exact name "
                          "(`hanabi-cp variants` lists them) [default: No Variant, or a "
                          "game file's]."),
        click.option("--first-player", type=Integer(0, MAX_PLAYERS - 1), default=None,
                     metavar="P",
                     help="With --rules live: the player who moves first (hanab.live's "
                          "startingPlayer) [default: 0]."),
        click.option("--option", "game_options", multiple=True, metavar="NAME",
                     type=click.Choice(sorted(OPTION_FLAGS)),
                     help="With --rules live: a hanab.live option that changes the rules "
                          "(repeatable): " + ", ".join(sorted(OPTION_FLAGS)) + "."),
        click.option("--end-rules", type=click.Choice(sorted(END_RULES)), default=None,
                     help="With --rules live: whose end rules: hanab.live's (the game also "
                          "ends once no more points can be scored) or hle (the Hanabi "
                          "Learning Environment's: only at the last strike, the maximum "
                          "score or after the final round) [default: hanab.live, or a game "
                          "file's \"hanabi_cp\" key]."),
        click.option("--any-deck", is_flag=True,
                     help="With --rules live: take a deck that the variant does not deal "
                          "(other cards or other counts; refused otherwise); the output "
                          "says so."),
    ]
    for option in reversed(options):
        func = option(func)
    return func


def check_solitaire(live: dict) -> None:
    """With --rules solitaire, none of the real-game options may be given."""
    given = [name for name in LIVE_ONLY if live.get(name) not in (None, (), False)]
    if given:
        flag = "--" + given[0].replace("_", "-").replace("game-options", "option")
        raise UsageError(f"{flag} needs --rules live")
