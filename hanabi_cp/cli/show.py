"""``show`` draws a deck and a play sequence, or a real game and its post-mortem:
SVG, PNG or a step-through HTML replay."""

from __future__ import annotations

import os

import click

from ..core.errors import UsageError
from ..io.textio import printable
from ..runtime.limits import effective_hand
from ..io.outputs import check_outputs
from ..core.status import spelled
from .common import REASON_FLAGS, MethodChoice, command, command_deadline, force_option, hand_option, load_deck
from .numbers import MAX_PLAYERS, MIN_PLAYERS, Integer, Seconds


class AnyMethod(MethodChoice):
    """The solitaire methods (for a deck) and the real-rules ones (for a game)."""

    @property
    def choices(self):
        from ..real.solve import live_methods
        return tuple(dict.fromkeys([*super().choices, *sorted(live_methods())]))

    @choices.setter
    def choices(self, value) -> None:
        pass


@command("show")
@click.argument("deck", metavar="DECK|GAME")
@hand_option
@click.option("--certificate", default=None, metavar="FILE",
              help="Play sequence to draw (any file `verify` reads). The referee replays it "
                   "first; an illegal one is drawn up to its first illegal step, marked.")
@click.option("--solve", "do_solve", is_flag=True,
              help="Solve the deck and draw the certificate, or the reason of a loss.")
@click.option("--method", default=None, type=AnyMethod(),
              help="Method for --solve, or the real-rules method for each position of a "
                   "GAME [default: auto].")
@click.option("--time-limit", type=Seconds(), default=None,
              metavar="S", help="Seconds for --solve (on expiry the deck is drawn as "
                                "UNKNOWN), or for a GAME's whole post-mortem (positions not "
                                "reached are drawn undecided).")
@click.option("--from", "first", type=Integer(1), default=None, metavar="I",
              help="First card drawn (1-based; default 1).")
@click.option("--to", "last", type=Integer(1), default=None, metavar="J",
              help="Last card drawn (inclusive; default the last card).")
@click.option("--deck", "deck_path", default=None, metavar="DECK",
              help="The deck, for a GAME that is a bare list of actions.")
@click.option("--players", type=Integer(MIN_PLAYERS, MAX_PLAYERS), default=None, metavar="P",
              help="Players, for a GAME that does not list them.")
@click.option("--position-limit", type=Seconds(), default=None,
              metavar="S", help="Seconds at most for one position of a GAME's post-mortem "
                                "(an undecided one is drawn so) [default: 10].")
@click.option("-o", "--output", required=True, metavar="OUT",
              help="Picture file; its extension chooses the format: .svg, .png or .html.")
