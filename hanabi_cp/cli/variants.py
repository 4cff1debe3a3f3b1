"""``hanabi-cp variants``: hanab.live's variants, and which of them hanabi-cp plays."""

from __future__ import annotations

import click

from .common import command, echo_json


@command("variants")
@click.argument("words", nargs=-1, metavar="[WORD]...")
@click.option("--all", "show_all", is_flag=True,
              help="Also the variants hanabi-cp refuses, each with the rule it lacks.")
@click.option("--json", "as_json", is_flag=True, help="Print the list as JSON.")
def variants_cmd(words, show_all, as_json):
    """List hanab.live's variants that hanabi-cp supports (name, suits, cards, maximum
    score): every one whose rules the referee and the exact methods model (the deck,
    which cards a clue touches, and the rules of Up or Down, Sudoku, Throw It in a
    Hole, Clue Starved, Orange, Alternating Clues and reversed suits): all of
    hanab.live's list.  WORDs keep the names that contain them all (case-insensitive).

    \b
    Examples:
      hanabi-cp variants rainbow
      hanabi-cp variants --all "up or down"
    """
    from ..real.variants.catalogue import all_variants
    everything = all_variants()
    picked = [v for v in everything
              if all(w.lower() in v.name.lower() for w in words)
              and (show_all or v.unsupported() is None)]
    supported = sum(v.unsupported() is None for v in everything)
    if as_json:
        echo_json([{"name": v.name, "suits": [s.name for s in v.suits],
                    "cards": len(v.deck_cards()), "max_score": v.max_score,
                    "supported": v.unsupported() is None, "refused": v.unsupported()}
                   for v in picked])
        return
    click.echo(f"c {supported} of hanab.live's {len(everything)} variants supported; "
               f"{len(picked)} listed")
    for v in picked:
        why = v.unsupported()
        suits = ", ".join(s.name for s in v.suits)
        line = f"{v.name}  |  {suits}  |  {len(v.deck_cards())} cards, max {v.max_score}"
        click.echo(line if why is None else f"{line}  |  refused: {why}")
