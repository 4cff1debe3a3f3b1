"""A post-mortem in words and as JSON: what ``analyze`` prints, made from the
``PostMortem`` alone (``PostMortem.lines``, ``PostMortem.to_json``), so that a
script holding ``hc.analyze``'s result has all of it."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .report import PostMortem


def table(pm: PostMortem, verbose: bool = False) -> list[str]:
    """One line per position: hanab.live's turn, the action, the score, the best
    score still reachable, hanab.live's max score and pace; with ``verbose``, how
    each position was decided."""
    width = max([len(r.text) for r in pm.rows] + [6])
    lines = [f"{'turn':>4}  {'action':<{width}}  {'score':>5} {'best':>6} {'max':>4} "
             f"{'pace':>4}" + ("  method" if verbose else "")]
    for r in pm.rows:
        if r.best is not None:
            best = str(r.best)
        else:
            best = f"{'' if r.lower is None else r.lower}..{'' if r.upper is None else r.upper}"
        turn = "" if r.turn is None else str(r.turn)
        pace = "" if r.pace is None else str(r.pace)
        line = (f"{turn:>4}  {r.text:<{width}}  {r.score:>5} {best:>6} {r.hanablive_max:>4} "
                f"{pace:>4}")
        lines.append((line + (f"  {r.method or r.status.lower()}" if verbose else "")).rstrip())
    return lines


def closing_line(pm: PostMortem) -> str | None:
    """The line for a game whose best score never fell (none if it did, or if some
    position is undecided)."""
    if pm.drops or not pm.decided or not pm.rows:
        return None
    deal = pm.rows[0].best
    if pm.final_score == pm.target:
        return f"c won: {pm.final_score} of {pm.target}; the best score never fell"
    return (f"c no points lost by play: the best score stayed {deal} from the deal to "
            f"the end (final score {pm.final_score} of {pm.target})")


def lines(pm: PostMortem, game: str, verbose: bool = False) -> list[str]:
    """The report of ``analyze GAME``: the game and its rules, the final score, the
    table, each drop with why and what would have kept the best score."""
    from ..game_setup import any_deck_text
    from .report import drop_lines
    out = []
    if pm.rules is not None:
        out.append(f"c game: {game}: {len(pm.actions)} actions; {pm.rules.describe()} "
                   f"(hanab.live {pm.rules.variant_name}, open hands)")
    if pm.any_deck is not None and pm.rules is not None:
        out.append(any_deck_text(pm.rules, pm.any_deck))
    if pm.as_recorded is not None:
        out.append(f"c as recorded: {pm.as_recorded}; every action is analyzed as played")
    out.append(f"c final score: {pm.final_score} of {pm.target} (end: {pm.end})")
    out += table(pm, verbose)
    for drop in pm.drops:
        out.append(f"c lost: {drop.text}")
        out += [f"c   {line}" for line in drop_lines(drop, pm.rows[drop.position], pm.names)]
    closing = closing_line(pm)
    if closing is not None:
        out.append(closing)
    undecided = sum(r.best is None for r in pm.rows)
    if undecided:
        out.append(f"c undecided: {undecided} positions (best shown as lower..upper bound)")
    return out


def to_json(pm: PostMortem) -> dict:
    """The post-mortem as ``analyze --json`` prints it (without the game's path):
    every row (a drop's with its reason and alternatives) and every drop."""
    rows = [r.as_dict() for r in pm.rows]
    drops = pm.drops
    for d in drops:
        rows[d.position].update(d.explained())
    out = {"final_score": pm.final_score, "end": pm.end, "target": pm.target, "rows": rows,
           "drops": [{"position": d.position, "before": d.before, "after": d.after,
                      "text": d.text, **d.explained()} for d in drops],
           "as_recorded": pm.as_recorded}
    if pm.rules is not None:
        out |= {"rules": pm.rules.describe(), "variant": pm.rules.variant_name}
    if pm.any_deck is not None:
        out["any_deck"] = pm.any_deck
    return out
