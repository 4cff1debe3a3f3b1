"""The post-mortem of a real game as a picture (matplotlib): points over the turns.

One x position per game position (0: the deal, k: after the k-th action).  The
score (the piles) rises as a step line; the best score still reachable (exact,
from ``real.postmortem``) falls where an action lost points; hanab.live's "max
score" indicator, which reads only the discards, is dashed above it; a position
left undecided is a shaded band from its lower to its upper bound.  Each drop is
a numbered red marker, and the numbers are listed under the plot with the turn,
the player and the action, so labels never collide however many drops there are.
"""

from __future__ import annotations

import math

from matplotlib.artist import Artist
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.patches import Patch

from .game import GameView, bounds, deck_empty_at, label, positions
from .palette import ALARM

SCORE, BEST, MAX, BAND = "#424242", "#1565c0", "#ef6c00", "#90caf9"
PLOT_H = 3.4                    # inches
LINE_H = 0.19                   # inches per line of the drop list
LEFT, RIGHT, TOP = 0.7, 0.3, 1.05
TIERS = 4                       # rows of drop numbers at most (then they may touch)
COLUMN_CHARS = 58               # a drop-list column is this many characters wide


def width(positions: int) -> float:
    """Inches: about a tenth of an inch per position, between 8 and 16.

    >>> width(10), width(60), width(200)
    (8.0, 10.5, 16.0)
    """
    return min(16.0, max(8.0, 4.5 + 0.1 * positions))


def draw(view: GameView) -> Figure:
    rows = view.post.rows
    w = width(len(rows))
    drops = view.post.drops
    states = positions(view)
    handles = _handles(view, states)
    # the legend is one row over the plot, two if one row would be wider than it
    chars = sum(len(str(h.get_label())) for h in handles)
    legend_rows = 1 if chars * 0.058 + 0.55 * len(handles) <= w - LEFT - RIGHT else 2
    top = TOP + 0.2 * (legend_rows - 1)
    columns = max(1, min(3, int((w - 0.4) * 72 / (COLUMN_CHARS * 6.0))))
    lines = math.ceil(len(drops) / columns) if drops else 1
    bottom = 0.75 + LINE_H * (lines + 1)
    height = top + PLOT_H + bottom
    fig = Figure(figsize=(w, height))
    ax = fig.add_axes((LEFT / w, bottom / height, (w - LEFT - RIGHT) / w, PLOT_H / height))
    _title(fig, view)
    _plot(ax, view, states)
    ax.legend(handles=handles, loc="lower left", bbox_to_anchor=(0.0, 1.0),
              ncol=math.ceil(len(handles) / legend_rows), fontsize=7.5, frameon=False,
              borderaxespad=0.2, handlelength=2.2, columnspacing=1.4)
    _drop_list(fig, view, columns, (bottom - 0.62) / height)
    return fig


def _title(fig: Figure, view: GameView) -> None:
    h, x = fig.get_figheight(), LEFT / fig.get_figwidth()
    fig.text(x, 1 - 0.1 / h, view.heading, ha="left", va="top", fontsize=10, fontweight="bold")
    fig.text(x, 1 - 0.32 / h, view.rules.describe(), ha="left", va="top", fontsize=8.5,
             color="#444444")
    fig.text(x, 1 - 0.5 / h, view.outcome, ha="left", va="top", fontsize=8.5)


def _plot(ax: Axes, view: GameView, states: list[dict]) -> None:
    rows, post = view.post.rows, view.post
    xs = [r.position for r in rows]
    last = xs[-1]
    top = post.target
    ax.set_xlim(-0.5, last + 0.5)
    ax.set_yticks(range(0, top + 1, 5 if top > 12 else 1))
    ax.tick_params(labelsize=8)
    ax.grid(axis="y", color="#e6e6e6", lw=0.6)
    ax.set_axisbelow(True)
    for spine in ("top", "right"):
        ax.spines[spine].set_visible(False)
    ax.set_xlabel("turn (position after that action; 0: the deal)", fontsize=8)
    ax.set_ylabel("points", fontsize=8)
    ax.set_xticks(_ticks(last))
    # position k is the column k - 0.5 .. k + 0.5 (its tick in the middle), so an
    # action's change shows at the left edge of the column of the position it made
    ends = [x - 0.5 for x in xs] + [last + 0.5]

    def steps(values):
        return values + [values[-1]]

    empty = deck_empty_at(states, view.deck.N)
    if empty is not None and 0 < empty < last:
        ax.axvline(empty - 0.5, color="#9e9e9e", lw=0.8, ls=":")
        ax.text(empty - 0.2, 0.4, "deck empty", fontsize=7, color="#757575", ha="left",
                va="bottom", rotation=90)
    for r in (r for r in rows if r.best is None):      # a bar each: runs need no stitching
        lo, hi = bounds(view, r)
        ax.bar(r.position, max(hi - lo, 0.15), bottom=lo, width=1.0, align="center",
               color=BAND, alpha=0.7, lw=0, zorder=1)
    best = [r.best if r.best is not None else math.nan for r in rows]
    ax.step(ends, steps(best), where="post", color=BEST, lw=2.0, zorder=3)
    # over the best line: where the indicator is right the two coincide, and its
    # dashes must still show
    ax.step(ends, steps([r.hanablive_max for r in rows]), where="post", color=MAX, lw=1.3,
            ls=(0, (4, 2.5)), zorder=4)
    ax.step(ends, steps([r.score for r in rows]), where="post", color=SCORE, lw=1.4, zorder=2)
    box = width(len(rows)) - LEFT - RIGHT
    _mark_drops(ax, view, last, box)       # sets the y limits: room for the numbers
    _mark_strikes(ax, view, states)


