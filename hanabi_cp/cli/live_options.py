"""The ``--rules live`` branch of ``solve`` and ``verify``: real games (hanab.live
"No Variant" rules, open hands) instead of the solitaire model.

``live_options`` adds the options both commands share; ``solve_live_cmd`` and
``verify_live_cmd`` do the work once ``solve`` / ``verify`` have seen
``--rules live``.  With ``--rules solitaire`` (the default) the live options must
be absent and nothing here runs.
"""

from __future__ import annotations

import json

import click

from ..core.errors import UsageError
from ..runtime.limits import clip
from ..real.replay_io import (END_RULES, GameOptions, Replay, hanab_live_can_replay, parse_replay, replay_json,
                              write_replay)
from ..io.textio import display_name, read_text
from ..real.older_games import OLDER_RULES_UNTIL, as_recorded
from ..real.referee import Game, IllegalMove, replay, target_of
from ..real.rules import Rules, RulesError
from ..real.variants.clue_rules import clue_rules
from ..real.variants.catalogue import variant as find_variant
from ..real.solve import live_methods, solve_live
from ..core.model import Deck
from ..core.options import SolveOptions
from ..core.status import Status
from ..io.outputs import check_outputs
from .common import MethodChoice, deck_summary, echo_json, echo_verdict
from .proof_lines import echo_proof, proof_outputs
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


# hanab.live's options as flags of --option, and the Rules field each sets.
OPTION_FLAGS = {"deck-plays": "deck_plays", "empty-clues": "empty_clues",
                "speedrun": "speedrun", "all-or-nothing": "all_or_nothing"}


def check_solitaire(live: dict) -> None:
    """With --rules solitaire, none of the real-game options may be given."""
    given = [name for name in LIVE_ONLY if live.get(name) not in (None, (), False)]
    if given:
        flag = "--" + given[0].replace("_", "-").replace("game-options", "option")
        raise UsageError(f"{flag} needs --rules live")


def make_rules(live: dict, game: GameOptions | None = None, players: int | None = None,
               source: str = "") -> Rules:
    """The rules from the command's flags over what a game file says (``game``, its
    ``players``); a flag that contradicts the file is an error naming both."""
    game = game or GameOptions()
    if live.get("players") is not None and players is not None and live["players"] != players:
        raise UsageError(f"{source}: the game has {players} players, but --players "
                         f"{live['players']} was given")
    players = live.get("players") or players
    if players is None:
        raise UsageError("--rules live needs --players P (2 to 6)")
    variant = game.variant
    if live.get("variant") is not None:
        chosen = None if live["variant"] == "No Variant" else find_variant(live["variant"])
        if source and chosen != variant:
            raise UsageError(f"{source}: the game is of variant {_name(variant)!r}, but "
                             f"--variant {live['variant']!r} was given")
        variant = chosen
    first = game.first_player
    if live.get("first_player") is not None:
        if source and live["first_player"] != first:
            raise UsageError(f"{source}: player {first} moves first in the game, but "
                             f"--first-player {live['first_player']} was given")
        first = live["first_player"]
    flags = set(game.flags) | {OPTION_FLAGS[x] for x in live.get("game_options") or ()}
    if source and flags != set(game.flags):
        extra = sorted(flags - set(game.flags))[0].replace("_", "-")
        raise UsageError(f"{source}: the game does not use the option {extra!r}, but "
                         f"--option {extra} was given")
    early_ends = game.early_ends
    if live.get("end_rules") is not None:
        chosen_ends = END_RULES[live["end_rules"]]
        if source and chosen_ends != early_ends:
            raise UsageError(f"{source}: the game follows "
                             f"{'hanab.live' if early_ends else 'hle'}'s end rules, but "
                             f"--end-rules {live['end_rules']} was given")
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
                             f"--{key.replace('_', '-')} {flag} was given")
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


def _rules_line(rules: Rules) -> str:
    return f"c rules: {rules.describe()} (hanab.live {rules.variant_name}, open hands)"


