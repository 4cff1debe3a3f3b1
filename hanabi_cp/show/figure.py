"""The card-by-card picture (matplotlib): a window of at most ``DETAIL_MAX`` cards.

Panels, top to bottom, on one x axis (deck positions): the gadget spans of a
reduction image; the deck as a grid, one row per color, one cell per card with its
value, and the action row (P play, S store, D discard); the hand, one lane per slot,
each stored card a bar from its store to its cascade; the hand occupancy 0..h; the
pile level of each color.  A loss is drawn where it happens (see ``mark_loss``).
"""

from __future__ import annotations

from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.patches import Patch, Rectangle

from .layout import draw_spans, stack, title
from .palette import ACTION, ACTION_WORD, ALARM, card_name, color_hex, ink_on, row_name
from .scene import Scene
from .spans import gadget_spans, part_spans, variable_rows
from .timeline import Hold, Timeline

DETAIL_MAX = 240          # cards; wider windows are aggregated (see density.py)
CELL = 0.2                # inches per card
ROW = 0.24                # inches per color row
ALL_ROWS_MAX = 12         # more colors than this: only the colors present in the window


def shown_colors(scene: Scene) -> list[int]:
    """All colors of a small deck; else those with a card or a held card in the window."""
    c = scene.deck.c
    if c <= ALL_ROWS_MAX:
        return list(range(1, c + 1))
    present = {k for _, k in scene.deck.cards[scene.lo:scene.hi]}
    if scene.timeline is not None:
        present |= {scene.deck.cards[x.index].color for x in _holds_in(scene.timeline, scene.lo, scene.hi)}
    return sorted(present)


def _holds_in(tl: Timeline, lo: int, hi: int) -> list[Hold]:
    last = tl.steps
    return [x for x in tl.holds if x.start < hi and (x.end if x.end is not None else last) >= lo]


def lanes(holds: tuple[Hold, ...]) -> list[int]:
    """A hand slot per hold, so that no two holds share a slot at once.

    >>> lanes((Hold(0, 0, 3), Hold(1, 1, 2), Hold(2, 2, 5)))
    [0, 1, 1]
    """
    free_at: list[float] = []
    out = []
    for x in holds:
        end = float("inf") if x.end is None else x.end
        slot = next((i for i, f in enumerate(free_at) if f <= x.start), len(free_at))
        if slot == len(free_at):
            free_at.append(end)
        else:
            free_at[slot] = end
        out.append(slot)
    return out


def draw(scene: Scene) -> Figure:
    deck, tl, lo, hi = scene.deck, scene.timeline, scene.lo, scene.hi
    names = variable_rows(scene.roles, deck.cards) if scene.roles else {}
    colors = shown_colors(scene)
    width = 1.35 + CELL * max(scene.width, 30)
    panels = [("roles", 0.55)] if scene.roles else []
    panels.append(("grid", ROW * (len(colors) + (1 if tl else 0))))
    if tl is not None:
        slots = max(1, max(tl.hand, default=0), tl.h)
        panels += [("hand", 0.17 * slots + 0.1), ("occupancy", 0.45), ("piles", 1.3)]
    fig, ax = stack(width, panels)
    how = "card by card"
    title(fig, scene, how if len(colors) == deck.c else f"{how}, {len(colors)} of {deck.c} colors "
          "(those in the window)")
    if scene.roles:
        draw_spans(ax["roles"], [gadget_spans(scene.roles, lo, hi), part_spans(scene.roles, lo, hi)],
                   lo, hi, CELL)
    _grid(ax["grid"], scene, colors, names)
    if scene.roles:
        for s in gadget_spans(scene.roles, lo, hi)[1:]:
            for name in ("grid", "hand", "occupancy"):
                if name in ax:
                    ax[name].axvline(s.start - 0.5, color="#c8c8c8", lw=0.8, zorder=1)
    if tl is not None:
        _hand(ax["hand"], scene, tl, names)
        _occupancy(ax["occupancy"], scene, tl)
        _piles(ax["piles"], scene, tl, colors, names)
    alarm = ("illegal step" if tl is not None and tl.stop is not None
             else "loss witness" if scene.witness.position is not None else None)
    _legend(fig, tl is not None, alarm)
    _x_axis(ax["piles" if tl is not None else "grid"], lo, hi)
    return fig


