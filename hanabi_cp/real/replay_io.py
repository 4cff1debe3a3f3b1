"""Real-rules games as JSON, in the shape hanab.live imports and exports.

Written (``replay_json``; hanab.live's "JSON game" format, one action per line)::

    {
      "players": ["Alice", "Bob"],
      "deck": [{"suitIndex": 0, "rank": 1}, ...],
      "actions": [{"type": 0, "target": 3}, {"type": 3, "target": 1, "value": 2}, ...],
      "options": {"variant": "No Variant"},
      "hanabi_cp": {"hand_size": 5, "clues": 8, "strikes": 3, ...}
    }

Read (``parse_replay``): that shape, a hanab.live game export (the same keys and
more: "id", "seed", "notes", ... which change nothing), an object with only
"actions", or a bare list of actions.  Action types: 0 play, 1 discard (target: the
card's deck position), 2 color clue (value: an index into the variant's clue
colors), 3 rank clue (value: a rank), the target of a clue being a player; 4 and 5
end the game without a move (terminated, timed out, ended by a vote: score 0), and
only as the last action.  The "options" object is read as hanab.live reads it: the
variant, "startingPlayer", "oneExtraCard" / "oneLessCard" (the hand size),
"deckPlays", "emptyClues", "speedrun", "allOrNothing"; "timed", "timeBase",
"timePerTurn" and "cardCycle" change only clocks and display.  Anything else, an
unknown variant, a variant whose rules hanabi-cp does not model and
"detrimentalCharacters" are errors naming the line: never ignored.

hanabi-cp's own key records every rule hanab.live's "options" cannot say (hanab.live
ignores unknown top-level keys, and an unknown key inside "options" would be refused
by this reader, so the key stands beside "options")::

    "hanabi_cp": {"hand_size": 2, "clues": 1, "strikes": 1, "final_round": true,
                  "end_rules": "hanab.live"}

``hand_size`` is the cards per player (it must agree with "oneExtraCard" /
"oneLessCard" when those are given), ``clues`` the clue tokens at the start and at
most (or ``"unlimited"``), ``strikes`` the strikes that end the game,
``final_round`` false lifts the final round, and ``end_rules`` ``"hle"`` says the
game follows the Hanabi Learning Environment's end rules: it ends only at the last
strike, at the maximum score or after the final round, never at hanab.live's early
ends (``Rules.early_ends`` off).  A key left out is hanab.live's rule (its hand size
for the players, 8 clues, 3 strikes, a final round, ``"hanab.live"``); the keys
given are recorded (``GameOptions.recorded``), so a command-line flag that
contradicts one is an error.  Every game hanabi-cp writes gives all five.  Anything
else in the object is an error naming the line.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from ..core.errors import InputError
from ..io.deck_json import parse_deck_json
from ..io.jsonpos import Shape, describe, is_int, line_of, load_json
from ..io.textio import display_name, read_text
from ..io.outputs import write_text
from ..core.model import Deck
from .actions import Action, Kind
from .rules import HAND_SIZE, MAX_CLUES, MAX_PLAYERS, MIN_PLAYERS, STRIKES, Rules, RulesError
from .variants.catalogue import START, UnknownVariant, Variant, variant as find_variant

PLAYER_NAMES = ("Alice", "Bob", "Cathy", "Donald", "Emily", "Frank")
NO_VARIANT = "No Variant"
HAND_SIZE_OPTIONS = {"oneExtraCard": 1, "oneLessCard": -1}
# hanab.live's options that change the rules, and the Rules field each sets.
RULE_OPTIONS = {"deckPlays": "deck_plays", "emptyClues": "empty_clues",
                "speedrun": "speedrun", "allOrNothing": "all_or_nothing"}
# hanabi-cp's own key beside "options": the rules hanab.live's options cannot say.
# "end_rules" names whose end rules the game follows, and whether they are
# hanab.live's early ends (Rules.early_ends).
OWN_KEY = "hanabi_cp"
END_RULES = {"hanab.live": True, "hle": False}
OWN_RULES = ("hand_size", "clues", "strikes", "final_round", "end_rules")
UNLIMITED = "unlimited"
# Options that change only clocks and display: read, checked, without effect.
CLOCK_OPTIONS = ("timed", "timeBase", "timePerTurn", "cardCycle")
EXPECTED_ACTION = ('an action {"type": 0 play, 1 discard, 2 color clue, 3 rank clue (4 and '
                   '5: end of game), "target": an integer >= 0, "value": an integer >= 0 '
                   'for a clue}')


@dataclass(frozen=True)
class GameOptions:
    """What a game file says about its rules beyond the players."""

    variant: Variant | None = None        # None: No Variant
    first_player: int = 0
    hand_size_change: int = 0             # hanab.live's one extra / one less card
    flags: tuple[str, ...] = ()           # Rules fields set to True (deck_plays, ...)
    early_ends: bool = True               # False: HLE's end rules ("hanabi_cp" key)
    # the "hanabi_cp" key's rules (hand_size None: hanab.live's for the players)
    hand_size: int | None = None
    clues: int | None = MAX_CLUES         # None: unlimited
    strikes: int = STRIKES
    final_round: bool = True
    recorded: tuple[str, ...] = ()        # the "hanabi_cp" keys the file gave

    def file_hand_size(self, players: int) -> int:
        """The hand size the file says for ``players``: its own key's, else
        hanab.live's with the one-extra/one-less change."""
        if self.hand_size is not None:
            return self.hand_size
        return HAND_SIZE.get(players, 1) + self.hand_size_change

    def rules(self, players: int, hand_size: int | None = None,
              clues: int | None | str = "file", strikes: int | None = None) -> Rules:
        """The rules of a game of ``players`` with these options; ``hand_size``,
        ``clues`` and ``strikes``, if given, replace the file's (``clues`` None:
        unlimited; the default "file" keeps the file's)."""
        mismatch = self.hand_size_mismatch(players)
        if mismatch is not None:
            raise RulesError(f'"hand_size" {self.hand_size} contradicts the hand size '
                             f"{mismatch}")
        return Rules.for_players(
            players, self.file_hand_size(players) if hand_size is None else hand_size,
            self.clues if clues == "file" else clues,  # type: ignore[arg-type]
            self.strikes if strikes is None else strikes, self.final_round,
            variant=self.variant, first_player=self.first_player,
            early_ends=self.early_ends, **dict.fromkeys(self.flags, True))

    def hand_size_mismatch(self, players: int) -> str | None:
        """What hand size hanab.live's one-extra/one-less card option gives for
        ``players``, when the "hanabi_cp" hand size contradicts it."""
        if self.hand_size is None or not self.hand_size_change or players not in HAND_SIZE:
            return None
        theirs = HAND_SIZE[players] + self.hand_size_change
        if theirs == self.hand_size:
            return None
        option = [k for k, v in HAND_SIZE_OPTIONS.items() if v == self.hand_size_change][0]
        return f'{theirs} (hanab.live\'s "{option}" for {players} players)'


