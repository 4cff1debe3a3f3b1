"""Post-mortems of game files: one game, and the CSV rows of one.

``load_game`` reads a game file (a hanab.live export, a certificate, a game of
``play``) into the deck, the rules it records, the actions and the players' names;
``write_rows`` writes one game's rows as a CSV (``game_folders`` does a folder's).
The CSV's columns are ``Row.as_dict``'s, after ``file``; ``reason`` and
``reason_kind`` say why the best score fell at a drop's row (``drop_reasons``), and
``reason`` alone why a game in a folder was refused (its one row, ``REFUSED``).
"""

from __future__ import annotations


from ...core.errors import UsageError
from ...io.decks import read_deck_file
from ...real.actions import Action
from ...real.older_games import as_recorded
from ...real.postmortem.report import PostMortem
from ...real.replay_io import read_replay
from ...real.rules import Rules
from ...core.model import Deck

FIELDS = ["file", "position", "turn", "player", "action", "best", "hanablive_max", "status",
          "score", "lower", "upper", "method", "seconds", "slot", "card", "knew", "seen",
          "pace", "reason", "reason_kind"]
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
    """The CSV rows of one game (``knew``: its card names, space-separated; a drop's
    row with its reason)."""
    why = {d.position: d for d in result.drops}
    out = []
    for row in result.rows:
        d = {"file": name, **row.as_dict()}
        drop = why.get(row.position)
        if drop is not None and drop.reason_kind:
            d["reason"], d["reason_kind"] = drop.reason, drop.reason_kind
        if isinstance(d.get("knew"), list):
            d["knew"] = " ".join(d["knew"])
        out.append(d)
    return out


def write_rows(csv_path: str, name: str, result: PostMortem, force: bool = False) -> None:
    """One game's rows as a new CSV (``-``: stdout), written whole to a temporary file
    and renamed over ``csv_path`` (so ``force`` never loses the old file before the
    new one is complete, and a device such as /dev/full is written in place)."""
    from ...io.outputs import write_text
    from ...io.results_csv import table_text
    write_text(csv_path, table_text(FIELDS, rows_of(name, result)), force)
