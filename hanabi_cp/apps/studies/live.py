"""Study "live": how many shuffles can p players win, and what do the rules cost?

Deck i of a sweep with seed s is ``standard_deck(s + i)``, the deck of ``hanabi-cp
generate --standard --seed S`` with S = s + i, so every deck in the CSV can be
solved again by hand.  The same decks are asked for every player count p in
``players`` (hanab.live's hand size H for p, 3 strikes), under five rule sets
(``VARIANTS``):

- ``real``: hanab.live's rules (8 clue tokens, the final round), with ``maximize``:
  the verdict and the best score;
- ``free-clues``: unlimited clue tokens, the final round kept;
- ``no-final``: 8 tokens, no final round (the game goes on until the hands are empty);
- ``lifted``: unlimited tokens and no final round;
- ``solitaire``: the paper's model at hand size h = p*H - 1 (``search`` decides; a lost
  deck's best score comes from ``cpsat``).

The real-rules variants are decided by the real-rules method ``search``; every
answer is checked (``solve_live`` replays each game with the referee, ``solve``
each solitaire play).  ``lifted`` and ``solitaire`` are the two sides of journal
§5.1 (encodings/live-search.md): the summary counts the decks where they differ,
which must be none.  A time limit gives UNKNOWN, counted and shown on its own,
never as a win or a loss.

``deck_rows`` does one (deck, p) and takes only picklable arguments, so the sweep
can be spread over processes.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Sequence

from ...core.version import __version__
from ...core.errors import InvalidParameter
from ...runtime.executors import SERIAL, Execution, run_tasks
from ..generators import standard_deck
from ...real.rules import Rules
from ...real.solve import solve_live
from ...core.options import SolveOptions
from ...core.status import Status
from ...solitaire.solve import solve
from ...io.results_csv import ResultsCSV
from .common import decided, figure, plot_row, wilson

STUDY = "live"
VARIANTS = ("real", "free-clues", "no-final", "lifted", "solitaire")
FIELDS = ["study", "seed", "instance", "deck_seed", "players", "hand_size", "variant", "method",
          "clues", "final_round", "h", "verdict", "score", "seconds", "reason", "version"]
KEY = ["seed", "instance", "players", "variant"]
LIVE_METHOD = "search"
SOLITAIRE_DECIDE, SOLITAIRE_MAXIMIZE = "search", "cpsat"
LABELS = {"real": "hanab.live rules (8 clues, final round)",
          "free-clues": "unlimited clues",
          "no-final": "no final round",
          "lifted": "unlimited clues, no final round",
          "solitaire": "solitaire, h = p·H − 1"}


def variant_rules(players: int, variant: str) -> Rules:
    base = Rules.for_players(players)
    if variant == "free-clues":
        return Rules(players, base.hand_size, None)
    if variant in ("no-final", "lifted"):
        return Rules(players, base.hand_size, None if variant == "lifted" else base.clues,
                     final_round=False)
    return base


def deck_rows(seed: int, index: int, players: int, variants: Sequence[str],
              time_limit: float | None) -> list[dict]:
    """The rows of deck ``index`` (deck seed ``seed + index``) with ``players`` for
    each of ``variants``: a plain function of picklable arguments."""
    deck = standard_deck(seed + index)
    rows = []
    for variant in variants:
        rules = variant_rules(players, variant)
        base = {"study": STUDY, "seed": seed, "instance": index, "deck_seed": seed + index,
                "players": players, "hand_size": rules.hand_size, "variant": variant,
                "version": __version__}
        start = time.perf_counter()
        if variant == "solitaire":
            h = players * rules.hand_size - 1
            row = {**base, "h": h, **_solitaire(deck, h, time_limit)}
        else:
            out = solve_live(deck, rules, LIVE_METHOD,
                             SolveOptions(time_limit=time_limit, maximize=variant == "real"))
            row = {**base, "method": LIVE_METHOD,
                   "clues": "unlimited" if rules.clues is None else rules.clues,
                   "final_round": rules.final_round, "verdict": out.status.value,
                   "score": out.score if out.status is not Status.UNKNOWN else None,
                   "reason": out.reason if out.status is not Status.WINNABLE else None}
        rows.append({**row, "seconds": round(time.perf_counter() - start, 6)})
    return rows


def _solitaire(deck, h: int, time_limit: float | None) -> dict:
    out = solve(deck, h, SOLITAIRE_DECIDE, SolveOptions(time_limit=time_limit))
    method, score = SOLITAIRE_DECIDE, deck.target if out.status is Status.WINNABLE else None
    if out.status is Status.UNWINNABLE:
        best = solve(deck, h, SOLITAIRE_MAXIMIZE, SolveOptions(time_limit=time_limit,
                                                                maximize=True))
        method += "+" + SOLITAIRE_MAXIMIZE
        score = best.score if best.status is Status.UNWINNABLE else None
    return {"method": method, "verdict": out.status.value, "score": score,
            "reason": out.reason if out.status is not Status.WINNABLE else None}


def run(csv_path: str, seed: int, count: int, players: Sequence[int] = range(2, 7),
        variants: Sequence[str] = VARIANTS, time_limit: float | None = 2.0,
        progress: bool = False, execution: Execution = SERIAL) -> ResultsCSV:
    """One task per (deck, player count) not yet in the CSV, run as ``execution``
    says; rows are written as tasks finish (readers sort them by KEY)."""
    unknown = [v for v in variants if v not in VARIANTS]
    if unknown:
        raise InvalidParameter(f"unknown variant {unknown[0]!r}; choose from {', '.join(VARIANTS)}")
    rows = ResultsCSV(csv_path, FIELDS, KEY)
    from ...core.progress import bar as progress_bar

    todo = []
    for i in range(count):
        for p in players:
            missing = [v for v in variants if not rows.has(seed=seed, instance=i, players=p, variant=v)]
            if missing:
                todo.append((seed, i, p, missing, time_limit))
    with progress_bar(len(todo), enabled=progress, unit=" decks") as bar, \
            run_tasks(deck_rows, todo, execution) as done:
        for _, answer in done:
            for row in answer:
                rows.add(row)
            bar.update(1)
    return rows


def tally(rows: list[dict]) -> dict[tuple[int, str], Counter]:
    """(players, variant) -> Counter of verdicts."""
    out: dict[tuple[int, str], Counter] = {}
    for r in rows:
        out.setdefault((int(r["players"]), r["variant"]), Counter())[r["verdict"]] += 1
    return out


def best_scores(rows: list[dict]) -> dict[int, Counter]:
    """players -> Counter of the real rules' best scores (decided decks only)."""
    out: dict[int, Counter] = {}
    for r in rows:
        if r["variant"] == "real" and decided(r["verdict"]) and r["score"] != "":
            out.setdefault(int(r["players"]), Counter())[int(r["score"])] += 1
    return dict(sorted(out.items()))


