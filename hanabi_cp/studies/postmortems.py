"""Post-mortems of game files: one game, or a folder of them into one CSV.

``load_game`` reads a game file (a hanab.live export, a certificate, a game of
``play``) into the deck, the rules its options say, the actions and the players'
names.  ``run_folder`` analyses every ``*.json`` game of a folder
(``live.postmortem.analyze``) and appends one row per position to a CSV, a game's
rows as soon as that game is done; a rerun skips the games already complete.
"""

from __future__ import annotations

import os

from ..errors import UsageError
from ..runtime.executors import SERIAL, Execution, run_tasks
from ..formats.decks import read_deck_file
from ..formats.results_csv import ResultsCSV
from ..live.actions import Action
from ..live.older_games import as_recorded
from ..live.postmortem import PostMortem, analyze
from ..live.replay_io import read_replay
from ..live.rules import Rules
from ..model import Deck

FIELDS = ["file", "position", "turn", "player", "action", "best", "hanablive_max", "status",
          "score", "lower", "upper", "method", "seconds"]
KEY = ["file", "position"]


def load_game(path: str, deck_path: str | None = None, players: int | None = None,
              any_deck: bool = False) -> tuple[Deck, Rules, list[Action], tuple[str, ...]]:
    """(deck, rules, actions, player names) of a game file; a bare list of actions
    needs ``deck_path`` and ``players``; ``any_deck`` takes a deck its variant does
    not deal."""
    game = read_replay(path, any_deck)
    deck = game.deck
    if deck_path is not None:
        given = read_deck_file(deck_path).deck
        if deck is not None and list(given.cards) != list(deck.cards):
            raise UsageError(f"{path}: its deck is not the {{deck_path}} {deck_path}",
                             "deck_path")
        deck = given
    if deck is None:
        raise UsageError(f"{path}: the game has no deck: give {{deck_path}}", "deck_path")
    if players is not None and game.players not in (None, players):
        raise UsageError(f"{path}: the game has {game.players} players, but {{players}} "
                         f"{players} was given", "players")
    count = game.players or players
    if count is None:
        raise UsageError(f"{path}: the game does not list its players: give {{players}}",
                         "players")
    # an older game whose actions run past today's end is read as recorded
    rules = as_recorded(deck, game.options.rules(count), game.actions).rules
    names = game.names or tuple(f"player {i}" for i in range(count))
    return deck, rules, game.actions, names


def rows_of(name: str, result: PostMortem) -> list[dict]:
    return [{"file": name, **row.as_dict()} for row in result.rows]


def write_rows(csv_path: str, name: str, result: PostMortem, force: bool = False) -> None:
    """One game's rows as a new CSV (``-``: stdout)."""
    if csv_path != "-" and os.path.exists(csv_path):
        if not force:
            raise UsageError(f"{csv_path}: exists; use {{force}} to overwrite it", "force")
        os.remove(csv_path)
    table = ResultsCSV(csv_path, FIELDS, KEY)
    for row in rows_of(name, result):
        table.add(row)


def game_files(folder: str) -> list[str]:
    names = sorted(n for n in os.listdir(folder) if n.endswith(".json"))
    if not names:
        raise UsageError(f"{folder}: no game files (*.json) in the folder")
    return names


def _one(path: str, name: str, method: str, position_limit: float | None,
         players: int | None) -> list[dict]:
    deck, rules, actions, names = load_game(path, None, players)
    return rows_of(name, analyze(deck, rules, actions, names, method, position_limit))


def run_folder(folder: str, csv_path: str, method: str = "auto",
               position_limit: float | None = 10.0, progress: bool = False,
               execution: Execution = SERIAL,
               players: int | None = None) -> tuple[ResultsCSV, int, int]:
    """Analyse the games of ``folder`` not yet complete in the CSV: (table, rows
    added, games in the folder)."""
    table = ResultsCSV(csv_path, FIELDS, KEY)
    names = game_files(folder)
    todo = []
    for name in names:
        path = os.path.join(folder, name)
        # done when the row of its last position is there (a game's rows go in order)
        if not table.has(file=name, position=len(read_replay(path).actions)):
            todo.append((path, name, method, position_limit, players))
    from ..progress import bar as progress_bar

    before = table.added
    with progress_bar(len(names), initial=len(names) - len(todo), enabled=progress,
                      unit=" games") as bar, run_tasks(_one, todo, execution) as done:
        for _, rows in done:
            for row in rows:
                table.add(row)
            bar.update(1)
    return table, table.added - before, len(names)

