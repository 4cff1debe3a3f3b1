"""The replay page's chart: the game's points over the turns as an inline SVG.

Column k (of equal width) is position k (0: the deal, k: after the k-th action):
the score, the best score still reachable and hanab.live's "max score" indicator
are step lines through the columns, an undecided position a band from its lower
to its upper bound, and a drop a red stroke at the left edge of the column of the
action that lost the points (its words in a tooltip).  The page moves the cursor
(``#cursor``, a column outline) and jumps to the column clicked (``data-left`` and
``data-unit`` give the columns in viewBox units).

>>> from hanabi_cp.core.model import Deck
>>> from hanabi_cp.real.rules import Rules
>>> from hanabi_cp.real.actions import Action
>>> from hanabi_cp.real.postmortem.report import analyze
>>> from hanabi_cp.show.game import GameView
>>> deck = Deck.of([(1, 1), (2, 1), (1, 2), (2, 2), (1, 1), (1, 2)])
>>> rules = Rules.for_players(2, hand_size=2, clues=1)
>>> actions = [Action.rank_clue(1, 1), Action.discard(3)]
>>> svg = chart(GameView("g", deck, rules, actions, ("A", "B"), analyze(deck, rules, actions)))
>>> svg.count('class="drop"'), svg.count('<path'), 'id="cursor"' in svg
(1, 4, True)
"""

from __future__ import annotations

import html

from .game import GameView, bounds, label
from .game_figure import BAND, BEST, MAX, SCORE
from .palette import ALARM

W, H = 1000, 150                  # the viewBox; the page scales it to its width
LEFT, RIGHT, TOP, BOTTOM = 30, 8, 12, 20


def chart(view: GameView) -> str:
    rows, target = view.post.rows, view.post.target
    u = (W - LEFT - RIGHT) / len(rows)          # one column per position
    ph = H - TOP - BOTTOM

    def x(k: float) -> float:
        return round(LEFT + k * u, 2)

    def y(v: float) -> float:
        return round(TOP + (target - v) * ph / max(1, target), 2)

    def steps(values: list[int | None]) -> str:
        """A path through the columns; a gap where the value is unknown."""
        out, pen = [], False
        for k, v in enumerate(values):
            if v is None:
                pen = False
                continue
            out.append(f"{'L' if pen else 'M'}{x(k)} {y(v)}H{x(k + 1)}")
            pen = True
        return "".join(out)

    parts = [f'<svg id="chart" viewBox="0 0 {W} {H}" data-left="{LEFT}" data-unit="{u:.4f}" '
             f'role="img" aria-label="points over the turns" xmlns="http://www.w3.org/2000/svg">']
    step = 5 if target > 12 else 1
    for v in range(0, target + 1, step):
        parts.append(f'<line x1="{LEFT}" x2="{W - RIGHT}" y1="{y(v)}" y2="{y(v)}" '
                     f'stroke="#e6e6e6"/><text x="{LEFT - 4}" y="{y(v) + 3.5}" '
                     f'text-anchor="end" class="tick">{v}</text>')
    every = next(s for s in (1, 2, 5, 10, 20, 50, 100) if len(rows) / s <= 20)
    for k in range(0, len(rows), every):
        parts.append(f'<text x="{x(k + 0.5)}" y="{H - 8}" text-anchor="middle" '
                     f'class="tick">{k}</text>')
    for r in rows:
        if r.best is None:
            lo, hi = bounds(view, r)
            parts.append(f'<rect x="{x(r.position)}" y="{y(hi)}" width="{u:.2f}" '
                         f'height="{max(y(lo) - y(hi), 1.5):.2f}" fill="{BAND}" '
                         f'class="band"><title>position {r.position}: undecided, '
                         f'{lo}..{hi}</title></rect>')
    parts.append(f'<path d="{steps([r.score for r in rows])}" fill="none" stroke="{SCORE}" '
                 'stroke-width="1.6"/>')
    parts.append(f'<path d="{steps([r.best for r in rows])}" fill="none" stroke="{BEST}" '
                 'stroke-width="2.6"/>')
    parts.append(f'<path d="{steps([r.hanablive_max for r in rows])}" fill="none" '
                 f'stroke="{MAX}" stroke-width="1.6" stroke-dasharray="6 4"/>')
    for d in view.post.drops:
        tip = html.escape(f"{label(view, d)}: best {d.before} \u2192 {d.after}")
        xd = x(d.position)
        parts.append(f'<g class="drop" data-k="{d.position}"><title>{tip}</title>'
                     f'<line x1="{xd}" x2="{xd}" y1="{y(d.before)}" y2="{y(d.after)}" '
                     f'stroke="{ALARM}" stroke-width="3"/>'
                     f'<path d="M{xd - 6} {y(d.after) - 9}h12l-6 9z" fill="{ALARM}"/></g>')
    parts.append(f'<rect id="cursor" x="{LEFT}" y="{TOP - 4}" width="{u:.2f}" '
                 f'height="{ph + 8}" fill="rgba(0,0,0,0.08)" stroke="#000" stroke-width="1" '
                 'pointer-events="none"/>')
    parts.append("</svg>")
    return "".join(parts)
