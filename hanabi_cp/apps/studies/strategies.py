"""Study "strategies": hidden-information players against each deck's exact bound.

Game ``i`` of a run with seed ``S`` is played on the shuffled standard deck of seed
``S + i`` (``players.game.seeded_deck``; ``hanabi-cp generate --standard --seed``
writes the same deck), by every strategy, at every player count.  With the bound,
each deck also gets its exact best score with open hands (``players.bound``,
computed once per deck and player count and shared by the strategies' rows), and
every game is checked against it (a bot above the bound is a bug, shrunk and
raised).  A deck the solvers leave undecided within the time limit but that one of
the strategies won is winnable, certified by that game (``bound.with_games``;
its ``bound_method`` says so); one nobody won stays unknown, with the best score
of a refereed game as ``bound_lower``.  One CSV row per (strategy, players, deck), appended as it is played: a
rerun resumes.

The table (``summary``) gives per strategy and player count the mean score, the
perfect games, how the imperfect games split between decks nobody could win
(unavoidable) and decks the bound wins (the strategy's own loss), and the mean
regret (best minus score); the bound's row gives the exact mean best score and the
share of winnable decks with 95 % confidence intervals, and the decks left
undecided (counted, never folded into either side).
"""

from __future__ import annotations

import math
import time
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from ...core.version import __version__
from ...core.errors import UsageError
from ...runtime.executors import SERIAL, Execution, run_tasks
from ...io.deck_text import card_text
from ...real.postmortem.report import first_loss
from ..generators import variant_deck
from ...real.rules import Rules
from ...real.variants.catalogue import variant as find_variant
from ...core.model import Deck
from ...players.bound import Bound, check_bot, deck_bound, with_games
from ...players.game import play_game, seeded_deck
from ...players.strategy import check_players, get_strategy, strategies
from ...io.results_csv import ResultsCSV
from .figure_files import save_figure, panels
from .common import wilson

STUDY = "strategies"
FIELDS = ["game", "seed", "players", "strike_limit", "variant", "strategy", "score", "strikes", "turns", "seconds",
          "best", "winnable", "bound_lower", "bound_method", "bound_seconds", "lost_turn",
          "lost_kind", "deck", "version"]
KEY = ["seed", "players", "strike_limit", "variant", "strategy"]
NO_VARIANT = "No Variant"
TARGET = 25          # No Variant's maximum; a variant's rows use its own (target_of)


def target_of(rows: Sequence[dict]) -> int:
    """The maximum score of the rows' variant (a table groups one variant's rows), or
    their own ``target`` when every row gives the same one (games on any deck)."""
    targets = {str(r.get("target") or "") for r in rows}
    if len(targets) == 1 and "" not in targets:
        return int(targets.pop())
    names = {r.get("variant") or NO_VARIANT for r in rows}
    if len(names) != 1 or NO_VARIANT in names:
        return TARGET
    return find_variant(names.pop()).max_score
# What the action after which 25 went out of reach was (real.postmortem.report.first_loss).
LOSS_KINDS = ("discard", "misplay", "clue", "play", "final round")

# Published figures (mean / perfect %) for comparison: the two-strategies paper's
# simulator at 5 players (10^5 games for recommendation; 10^6 for the averages),
# and hanabi.rs's README over 20,000 seeds for its infobot and cheating bot.
PUBLISHED: dict[tuple[str, int], str] = {
    ("recommendation", 5): "23.00 / 16.3 %",
    ("information", 5): "24.68 / > 75 %",
    ("cheat", 5): "24.87",
    ("infobot", 2): "22.52 / 12.6 %",
    ("infobot", 3): "24.79 / 84.5 %",
    ("infobot", 4): "24.94 / 95.1 %",
    ("infobot", 5): "24.92 / 94.0 %",
}


def deck_tokens(deck: Deck) -> str:
    return " ".join(card_text(c, True) for c in deck.cards)


def _bound_of(rows: ResultsCSV, seed: int, players: int, strikes: int,
              variant: str) -> Bound | None:
    """A bound already in the CSV for this deck and rules (any strategy's row)."""
    for name in strategies():
        row = rows.get(seed=seed, players=players, strike_limit=strikes, variant=variant,
                       strategy=name)
        if row is not None and row.get("bound_method"):
            best = row["best"]
            return Bound(int(best) if best != "" else None,
                         None if best == "" else row["winnable"] == "True",
                         int(row["bound_lower"]) if row["bound_lower"] != "" else None,
                         row["bound_method"], float(row["bound_seconds"] or 0))
    return None


