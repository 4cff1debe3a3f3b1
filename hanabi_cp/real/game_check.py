"""A recorded game checked on its deck: ``verify DECK GAME --rules live``'s answer.

The game is read as hanab.live recorded it (``older_games.as_recorded``: a game
played under the end rule before 2019 is read under that rule), then replayed by
the referee; it is verified when every action is legal and the game is over after
the last one.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..core.model import Deck
from .actions import Action
from .game_setup import setup_json
from .older_games import Reading, as_recorded
from .referee import LiveReplay, replay, target_of
from .rules import Rules


@dataclass(frozen=True)
class GameCheck:
    deck: Deck
    reading: Reading        # the rules the game is read under
    replay: LiveReplay

    @property
    def rules(self) -> Rules:
        return self.reading.rules

    @property
    def verified(self) -> bool:
        return self.replay.legal and self.replay.complete

    @property
    def error(self) -> str | None:
        """The first illegal action, or that the game goes on after the last one."""
        rep = self.replay
        if not rep.legal:
            return rep.error
        return None if rep.complete else (
            f"the game is not over after the last action (turn {rep.turns})")

    @property
    def target(self) -> int:
        return target_of(self.deck, self.rules)

    def to_json(self) -> dict:
        rep = self.replay
        return {"verified": self.verified, "legal": rep.legal, "complete": rep.complete,
                "score": rep.score, "won": rep.won, "target": self.target,
                "strikes": rep.strikes, "turns": rep.turns, "error": self.error,
                "step": rep.step, "end": rep.end_text, "end_condition": int(rep.condition),
                "today_end": self.reading.today_end, "as_recorded": self.reading.text,
                **setup_json(self.deck, self.rules)}


def check_game(deck: Deck, rules: Rules, actions: Sequence[Action]) -> GameCheck:
    """``actions`` on ``deck`` under ``rules`` (as recorded), replayed by the referee."""
    reading = as_recorded(deck, rules, actions)
    return GameCheck(deck, reading, replay(deck, reading.rules, actions))
