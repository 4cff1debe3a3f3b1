"""The strategy interface and the registry of strategies by name.

A strategy is a subclass of ``Strategy``, one instance per seat: the engine
(``players.game.play_game``) creates ``cls(me, rules, seed)`` for each player
``me`` and then, every turn,

1. calls ``act(view)`` on the mover's instance, with the mover's ``View`` (or
   ``CheatView`` if the class sets ``cheats = True``); it returns one
   ``real.actions.Action``: ``Action.play(order)``, ``Action.discard(order)``,
   ``Action.color_clue(player, color - 1)`` or ``Action.rank_clue(player, rank)``,
   with ``order`` one of ``view.my_hand``.  The referee (``real.referee``) carries it
   out; an illegal action is a ``StrategyError`` (a bug in the strategy, never
   forgiven);
2. calls ``observe(view, turn)`` on every instance (the mover's too), each with its
   own new view after the move and the ``Turn`` record of what happened.  Strategies
   that track private conventions (hat-guessing codes, possibility tables) update
   them here: the hands a clue giver saw are those in the view given with the
   clue's ``Turn`` (a clue moves no card), and a play or discard's ``Turn`` names
   the card (``card``), its old slot (``slot``) and what was drawn (``drawn``).

Strategies must be deterministic given ``seed`` (use ``random.Random(seed)`` if
they need chance at all).  A strategy module lives in ``hanabi_cp/players/strategies/``
and has its row in ``STRATEGIES`` (name -> "module:class"), so a new strategy is
one new file and one row.
"""

from __future__ import annotations

from typing import ClassVar

from ..core.errors import InvalidParameter
from ..real.actions import Action
from ..real.rules import Rules
from ..core.registry import Registry
from .view import Turn, View


class StrategyError(Exception):
    """A strategy chose an illegal action: a bug in the strategy (not a HanabiError)."""


class Strategy:
    """One seat's player.  Subclasses set ``name`` and ``summary`` and implement
    ``act``; ``observe`` is optional."""

    name: ClassVar[str] = ""
    summary: ClassVar[str] = ""
    cheats: ClassVar[bool] = False        # True: act/observe get a CheatView
    # True: the strategy reads a clue by what it touches in the variant (rainbow, pink,
    # prism, ... suits); False: it reads clues as No Variant's (players.game.check_clues)
    reads_variant_clues: ClassVar[bool] = False
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 6

    def __init__(self, me: int, rules: Rules, seed: int = 0) -> None:
        self.me, self.rules, self.seed = me, rules, seed

    def act(self, view: View) -> Action:
        raise NotImplementedError

    def observe(self, view: View, turn: Turn) -> None:
        """Called for every seat after every turn (see the module docstring)."""


# Every strategy by name (a class of a module of hanabi_cp/players/strategies/),
# imported on first use, in the order of the listings (by name).
STRATEGIES: Registry[type[Strategy]] = Registry("strategy", named=True, entries=[
    ("cheat", "hanabi_cp.players.strategies.cheat:Cheat"),
    ("infobot", "hanabi_cp.players.strategies.infobot:Infobot"),
    ("information", "hanabi_cp.players.strategies.information:Information"),
    ("recommendation", "hanabi_cp.players.strategies.recommendation:Recommendation"),
])


def strategies() -> dict[str, type[Strategy]]:
    """Every strategy of STRATEGIES by name, each module imported on first use."""
    return STRATEGIES.load_all()


def get_strategy(name: str) -> type[Strategy]:
    """The strategy ``name`` (InvalidParameter naming the choices if there is none)."""
    return STRATEGIES.lookup(name)


def check_players(cls: type[Strategy], players: int) -> None:
    if not cls.min_players <= players <= cls.max_players:
        raise InvalidParameter(f"strategy {cls.name!r} plays with {cls.min_players} to "
                          f"{cls.max_players} players, not {players}")
