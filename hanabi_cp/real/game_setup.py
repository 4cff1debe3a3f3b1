"""The rules of a real game as the user asked for them: choices (a dict of
``players``, ``hand_size``, ``clues``, ``strikes``, ``variant``, ``first_player``,
``game_options``, ``end_rules``, ``any_deck``: the ``--rules live`` flags) over what
a game file says; a choice that contradicts the file is an error naming both.

``solve``, ``verify``, ``analyze`` and ``play`` with ``--rules live`` all read a
deck and its rules through here.
"""

from __future__ import annotations

from ..core.errors import UsageError
from ..core.model import Deck
from ..io.textio import display_name, read_text
from .replay_io import END_RULES, GameOptions, Replay, parse_replay
from .rules import Rules, RulesError
from .variants.catalogue import variant as find_variant
from .variants.clue_rules import clue_rules


# hanab.live's options as the words of ``game_options`` (the CLI's --option), and the
# Rules field each sets.
OPTION_FLAGS = {"deck-plays": "deck_plays", "empty-clues": "empty_clues",
                "speedrun": "speedrun", "all-or-nothing": "all_or_nothing"}


def make_rules(live: dict, game: GameOptions | None = None, players: int | None = None,
               source: str = "") -> Rules:
    """The rules from the command's flags over what a game file says (``game``, its
    ``players``); a flag that contradicts the file is an error naming both."""
    game = game or GameOptions()
    if live.get("players") is not None and players is not None and live["players"] != players:
        raise UsageError(f"{source}: the game has {players} players, but {{players}} "
                         f"{live['players']} was given", "players")
    players = live.get("players") or players
    if players is None:
        raise UsageError("{rules} live needs {players} P (2 to 6)", "rules", "players")
    variant = game.variant
    if live.get("variant") is not None:
        chosen = None if live["variant"] == "No Variant" else find_variant(live["variant"])
        if source and chosen != variant:
            raise UsageError(f"{source}: the game is of variant {_name(variant)!r}, but "
                             f"{{variant}} {live['variant']!r} was given", "variant")
        variant = chosen
    first = game.first_player
    if live.get("first_player") is not None:
        if source and live["first_player"] != first:
            raise UsageError(f"{source}: player {first} moves first in the game, but "
                             f"{{first_player}} {live['first_player']} was given",
                             "first_player")
        first = live["first_player"]
    flags = set(game.flags) | {OPTION_FLAGS[x] for x in live.get("game_options") or ()}
    if source and flags != set(game.flags):
        extra = sorted(flags - set(game.flags))[0].replace("_", "-")
        raise UsageError(f"{source}: the game does not use the option {extra!r}, but "
                         f"{{game_options}} {extra} was given", "game_options")
    early_ends = game.early_ends
    if live.get("end_rules") is not None:
        chosen_ends = END_RULES[live["end_rules"]]
        if source and chosen_ends != early_ends:
            raise UsageError(f"{source}: the game follows "
                             f"{'hanab.live' if early_ends else 'hle'}'s end rules, but "
                             f"{{end_rules}} {live['end_rules']} was given", "end_rules")
        early_ends = chosen_ends
    hand_size, clues, strikes = _recorded_counts(live, game, players, source)
    merged = GameOptions(variant, first, game.hand_size_change, tuple(sorted(flags)),
                         early_ends, game.hand_size, game.clues, game.strikes,
                         game.final_round, game.recorded)
    try:
        return merged.rules(players, hand_size, clues, strikes)
    except RulesError as exc:
        raise UsageError(f"{source}: {exc}" if source else str(exc)) from None


def _recorded_counts(live: dict, game: GameOptions, players: int, source: str):
    """(hand size, clues, strikes) for ``GameOptions.rules``: the flags, or the
    file's where none is given ("file" for its clues); a flag that contradicts what
    the file records (its "hanabi_cp" key, or hanab.live's one-extra/one-less card)
    is an error."""
    flags = {key: live.get(key) for key in ("hand_size", "clues", "strikes")}
    in_file = {"hand_size": game.file_hand_size(players),
               "clues": "unlimited" if game.clues is None else game.clues,
               "strikes": game.strikes}
    binding = set(game.recorded) | ({"hand_size"} if game.hand_size_change else set())
    for key, flag in flags.items():
        if source and flag is not None and key in binding and str(flag) != str(in_file[key]):
            name = key.replace("_", " ")
            raise UsageError(f"{source}: the game records {name} {in_file[key]}, but "
                             f"{{{key}}} {flag} was given", key)
    clues = flags["clues"]
    return (flags["hand_size"], "file" if clues is None else None if clues == "unlimited"
            else clues, flags["strikes"])


def _name(variant) -> str:
    return "No Variant" if variant is None else variant.name


def load_game_deck(path: str, any_deck: bool = False) -> tuple[Deck, Replay | None]:
    """A deck for --rules live, and the game when DECK is a game file with a deck (a
    hanab.live export, a certificate): its variant, options and players count."""
    from ..io.decks import looks_like_json, parse_deck_file
    text = read_text(path, "the deck")
    name = display_name(path)
    if looks_like_json(text):
        game = _game_with_deck(text, name, any_deck)
        if game is not None:
            assert game.deck is not None
            return game.deck, game
    return parse_deck_file(text, name).deck, None


