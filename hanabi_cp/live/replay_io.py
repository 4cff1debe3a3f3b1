"""Real-rules games as JSON, in the shape hanab.live imports and exports.

Written (``replay_json``; hanab.live's "JSON game" format, one action per line)::

    {
      "players": ["Alice", "Bob"],
      "deck": [{"suitIndex": 0, "rank": 1}, ...],
      "actions": [{"type": 0, "target": 3}, {"type": 3, "target": 1, "value": 2}, ...],
      "first_player": 0,
      "options": {"variant": "No Variant"}
    }

Read (``parse_replay``): that shape, a hanab.live game export (which has the same
keys and more: "id", "seed", "notes", ...), an object with only "actions", or a bare
list of actions.  Action types: 0 play, 1 discard (target: the card's deck
position), 2 color clue (value: suit index), 3 rank clue (value: rank), the target
of a clue being a player.  Only games of the base rules are read: a variant other
than "No Variant", a starting player other than 0 or an option that changes the
rules (empty clues, deck plays, ...) is an error naming its line; hanab.live's
"one extra card" / "one less card" change the hand size by one.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from ..formats.deck_json import parse_deck_json
from ..formats.jsonpos import Shape, describe, is_int, load_json
from ..formats.textio import display_name, read_text, write_text
from ..model import Deck
from .actions import Action, Kind
from .rules import HAND_SIZE, MAX_CLUES, STRIKES, Rules

PLAYER_NAMES = ("Alice", "Bob", "Cathy", "Donald", "Emily", "Frank")
VARIANT = "No Variant"
HAND_SIZE_OPTIONS = {"oneExtraCard": 1, "oneLessCard": -1}
# hanab.live options that change what is legal or how the game ends.
RULE_OPTIONS = ("emptyClues", "deckPlays", "allOrNothing", "detrimentalCharacters",
                "oneExtraCard", "oneLessCard")
EXPECTED_ACTION = ('an action {"type": 0 play, 1 discard, 2 color clue or 3 rank clue, '
                   '"target": an integer >= 0, "value": an integer >= 0 for a clue}')


@dataclass(frozen=True)
class Replay:
    actions: list[Action]
    players: int | None = None        # from "players", if given
    deck: Deck | None = None          # from "deck", if given
    hand_size_change: int = 0         # hanab.live's one extra / one less card




def parse_replay(text: str, path: str = "<string>") -> Replay:
    """Read a game's actions (and players, deck, options if present).

    >>> r = parse_replay('{"players": ["A", "B"], "actions": [{"type": 0, "target": 3}]}')
    >>> r.players, [str(a) for a in r.actions]
    (2, ['play #3'])
    >>> parse_replay('{"actions": {"type": 0}}', "g.json")
    Traceback (most recent call last):
    ...
    hanabi_cp.errors.InputError: g.json:1: expected a list of actions, found {"type": 0}
    """
    data = load_json(text, path, "the game")
    shape = Shape(text, path)
    if isinstance(data, list):
        return Replay(_actions(data, shape, ()))
    if not isinstance(data, dict) or "actions" not in data:
        shape.fail((), 'a list of actions or a JSON object with "actions" (a hanabi-cp '
                   'certificate or a hanab.live game export)', describe(data))
    actions = _actions(data["actions"], shape, ("actions",))
    players = None
    if "players" in data:
        names = data["players"]
        if not (isinstance(names, list) and names and all(isinstance(x, str) for x in names)):
            shape.fail(("players",), '"players": a non-empty list of player names',
                       describe(names))
        players = len(names)
    deck = None
    if "deck" in data:
        deck, _, _ = parse_deck_json(text, path)
    change = _options(data, shape)
    return Replay(actions, players, deck, change)


def _actions(items, shape: Shape, where: tuple) -> list[Action]:
    if not isinstance(items, list):
        shape.fail(where, "a list of actions", describe(items))
    out = []
    for i, item in enumerate(items):
        at = (*where, i)
        if not isinstance(item, dict) or not is_int(item.get("type")) \
                or not is_int(item.get("target")) or item["target"] < 0:
            shape.fail(at, EXPECTED_ACTION, describe(item))
        if item["type"] in (4, 5):
            shape.fail(at, "an action of type 0 to 3 (hanab.live's type 4 and 5 end a game "
                       "early: not a complete game)", describe(item))
        if not 0 <= item["type"] <= 3:
            shape.fail(at, EXPECTED_ACTION, describe(item))
        kind = Kind(item["type"])
        value = item.get("value")
        if kind in (Kind.COLOR_CLUE, Kind.RANK_CLUE):
            if not (is_int(value) and value >= 0):
                shape.fail(at, "a clue with a \"value\" (an integer >= 0: a suit index or "
                           "a rank)", describe(item))
        else:
            value = None      # hanab.live exports may give plays a value; it means nothing
        out.append(Action(kind, item["target"], value))
    return out


def _options(data: dict, shape: Shape) -> int:
    for key in ("first_player", "startingPlayer"):
        if key in data and data[key] != 0:
            shape.fail((key,), f'"{key}": 0 (player 0 moves first)', describe(data[key]))
    options = data.get("options", {})
    if not isinstance(options, dict):
        shape.fail(("options",), '"options": an object', describe(options))
    variant = options.get("variant", VARIANT)
    if variant != VARIANT:
        shape.fail(("options", "variant"), f'the variant "{VARIANT}" (the only rules '
                   'hanabi-cp implements)', describe(variant))
    if options.get("startingPlayer", 0) != 0:
        shape.fail(("options", "startingPlayer"), '"startingPlayer": 0',
                   describe(options["startingPlayer"]))
    change = 0
    for key in RULE_OPTIONS:
        if not options.get(key):
            continue
        if key not in HAND_SIZE_OPTIONS:
            shape.fail(("options", key), f'no option "{key}" (it changes the rules)',
                       describe(options[key]))
        change += HAND_SIZE_OPTIONS[key]
    return change


def read_replay(path: str) -> Replay:
    return parse_replay(read_text(path, "the game"), display_name(path))


def replay_json(deck: Deck, rules: Rules, actions: list[Action]) -> str:
    """hanab.live's JSON game shape, one card and one action per line.

    >>> print(replay_json(Deck.of([(1, 1), (1, 2)]), Rules.for_players(2, hand_size=1),
    ...                   [Action.play(0)]), end="")
    {
      "players": ["Alice", "Bob"],
      "deck": [
        {"suitIndex": 0, "rank": 1},
        {"suitIndex": 1, "rank": 1}
      ],
      "actions": [
        {"type": 0, "target": 0}
      ],
      "first_player": 0,
      "options": {"variant": "No Variant"}
    }
    """
    options: dict = {"variant": VARIANT}
    change = rules.hand_size - HAND_SIZE[rules.players]
    if change:
        for key, step in HAND_SIZE_OPTIONS.items():
            if step == change:
                options[key] = True

    def rows(items: list[str]) -> str:
        return "[\n    " + ",\n    ".join(items) + "\n  ]" if items else "[]"

    deck_rows = [json.dumps({"suitIndex": k - 1, "rank": a}) for a, k in deck.cards]
    parts = [f'  "players": {json.dumps(list(PLAYER_NAMES[:rules.players]))}',
             f'  "deck": {rows(deck_rows)}',
             f'  "actions": {rows([json.dumps(a.to_json()) for a in actions])}',
             '  "first_player": 0',
             f'  "options": {json.dumps(options)}']
    return "{\n" + ",\n".join(parts) + "\n}\n"


def hanab_live_can_replay(deck: Deck, rules: Rules) -> str | None:
    """None if hanab.live can replay this game as it is; else why not."""
    standard = sorted(deck.cards) == sorted(
        (a, k) for k in range(1, 6) for a, copies in enumerate((3, 2, 2, 2, 1), 1)
        for _ in range(copies))
    if not standard:
        return "its deck is not the 50-card standard deck of No Variant"
    if abs(rules.hand_size - HAND_SIZE[rules.players]) > 1:
        return f"hand size {rules.hand_size} is more than one off {HAND_SIZE[rules.players]}"
    if rules.clues != MAX_CLUES or rules.strikes != STRIKES or not rules.final_round:
        return "it uses other clue, strike or final-round rules than No Variant"
    return None


def write_replay(path: str, deck: Deck, rules: Rules, actions: list[Action],
                 force: bool = False) -> None:
    write_text(path, replay_json(deck, rules, actions), force)