def run(csv_path: str, seed: int, games: int, players: Sequence[int],
        names: Sequence[str], bound: bool = True, time_limit: float | None = 10.0,
        progress: bool = False, strikes: int = 3,
        execution: Execution = SERIAL, variant: str = NO_VARIANT) -> ResultsCSV:
    """Play and bound every (player count, deck) not yet in the CSV; ``execution``
    shares the decks among worker processes or a dask cluster (the rows are those
    of a serial run, appended in the order the decks finish)."""
    classes = [get_strategy(n) for n in names]
    for p in players:
        for cls in classes:
            check_players(cls, p)
    rows = ResultsCSV(csv_path, FIELDS, KEY)
    if bound:
        lacking = [r for r in rows.rows if not r["bound_method"]]
        if lacking:
            raise UsageError(f"{csv_path}: has rows without the bound (game "
                             f"{lacking[0]['game']}); use another {{csv_path}} for a run "
                             "with {bound}", "csv_path", "bound")
    tasks = []
    done = 0
    for p in players:
        for i in range(games):
            s = seed + i
            todo = [c.name for c in classes
                    if not rows.has(seed=s, players=p, strike_limit=strikes, variant=variant,
                                    strategy=c.name)]
            done += len(classes) - len(todo)
            if todo:
                known = _bound_of(rows, s, p, strikes, variant) if bound else None
                tasks.append((_Task(p, strikes, i, s, tuple(todo), bound, time_limit, known,
                                    variant),))
    from ...core.progress import bar as progress_bar

    with progress_bar(games * len(players) * len(classes), initial=done, enabled=progress,
                      unit=" games") as bar, \
            run_tasks(_deck_rows, tasks, execution) as finished:
        for _, out in finished:
            for row in out:
                rows.add(row)
            bar.update(len(out))
    return rows


def deck_of(rules: Rules, seed: int) -> Deck:
    """Game ``seed``'s deck: the shuffled standard deck, or the variant's deck."""
    v = rules.variant
    if v is None:
        return seeded_deck(seed)
    return variant_deck(seed, v.model_cards(), v.deck_n, len(v.suits))


@dataclass(frozen=True)
class _Task:
    players: int
    strikes: int
    game: int
    seed: int
    names: tuple[str, ...]
    bound: bool
    time_limit: float | None
    known: Bound | None          # the deck's bound from the CSV, if already there
    variant: str = NO_VARIANT


def _deck_rows(task: _Task) -> list[dict]:
    """One deck: every strategy's game, the bound, the check, the rows."""
    v = None if task.variant == NO_VARIANT else find_variant(task.variant)
    rules = Rules.for_players(task.players, strikes=task.strikes, variant=v)
    deck = deck_of(rules, task.seed)
    played = []
    for name in task.names:
        start = time.perf_counter()
        played.append((play_game(deck, rules, name, task.seed), time.perf_counter() - start))
    b = None
    if task.bound:
        b = task.known or deck_bound(deck, rules, task.time_limit)
        b = with_games(b, deck, rules, [g for g, _ in played])
    out = []
    for game, seconds in played:
        loss = None
        if b is not None:
            check_bot(game, b)
            if b.winnable and not game.won:
                loss = first_loss(deck, rules, game.actions, time_limit=task.time_limit)
        out.append({"game": task.game, "seed": task.seed, "players": task.players,
                    "strike_limit": task.strikes, "variant": task.variant,
                    "strategy": game.strategy,
                    "score": game.score, "strikes": game.strikes, "turns": game.turns,
                    "seconds": round(seconds, 6),
                    "best": None if b is None else b.best,
                    "winnable": None if b is None else b.winnable,
                    "bound_lower": None if b is None else b.lower,
                    "bound_method": None if b is None else b.method,
                    "bound_seconds": None if b is None else round(b.seconds, 6),
                    "lost_turn": None if loss is None or loss.turn < 0 else loss.turn,
                    "lost_kind": None if loss is None else loss.kind,
                    "deck": deck_tokens(deck), "version": __version__})
    return out


# ---- statistics ---------------------------------------------------------------

