"""A real game and its post-mortem, gathered once for the figure and the HTML replay.

``is_game_file`` tells a game file (a hanab.live export, a certificate of ``solve
--rules live``, a game of ``play --replay``, a bare list of actions) from a deck
file, since ``show`` takes either; ``load`` reads the game
(``studies.postmortems.load_game``) and runs its post-mortem
(``real.postmortem.report.analyze``); ``positions`` replays it with the referee and keeps
what the replay page shows and checks at every position.

>>> from hanabi_cp.core.model import Deck
>>> from hanabi_cp.real.rules import Rules
>>> from hanabi_cp.real.actions import Action
>>> from hanabi_cp.real.postmortem.report import analyze
>>> deck = Deck.of([(1, 1), (2, 1), (1, 2), (2, 2), (1, 1), (1, 2)])
>>> rules = Rules.for_players(2, hand_size=2, clues=1)
>>> actions = [Action.rank_clue(1, 1), Action.discard(3)]
>>> names = ("Ann", "Bo")
>>> view = GameView("g.json", deck, rules, actions, names, analyze(deck, rules, actions, names))
>>> view.heading
'g.json: Ann, Bo; No Variant; 2 actions'
>>> [label(view, d) for d in view.post.drops]
['t2 Bo discards y2']
>>> positions(view)[2]["hands"], positions(view)[2]["lost"]
([[0, 1], [2, 4]], [3])
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from ..runtime.deadline import Deadline
from ..real.actions import Action, Kind
from ..real.variants.clue_rules import clue_rules
from ..real.postmortem.drop_reasons import NO_VARIANT_COLORS
from ..real.postmortem.report import Drop, PostMortem, Row
from ..real.referee import Game
from ..real.rules import Rules
from ..core.model import Deck


@dataclass(frozen=True)
class GameView:
    name: str                       # what the title calls the game (its file name)
    deck: Deck
    rules: Rules
    actions: Sequence[Action]
    names: tuple[str, ...]
    post: PostMortem

    @property
    def heading(self) -> str:
        return (f"{self.name}: {', '.join(self.names)}; {self.rules.variant_name}; "
                f"{len(self.actions)} actions")

    @property
    def outcome(self) -> str:
        """The final score and how the game ended, and where the target slipped away."""
        post = self.post
        text = f"final score {post.final_score} of {post.target} ({post.end})"
        deal = post.rows[0]
        if deal.best is not None:
            text += f"; best score at the deal {deal.best}"
        lost = post.lost_at()
        if lost is not None:
            text += f"; {post.target} out of reach after turn {lost.turn}"
        return text

    @property
    def undecided(self) -> int:
        return sum(r.best is None for r in self.post.rows)

    @property
    def summary(self) -> str:
        """The post-mortem drawn, in one line."""
        post = self.post
        drops = len(post.drops)
        text = (f"{len(self.actions)} actions, final score {post.final_score} of "
                f"{post.target}; {drops} action{'s' if drops != 1 else ''} lost points")
        if self.undecided:
            text += f"; {self.undecided} positions undecided"
        return text


def is_game_file(path: str) -> bool:
    """Whether ``path`` holds a game rather than a deck: JSON whose top level is a
    list (of actions) or an object with "actions".  Deck files never are: a JSON
    deck is an object with "cards" or a "deck" alone."""
    if path == "-":
        return False            # stdin is read once, by the deck reader
    try:
        with open(path, "rb") as f:
            head = f.read(4096).lstrip()
    except OSError:
        return False            # the deck reader says why it cannot be read
    if head.startswith(b"["):
        return True
    if not head.startswith(b"{"):
        return False
    import json
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
        # a cheap test first: a large JSON deck is not parsed twice
        return '"actions"' in text and isinstance(data := json.loads(text), dict) \
            and "actions" in data
    except (OSError, ValueError):
        return False


def load(path: str, deck_path: str | None, players: int | None, method: str,
         position_limit: float | None, deadline: Deadline | None) -> GameView:
    """The game of ``path`` and its post-mortem (see ``real.postmortem.report.analyze``)."""
    import os

    from ..real.postmortem.report import analyze
    from ..apps.studies.postmortems import load_game
    deck, rules, actions, names = load_game(path, deck_path, players)
    post = analyze(deck, rules, actions, names, method, position_limit, deadline)
    return GameView(os.path.basename(path), deck, rules, actions, tuple(names), post)


def label(view: GameView, drop: Drop) -> str:
    """A drop in a few words: ``t33 Alice discards b4`` (the card's slot or deck
    position and "the last copy" left to the full text)."""
    row = view.post.rows[drop.position]
    words = re.sub(r" \(#\d+\)", "", row.text).replace(", the last copy", "")
    words = re.sub(r"slot \d+ \(([^)]*)\)", r"\1", words)
    return f"t{row.turn} {words}"


def explanation(view: GameView, drop: Drop) -> list[str]:
    """What the replay says under a drop: ``postmortem.drop_lines``."""
    from ..real.postmortem.report import drop_lines
    return drop_lines(drop, view.post.rows[drop.position], view.names)


def bounds(view: GameView, row: Row) -> tuple[int, int]:
    """(lower, upper) of the best score at an undecided position.  Where the
    post-mortem knows no bound, the game itself is a continuation from every position
    (its final score is a lower bound once it is over), and hanab.live's indicator
    caps every continuation."""
    post = view.post
    over = not post.end.startswith("not over")
    lower = row.lower if row.lower is not None else post.final_score if over else 0
    upper = row.upper if row.upper is not None else row.hanablive_max
    return lower, min(upper, row.hanablive_max)


def suits(view: GameView) -> list[tuple[str, str]]:
    """(name, letter) of each color, as hanab.live names them: the variant's suits,
    or No Variant's (Red, Yellow, Green, Blue, Purple, then Teal)."""
    v = view.rules.variant
    out = []
    for k in range(view.deck.c):
        if v is not None and k < len(v.suits):
            out.append((v.suits[k].name, v.suits[k].abbreviation))
        elif k < len(NO_VARIANT_COLORS):
            out.append((NO_VARIANT_COLORS[k], NO_VARIANT_COLORS[k][0]))
        else:
            out.append((f"color {k + 1}", str(k + 1)))
    return out


def positions(view: GameView) -> list[dict]:
    """The referee's state at every position (the deal, then after each action):
    hands (deck positions, oldest first), piles, clue tokens (None: unlimited),
    strikes, cards drawn, lost cards, the first turn not played (final round), the
    player to move, and the cards the clue that led there touched (with open hands a
    clue changes only the tokens, but the replay shows what it said)."""
    rules = clue_rules(view.rules, view.deck)
    g = Game.start(view.deck, view.rules)
    out = [_state(g, [])]
    for act in view.actions:
        hit: list[int] = []
        if act.is_clue and act.value is not None and 0 <= act.target < len(g.hands):
            color = act.kind is Kind.COLOR_CLUE
            hit = [o for o in g.hands[act.target]
                   if rules.touches(color, act.value, g.card(o)[1] - 1, g.card(o)[0])]
        g.apply(act)
        out.append(_state(g, hit))
    return out


def _state(g: Game, touched: list[int]) -> dict:
    return {"hands": [list(h) for h in g.hands], "piles": list(g.piles), "clues": g.clues,
            "strikes": g.strikes, "drawn": g.drawn, "lost": list(g.lost_cards),
            "endTurn": g.end_turn, "mover": g.player, "touched": touched}


def deck_empty_at(states: list[dict], cards: int) -> int | None:
    """The first position at which the draw pile is empty (None: never)."""
    return next((k for k, s in enumerate(states) if s["drawn"] == cards), None)
