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
    from ..real.variants.catalogue import listing_json, matching, supported_variants
    picked = matching(words, refused=show_all)
    if as_json:
        echo_json([listing_json(v) for v in picked])
        return
    from ..real.variants.catalogue import all_variants
    click.echo(f"c {len(supported_variants())} of hanab.live's {len(all_variants())} variants "
               f"supported; {len(picked)} listed")
    for v in picked:
        why = v.unsupported()
        suits = ", ".join(s.name for s in v.suits)
        line = f"{v.name}  |  {suits}  |  {len(v.deck_cards())} cards, max {v.max_score}"
        click.echo(line if why is None else f"{line}  |  refused: {why}")