def _x_axis(ax: Axes, lo: int, hi: int) -> None:
    step = next(s for s in (1, 2, 5, 10, 20, 50, 100) if (hi - lo) / s <= 30)
    first = (lo // step + 1) * step
    ticks = [t - 1 for t in range(first, hi + 1, step)]
    ax.set_xticks(ticks, [str(t + 1) for t in ticks], fontsize=7)
    ax.set_xlabel("card number (deck order)", fontsize=8)


def _no_x(ax: Axes, lo: int, hi: int) -> None:
    ax.set_xlim(lo - 0.5, hi - 0.5)
    ax.set_xticks([])


def _grid(ax: Axes, scene: Scene, colors: list[int], names: dict[int, str]) -> None:
    deck, tl, lo, hi = scene.deck, scene.timeline, scene.lo, scene.hi
    row = {k: i for i, k in enumerate(colors)}
    rows = len(colors) + (1 if tl else 0)
    _no_x(ax, lo, hi)
    ax.set_ylim(rows - 0.5, -0.5)
    labels = [row_name(k, deck.c, names) for k in colors] + (["action"] if tl else [])
    ax.set_yticks(range(rows), labels, fontsize=7)
    ax.tick_params(length=0)
    for i in range(len(colors)):
        ax.axhspan(i - 0.5, i + 0.5, color="#f4f4f4" if i % 2 else "#fbfbfb", lw=0, zorder=0)
    for spine in ax.spines.values():
        spine.set_color("#bbbbbb")
    small = 5.5 if deck.n >= 100 else 7
    wit = scene.witness
    for t in range(lo, hi):
        a, k = deck.cards[t]
        fill = color_hex(k, deck.c, names)
        act = tl.actions[t] if tl is not None and t < tl.steps else None
        unplayed = tl is not None and act is None and t != tl.stop
        faded = act == "D"
        edge, lw = ("black", 1.4) if act == "S" else ("none", 0)
        if (tl is not None and t == tl.stop) or (wit.position is not None and t <= wit.position
                                                 and (a, k) in wit.cards):
            edge, lw = ALARM, 2.0
        ax.add_patch(Rectangle((t - 0.44, row[k] - 0.4), 0.88, 0.8, facecolor=fill,
                               alpha=0.25 if faded else 0.55 if unplayed else 1.0, edgecolor=edge,
                               lw=lw, zorder=2))
        ax.text(t, row[k], str(a), ha="center", va="center", fontsize=small, zorder=3,
                color="#555555" if faded else ink_on(fill))
        if act is not None:
            ax.text(t, rows - 1, act, ha="center", va="center", fontsize=7, fontweight="bold",
                    color=ACTION[act])
        elif tl is not None and t == tl.stop:
            ax.text(t, rows - 1, "✗", ha="center", va="center", fontsize=8, color=ALARM)
    if tl is not None:
        ax.axhline(rows - 1.5, color="#bbbbbb", lw=0.6)
        if tl.stop is not None and tl.stop + 1 < hi:
            start = max(lo, tl.stop + 1) - 0.5
            ax.axvspan(start, hi - 0.5, facecolor="none", hatch="///", edgecolor="#d0d0d0", lw=0, zorder=1)
            ax.text((start + hi - 0.5) / 2, rows - 1, "not replayed after the illegal step",
                    ha="center", va="center", fontsize=7, color="#777777", zorder=3)
    if wit.position is not None and lo <= wit.position < hi:
        ax.axvline(wit.position + 0.5, color=ALARM, lw=1.5, zorder=4)
        ax.text(wit.position + 0.6, -0.45, f" after #{wit.position + 1} a win must hold "
                f"{wit.needed} > h = {scene.h} cards",
                color=ALARM, fontsize=7, va="bottom", ha="left", zorder=5, clip_on=False)
    if wit.unusable is not None and wit.unusable.color in row:
        a, k = wit.unusable
        ax.text(hi - 0.5, row[k], f"no usable {card_name(a, k, deck.c)} ",
                color=ALARM, fontsize=7, fontweight="bold", ha="right", va="center", zorder=5,
                bbox={"facecolor": "white", "edgecolor": ALARM, "lw": 0.8, "pad": 1.5})


def _hand(ax: Axes, scene: Scene, tl: Timeline, names: dict[int, str]) -> None:
    lo, hi, deck = scene.lo, scene.hi, scene.deck
    slots = max(1, max(tl.hand, default=0), tl.h)
    _no_x(ax, lo, hi)
    ax.set_ylim(slots - 0.5, -0.5)
    ax.set_yticks(range(slots), [f"hand {i + 1}" for i in range(slots)], fontsize=7)
    ax.tick_params(length=0)
    for x, slot in zip(tl.holds, lanes(tl.holds)):
        end = x.end if x.end is not None else tl.steps
        if x.start >= hi or end < lo:
            continue
        a, k = deck.cards[x.index]
        fill = color_hex(k, deck.c, names)
        ax.add_patch(Rectangle((x.start - 0.4, slot - 0.35), end - x.start + 0.4, 0.7, facecolor=fill,
                               edgecolor="black", lw=0.6, alpha=0.9))
        if lo <= x.start:
            ax.text(x.start - 0.3, slot, card_name(a, k, deck.c) if end - x.start >= 3 else str(a), ha="left",
                    va="center", fontsize=6, color=ink_on(fill), clip_on=True)
    if tl.stop is not None and lo <= tl.stop < hi:
        ax.axvline(tl.stop, color=ALARM, lw=1.2)


def _occupancy(ax: Axes, scene: Scene, tl: Timeline) -> None:
    lo, hi, h = scene.lo, scene.hi, tl.h
    _no_x(ax, lo, hi)
    xs = list(range(lo, min(hi, tl.steps)))
    ax.bar(xs, [tl.hand[t] for t in xs], width=1.0, color="#7986cb", lw=0)
    top = max(h, max(tl.hand, default=0), 1)
    ax.set_ylim(0, top + 0.3)
    ax.axhline(h, color="#333333", lw=0.8, ls="--")
    ax.set_yticks(sorted({0, h}), [str(v) if v != h else f"h = {h}" for v in sorted({0, h})],
                  fontsize=7)
    ax.set_ylabel("held", fontsize=8, rotation=0, ha="right", va="center", labelpad=10)
    wit = scene.witness
    if wit.position is not None and lo <= wit.position < hi:
        ax.axvline(wit.position + 0.5, color=ALARM, lw=1.5)


def _piles(ax: Axes, scene: Scene, tl: Timeline, colors: list[int], names: dict[int, str]) -> None:
    lo, hi, deck = scene.lo, scene.hi, scene.deck
    ax.set_xlim(lo - 0.5, hi - 0.5)
    ax.set_ylim(-0.3, deck.n + 0.6)
    ax.set_ylabel("piles", fontsize=8, rotation=0, ha="right", va="center", labelpad=10)
    ax.tick_params(labelsize=7)
    end = min(hi, tl.steps)
    series = tl.levels_by_color()
    spread = 0.25 / max(1, len(colors))
    for i, k in enumerate(colors):
        before = [v for t, v in series[k - 1] if t < lo]
        level = before[-1] if before else 0
        xs, ys = [lo - 0.5], [level]
        for t, v in series[k - 1]:
            if lo <= t < end:
                xs.append(t + 0.5)
                ys.append(v)
                level = v
        xs.append(max(end - 0.5, lo - 0.5))
        ys.append(level)
        off = (i - len(colors) / 2) * spread
        fill = color_hex(k, deck.c, names)
        ax.step(xs, [y + off for y in ys], where="post", color=fill, lw=1.4)
    for spine in ("top", "right"):
        ax.spines[spine].set_visible(False)


def _legend(fig: Figure, plays: bool, alarm: str | None) -> None:
    handles = [Patch(facecolor="#888888", label=f"{ACTION_WORD['P']} (P)"),
               Patch(facecolor="#888888", edgecolor="black", lw=1.4, label=f"{ACTION_WORD['S']} (S)"),
               Patch(facecolor="#888888", alpha=0.25, label=f"{ACTION_WORD['D']} (D)")] if plays else []
    if alarm:
        handles.append(Patch(facecolor="white", edgecolor=ALARM, lw=2, label=alarm))
    if not handles:
        return
    fig.legend(handles=handles, loc="lower left", ncol=4, fontsize=7, frameon=False,
               bbox_to_anchor=(0.0, 0.0))