def _ticks(last: int) -> list[int]:
    step = next(s for s in (1, 2, 5, 10, 20, 50, 100, 200) if last / s <= 20)
    return list(range(0, last + 1, step))


def _mark_drops(ax: Axes, view: GameView, last: int, box: float) -> None:
    """A red segment from the best score before to after, a marker at the fall, and
    the drop's number above, lifted a tier when it would touch its neighbour's."""
    top = view.post.target
    gap = 0.26 / (box / (last + 1))      # positions a two-digit number needs (box: inches)
    placed: list[tuple[float, int]] = []
    for i, d in enumerate(view.post.drops, 1):
        x = d.position - 0.5
        ax.plot([x, x], [d.before, d.after], color=ALARM, lw=1.6, zorder=5)
        ax.plot([x], [d.after], marker="v", color=ALARM, markersize=6, zorder=6)
        tier = 0
        while tier < TIERS - 1 and any(abs(x - px) < gap and pt == tier for px, pt in placed):
            tier += 1
        placed.append((x, tier))
        y = top + 1.0 + 0.8 * tier
        ax.text(x, y, str(i), ha="center", va="center", fontsize=7, color="white",
                fontweight="bold", zorder=7,
                bbox={"boxstyle": "circle,pad=0.2", "facecolor": ALARM, "edgecolor": "none"})
        ax.plot([x, x], [d.before, y], color=ALARM, lw=0.5, ls=":", zorder=5)
    tiers = max((t for _, t in placed), default=0) + 1
    ax.set_ylim(0, top + 1.6 + 0.8 * tiers)


def strikes_at(states: list[dict]) -> list[int]:
    """The positions reached by a misplay (a strike)."""
    return [k for k in range(1, len(states)) if states[k]["strikes"] > states[k - 1]["strikes"]]


def _mark_strikes(ax: Axes, view: GameView, states: list[dict]) -> None:
    """An X on the score line after each misplay."""
    xs = strikes_at(states)
    ax.plot(xs, [view.post.rows[k].score for k in xs], ls="none", marker="X", color=ALARM,
            markersize=8, markeredgecolor="white", markeredgewidth=0.6, zorder=6)


def _handles(view: GameView, states: list[dict]) -> list[Artist]:
    handles: list[Artist] = [
        Line2D([], [], color=SCORE, lw=1.4, label="score (piles)"),
        Line2D([], [], color=BEST, lw=2.0, label="best score still reachable"),
        Line2D([], [], color=MAX, lw=1.3, ls=(0, (4, 2.5)),
               label="hanab.live's max score (discards only)")]
    if view.undecided:
        handles.append(Patch(facecolor=BAND, alpha=0.6, label="undecided: lower..upper bound"))
    if view.post.drops:
        handles.append(Line2D([], [], color=ALARM, marker="v", lw=1.6,
                              label="an action that lost points"))
    if strikes_at(states):
        handles.append(Line2D([], [], ls="none", marker="X", color=ALARM, markersize=8,
                              markeredgecolor="white", label="strike"))
    return handles


def _drop_list(fig: Figure, view: GameView, columns: int, y0: float) -> None:
    drops = view.post.drops
    h, w = fig.get_figheight(), fig.get_figwidth()
    x0 = LEFT / w
    if not drops:
        fig.text(x0, y0, "no action lowered the best score", fontsize=8, va="top",
                 color="#444444")
        return
    fig.text(x0, y0, "lost points:  (visible or hidden: could the player see it from the clues "
             "and the table; tempo: a turn lost)", fontsize=8, va="top", fontweight="bold")
    per = math.ceil(len(drops) / columns)
    col_w = (w - LEFT - RIGHT) / columns
    for i, d in enumerate(drops):
        col, line = divmod(i, per)
        row = view.post.rows[d.position]
        text = f"{label(view, d)}{', the last copy' if 'the last copy' in row.text else ''}: " \
               f"{d.before} \u2192 {d.after}" + (f" ({row.seen})" if row.seen else "")
        fig.text(x0 + col * col_w / w, y0 - LINE_H * (line + 1) / h, f"{i + 1:>2}  {text}",
                 fontsize=7.5, va="top", ha="left")
