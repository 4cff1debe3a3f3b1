"""Refutations: the search's proof that no game from a position reaches a score,
written down so that a checker can walk it again.

A refutation of ``goal`` from a position is the set of states (canonical keys,
``LiveSearch.key``) that the search refuted by trying every move, each with the
highest score it proved out of reach there.  ``check`` walks the game again with
the referee, not with the search's moves: from the position, at every state it
reaches,

- a game that is over must score below ``goal`` (the referee's score);
- else the state is cut if its upper bound (``LiveSearch.bound``) is below
  ``goal``;
- else it must be listed as refuted below ``goal``; it is cut if the relaxation
  of the last draws is below ``goal`` there (``LiveSearch.cut_when_listed``: the
  search lists the states it cuts by it), else every legal action of the referee
  (``Game.legal_actions``) leads to a state checked the same way.

What the check trusts: the referee, the bound and that relaxation (checked against
brute force, and argued in encodings/live-search.md) and that states with one key
have the same best score (the key merges identical cards and cards that can never
be played).
What it does not trust: the search's move generation and move merging, its do/undo
bookkeeping, its rounds of limited discrepancy search and its transposition table.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterable, Iterator, Sequence
from typing import Any, NoReturn

from ..core.errors import InputError, MethodRefused, SolverBug
from ..io.jsonpos import Shape, line_of, load_json
from ..runtime.limits import clip, echo
from ..runtime.deadline import NEVER, Deadline, TimeUp
from .actions import Action
from ..core.model import Deck
from .methods import search_core
from .referee import Game
from .rules import Rules

FORMAT = "hanabi-cp live refutation"
VERSION = 1
SEARCH_PHASE = "the search (refutation)"
CHECK_PHASE = "the refutation check"
CHECK_EVERY = 256           # states between two looks at the clock


class RefutationError(Exception):
    """The refutation does not prove its claim (the message says where)."""


def refuses(start: Game) -> str | None:
    """Why no refutation can be written for the position, or None."""
    v = start.chosen
    if v is not None:
        return (f"{v.name}: the search decides it plan by plan (encodings/variants.md, 8.5), "
                f"and a refutation covers one search's game only")
    return refuses_rules(start.rules)


def refuses_rules(rules: Rules) -> str | None:
    """Why no refutation can be written under ``rules``, or None."""
    if rules.clues is None:
        return ("unlimited clue tokens: the search passes the turn by chains of clues "
                "it does not visit one by one")
    return None


def goal_of(start: Game, out) -> int:
    """The score a loss's refutation refutes: a win, or with ``--maximize`` (``out``
    has a best score) one card more than the best."""
    return start.target if out.score is None else out.score + 1


def refute(start: Game, goal: int, deadline: Deadline = NEVER) -> dict[tuple, int] | None:
    """The refutation of ``goal`` from ``start`` (key -> the highest score proved
    out of reach there, below ``goal``), or None if some game reaches ``goal``.
    It is returned only after ``check``'s walk has gone through it (and holds the
    states that walk used, no more); a search whose table does not check raises
    RefutationError."""
    why = refuses(start)
    if why is not None:
        raise MethodRefused(f"no refutation: {why}")
    S = search_core()
    s = S.LiveSearch(start, deadline.on_perf_counter())
    try:
        if s.game(goal) is not None:
            return None
    except S.Timeout:
        raise TimeUp(deadline.limit, SEARCH_PHASE) from None
    table = s.refuted(goal)
    # only what the walk uses: the search's table also holds states of its earlier
    # rounds and of other goals
    return {key: table[key] for key in _walk(start, goal, table, deadline)}


def check(start: Game, goal: int, refuted: dict[tuple, int],
          deadline: Deadline = NEVER) -> int:
    """Walk the refutation from ``start`` (see the module); the number of refuted
    states the walk used.  RefutationError names the first state it does not
    cover."""
    return len(_walk(start, goal, refuted, deadline))


def _walk(start: Game, goal: int, refuted: dict[tuple, int], deadline: Deadline) -> set[tuple]:
    """The refuted states the walk expands (RefutationError where it fails)."""
    why = refuses(start)
    if why is not None:
        raise MethodRefused(f"no refutation: {why}")
    S = search_core()
    at = deadline.on_perf_counter()
    seen: set[tuple] = set()
    used: set[tuple] = set()
    stack = [start.copy()]
    while stack:
        if len(seen) % CHECK_EVERY == 0:
            deadline.check(CHECK_PHASE)
        g = stack.pop()
        if g.over:
            if g.score >= goal:
                raise RefutationError(f"{_where(g)}: the game is over with score "
                                      f"{g.score}, not below {goal}")
            continue
        s = S.LiveSearch(g, at)
        key = s.key()
        if key in seen:
            continue
        seen.add(key)
        if s.bound(goal) < goal:
            continue
        if refuted.get(key, goal) >= goal:
            raise RefutationError(f"{_where(g)}: neither over, nor cut by the bound, nor "
                                  f"listed as refuted below {goal}")
        used.add(key)
        try:
            cut = s.cut_when_listed(goal, root=g.turn == start.turn)
        except S.Timeout:
            # the relaxation there looks at the clock only between its chunks
            raise TimeUp(deadline.limit, CHECK_PHASE) from None
        if cut:
            continue
        for action in g.legal_actions():
            child = g.copy()
            child.apply(action)
            stack.append(child)
    return used


def _where(g: Game) -> str:
    return (f"turn {g.turn} (piles {'/'.join(map(str, g.piles))}, "
            f"{g.deck.N - g.drawn} cards left, {g.clues} tokens, {g.strikes} strikes)")


def to_json(goal: int, refuted: dict[tuple, int], position: Sequence[Action] = ()) -> str:
    """The refutation as JSON: the goal, the position it starts from (``position``:
    the actions from the deal, hanab.live's JSON; absent for the deal itself), and
    per refuted state its key (nested lists) and the highest score proved out of
    reach there."""
    rows = sorted(([_listed(key), best] for key, best in refuted.items()), key=json.dumps)
    data: dict[str, Any] = {"format": FORMAT, "version": VERSION, "goal": goal}
    if position:
        data["position"] = [a.to_json() for a in position]
    data["refuted"] = rows
    return json.dumps(data, separators=(",", ":")) + "\n"


def position_of(data: dict, text: str, name: str) -> list[Action]:
    """The actions from the deal to the position a decoded refutation starts from
    (none: the deal); InputError naming ``name`` for one out of shape."""
    from .replay_io import parse_actions
    return parse_actions(data.get("position", []), Shape(text, name), ("position",))


def from_json(text: str, name: str) -> tuple[int, dict[tuple, int]]:
    """(goal, refuted) from ``to_json``'s text; InputError naming ``name``."""
    return from_data(load_json(text, name, "the refutation"), name, text)


def is_refutation(data: Any) -> bool:
    """Whether decoded JSON is a refutation (as opposed to, say, a game)."""
    return isinstance(data, dict) and data.get("format") == FORMAT


def from_data(data: Any, name: str, text: str | None = None) -> tuple[int, dict[tuple, int]]:
    """``from_json`` of JSON already decoded; with its ``text``, errors name the line."""
    def fail(where: tuple, expected: str, found: str) -> NoReturn:
        line = None if text is None else line_of(text, where)
        raise InputError(name, line, expected, found)

    if not is_refutation(data):
        fail((), f'a {FORMAT} ("format": "{FORMAT}")', "something else")
    if data.get("version") != VERSION:
        fail(("version",), f"version {VERSION}",
             f"version {clip(json.dumps(data.get('version')))}")
    goal, rows = data.get("goal"), data.get("refuted")
    if not isinstance(goal, int) or isinstance(goal, bool) or not isinstance(rows, list):
        fail(("goal",), '"goal" an integer and "refuted" a list',
             f"{type(goal).__name__} and {type(rows).__name__}")
    refuted: dict[tuple, int] = {}
    for i, row in enumerate(rows):
        if not (isinstance(row, list) and len(row) == 2 and isinstance(row[0], list)
                and isinstance(row[1], int) and not isinstance(row[1], bool)):
            fail(("refuted", i), f"refuted[{i}] as [key, score]", echo(json.dumps(row)))
        if _holds_object(row[0]):
            fail(("refuted", i), f"refuted[{i}] as [key, score], the key nested lists of "
                 "numbers, strings, true, false and null", echo(json.dumps(row[0])))
        refuted[_tupled(row[0])] = row[1]
    return goal, refuted


def _listed(x: Any) -> Any:
    return [_listed(y) for y in x] if isinstance(x, tuple) else x


def _tupled(x: Any) -> Any:
    return tuple(_tupled(y) for y in x) if isinstance(x, list) else x


def _holds_object(x: Any) -> bool:
    """Whether ``x`` is or holds a JSON object, which no state key has (nor could: a
    dict is no dict key)."""
    return isinstance(x, dict) or isinstance(x, list) and any(map(_holds_object, x))


def refute_claim(start: Game, goal: int, deadline: Deadline,
                 claimed_by: str) -> dict[tuple, int]:
    """The refutation of ``goal`` from ``start`` that ``claimed_by`` says exists (a
    loss it answered), checked (TimeUp when ``deadline`` passes first).  A search
    that finds a game reaching ``goal``, or whose table does not check, is a
    SolverBug."""
    try:
        table = refute(start, goal, deadline)
    except RefutationError as exc:
        raise SolverBug(f"the search's own refutation does not check: {exc}") from None
    if table is None:
        raise SolverBug(f"{claimed_by} said no game reaches {goal}, but the search found one")
    return table


def refute_positions(deck: Deck, rules: Rules, actions: Sequence[Action],
                     bests: Iterable[tuple[int, int]], limit: float | None,
                     deadline: Deadline = NEVER) -> Iterator[tuple[int, int, dict | None]]:
    """For each (k, best) of a post-mortem, the refutation of ``best`` + 1 from the
    position after the game's first k actions: (k, goal, the refutation), or
    (k, goal, None) when ``limit`` seconds (and ``deadline``) ran out first."""
    g, at = Game.start(deck, rules), 0
    for k, best in bests:
        while at < k:
            g.apply(actions[at])
            at += 1
        share = deadline.share(limit)
        table = None
        if share is None or share > 0:
            with contextlib.suppress(TimeUp):       # out of time: no refutation
                table = refute_claim(g, best + 1, Deadline.after(share),
                                     f"the post-mortem (position {k}, best score {best})")
        yield k, best + 1, table
