"""Decks as JSON: hanabi-cp's own shape and hanab.live game exports.

Ours (keys sorted when written; only "cards" is required)::

    {"c": 2, "cards": [[1, 1], [2, 2], [1, 2], [2, 1]], "comments": ["..."],
     "h": 1, "n": 2, "roles": ["x1", "x1", "x2", "x2"]}

hanab.live exports a game as an object whose "deck" is a list of
``{"suitIndex": s, "rank": r}`` with suitIndex from 0; we import suit s as color
s + 1, with n and c the largest rank and color seen (every other key is ignored).
"""

from __future__ import annotations

import json

from ..runtime.deadline import poll
from ..runtime.limits import KINDS_EXPECTED, MAX_CARD_KINDS, clip, kinds_excess
from ..core.model import Card, Deck, check_hand
from .deck_text import check_roles
from .jsonpos import Shape, describe, is_int, load_json

OUR_KEYS = ("c", "cards", "comments", "h", "n", "roles")
CARDS_PER_LINE = 10




def parse_deck_json(text: str, path: str = "<string>"):
    """Parse our JSON deck or a hanab.live export into ``(deck, h, roles)``.

    >>> deck, h, roles = parse_deck_json('{"cards": [[1, 1], [2, 1]], "h": 1}')
    >>> str(deck), deck.n, deck.c, h, roles
    ('1:1 2:1', 2, 1, 1, None)
    >>> deck, h, roles = parse_deck_json('{"deck": [{"suitIndex": 4, "rank": 1}]}')
    >>> str(deck), deck.n, deck.c
    ('1:5', 1, 5)
    """
    data = load_json(text, path, "the deck")
    shape = Shape(text, path, data)
    if not isinstance(data, dict) or not ("cards" in data or "deck" in data):
        shape.fail((), 'a JSON object with "cards" (a hanabi-cp deck) or "deck" '
                   '(a hanab.live export)', describe(data))
    if "cards" in data:
        return _ours(data, shape)
    return _hanab_live(data, shape), None, None


def _ours(data: dict, shape: Shape):
    for key in data:
        if key not in OUR_KEYS:
            shape.fail((key,), "only the keys " + ", ".join(f'"{k}"' for k in OUR_KEYS),
                       clip(json.dumps(key)))
    params = {}
    for key in ("n", "c", "h"):
        if key in data:
            if not (is_int(data[key]) and data[key] >= 0):
                shape.fail((key,), f'"{key}": a non-negative integer', describe(data[key]))
            if key != "h" and data[key] > MAX_CARD_KINDS:
                shape.fail((key,), KINDS_EXPECTED, f'"{key}": {data[key]:,}')
            params[key] = data[key]
    cards = data["cards"]
    if not isinstance(cards, list):
        shape.fail(("cards",), '"cards": a list of [value, color]', describe(cards))
    n, c = params.get("n"), params.get("c")
    out = []
    for i, card in enumerate(cards):
        if not i & 4095:
            poll("reading the deck")         # a command's --time-limit
        if not (isinstance(card, list) and len(card) == 2 and all(map(is_int, card))
                and card[0] >= 1 and card[1] >= 1):
            shape.fail(("cards", i), f"card #{i + 1} as [value, color], two integers >= 1",
                       describe(card))
        if n is not None and card[0] > n:
            shape.fail(("cards", i), f'card #{i + 1} with a value in 1..{n} ("n": {n})',
                       describe(card))
        if c is not None and card[1] > c:
            shape.fail(("cards", i), f'card #{i + 1} with a color in 1..{c} ("c": {c})',
                       describe(card))
        out.append(Card(card[0], card[1]))
    if not out and (n is None or c is None):
        shape.fail(("cards",), 'at least one card (or both "n" and "c" for an empty deck)',
                   "an empty list")
    for key in ("comments", "roles"):
        value = data.get(key, [])
        if not isinstance(value, list) or not all(isinstance(s, str) for s in value):
            shape.fail((key,), f'"{key}": a list of strings', describe(value))
    n = max((a for a, _ in out), default=0) if n is None else n
    c = max((k for _, k in out), default=0) if c is None else c
    excess = kinds_excess(n, c)
    if excess is not None:
        _too_large(out, shape, "cards", "a value and color")
        shape.fail(("n",) if "n" in data else ("cards",), KINDS_EXPECTED, excess)
    deck = Deck.of(out, n, c)
    roles = data.get("roles")
    if roles is not None:
        if len(roles) != len(out):
            shape.fail(("roles",), f'"roles": one per card ({len(out)})', str(len(roles)))
        try:
            roles = check_roles(deck, roles)
        except ValueError as e:
            shape.fail(("roles",), '"roles": non-empty single-line strings', clip(str(e), 200))
    return deck, params.get("h"), roles


