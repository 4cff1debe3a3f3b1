"""The aggregated picture of a wide window (more than ``figure.DETAIL_MAX`` cards).

The window is cut into at most ``BINS`` bins of equal width; each panel shows per
bin what the card-by-card figure shows per card: how many cards of each color
(shade), the share of plays, stores and discards, the most cards held, and each
pile's level at the bin's end.  Gadgets are labelled as far as their span allows.
The title says the bin width, so nobody mistakes a bin for a card.
"""

from __future__ import annotations

from typing import cast

import numpy as np
from matplotlib.axes import Axes
from matplotlib.colors import to_rgb
from matplotlib.figure import Figure

from .layout import LEFT, RIGHT, draw_spans, stack, title
from .palette import ACTION, ACTION_WORD, ALARM, color_hex, row_name
from .scene import Scene
from .spans import gadget_spans, merge_narrow, variable_rows
from .timeline import Timeline

BINS = 700
WIDTH = 13.0              # inches
LINES_MAX = 12            # colors drawn as pile lines; more as a level map
NARROW = 0.12             # inches: narrower gadget spans are merged into one labelled run


def binning(width: int, bins: int = BINS) -> tuple[int, int]:
    """(cards per bin, number of bins) covering ``width`` cards.

    >>> binning(220564), binning(1000), binning(700)
    ((316, 698), (2, 500), (1, 700))
    """
    size = -(-width // bins)
    return size, -(-width // size)


def draw(scene: Scene) -> Figure:
    deck, tl, lo, hi = scene.deck, scene.timeline, scene.lo, scene.hi
    names = variable_rows(scene.roles, deck.cards) if scene.roles else {}
    size, nbins = binning(scene.width)
    c = deck.c
    grid_h = min(4.5, max(1.2, 0.1 * c))
    panels = [("roles", 0.3)] if scene.roles else []
    panels.append(("grid", grid_h))
    if tl is not None:
        panels += [("actions", 0.5), ("occupancy", 0.5),
                   ("piles", 1.3 if c <= LINES_MAX else grid_h / 2)]
    right = 0.75 if tl is not None and c > LINES_MAX else RIGHT     # room for the color bar
    fig, ax = stack(WIDTH, panels, right=right)
    title(fig, scene, f"aggregated: {nbins} bins of {size} card{'s' if size > 1 else ''}")
    xmax = lo + nbins * size
    per_inch = (WIDTH - LEFT - right) / scene.width
    if scene.roles:
        spans = merge_narrow(gadget_spans(scene.roles, lo, hi), NARROW / per_inch)
        draw_spans(ax["roles"], [spans], lo, hi, per_inch)
    cards = np.array(deck.cards[lo:hi], dtype=np.int64).reshape(-1, 2)
    bin_of = np.arange(scene.width) // size
    counts = np.zeros((c, nbins))
    np.add.at(counts, (cards[:, 1] - 1, bin_of), 1)
    _shade(ax["grid"], counts / typical(counts), scene, names, xmax)
    ax["grid"].set_ylabel("cards per bin\n(full shade: the\ncolor's median bin)", fontsize=7)
    if tl is not None:
        _actions(ax["actions"], tl, scene, size, nbins)
        _occupancy(ax["occupancy"], tl, scene, size, nbins)
        levels = _levels(tl, scene, size, nbins)
        if c <= LINES_MAX:
            _pile_lines(ax["piles"], levels, scene, names, size)
        else:
            _level_map(fig, ax["piles"], levels, scene, names, xmax)
    bottom = ax["piles" if tl is not None else "grid"]
    bottom.set_xlabel("card number (deck order)", fontsize=8)
    bottom.tick_params(labelsize=7)
    for name, a in ax.items():
        a.set_xlim(lo - 0.5, xmax - 0.5)
        if a is not bottom and name != "roles":
            a.set_xticks([])
        _mark(a, scene)
    return fig


def typical(counts: np.ndarray) -> np.ndarray:
    """Per row, the median of its non-empty bins (a column vector, at least 1): a few
    dense bins (the padding) must not wash out the rest of the row.

    >>> typical(np.array([[0, 2, 4, 100], [0, 0, 0, 0]])).ravel().tolist()
    [4.0, 1.0]
    """
    med = [float(np.median(row[row > 0])) if row.any() else 1.0 for row in counts]
    return np.maximum(1.0, np.array(med))[:, None]


def _mark(ax: Axes, scene: Scene) -> None:
    tl, wit = scene.timeline, scene.witness
    for where in (None if tl is None else tl.stop, wit.position):
        if where is not None and scene.lo <= where < scene.hi:
            ax.axvline(where + 0.5, color=ALARM, lw=1.2)


def _shade(ax: Axes, share: np.ndarray, scene: Scene, names: dict[int, str], xmax: int) -> None:
    """Rows of colors, each color's own hue with opacity ``share`` (0..1) per bin."""
    c = scene.deck.c
    rgba = np.ones(share.shape + (4,))
    for k in range(1, c + 1):
        rgba[k - 1, :, :3] = to_rgb(color_hex(k, c, names))
    rgba[:, :, 3] = np.clip(share, 0, 1)
    ax.imshow(rgba, aspect="auto", interpolation="nearest",
              extent=(scene.lo - 0.5, xmax - 0.5, c + 0.5, 0.5))
    _row_ticks(ax, c, names)


def _row_ticks(ax: Axes, c: int, names: dict[int, str]) -> None:
    """Row labels, as many as fit 7 points apart."""
    fig = cast(Figure, ax.get_figure())       # our axes sit on a Figure, never a SubFigure
    room = ax.get_position().height * fig.get_figheight() * 72 / 7
    every = max(1, -(-c // max(1, int(room))))
    rows = list(range(1, c + 1, every))
    ax.set_yticks(rows, [row_name(k, c, names) for k in rows], fontsize=6)
    ax.tick_params(axis="y", length=0)


def _level_map(fig: Figure, ax: Axes, levels: np.ndarray, scene: Scene, names: dict[int, str],
               xmax: int) -> None:
    c = scene.deck.c
    image = ax.imshow(levels, aspect="auto", interpolation="nearest", cmap="viridis", vmin=0,
                      vmax=max(1, scene.deck.n), extent=(scene.lo - 0.5, xmax - 0.5, c + 0.5, 0.5))
    _row_ticks(ax, c, names)
    ax.set_ylabel("pile level", fontsize=8)
    box = ax.get_position()
    cax = fig.add_axes((box.x1 + 0.005, box.y0, 0.008, box.height))
    bar = fig.colorbar(image, cax=cax)
    bar.ax.tick_params(labelsize=6)


def _by_bin(values: np.ndarray, size: int, nbins: int, fill: float = 0.0) -> np.ndarray:
    """``values`` per card -> (nbins, size), padded with ``fill`` past the end."""
    out = np.full(nbins * size, fill)
    out[:len(values)] = values
    return out.reshape(nbins, size)


def _actions(ax: Axes, tl: Timeline, scene: Scene, size: int, nbins: int) -> None:
    acts = np.frombuffer(tl.actions[scene.lo:min(scene.hi, tl.steps)].encode(), dtype=np.uint8)
    x = scene.lo - 0.5 + np.arange(nbins + 1) * size
    below = np.zeros(nbins)
    for letter in "PSD":
        share = _by_bin((acts == ord(letter)).astype(float), size, nbins).sum(axis=1) / size
        ax.fill_between(x, np.append(below, below[-1]), np.append(below + share, (below + share)[-1]),
                        step="post", color=ACTION[letter], lw=0, label=ACTION_WORD[letter])
        below += share
    ax.set_ylim(0, 1)
    ax.set_yticks([0, 1], ["0", "all"], fontsize=6)
    ax.set_ylabel("actions", fontsize=8)
    ax.legend(loc="upper right", fontsize=6, ncol=3, frameon=True, framealpha=0.8)


def _occupancy(ax: Axes, tl: Timeline, scene: Scene, size: int, nbins: int) -> None:
    held = np.array(tl.hand[scene.lo:min(scene.hi, tl.steps)], dtype=float)
    x = scene.lo - 0.5 + np.arange(nbins + 1) * size
    most = _by_bin(held, size, nbins).max(axis=1)
    cards = _by_bin(np.ones_like(held), size, nbins).sum(axis=1)
    mean = _by_bin(held, size, nbins).sum(axis=1) / np.maximum(cards, 1)
    ax.fill_between(x, 0, np.append(most, most[-1]), step="post", color="#7986cb", lw=0,
                    label="most held in the bin")
    ax.step(x, np.append(mean, mean[-1]), where="post", color="#1a237e", lw=0.7, label="mean")
    h = tl.h
    ax.axhline(h, color="#333333", lw=0.8, ls="--")
    ax.set_ylim(0, max(h, 1) + 0.3)
    ax.set_yticks(sorted({0, h}), [str(v) if v != h else f"h = {h}" for v in sorted({0, h})], fontsize=6)
    ax.set_ylabel("held", fontsize=8)
    ax.legend(loc="upper right", fontsize=6, ncol=2, frameon=True, framealpha=0.8)


def _levels(tl: Timeline, scene: Scene, size: int, nbins: int) -> np.ndarray:
    """Pile level of each color at the end of each bin (levels only rise: a running max)."""
    marks = np.zeros((scene.deck.c, nbins))
    marks[:, 0] = tl.piles_after(scene.lo - 1)
    for t, k, level in tl.rises:
        if scene.lo <= t < min(scene.hi, tl.steps):
            b = (t - scene.lo) // size
            marks[k - 1, b] = max(marks[k - 1, b], level)
    return np.maximum.accumulate(marks, axis=1)


def _pile_lines(ax: Axes, levels: np.ndarray, scene: Scene, names: dict[int, str], size: int) -> None:
    c, nbins = levels.shape
    x = scene.lo - 0.5 + np.arange(nbins + 1) * size
    for k in range(c):
        ax.step(x, np.append(levels[k], levels[k, -1]), where="post", lw=1.2,
                color=color_hex(k + 1, scene.deck.c, names))
    ax.set_ylim(-0.3, scene.deck.n + 0.5)
    ax.set_ylabel("piles", fontsize=8)