@dataclass(frozen=True)
class Replay:
    actions: list[Action]
    players: int | None = None            # from "players", if given
    deck: Deck | None = None              # from "deck", if given
    options: GameOptions = field(default_factory=GameOptions)
    names: tuple[str, ...] | None = None  # the players' names, if given


def parse_replay(text: str, path: str = "<string>", any_deck: bool = False) -> Replay:
    """Read a game's actions (and players, deck, options if present).  A deck that
    its variant does not deal is an error naming the first card out of place, unless
    ``any_deck`` (No Variant takes any deck: hanabi-cp's own decks of any size).

    >>> r = parse_replay('{"players": ["A", "B"], "actions": [{"type": 0, "target": 3}]}')
    >>> r.players, [str(a) for a in r.actions]
    (2, ['play #3'])
    >>> parse_replay('{"actions": {"type": 0}}', "g.json")
    Traceback (most recent call last):
    ...
    hanabi_cp.core.errors.InputError: g.json:1: expected a list of actions, found {"type": 0}
    """
    data = load_json(text, path, "the game")
    shape = Shape(text, path)
    if isinstance(data, list):
        return Replay(parse_actions(data, shape, ()))
    if not isinstance(data, dict) or "actions" not in data:
        shape.fail((), 'a list of actions or a JSON object with "actions" (a hanabi-cp '
                   'certificate or a hanab.live game export)', describe(data))
    actions = parse_actions(data["actions"], shape, ("actions",))
    names = None
    if "players" in data:
        names = data["players"]
        if not (isinstance(names, list) and names and all(isinstance(x, str) for x in names)):
            shape.fail(("players",), '"players": a non-empty list of player names',
                       describe(names))
        if not MIN_PLAYERS <= len(names) <= MAX_PLAYERS:
            shape.fail(("players",), f'"players": {MIN_PLAYERS} to {MAX_PLAYERS} player names',
                       f"{len(names):,} names")
        names = tuple(names)
    options = _options(data, shape, len(names) if names else None)
    deck = None
    if "deck" in data:
        deck, _, _ = parse_deck_json(text, path)
        deck = _fit(deck, options.variant, shape, any_deck)
    _in_game(actions, len(names) if names else None, deck, shape, ("actions",))
    return Replay(actions, len(names) if names else None, deck, options, names)


