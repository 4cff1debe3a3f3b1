"""Study "hle": HLE's own agents against each deal's exact bound.

Game ``i`` of a run with seed ``S`` is HLE's game of seed ``S + i``
(``interop.hle_agents.play_game``: a fresh environment per game, the agents' random
generator seeded alike), played by every agent at every player count; HLE's deal
depends on the seed only, so a seed is the same deck at every player count.  Each
(deck, player count) gets its exact best score with open hands (``players.bound``),
shared by the agents' rows, and each game that lost a winnable deal the action
after which no game won it any more (``real.postmortem.report.first_loss``, under HLE's
rules).  One CSV row per (seed, players, agent), appended as it is played: a rerun
resumes.

The bound is computed under hanab.live's end rules, where the search can stop a
line at once when no more points can be scored.  It is the same number under HLE's:
an early end comes only when no more points can be scored, and HLE's game can go on
from there without losing one (with 8 clue tokens a clue is legal, below 8 a
discard), so both rule sets reach the same best scores (tests/test_hle.py checks it).

The table gives, per agent and player count, HLE's mean score (0 for a game that
lost its last life), the fireworks those games had built, the perfect games, how
the imperfect ones split between decks no legal game wins (unavoidable) and decks
the bound wins (the agent's own loss), and the mean regret (best minus score).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from ...core.version import __version__
from ...core.errors import SolverBug
from ...runtime.executors import SERIAL, Execution, run_tasks
from ...real.postmortem.report import first_loss
from ...players.bound import Bound, deck_bound
from ...io.results_csv import ResultsCSV
from .strategies import deck_tokens

STUDY = "hle"
FIELDS = ["game", "seed", "players", "agent", "hle_score", "score", "piles", "strikes",
          "turns", "seconds", "best", "winnable", "bound_lower", "bound_method",
          "bound_seconds", "lost_turn", "lost_kind", "deck", "version"]
KEY = ["seed", "players", "agent"]
TARGET = 25


@dataclass(frozen=True)
class _Task:
    players: int
    game: int
    seed: int
    agents: tuple[str, ...]
    time_limit: float | None
    known: Bound | None


def run(csv_path: str, seed: int, games: int, players: Sequence[int], agents: Sequence[str],
        time_limit: float | None = 10.0, progress: bool = False,
        execution: Execution = SERIAL) -> ResultsCSV:
    """Play and bound every (player count, seed, agent) not yet in the CSV."""
    rows = ResultsCSV(csv_path, FIELDS, KEY)
    tasks, done = [], 0
    for p in players:
        for i in range(games):
            s = seed + i
            todo = tuple(a for a in agents if not rows.has(seed=s, players=p, agent=a))
            done += len(agents) - len(todo)
            if todo:
                tasks.append((_Task(p, i, s, todo, time_limit, _known(rows, s, p, agents)),))
    from ...core.progress import bar as progress_bar

    with progress_bar(games * len(players) * len(agents), initial=done, enabled=progress,
                      unit=" games") as bar, run_tasks(_deck_rows, tasks, execution) as out:
        for _, new in out:
            for row in new:
                rows.add(row)
            bar.update(len(new))
    return rows


def _known(rows: ResultsCSV, seed: int, players: int, agents: Sequence[str]) -> Bound | None:
    """The deck's bound already in the CSV (any agent's row)."""
    for r in rows.rows:
        if r["seed"] == str(seed) and r["players"] == str(players) and r["bound_method"]:
            best = r["best"]
            return Bound(int(best) if best != "" else None,
                         None if best == "" else r["winnable"] == "True",
                         int(r["bound_lower"]) if r["bound_lower"] != "" else None,
                         r["bound_method"], float(r["bound_seconds"] or 0))
    return None


def _deck_rows(task: _Task) -> list[dict]:
    from ...interop.hle_agents import play_game

    played = [play_game(a, task.players, task.seed) for a in task.agents]
    deck, rules = played[0].game.deck, played[0].game.rules
    # hanab.live's end rules for the bound: the same best score (see the module text)
    b = task.known or deck_bound(deck, replace(rules, early_ends=True), task.time_limit)
    out = []
    for g in played:
        rep = g.game.replay()
        if not (rep.legal and rep.complete and rep.score == g.game.score):
            raise SolverBug(f"HLE's {g.agent} game of seed {g.seed} ({task.players} players) "
                            f"scored {g.game.score} in HLE but {rep.score} under our referee: "
                            f"{rep.error or 'the game does not end there'}")
        if b.best is not None and rep.score > b.best:
            raise SolverBug(f"HLE's {g.agent} game of seed {g.seed} scored {rep.score} above "
                            f"the bound {b.best}")
        loss = None
        if b.winnable and not rep.won:
            loss = first_loss(deck, rules, g.game.actions, time_limit=task.time_limit)
        out.append({"game": task.game, "seed": task.seed, "players": task.players,
                    "agent": g.agent, "hle_score": g.game.score, "score": rep.score,
                    "piles": g.piles, "strikes": rep.strikes, "turns": rep.turns,
                    "seconds": round(g.seconds, 6), "best": b.best, "winnable": b.winnable,
                    "bound_lower": b.lower, "bound_method": b.method,
                    "bound_seconds": round(b.seconds, 6),
                    "lost_turn": None if loss is None or loss.turn < 0 else loss.turn,
                    "lost_kind": None if loss is None else loss.kind,
                    "deck": deck_tokens(deck), "version": __version__})
    return out


def summary(rows: list[dict]) -> str:
    """The table, as Markdown (README shows it as is): ``loss_table.summary`` per
    player count and agent, with HLE's score (0 for a game that lost its last life)."""
    from .loss_table import summary as table
    return table([{**r, "group": r["agent"], "score": r["hle_score"]} for r in rows])
