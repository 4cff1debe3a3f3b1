"""The space of random tiny real-rules instances the harness draws from.

Instance ``i`` of seed ``s`` comes from its own ``random.Random(f"{s}:live:{i}")``, so
any one instance can be regenerated alone and the same (seed, bounds) always gives
the same instances.  A deck is drawn small enough for brute force (the oracle,
``max_cards``), with the shapes where mistakes hide mixed in: full decks, decks
with a card missing (lost at once), decks the deal takes entirely (the p + 1 turn
game), one-color decks; the rules too: 2 or 3 players, 1 to ``max_hand`` cards
each, 0 to ``max_clues`` clue tokens or unlimited, 1 to ``max_strikes`` strikes,
now and then no final round.

>>> space = LiveSpace()
>>> [inst.deck.N for inst in space.instances(seed=5, count=6)]
[3, 6, 5, 4, 4, 2]
>>> space.instance(5, 1).describe()
'#1 missing: n=2 c=2 N=6, 2 players, 2 cards each, 1 clues, 3 strikes'
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass

from ...core.errors import InvalidParameter
from ..generators import random_deck
from ...real.rules import MAX_PLAYERS, MIN_PLAYERS, Rules
from ...core.model import Deck
from .space import Drawn, require_at_least

KINDS = (("random", 5), ("exact", 2), ("missing", 1), ("deal-only", 1), ("c1", 1))
NO_FINAL_ROUND = 0.1        # share of instances without the final round


@dataclass(frozen=True)
class LiveInstance(Drawn):
    rules: Rules

    def describe(self) -> str:
        d = self.deck
        return f"#{self.index} {self.kind}: n={d.n} c={d.c} N={d.N}, {self.rules.describe()}"


@dataclass(frozen=True)
class LiveSpace:
    max_n: int = 3
    max_c: int = 2
    max_r: int = 2
    max_hand: int = 2
    max_players: int = 3
    max_cards: int = 8
    max_clues: int = 3
    max_strikes: int = 3

    def __post_init__(self) -> None:
        require_at_least(self, ("max_n", "max_c", "max_r", "max_hand", "max_cards", "max_strikes"), 1)
        require_at_least(self, ("max_clues",), 0)
        if not MIN_PLAYERS <= self.max_players <= MAX_PLAYERS:
            raise InvalidParameter(f"{{max_players}} must be {MIN_PLAYERS} to {MAX_PLAYERS}, "
                                   f"found {self.max_players!r}", "max_players")
        # The largest rules drawn must be rules: refused now, not at some instance.
        Rules(self.max_players, self.max_hand, self.max_clues, self.max_strikes)

    def stream(self) -> str:
        """What identifies this space's instances in the harness CSV."""
        return (f"live max-n={self.max_n} max-c={self.max_c} max-r={self.max_r} "
                f"max-hand={self.max_hand} max-players={self.max_players} "
                f"max-cards={self.max_cards} max-clues={self.max_clues} "
                f"max-strikes={self.max_strikes}")

    def instance(self, seed: int, index: int) -> LiveInstance:
        rng = random.Random(f"{seed}:live:{index}")
        kind = rng.choices([k for k, _ in KINDS], [w for _, w in KINDS])[0]
        players = rng.randint(MIN_PLAYERS, self.max_players)
        hand = rng.randint(1, self.max_hand)
        # rng.choice([0, ..., max_clues, None]) without the list: the same draw
        clues: int | None = rng.randrange(self.max_clues + 2)
        if clues == self.max_clues + 1:
            clues = None
        rules = Rules(players, hand, clues, rng.randint(1, self.max_strikes),
                      final_round=rng.random() >= NO_FINAL_ROUND)
        return LiveInstance(index, kind, self._deck(rng, kind, players * hand), rules)

    def instances(self, seed: int, count: int) -> Iterator[LiveInstance]:
        for i in range(count):
            yield self.instance(seed, i)

    def _deck(self, rng: random.Random, kind: str, dealt: int) -> Deck:
        cap = min(self.max_cards, dealt) if kind == "deal-only" else self.max_cards
        while True:
            n, c = rng.randint(1, self.max_n), rng.randint(1, self.max_c)
            if kind == "c1":
                n, c = rng.randint(1, min(2 * self.max_n, cap)), 1
            if n * c <= cap or kind == "deal-only":
                break
        deck = random_deck(rng, n, c, rng.randint(1, self.max_r), exact_copies=kind == "exact",
                           p_missing=0.2 if kind == "missing" else 0.0)
        cards = list(deck.cards)
        while len(cards) > cap:
            # Too many cards: drop spare copies first, so that most decks stay winnable.
            spare = [i for i, card in enumerate(cards) if cards.count(card) > 1]
            cards.pop(rng.choice(spare or range(len(cards))))
        return Deck(tuple(cards), deck.n, deck.c)
