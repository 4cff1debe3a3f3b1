"""``show`` draws a deck and a play sequence: SVG, PNG or a step-through HTML replay."""

from __future__ import annotations

import os

import click

from ..errors import UsageError
from ..formats.textio import printable
from ..limits import effective_hand
from .common import MethodChoice, check_outputs, command, deck_argument, force_option, hand_option, \
    load_deck
from .numbers import Integer, Seconds


@command("show")
@deck_argument
@hand_option
@click.option("--certificate", default=None, metavar="FILE",
              help="Play sequence to draw (any file `verify` reads). The referee replays it "
                   "first; an illegal one is drawn up to its first illegal step, marked.")
@click.option("--solve", "do_solve", is_flag=True,
              help="Solve the deck and draw the certificate, or the reason of a loss.")
@click.option("--method", default=None, type=MethodChoice(), help="Method for --solve [default: auto].")
@click.option("--time-limit", type=Seconds(), default=None,
              metavar="S", help="Seconds for --solve; on expiry the deck is drawn as UNKNOWN.")
@click.option("--from", "first", type=Integer(1), default=None, metavar="I",
              help="First card drawn (1-based; default 1).")
@click.option("--to", "last", type=Integer(1), default=None, metavar="J",
              help="Last card drawn (inclusive; default the last card).")
@click.option("-o", "--output", required=True, metavar="OUT",
              help="Picture file; its extension chooses the format: .svg, .png or .html.")
@force_option
def show_cmd(deck, hand, certificate, do_solve, method, time_limit, first, last, output, force):
    """Draw DECK: one row per color, one column per card, with a play sequence's
    plays, stores, discards, hand and piles.

    Windows of more than 240 cards are drawn aggregated (bins of cards; the title
    says so); --from/--to pick a card-by-card window.  Decks written by `reduce`
    get their gadgets labelled along the top.  OUT ending in .html is a
    self-contained replay (no network): arrow keys or buttons step card by card.

    \b
    Example (run from a clone's root: instances/ is the repository's):
      hanabi-cp show instances/standard-winnable-h2.txt --solve -o win.png
      hanabi-cp show instances/standard-unwinnable-h2.txt --solve -o lost.svg
      hanabi-cp show instances/standard-winnable-h2.txt --solve -o replay.html
    """
    from ..show import render, scene

    if output == "-":
        raise UsageError("show: -o -: pictures are written to a file, not to stdout")
    fmt = render.format_of(output)
    if certificate is not None and do_solve:
        raise UsageError("show: use --certificate FILE or --solve, not both")
    if (method is not None or time_limit is not None) and not do_solve:
        raise UsageError("show: --method and --time-limit go with --solve")
    check_outputs("show", {"-o": output}, force, {"DECK": deck, "--certificate": certificate})
    deck_file = load_deck(deck)
    the_deck = deck_file.deck
    h = hand if hand is not None else deck_file.h
    if h is not None:                  # the hand panel draws h slots: h >= N is h = N
        h = effective_hand(h, the_deck.N)
    if h is None and (certificate is not None or do_solve):
        raise UsageError(f"{deck_file.path}: no hand size given: pass --hand H "
                         "(or put a line `h H` in the deck file)")
    lo, hi = scene.window(the_deck, first, last)
    name = printable(os.path.basename(deck)) if deck != "-" else "<stdin>"   # a title
    if certificate is not None:
        from ..formats import read_plays
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


def _detail_max() -> int:
    from ..show.figure import DETAIL_MAX
    return DETAIL_MAX


def _solved(deck, h, name, roles, lo, hi, method, time_limit):
    from ..show import scene
    from ..solvers import SolveOptions, solve
    out = solve(deck, h, method, SolveOptions(time_limit=time_limit))
    status = f"{out.status.value} (method {out.method})"
    if out.plays is None:
        return scene.make(deck, h, name, roles, lo, hi, status=status, reason=out.reason)
    return scene.make(deck, h, name, roles, lo, hi, out.plays, source="its certificate",
                      status=status, reason=out.reason)


COMMANDS = [show_cmd]
