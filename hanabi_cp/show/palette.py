"""Colors of the game's colors, shared by the figure and the HTML page.

Up to six colors get the game's own (red, yellow, green, blue, white, multicolor,
the order of ``formats.COLOR_LETTERS``); more colors cycle through a qualitative
palette, and the dummy colors of a reduction image are dark gray like the
journal's ``d`` row.
"""

from __future__ import annotations

from ..io import COLOR_LETTERS

GAME = ("#d62728", "#e6b800", "#2ca02c", "#1f77b4", "#b0b0b0", "#9467bd")
MANY = ("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2",
        "#00796b", "#bcbd22", "#17becf", "#aec7e8", "#ffbb78", "#98df8a", "#ff9896",
        "#c5b0d5", "#c49c94", "#f7b6d2", "#dbdb8d", "#9edae5", "#393b79")
DUMMY = "#404040"
ACTION = {"P": "#2e7d32", "S": "#1565c0", "D": "#9e9e9e"}
ACTION_WORD = {"P": "play", "S": "store", "D": "discard"}
ALARM = "#c62828"


def color_hex(k: int, c: int, names: dict[int, str]) -> str:
    """Fill of color ``k`` (1-based) in a deck of ``c`` colors.

    >>> color_hex(1, 5, {}), color_hex(7, 7, {7: "d"}), color_hex(8, 30, {})
    ('#d62728', '#404040', '#00796b')
    """
    if names.get(k) == "d":
        return DUMMY
    if c <= len(GAME) and not names:
        return GAME[k - 1]
    return MANY[(k - 1) % len(MANY)]


def ink_on(fill: str) -> str:
    """Black or white, whichever reads on ``fill``.

    >>> ink_on("#e6b800"), ink_on("#1f77b4")
    ('black', 'white')
    """
    r, g, b = (int(fill[i:i + 2], 16) / 255 for i in (1, 3, 5))
    return "black" if 0.299 * r + 0.587 * g + 0.114 * b > 0.6 else "white"


def row_name(k: int, c: int, names: dict[int, str]) -> str:
    """A row's label: ``3 g`` for the game's colors, ``5 x3`` in a reduction image.

    >>> row_name(3, 5, {}), row_name(5, 7, {5: "x3"}), row_name(9, 30, {})
    ('3 g', '5 x3', '9')
    """
    if k in names:
        return f"{k} {names[k]}"
    if c <= len(COLOR_LETTERS):
        return f"{k} {COLOR_LETTERS[k - 1]}"
    return str(k)


def card_name(a: int, k: int, c: int) -> str:
    """A card as the text deck format writes it: ``4y`` for the game's colors, else ``4:7``.

    >>> card_name(4, 2, 5), card_name(4, 7, 9)
    ('4y', '4:7')
    """
    return f"{a}{COLOR_LETTERS[k - 1]}" if c <= len(COLOR_LETTERS) else f"{a}:{k}"
