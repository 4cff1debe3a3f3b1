"""The step-through replay: one self-contained HTML file (inline script and style,
no network).  The page gets the window's cards and actions and the state before the
window; its script replays the actions as the referee does (stored playable cards
play at once, stored cards leave by cascade), and its self-test
(``window.hanabiSelfTest()``, or ``#selftest`` in the URL) checks that replay against
the hand counts and final piles computed here by ``timeline``.
"""

from __future__ import annotations

import html
import json

from .html_template import TEMPLATE
from .palette import ACTION, ALARM, color_hex, ink_on, row_name
from .scene import Scene
from .spans import gadget_spans, part_spans, variable_rows


def data(scene: Scene) -> dict:
    """What the page's script needs, positions relative to the window's start."""
    deck, tl, lo, hi = scene.deck, scene.timeline, scene.lo, scene.hi
    names = variable_rows(scene.roles, deck.cards) if scene.roles else {}
    cards = [x for card in deck.cards[lo:hi] for x in card]
    out: dict = {
        "head": heading(scene), "verdict": scene.verdict, "reason": scene.reason or "",
        "n": deck.n, "c": deck.c, "h": scene.h, "N": deck.N, "lo": lo, "hi": hi, "cards": cards,
        "colors": [color_hex(k, deck.c, names) for k in range(1, deck.c + 1)],
        "ink": [ink_on(color_hex(k, deck.c, names)) for k in range(1, deck.c + 1)],
        "rows": [row_name(k, deck.c, names) for k in range(1, deck.c + 1)],
        "actionColors": ACTION, "alarm": ALARM,
        "actions": "", "stop": None, "stopError": "", "start": {"piles": [0] * deck.c, "hand": []},
        "handCounts": [], "finalPiles": [0] * deck.c,
        "gadgets": [], "parts": [], "witness": None, "witnessText": "", "witnessCards": [],
    }
    if scene.roles:
        out["gadgets"] = [[s.start - lo, s.end - lo, s.label] for s in gadget_spans(scene.roles, lo, hi)]
        out["parts"] = [[s.start - lo, s.end - lo, s.label] for s in part_spans(scene.roles, lo, hi)]
    wit = scene.witness
    if wit.position is not None and lo <= wit.position < hi:
        out["witness"] = wit.position - lo
        out["witnessCards"] = [t - lo for t in range(lo, wit.position + 1) if deck.cards[t] in wit.cards]
        out["witnessText"] = (f"after card #{wit.position + 1} every win must hold {wit.needed} cards; "
                              f"h = {scene.h}")
    if tl is not None:
        end = min(hi, tl.steps)
        out["actions"] = tl.actions[lo:end]
        if tl.stop is not None and lo <= tl.stop < hi:
            out["stop"], out["stopError"] = tl.stop - lo, tl.error or ""
        out["start"] = {"piles": tl.piles_after(lo - 1),
                        "hand": [list(deck.cards[x.index]) for x in tl.holds
                                 if x.start < lo and (x.end is None or x.end >= lo)]}
        out["handCounts"] = list(tl.hand[lo:end])
        out["finalPiles"] = tl.piles_after(end - 1) if end > lo else tl.piles_after(lo - 1)
    return out


def heading(scene: Scene) -> str:
    d = scene.deck
    hand = "" if scene.h is None else f", h = {scene.h}"
    return (f"{scene.name}: n = {d.n}, c = {d.c}, r = {d.r}{hand}; "
            f"cards {scene.lo + 1:,}..{scene.hi:,} of {d.N:,}")


def page(scene: Scene) -> str:
    payload = json.dumps(data(scene), separators=(",", ":"), ensure_ascii=True)
    # Inside <script>, "</" could end the element early; JSON allows "<\/".
    payload = payload.replace("</", "<\\/")
    title = html.escape(f"{scene.name}: hanabi-cp replay")
    return TEMPLATE.replace("__TITLE__", title).replace("__DATA__", payload)