# Read-time ranges of an action's fields, before any game sees them: a player index
# (clue targets, who ended the game) is below MAX_PLAYERS, a deck position below
# MAX_CARDS, a clue's value (a color index or a rank) below MAX_CLUE_VALUE (no
# variant has 100 colors or ranks), an end condition one of EndCondition's.  The
# game file's own players and deck narrow them further (``_in_game``).
MAX_CLUE_VALUE = 100


def parse_actions(items, shape: Shape, where: tuple) -> list[Action]:
    """The actions of a JSON list at ``where`` (hanab.live's shape); InputError at
    the first one out of shape or out of range."""
    from ..runtime.limits import MAX_CARDS
    from .referee import EndCondition
    if not isinstance(items, list):
        shape.fail(where, "a list of actions", describe(items))
    out: list[Action] = []
    for i, item in enumerate(items):
        at = (*where, i)
        if out and out[-1].ends_game:
            shape.fail(at, "no action after the end of the game (type 4 or 5)",
                       describe(item))
        if not isinstance(item, dict) or not is_int(item.get("type")) \
                or not is_int(item.get("target")):
            shape.fail(at, EXPECTED_ACTION, describe(item))
        kind, target, value = item["type"], item["target"], item.get("value")
        if kind in (4, 5):
            if not (-1 <= target < MAX_PLAYERS and is_int(value)
                    and 0 <= value <= max(EndCondition)):
                shape.fail(at, 'an end of game {"type": 4 or 5, "target": a player 0 to '
                           f'{MAX_PLAYERS - 1} or -1, "value": an end condition 0 to '
                           f'{max(EndCondition)}}}', describe(item))
            out.append(Action(Kind(kind), target, value))
            continue
        if not 0 <= kind <= 3 or target < 0:
            shape.fail(at, EXPECTED_ACTION, describe(item))
        if kind in (Kind.COLOR_CLUE, Kind.RANK_CLUE):
            if not (is_int(value) and 0 <= value < MAX_CLUE_VALUE):
                shape.fail(at, "a clue with a \"value\" (an integer 0 to "
                           f"{MAX_CLUE_VALUE - 1}: a color index or a rank)", describe(item))
            if target >= MAX_PLAYERS:
                shape.fail(at, f'a clue to a player 0 to {MAX_PLAYERS - 1}', describe(item))
        else:
            if target >= MAX_CARDS:
                shape.fail(at, f"a card's deck position 0 to {MAX_CARDS - 1:,}",
                           describe(item))
            value = None      # hanab.live exports give plays a value 0; it means nothing
        out.append(Action(Kind(kind), target, value))
    return out


def _in_game(actions: list[Action], players: int | None, deck: Deck | None, shape: Shape,
             where: tuple) -> None:
    """Each action's player and card exist in the game file's own players and deck."""
    for i, act in enumerate(actions):
        if players is not None and (act.is_clue or act.ends_game) and act.target >= players:
            shape.fail((*where, i), f"a player 0 to {players - 1} (the game has {players})",
                       json.dumps(act.to_json()))
        if deck is not None and act.kind in (Kind.PLAY, Kind.DISCARD) \
                and act.target >= deck.N:
            shape.fail((*where, i), f"a card of the deck, #0 to #{deck.N - 1}",
                       json.dumps(act.to_json()))