def section_5_1_differences(rows: list[dict]) -> list[tuple[int, int]]:
    """(players, deck seed) where the lifted real game and the solitaire model at
    p*H - 1 give different decided verdicts (journal §5.1 says: never)."""
    verdicts: dict[tuple[int, int], dict[str, str]] = {}
    for r in rows:
        if r["variant"] in ("lifted", "solitaire") and decided(r["verdict"]):
            verdicts.setdefault((int(r["players"]), int(r["deck_seed"])), {})[r["variant"]] = r["verdict"]
    return sorted(k for k, v in verdicts.items() if len(set(v.values())) > 1)


# Each rule set on the right only allows more games than the one on the left
# (encodings/live-search.md, section 7), so a deck won on the left is won on the right.
ORDER = (("real", "free-clues"), ("real", "no-final"), ("free-clues", "lifted"),
         ("no-final", "lifted"))


def _verdicts(rows: list[dict]) -> dict[tuple[int, int], dict[str, str]]:
    out: dict[tuple[int, int], dict[str, str]] = {}
    for r in rows:
        out.setdefault((int(r["players"]), int(r["deck_seed"])), {})[r["variant"]] = r["verdict"]
    return out


def order_violations(rows: list[dict]) -> list[tuple[int, int, str, str]]:
    """(players, deck seed, a, b): won under rule set a, lost under the laxer b (never)."""
    return sorted((p, s, a, b) for (p, s), v in _verdicts(rows).items() for a, b in ORDER
                  if v.get(a) == Status.WINNABLE.value and v.get(b) == Status.UNWINNABLE.value)


def rescued(rows: list[dict]) -> dict[int, dict[str, tuple[int, int]]]:
    """players -> variant -> (decks lost under the real rules and won under the variant,
    decks lost under the real rules and decided under the variant)."""
    out: dict[int, dict[str, tuple[int, int]]] = {}
    for (p, _), v in sorted(_verdicts(rows).items()):
        if v.get("real") != Status.UNWINNABLE.value:
            continue
        for variant in VARIANTS[1:]:
            if decided(v.get(variant, "")):
                won, total = out.setdefault(p, {}).get(variant, (0, 0))
                out[p][variant] = (won + (v[variant] == Status.WINNABLE.value), total + 1)
    return out


def _fraction(c: Counter) -> str:
    won, lost, unknown = c[Status.WINNABLE.value], c[Status.UNWINNABLE.value], c[Status.UNKNOWN.value]
    if not won + lost:
        return "-"
    lo, hi = wilson(won, won + lost)
    return f"{won / (won + lost):.3f} [{lo:.3f}, {hi:.3f}]" + (f" ({unknown} unknown)" if unknown else "")