def _game_with_deck(text: str, name: str, any_deck: bool = False) -> Replay | None:
    """The game in a JSON text holding both "deck" and "actions", else None."""
    from ..io.jsonpos import load_json
    data = load_json(text, name)
    if isinstance(data, dict) and "deck" in data and "actions" in data:
        return parse_replay(text, name, any_deck)
    return None


def game_rules(live: dict, game: Replay | None, deck: Deck, source: str) -> Rules:
    """The rules for DECK: the flags over the game file's, checked against the deck."""
    rules = make_rules(live, game.options if game else None, game.players if game else None,
                       source if game else "")
    try:
        clue_rules(rules, deck)
    except RulesError as exc:
        raise UsageError(f"{source}: {exc}") from None
    deck_taken(deck, rules, bool(live.get("any_deck")), source)
    return rules


def deck_taken(deck: Deck, rules: Rules, any_deck: bool, source: str) -> str | None:
    """What makes ``deck`` (read from ``source``) not one that the variant of
    ``rules`` deals (``deck_misfit``): None if it is one, an error unless
    ``any_deck`` takes it anyway."""
    wrong = deck_misfit(deck, rules)
    if wrong is not None and not any_deck:
        raise UsageError(f"{source}: not a deck that the variant {rules.variant_name!r} "
                         f"deals: {wrong} ({{any_deck}} takes it anyway)", "any_deck")
    return wrong


def variant_rules(players: int, hand_size: int | None, strikes: int,
                  variant: str | None = None) -> Rules:
    """hanab.live's rules for ``players`` in the variant of that exact name (None or
    "No Variant": none), with ``hand_size`` (None: hanab.live's) and ``strikes``."""
    chosen = None if variant in (None, "No Variant") else find_variant(variant)
    return Rules.for_players(players, hand_size, strikes=strikes, variant=chosen)


def played_rules(live: dict, deck: Deck, in_deck: Replay | None, game: Replay,
                 source: str) -> Rules:
    """The rules a game (``game``, read from ``source``) was played by on ``deck``:
    the choices over the game file's options, or, for a bare list of actions, over
    those of the game file given as the deck (``in_deck``).  A game whose players or
    deck contradict the choices or ``deck`` is an error naming the file."""
    if game.players is not None and live.get("players") not in (None, game.players):
        raise UsageError(f"{source}: the game has {game.players} players, "
                         f"but {{players}} {live['players']} was given", "players")
    if game.deck is not None and list(game.deck.cards) != list(deck.cards):
        raise UsageError(f"{source}: its deck is not DECK ({first_difference(game.deck, deck)})")
    return game_rules(live, game if game.deck is not None or in_deck is None else in_deck,
                      deck, source)


def deck_misfit(deck: Deck, rules: Rules) -> str | None:
    """What makes ``deck`` not one that the variant of ``rules`` deals, or None (No
    Variant, the default, takes any deck: hanabi-cp's decks of any size)."""
    if rules.variant is None:
        return None
    wrong = rules.variant.model_misfit(deck.cards)
    return None if wrong is None else wrong[1]


def first_difference(a: Deck, b: Deck) -> str:
    if a.N != b.N:
        return f"{a.N} cards against {b.N}"
    i = next(i for i, (x, y) in enumerate(zip(a.cards, b.cards)) if x != y)
    return f"card #{i} is {a.cards[i]} against {b.cards[i]}"


def rules_json(rules: Rules) -> dict:
    """``rules`` as the JSON answers of ``solve``/``verify --rules live`` give them,
    in the words of the choices above (``OPTION_FLAGS``, ``END_RULES``)."""
    return {"players": rules.players, "hand_size": rules.hand_size, "clues": rules.clues,
            "strikes": rules.strikes, "final_round": rules.final_round,
            "variant": rules.variant_name, "first_player": rules.first_player,
            "end_rules": "hanab.live" if rules.early_ends else "hle",
            "options": sorted(flag for flag, field in OPTION_FLAGS.items()
                              if getattr(rules, field))}


def setup_json(deck: Deck, rules: Rules) -> dict:
    """What the JSON answers of ``--rules live`` say of the game's setup: its rules,
    and (``any_deck``) why the deck is not one the variant deals, if it is not."""
    wrong = deck_misfit(deck, rules)
    return {"rules": rules_json(rules)} | ({} if wrong is None else {"any_deck": wrong})


def any_deck_line(deck: Deck, rules: Rules) -> str | None:
    """The ``c`` line saying that ``any_deck`` took a deck that is not the variant's."""
    wrong = deck_misfit(deck, rules)
    return None if wrong is None else any_deck_text(rules, wrong)


def any_deck_text(rules: Rules, wrong: str) -> str:
    return (f"c any deck: not a deck that {rules.variant_name} deals ({wrong}); taken as "
            "given (--any-deck)")