def _options(data: dict, shape: Shape, players: int | None) -> GameOptions:
    options = data.get("options", {})
    if not isinstance(options, dict):
        shape.fail(("options",), '"options": an object', describe(options))
    name = options.get("variant", NO_VARIANT)
    if not isinstance(name, str):
        shape.fail(("options", "variant"), '"variant": a variant name', describe(name))
    try:
        variant = None if name == NO_VARIANT else find_variant(name)
        why = None if variant is None else variant.unsupported()
    except UnknownVariant as exc:
        raise InputError(shape.path, _line(shape, ("options", "variant")),
                         "a variant hanab.live lists", str(exc)) from None
    if why is not None:
        raise InputError(shape.path, _line(shape, ("options", "variant")),
                         "a variant whose rules hanabi-cp models",
                         f'"{name}": {why}')
    first = 0
    # hanabi-cp wrote its own "first_player" before it wrote hanab.live's field
    for where in (("first_player",), ("options", "startingPlayer")):
        holder = data if len(where) == 1 else options
        if where[-1] in holder:
            first = holder[where[-1]]
            top = players - 1 if players else None
            if not (is_int(first) and first >= 0 and (top is None or first <= top)):
                shape.fail(where, f'"{where[-1]}": a player index'
                           + (f" 0 to {top}" if top is not None else ""), describe(first))
    change, flags = 0, []
    for key, value in options.items():
        if key in ("variant", "startingPlayer"):
            continue
        if key in CLOCK_OPTIONS:
            continue
        if key == "detrimentalCharacters" and value:
            shape.fail(("options", key), "no detrimental characters (hanabi-cp does not "
                       "model them)", describe(value))
        if key not in HAND_SIZE_OPTIONS and key not in RULE_OPTIONS \
                and key != "detrimentalCharacters":
            shape.fail(("options", key), "one of hanab.live's options (" + ", ".join(
                ["variant", "startingPlayer", *HAND_SIZE_OPTIONS, *RULE_OPTIONS,
                 *CLOCK_OPTIONS]) + ")", json.dumps(key))
        if not isinstance(value, bool):
            shape.fail(("options", key), f'"{key}": true or false', describe(value))
        if value and key in HAND_SIZE_OPTIONS:
            change += HAND_SIZE_OPTIONS[key]
        elif value and key in RULE_OPTIONS:
            flags.append(RULE_OPTIONS[key])
    own = _own_rules(data, shape, players)
    opts = GameOptions(variant, first, change, tuple(flags), **own)
    if players is not None:
        mismatch = opts.hand_size_mismatch(players)
        if mismatch is not None:
            shape.fail((OWN_KEY, "hand_size"), f'"hand_size": {mismatch}',
                       describe(opts.hand_size))
    return opts


def _own_rules(data: dict, shape: Shape, players: int | None) -> dict:
    """The "hanabi_cp" key's rules as GameOptions fields (hanab.live's rules for the
    keys it leaves out)."""
    own = data.get(OWN_KEY, {})
    expected = ('"hanabi_cp": an object of ' + ", ".join(f'"{k}"' for k in OWN_RULES))
    if not isinstance(own, dict):
        shape.fail((OWN_KEY,), expected, describe(own))
    out: dict = {"recorded": tuple(k for k in OWN_RULES if k in own)}
    for key, value in own.items():
        at = (OWN_KEY, key)
        if key not in OWN_RULES:
            shape.fail(at, expected, json.dumps(key))
        if key == "end_rules":
            if value not in END_RULES:
                shape.fail(at, '"end_rules": ' + " or ".join(f'"{k}"' for k in END_RULES),
                           describe(value))
            out["early_ends"] = END_RULES[value]
        elif key == "final_round":
            if not isinstance(value, bool):
                shape.fail(at, '"final_round": true or false', describe(value))
            out["final_round"] = value
        elif key == "clues" and value == UNLIMITED:
            out["clues"] = None
        else:
            out[key] = value
    # the ranges are the rules' own: a trial Rules names the first one out of range
    for key in ("hand_size", "clues", "strikes"):
        if key not in out or (key == "clues" and out[key] is None):
            continue
        value = out[key]
        if not is_int(value):
            shape.fail((OWN_KEY, key), f'"{key}": an integer'
                       + (' or "unlimited"' if key == "clues" else ""), describe(value))
        try:
            Rules(players or 2, **{"hand_size": 1, key: value})
        except RulesError as exc:
            allowed = str(exc).rsplit(", found", 1)[0].split(" must be ", 1)[-1]
            shape.fail((OWN_KEY, key), f'"{key}": {allowed}', describe(value))
    return out


def own_json(rules: Rules) -> dict:
    """hanabi-cp's own key for ``rules``: every rule hanab.live's options cannot say."""
    return {"hand_size": rules.hand_size,
            "clues": UNLIMITED if rules.clues is None else rules.clues,
            "strikes": rules.strikes, "final_round": rules.final_round,
            "end_rules": "hanab.live" if rules.early_ends else "hle"}


def _line(shape: Shape, where: tuple) -> int:
    return line_of(shape.text, where)