def game_rules(live: dict, game: Replay | None, deck: Deck, source: str) -> Rules:
    """The rules for DECK: the flags over the game file's, checked against the deck."""
    rules = make_rules(live, game.options if game else None, game.players if game else None,
                       source if game else "")
    try:
        clue_rules(rules, deck)
    except RulesError as exc:
        raise UsageError(f"{source}: {exc}") from None
    wrong = deck_misfit(deck, rules)
    if wrong is not None and not live.get("any_deck"):
        raise UsageError(f"{source}: not a deck that the variant {rules.variant_name!r} "
                         f"deals: {wrong} (--any-deck takes it anyway)")
    return rules


def deck_misfit(deck: Deck, rules: Rules) -> str | None:
    """What makes ``deck`` not one that the variant of ``rules`` deals, or None (No
    Variant, the default, takes any deck: hanabi-cp's decks of any size)."""
    if rules.variant is None:
        return None
    wrong = rules.variant.model_misfit(deck.cards)
    return None if wrong is None else wrong[1]


def any_deck_line(deck: Deck, rules: Rules) -> str | None:
    """The ``c`` line saying that --any-deck took a deck that is not the variant's."""
    wrong = deck_misfit(deck, rules)
    return None if wrong is None else (f"c any deck: not a deck that {rules.variant_name} "
                                       f"deals ({wrong}); taken as given (--any-deck)")


def solve_live_cmd(ctx, deck_path: str, method: str, options: SolveOptions, as_json: bool,
                   certificate: str | None, force: bool, live: dict, hand, proof,
                   refutation: str | None = None) -> None:
    if hand is not None:
        raise UsageError("--hand is the solitaire hand size; with --rules live use "
                         "--hand-size")
    if proof is not None and method not in ("auto", "sat"):
        raise UsageError(f"--proof: method {method} writes no proofs; with --rules live use "
                         f"--method sat or auto")
    check_outputs("solve", {**proof_outputs(proof, certificate), "--refutation": refutation},
                  force, {"DECK": deck_path})
    deck, game = load_game_deck(deck_path, bool(live.get("any_deck")))
    rules = game_rules(live, game, deck, deck_path)
    out = solve_live(deck, rules, method, options)
    # "-": the refutation goes to stdout as one ``v`` line (the certificate's way),
    # or into the JSON answer, never as a bare document among the c lines
    shown: list[str] = []
    written = None if refutation is None else write_refutation(
        Game.start(deck, rules), out, refutation, force, options.clock(), shown)
    if as_json:
        echo_json({**out.to_json(), "rules": _rules_json(rules)}
                  | ({} if written is None else {"refutation": written})
                  | ({"refutation_table": json.loads(shown[0])} if shown else {})
                  | _any_deck_json(deck, rules))
    else:
        how = f"{out.method} (auto)" if method == "auto" else out.method
        click.echo(f"c method: {how}")
        click.echo(f"c deck: {deck_summary(deck)}")
        click.echo(_rules_line(rules))
        _echo_any_deck(deck, rules)
        sizes = {k: v for k, v in sorted(out.stats.items())
                 if k in ("nodes", "refuted", "states", "variables", "clauses", "constraints")}
        if sizes:
            click.echo("c stats: " + ", ".join(f"{k} = {v}" for k, v in sizes.items()))
        click.echo(f"c time: {out.stats['seconds']:.3f} s")
        echo_verdict(out, target_of(deck, rules))
        if out.actions is not None and out.verified:
            click.echo(f"c certificate verified by the referee (a complete game of "
                       f"{len(out.actions)} turns)")
        echo_proof(out, proof)
        if written is not None:
            click.echo(f"c {written}")
        if shown:
            click.echo("v " + shown[0])
    if certificate is not None:
        _write_certificate(deck, rules, out, certificate, force, as_json)
    ctx.exit(out.status.exit_code)


