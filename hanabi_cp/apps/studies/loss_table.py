"""The table of games against their deals' exact best scores: `study hle`'s, per
player count and agent, and `analyze DIR --summary`'s, per player count and folder.

One row per (player count, group) from one dict per game (``strategies.
strategy_stats``' columns: ``score``, ``best`` the deal's exact best score or
empty, ``lost_turn``, ``lost_kind``, ``strikes``; and ``piles``, the fireworks
built).  `study hle` adds each deck's bound row (``bound_stats``).  With ``split``
(`analyze DIR`), the points each game lost are split by where they went:
``unavoidable`` is the target minus the deal's best score, and each drop of the
best score goes to the class of the action that caused it (``seen``: visible,
hidden, tempo; ``other`` for an action without one, such as an end by vote, or a
drop across an undecided position); the columns are the mean points per game
with a decided deal, so they add up to the target minus the mean final best.
"""

from __future__ import annotations

import math

from .strategies import bound_stats, percent, strategy_stats

SPLIT = ("unavoidable", "visible", "hidden", "tempo", "other")


def summary(rows: list[dict], group: str = "agent", score: str = "mean (HLE's score)",
            split: bool = False) -> str:
    """The table, as Markdown; ``group`` names the column the rows' ``group`` key
    fills (each group's rows share one target: one variant)."""
    own = ("mean best | " + " | ".join(SPLIT)) if split else "unavoidable | own"
    head = (f"| players | {group} | games | {score} | fireworks built | perfect % | "
            f"imperfect | {own} | on unknown decks | mean regret | median turn lost |")
    lines = [head, "|" + "---|" * (head.count("|") - 1)]
    for p in sorted({int(r["players"]) for r in rows}):
        mine = [r for r in rows if int(r["players"]) == p]
        for name in sorted({r["group"] for r in mine}):
            rs = [r for r in mine if r["group"] == name]
            s = strategy_stats(rs)
            piles = sum(int(r["piles"]) for r in rs) / len(rs)
            regret = "-" if math.isnan(s["regret"]) else f"{s['regret']:.2f}"
            when = "-" if s["lost_turn"] is None else str(s["lost_turn"])
            cells = _split(rs) if split else (
                f"{percent(s['unavoidable'], s['imperfect'])} | "
                f"{percent(s['own'], s['imperfect'])}")
            lines.append(f"| {p} | {name} | {s['games']} | {s['mean']:.2f} | {piles:.2f} | "
                         f"{100 * s['perfect'] / s['games']:.1f} | {s['imperfect']} | "
                         f"{cells} | {s['unknown']} | {regret} | {when} |")
        b = bound_stats(mine) if not split else {"decks": 0}
        if b["decks"]:
            lines.append(
                f"| {p} | **bound** (open hands, exact; 95 % CI) | {b['decks']} decks | "
                f"{b['mean']:.3f} [{b['mean_lo']:.3f}, {b['mean_hi']:.3f}] | | "
                f"{100 * b['winnable'] / max(1, b['decided']):.2f} "
                f"[{100 * b['win_lo']:.2f}, {100 * b['win_hi']:.2f}] | "
                f"{b['decided'] - b['winnable']} lost | | | {b['unknown']} unknown | 0 | |")
    return "\n".join(lines)


def _split(rows: list[dict]) -> str:
    """The mean best and the mean points lost per class, over the decided deals."""
    decided = [r for r in rows if r["best"] not in ("", None)]
    if not decided:
        return " | ".join("-" for _ in range(len(SPLIT) + 1))
    mean_best = sum(int(r["best"]) for r in decided) / len(decided)
    return " | ".join([f"{mean_best:.2f}", *(
        f"{sum(r['lost'].get(k, 0) for r in decided) / len(decided):.2f}" for k in SPLIT)])
