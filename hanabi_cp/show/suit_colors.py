"""Tile colours of hanab.live's suits for the real-game replay page.

Our own choice of colours (not hanab.live's stylesheet), picked so that the suits of
one variant stay apart: a suit named like a colour gets that colour, "Dark" and
"Light" suits a darker or lighter shade of their base, the suits every colour clue
touches (Rainbow, Omni, Prism...) a rainbow gradient, the shades of the ambiguous
variants their own tones, and the dual-colour suits a gradient of their two colours.

>>> fill("Red"), fill("Dark Pink")
(('#d32f2f', 'white'), ('#83345c', 'white'))
>>> fill("Rainbow")[0].startswith("linear-gradient"), fill("Tangerine")[0].count("#")
(True, 2)
"""

from __future__ import annotations

from ..real.variants.suits import REVERSED_SUFFIX, SUITS
from .palette import ink_on

BASE = {
    "Red": "#d32f2f", "Yellow": "#f2c200", "Green": "#2e9d3a", "Blue": "#1e6fd0",
    "Purple": "#7b3fb8", "Teal": "#00a3a3", "Black": "#262626", "Pink": "#ef5fa7",
    "Brown": "#8d5a2b", "Orange": "#f57c00", "White": "#e9e9e9", "Gray": "#8a8a8a",
    "Null": "#bdbdbd", "Light Pink": "#f8bbd9", "Gray Pink": "#c89ab0",
    # the shades of the ambiguous variants: touched by one colour, told apart by tone
    "Tomato": "#ff6347", "Mahogany": "#7b2a22", "Carrot": "#ed7d31", "Emerald": "#12805c",
    "Olive": "#7d7d1a", "Berry": "#3f51b5", "Navy": "#1a2a6c", "Sky": "#5ab4f0",
    "Ice EA": "#a7d8f0", "Aqua EA": "#4fc3c8", "Sky EA": "#5ab4f0", "Berry EA": "#3f51b5",
    "Navy EA": "#1a2a6c", "Ocean EA": "#0d5c8c",
    # the ambiguous mix pairs dual-colour suits of the same two colours: one of each
    # pair (the other a gradient) gets a tone of its own
    "Peach": "#ffb38a", "Magenta": "#da70d6", "Jungle": "#2e6b1f",
}
RAINBOW = ("#d32f2f", "#f2c200", "#2e9d3a", "#1e6fd0", "#7b3fb8")
DARKER = 0.45                    # "Dark" suits: mixed this far towards black


def fill(name: str) -> tuple[str, str]:
    """(CSS background, text colour) of a tile of the suit ``name``."""
    base = name.removesuffix(REVERSED_SUFFIX)
    if base in BASE:
        return BASE[base], ink_on(BASE[base])
    dark = base.startswith("Dark ") or base.startswith("Cocoa ")
    suit = SUITS.get(base)
    if suit is not None and (suit.all_clue_colors or suit.prism):
        stops = [_mix(c, "#000000", DARKER) if dark else c for c in RAINBOW]
        if base.startswith("Muddy ") or base.startswith("Cocoa "):
            stops = [_mix(c, "#8d5a2b", 0.45) for c in stops]
        ink = "white" if dark else "black"
        if suit.prism:             # hard stripes: apart from Rainbow in one variant
            bands = ", ".join(f"{c} {i * 20}% {i * 20 + 20}%" for i, c in enumerate(stops))
            return f"linear-gradient(90deg, {bands})", ink
        if suit.all_clue_ranks:    # Omni: a white core
            stops = [stops[0], stops[1], "#ffffff", stops[3], stops[4]]
        return f"linear-gradient(135deg, {', '.join(stops)})", ink
    plain = base.removeprefix("Dark ")
    if plain in BASE:
        shade = _mix(BASE[plain], "#000000", DARKER) if dark else BASE[plain]
        return shade, ink_on(shade)
    colors = [BASE[c] for c in (suit.clue_colors if suit is not None else ()) if c in BASE]
    if len(colors) == 1:
        return colors[0], ink_on(colors[0])
    if colors:                     # dual-colour and matryoshka suits: horizontal bands
        return f"linear-gradient(180deg, {', '.join(colors)})", "black"
    return "#9e9e9e", "black"


def _mix(a: str, b: str, t: float) -> str:
    """``a`` moved a fraction ``t`` of the way to ``b`` (hex colours).

    >>> _mix("#ff0000", "#000000", 0.5)
    '#800000'
    """
    x = [int(a[i:i + 2], 16) for i in (1, 3, 5)]
    y = [int(b[i:i + 2], 16) for i in (1, 3, 5)]
    return "#" + "".join(f"{round(u + (v - u) * t):02x}" for u, v in zip(x, y))