def write_refutation(start: Game, out, path: str, force: bool, deadline,
                     shown: list[str] | None = None) -> str:
    """Write the search's refutation behind a loss to ``path`` (walked by the
    checker before it is returned, ``refutation.refute``); what was written, or why
    nothing was. With ``path`` "-" the refutation's one-line JSON is appended to
    ``shown`` for the caller to print instead."""
    from ..io.outputs import write_texts
    from ..real import refutation as refute
    from ..runtime.deadline import TimeUp
    if out.status is not Status.UNWINNABLE:
        return "no refutation written: " + (
            "the deck is winnable (the certificate is the evidence)"
            if out.status is Status.WINNABLE else "undecided")
    if out.stats.get("shown_by"):
        # a reason proved it; the search's refutation of one card more may take it
        # any time at all (2 players, seed 629: none within minutes)
        return f"no refutation written: {out.stats['shown_by']} proves it (the reason above)"
    goal = refute.goal_of(start, out)
    why = refute.refuses(start)
    if why is not None or start.over:
        return f"no refutation written: {why or 'the game is already over'}"
    try:
        table = refute.refute_claim(start, goal, deadline, out.method)
    except TimeUp as exc:
        return f"no refutation written: {exc}"
    text = refute.to_json(goal, table)
    if path == "-" and shown is not None:
        shown.append(json.dumps(json.loads(text), separators=(",", ":")))
    else:
        write_texts([(path, text)], force=force)
    return (f"refutation: {path} (no game reaches {goal}; {len(table):,} refuted states, "
            f"walked again by the checker)")


def _write_certificate(deck: Deck, rules: Rules, out, path: str, force: bool,
                       as_json: bool) -> None:
    if out.actions is None:
        if not as_json:
            click.echo("c no certificate: " + ("the deck is not winnable" if
                                                out.status is Status.UNWINNABLE else "undecided"))
        return
    if path == "-":
        if not as_json:
            click.echo("v " + json.dumps(json.loads(replay_json(deck, rules, out.actions))))
        return
    write_replay(path, deck, rules, out.actions, force=force)
    if not as_json:
        click.echo(f"c certificate written to {path} (hanab.live's JSON game format)")
        why = hanab_live_can_replay(deck, rules)
        if why:
            click.echo(f"c note: hanab.live cannot replay it: {why}")


def _rules_json(rules: Rules) -> dict:
    return {"players": rules.players, "hand_size": rules.hand_size, "clues": rules.clues,
            "strikes": rules.strikes, "final_round": rules.final_round,
            "variant": rules.variant_name, "first_player": rules.first_player,
            "end_rules": "hanab.live" if rules.early_ends else "hle",
            "options": sorted(flag for flag, field in OPTION_FLAGS.items()
                              if getattr(rules, field))}


def verify_live_cmd(ctx, deck_path: str, actions_path: str, as_json: bool, live: dict,
                    hand) -> None:
    if hand is not None:
        raise UsageError("--hand is the solitaire hand size; with --rules live use "
                         "--hand-size")
    if deck_path == "-" and actions_path == "-":
        raise UsageError("verify: DECK and GAME cannot both be `-` (stdin)")
    deck, in_deck = load_game_deck(deck_path, bool(live.get("any_deck")))
    text = read_text(actions_path, "the game")
    data = _refutation_data(text, display_name(actions_path))
    if data is not None:
        return _verify_refutation(ctx, deck, in_deck, data, text, actions_path, as_json, live)
    game = parse_replay(text, display_name(actions_path), bool(live.get("any_deck")))
    if game.players is not None and live.get("players") not in (None, game.players):
        raise UsageError(f"{actions_path}: the game has {game.players} players, "
                         f"but --players {live['players']} was given")
    if game.deck is not None and list(game.deck.cards) != list(deck.cards):
        raise UsageError(f"{actions_path}: its deck is not DECK ({_first_difference(game.deck, deck)})")
    # the game file's options, or (a bare list of actions) those of a game given as DECK
    rules = game_rules(live, game if game.deck is not None or in_deck is None else in_deck,
                       deck, actions_path)
    reading = as_recorded(deck, rules, game.actions)
    rules = reading.rules
    rep = replay(deck, rules, game.actions)
    ok = rep.legal and rep.complete
    error = rep.error if not rep.legal else None if rep.complete else (
        f"the game is not over after the last action (turn {rep.turns})")
    if as_json:
        echo_json({"verified": ok, "legal": rep.legal, "complete": rep.complete,
                   "score": rep.score, "won": rep.won, "target": target_of(deck, rules),
                   "strikes": rep.strikes, "turns": rep.turns, "error": error,
                   "step": rep.step, "end": rep.end_text, "end_condition": int(rep.condition),
                   "rules": _rules_json(rules), "today_end": reading.today_end,
                   "as_recorded": reading.text}
                  | _any_deck_json(deck, rules))
    else:
        click.echo(f"c deck: {deck_summary(deck)}")
        click.echo(_rules_line(rules))
        _echo_any_deck(deck, rules)
        click.echo("s VERIFIED" if ok else "s REJECTED")
        if reading.text is not None:
            click.echo(f"c as recorded: {reading.text}; hanab.live's rule before "
                       f"{OLDER_RULES_UNTIL} played on, and every action is read as played")
        if error:
            click.echo(f"c reason: {error}")
        click.echo(f"c score: {rep.score} of {target_of(deck, rules)}" + (" (won)" if rep.won else ""))
        if rep.complete:
            click.echo(f"c end: {rep.end_text}")
        click.echo(f"c turns: {rep.turns}, strikes: {rep.strikes}")
    ctx.exit(0 if ok else 1)


