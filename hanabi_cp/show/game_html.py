"""The step-through replay of a real game: one self-contained HTML file (inline
script, style and SVG; no network).

The page gets the deal, the actions, the post-mortem's rows and drops, and the
referee's state at every position (``game.positions``).  Its script replays the
actions itself (plays, discards, draws, clue tokens, strikes, the final round) and
shows its own state; its self-test (``window.hanabiSelfTest()``, or ``#selftest`` in
the URL) checks that state and what the page shows at every position against the
referee's, then presses the keys and buttons.
"""

from __future__ import annotations

import html
import json
import re

from .game import GameView, bounds, explanation, positions, suits
from .game_chart import chart
from .game_figure import BAND, BEST, MAX, SCORE
from .game_html_template import TEMPLATE
from ..real.variants.pile_rules import chosen_in_play
from ..real.variants.catalogue import START
from .palette import ALARM
from .suit_colors import fill

CHECKED = ("hands", "piles", "clues", "strikes", "drawn", "lost", "endTurn", "mover")


def suits_down(view: GameView) -> list[bool]:
    """Per suit of the deck: whether it is played from n down to 1 (reversed)."""
    from ..real.referee import Tables
    return Tables(view.deck, view.rules).down


def plays_ok(view: GameView) -> list[bool | None] | None:
    """Up or Down and Sudoku: per action, whether it is a play that its pile takes
    (else None), as the referee says: a pile's height alone does not tell the page
    which value it takes next.  None in the other variants."""
    from ..real.actions import Kind
    from ..real.referee import Game
    g = Game.start(view.deck, view.rules)
    if g.chosen is None:
        return None
    out: list[bool | None] = []
    for act in view.actions:
        ok = None
        if not g.over and act.kind is Kind.PLAY and 0 <= act.target < view.deck.N:
            a, k = g.card(act.target)
            ok = g.takes(k - 1, a)
        out.append(ok)
        if not g.over:             # (the analysis replayed the game: every action is legal)
            g.apply(act)
    return out


def data(view: GameView) -> dict:
    """What the page's script needs."""
    deck, rules, post = view.deck, view.rules, view.post
    v = rules.variant
    states = positions(view)
    shown = []
    for r in post.rows:
        lo, hi = bounds(view, r) if r.best is None else (r.best, r.best)
        shown.append([r.score, r.best, lo, hi, r.hanablive_max])
    return {
        "head": view.heading, "rules": rules.describe(), "outcome": view.outcome,
        "end": post.end, "over": not post.end.startswith("not over"),
        "names": list(view.names), "P": rules.players, "H": rules.hand_size,
        "first": rules.first_player, "clueMax": rules.max_tokens, "strikeMax": rules.strikes,
        "clueCost": rules.clue_cost, "topGivesToken": rules.top_gives_token,
        "down": list(suits_down(view)),
        "deckPlays": rules.deck_plays,
        "finalRound": rules.final_round and not rules.all_or_nothing,
        "N": deck.N, "n": deck.n, "target": post.target, "playOk": plays_ok(view),
        "stack": v.stack_size if v is not None and chosen_in_play(v) else deck.n,
        "start": v.model_value(START) if v is not None and v.up_or_down else 0,
        "cards": [x for card in deck.cards for x in card],
        "suits": [{"name": name, "letter": letter, "fill": fill(name)[0], "ink": fill(name)[1]}
                  for name, letter in suits(view)],
        "actions": [[int(a.kind), a.target, a.value] for a in view.actions],
        "texts": [r.text for r in post.rows], "turns": [r.turn for r in post.rows],
        "rows": shown, "undecided": [r.best is None for r in post.rows],
        "drops": {str(d.position): [d.before, d.after] for d in post.drops},
        "why": {str(d.position): explanation(view, d) for d in post.drops},
        "touched": [s["touched"] for s in states],
        "check": [{key: s[key] for key in CHECKED} for s in states],
        "alarm": ALARM, "lines": {"score": SCORE, "best": BEST, "max": MAX, "band": BAND},
    }


def page(view: GameView) -> str:
    payload = json.dumps(data(view), separators=(",", ":"), ensure_ascii=True)
    # Inside <script>, "</" could end the element early; JSON allows "<\/".
    payload = payload.replace("</", "<\\/")
    title = html.escape(f"{view.name}: hanabi-cp post-mortem replay")
    parts = {"__TITLE__": title, "__CHART__": chart(view), "__DATA__": payload}
    # one pass: a player's name in the chart or the data is never taken for a slot
    return re.sub("__TITLE__|__CHART__|__DATA__", lambda m: parts[m.group(0)], TEMPLATE)
