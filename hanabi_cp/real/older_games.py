"""Games hanab.live recorded under its older end rules, read as they were played.

hanab.live has ended a game "once no card still needed can be played" since its
first servers (2017): when the next card of every unfinished pile has lost all its
copies.  On 14 February 2019 (its commit 6ee5c74a, "players should no longer get
useless turns at the end of the game") the rule grew: in the final round, the cards
of a player whose last turn is over count as unplayable too, so a game now ends as
soon as every card still needed is lost or held by such a player.  Games played
before then went on to the end of the final round, and hanab.live keeps them as
recorded: their actions run past the point where today's rule stops a game.

``as_recorded`` reads such a game under the older rule (``Rules.last_turn_unplayable``
off) and says where today's rule would have ended it.  It changes nothing else: an
action that breaks any other rule, or one after an end that both rules share (the
third strike, the final round, the maximum score), is still refused.  No point can
be scored in the extra turns (every card still needed is lost or in a hand that has
no turn left), so the best score reachable from a position is the same under both
rules, and the methods solve every position under today's (``under_today``).

>>> from hanabi_cp.core.model import Deck
>>> from hanabi_cp.real.actions import Action
>>> deck = Deck.of([(1, 1), (1, 2), (2, 1), (3, 1)])      # no yellow 2
>>> rules = Rules.for_players(2, hand_size=1)
>>> # Alice plays r1, Bob y1 and draws the last card; Alice clues instead of playing
>>> # her r2: her last turn is over, so today nothing still needed can be played
>>> game = [Action.play(0), Action.play(1), Action.rank_clue(1, 3), Action.rank_clue(0, 2)]
>>> replay(deck, rules, game).error
'action #3: clue player 0 rank 2: the game is already over'
>>> reading = as_recorded(deck, rules, game)
>>> reading.text
"today's end rules end the game after action #2 (turn 3): no card still needed can be played"
>>> rep = replay(deck, reading.rules, game)
>>> rep.legal, rep.complete, rep.score, rep.end_text
(True, True, 2, '1 (normal): the final round is over')
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from ..core.model import Deck
from .actions import Action
from .referee import NOTHING_PLAYABLE, EndCondition, Game, replay
from .rules import Rules

TYPE_CHECKING = False             # (typing is not imported for it: see hanabi_cp/__init__.py)
if TYPE_CHECKING:
    from collections.abc import Sequence

OLDER_RULES_UNTIL = "14 February 2019"


@dataclass(frozen=True)
class Reading:
    """The rules a game is read under, and where today's rules would have ended it
    (``today_end``: the index of its last action under them; None when the game is
    read under today's rules)."""

    rules: Rules
    today_end: int | None = None
    turn: int | None = None

    @property
    def text(self) -> str | None:
        if self.today_end is None:
            return None
        return (f"today's end rules end the game after action #{self.today_end} (turn "
                f"{self.turn}): {NOTHING_PLAYABLE}")


def as_recorded(deck: Deck, rules: Rules, actions: Sequence[Action]) -> Reading:
    """How to read ``actions``: under ``rules``, unless they are hanab.live's end
    rules of today, today's "no card still needed can be played" ends the game
    before its last action, and the older rule lets the next action be played (the
    game is then read under the older rule, which names any later illegal action)."""
    if not (rules.early_ends and rules.last_turn_unplayable):
        return Reading(rules)
    today = replay(deck, rules, actions)
    if today.legal or today.condition is not EndCondition.NORMAL or today.cause != NOTHING_PLAYABLE:
        return Reading(rules)
    older = replace(rules, last_turn_unplayable=False)
    again = replay(deck, older, actions)
    assert today.step is not None
    if not again.legal and again.step == today.step:
        return Reading(rules)       # the first extra action breaks another rule: today's error
    # (an illegal action further on breaks a rule that has not changed: refused under both)
    return Reading(older, today.step - 1, today.turns)


def under_today(g: Game) -> Game:
    """The position ``g`` under today's end rules: ``g`` itself if it is, else a
    copy (the same game, another end: the methods' certificates are complete games
    under today's rules, and the best score is the same)."""
    if g.rules.last_turn_unplayable:
        return g
    h = g.copy()
    h.rules = replace(g.rules, last_turn_unplayable=True)
    return h