def _any_deck_json(deck: Deck, rules: Rules) -> dict:
    wrong = deck_misfit(deck, rules)
    return {} if wrong is None else {"any_deck": wrong}


def _echo_any_deck(deck: Deck, rules: Rules) -> None:
    line = any_deck_line(deck, rules)
    if line is not None:
        click.echo(line)


def _refutation_data(text: str, name: str):
    """The decoded file if it is a refutation (``live.refutation.to_json``), else None
    (a game, read as one)."""
    from ..io.decks import looks_like_json
    from ..io.jsonpos import load_json
    from ..real.refutation import is_refutation
    if not looks_like_json(text):
        return None
    data = load_json(text, name, "the game")
    return data if is_refutation(data) else None


def _verify_refutation(ctx, deck: Deck, in_deck: Replay | None, data, text: str, path: str,
                       as_json: bool, live: dict) -> None:
    """``verify DECK REFUTATION``: walk the refutation again from its position (the
    deal, or the state after the file's ``position`` actions)."""
    from ..real import refutation as refute
    name = display_name(path)
    goal, table = refute.from_data(data, name, text)
    position = refute.position_of(data, text, name)
    rules = game_rules(live, in_deck, deck, path)
    used, error = 0, None
    try:
        start = Game.after(deck, rules, position)
    except IllegalMove as exc:
        error = f"the refuted position cannot be reached: {exc}"
    if error is None:
        try:
            used = refute.check(start, goal, table)
        except refute.RefutationError as exc:
            error = str(exc)
    if as_json:
        echo_json({"verified": error is None, "goal": goal, "position": len(position),
                   "refuted_states": len(table), "used": used, "error": error,
                   "rules": _rules_json(rules)} | _any_deck_json(deck, rules))
    else:
        click.echo(f"c deck: {deck_summary(deck)}")
        click.echo(_rules_line(rules))
        _echo_any_deck(deck, rules)
        where = f"after {len(position)} actions" if position else "from the deal"
        click.echo("s VERIFIED" if error is None else "s REJECTED")
        if error is None:
            click.echo(f"c refutation: no game {where} reaches {goal} ({used:,} of "
                       f"{len(table):,} refuted states used, every legal action followed)")
        else:
            click.echo(f"c reason: {error}")
    ctx.exit(0 if error is None else 1)


def _first_difference(a: Deck, b: Deck) -> str:
    if a.N != b.N:
        return f"{a.N} cards against {b.N}"
    i = next(i for i, (x, y) in enumerate(zip(a.cards, b.cards)) if x != y)
    return f"card #{i} is {a.cards[i]} against {b.cards[i]}"