def _hanab_live(data: dict, shape: Shape) -> Deck:
    entries = data["deck"]
    if not isinstance(entries, list) or not entries:
        shape.fail(("deck",), '"deck": a non-empty list of {"suitIndex": s, "rank": r}',
                   describe(entries))
    cards = []
    for i, entry in enumerate(entries):
        if not i & 4095:
            poll("reading the deck")
        if not (isinstance(entry, dict) and is_int(entry.get("suitIndex"))
                and is_int(entry.get("rank")) and entry["suitIndex"] >= 0
                and entry["rank"] >= 1):
            shape.fail(("deck", i), f'card #{i + 1} as {{"suitIndex": s >= 0, "rank": r >= 1}}',
                       describe(entry))
        cards.append(Card(entry["rank"], entry["suitIndex"] + 1))
    n, c = max(a for a, _ in cards), max(k for _, k in cards)
    excess = kinds_excess(n, c)
    if excess is not None:
        _too_large(cards, shape, "deck", '"rank" and "suitIndex" + 1')
        shape.fail(("deck",), KINDS_EXPECTED, excess)
    return Deck.of(cards, n, c)


def _too_large(cards: list[Card], shape: Shape, key: str, what: str) -> None:
    """Fail at the first card whose value or color alone is above the limit, if any
    (looked for only once the deck is over it, so reading stays one pass)."""
    for i, card in enumerate(cards):
        if max(card) > MAX_CARD_KINDS:
            shape.fail((key, i), f"card #{i + 1} with {what} of at most {MAX_CARD_KINDS:,} "
                       "(hanabi-cp's limit on n x c)", describe(shape.value(key, i)))


def deck_to_json(deck: Deck, h: int | None = None, roles=None, comments=()) -> str:
    """Our JSON shape with sorted keys, ten cards per line.

    >>> print(deck_to_json(Deck.of([(1, 1), (2, 2)]), h=1, comments=["example"]), end="")
    {
      "c": 2,
      "cards": [[1, 1], [2, 2]],
      "comments": ["example"],
      "h": 1,
      "n": 2
    }
    """
    roles = check_roles(deck, roles)
    if h is not None:
        check_hand(h)
    items = {"n": json.dumps(deck.n), "c": json.dumps(deck.c),
             "cards": _wrapped([f"[{a}, {k}]" for a, k in deck.cards])}
    if h is not None:
        items["h"] = json.dumps(h)
    comments = [str(x) for x in comments]
    if comments:
        items["comments"] = _wrapped([json.dumps(x) for x in comments], 1)
    if roles is not None:
        items["roles"] = _wrapped([json.dumps(x) for x in roles])
    body = ",\n".join(f"  {json.dumps(k)}: {v}" for k, v in sorted(items.items()))
    return "{\n" + body + "\n}\n"


def _wrapped(parts: list[str], per_line: int = CARDS_PER_LINE) -> str:
    if len(parts) <= per_line:
        return "[" + ", ".join(parts) + "]"
    rows = [", ".join(parts[i:i + per_line]) for i in range(0, len(parts), per_line)]
    return "[\n    " + ",\n    ".join(rows) + "\n  ]"