def _fit(deck: Deck, variant: Variant | None, shape: Shape, any_deck: bool = False) -> Deck:
    """An export's deck under its variant: the variant's suits and ranks (an export
    names no card kind that the deck happens not to hold), and exactly its cards
    (unless ``any_deck``)."""
    if variant is None:
        return deck
    suits, n = len(variant.suits), variant.stack_size
    # Up or Down's START cards are hanab.live's rank 7, our value n + 1 (encodings/variants.md, 8)
    top = max((a for a, _ in deck.cards if a != START), default=0) if variant.up_or_down else deck.n
    if deck.c > suits or top > n:
        start = ", START 7" if variant.up_or_down else ""
        shape.fail(("deck",), f"cards of the variant {variant.name!r} ({suits} suits, "
                   f"ranks 1 to {n}{start})", f"suit index {deck.c - 1}, rank {max(top, deck.n)}")
    if variant.up_or_down:
        deck = Deck.of([(variant.model_value(a), k) for a, k in deck.cards], variant.deck_n, suits)
    else:
        deck = Deck.of(deck.cards, n, suits)
    wrong = None if any_deck else variant.model_misfit(deck.cards)
    if wrong is not None:
        at, what = wrong
        shape.fail(("deck", at) if at >= 0 else ("deck",), f"a deck that the variant "
                   f"{variant.name!r} deals ({variant.deck_size} cards; solve, verify, analyze "
                   f"and play take another with --any-deck)", what)
    return deck


def read_replay(path: str, any_deck: bool = False) -> Replay:
    return parse_replay(read_text(path, "the game"), display_name(path), any_deck)


def options_json(rules: Rules) -> dict:
    """hanab.live's "options" object for ``rules``."""
    out: dict = {"variant": rules.variant_name}
    if rules.first_player:
        out["startingPlayer"] = rules.first_player
    change = rules.hand_size - HAND_SIZE[rules.players]
    for key, step in HAND_SIZE_OPTIONS.items():
        if change and step == change:
            out[key] = True
    for key, name in RULE_OPTIONS.items():
        if getattr(rules, name):
            out[key] = True
    return out


def replay_json(deck: Deck, rules: Rules, actions: list[Action],
                names: tuple[str, ...] | None = None) -> str:
    """hanab.live's JSON game shape, one card and one action per line, with every
    rule hanab.live's "options" cannot say in hanabi-cp's own key.

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
      "options": {"variant": "No Variant"},
      "hanabi_cp": {"hand_size": 1, "clues": 8, "strikes": 3, "final_round": true, "end_rules": "hanab.live"}
    }
    """
    def rows(items: list[str]) -> str:
        return "[\n    " + ",\n    ".join(items) + "\n  ]" if items else "[]"

    rank = rules.variant.live_rank if rules.variant is not None else int
    deck_rows = [json.dumps({"suitIndex": k - 1, "rank": rank(a)}) for a, k in deck.cards]
    parts = [f'  "players": {json.dumps(list(names or PLAYER_NAMES[:rules.players]))}',
             f'  "deck": {rows(deck_rows)}',
             f'  "actions": {rows([json.dumps(a.to_json()) for a in actions])}',
             f'  "options": {json.dumps(options_json(rules))}']
    parts.append(f'  "{OWN_KEY}": {json.dumps(own_json(rules))}')
    return "{\n" + ",\n".join(parts) + "\n}\n"


def replay_line(deck: Deck, rules: Rules, actions: list[Action]) -> str:
    """``replay_json`` on one line: a certificate printed as a ``v`` line."""
    return json.dumps(json.loads(replay_json(deck, rules, actions)))


def hanab_live_can_replay(deck: Deck, rules: Rules) -> str | None:
    """None if hanab.live can replay this game as it is; else why not."""
    if rules.variant is None:
        full = [(a, k) for k in range(1, 6) for a, copies in enumerate((3, 2, 2, 2, 1), 1)
                for _ in range(copies)]
    else:
        full = rules.variant.model_cards()
    if sorted(deck.cards) != sorted(full):
        return f"its deck is not the {len(full)}-card deck of {rules.variant_name}"
    if abs(rules.hand_size - HAND_SIZE[rules.players]) > 1:
        return f"hand size {rules.hand_size} is more than one off {HAND_SIZE[rules.players]}"
    if rules.clues != MAX_CLUES or rules.strikes != STRIKES or not rules.final_round:
        return "it uses other clue, strike or final-round rules than hanab.live"
    if not rules.early_ends:
        return ("it follows HLE's end rules: hanab.live ends a game once no more points "
                "can be scored, where HLE plays on")
    return None


def write_replay(path: str, deck: Deck, rules: Rules, actions: list[Action],
                 force: bool = False) -> None:
    write_text(path, replay_json(deck, rules, actions), force)