def _mean_ci(xs: list[float]) -> tuple[float, float, float]:
    """Mean and its 95 % normal-approximation interval."""
    if not xs:
        return math.nan, math.nan, math.nan
    m = sum(xs) / len(xs)
    if len(xs) < 2:
        return m, math.nan, math.nan
    sd = math.sqrt(sum((x - m) ** 2 for x in xs) / (len(xs) - 1))
    half = 1.96 * sd / math.sqrt(len(xs))
    return m, m - half, m + half


def strategy_stats(rows: list[dict]) -> dict:
    scores = [int(r["score"]) for r in rows]
    target = target_of(rows)
    imperfect = [r for r in rows if int(r["score"]) < target]
    decided = [r for r in rows if r["best"] != ""]
    unavoidable = sum(1 for r in imperfect if r["best"] != "" and int(r["best"]) < target)
    own = sum(1 for r in imperfect if r["best"] != "" and int(r["best"]) == target)
    regret = [int(r["best"]) - int(r["score"]) for r in decided]
    lost = [r for r in imperfect if r.get("lost_kind") not in (None, "", "undecided")]
    turns = sorted(int(r["lost_turn"]) for r in lost)
    return {"games": len(rows), "mean": sum(scores) / len(scores) if scores else math.nan,
            "lost_kinds": {k: sum(r["lost_kind"] == k for r in lost) for k in LOSS_KINDS},
            "lost_turn": turns[len(turns) // 2] if turns else None,
            "perfect": sum(x == target for x in scores), "imperfect": len(imperfect),
            "unavoidable": unavoidable, "own": own,
            "unknown": len(imperfect) - unavoidable - own,
            "regret": sum(regret) / len(regret) if regret else math.nan,
            "strikes_max": max((int(r["strikes"]) for r in rows), default=0)}


def bound_stats(rows: list[dict]) -> dict:
    """Per deck (one row per seed): the exact best scores and winnable share."""
    per_deck = {r["seed"]: r for r in rows if r["bound_method"]}
    decided = [int(r["best"]) for r in per_deck.values() if r["best"] != ""]
    target = target_of(rows)
    won = sum(x == target for x in decided)
    m, lo, hi = _mean_ci([float(x) for x in decided])
    hi = min(hi, float(target))     # the normal interval ignores that no deck scores above it
    wlo, whi = wilson(won, len(decided))
    if decided and won == len(decided):
        # every deck won: the normal interval collapses to a point; a lost deck scores
        # at least 0, so the winnable share's interval bounds the mean
        lo, hi = target * wlo, float(target)
    return {"decks": len(per_deck), "decided": len(decided),
            "unknown": len(per_deck) - len(decided), "mean": m, "mean_lo": lo, "mean_hi": hi,
            "winnable": won, "win_lo": wlo, "win_hi": whi,
            "times": sorted(float(r["bound_seconds"]) for r in per_deck.values())}


def consolidate(rows: list[dict]) -> list[dict]:
    """Rows with each deck's bound as decided by any of its rows (a strategy's won game
    can decide a deck the solvers left open after other strategies' rows were written)."""
    known = {(r["players"], r["strike_limit"], r["seed"]): r for r in rows if r["best"] != ""}
    out = []
    for r in rows:
        k = known.get((r["players"], r["strike_limit"], r["seed"]))
        out.append(r if k is None or r["best"] != "" else
                   {**r, "best": k["best"], "winnable": k["winnable"],
                    "bound_lower": k["bound_lower"], "bound_method": k["bound_method"]})
    return out


def by_group(rows: list[dict]) -> dict[tuple[str, int], list[dict]]:
    out: dict[tuple[str, int], list[dict]] = defaultdict(list)
    for r in rows:
        out[(r["strategy"], int(r["players"]))].append(r)
    return dict(sorted(out.items(), key=lambda kv: (kv[0][1], kv[0][0])))


def summary(rows: list[dict]) -> str:
    """The table, as Markdown (README shows it as is)."""
    rows = consolidate(rows)
    lines = ["| players | strategy | games | mean | perfect % | imperfect | unavoidable "
             "| own | on unknown decks | mean regret | own losses: 25 lost after a discard "
             "/ misplay / clue / play / in the final round | median turn lost "
             "| published (mean / perfect) |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    counts = sorted({int(r["players"]) for r in rows})
    groups = by_group(rows)
    for p in counts:
        for (name, q), rs in groups.items():
            if q != p:
                continue
            s = strategy_stats(rs)
            if any(r["bound_method"] for r in rs):
                split = (f"{percent(s['unavoidable'], s['imperfect'])} | "
                         f"{percent(s['own'], s['imperfect'])} | {s['unknown']}")
            else:
                split = "(no bound) | | "
            regret = "-" if math.isnan(s["regret"]) else f"{s['regret']:.2f}"
            kinds = s["lost_kinds"]
            total = sum(kinds.values())
            split_kinds = " / ".join(f"{100 * kinds[k] / total:.0f}" for k in LOSS_KINDS) \
                + " %" if total else "-"
            when = "-" if s["lost_turn"] is None else str(s["lost_turn"])
            lines.append(f"| {p} | {name} | {s['games']} | {s['mean']:.2f} | "
                         f"{100 * s['perfect'] / s['games']:.1f} | {s['imperfect']} | {split} | "
                         f"{regret} | {split_kinds} | {when} | {PUBLISHED.get((name, p), '')} |")
        b = bound_stats([r for r in rows if int(r["players"]) == p])
        if b["decks"]:
            lines.append(
                f"| {p} | **bound** (open hands, exact; 95 % CI) | {b['decks']} decks | "
                f"{b['mean']:.3f} [{b['mean_lo']:.3f}, {b['mean_hi']:.3f}] | "
                f"{100 * b['winnable'] / max(1, b['decided']):.2f} "
                f"[{100 * b['win_lo']:.2f}, {100 * b['win_hi']:.2f}] | "
                f"{b['decided'] - b['winnable']} lost | | | {b['unknown']} unknown | 0 | | | |")
    return "\n".join(lines)


def percent(part: int, whole: int) -> str:
    return f"{100 * part / whole:.1f} %" if whole else "-"


# ---- figure -------------------------------------------------------------------

def plot(rows: list[dict], stem: str, csv_path: str | None = None,
         force: bool = False) -> list[str]:
    """Score histograms: a row of panels per strategy, a column per player count, the
    bound's histogram (best score per deck) drawn over each as an outline."""
    rows = consolidate(rows)
    from matplotlib.ticker import MaxNLocator

    groups = by_group(rows)
    names = sorted({n for n, _ in groups})
    counts = sorted({p for _, p in groups})
    fig, axes = panels(len(names), len(counts), (3.2 * len(counts) + 0.5, 2.3 * len(names) + 0.6))
    edges = [x - 0.5 for x in range(0, TARGET + 2)]
    for j, p in enumerate(counts):
        column = [int(r["score"]) for (_, q), rs in groups.items() if q == p for r in rs]
        # the lowest 1 % of scores left out of view: the panels show where games end
        low = sorted(column)[len(column) // 100] if column else 15
        for i, name in enumerate(names):
            ax = axes[i * len(counts) + j]
            rs = groups.get((name, p), [])
            scores = [int(r["score"]) for r in rs]
            if scores:
                ax.hist(scores, bins=edges, weights=[1 / len(scores)] * len(scores),
                        color="tab:blue", alpha=0.75, label=f"{name} (score)")
            best = [int(r["best"]) for r in rs if r["best"] != ""]
            if best:
                ax.hist(best, bins=edges, weights=[1 / len(best)] * len(best),
                        histtype="step", color="black", linewidth=1.4,
                        label="bound (best score)")
            ax.set_yscale("log")
            ax.set_ylim(0.5 / max(1, len(scores)), 1.5)
            ax.set_xlim(max(-0.5, low - 1.5), TARGET + 0.5)
            ax.xaxis.set_major_locator(MaxNLocator(integer=True))
            mean = f"{sum(scores) / len(scores):.2f}" if scores else "-"
            bmean = f" (bound {sum(best) / len(best):.2f})" if best else ""
            ax.set_title(f"{name}, {p}p: {mean}{bmean}", fontsize=8.5)
            if i == len(names) - 1:
                ax.set_xlabel("score")
            if j == 0:
                ax.set_ylabel("share of games (log)")
            ax.grid(alpha=0.3)
            if j == 0:
                ax.legend(fontsize=7, loc="upper left")
            ax.yaxis.set_minor_formatter("")
    return save_figure(fig, stem, csv_path, force)