@force_option
def show_cmd(deck, hand, certificate, do_solve, method, time_limit, first, last, deck_path,
             players, position_limit, output, force):
    """Draw DECK: one row per color, one column per card, with a play sequence's
    plays, stores, discards, hand and piles; or draw GAME, a real game, with its
    post-mortem (the best score still reachable after every action).

    Windows of more than 240 cards are drawn aggregated (bins of cards; the title
    says so); --from/--to pick a card-by-card window.  Decks written by `reduce`
    get their gadgets labelled along the top.  OUT ending in .html is a
    self-contained replay (no network): arrow keys or buttons step card by card.

    GAME is a hanab.live export, a certificate of `solve --rules live`, a game of
    `play --replay` (JSON with "actions"), or a bare list of actions with --deck.
    Its picture shows the score, the best score still reachable and hanab.live's
    "max score" indicator over the turns, with the actions that lost points
    numbered and listed; its HTML replay steps through the game's positions
    (hands, piles, discards, tokens, strikes, that chart).

    \b
    Example (run from a clone's root: instances/ is the repository's):
      hanabi-cp show instances/standard-winnable-h2.txt --solve -o win.png
      hanabi-cp show instances/standard-unwinnable-h2.txt --solve -o lost.svg
      hanabi-cp show instances/standard-winnable-h2.txt --solve -o replay.html
      hanabi-cp play instances/standard-winnable-h2.txt --players 4 --replay game.json
      hanabi-cp show game.json -o game.png
      hanabi-cp show game.json -o game.html
    """
    from ..show import render, scene

    if output == "-":
        raise UsageError("show: -o -: pictures are written to a file, not to stdout")
    fmt = render.format_of(output)
    from ..show import game
    if deck_path is not None or game.is_game_file(deck):
        given = [flag for flag, value in (("--hand", hand), ("--certificate", certificate),
                                           ("--solve", do_solve or None), ("--from", first),
                                           ("--to", last)) if value is not None]
        if given:
            raise UsageError(f"show: {', '.join(given)}: for a DECK; {deck} is a GAME "
                             "(a real game), drawn with its post-mortem")
        _show_game(deck, deck_path, players, method, position_limit, time_limit, output,
                   fmt, force)
        return
    if players is not None or position_limit is not None:
        raise UsageError(f"show: --players and --position-limit go with a GAME (a real "
                         f"game); {deck} is a deck")
    if method is not None and method not in MethodChoice().choices:
        raise UsageError(f"show: --method {method} is a real-rules method; for a deck use "
                         f"one of {', '.join(MethodChoice().choices)}")
    if certificate is not None and do_solve:
        raise UsageError("show: use --certificate FILE or --solve, not both")
    if (method is not None or time_limit is not None) and not do_solve:
        raise UsageError("show: --method and --time-limit go with --solve")
    check_outputs("show", {"-o": output}, force, {"DECK": deck, "--certificate": certificate})
    deck_file = load_deck(deck)
    the_deck = deck_file.deck
    # a play needs a hand size; a bare deck is drawn without one if none is known
    h = deck_file.hand(hand) if certificate is not None or do_solve else \
        hand if hand is not None else deck_file.h
    if h is not None:                  # the hand panel draws h slots: h >= N is h = N
        h = effective_hand(h, the_deck.N)
    lo, hi = scene.window(the_deck, first, last)
    name = printable(os.path.basename(deck)) if deck != "-" else "<stdin>"   # a title
    if certificate is not None:
        from ..solitaire.play_text import read_plays
        plays = read_plays(certificate)
        view = scene.make(the_deck, h, name, deck_file.roles, lo, hi, plays,
                          source=f"the play sequence {printable(certificate)}", path=certificate)
    elif do_solve:
        view = _solved(the_deck, h, name, deck_file.roles, lo, hi, method or "auto", time_limit)
    else:
        view = scene.make(the_deck, h, name, deck_file.roles, lo, hi)
    render.write_bytes(output, render.render(view, fmt), force)
    how = "card by card" if fmt == ".html" or view.width <= _detail_max() else "aggregated"
    click.echo(f"show: {output}: {view.width} of {the_deck.N} cards, {how}; {view.verdict}", err=True)


def _show_game(path, deck_path, players, method, position_limit, time_limit, output, fmt,
               force) -> None:
    from ..real.postmortem.report import POSITION_LIMIT
    from ..real.solve import live_methods
    from ..show import game, render
    method = method or "auto"
    if method != "auto" and method not in live_methods():
        raise UsageError(f"show: --method {method} is not a real-rules method; for a GAME "
                         f"use one of auto, {', '.join(sorted(live_methods()))}")
    check_outputs("show", {"-o": output}, force, {"GAME": path, "--deck": deck_path})
    deadline = command_deadline(time_limit)
    view = game.load(path, deck_path, players, method,
                     POSITION_LIMIT if position_limit is None else position_limit, deadline)
    render.write_bytes(output, render.render_game(view, fmt), force)
    click.echo(f"show: {output}: {view.name}: {view.summary}", err=True)


def _detail_max() -> int:
    from ..show.figure import DETAIL_MAX
    return DETAIL_MAX


def _solved(deck, h, name, roles, lo, hi, method, time_limit):
    from ..show import scene
    from ..core.options import SolveOptions
    from ..solitaire.solve import solve
    out = solve(deck, h, method, SolveOptions(time_limit=time_limit))
    status = f"{out.status.value} (method {out.method})"
    reason = spelled(out.reason, REASON_FLAGS)
    if out.plays is None:
        return scene.make(deck, h, name, roles, lo, hi, status=status, reason=reason)
    return scene.make(deck, h, name, roles, lo, hi, out.plays, source="its certificate",
                      status=status, reason=reason)