def summary(rows: list[dict]) -> str:
    counts = tally(rows)
    players = sorted({p for p, _ in counts})
    variants = [v for v in VARIANTS if any((p, v) in counts for p in players)]
    lines = ["fraction winnable (decided decks), 95% Wilson interval, unknown verdicts apart:"]
    width = max(27, *(len(_fraction(c)) for c in counts.values()))
    lines.append("p  decks  " + "  ".join(f"{v:<{width}}" for v in variants).rstrip())
    for p in players:
        decks = max(sum(counts.get((p, v), Counter()).values()) for v in variants)
        lines.append(f"{p:<2} {decks:>5}  " + "  ".join(
            f"{_fraction(counts.get((p, v), Counter())):<{width}}" for v in variants).rstrip())
    scores = best_scores(rows)
    if scores:
        lines.append("best score under the real rules (decks per score):")
        for p, c in scores.items():
            lines.append(f"p = {p}: " + ", ".join(f"{s}: {c[s]}" for s in sorted(c, reverse=True)))
    saved = rescued(rows)
    if saved:
        lines.append("decks lost under the real rules, won once the rules are relaxed "
                     "(of those decided):")
        for p, by in saved.items():
            lines.append(f"p = {p}: " + ", ".join(f"{v}: {w} of {t}" for v, (w, t) in by.items()))
    if len(variants) > 1:
        bad = order_violations(rows)
        lines.append(f"won under a rule set but lost under a laxer one: {len(bad)}"
                     + (f": {bad[:10]}" if bad else ""))
    if "lifted" in variants and "solitaire" in variants:
        diff = section_5_1_differences(rows)
        lines.append(f"journal §5.1 (lifted rules = solitaire at h = p*H - 1): "
                     f"{len(diff)} deck(s) differ" + (f": {diff[:10]}" if diff else ""))
    unknown = sorted((int(r["players"]), int(r["deck_seed"]), r["variant"]) for r in rows
                     if r["verdict"] == Status.UNKNOWN.value)
    if unknown:
        lines.append("unknown (players, deck seed, variant): "
                     + ", ".join(map(str, unknown[:12])) + (" ..." if len(unknown) > 12 else ""))
    return "\n".join(lines)


def plot_winnable(rows, ax=None):
    fig, ax = figure(ax)
    counts = tally(rows)
    players = sorted({p for p, _ in counts})
    variants = [v for v in VARIANTS if any((p, v) in counts for p in players)]
    low = 1.0
    for j, v in enumerate(variants):
        xs, ys, err_lo, err_hi, unknown = [], [], [], [], 0
        for p in players:
            c = counts.get((p, v), Counter())
            won, total = c[Status.WINNABLE.value], c[Status.WINNABLE.value] + c[Status.UNWINNABLE.value]
            unknown += c[Status.UNKNOWN.value]
            if total:
                lo, hi = wilson(won, total)
                xs.append(p + (j - (len(variants) - 1) / 2) * 0.08)
                ys.append(won / total)
                # max(0, .): the rounding of Wilson's bounds at 0 and 1
                err_lo.append(max(0.0, won / total - lo))
                err_hi.append(max(0.0, hi - won / total))
                low = min(low, lo)
        label = LABELS[v] + (f" ({unknown} unknown)" if unknown else "")
        ax.errorbar(xs, ys, yerr=[err_lo, err_hi], marker="os^vD"[j % 5], capsize=3,
                    label=label, linestyle="-" if v == "real" else ":")
    decks = max((sum(c.values()) for c in counts.values()), default=0)
    ax.set(xlabel="players p", ylabel="fraction of decks winnable",
           title=f"Shuffled standard decks ({decks} per p, 95% Wilson CI)",
           ylim=(max(0.0, low - 0.01), 1.002))
    ax.set_xticks(players)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=7, loc="lower right")
    return ax


def plot_scores(rows, ax=None):
    fig, ax = figure(ax)
    scores = best_scores(rows)
    counts = tally(rows)
    players = list(scores)
    if players:
        top = max(max(c) for c in scores.values())
        shown = [top, top - 1, top - 2]
        bottom = [0.0] * len(players)
        floor = 1.0
        for s in [*shown, None]:
            part = [(c[s] if s is not None else sum(v for k, v in c.items() if k < top - 2))
                    / max(1, sum(c.values())) for c in scores.values()]
            label = f"{s}" if s is not None else f"≤ {top - 3}"
            ax.bar(players, part, bottom=bottom, label=label, width=0.6)
            if s == top:
                floor = min(part)
            bottom = [b + x for b, x in zip(bottom, part)]
        for p in players:
            unknown = counts.get((p, "real"), Counter())[Status.UNKNOWN.value]
            if unknown:
                ax.annotate(f"{unknown} unknown", (p, 1.0), ha="center", va="bottom", fontsize=7)
        ax.set_xticks(players)
        # Almost every deck is won: show the top of the bars, where the rest is.
        ax.set_ylim(max(0.0, floor - 0.02), 1.01)
    ax.set(xlabel="players p", ylabel="fraction of decided decks",
           title="Best score under hanab.live rules")
    ax.legend(fontsize=7, title="best score", title_fontsize=7, loc="lower right")
    ax.grid(alpha=0.3, axis="y")
    return ax


def plot(rows, stem: str, csv_path: str | None = None, force: bool = False) -> list[str]:
    return plot_row(rows, stem, (plot_winnable, plot_scores), (12, 4.4), csv_path, force)
