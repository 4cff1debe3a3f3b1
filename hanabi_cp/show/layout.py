"""Panel geometry shared by the card-by-card and the aggregated figures.

Panels are stacked top to bottom with heights in inches, all sharing the deck's
x axis (positions), so a column of the grid lines up with the hand and the piles.
"""

from __future__ import annotations

import textwrap

from matplotlib.axes import Axes
from matplotlib.figure import Figure

from .palette import ALARM
from .scene import Scene
from .spans import Span

LEFT, RIGHT = 1.0, 0.35     # inches: row labels on the left, pile labels on the right
GAP = 0.12
TITLE = 0.75


def stack(width: float, panels: list[tuple[str, float]], bottom: float = 0.45,
          right: float = RIGHT) -> tuple[Figure, dict[str, Axes]]:
    """A figure ``width`` inches wide with the named panels stacked under a title."""
    height = TITLE + sum(h for _, h in panels) + GAP * len(panels) + bottom
    fig = Figure(figsize=(width, height))
    axes: dict[str, Axes] = {}
    top = height - TITLE
    for name, h in panels:
        top -= h
        axes[name] = fig.add_axes((LEFT / width, top / height, (width - LEFT - right) / width,
                                   h / height))
        top -= GAP
    return fig, axes


def title(fig: Figure, scene: Scene, how: str) -> None:
    """Three lines: the deck and what is drawn, the verdict, the reason of a loss."""
    d = scene.deck
    where = f"cards {scene.lo + 1:,}..{scene.hi:,} of {d.N:,}" if scene.width < d.N else f"all {d.N:,} cards"
    hand = "" if scene.h is None else f", h = {scene.h}"
    head = f"{scene.name}: n = {d.n}, c = {d.c}, r = {d.r}{hand}; {where}, {how}"
    height = fig.get_figheight()
    fig.text(LEFT / fig.get_figwidth(), 1 - 0.12 / height, head, ha="left", va="top",
             fontsize=10, fontweight="bold")
    fig.text(LEFT / fig.get_figwidth(), 1 - 0.34 / height, scene.verdict, ha="left", va="top",
             fontsize=9)
    if scene.reason:
        chars = max(40, int((fig.get_figwidth() - LEFT) * 15))
        text = textwrap.shorten(scene.reason, chars, placeholder=" ...")
        fig.text(LEFT / fig.get_figwidth(), 1 - 0.54 / height, text, ha="left", va="top",
                 fontsize=9, color=ALARM)


def fits(label: str, cards: float, inches_per_card: float, size: float) -> bool:
    """Does ``label`` at font ``size`` fit over ``cards`` columns?"""
    return len(label) * size * 0.6 <= cards * inches_per_card * 72


def draw_spans(ax: Axes, tiers: list[list[Span]], lo: int, hi: int, inches_per_card: float,
               size: float = 7.0) -> None:
    """Labelled brackets, one tier per row (the first tier on top), like the paper's braces."""
    ax.set_xlim(lo - 0.5, hi - 0.5)
    ax.set_ylim(-0.5, len(tiers) - 0.5)
    ax.axis("off")
    for row, spans in enumerate(tiers):
        y = len(tiers) - 1 - row
        for i, s in enumerate(spans):
            a, b = max(s.start, lo) - 0.45, min(s.end, hi) - 0.55
            shade = "#555555" if i % 2 == 0 else "#999999"
            ax.plot([a, a, b, b], [y - 0.3, y - 0.15, y - 0.15, y - 0.3], color=shade, lw=0.9,
                    solid_capstyle="butt")
            cards = b - a + 0.1
            for label in (s.label, s.short):
                if fits(label, cards, inches_per_card, size):
                    ax.text((a + b) / 2, y - 0.1, label, ha="center", va="bottom",
                            fontsize=size, color="#222222")
                    break
