"""A folder of HLE's agents' games: one game file each and ``games.csv`` listing them.

``play_into`` is the run behind ``hanabi-cp hle play``: every game is converted,
replayed by our referee under HLE's end rules (a score that is not HLE's is a
SolverBug) and written as it ends; the CSV is written last, whole, so it lists only
games that are there.  A run cut short (a full disk, an interrupt) leaves the marker
``INCOMPLETE`` in the folder, and a rerun may overwrite that run's files.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from ..core.errors import FileError, SolverBug
from .hle_agents import play_game

# The marker of a folder of games that a run has not finished.
INCOMPLETE = "hle-play-incomplete"
PLAY_FIELDS = ["game", "seed", "players", "agent", "hle_score", "score", "piles",
               "lives", "turns", "dealt", "file"]


def game_file(agent: str, players: int, seed: int) -> str:
    return f"{agent}-{players}p-seed{seed}.json"


def game_paths(out_dir: str, agent: str, players: int, seed: int, games: int) -> dict[str, str]:
    """The file of each game, by the name an error about it uses ("game i")."""
    return {f"game {i}": os.path.join(out_dir, game_file(agent, players, seed + i))
            for i in range(games)}


def resumed(out_dir: str) -> bool:
    """Whether ``out_dir`` holds the games of a run that did not finish."""
    return os.path.isfile(os.path.join(out_dir, INCOMPLETE))


@dataclass(frozen=True)
class PlayedFolder:
    rows: list[dict]        # one per game, PLAY_FIELDS

    @property
    def mean_score(self) -> float:
        return sum(r["hle_score"] for r in self.rows) / len(self.rows)


def play_into(out_dir: str, csv_path: str, agent: str, players: int, seed: int, games: int,
              progress: bool = False) -> PlayedFolder:
    """HLE's ``agent`` plays ``games`` games of ``players`` (HLE's seeds ``seed``,
    ``seed + 1``, ...), each written into ``out_dir`` (made if missing) and listed in
    ``csv_path``.  Existing files are overwritten: the caller checks them first."""
    from ..core.progress import track
    from ..io.outputs import exclusive, write_text, writing
    from ..io.results_csv import table_text
    files = game_paths(out_dir, agent, players, seed, games)
    marker = os.path.join(out_dir, INCOMPLETE)
    try:
        os.makedirs(out_dir, exist_ok=True)
        exclusive(csv_path)         # its folder may only exist now (a no-op if locked)
        with writing(marker), open(marker, "w", encoding="utf-8"):
            pass        # empty: its name says it, and a full disk still has room for it
    except OSError as exc:
        raise FileError(f"{out_dir}: cannot write the games: {exc.strerror}") from None
    rows = []
    for i in track(range(games), enabled=progress, unit=" games"):
        played = play_game(agent, players, seed + i)
        g = played.game
        rep = g.replay()
        if not (rep.legal and rep.complete and rep.score == g.score):
            raise SolverBug(f"seed {seed + i}: HLE scored {g.score}, our referee "
                            f"{rep.score}: {rep.error or 'the game does not end there'}")
        path = files[f"game {i}"]
        try:
            write_text(path, g.json(), True)
        except FileError as exc:
            raise FileError(f"{out_dir}: incomplete: {i} of {games} games written "
                            f"({INCOMPLETE} says so; a rerun finishes them): {exc}") from None
        rows.append({"game": i, "seed": seed + i, "players": players, "agent": agent,
                     "hle_score": g.score, "score": rep.score, "piles": played.piles,
                     "lives": played.lives, "turns": rep.turns, "dealt": g.dealt,
                     "file": os.path.basename(path)})
    write_text(csv_path, table_text(PLAY_FIELDS, rows), True)
    os.remove(marker)
    return PlayedFolder(rows)
